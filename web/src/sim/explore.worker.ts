// The explorer's Web Worker: loads its own copy of the wasm module, the one built for speed
// (pkg-fast, opt-level 3: scripts/build-wasm.mjs), and runs one search.
import init, { explore } from './pkg-fast/slub_wasm.js';
import { pageMemoryMb, runExploreRequest, type ExploreMessage, type ExploreRequest } from './explore';

const ready = init();

self.onmessage = async (ev: MessageEvent<unknown>) => {
  const post = (m: ExploreMessage) => self.postMessage(m);
  const req = ev.data as Partial<ExploreRequest> | null;
  if (req?.type !== 'slub-lab:explore') return; // not ours: ignore
  try {
    await ready;
  } catch (e) {
    post({ type: 'error', message: `cannot load the simulator: ${String(e)}` });
    return;
  }
  // The budget must be one this tab can keep: tell the search what the page can get.
  const r = req as ExploreRequest;
  const available = r.bounds.availableMemoryMb ?? pageMemoryMb(self.navigator as { deviceMemory?: unknown });
  const bounds = available === undefined ? r.bounds : { ...r.bounds, availableMemoryMb: available };
  runExploreRequest(explore, { ...r, bounds }, post);
};
