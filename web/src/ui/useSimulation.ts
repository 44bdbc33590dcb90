// Derives everything the page shows from the player state. The simulator is a cache keyed by
// the scenario text and holds the only copy of the history (moves past the cursor too): each
// change of schedule or cursor is one call, `Simulation.scene`, which returns in one JSON
// crossing the view, the outcome and only the events this page does not have yet.
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

/** What the page holds of the simulator's answers. */
interface Held {
  readonly sim: Simulation;
  /** The schedule of the last call (the same object: no need to send it again). */
  schedule: readonly string[] | null;
  /** The events of the played schedule (setup's first); the same array while they are. */
  events: readonly SimEvent[];
}

function failure(e: unknown): Derived {
  const message = e instanceof Error ? e.message : String(e);
  return e instanceof SimCrash ? { kind: 'crash', message } : { kind: 'error', message };
}

function derive(held: Held, schedule: readonly string[], cursor: number): Derived {
  const changed = held.schedule !== schedule;
  const scene = held.sim.scene(changed ? schedule : undefined, cursor, held.events.length);
  held.schedule = schedule;
  if (scene.events.length > 0 || scene.eventsFrom < held.events.length) {
    held.events = held.events.slice(0, scene.eventsFrom).concat(scene.events);
  }
  if (scene.error !== null) return { kind: 'error', message: scene.error };
  const count = scene.eventsAtCursor;
  const lastEvent = count === 0 ? undefined : held.events[count - 1];
  return { kind: 'ok', view: scene.view, outcome: scene.outcome, lastEvent, events: held.events };
}

/**
 * What the page shows of `scenario` at (schedule, cursor), from one simulator kept between
 * calls. The events array is the same object while the schedule's events are the same.
 */
export function deriver(scenario: string): (schedule: readonly string[], cursor: number) => Derived {
  let held: Held | Derived;
  try {
    held = { sim: new Simulation(scenario, { events: true }), schedule: null, events: [] };
  } catch (e) {
    held = failure(e);
  }
  return (schedule, cursor) => {
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
