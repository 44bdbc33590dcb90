// The pure layouts, on real views of the model's scenarios (the wasm, loaded in node).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { listing, Simulation, type SimEvent, type View } from '../sim';
import { loadWasmNode, scenarioFiles } from '../sim/testing';
import { describeView } from './describe';
import { arcPath } from './geometry';
import { layoutLines } from './lines.layout';
import { functionOf, layoutListing } from './listing.layout';
import { layoutStage, objectState, ownerText, snapshotLine, type CardShape } from './stage.layout';
import { cursorAt, layoutTimeline } from './timeline.layout';

beforeAll(loadWasmNode);

const file = (prefix: string) => {
  const f = scenarioFiles().find((p) => p.includes(`/${prefix}`));
  if (f === undefined) throw new Error(`no scenario ${prefix}`);
  return readFileSync(f, 'utf8');
};

/** SC1 played to T's failed cmpxchg: T reads, the irq frees on the same CPU, T's CAS fails. */
const SC1_FAIL = [...Array<string>(7).fill('T'), ...Array<string>(9).fill('I'), 'T'];

function play(text: string, moves: readonly string[]): { view: View; events: SimEvent[] } {
  const sim = new Simulation(text);
  for (const m of moves) sim.apply(m);
  const out = { view: sim.view(), events: sim.events() };
  sim.free();
  return out;
}

function overlaps(a: CardShape, b: CardShape): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

describe('stage layout', () => {
  it('gives every shape a unique key and every object a grid chip, on every scenario', () => {
    for (const f of scenarioFiles()) {
      const sim = new Simulation(readFileSync(f, 'utf8'));
      sim.runToEnd();
      for (const at of [0, Math.floor(sim.history().length / 2), sim.history().length]) {
        sim.seek(at);
        const view = sim.view();
        const s = layoutStage(view, sim.lastEvent(), { columns: 2, selection: null });
        const keys = [...s.cards, ...s.chips, ...s.refs, ...s.arrows, ...s.locks].map((x) => x.key);
        expect(new Set(keys).size, f).toBe(keys.length);
        const objects = view.slabs.flatMap((sl) => sl.objects.map((o) => o.name));
        expect(s.chips.filter((c) => c.key.startsWith('obj:')).map((c) => c.object).sort()).toEqual([...objects].sort());
        for (const [i, a] of s.cards.entries()) {
          for (const b of s.cards.slice(i + 1)) expect(overlaps(a, b), `${f}: ${a.key} / ${b.key}`).toBe(false);
        }
        for (const c of s.cards) {
          expect(c.x + c.w).toBeLessThanOrEqual(s.width);
          expect(c.y + c.h).toBeLessThanOrEqual(s.height);
        }
      }
      sim.free();
    }
  });

  it('chains the CPU freelist as chips that come from their grid position', () => {
    const { view, events } = play(file('sc01'), SC1_FAIL);
    const s = layoutStage(view, events.at(-1), { columns: 2, selection: 'p1' });
    const fl = s.chips.filter((c) => c.key.startsWith('fl:'));
    expect(fl.map((c) => c.object)).toEqual(view.cpus[0]?.freelist);
    for (const c of fl) {
      const home = s.chips.find((g) => g.key === `obj:${c.object}`);
      expect(c.from).toEqual({ x: home?.x, y: home?.y });
      expect(c.cpu).toBe(0);
    }
    expect(s.arrows.filter((a) => a.kind === 'link')).toHaveLength(fl.length - 1);
    expect(s.chips.filter((c) => c.selected).map((c) => c.key).sort()).toEqual(['fl:p1', 'obj:p1']);
  });

  it('writes the tid with its decomposition and the CPU card says who runs', () => {
    const { view } = play(file('sc01'), ['T', 'T', 'T']);
    const s = layoutStage(view, undefined, { columns: 2, selection: null });
    const cpu0 = s.cards.find((c) => c.key === 'cpu:0');
    const texts = cpu0?.texts.map((t) => t.text) ?? [];
    const c = view.cpus[0];
    expect(texts).toContain(`${c?.tid} = ${c?.tidEvent}·${view.tidStep}+${c?.tidCpu}`);
    expect(texts).toContain('running ● T');
  });

  it('shows a failed cmpxchg half by half, the differing halves marked', () => {
    const { view, events } = play(file('sc01'), SC1_FAIL);
    const failed = events.at(-1);
    expect(failed?.ok).toBe(false);
    const s = layoutStage(view, failed, { columns: 2, selection: null });
    expect(s.strip.failed).toBe(true);
    expect(s.strip.halves.map((h) => [h.field, h.match])).toEqual([
      ['freelist', false],
      ['tid', false],
    ]);
    expect(s.strip.texts[0]?.text).toMatch(/✕ FAILS/);
  });

  it('puts CPUs and slabs in one column on a phone', () => {
    const { view } = play(file('sc11'), []);
    const one = layoutStage(view, undefined, { columns: 1, selection: null });
    const two = layoutStage(view, undefined, { columns: 2, selection: null });
    expect(one.width).toBeLessThan(two.width);
    expect(new Set(one.cards.filter((c) => c.kind !== 'node').map((c) => c.x)).size).toBe(1);
  });

  it('words owners and object states (never colour alone)', () => {
    expect(ownerText('cpu1')).toBe('CPU 1 slab');
    expect(ownerText('cpu0-partial')).toBe('CPU 0 partial');
    expect(ownerText('node0-partial')).toBe('node 0 partial');
    expect(ownerText('full')).toBe('full, on no list');
    expect(objectState('user:x')).toEqual({ state: 'held', cpu: null, label: 'x' });
    expect(objectState('inflight:T')).toEqual({ state: 'inflight', cpu: null, label: '⇢T' });
    expect(objectState('cpu1')).toEqual({ state: 'free', cpu: 1, label: '' });
    expect(objectState('lost').state).toBe('lost');
  });

  it('draws free-pointer arcs as stable path strings', () => {
    expect(arcPath({ x: 10, y: 50 }, { x: 58, y: 50 }, 20)).toBe('M10,40 Q34,12.5 58,39');
  });
});

describe("a fast path's snapshot", () => {
  /** SC2 without the tid: T reads p0 and next = p1, the irq reuses p0 (ABA), T's CAS is last. */
  const ABA = [...Array<string>(6).fill('T'), ...Array<string>(24).fill('I')];
  const noTid = () => {
    const sc = JSON.parse(file('sc02')) as Record<string, unknown>;
    return JSON.stringify({ ...sc, variant: { fastpath: 'no-tid' } });
  };

  it('says what the pending CAS expects and marks the stale next read before the ABA', () => {
    const { view } = play(noTid(), ABA);
    const t = view.contexts.find((c) => c.id === 'T');
    if (t === undefined) throw new Error('no T');
    expect(t.label).toBe('slab_alloc:A9');
    const objects = new Map(view.slabs.flatMap((sl) => sl.objects.map((o) => [o.name, o] as const)));
    const line = snapshotLine(t, view, objects);
    const snap = t.snapshot;
    if (line === null || snap === null) throw new Error('no snapshot');
    // no-tid compares the freelist only: no tid in what the CAS expects.
    expect(line.text).toMatch(new RegExp(`^  CAS expects ${snap.object} → ${snap.next} ⚠ ${snap.object} now → `));
    expect(line.stale).toBe(true);
    expect(line.words).toMatch(new RegExp(`^T's cmpxchg expects ${snap.object} and installs ${snap.next}, but ${snap.object} now points to \\w+: the next it read is stale\\.$`));
    expect(describeView(view)).toContain(line.words);
    const s = layoutStage(view, undefined, { columns: 2, selection: null });
    expect(s.arrows.find((a) => a.key === 'snap:T')?.kind).toBe('snap');
    expect(s.cards.find((c) => c.key === 'cpu:0')?.texts.some((x) => x.cls.includes('warn') && x.text.includes('⚠'))).toBe(true);
  });

  it('with the tid, the tid is expected too; nothing is stale before the irq runs', () => {
    // Step T to its cmpxchg (the tid loop of the default fast path has more steps).
    const sim = new Simulation(file('sc02'));
    const atCas = () => sim.view().contexts.find((c) => c.id === 'T')?.label === 'slab_alloc:A9';
    for (let i = 0; i < 20 && !atCas(); i++) sim.apply('T');
    const view = sim.view();
    sim.free();
    const t = view.contexts.find((c) => c.id === 'T');
    if (t === undefined) throw new Error('no T');
    const objects = new Map(view.slabs.flatMap((sl) => sl.objects.map((o) => [o.name, o] as const)));
    const line = snapshotLine(t, view, objects);
    expect(line?.text).toMatch(/^ {2}CAS expects p\d, tid \d+ → p\d$/);
    expect(line?.stale).toBe(false);
    const idle = view.contexts.find((c) => c.id === 'I');
    if (idle === undefined) throw new Error('no I');
    expect(snapshotLine(idle, view, objects)).toBeNull();
  });
});

describe('cache lines layout', () => {
  it('one cell per line and CPU; a transfer goes to the CPU that took the line', () => {
    const text = file('sc05');
    const sim = new Simulation(text);
    sim.runToEnd();
    const events = sim.events();
    const i = events.findIndex((e) => e.mv !== null && e.coherence.some((t) => t.from === 'I' && t.to !== 'I'));
    expect(i).toBeGreaterThan(0);
    const e = events[i];
    if (e === undefined || e.mv === null) throw new Error('unreachable');
    sim.seek(e.mv + 1);
    const view = sim.view();
    const s = layoutLines(view.lines, view.cpus.length, sim.lastEvent());
    expect(s.cells).toHaveLength(view.lines.length * view.cpus.length);
    expect(s.cells.filter((c) => c.changed).length).toBe(sim.lastEvent()?.coherence.length);
    const gainer = sim.lastEvent()?.coherence.find((t) => t.from === 'I' && t.to !== 'I');
    expect(s.transfers.map((t) => t.toCpu)).toContain(gainer?.cpu);
    sim.free();
  });
});

describe('timeline layout', () => {
  it('one tick per move, future ones hollow, the failed cmpxchg marked and its retry bracketed', () => {
    const text = file('sc01');
    const sim = new Simulation(text);
    for (const m of SC1_FAIL) sim.apply(m);
    sim.runToEnd();
    const schedule = sim.history();
    const events = sim.events();
    const { contexts } = sim.view();
    const s = layoutTimeline(events, schedule, 10, contexts, 800);
    expect(s.ticks).toHaveLength(schedule.length);
    expect(s.ticks.filter((t) => t.future)).toHaveLength(schedule.length - 10);
    expect(s.ticks.filter((t) => t.failed).map((t) => t.move)).toEqual([SC1_FAIL.length - 1]);
    expect(s.ticks.find((t) => t.kind === 'irq')?.cpu).toBe(0);
    expect(s.brackets).toHaveLength(1);
    expect(cursorAt(s, s.cursorX)).toBe(10);
    expect(cursorAt(s, 0)).toBe(0);
    expect(cursorAt(s, 10_000)).toBe(schedule.length);
    sim.free();
  });
});

describe('listing layout', () => {
  it("marks each context's next line and the line just executed", () => {
    const { view, events } = play(file('sc01'), ['T', 'T', 'T']);
    const rows = layoutListing(listing(), view.contexts, events.at(-1));
    const t = view.contexts.find((c) => c.id === 'T');
    const marked = rows.find((r) => r.markers.some((m) => m.ctx === 'T'));
    expect(marked?.label).toBe(t?.label);
    expect(rows.filter((r) => r.executed).map((r) => r.label)).toEqual([events.at(-1)?.label]);
    expect(rows.filter((r) => r.heading).map((r) => r.label)).toContain(functionOf(t?.label ?? ''));
  });
});
