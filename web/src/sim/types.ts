// The shapes that cross the wasm boundary as JSON.
//
// These MIRROR the Rust types by hand:
//   View and its parts   wasm-core/sim/src/view.rs
//   SimEvent and parts   wasm-core/sim/src/event.rs   (`Event` in Rust; renamed to avoid the DOM's)
//   Outcome, listing     wasm-core/sim/src/lib.rs
// serde writes every field (an `Option` is `null`, never absent) in camelCase; u64 values are
// plain numbers (they stay far below 2^53) and a Rust `char` is a one-letter string.
//
// They are kept honest by types.test.ts, which runs the real wasm and compares the JSON keys of
// every object with the key lists below, and by SCHEMA_VERSION, which the bridge checks on every
// view. When a Rust type changes, change it here, in its key list, and bump both versions together.

/** The `schemaVersion` of views and outcomes this page understands. */
export const SCHEMA_VERSION = 1;

export interface View {
  schemaVersion: number;
  scenarioName: string;
  /** Which allocator the scenario runs: SLUB, or SLAB (the comparison model, spec Appendix A). */
  allocator: Allocator;
  /** The resolved variant: the era bundle applied, defaults filled (slub-algorithm §2.16). */
  variant: VariantView;
  cache: CacheView;
  /** Moves applied so far (the cursor). */
  position: number;
  /** Steps executed so far, setup included. */
  steps: number;
  tidStep: number;
  cpus: CpuView[];
  slabs: SlabView[];
  nodes: NodeView[];
  contexts: ContextView[];
  lines: LineView[];
  vars: VarView[];
  enabledMoves: string[];
  violations: Violation[];
  /** Every context has finished. */
  finished: boolean;
  /** Some context is unfinished and no move is enabled. */
  deadlock: boolean;
}

export type Allocator = 'slub' | 'slab';

export interface CpuView {
  cpu: number;
  node: number;
  /** SLUB: `kmem_cache_cpu.freelist` as the chain of object names it reaches (empty under SLAB). */
  freelist: string[];
  tid: number;
  tidEvent: number;
  tidCpu: number;
  page: string | null;
  partial: string[];
  irqsEnabled: boolean;
  preemptCount: number;
  /** Id of the context running on this CPU (an irq handler if one is in progress). */
  running: string | null;
  cycles: number;
  /** SLAB: this CPU's `array_cache` (null under SLUB). */
  arrayCache: ArrayView | null;
}

/** SLAB's `struct array_cache`: a LIFO stack of object pointers. */
export interface ArrayView {
  avail: number;
  limit: number;
  batchcount: number;
  touched: boolean;
  /** Object names, bottom first: the top (`entry[avail - 1]`, popped next) is the last. */
  entries: string[];
  /**
   * The first `handed` entries were already given back by a flush whose final memmove has not
   * run yet: stale copies, no longer this array's objects.
   */
  handed: number;
}

/** SLAB's `kmem_cache_node` beyond `list_lock` and `slabs_partial` (NodeView.partial). */
export interface SlabNodeView {
  slabsFull: string[];
  slabsFree: string[];
  freeObjects: number;
  freeLimit: number;
  totalSlabs: number;
  freeSlabs: number;
  /** The node-wide shared array (none on a one-CPU machine). */
  shared: ArrayView | null;
}

export interface SlabView {
  name: string;
  node: number;
  objects: ObjectView[];
  /** SLUB: the slab's freelist chain; SLAB: its free objects in the index array's hand-out order. */
  freelist: string[];
  /** SLUB `inuse`; SLAB `page->active`. */
  inuse: number;
  capacity: number;
  /** Always false under SLAB. */
  frozen: boolean;
  /**
   * SLUB: `cpu0`, `cpu0-partial`, `node0-partial`, `full`, `private`, `discarded`;
   * SLAB: `node0-partial`, `node0-full`, `node0-free`, `private`, `destroying`, `discarded`.
   */
  owner: string;
  slabLocked: boolean;
}

export interface ObjectView {
  name: string;
  addr: number;
  /** The word at the free-pointer offset: an object name, `NULL`, or `data`; `-` under SLAB. */
  fp: string;
  /**
   * `user:<var>`, `cpu<k>`, `slab`, `inflight:<ctx>` or `lost`; SLAB adds `shared<n>` (in node
   * n's shared array), and `cpu<k>` is then "in CPU k's array_cache".
   */
  owner: string;
  line: number;
}

export interface NodeView {
  node: number;
  /** SLUB's node partial list; SLAB's `slabs_partial`. */
  partial: string[];
  nrPartial: number;
  /** Context holding `list_lock`. */
  listLock: string | null;
  /** Contexts whose next step is acquiring it. */
  waiters: string[];
  /** SLAB: the node's other lists, counters and shared array (null under SLUB). */
  slab: SlabNodeView | null;
}

export interface VariantView {
  fastpath: string;
  slowpath: string;
  cpuPartial: boolean;
  cpuPartialFrozen: boolean;
  cmpxchgDouble: string;
  preempt: string;
  /** `true`, `false` or `"w"` (prefetchw). */
  prefetch: boolean | 'w';
  discard: string;
  deactivate: string;
  freeRetryLock: string;
  /** Forced TID_STEP, or null when derived from the CPUs and `preempt`. */
  tidStep: number | null;
  /** SLAB only (with `preempt`, the only key SLAB reads): `lockless` (v4.7) or `locked`. */
  slabGrow: string;
}

export interface CacheView {
  name: string;
  objectSize: number;
  objectsPerSlab: number;
  offset: number;
  minPartial: number;
  cpuPartial: number;
  pageAllocFail: boolean;
  /** SLAB's tunables, present only when the scenario sets them. */
  limit?: number;
  batchcount?: number;
  shared?: number;
}

/** What a fast path has read and will compare in its cmpxchg. */
export interface SnapshotView {
  /** The CPU whose `kmem_cache_cpu` it read. */
  cpu: number;
  tid: number;
  object: string;
  next: string;
}

export interface ContextView {
  id: string;
  /** `task` or `irq`. */
  kind: string;
  cpu: number;
  /** The operation in progress, e.g. `alloc x`, or null between operations. */
  op: string | null;
  opIndex: number;
  ops: number;
  /** Label of the code line it will execute next. */
  label: string | null;
  /** Kernel functions on its call stack, outermost first. */
  stack: string[];
  /** `running`, `runnable`, `waiting`, `blocked`, `finished`. */
  state: string;
  preemptCount: number;
  irqsEnabled: boolean;
  /** Its fast path's reads, between the first read of its CPU's fields and the CAS. */
  snapshot: SnapshotView | null;
}

export interface LineView {
  id: number;
  name: string;
  /** One MESI letter per CPU. */
  states: string[];
}

export interface VarView {
  name: string;
  /** Its `alloc` has completed (`object` null then means the allocation failed). */
  bound: boolean;
  object: string | null;
  addr: number | null;
  held: boolean;
}

export interface Violation {
  step: number;
  invariant: string;
  message: string;
}

/** One event per step (`slub_sim::Event`). */
export interface SimEvent {
  step: number;
  /** Index of the move that caused it; null during setup. */
  mv: number | null;
  ctx: string;
  cpu: number;
  /** The code-listing label of the line executed. */
  label: string;
  kind: string;
  target: string;
  read: string | null;
  wrote: string | null;
  ok: boolean | null;
  halves: CasHalf[];
  coherence: Transition[];
  cycles: number;
  stats: string[];
  /** One sentence in plain language (also what the live region reads out). */
  narration: string;
}

export interface CasHalf {
  field: string;
  expected: string;
  actual: string;
}

export interface Transition {
  line: number;
  cpu: number;
  from: string;
  to: string;
}

/** What `slub-lab run` prints, minus events (DESIGN §5). */
export interface Outcome {
  schemaVersion: number;
  finished: boolean;
  deadlock: boolean;
  violations: Violation[];
  stats: Stats;
  cycles: Cycles;
  vars: Record<string, VarOutcome>;
}

export interface Stats {
  total: Record<string, number>;
  perCpu: Record<string, number>[];
}

export interface Cycles {
  perCpu: number[];
}

export interface VarOutcome {
  addr: number | null;
  held: boolean;
}

export interface ListingFunction {
  name: string;
  lines: ListingLine[];
}

export interface ListingLine {
  label: string;
  text: string;
}

/**
 * The key list of a type, checked by the compiler to name every key and no other (a
 * `Record<keyof T, true>` literal rejects both missing and extra keys).
 */
function keyList<T>(keys: Record<keyof T, true>): readonly string[] {
  return Object.keys(keys).sort();
}

/** Every key of every mirrored object type, for the round-trip test. */
export const KEYS = {
  View: keyList<View>({
    schemaVersion: true,
    scenarioName: true,
    allocator: true,
    variant: true,
    cache: true,
    position: true,
    steps: true,
    tidStep: true,
    cpus: true,
    slabs: true,
    nodes: true,
    contexts: true,
    lines: true,
    vars: true,
    enabledMoves: true,
    violations: true,
    finished: true,
    deadlock: true,
  }),
  CpuView: keyList<CpuView>({
    cpu: true,
    node: true,
    freelist: true,
    tid: true,
    tidEvent: true,
    tidCpu: true,
    page: true,
    partial: true,
    irqsEnabled: true,
    preemptCount: true,
    running: true,
    cycles: true,
    arrayCache: true,
  }),
  ArrayView: keyList<ArrayView>({ avail: true, limit: true, batchcount: true, touched: true, entries: true, handed: true }),
  SlabNodeView: keyList<SlabNodeView>({
    slabsFull: true,
    slabsFree: true,
    freeObjects: true,
    freeLimit: true,
    totalSlabs: true,
    freeSlabs: true,
    shared: true,
  }),
  SlabView: keyList<SlabView>({
    name: true,
    node: true,
    objects: true,
    freelist: true,
    inuse: true,
    capacity: true,
    frozen: true,
    owner: true,
    slabLocked: true,
  }),
  ObjectView: keyList<ObjectView>({ name: true, addr: true, fp: true, owner: true, line: true }),
  NodeView: keyList<NodeView>({
    node: true,
    partial: true,
    nrPartial: true,
    listLock: true,
    waiters: true,
    slab: true,
  }),
  ContextView: keyList<ContextView>({
    id: true,
    kind: true,
    cpu: true,
    op: true,
    opIndex: true,
    ops: true,
    label: true,
    stack: true,
    state: true,
    preemptCount: true,
    irqsEnabled: true,
    snapshot: true,
  }),
  VariantView: keyList<VariantView>({
    fastpath: true,
    slowpath: true,
    cpuPartial: true,
    cpuPartialFrozen: true,
    cmpxchgDouble: true,
    preempt: true,
    prefetch: true,
    discard: true,
    deactivate: true,
    freeRetryLock: true,
    tidStep: true,
    slabGrow: true,
  }),
  LineView: keyList<LineView>({ id: true, name: true, states: true }),
  VarView: keyList<VarView>({ name: true, bound: true, object: true, addr: true, held: true }),
  Violation: keyList<Violation>({ step: true, invariant: true, message: true }),
  SimEvent: keyList<SimEvent>({
    step: true,
    mv: true,
    ctx: true,
    cpu: true,
    label: true,
    kind: true,
    target: true,
    read: true,
    wrote: true,
    ok: true,
    halves: true,
    coherence: true,
    cycles: true,
    stats: true,
    narration: true,
  }),
  CasHalf: keyList<CasHalf>({ field: true, expected: true, actual: true }),
  Transition: keyList<Transition>({ line: true, cpu: true, from: true, to: true }),
  Outcome: keyList<Outcome>({
    schemaVersion: true,
    finished: true,
    deadlock: true,
    violations: true,
    stats: true,
    cycles: true,
    vars: true,
  }),
  Stats: keyList<Stats>({ total: true, perCpu: true }),
  Cycles: keyList<Cycles>({ perCpu: true }),
  VarOutcome: keyList<VarOutcome>({ addr: true, held: true }),
  ListingFunction: keyList<ListingFunction>({ name: true, lines: true }),
  ListingLine: keyList<ListingLine>({ label: true, text: true }),
} as const;
