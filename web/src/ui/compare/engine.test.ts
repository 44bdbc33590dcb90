// `#/compare`'s worker computation: the operation index comes from Rust and
// cuts each side as the page's own replay did; a scenario's schedule runs first (SC1's fails
// its cmpxchg under 6.8, and the page says why 7.0 has none); a bad or deep scenario is an
// error that names its place.
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation, type View } from '../../sim';
import { eventsOf, loadWasmNode } from '../../sim/testing';
import { countersUpTo, designScenario } from '../../state/compare';
import { BUILTIN_TEXTS, compareSchedules } from '../scenarios';
import { CompareEngine } from './engine';

beforeAll(loadWasmNode);

function load(text: string): CompareEngine {
  const e = CompareEngine.load(text);
  if (!(e instanceof CompareEngine)) throw new Error(e.message);
  e.runAll();
  return e;
}

/** Operations every context has finished, from a view (the page's old, JavaScript, cut). */
function opsDone(view: View): number {
  return view.contexts.reduce((n, c) => n + (c.state === 'finished' ? c.ops : c.op === null ? c.opIndex : c.opIndex - 1), 0);
}

describe('the operation index from Rust', () => {
  it.each(['sh05', 'sc01', 'sc08', 'sc15', 'sample'])('cuts %s where a replay of the views does', (id) => {
    const text = designScenario(BUILTIN_TEXTS[id] ?? '', 'v7.0') ?? '';
    const sim = new Simulation(text, { events: false });
    sim.runToEnd();
    const history = sim.history();
    const { opAfter, ends } = sim.operations();
    const replayed: number[] = [];
    for (let at = 1; at <= history.length; at++) {
      sim.seek(at);
      replayed.push(opsDone(sim.view()));
    }
    expect(opAfter).toEqual(replayed);
    expect(ends.length).toBe((opAfter.at(-1) ?? 0) + 1);
    sim.free();
  });
});

describe('the comparison engine', () => {
  it('cuts a run a chunk at a time as the whole history at once does, and gives frames only when ready', () => {
    const text = BUILTIN_TEXTS.sc15 ?? '';
    const e = CompareEngine.load(text);
    if (!(e instanceof CompareEngine)) throw new Error(e.message);
    expect(e.frame(0)).not.toBeNull();
    const first = e.advance(0);
    expect(first.finished).toBe(false);
    if (first.ready < first.total) expect(e.frame(first.total)).toBeNull();
    e.runAll();
    for (const era of ['v6.8', 'v7.0'] as const) {
      const sim = new Simulation(designScenario(text, era) ?? '', { events: false });
      sim.runToEnd();
      const { ends } = sim.operations();
      const side = e.loaded.sides.findIndex((s) => s.era === era);
      const moves = Array.from({ length: ends.length }, (_, k) => e.frame(k)?.[side]?.moves);
      expect(moves).toEqual(ends);
      sim.free();
    }
    e.free();
  });

  it("runs SC1's own schedule: 6.8 fails its cmpxchg, 7.0 has none and the page says why", () => {
    const text = BUILTIN_TEXTS.sc01 ?? '';
    const e = CompareEngine.load(text, compareSchedules(text));
    if (!(e instanceof CompareEngine)) throw new Error(e.message);
    e.runAll();
    const [a, b] = e.loaded.sides;
    expect(a?.schedule).toMatchObject({ length: 12, played: 12, stopped: null });
    expect(b?.schedule).toMatchObject({ length: 15, played: 15, stopped: null });
    const end = e.frame(e.total) ?? [];
    expect(end[0]?.counters.casFailed).toBeGreaterThan(0);
    expect(end[1]?.counters.casFailed).toBe(0);
    expect(e.progress().notes.join(' ')).toMatch(/local lock/);
    e.free();
  });

  it("runs a scenario's own schedule as far as it plays on each design", () => {
    const text = JSON.stringify({ ...(JSON.parse(BUILTIN_TEXTS.sc01 ?? '{}') as object), schedule: [...Array<string>(9).fill('T'), 'I'] });
    const e = load(text);
    const [a, b] = e.loaded.sides;
    // 6.8's fast path is 7 steps long: T's eighth move is refused, and said so.
    expect(a?.schedule).toMatchObject({ length: 10, played: 7 });
    expect(a?.schedule.stopped).toMatch(/move 7/);
    expect(b?.schedule).toMatchObject({ length: 10, played: 10, stopped: null });
    e.free();
  });

  it('gives the counters of countersUpTo at every operation, and the views of a fresh run', () => {
    const e = load(BUILTIN_TEXTS.sh05 ?? '');
    expect(e.total).toBe(3);
    const text = designScenario(BUILTIN_TEXTS.sh05 ?? '', 'v6.8') ?? '';
    const sim = new Simulation(text);
    sim.runToEnd();
    const events = eventsOf(sim);
    for (let k = 0; k <= e.total; k++) {
      const [f] = e.frame(k) ?? [];
      expect(f?.counters).toEqual(countersUpTo(events, f?.moves ?? 0));
      sim.seek(f?.moves ?? 0);
      expect(f?.view).toEqual(sim.view());
    }
    sim.free();
    e.free();
  });

  it('refuses a scenario nested 10,000 deep with the parser’s place, and SLAB with a reason', () => {
    const deep = `{"schemaVersion":1,"setup":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const r = CompareEngine.load(deep);
    expect(r).toMatchObject({ kind: 'error' });
    if (!(r instanceof CompareEngine)) expect(r.message).toMatch(/line 1,? column \d+/);
    expect(CompareEngine.load(BUILTIN_TEXTS.sc18 ?? '')).toMatchObject({ kind: 'error', message: expect.stringMatching(/SLAB/) as unknown });
  });
});
