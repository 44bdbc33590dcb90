// The explorer in the browser: the search runs in a Web Worker so the page stays
// responsive; the worker posts progress (executions, states, depth, elapsed) and the result,
// and cancelling terminates it at once. `runExploreRequest` is the worker's logic as a pure
// function of the wasm `explore` entry point, so it is tested in node without a worker.
import { SCHEMA_VERSION, type ExploreProgressCounts, type ExploreResult, type ExploreViolation } from './types';

/** Bounds of a search; every field optional (the CLI's defaults). */
export interface ExploreBounds {
  maxPreemptions?: number;
  maxMigrations?: number;
  maxIrqEntries?: number;
  maxExecutions?: number;
  maxStates?: number;
  /** The search's memory budget (MB; the CLI's 1024 by default). */
  maxMemoryMb?: number;
  reduction?: boolean;
  /**
   * What the page can get (MB): the budget is clamped to a third of it less the wasm memory
   * already grown, and the result says so (`memoryClamp`). The worker fills it in.
   */
  availableMemoryMb?: number;
}

/**
 * What the page can get, in MB, from `navigator.deviceMemory` (GiB, rounded down and capped
 * at 8 by the browser; Chromium only): `undefined` where the browser does not say, and the
 * wasm side then clamps to wasm32's 4 GiB alone.
 */
export function pageMemoryMb(nav: { deviceMemory?: unknown } | undefined): number | undefined {
  const gib = nav?.deviceMemory;
  return typeof gib === 'number' && Number.isFinite(gib) && gib > 0 ? Math.round(gib * 1024) : undefined;
}

/** The search's counts (generated from Rust) and the time it has taken here. */
export type ExploreProgress = ExploreProgressCounts & { elapsedMs: number };

/** A violation found, with the moves that reach it (load them into the stepper to replay). */
export type FoundViolation = ExploreViolation;

/** The search's result (generated from Rust) and the time it took here. */
export type ExploreReport = ExploreResult & { elapsedMs: number };

export interface ExploreRequest {
  type: 'slub-lab:explore';
  version: typeof SCHEMA_VERSION;
  scenario: string;
  bounds: ExploreBounds;
  /** Give up after this long (the report then says `complete: false`). */
  timeoutMs?: number;
}

export type ExploreMessage =
  | ({ type: 'progress' } & ExploreProgress)
  | { type: 'done'; report: ExploreReport }
  | { type: 'error'; message: string };

type ExploreFn = (scenario: string, bounds: string, progress: (json: string) => boolean) => string;

/** Run one request with the wasm `explore`, posting progress and the result. */
export function runExploreRequest(
  explore: ExploreFn,
  req: ExploreRequest,
  post: (m: ExploreMessage) => void,
  now: () => number = () => performance.now(),
): void {
  const t0 = now();
  try {
    const json = explore(req.scenario, JSON.stringify(req.bounds), (p) => {
      const elapsedMs = now() - t0;
      post({ type: 'progress', ...(JSON.parse(p) as Omit<ExploreProgress, 'elapsedMs'>), elapsedMs });
      return req.timeoutMs === undefined || elapsedMs < req.timeoutMs;
    });
    const report = JSON.parse(json) as Omit<ExploreReport, 'elapsedMs'>;
    post({ type: 'done', report: { ...report, elapsedMs: now() - t0 } });
  } catch (e) {
    post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
}

export interface ExploreHandle {
  /** Resolves with the report (a cancelled search resolves with `cancelled: true`). */
  result: Promise<ExploreReport>;
  cancel(): void;
}

/** Start a search in a new Web Worker. */
export function startExplore(
  scenario: string,
  bounds: ExploreBounds,
  onProgress: (p: ExploreProgress) => void,
  timeoutMs?: number,
): ExploreHandle {
  const worker = new Worker(new URL('./explore.worker.ts', import.meta.url), { type: 'module' });
  const t0 = performance.now();
  let settle: (r: ExploreReport) => void = () => {};
  let fail: (e: Error) => void = () => {};
  const result = new Promise<ExploreReport>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  let last: ExploreProgress = { executions: 0, states: 0, depth: 0, frontier: 0, elapsedMs: 0 };
  worker.onmessage = (ev: MessageEvent<ExploreMessage>) => {
    const m = ev.data;
    if (m.type === 'progress') {
      last = m;
      onProgress(m);
    } else if (m.type === 'done') {
      worker.terminate();
      settle(m.report);
    } else {
      worker.terminate();
      fail(new Error(m.message));
    }
  };
  worker.onerror = (ev) => {
    worker.terminate();
    fail(new Error(ev.message || 'the explorer worker failed'));
  };
  const req: ExploreRequest = { type: 'slub-lab:explore', version: SCHEMA_VERSION, scenario, bounds };
  if (timeoutMs !== undefined) req.timeoutMs = timeoutMs;
  worker.postMessage(req);
  return {
    result,
    cancel() {
      worker.terminate();
      settle({
        executions: last.executions,
        states: last.states,
        transitions: 0,
        pruned: 0,
        dominated: 0,
        maxDepth: last.depth,
        cutByBounds: 0,
        peakMemoryMb: 0,
        memoryBudgetMb: 0, // not known: the worker was stopped before it said
        complete: false,
        cancelled: true,
        violations: [],
        elapsedMs: performance.now() - t0,
      });
    },
  };
}
