// The Lab's runs: the seed comparisons run in a Web Worker (lab.worker.ts), one at a time, in
// the order asked; each result is kept for the rest of the session (leaving `#/lab` for the
// stepper and coming back shows them at once). The page subscribes to a snapshot that changes
// on every start and result (React's useSyncExternalStore). No React in here.
//
// A case whose run panics in Rust fails alone: the worker's instance is thrown away and a new
// one runs the next case. The worker is let go when nothing is queued.
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
  /** The case running now. */
  readonly running: string | null;
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

export class LabRunner {
  #progress: LabProgress = { runs: new Map(), running: null, batch: 0, ended: 0, batchMs: null };
  readonly #queue: string[] = [];
  readonly #listeners = new Set<() => void>();
  #worker: WorkerLike | null = null;
  #batchStart = 0;
  readonly #makeWorker: () => WorkerLike;
  readonly #now: () => number;

  constructor(makeWorker: () => WorkerLike, now: () => number = () => performance.now()) {
    this.#makeWorker = makeWorker;
    this.#now = now;
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
    if (this.#progress.running !== null) {
      this.#set({ runs, batch: this.#progress.batch + added });
      return;
    }
    // Idle: a new batch starts with its first case running (one change, no in-between state).
    this.#batchStart = this.#now();
    this.#progress = { ...this.#progress, runs, batch: added, ended: 0, batchMs: null };
    this.#next();
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

  #set(change: Partial<LabProgress>): void {
    this.#progress = { ...this.#progress, ...change };
    for (const l of [...this.#listeners]) l();
  }

  #next(): void {
    const id = this.#queue.shift();
    if (id === undefined) {
      this.#worker?.terminate();
      this.#worker = null;
      this.#set({ running: null, batchMs: this.#now() - this.#batchStart });
      return;
    }
    const runs = new Map(this.#progress.runs);
    runs.set(id, { state: 'running' });
    this.#set({ runs, running: id });
    const worker = (this.#worker ??= this.#startWorker());
    worker.postMessage({ type: 'slub-lab:lab-run', version: LAB_SCHEMA_VERSION, id });
  }

  #startWorker(): WorkerLike {
    const worker = this.#makeWorker();
    worker.onmessage = (ev) => {
      if (worker !== this.#worker) return; // a late message of a worker let go
      const m = ev.data;
      if (m.id !== this.#progress.running) return;
      if (m.type === 'result') {
        this.#end(m.id, { state: 'done', result: m.result, ms: m.ms });
      } else {
        if (m.crash) this.#dropWorker();
        this.#end(m.id, { state: 'failed', message: m.message, crash: m.crash });
      }
    };
    worker.onerror = (ev) => {
      if (worker !== this.#worker) return;
      ev.preventDefault();
      this.#dropWorker();
      const id = this.#progress.running;
      if (id !== null) this.#end(id, { state: 'failed', message: ev.message || 'the lab worker failed', crash: true });
    };
    return worker;
  }

  #dropWorker(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }

  #end(id: string, run: CaseRun): void {
    const runs = new Map(this.#progress.runs);
    runs.set(id, run);
    // One change: the result and the next case's start (or the batch's end) together.
    this.#progress = { ...this.#progress, runs, ended: this.#progress.ended + 1 };
    this.#next();
  }
}

/** The page's runner: one for the session, so results outlive the page that asked for them. */
export const labRunner = new LabRunner(
  () => new Worker(new URL('./lab.worker.ts', import.meta.url), { type: 'module' }),
);
