// From a parsed route to a player state, checked against the simulator: a link whose scenario
// does not load or whose moves do not play is a LinkError naming the parameter, never a blank
// or half-working page.
import { SimError, Simulation } from '../sim';
import { initialState, stopFor, type PlayerState } from '../state/player';
import type { LinkError, Route } from '../state/url';
import { SLICE_ABOVE } from './useSimulation';

export function playState(route: Extract<Route, { kind: 'play' }>): PlayerState | LinkError {
  let sim: Simulation;
  try {
    sim = new Simulation(route.scenario, { events: false });
  } catch (e) {
    if (e instanceof SimError) return { kind: 'error', part: 's', message: `the scenario is not valid: ${e.message}` };
    throw e;
  }
  const base = initialState(route.scenario);
  const schedule = route.moves ?? base.schedule;
  try {
    // A long link is checked as the player replays it, in slices (useSlicedSimulation): here
    // it would hold the main thread for the whole replay.
    if (schedule.length <= SLICE_ABOVE) for (const m of schedule) sim.apply(m);
  } catch (e) {
    if (e instanceof SimError) return { kind: 'error', part: 'm', message: e.message };
    throw e;
  } finally {
    sim.free();
  }
  if (route.at > schedule.length) {
    return { kind: 'error', part: 'at', message: `${route.at} is beyond the ${schedule.length} moves` };
  }
  return { ...base, schedule, cursor: route.at, stopAt: stopFor(schedule.length) };
}
