// The explorer panel's pure part: the bounds form, read and checked, and what a
// search's progress and result say in words. The search itself runs in a Web Worker through
// the bridge (sim/explore.ts); the page keeps only the form and the last report. No React.
import type { ExploreBounds, ExploreProgress, ExploreReport, FoundViolation } from '../sim';

/** The form as typed (strings: a field being edited may be empty or wrong for a moment). */
export interface BoundsForm {
  readonly maxPreemptions: string;
  readonly maxMigrations: string;
  /** Seconds. */
  readonly timeLimit: string;
}

/** The CLI's defaults (design.md §5) and a time limit that keeps the page honest. */
export const DEFAULT_FORM: BoundsForm = { maxPreemptions: '3', maxMigrations: '2', timeLimit: '10' };

/** What the worker gets: the bounds and the time after which the search stops itself. */
export interface Limits {
  readonly bounds: ExploreBounds;
  readonly timeoutMs: number;
}

/** The explorer's default state limit (slub_sim::explore::Bounds), to say which limit was hit. */
export const DEFAULT_MAX_STATES = 2_000_000;

export const MAX_BOUND = 20;
export const MAX_TIME_S = 600;

export type FormCheck =
  | { readonly ok: true; readonly limits: Limits }
  | { readonly ok: false; readonly field: keyof BoundsForm; readonly message: string };

function count(text: string, what: string): number | string {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return `${what}: "${text}" is not a whole number`;
  const n = Number(t);
  return n > MAX_BOUND ? `${what}: at most ${MAX_BOUND} (the search grows exponentially with it)` : n;
}

/** Read the form; a bad field comes back named, with why. */
export function readBounds(form: BoundsForm): FormCheck {
  const p = count(form.maxPreemptions, 'max preemptions');
  if (typeof p === 'string') return { ok: false, field: 'maxPreemptions', message: p };
  const m = count(form.maxMigrations, 'max migrations');
  if (typeof m === 'string') return { ok: false, field: 'maxMigrations', message: m };
  const t = form.timeLimit.trim();
  const secs = /^\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
  if (!(secs > 0) || secs > MAX_TIME_S) {
    return { ok: false, field: 'timeLimit', message: `time limit: "${form.timeLimit}" is not a number of seconds between 0 and ${MAX_TIME_S}` };
  }
  return { ok: true, limits: { bounds: { maxPreemptions: p, maxMigrations: m }, timeoutMs: Math.round(secs * 1000) } };
}

const NUM = new Intl.NumberFormat('en-US');
export const num = (n: number): string => NUM.format(n);

export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** The readout while searching (also what the live region reads, throttled). */
export function progressText(p: ExploreProgress): string {
  return `${num(p.executions)} executions · ${num(p.states)} states · depth ${p.depth} moves · ${seconds(p.elapsedMs)}`;
}

/** The share of the time limit used, 0..1 (the search's own size is not known in advance). */
export function timeUsed(p: ExploreProgress, limits: Limits): number {
  return Math.max(0, Math.min(1, p.elapsedMs / limits.timeoutMs));
}

function boundsText(b: ExploreBounds): string {
  const n = (v: number | undefined, what: string) => `≤ ${v ?? '?'} ${what}${v === 1 ? '' : 's'}`;
  return `${n(b.maxPreemptions, 'preemption')}, ${n(b.maxMigrations, 'migration')}`;
}

export type Summary =
  | {
      readonly kind: 'found';
      readonly violation: FoundViolation;
      /** e.g. "INV-12 breaks after 31 moves". */
      readonly headline: string;
      readonly detail: string;
    }
  | { readonly kind: 'none'; readonly complete: boolean; readonly headline: string; readonly detail: string };

/**
 * What a finished search means. `cancelledByUser` tells a Cancel from the time limit (the
 * report says `cancelled` for both).
 */
export function summarize(report: ExploreReport, limits: Limits, cancelledByUser: boolean): Summary {
  const size = `${num(report.executions)} executions, ${num(report.states)} states, ${seconds(report.elapsedMs)}`;
  const found = report.violations[0];
  if (found !== undefined) {
    const n = found.schedule.length;
    return {
      kind: 'found',
      violation: found,
      headline: `${found.invariant} breaks after ${n} move${n === 1 ? '' : 's'}`,
      detail: `a shortest counterexample, found breadth first after ${num(report.states)} states in ${seconds(report.elapsedMs)}`,
    };
  }
  const headline = `No violation within these bounds (${boundsText(limits.bounds)})`;
  if (report.complete) {
    return { kind: 'none', complete: true, headline, detail: `complete: every interleaving within them was explored (${size})` };
  }
  let why: string;
  if (cancelledByUser) why = 'you cancelled the search';
  else if (report.cancelled) why = `the time limit (${limits.timeoutMs / 1000} s) ran out`;
  else if (report.states >= (limits.bounds.maxStates ?? DEFAULT_MAX_STATES)) why = `the state limit (${num(limits.bounds.maxStates ?? DEFAULT_MAX_STATES)}) was reached`;
  // The budget may have been clamped to what the page can get: say to what, and why.
  else if (report.incomplete !== undefined) why = report.incomplete + (report.memoryClamp ? ` (${report.memoryClamp})` : '');
  else why = 'the execution limit was reached';
  // Not "no violation": only the part searched is known to be safe.
  return {
    kind: 'none',
    complete: false,
    headline: `No violation in the part searched (${boundsText(limits.bounds)})`,
    detail: `incomplete: ${why}, so some interleavings were not tried (${size})`,
  };
}
