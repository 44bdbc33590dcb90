// The side-by-side view's computation, run in Web Workers (compare.worker.ts,
// one per design) so that a scenario at the limits never blocks the page. Each design runs by
// the default policy a chunk of moves at a time (`Simulation.runOperations`), cut into
// operations in Rust as it runs: the first frames are drawn long before a big scenario's run has
// ended (about 10,000 moves under 7.0 at the limits, seconds of work). The counters at each
// operation's end are summed as the events arrive; a frame (the views at operation k) is a seek
// and a view per side.
import { SimError, Simulation, type SimEvent, type View } from '../../sim';
import { addEvent, DESIGNS, designScenario, NO_COUNTERS, whyNoFailedCas, type Counters, type Design } from '../../state/compare';
import { scriptedMoves } from '../../state/player';

/** Moves run per chunk (a few milliseconds of work for the biggest scenario). */
const CHUNK_MOVES = 200;
/** The default policy's bound (the simulator's MAX_POLICY_MOVES): a run past it is stopped. */
const MAX_MOVES = 100_000;

/** What the page needs to know of one side once it is loaded. */
export interface SideInfo {
  readonly era: Design;
  readonly title: string;
  /** The scenario's own schedule on this side: its length and how many of its moves played. */
  readonly schedule: { readonly length: number; readonly played: number; readonly stopped: string | null };
}

/** One side at operation k. */
export interface SideFrame {
  readonly era: Design;
  readonly moves: number;
  readonly view: View;
  readonly event: SimEvent | undefined;
  readonly counters: Counters;
  readonly lastOp: string;
}

export interface Loaded {
  readonly kind: 'loaded';
  readonly sides: readonly SideInfo[];
  /** Operations of the longer side (known from the scenario before the runs end). */
  readonly total: number;
}

/** How far the runs are: operations cut on every side, and whether all have ended. */
export interface Progress {
  readonly kind: 'progress';
  readonly ready: number;
  readonly total: number;
  readonly finished: boolean;
  readonly notes: readonly string[];
  /** Each side that has ended, with its failed compare-and-swaps (the page's why-note). */
  readonly ended: readonly { readonly era: Design; readonly casFailed: number }[];
}

/** The operations a design's scenario has (its contexts' ops). */
function opsIn(text: string): number {
  const sc = JSON.parse(text) as { tasks?: { ops?: unknown[] }[]; irqs?: { ops?: unknown[] }[] };
  return [...(sc.tasks ?? []), ...(sc.irqs ?? [])].reduce((n, c) => n + (c.ops?.length ?? 0), 0);
}

/** One design's run, extended a chunk at a time. */
class Side {
  readonly sim: Simulation;
  readonly era: Design;
  readonly title: string;
  readonly schedule: SideInfo['schedule'];
  readonly expected: number;
  /** `ends[k]`: moves played after k operations (`ends[0]` = 0). */
  readonly ends: number[] = [0];
  readonly ops: string[] = [];
  readonly events: SimEvent[] = [];
  /** `counters[k]`, `lastEvent[k]`: the counters and the last move's event index at `ends[k]`. */
  readonly counters: Counters[] = [NO_COUNTERS];
  readonly lastEvent: number[] = [-1];
  moves = 0;
  finished = false;
  #acc: Counters = NO_COUNTERS;
  #next = 0;
  #last = -1;

  constructor(era: Design, title: string, text: string, schedule: readonly string[]) {
    this.era = era;
    this.title = title;
    this.sim = new Simulation(text, { events: true });
    // (Read once the simulator has accepted the scenario: its contexts are then well formed.)
    this.expected = opsIn(text);
    let played = 0;
    let stopped: string | null = null;
    if (schedule.length > 0) {
      const f = this.sim.scene(schedule, schedule.length, 0);
      played = f.played;
      stopped = f.error;
      const cut = this.sim.operations();
      this.moves = played;
      this.#take(cut.ends.slice(1), cut.ops);
    } else {
      this.#take([], []);
    }
    this.schedule = { length: schedule.length, played, stopped };
  }

  /** New events, and the operations that ended by `ends` (ascending moves). */
  #take(ends: readonly number[], ops: readonly string[]): void {
    this.events.push(...this.sim.eventsFrom(this.events.length));
    ends.forEach((end, i) => {
      this.#sumTo(end);
      this.ends.push(end);
      this.ops.push(ops[i] ?? '');
      this.counters.push(this.#acc);
      this.lastEvent.push(this.#last);
    });
  }

  /** The counters of the events of moves before `end`, summed on from the last call. */
  #sumTo(end: number): void {
    let e = this.events[this.#next];
    while (e !== undefined && (e.mv === null || e.mv < end)) {
      if (e.mv !== null) {
        this.#acc = addEvent(this.#acc, e);
        this.#last = this.#next;
      }
      e = this.events[++this.#next];
    }
  }

  /** Run one chunk; true once the run has ended. */
  advance(): boolean {
    if (this.finished) return true;
    const run = this.sim.runOperations(Math.min(CHUNK_MOVES, Math.max(0, MAX_MOVES - this.moves)));
    this.moves = run.moves;
    this.#take(run.ends, run.ops);
    if (run.finished || this.moves >= MAX_MOVES) {
      this.finished = true;
      if (this.ends.at(-1) !== this.moves) this.#take([this.moves], ['to the end']);
    }
    return this.finished;
  }

  /** Operations cut so far (all of them once finished). */
  get ready(): number {
    return this.ops.length;
  }

  frame(k: number): SideFrame {
    const at = Math.max(0, Math.min(k, this.ends.length - 1));
    const moves = this.ends[at] ?? 0;
    this.sim.seek(moves);
    const view = this.sim.view();
    const e = this.lastEvent[at] ?? -1;
    return {
      era: this.era,
      moves,
      view,
      event: e < 0 ? undefined : this.events[e],
      counters: this.counters[at] ?? NO_COUNTERS,
      lastOp: k === 0 ? 'nothing yet' : (this.ops[k - 1] ?? 'nothing more (this side has finished)'),
    };
  }
}

export class CompareEngine {
  readonly #sides: Side[];
  readonly loaded: Loaded;

  private constructor(sides: Side[]) {
    this.#sides = sides;
    this.loaded = {
      kind: 'loaded',
      sides: sides.map(({ era, title, schedule }) => ({ era, title, schedule })),
      total: this.total,
    };
  }

  /**
   * Both designs of `scenario`, ready to run, or the reason they cannot be. Each side first
   * plays `schedules[era]` when given (a built-in story written for each design), else the
   * scenario's own `schedule`, as far as its moves play there.
   */
  static load(
    scenario: string,
    schedules: Partial<Record<Design, readonly string[]>> | null = null,
    /** The designs to run here (the page runs each in a worker of its own, in parallel). */
    eras: readonly Design[] = DESIGNS.map((d) => d.era),
  ): CompareEngine | { kind: 'error'; message: string } {
    // A scenario nested too deep for JavaScript's own JSON.stringify (designScenario) is one the
    // simulator refuses too: its parser names the place.
    let texts: (string | null)[];
    try {
      texts = DESIGNS.map((d) => designScenario(scenario, d.era));
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      try {
        new Simulation(scenario, { events: false }).free();
      } catch (bad) {
        if (bad instanceof SimError) return { kind: 'error', message: `the scenario is not valid: ${bad.message}` };
        throw bad;
      }
      return { kind: 'error', message: `the scenario is nested too deep: ${e.message}` };
    }
    const own = scriptedMoves(scenario);
    const sides: Side[] = [];
    for (const [i, d] of DESIGNS.entries()) {
      const text = texts[i] ?? null;
      if (text === null) return { kind: 'error', message: 'this scenario runs SLAB (or is not JSON): the comparison needs a SLUB scenario.' };
      if (!eras.includes(d.era)) continue;
      try {
        sides.push(new Side(d.era, d.title, text, schedules?.[d.era] ?? own));
      } catch (e) {
        for (const s of sides) s.sim.free();
        if (e instanceof SimError) {
          // The scenario's own fault, said as the simulator says it of the scenario as given.
          try {
            new Simulation(scenario, { events: false }).free();
          } catch (bad) {
            if (bad instanceof SimError) return { kind: 'error', message: `the scenario is not valid: ${bad.message}` };
          }
          return { kind: 'error', message: `under ${d.era} the model refuses the scenario: ${e.message}` };
        }
        throw e;
      }
    }
    return new CompareEngine(sides);
  }

  /** Operations of the longer side: the scenario's, plus a last "to the end" if a run needs one. */
  get total(): number {
    return Math.max(...this.#sides.map((s) => (s.finished ? s.ops.length : Math.max(s.expected, s.ops.length))));
  }

  /** Operations cut on both sides (a side that has ended has all of its own). */
  get ready(): number {
    return Math.min(...this.#sides.map((s) => (s.finished ? Number.POSITIVE_INFINITY : s.ready)), this.total);
  }

  get finished(): boolean {
    return this.#sides.every((s) => s.finished);
  }

  /** Run chunks for about `budgetMs`; the progress after it. */
  advance(budgetMs: number): Progress {
    const t0 = performance.now();
    while (!this.finished && performance.now() - t0 < budgetMs) {
      // The side that is behind first, so frames become ready on both.
      const behind = this.#sides.filter((s) => !s.finished).sort((a, b) => a.ready - b.ready)[0];
      behind?.advance();
    }
    return this.progress();
  }

  /** Run both sides to their end (tests). */
  runAll(): void {
    while (!this.finished) this.advance(1000);
  }

  progress(): Progress {
    const notes: string[] = [];
    const [a, b] = this.#sides;
    if (this.finished && a !== undefined && b !== undefined) {
      const why = whyNoFailedCas(a.counters.at(-1)?.casFailed ?? 0, b.counters.at(-1)?.casFailed ?? 0);
      if (why !== null) notes.push(why);
    }
    const ended = this.#sides.filter((s) => s.finished).map((s) => ({ era: s.era, casFailed: s.counters.at(-1)?.casFailed ?? 0 }));
    return { kind: 'progress', ready: this.ready, total: this.total, finished: this.finished, notes, ended };
  }

  /** Every side after `k` operations (each clamped to its last), or null until all have it. */
  frame(k: number): SideFrame[] | null {
    if (!this.finished && k > this.ready) return null;
    return this.#sides.map((s) => s.frame(k));
  }

  free(): void {
    for (const s of this.#sides) s.sim.free();
  }
}
