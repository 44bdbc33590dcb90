// Derives everything the page shows from the player state: the simulator is a cache keyed by
// the scenario text, brought to the cursor on every change (seeking back and forth is cheap).
// The events of the whole kept schedule (for the timeline) are fetched once per schedule.
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

/**
 * The simulator of one scenario, with the events of the last schedule fetched: when the
 * schedule only grew (the learner appends moves), only the new events cross the boundary.
 */
type Created = { sim: Simulation; fetched?: { schedule: readonly string[]; events: SimEvent[] } } | { failure: Derived };

function isPrefix(a: readonly string[], b: readonly string[]): boolean {
  return a.length <= b.length && a.every((m, i) => b[i] === m);
}

function failure(e: unknown): Derived {
  const message = e instanceof Error ? e.message : String(e);
  return e instanceof SimCrash ? { kind: 'crash', message } : { kind: 'error', message };
}

function create(scenario: string): Created {
  try {
    return { sim: new Simulation(scenario, { events: true }) };
  } catch (e) {
    return { failure: failure(e) };
  }
}

function allEvents(created: Created, schedule: readonly string[]): readonly SimEvent[] {
  if ('failure' in created) return [];
  try {
    const { sim, fetched } = created;
    sim.sync(schedule, schedule.length);
    const count = sim.eventCount();
    const events =
      fetched !== undefined && isPrefix(fetched.schedule, schedule) && fetched.events.length <= count
        ? fetched.events.concat(sim.eventsFrom(fetched.events.length))
        : sim.events();
    created.fetched = { schedule, events };
    return events;
  } catch (e) {
    if (e instanceof SimError) return []; // the cursor's derive says why
    throw e;
  }
}

function derive(
  created: Created,
  events: readonly SimEvent[],
  schedule: readonly string[],
  cursor: number,
): Derived {
  if ('failure' in created) return created.failure;
  const { sim } = created;
  try {
    sim.sync(schedule, cursor);
    const count = sim.eventCount();
    const lastEvent = count === 0 ? undefined : (events[count - 1] ?? sim.lastEvent());
    return { kind: 'ok', view: sim.view(), outcome: sim.outcome(), lastEvent, events };
  } catch (e) {
    return failure(e);
  }
}

export function useSimulation(scenario: string, schedule: readonly string[], cursor: number): Derived {
  const created = useMemo(() => create(scenario), [scenario]);
  const events = useMemo(() => {
    try {
      return allEvents(created, schedule);
    } catch {
      return []; // a crash: derive reports it
    }
  }, [created, schedule]);
  return useMemo(() => derive(created, events, schedule, cursor), [created, events, schedule, cursor]);
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
