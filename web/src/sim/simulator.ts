// The bridge to the wasm package: the only module that imports web/src/sim/pkg (ESLint enforces
// it). Everything else talks to the simulator through `Simulation` and gets typed, parsed,
// version-checked objects back.
//
// Two kinds of failure leave here, and only these two:
//   SimError  bad input (a scenario that does not validate, a move that is not enabled): the
//             message is the simulator's own and is shown to the learner as it is;
//   SimCrash  a bug (a Rust panic, a view of another schema version): the page shows its crash
//             screen with the message and the replay.
import init, {
  initSync,
  lastPanic,
  listing as rawListing,
  Simulator as RawSimulator,
} from './pkg/slub_wasm.js';
import {
  SCHEMA_VERSION,
  type ListingFunction,
  type Outcome,
  type SimEvent,
  type View,
} from './types';

export class SimError extends Error {
  override name = 'SimError';
}

export class SimCrash extends Error {
  override name = 'SimCrash';
}

let loaded: Promise<void> | undefined;

/** Fetch and instantiate the wasm module (once; later calls share the first). */
export function loadWasm(): Promise<void> {
  loaded ??= init().then(() => undefined);
  return loaded;
}

/** Instantiate the wasm module from its bytes (node: tests and benchmarks). */
export function loadWasmSync(bytes: BufferSource): void {
  initSync({ module: bytes });
  loaded = Promise.resolve();
}

function panicMessage(): string | undefined {
  try {
    return lastPanic();
  } catch {
    return undefined; // the instance is too broken to say
  }
}

/** Every call into wasm goes through here: it sorts what was thrown into SimError or SimCrash. */
function call<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    const panic = panicMessage();
    if (panic !== undefined || e instanceof WebAssembly.RuntimeError) {
      throw new SimCrash(panic ?? String(e), { cause: e });
    }
    throw new SimError(e instanceof Error ? e.message : String(e), { cause: e });
  }
}

function checkVersion<T extends { schemaVersion: number }>(what: string, value: T): T {
  if (value.schemaVersion !== SCHEMA_VERSION) {
    throw new SimCrash(
      `the simulator sent a ${what} of schemaVersion ${value.schemaVersion}, ` +
        `this page understands ${SCHEMA_VERSION}`,
    );
  }
  return value;
}

/** The code listing of every modelled kernel function. */
export function listing(): ListingFunction[] {
  return JSON.parse(call(() => rawListing())) as ListingFunction[];
}

/** Throws SimError with the simulator's message when `scenarioJson` is not a valid scenario. */
export function validateScenario(scenarioJson: string): void {
  new Simulation(scenarioJson, { events: false }).free();
}

/** One scenario being played, wrapping the wasm `Simulator` handle. */
export class Simulation {
  readonly scenarioJson: string;
  readonly recordsEvents: boolean;
  #raw: RawSimulator;

  constructor(scenarioJson: string, { events = true }: { events?: boolean } = {}) {
    this.scenarioJson = scenarioJson;
    this.recordsEvents = events;
    this.#raw = call(() => new RawSimulator(scenarioJson, events));
  }

  enabledMoves(): string[] {
    return call(() => this.#raw.enabledMoves());
  }

  apply(move: string): void {
    call(() => this.#raw.apply(move));
  }

  seek(n: number): void {
    call(() => this.#raw.seek(n));
  }

  history(): string[] {
    return call(() => this.#raw.history());
  }

  runToEnd(): void {
    call(() => this.#raw.runToEnd());
  }

  view(): View {
    return checkVersion('view', JSON.parse(call(() => this.#raw.view())) as View);
  }

  events(): SimEvent[] {
    return JSON.parse(call(() => this.#raw.events())) as SimEvent[];
  }

  /** The events from index `start` on. */
  /** Events `start..end` of the whole kept history (past the cursor too). */
  eventsRange(start: number, end: number): SimEvent[] {
    return JSON.parse(call(() => this.#raw.eventsRange(start, end))) as SimEvent[];
  }

  /** `marks[n]` = events after `n` moves; move n's events are `marks[n]..marks[n + 1]`. */
  marks(): number[] {
    return Array.from(call(() => this.#raw.marks()));
  }

  eventsFrom(start: number): SimEvent[] {
    return JSON.parse(call(() => this.#raw.eventsFrom(start))) as SimEvent[];
  }

  eventCount(): number {
    return call(() => this.#raw.eventCount());
  }

  /** The last event recorded, if any. */
  lastEvent(): SimEvent | undefined {
    const n = this.eventCount();
    return n === 0 ? undefined : this.eventsFrom(n - 1)[0];
  }

  outcome(): Outcome {
    return checkVersion('outcome', JSON.parse(call(() => this.#raw.outcome())) as Outcome);
  }

  /**
   * Bring the simulator to `cursor` moves of `schedule`: seek within the history it already
   * has when that is a prefix, otherwise seek to the common prefix and apply the rest. If the
   * simulator refuses to branch from there, start again from the scenario (correct, slower).
   * A move of `schedule` that is not enabled throws SimError.
   */
  sync(schedule: readonly string[], cursor: number): void {
    const target = schedule.slice(0, cursor);
    const history = this.history();
    let common = 0;
    while (common < target.length && history[common] === target[common]) common++;
    const position = this.view().position;
    if (common === target.length) {
      if (position !== cursor) this.seek(cursor);
      return;
    }
    try {
      if (position !== common) this.seek(common);
      for (const move of target.slice(common)) this.apply(move);
    } catch (e) {
      if (!(e instanceof SimError)) throw e;
      this.#raw.free();
      this.#raw = call(() => new RawSimulator(this.scenarioJson, this.recordsEvents));
      for (const move of target) this.apply(move);
    }
  }

  /** Release the wasm memory now (otherwise the garbage collector does it eventually). */
  free(): void {
    this.#raw.free();
  }
}
