// The Lab's runs: the seed comparisons run in Web Workers (lab.worker.ts), each worker one case
// at a time, in the order asked; each result is kept for the rest of the session (leaving
// `#/lab` for the stepper and coming back shows them at once). The page subscribes to a
// snapshot that changes on every start and result (React's useSyncExternalStore). No React in
// here.
//
// The page runs two workers on a machine with two cores or more. The cases of one seed share
// runs (003b and 003c are the allocations and the frees of the same two runs), and a worker's
// wasm instance makes each distinct run once, so a worker keeps to one seed's cases while
// there are any: it takes the next case of the seed it ran last, else the first case of a
// seed no other worker is on, else the first case queued.
//
// A case whose run panics in Rust fails alone: that worker's instance is thrown away and a new
// one runs its next case. The workers are let go when nothing is queued.
import type { SeedResult } from './lab';
import { LAB_SCHEMA_VERSION, type LabRunMessage, type LabRunRequest } from './lab-protocol';
export type CaseRun =
  | { readonly state: 'waiting' }
  | { readonly state: 'running' }
  | { readonly state: 'done'; readonly result: SeedResult; readonly ms: number }
  | { readonly state: 'failed'; readonly message: string; readonly crash: boolean };

export interface LabProgress {
  /** Every case asked for this session, by id. */
  readonly runs: ReadonlyMap<string, CaseRun>;
  /** The cases running now, one per busy worker. */
  readonly running: readonly string[];
  /** Cases asked for in the current batch (since the runner was last idle), and how many ended. */
  readonly batch: number;
  readonly ended: number;
  /** Wall time of the last batch from its first start to its last result (null while running). */
  readonly batchMs: number | null;
}

/** What the runner needs of a Worker (a fake one in the tests). */
export interface WorkerLike {
  postMessage(message: LabRunRequest): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<LabRunMessage>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

/** The seed a case belongs to: its id without the letter of a further figure (`003c` → `003`). */
export function seedOf(id: string): string {
  return id.replace(/[a-z]+$/, '');
}

/** One worker and the case it runs. */
interface Slot {
  worker: WorkerLike | null;
  id: string | null;
  /** The seed of the last case it ran: its wasm instance holds that seed's runs. */
  seed: string | null;
}

export class LabRunner {
  #progress: LabProgress = { runs: new Map(), running: [], batch: 0, ended: 0, batchMs: null };
  readonly #queue: string[] = [];
  readonly #listeners = new Set<() => void>();
  readonly #slots: Slot[];
  #batchStart = 0;
  readonly #makeWorker: () => WorkerLike;
  readonly #now: () => number;

  constructor(makeWorker: () => WorkerLike, now: () => number = () => performance.now(), workers = 1) {
    this.#makeWorker = makeWorker;
    this.#now = now;
    this.#slots = Array.from({ length: Math.max(1, Math.floor(workers)) }, () => ({ worker: null, id: null, seed: null }));
  }

  /** The current state (a new object after every change, the same one in between). */
  readonly snapshot = (): LabProgress => this.#progress;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Queue the cases not yet run or queued, in this order, and start if idle. */
  request(ids: readonly string[]): void {
    const runs = new Map(this.#progress.runs);
    let added = 0;
    for (const id of ids) {
      if (runs.has(id)) continue;
      runs.set(id, { state: 'waiting' });
      this.#queue.push(id);
      added++;
    }
    if (added === 0) return;
    if (this.#progress.running.length > 0) {
      this.#progress = { ...this.#progress, runs, batch: this.#progress.batch + added };
    } else {
      // Idle: a new batch starts with its first cases running (one change, no in-between state).
      this.#batchStart = this.#now();
      this.#progress = { ...this.#progress, runs, batch: added, ended: 0, batchMs: null };
    }
    this.#fill();
  }

  /** Run the cases that failed again (a crash may have been a one-off). */
  retryFailed(): void {
    const failed = [...this.#progress.runs].filter(([, r]) => r.state === 'failed').map(([id]) => id);
    if (failed.length === 0) return;
    const runs = new Map(this.#progress.runs);
    for (const id of failed) runs.delete(id);
    this.#progress = { ...this.#progress, runs };
    this.request(failed);
  }

  #publish(): void {
    for (const l of [...this.#listeners]) l();
  }

  /** Give every idle worker a case, or end the batch when nothing runs and nothing is queued. */
  #fill(): void {
    const runs = new Map(this.#progress.runs);
    for (const slot of this.#slots) {
      if (slot.id !== null) continue;
      const i = this.#pick(slot);
      if (i < 0) continue;
      const id = this.#queue.splice(i, 1)[0];
      if (id === undefined) continue;
      slot.id = id;
      slot.seed = seedOf(id);
      runs.set(id, { state: 'running' });
      const worker = (slot.worker ??= this.#startWorker(slot));
      worker.postMessage({ type: 'slub-lab:lab-run', version: LAB_SCHEMA_VERSION, id });
    }
    const running = this.#slots.flatMap((s) => (s.id === null ? [] : [s.id]));
    if (running.length === 0) {
      for (const slot of this.#slots) this.#dropWorker(slot);
      this.#progress = { ...this.#progress, runs, running, batchMs: this.#now() - this.#batchStart };
    } else {
      this.#progress = { ...this.#progress, runs, running };
    }
    this.#publish();
  }

  /** The queue index of the case `slot` should take next, or -1 if the queue is empty. */
  #pick(slot: Slot): number {
    if (this.#queue.length === 0) return -1;
    const own = this.#queue.findIndex((id) => seedOf(id) === slot.seed);
    if (own >= 0) return own;
    const busy = new Set(this.#slots.flatMap((s) => (s !== slot && s.id !== null && s.seed !== null ? [s.seed] : [])));
    const free = this.#queue.findIndex((id) => !busy.has(seedOf(id)));
    return free >= 0 ? free : 0;
  }

  #startWorker(slot: Slot): WorkerLike {
    const worker = this.#makeWorker();
    worker.onmessage = (ev) => {
      if (worker !== slot.worker) return; // a late message of a worker let go
      const m = ev.data;
      if (m.id !== slot.id) return;
      if (m.type === 'result') {
        this.#end(slot, { state: 'done', result: m.result, ms: m.ms });
      } else {
        if (m.crash) this.#dropWorker(slot);
        this.#end(slot, { state: 'failed', message: m.message, crash: m.crash });
      }
    };
    worker.onerror = (ev) => {
      if (worker !== slot.worker) return;
      ev.preventDefault();
      this.#dropWorker(slot);
      if (slot.id !== null) this.#end(slot, { state: 'failed', message: ev.message || 'the lab worker failed', crash: true });
    };
    return worker;
  }

  #dropWorker(slot: Slot): void {
    slot.worker?.terminate();
    slot.worker = null;
    slot.seed = null;
  }

  #end(slot: Slot, run: CaseRun): void {
    const id = slot.id;
    if (id === null) return;
    slot.id = null;
    const runs = new Map(this.#progress.runs);
    runs.set(id, run);
    // One change: the result and the next case's start (or the batch's end) together.
    this.#progress = { ...this.#progress, runs, ended: this.#progress.ended + 1 };
    this.#fill();
  }
}

/** The page's runner: one for the session, so results outlive the page that asked for them. */
export const labRunner = new LabRunner(
  () => new Worker(new URL('./lab.worker.ts', import.meta.url), { type: 'module' }),
  undefined,
  typeof navigator !== 'undefined' && navigator.hardwareConcurrency >= 2 ? 2 : 1,
);
