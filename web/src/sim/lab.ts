// The Lab's side of the bridge (`#/lab`): the seed comparisons of the model
// (wasm-core/lab/src/seeds.rs, exported by export.rs) as typed values. The worker's protocol
// and logic are in lab-protocol.ts (re-exported here).
//
// The Lab's entry points live in a wasm module of their own (wasm-core/lab-wasm, built into
// ./pkg-lab): the playground and the lessons never fetch it. What is cheap runs here, on the
// page's instance of it: the cases' metadata (`labCases`), the pending seeds and the stepper
// scenario of one side. What is not (running a comparison: two workloads of 10⁴–10⁵
// operations, 0.2–1 s each in wasm) runs in a Web Worker with its own instance, one case at a
// time (lab-runner.ts, lab.worker.ts).
//
// On a page, importing this module loads the lab module (a top-level await: the Lab page is a
// lazy chunk, so React shows its fallback meanwhile, and a failed load fails that import).
// Elsewhere (the worker, node tests) the caller loads it: `loadLab` or `loadLabSync`.
//
// Failures leave as the rest of the bridge's do: SimError for what the model refuses (an
// unknown id), SimCrash for a bug (a Rust panic, a listing of another schema version).
import init, {
  initSync,
  labCases as rawCases,
  labPending as rawPending,
  labStepperScenario as rawStepper,
  lastPanic,
} from './pkg-lab/slub_lab_wasm.js';
import { LAB_SCHEMA_VERSION, sortError } from './lab-protocol';
import { SimCrash } from './simulator';

export { LAB_SCHEMA_VERSION, runLabRequest, sortError } from './lab-protocol';
export type { LabRunMessage, LabRunRequest } from './lab-protocol';

let loaded: Promise<void> | undefined;

/** Fetch and instantiate the lab's wasm module (once; later calls share the first). */
export function loadLab(): Promise<void> {
  loaded ??= init().then(() => undefined);
  return loaded;
}

/** Instantiate the lab's wasm module from its bytes (node: tests). */
export function loadLabSync(bytes: BufferSource): void {
  initSync({ module: bytes });
  loaded = Promise.resolve();
}

if (typeof document !== 'undefined') {
  try {
    await loadLab();
  } catch (e) {
    throw new SimCrash(`cannot load the lab's simulator: ${String(e)}`, { cause: e });
  }
}

/** `key=value` of a scenario's variant (or `allocator`), as the seed case lists them. */
export type Pair = readonly [key: string, value: string];

// What crosses is generated from the Rust types by ts-rs (./generated, checked by
// wasm-core/wasm/tests/contract.rs).
export type { CaseInfo } from './generated/CaseInfo';
export type { CostRow } from './generated/CostRow';
export type { LabCases } from './generated/LabCases';
export type { LabParams } from './generated/LabParams';
export type { Metric } from './generated/Metric';
export type { OpLine } from './generated/OpLine';
export type { PendingSeed } from './generated/PendingSeed';
export type { SeedResult } from './generated/SeedResult';
export type { Side } from './generated/Side';
export type { Sensitivity } from './generated/Sensitivity';
export type { Shares } from './generated/Shares';
import type { LabCases } from './generated/LabCases';
import type { PendingSeed } from './generated/PendingSeed';

function panicMessage(): string | undefined {
  try {
    return lastPanic();
  } catch {
    return undefined;
  }
}

function call<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw sortError(e, panicMessage());
  }
}

/** Every seed case, the tolerance and the cost table (nothing is run). */
export function labCases(): LabCases {
  const cases = JSON.parse(call(() => rawCases())) as LabCases;
  if (cases.schemaVersion !== LAB_SCHEMA_VERSION) {
    throw new SimCrash(`the simulator sent lab cases of schemaVersion ${cases.schemaVersion}, this page understands ${LAB_SCHEMA_VERSION}`);
  }
  return cases;
}

/** The seed comparisons the model cannot run yet, with what they need. */
export function labPending(): PendingSeed[] {
  return JSON.parse(call(() => rawPending())) as PendingSeed[];
}

/** The scenario JSON of one side of a comparison, small enough for the stepper. */
export function labStepperScenario(id: string, after: boolean): string {
  return call(() => rawStepper(id, after));
}
