// `#/compare`'s Web Worker: loads its own copy of the simulator and does all
// of the side-by-side view's computation (engine.ts), so the page's thread only draws. The
// runs go on in slices of a few milliseconds, between which the page's requests are answered.
import { loadWasm, SimCrash } from '../../sim';
import { CompareEngine } from './engine';
import type { CompareReply, CompareRequest } from './protocol';

/** A slice of running between two looks at the message queue. */
const SLICE_MS = 30;

const ready = loadWasm();
let engine: CompareEngine | null = null;
/** The frame the page asked for and has not had yet. */
let wanted: number | null = null;
let pumping = false;

const post = (m: CompareReply) => self.postMessage(m);

function fail(e: unknown): void {
  engine = null;
  const message = e instanceof Error ? e.message : String(e);
  post({ kind: e instanceof SimCrash ? 'crash' : 'error', message });
}

/** Answer the wanted frame if both sides have reached it. */
function answer(): void {
  if (engine === null || wanted === null) return;
  const frames = engine.frame(wanted);
  if (frames === null) return;
  post({ kind: 'frame', k: wanted, frames });
  wanted = null;
}

/** Run a slice, report, answer; again after the queue has been looked at, until the end. */
function pump(): void {
  pumping = false;
  const e = engine;
  if (e === null) return;
  try {
    const progress = e.advance(SLICE_MS);
    post(progress);
    answer();
    if (!progress.finished) {
      pumping = true;
      setTimeout(pump, 0);
    }
  } catch (err) {
    fail(err);
  }
}

self.onmessage = async (ev: MessageEvent<unknown>) => {
  const req = ev.data as Partial<CompareRequest> | null;
  try {
    await ready;
  } catch (e) {
    post({ kind: 'crash', message: `cannot load the simulator: ${String(e)}` });
    return;
  }
  try {
    if (req?.type === 'slub-lab:compare-load' && typeof req.scenario === 'string') {
      engine?.free();
      engine = null;
      const loaded = CompareEngine.load(req.scenario, req.schedules ?? null, req.eras);
      if (!(loaded instanceof CompareEngine)) {
        post(loaded);
        return;
      }
      engine = loaded;
      post(loaded.loaded);
      if (!pumping) {
        pumping = true;
        setTimeout(pump, 0);
      }
    } else if (req?.type === 'slub-lab:compare-frame' && typeof req.k === 'number') {
      wanted = req.k;
      answer();
    }
  } catch (e) {
    fail(e);
  }
};
