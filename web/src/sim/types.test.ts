// Round trip of the boundary types: run the real wasm and check that every JSON object it sends
// has exactly the keys web/src/sim/types.ts declares for it (types.ts mirrors the Rust types by
// hand; this is what keeps it honest).
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { listing, SimError, Simulation } from './simulator';
import { fileSchedule, loadWasmNode, samplePath, scenarioFiles } from './testing';
import { KEYS, SCHEMA_VERSION, type ArrayView, type View } from './types';

type Kind = keyof typeof KEYS;

beforeAll(loadWasmNode);

/** Collects the keys of every object seen, by the type it should have. */
class Seen {
  readonly keys = new Map<Kind, Set<string>>();

  add(kind: Kind, value: unknown): void {
    expect(value, kind).toBeTypeOf('object');
    expect(value, kind).not.toBeNull();
    const keys = Object.keys(value as object).sort();
    expect(keys, `keys of ${kind}`).toEqual(KEYS[kind]);
    this.keys.set(kind, new Set(keys));
  }

  addAll(kind: Kind, values: readonly unknown[]): void {
    for (const v of values) this.add(kind, v);
  }
}

function checkView(seen: Seen, view: View): void {
  seen.add('View', view);
  seen.add('VariantView', view.variant);
  expect(['slub', 'slab']).toContain(view.allocator);
  seen.addAll('CpuView', view.cpus);
  for (const c of view.cpus) {
    // The SLAB parts are there under SLAB and null under SLUB, never half.
    expect(c.arrayCache === null, `cpu ${c.cpu}'s arrayCache under ${view.allocator}`).toBe(view.allocator === 'slub');
    if (c.arrayCache !== null) checkArray(seen, c.arrayCache);
  }
  seen.addAll('SlabView', view.slabs);
  for (const slab of view.slabs) seen.addAll('ObjectView', slab.objects);
  seen.addAll('NodeView', view.nodes);
  for (const n of view.nodes) {
    expect(n.slab === null, `node ${n.node}'s slab under ${view.allocator}`).toBe(view.allocator === 'slub');
    if (n.slab === null) continue;
    seen.add('SlabNodeView', n.slab);
    if (n.slab.shared !== null) checkArray(seen, n.slab.shared);
  }
  seen.addAll('ContextView', view.contexts);
  seen.addAll('LineView', view.lines);
  seen.addAll('VarView', view.vars);
  seen.addAll('Violation', view.violations);
  for (const line of view.lines) for (const s of line.states) expect(s).toMatch(/^[MESI]$/);
}

function checkArray(seen: Seen, a: ArrayView): void {
  seen.add('ArrayView', a);
  expect(a.entries).toHaveLength(a.avail);
  expect(a.avail).toBeLessThanOrEqual(a.limit);
  expect(a.handed).toBeLessThanOrEqual(a.avail);
}

/** Play a scenario file to the end, checking every view, event and the outcome on the way. */
function playAndCheck(seen: Seen, text: string): void {
  const sim = new Simulation(text, { events: true });
  checkView(seen, sim.view());
  for (const move of fileSchedule(text)) {
    sim.apply(move);
    checkView(seen, sim.view());
  }
  for (let i = 0; i < 10_000 && !sim.view().finished; i++) {
    const move = sim.enabledMoves()[0];
    if (move === undefined) break;
    sim.apply(move);
    checkView(seen, sim.view());
  }
  for (const event of sim.events()) {
    seen.add('SimEvent', event);
    seen.addAll('CasHalf', event.halves);
    seen.addAll('Transition', event.coherence);
  }
  const outcome = sim.outcome();
  expect(outcome.schemaVersion).toBe(SCHEMA_VERSION);
  seen.add('Outcome', outcome);
  seen.add('Stats', outcome.stats);
  seen.add('Cycles', outcome.cycles);
  for (const v of Object.values(outcome.vars)) seen.add('VarOutcome', v);
  seen.addAll('Violation', outcome.violations);
  sim.free();
}

describe('boundary types mirror the Rust ones', () => {
  it('every object of every scenario has the declared keys', () => {
    const seen = new Seen();
    for (const file of scenarioFiles()) playAndCheck(seen, readFileSync(file, 'utf8'));
    for (const f of listing()) {
      seen.add('ListingFunction', f);
      seen.addAll('ListingLine', f.lines);
    }
    // Types that may legitimately be absent from a run (no violation, no failed double CAS,
    // no coherence change) are checked whenever they appear; the rest must have appeared.
    const optional: Kind[] = ['Violation', 'CasHalf', 'Transition', 'VarOutcome'];
    const missing = (Object.keys(KEYS) as Kind[]).filter(
      (k) => !optional.includes(k) && !seen.keys.has(k),
    );
    expect(missing, `types never seen in ${scenarioFiles().map((f) => basename(f)).join(', ')}`).toEqual([]);
  });
});

describe('errors cross as SimError with the simulator message', () => {
  const sample = readFileSync(samplePath, 'utf8');

  it('a bad scenario names the JSON path', () => {
    const bad = JSON.stringify({ ...JSON.parse(sample), cpus: 'two' });
    expect(() => new Simulation(bad)).toThrow(SimError);
    expect(() => new Simulation(bad)).toThrow(/cpus/);
  });

  it('a move that is not enabled names the move and leaves the state alone', () => {
    const sim = new Simulation(sample);
    const before = sim.view();
    expect(() => sim.apply('no-such-context')).toThrow(SimError);
    expect(() => sim.apply('no-such-context')).toThrow(/no-such-context/);
    expect(sim.view()).toEqual(before);
    sim.free();
  });

  it('sync reaches any cursor of a schedule, backwards and forwards', () => {
    const sim = new Simulation(sample);
    const moves: string[] = [];
    const views: View[] = [sim.view()];
    for (let i = 0; i < 200; i++) {
      const move = sim.enabledMoves()[0];
      if (move === undefined) break;
      sim.apply(move);
      moves.push(move);
      views.push(sim.view());
    }
    expect(moves.length).toBeGreaterThan(0);
    for (const n of [0, moves.length, 1, moves.length - 1, Math.floor(moves.length / 2)]) {
      sim.sync(moves, n);
      expect(sim.view()).toEqual(views[n]);
    }
    sim.free();
  });
});
