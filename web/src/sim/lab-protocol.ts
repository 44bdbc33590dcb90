// The Lab's worker protocol (`#/lab`): the request the page sends its Web Worker, the message
// the worker posts back, and the worker's logic as a pure function of the wasm entry points
// (so it is tested in node). Apart from lab.ts because the worker imports it: lab.ts loads the
// lab's wasm module with a top-level await when imported on a page, which a worker bundle
// (iife) cannot hold.
import type { SeedResult } from './lab';
import { SimCrash, SimError } from './simulator';

/** The version of the `labCases` object this page reads. */
export const LAB_SCHEMA_VERSION = 1;

/** Errors sorted as the bridge sorts them (simulator.ts): a panic or trap is a crash. */
export function sortError(e: unknown, panic: string | undefined): SimError | SimCrash {
  if (panic !== undefined || e instanceof WebAssembly.RuntimeError) return new SimCrash(panic ?? String(e), { cause: e });
  return new SimError(e instanceof Error ? e.message : String(e), { cause: e });
}

export interface LabRunRequest {
  type: 'slub-lab:lab-run';
  version: typeof LAB_SCHEMA_VERSION;
  id: string;
}

export type LabRunMessage =
  | { type: 'result'; id: string; result: SeedResult; ms: number }
  | { type: 'error'; id: string; message: string; crash: boolean };

/** Run one comparison with the wasm `labRunSeed` and post its result or why it failed. */
export function runLabRequest(
  run: (id: string) => string,
  panic: () => string | undefined,
  req: LabRunRequest,
  post: (m: LabRunMessage) => void,
  now: () => number = () => performance.now(),
): void {
  const t0 = now();
  try {
    const result = JSON.parse(run(req.id)) as SeedResult;
    post({ type: 'result', id: req.id, result, ms: now() - t0 });
  } catch (e) {
    const err = sortError(e, panic());
    post({ type: 'error', id: req.id, message: err.message, crash: err instanceof SimCrash });
  }
}
