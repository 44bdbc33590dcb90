// Derives everything the page shows from the player state: the simulator is a cache keyed by
// the scenario text, brought to the cursor on every change (seeking back and forth is cheap).
import { useMemo } from 'react';
import {
  SimCrash,
  Simulation,
  type Outcome,
  type SimEvent,
  type View,
} from '../sim';
import type { PlayerState } from '../state/player';

export type Derived =
  | { kind: 'ok'; view: View; outcome: Outcome; lastEvent: SimEvent | undefined }
  /** The scenario or the schedule does not play; the message says why. */
  | { kind: 'error'; message: string }
  /** The simulator has a bug (a Rust panic): the crash screen. */
  | { kind: 'crash'; message: string };

type Created = { sim: Simulation } | { failure: Derived };

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

function derive(created: Created, schedule: readonly string[], cursor: number): Derived {
  if ('failure' in created) return created.failure;
  const { sim } = created;
  try {
    sim.sync(schedule, cursor);
    return { kind: 'ok', view: sim.view(), outcome: sim.outcome(), lastEvent: sim.lastEvent() };
  } catch (e) {
    return failure(e);
  }
}

export function useSimulation(state: PlayerState): Derived {
  const created = useMemo(() => create(state.scenario), [state.scenario]);
  return useMemo(
    () => derive(created, state.schedule, state.cursor),
    [created, state.schedule, state.cursor],
  );
}
