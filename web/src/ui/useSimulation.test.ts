// The page's derivation keeps one simulator and fetches only new events; it must show exactly
// what a fresh simulator shows, whatever the learner does (step, step back, branch, load).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { listing, Simulation } from '../sim';
import { enabledMovesOf, eventsOf, loadWasmNode, outcomeOf, samplePath, scenarioFiles } from '../sim/testing';
import { deriver } from './useSimulation';

beforeAll(loadWasmNode);

function fresh(scenario: string, schedule: readonly string[], cursor: number) {
  const sim = new Simulation(scenario);
  for (const m of schedule) sim.apply(m);
  const events = eventsOf(sim);
  sim.seek(cursor);
  const out = { view: sim.view(), outcome: outcomeOf(sim), events, last: eventsOf(sim).at(-1) };
  sim.free();
  return out;
}

/** A small deterministic random generator (tests read no clock and no Math.random). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('the page derivation', () => {
  it('matches a fresh simulator through steps, steps back, branches and shrinking schedules', () => {
    for (const file of scenarioFiles().slice(0, 6)) {
      const scenario = readFileSync(file, 'utf8');
      const derive = deriver(scenario);
      const probe = new Simulation(scenario, { events: false });
      const random = rng(file.length);
      let schedule: string[] = [];
      let cursor = 0;
      for (let i = 0; i < 60; i++) {
        const r = random();
        if (r < 0.5) {
          // Append (or branch at the cursor) with an enabled move.
          probe.seek(0);
          for (const m of schedule.slice(0, cursor)) probe.apply(m);
          const moves = enabledMovesOf(probe);
          const move = moves[Math.floor(random() * moves.length)];
          if (move === undefined) continue;
          schedule = [...schedule.slice(0, cursor), move];
          cursor = schedule.length;
        } else if (r < 0.8) {
          cursor = Math.floor(random() * (schedule.length + 1));
        } else {
          schedule = schedule.slice(0, cursor); // a loaded, shorter schedule
        }
        const got = derive(schedule, cursor);
        if (got.kind !== 'ok') throw new Error(`${file}: ${got.kind}: ${'message' in got ? got.message : ''}`);
        const want = fresh(scenario, schedule, cursor);
        expect(got.view, `${file} at ${cursor} of ${schedule.join(',')}`).toEqual(want.view);
        expect(got.outcome).toEqual(want.outcome);
        expect(got.events).toEqual(want.events);
        expect(got.lastEvent).toEqual(want.last);
      }
      probe.free();
    }
  });

  it('keeps the events array while only the cursor moves, and says which move does not play', () => {
    const scenario = readFileSync(scenarioFiles()[0] ?? '', 'utf8');
    const derive = deriver(scenario);
    const probe = new Simulation(scenario, { events: false });
    const first = enabledMovesOf(probe)[0] ?? '';
    probe.free();
    const schedule = [first, first];
    const a = derive(schedule, 2);
    const b = derive(schedule, 1);
    if (a.kind !== 'ok' || b.kind !== 'ok') throw new Error('does not play');
    expect(b.events).toBe(a.events);
    const bad = derive([first, 'nope'], 2);
    expect(bad).toMatchObject({ kind: 'error', message: /nope/ });
    expect(derive([first, 'nope'], 1).kind).toBe('ok');
  });
});

/**
 * SC3 with `total` moves that play: T reads its tid, U preempts it, the switched-out T migrates
 * between the CPUs (a move that can repeat for ever), then U and T run to their ends.
 */
function longSchedule(total: number): { scenario: string; moves: string[] } {
  const file = scenarioFiles().find((f) => f.includes('sc03_'));
  if (file === undefined) throw new Error('sc03 is missing');
  const tail = [...Array<string>(8).fill('U'), ...Array<string>(13).fill('T')];
  const moves = ['T', 'T', 'T', 'T', 'U'];
  while (moves.length < total - tail.length) moves.push(moves.length % 2 === 1 ? 'migrate:T:1' : 'migrate:T:0');
  return { scenario: readFileSync(file, 'utf8'), moves: [...moves, ...tail] };
}

describe("the listing of the scenario's variant", () => {
  const sample = JSON.parse(readFileSync(samplePath, 'utf8')) as Record<string, unknown>;
  const labels = (variant: Record<string, string>) => {
    const derived = deriver(JSON.stringify({ ...sample, variant }))([], 0);
    if (derived.kind !== 'ok') throw new Error(`${JSON.stringify(variant)}: ${derived.kind}`);
    // One listing per simulator: the next scene hands the same array back.
    const again = deriver(JSON.stringify({ ...sample, variant }));
    const first = again([], 0);
    const next = again(['T'], 1);
    if (first.kind !== 'ok' || next.kind !== 'ok') throw new Error('the sample does not play');
    expect(next.listing).toBe(first.listing);
    return new Set(derived.listing.flatMap((f) => f.lines.map((l) => l.label)));
  };

  it("shows the lines that variant's fast and slow paths run, read from the scenario in Rust", () => {
    const tid = labels({ fastpath: 'tid-loop' });
    const local = labels({ fastpath: 'cmpxchg-local' });
    const locked = labels({ fastpath: 'tid-loop', slowpath: 'local-lock' });
    // 2008's this_cpu cmpxchg_local is not in a tid loop's listing, and the other way round.
    expect(local.has('slab_alloc:L5')).toBe(true);
    expect(tid.has('slab_alloc:L5')).toBe(false);
    expect([...tid].some((l) => /^slab_alloc:E3/.test(l))).toBe(true);
    expect([...local].some((l) => /^slab_alloc:E3/.test(l))).toBe(false);
    // The slow path chooses __slab_alloc's lines: local_lock's only under `local-lock`.
    expect([...locked].some((l) => l.startsWith('__slab_alloc:LL'))).toBe(true);
    expect([...tid].some((l) => l.startsWith('__slab_alloc:LL'))).toBe(false);
    // Each listing is the whole listing's lines (a subset), never one of its own.
    const whole = new Set(listing().flatMap((f) => f.lines.map((l) => l.label)));
    for (const l of [...tid, ...local, ...locked]) expect(whole.has(l), l).toBe(true);
  });

  it("is Linux 7.0's own table under the sheaves era", () => {
    const v7 = labels({ era: 'v7.0' });
    const whole = new Set(listing().flatMap((f) => f.lines.map((l) => l.label)));
    expect(v7.size).toBeGreaterThan(0);
    expect([...v7].some((l) => !whole.has(l))).toBe(true);
  });
});

describe('a long schedule replayed in slices', () => {
  it('leaves the derivation where one call leaves it, with nothing pending', async () => {
    const { scenario, moves } = longSchedule(6_000);
    const derive = deriver(scenario);
    expect(derive.pending(moves)).toBe(6_000);
    const seen: number[] = [];
    const out = await derive.replay(moves, (p) => seen.push(p.done), new AbortController().signal);
    expect(out).toEqual({ done: 6_000, error: null });
    expect(seen.at(-1)).toBe(6_000);
    expect(derive.pending(moves)).toBe(0);
    const oneCall = deriver(scenario);
    for (const cursor of [6_000, 17, 0, 5_999]) {
      const got = derive(moves, cursor);
      const want = oneCall(moves, cursor);
      if (got.kind !== 'ok' || want.kind !== 'ok') throw new Error(`${got.kind} / ${want.kind}`);
      expect(got.view).toEqual(want.view);
      expect(got.outcome).toEqual(want.outcome);
      expect(got.events).toEqual(want.events);
      expect(got.lastEvent).toEqual(want.lastEvent);
    }
    // T allocated where the migrations left it: all 6,000 moves played.
    expect(derive(moves, 6_000)).toMatchObject({ kind: 'ok', outcome: { finished: true } });
  });

  it('stops at a move that does not play with the message one call gives', async () => {
    const { scenario, moves } = longSchedule(6_000);
    const bad = [...moves.slice(0, 4_000), 'nobody', ...moves.slice(4_000)];
    const out = await deriver(scenario).replay(bad, () => undefined, new AbortController().signal);
    const want = deriver(scenario)(bad, bad.length);
    if (want.kind !== 'error') throw new Error(want.kind);
    expect(out).toEqual({ done: 4_000, error: want.message });
    expect(want.message).toMatch(/^move 4000 \("nobody"\)/);
  });

  it('stops when aborted, and the moves replayed so far derive as in one call', async () => {
    const { scenario, moves } = longSchedule(40_000);
    const derive = deriver(scenario);
    const abort = new AbortController();
    const out = await derive.replay(moves, () => abort.abort(), abort.signal);
    expect(out.error).toBeNull();
    expect(out.done).toBeGreaterThan(0);
    const kept = moves.slice(0, out.done);
    // Cancel keeps what was replayed: nothing is left to apply for it.
    expect(derive.pending(kept)).toBe(0);
    const got = derive(kept, kept.length);
    const want = deriver(scenario)(kept, kept.length);
    if (got.kind !== 'ok' || want.kind !== 'ok') throw new Error(`${got.kind} / ${want.kind}`);
    expect(got.view).toEqual(want.view);
    expect(got.events).toEqual(want.events);
  });
});
