// The explorer's React side: one search at a time in a Web Worker (sim/explore.ts), its
// progress throttled to a few renders a second (the worker reports every 256 states), a
// safety net past the time limit, and the search cancelled when the page goes away.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { startExplore, type ExploreHandle, type ExploreProgress, type ExploreReport } from '../sim';
import { DEFAULT_FORM, readBounds, type BoundsForm, type Limits } from '../state/explore';

export type ExplorerStatus =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly progress: ExploreProgress; readonly limits: Limits }
  | {
      readonly kind: 'done';
      readonly report: ExploreReport;
      readonly limits: Limits;
      /** The scenario searched: the counterexample replays on it (not on a later edit). */
      readonly scenario: string;
      readonly cancelledByUser: boolean;
    }
  | { readonly kind: 'failed'; readonly message: string };

export interface Explorer {
  readonly form: BoundsForm;
  readonly setForm: (form: BoundsForm) => void;
  readonly status: ExplorerStatus;
  /** Start a search of `scenario` with the form's bounds (false when the form is wrong). */
  readonly start: (scenario: string) => boolean;
  readonly cancel: () => void;
}

/** Progress renders at most this often. */
const PROGRESS_MS = 200;
/** The worker stops itself at the time limit; past it by this much, it is terminated. */
const GRACE_MS = 1500;

const ZERO: ExploreProgress = { executions: 0, states: 0, depth: 0, frontier: 0, elapsedMs: 0 };

interface Run {
  readonly handle: ExploreHandle;
  /** Cancel was pressed (the report says `cancelled` for the time limit too). */
  byUser: boolean;
  readonly timers: number[];
}

/** Forget the current run (its timers cleared); a late message of it then changes nothing. */
function forget(current: { current: Run | null }): void {
  for (const t of current.current?.timers ?? []) window.clearTimeout(t);
  current.current = null;
}

export function useExplorer(): Explorer {
  const [form, setForm] = useState<BoundsForm>(DEFAULT_FORM);
  const [status, setStatus] = useState<ExplorerStatus>({ kind: 'idle' });
  const current = useRef<Run | null>(null);

  useEffect(
    () => () => {
      current.current?.handle.cancel();
      forget(current);
    },
    [],
  );

  const start = useCallback((scenario: string): boolean => {
    const check = readBounds(form);
    if (!check.ok) return false;
    current.current?.handle.cancel();
    forget(current);
    const { limits } = check;
    let latest = ZERO;
    let shown = 0;
    let pending: number | null = null;
    const show = () => {
      pending = null;
      shown = performance.now();
      if (current.current === run) setStatus({ kind: 'running', progress: latest, limits });
    };
    const handle = startExplore(
      scenario,
      limits.bounds,
      (p) => {
        latest = p;
        if (pending !== null) return;
        const wait = PROGRESS_MS - (performance.now() - shown);
        if (wait <= 0) show();
        else pending = window.setTimeout(show, wait);
      },
      limits.timeoutMs,
    );
    const run: Run = { handle, byUser: false, timers: [] };
    run.timers.push(window.setTimeout(() => handle.cancel(), limits.timeoutMs + GRACE_MS));
    current.current = run;
    setStatus({ kind: 'running', progress: ZERO, limits });
    handle.result.then(
      (report) => {
        if (pending !== null) window.clearTimeout(pending);
        if (current.current !== run) return; // superseded or unmounted
        forget(current);
        setStatus({ kind: 'done', report, limits, scenario, cancelledByUser: run.byUser });
      },
      (e: unknown) => {
        if (pending !== null) window.clearTimeout(pending);
        if (current.current !== run) return;
        forget(current);
        setStatus({ kind: 'failed', message: e instanceof Error ? e.message : String(e) });
      },
    );
    return true;
  }, [form]);

  const cancel = useCallback(() => {
    const c = current.current;
    if (c === null) return;
    c.byUser = true;
    c.handle.cancel();
  }, []);

  return useMemo(() => ({ form, setForm, status, start, cancel }), [form, status, start, cancel]);
}
