// The public face of the bridge: what the rest of the page may use.
export {
  listing,
  movesToEnd,
  panicForTest,
  sameExercise,
  loadWasm,
  SimCrash,
  SimError,
  Simulation,
  validateScenario,
} from './simulator';
export type { Operations, OpsRun } from './simulator';
export * from './types';
export { startExplore } from './explore';
export type { ExploreBounds, ExploreHandle, ExploreProgress, ExploreReport, FoundViolation } from './explore';
