// The public face of the bridge: what the rest of the page may use.
export {
  listing,
  loadWasm,
  SimCrash,
  SimError,
  Simulation,
  validateScenario,
} from './simulator';
export * from './types';
