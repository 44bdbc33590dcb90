// The Lab's side of the bridge (`#/lab`, issue 6): the seed comparisons of the model
// (wasm-core/lab/src/lib.rs, exported by export.rs) as typed values. The worker's protocol
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

/** The workload's parameters and the cache they imply (`lab::ParamsOut`). */
export interface LabParams {
  cpus: number;
  nodes: number;
  size: number;
  n: number;
  rounds?: number;
  window?: number;
  /** `producer-consumer`: producer/consumer pairs running at once. */
  pairs?: number;
  objectsPerSlab: number;
  slabOrder: number;
  minPartial: number;
  cpuPartial: number;
}

/** Which number of a run a comparison reads. */
export type Metric = 'alloc' | 'free' | 'pair' | 'message';

/** One seed comparison, not yet run (`slub_lab_core::export::CaseInfo`). */
export interface CaseInfo {
  id: string;
  file: string;
  what: string;
  workload: string;
  about: string;
  params: LabParams;
  metric: Metric;
  unit: string;
  published: { before: number; after: number };
  seedRatio: number;
  asserted: boolean;
  note?: string;
  before: Pair[];
  change: Pair[];
  ops: number;
}

export interface CostRow {
  constant: string;
  cycles: string;
  source: string;
}

export interface LabCases {
  schemaVersion: number;
  tolerance: number;
  costTable: CostRow[];
  cases: CaseInfo[];
}

export interface PendingSeed {
  id: string;
  file: string;
  what: string;
  needs: string;
}

/** One kind of operation of one side's run, per operation (`lab::OpLine`). */
export interface OpLine {
  cycles: number;
  listLocks: number;
  transfers: number;
  prefetched: number;
  objectTransfers: number;
  slabPageTransfers: number;
}

/** One side (before or after) of a comparison as run (`lab::Side`). */
export interface Side {
  variant: Record<string, string>;
  published: number;
  model: number;
  perOp: Partial<Record<'alloc' | 'free' | 'touch', OpLine>>;
  stats: Record<string, number>;
}

/** A comparison's result (`lab::SeedResult`). */
export interface SeedResult {
  id: string;
  file: string;
  what: string;
  workload: string;
  params: LabParams;
  metric: Metric;
  unit: string;
  before: Side;
  after: Side;
  seedRatio: number;
  modelRatio: number;
  ratioOff: number;
  changeFraction: number;
  signOk: boolean;
  withinTolerance: boolean;
  asserted: boolean;
  note?: string;
}

/** The keys each object carries, optional ones marked `?` (lab.test.ts holds the wasm to them). */
export const LAB_KEYS = {
  LabCases: ['schemaVersion', 'tolerance', 'costTable', 'cases'],
  CostRow: ['constant', 'cycles', 'source'],
  CaseInfo: ['id', 'file', 'what', 'workload', 'about', 'params', 'metric', 'unit', 'published', 'seedRatio', 'asserted', 'note?', 'before', 'change', 'ops'],
  LabParams: ['cpus', 'nodes', 'size', 'n', 'rounds?', 'window?', 'pairs?', 'objectsPerSlab', 'slabOrder', 'minPartial', 'cpuPartial'],
  PendingSeed: ['id', 'file', 'what', 'needs'],
  SeedResult: ['id', 'file', 'what', 'workload', 'params', 'metric', 'unit', 'before', 'after', 'seedRatio', 'modelRatio', 'ratioOff', 'changeFraction', 'signOk', 'withinTolerance', 'asserted', 'note?'],
  Side: ['variant', 'published', 'model', 'perOp', 'stats'],
  OpLine: ['cycles', 'listLocks', 'transfers', 'prefetched', 'objectTransfers', 'slabPageTransfers'],
} as const satisfies Record<string, readonly string[]>;

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
