// The Lab's Web Worker: loads its own instance of the lab's wasm module (pkg-lab) and runs the
// seed comparisons it is sent, one request at a time (lab-runner.ts sends the next when a
// result comes back).
import init, { labRunSeed, lastPanic } from './pkg-lab/slub_lab_wasm.js';
import { runLabRequest, type LabRunMessage, type LabRunRequest } from './lab-protocol';

const ready = init();

self.onmessage = async (ev: MessageEvent<unknown>) => {
  const post = (m: LabRunMessage) => self.postMessage(m);
  const req = ev.data as Partial<LabRunRequest> | null;
  if (req?.type !== 'slub-lab:lab-run' || typeof req.id !== 'string') return; // not ours: ignore
  try {
    await ready;
  } catch (e) {
    post({ type: 'error', id: req.id, message: `cannot load the simulator: ${String(e)}`, crash: true });
    return;
  }
  const panic = () => {
    try {
      return lastPanic();
    } catch {
      return undefined; // the instance is too broken to say
    }
  };
  runLabRequest(labRunSeed, panic, req as LabRunRequest, post);
};
