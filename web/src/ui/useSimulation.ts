// Derives everything the page shows from the player state. The simulator is a cache keyed by
// the scenario text and holds the only copy of the history (moves past the cursor too): each
// change of schedule or cursor is one call, `Simulation.scene`, which returns in one JSON
// crossing the view, the outcome and only the events this page does not have yet.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { SimCrash, SimError, Simulation, type ListingFunction, type Outcome, type SimEvent, type View } from '../sim';

export type Derived =
  | {
      kind: 'ok';
      view: View;
      outcome: Outcome;
      /** The last step's event (setup's last before the first move). */
      lastEvent: SimEvent | undefined;
      /** Every event of the kept schedule, including moves ahead of the cursor. */
      events: readonly SimEvent[];
      /** The code listing as the scenario's variant runs it (the same array for a scenario). */
      listing: readonly ListingFunction[];
    }
  /** The scenario or the schedule does not play; the message says why. */
  | { kind: 'error'; message: string }
  /** The simulator has a bug (a Rust panic): the crash screen. */
  | { kind: 'crash'; message: string };

/** What the page holds of the simulator's answers. */
interface Held {
  readonly sim: Simulation;
  /**
   * The schedule whose first `played` moves the simulator holds: the last scene's (the same
   * object: no need to send it again), or a sliced replay's.
   */
  schedule: readonly string[] | null;
  /** The simulator's own count of played moves is `played` (false after a sliced replay). */
  synced: boolean;
  /** The events of the played schedule (setup's first); the same array while they are. */
  events: readonly SimEvent[];
  /** How many moves of `schedule` played (the last scene's `played`). */
  played: number;
}

function failure(e: unknown): Derived {
  const message = e instanceof Error ? e.message : String(e);
  return e instanceof SimCrash ? { kind: 'crash', message } : { kind: 'error', message };
}

function derive(held: Held, schedule: readonly string[], cursor: number): Derived {
  const changed = held.schedule !== schedule || !held.synced;
  const scene = held.sim.scene(changed ? schedule : undefined, cursor, held.events.length);
  held.schedule = schedule;
  held.synced = true;
  held.played = scene.played;
  if (scene.events.length > 0 || scene.eventsFrom < held.events.length) {
    held.events = held.events.slice(0, scene.eventsFrom).concat(scene.events);
  }
  if (scene.error !== null) return { kind: 'error', message: scene.error };
  const count = scene.eventsAtCursor;
  const lastEvent = count === 0 ? undefined : held.events[count - 1];
  return { kind: 'ok', view: scene.view, outcome: scene.outcome, lastEvent, events: held.events, listing: held.sim.listing() };
}

/** How many of `schedule`'s first moves the simulator already holds (`held.schedule`'s). */
function kept(held: Held, schedule: readonly string[]): number {
  const last = held.schedule;
  if (last === null) return 0;
  if (last === schedule) return held.played;
  const n = Math.min(held.played, schedule.length);
  let i = 0;
  while (i < n && last[i] === schedule[i]) i++;
  return i;
}

/**
 * A new schedule of more moves than this (a long link) is replayed in slices
 * (`Deriver.replay`); up to it, in the one call of `derive` (a few milliseconds: every link a
 * lesson, the explorer or a learner makes).
 */
export const SLICE_ABOVE = 2_000;
/** The work of one slice: well under the 200 ms a task may hold the main thread. */
const SLICE_MS = 20;

/** Where a sliced replay is: `done` of `total` moves applied. */
export interface ReplayProgress {
  readonly done: number;
  readonly total: number;
}

/** Where a sliced replay ended: the moves the simulator holds, and why it stopped early. */
export interface Replayed {
  readonly done: number;
  /** The simulator's message for the move that does not play (null: none). */
  readonly error: string | null;
}

/** The next turn of the event loop (input, paint and timers run before it). */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface Deriver {
  /** What the page shows at (schedule, cursor), in one call. */
  (schedule: readonly string[], cursor: number): Derived;
  /** How many moves `derive(schedule, …)` would have to apply. */
  pending(schedule: readonly string[]): number;
  /**
   * Apply `schedule`'s moves that the simulator does not hold a slice at a time (one move at a
   * time through `Simulation.apply`, about SLICE_MS a slice, then a turn of the event loop), so
   * that the next `derive(schedule, …)` has nothing left to apply. Stops at a move that does
   * not play (its message comes back), or when `signal` is aborted.
   */
  replay(schedule: readonly string[], progress: (p: ReplayProgress) => void, signal: AbortSignal): Promise<Replayed>;
}

/**
 * What the page shows of `scenario` at (schedule, cursor), from one simulator kept between
 * calls. The events array is the same object while the schedule's events are the same.
 */
export function deriver(scenario: string): Deriver {
  let held: Held | Derived;
  try {
    held = { sim: new Simulation(scenario, { events: true }), schedule: null, synced: true, events: [], played: 0 };
  } catch (e) {
    held = failure(e);
  }
  /** The replay under way: a later one (or none) makes an earlier one stop. */
  let replaying = 0;
  const current = (schedule: readonly string[], cursor: number): Derived => {
    if ('kind' in held) return held;
    try {
      return derive(held, schedule, cursor);
    } catch (e) {
      if (e instanceof SimError) return failure(e);
      // A crash leaves the simulator unusable: every later scene is the crash.
      held = failure(e);
      return held;
    }
  };
  const pending = (schedule: readonly string[]) => ('kind' in held ? 0 : schedule.length - kept(held, schedule));
  const replay = async (schedule: readonly string[], progress: (p: ReplayProgress) => void, signal: AbortSignal): Promise<Replayed> => {
    const me = ++replaying;
    const stopped = () => signal.aborted || me !== replaying;
    if ('kind' in held) return { done: 0, error: null };
    const h = held;
    let at = kept(h, schedule);
    try {
      // The cursor to the common prefix: the first apply drops the history after it. The
      // events kept are setup's and those of the moves before it (`mv` counts from 0).
      h.sim.seek(at);
      let keep = h.events.length;
      while (keep > 0 && (h.events[keep - 1]?.mv ?? -1) >= at) keep--;
      const events = h.events.slice(0, keep);
      // The simulator's own `played` is left behind: the next scene sends the schedule.
      h.schedule = schedule;
      h.synced = false;
      h.events = events;
      h.played = at;
      let error: string | null = null;
      while (at < schedule.length && error === null && !stopped()) {
        const t0 = performance.now();
        do {
          const end = Math.min(schedule.length, at + 256);
          try {
            for (; at < end; at++) h.sim.apply(schedule[at] ?? '');
          } catch (e) {
            if (!(e instanceof SimError)) throw e;
            error = e.message; // the move at `at` does not play
          }
        } while (error === null && at < schedule.length && performance.now() - t0 < SLICE_MS);
        // This slice's events, appended in place: the array is this replay's own (a copy made
        // above), no derived value holds it yet.
        for (const e of h.sim.eventsFrom(events.length)) events.push(e);
        h.played = at;
        progress({ done: at, total: schedule.length });
        await nextTurn();
        // Aborted, or a later replay has the simulator: touch nothing more.
        if (stopped()) return { done: at, error };
      }
      // The last slice: the schedule crosses once, so that the simulator's own count of played
      // moves is right (nothing is left to apply) and the page's first frame is only its own.
      if (error === null && !stopped()) derive(h, schedule, schedule.length);
      return { done: at, error };
    } catch (e) {
      if (!(e instanceof SimError)) held = failure(e);
      return { done: at, error: null };
    }
  };
  return Object.assign(current, { pending, replay });
}

/** A long schedule being replayed in slices: nothing to show yet but how far it is. */
export interface Replaying extends ReplayProgress {
  readonly kind: 'replaying';
}

/** A long schedule's replay stopped at a move that does not play: the link is wrong there. */
export interface BadMove {
  readonly kind: 'bad-move';
  readonly message: string;
}

/**
 * `useSimulation` that never holds the main thread long: a schedule of more than SLICE_ABOVE
 * moves to apply (a long link) is replayed in slices, and until it is, the page gets where the
 * replay is. `cancel` stops it; `onCancel` then gets the moves that were replayed.
 */
export function useSlicedSimulation(
  scenario: string,
  schedule: readonly string[],
  cursor: number,
  onCancel: (done: number) => void,
): { derived: Derived | Replaying | BadMove; cancel: () => void } {
  const derive = useMemo(() => deriver(scenario), [scenario]);
  // The schedule replayed last: what it holds is final even if it stopped early (a bad move).
  const [replayed, setReplayed] = useState<{ derive: Deriver; schedule: readonly string[]; error: string | null } | null>(null);
  const [progress, setProgress] = useState<ReplayProgress>({ done: 0, total: schedule.length });
  // Cancel before the replay's effect has run (the progress line is drawn first) is kept for it.
  const cancelWanted = useRef(false);
  const cancelNow = useRef<() => void>(() => {
    cancelWanted.current = true;
  });
  const done = replayed !== null && replayed.derive === derive && replayed.schedule === schedule;
  // Decided once per schedule, before its replay starts (what is pending shrinks as it runs):
  // a schedule the simulator holds none of (a link, a scenario loaded with its moves). Moves
  // added to one it holds (a "run to the end", at most MAX_RUN_MOVES) play in the one call as
  // before, the player and its focus staying on screen.
  const long = useMemo(() => {
    const pending = derive.pending(schedule);
    return pending > SLICE_ABOVE && pending === schedule.length;
  }, [derive, schedule]);
  const slice = long && !done;
  useEffect(() => {
    if (!slice) return;
    const abort = new AbortController();
    let cancelled = false;
    cancelNow.current = () => {
      cancelled = true;
      abort.abort();
    };
    if (cancelWanted.current) {
      cancelWanted.current = false;
      cancelNow.current();
    }
    void derive.replay(schedule, setProgress, abort.signal).then(({ done, error }) => {
      if (cancelled) onCancel(done);
      else if (!abort.signal.aborted) setReplayed({ derive, schedule, error });
    });
    return () => abort.abort();
  }, [slice, derive, schedule, onCancel]);
  const error = done ? replayed.error : null;
  const derived = useMemo<Derived | Replaying | BadMove>(() => {
    if (slice) return { kind: 'replaying', done: Math.min(progress.done, schedule.length), total: schedule.length };
    if (error !== null) return { kind: 'bad-move', message: error };
    return derive(schedule, cursor);
  }, [slice, error, derive, schedule, cursor, progress]);
  const cancel = useCallback(() => cancelNow.current(), []);
  return { derived, cancel };
}

export function useSimulation(scenario: string, schedule: readonly string[], cursor: number): Derived {
  const derived = useMemo(() => deriver(scenario), [scenario]);
  return useMemo(() => derived(schedule, cursor), [derived, schedule, cursor]);
}

/** The simulator is still loading: a page that can show something without it does. */
export const LOADING = { kind: 'loading' } as const;

/** `useSimulation` once `ready` (the wasm module is instantiated), LOADING until then. */
export function useSimulationWhen(ready: boolean, scenario: string, schedule: readonly string[], cursor: number): Derived | typeof LOADING {
  const derived = useMemo(() => (ready ? deriver(scenario) : null), [ready, scenario]);
  return useMemo(() => (derived === null ? LOADING : derived(schedule, cursor)), [derived, schedule, cursor]);
}

/**
 * How many of `moves` play from the start of `scenario` (for a variant change that keeps what
 * it can). A scenario that does not load keeps none.
 */
export function playablePrefix(scenario: string, moves: readonly string[]): number {
  let sim: Simulation;
  try {
    sim = new Simulation(scenario, { events: false });
  } catch {
    return 0;
  }
  try {
    return sim.scene(moves, 0, 0).played;
  } finally {
    sim.free();
  }
}
