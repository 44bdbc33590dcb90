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
  __wbg_reset_state as resetWasm,
  initSync,
  lastPanic,
  panicForTest as rawPanicForTest,
  listing as rawListing,
  sameExercise as rawSameExercise,
  Simulator as RawSimulator,
} from './pkg/slub_wasm.js';
import {
  SCHEMA_VERSION,
  type ListingFunction,
  type Scene,
  type SimEvent,
  type View,
} from './types';

/** A history cut into operations (`Simulation.operations`, wasm-core/wasm `Operations`). */
export interface Operations {
  /** `opAfter[i]`: operations finished, all contexts together, after move `i` (0-based). */
  readonly opAfter: number[];
  /** `ends[k]`: the moves played when `k` operations had finished (`ends[0]` = 0). */
  readonly ends: number[];
  /** Each operation as `T: alloc x`, in the order they finished. */
  readonly ops: string[];
}

/** What `Simulation.runOperations` ran (wasm-core/wasm `OpsRun`). */
export interface OpsRun {
  /** The history's length after the run. */
  readonly moves: number;
  /** `ends[i]`: the moves played when operation `ops[i]` had ended. */
  readonly ends: number[];
  readonly ops: string[];
  /** No move is enabled any more. */
  readonly finished: boolean;
}

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

/**
 * Every call into wasm goes through here: it sorts what was thrown into SimError or SimCrash.
 * After a crash the module is re-instantiated: a trap leaves the instance's
 * memory as the panic found it (a value still borrowed, a lock held), so the next simulation
 * starts on a fresh one; the handles of the old instance refuse every call.
 */
function call<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    const panic = panicMessage();
    if (panic !== undefined || e instanceof WebAssembly.RuntimeError) {
      try {
        resetWasm();
      } catch {
        // the crash screen still shows the panic; a reload will start afresh
      }
      throw new SimCrash(panic ?? String(e), { cause: e });
    }
    throw new SimError(e instanceof Error ? e.message : String(e), { cause: e });
  }
}

/** A Rust panic on purpose, for the tests of recovery: throws SimCrash. */
export function panicForTest(): void {
  call(() => rawPanicForTest());
}

export function checkVersion<T extends { schemaVersion: number }>(what: string, value: T): T {
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

/**
 * Whether `scenario` is still the exercise's that `opening` began, by `slub-lab grade`'s own
 * rule (Rust, `slub_sim::scenario::same_exercise`): equal as JSON but for `name` and `schedule`.
 */
export function sameExercise(opening: string, scenario: string): boolean {
  return call(() => rawSameExercise(opening, scenario));
}

/**
 * The moves that run context `ctx` to the end of what it is doing after `played` (the
 * playground's "run to the end"): worked out in Rust on a copy, on a simulator of its own.
 */
export function movesToEnd(scenarioJson: string, played: readonly string[], ctx: string): string[] {
  const sim = new Simulation(scenarioJson, { events: false });
  try {
    sim.scene(played, played.length, 0);
    return sim.movesToEnd(ctx);
  } finally {
    sim.free();
  }
}

/** Throws SimError with the simulator's message when `scenarioJson` is not a valid scenario. */
export function validateScenario(scenarioJson: string): void {
  new Simulation(scenarioJson, { events: false }).free();
}

/**
 * A call on a simulation's wasm handle with its crash handling, for what only tests ask
 * (testing.ts: its events, outcome, enabled moves). sim/index.ts does not export it.
 */
export function inspect<T>(sim: Simulation, f: (raw: RawSimulator) => T): T {
  return inspectRaw(sim, f);
}
let inspectRaw: <T>(sim: Simulation, f: (raw: RawSimulator) => T) => T;

/**
 * One scenario being played, wrapping the wasm `Simulator` handle: what the page asks of it
 * (one `scene` per user action; the comparison view's seek, history, view and run to the end).
 */
export class Simulation {
  static {
    inspectRaw = (sim, f) => sim.#call(() => f(sim.#raw));
  }

  readonly scenarioJson: string;
  readonly recordsEvents: boolean;
  #raw: RawSimulator;
  /**
   * The crash this handle met, if any. A panic leaves the Rust object borrowed for ever, so a
   * later call would only say "attempted to take ownership of Rust value while it was
   * borrowed": every later call reports the first crash instead.
   */
  #crash: SimCrash | undefined;
  /** The listing of this scenario's variant, asked for once (it never changes). */
  #listing: ListingFunction[] | undefined;

  #call<T>(f: () => T): T {
    if (this.#crash !== undefined) throw this.#crash;
    try {
      return call(f);
    } catch (e) {
      if (e instanceof SimCrash) this.#crash = e;
      throw e;
    }
  }

  constructor(scenarioJson: string, { events = true }: { events?: boolean } = {}) {
    this.scenarioJson = scenarioJson;
    this.recordsEvents = events;
    this.#raw = call(() => new RawSimulator(scenarioJson, events));
  }

  /**
   * One user action in one call and one JSON crossing: make the history start with
   * `schedule` (undefined: the last call's), move the cursor to `cursor`, and get the view,
   * the outcome and the events after the first `haveEvents` the caller keeps.
   */
  scene(schedule: readonly string[] | undefined, cursor: number, haveEvents: number): Scene {
    const scene = JSON.parse(
      this.#call(() => this.#raw.scene(schedule === undefined ? undefined : [...schedule], cursor, haveEvents)),
    ) as Scene;
    checkVersion('view', scene.view);
    checkVersion('outcome', scene.outcome);
    return scene;
  }

  /**
   * The code listing as this scenario's variant runs it: Linux 7.0's functions for `sheaves`,
   * else only the lines of the classic functions that its fast path and slow path run. Rust
   * reads the variant from the scenario it parsed; the page sends nothing back.
   */
  listing(): readonly ListingFunction[] {
    this.#listing ??= JSON.parse(this.#call(() => this.#raw.listing())) as ListingFunction[];
    return this.#listing;
  }

  apply(move: string): void {
    this.#call(() => this.#raw.apply(move));
  }

  /** The moves that run `ctx` to the end of its operation (an irq: of its handler), from the cursor. */
  movesToEnd(ctx: string): string[] {
    return this.#call(() => this.#raw.movesToEnd(ctx));
  }

  seek(n: number): void {
    this.#call(() => this.#raw.seek(n));
  }

  history(): string[] {
    return this.#call(() => this.#raw.history());
  }

  runToEnd(): void {
    this.#call(() => this.#raw.runToEnd());
  }

  /**
   * The history cut into operations, in Rust: each move's operation index (`opAfter`), where
   * each operation ends (`ends`) and what it was (`ops`, `T: alloc x`).
   */
  operations(): Operations {
    return JSON.parse(this.#call(() => this.#raw.operations())) as Operations;
  }

  /**
   * Go on from the end of the history by the default policy, at most `maxMoves` moves, cut
   * into operations in Rust as they run.
   */
  runOperations(maxMoves: number): OpsRun {
    return JSON.parse(this.#call(() => this.#raw.runOperations(maxMoves))) as OpsRun;
  }

  /** The events of the kept history from the `from`th on (setup's first). */
  eventsFrom(from: number): SimEvent[] {
    return JSON.parse(this.#call(() => this.#raw.eventsFrom(from))) as SimEvent[];
  }

  view(): View {
    return checkVersion('view', JSON.parse(this.#call(() => this.#raw.view())) as View);
  }

  /** Release the wasm memory now (otherwise the garbage collector does it eventually). */
  free(): void {
    if (this.#crash !== undefined) return; // the object is still borrowed: leave it
    this.#raw.free();
  }
}
