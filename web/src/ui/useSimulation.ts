// Derives everything the page shows from the player state. The simulator is a cache keyed by
// the scenario text; it keeps the whole schedule as its history (moves past the cursor too),
// so the timeline's events come from `eventsRange` over its `marks` without seeking to the end
// and back, and a change of cursor is one `seek`. When the schedule changes, only the moves
// after the common prefix are applied and only their events cross the boundary.
import { useMemo } from 'react';
import { SimCrash, SimError, Simulation, type Outcome, type SimEvent, type View } from '../sim';

export type Derived =
  | {
      kind: 'ok';
      view: View;
      outcome: Outcome;
      /** The last step's event (setup's last before the first move). */
      lastEvent: SimEvent | undefined;
      /** Every event of the kept schedule, including moves ahead of the cursor. */
      events: readonly SimEvent[];
    }
  /** The scenario or the schedule does not play; the message says why. */
  | { kind: 'error'; message: string }
  /** The simulator has a bug (a Rust panic): the crash screen. */
  | { kind: 'crash'; message: string };

/** What the simulator holds, as far as this page knows it (so no call is needed to ask). */
interface Synced {
  /** The schedule its history starts with (its history may go on past it). */
  readonly schedule: readonly string[];
  /** `marks[n]` = events after `n` moves of the history. */
  readonly marks: readonly number[];
  /** The events of `schedule` (setup's first). */
  readonly events: readonly SimEvent[];
  /** A move of `schedule` that did not play: the schedule is only played up to it. */
  readonly error: SimError | null;
}

type Created =
  | { sim: Simulation; history: string[]; position: number; synced: Synced | null }
  | { failure: Derived };

function failure(e: unknown): Derived {
  const message = e instanceof Error ? e.message : String(e);
  return e instanceof SimCrash ? { kind: 'crash', message } : { kind: 'error', message };
}

function create(scenario: string): Created {
  try {
    return { sim: new Simulation(scenario, { events: true }), history: [], position: 0, synced: null };
  } catch (e) {
    return { failure: failure(e) };
  }
}

/** Make the simulator's history start with `schedule`; fetch only the events that are new. */
function sync(created: Exclude<Created, { failure: Derived }>, schedule: readonly string[]): Synced {
  const old = created.synced;
  if (old !== null && old.schedule === schedule) return old;
  const { sim, history } = created;
  let common = 0;
  while (common < schedule.length && history[common] === schedule[common]) common++;
  let error: SimError | null = null;
  if (common < schedule.length) {
    if (created.position !== common) sim.seek(common);
    created.position = common;
    history.length = common;
    try {
      for (const move of schedule.slice(common)) {
        sim.apply(move);
        history.push(move);
        created.position++;
      }
    } catch (e) {
      if (!(e instanceof SimError)) throw e;
      error = e;
    }
  }
  const marks = sim.marks();
  const played = Math.min(schedule.length, history.length);
  const end = marks[played] ?? 0;
  // The events of the common prefix are here already when the old schedule had them.
  let events: readonly SimEvent[];
  if (old === null) {
    events = sim.eventsRange(0, end);
  } else {
    const keep = Math.min(old.events.length, marks[Math.min(common, old.schedule.length)] ?? 0);
    events = old.events.slice(0, keep).concat(sim.eventsRange(keep, end));
  }
  const synced: Synced = { schedule, marks, events, error };
  created.synced = synced;
  return synced;
}

function derive(created: Created, synced: Synced | Derived, cursor: number): Derived {
  if ('failure' in created) return created.failure;
  if ('kind' in synced) return synced;
  const { sim } = created;
  try {
    const playable = Math.min(created.history.length, synced.schedule.length);
    if (cursor > playable && synced.error !== null) throw synced.error;
    const at = Math.min(cursor, playable);
    if (created.position !== at) sim.seek(at);
    created.position = at;
    const count = synced.marks[at] ?? 0;
    const lastEvent = count === 0 ? undefined : synced.events[count - 1];
    return { kind: 'ok', view: sim.view(), outcome: sim.outcome(), lastEvent, events: synced.events };
  } catch (e) {
    return failure(e);
  }
}

/**
 * What the page shows of `scenario` at (schedule, cursor), from one simulator kept between
 * calls. The events array is the same object while the schedule is the same object.
 */
export function deriver(scenario: string): (schedule: readonly string[], cursor: number) => Derived {
  const created = create(scenario);
  return (schedule, cursor) => {
    if ('failure' in created) return created.failure;
    let synced: Synced | Derived;
    try {
      synced = sync(created, schedule);
    } catch (e) {
      synced = failure(e);
    }
    return derive(created, synced, cursor);
  };
}

export function useSimulation(scenario: string, schedule: readonly string[], cursor: number): Derived {
  const derived = useMemo(() => deriver(scenario), [scenario]);
  return useMemo(() => derived(schedule, cursor), [derived, schedule, cursor]);
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
  let n = 0;
  try {
    for (const m of moves) {
      sim.apply(m);
      n++;
    }
  } catch {
    // stops at the first move that is not enabled
  } finally {
    sim.free();
  }
  return n;
}
