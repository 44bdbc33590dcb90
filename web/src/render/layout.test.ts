// The pure layouts, on real views of the model's scenarios (the wasm, loaded in node).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { listing, Simulation, type SimEvent, type View } from '../sim';
import { eventsOf, lastEventOf, loadWasmNode, scenarioFiles, scenarioFrames } from '../sim/testing';
import { describeView } from './describe';
import { arcPath, CHAR_W } from './geometry';
import { foldLines, layoutLines, shortLineName } from './lines.layout';
import { functionOf, layoutListing } from './listing.layout';
import { stackRows } from './stack.layout';
import { layoutStage } from './stage.layout';
import { GAP, objectState, opProgress, ownerText, type CardShape } from './stage.shapes';
import { slabObjectState } from './stage.slab';
import { snapshotLine } from './stage.slub';
import { STACK_ROWS } from './stage.stack';
import { cursorAt, layoutTimeline, MAX_TICKS } from './timeline.layout';

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
  const out = { view: sim.view(), events: eventsOf(sim) };
  sim.free();
  return out;
}

function overlaps(a: CardShape, b: CardShape): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

describe('stage layout', () => {
  it('gives every shape a unique key and every object a grid chip, on every scenario', () => {
    for (const { file: f, view, event } of scenarioFrames()) {
      const s = layoutStage(view, event, { columns: 2, selection: null });
      const keys = [...s.cards, ...s.chips, ...s.refs, ...s.arrows, ...s.locks].map((x) => x.key);
      expect(new Set(keys).size, f).toBe(keys.length);
      const objects = view.slabs.flatMap((sl) => sl.objects.map((o) => o.name));
      expect(s.chips.filter((c) => c.key.startsWith('obj:')).map((c) => c.object).sort()).toEqual([...objects].sort());
      for (const [i, a] of s.cards.entries()) {
        for (const b of s.cards.slice(i + 1)) expect(overlaps(a, b), `${f}: ${a.key} / ${b.key}`).toBe(false);
      }
      for (const c of s.cards) {
        expect(c.x + c.w).toBeLessThanOrEqual(s.width);
        expect(c.y + c.h).toBeLessThanOrEqual(s.height - s.bodyY);
      }
    }
  });

  it('draws nodes and barns a card wide when asked (a slide crop moves one into a CPU card), overlapping nothing', () => {
    let nodes = 0;
    for (const { file: f, view, event } of scenarioFrames()) {
      const wide = layoutStage(view, event, { columns: 2, selection: null });
      const s = layoutStage(view, event, { columns: 2, selection: null, narrowNodes: true });
      expect(s.width, f).toBe(wide.width);
      const cpu = s.cards.find((c) => c.kind === 'cpu');
      for (const c of s.cards.filter((x) => x.kind === 'node')) {
        nodes++;
        expect(c.w, `${f}: ${c.key}`).toBe(cpu?.w);
        expect(c.x, `${f}: ${c.key}`).toBe(cpu?.x);
        expect(wide.cards.find((x) => x.key === c.key)?.w, `${f}: ${c.key}`).toBeGreaterThan(c.w);
      }
      for (const [i, a] of s.cards.entries()) {
        for (const b of s.cards.slice(i + 1)) expect(overlaps(a, b), `${f}: ${a.key} / ${b.key}`).toBe(false);
      }
      for (const c of s.cards) expect(c.y + c.h).toBeLessThanOrEqual(s.height - s.bodyY);
    }
    expect(nodes).toBeGreaterThan(0);
  });

  it('lays the body out under the strip, in its own coordinates: a taller strip moves it as one', () => {
    for (const { file: f, view, event } of scenarioFrames()) {
      const s = layoutStage(view, event, { columns: 2, selection: null });
      expect(s.bodyY, f).toBe(s.strip.h + GAP);
      const tops = [...s.cards.map((c) => c.y), ...s.refs.map((r) => r.y), ...s.tokens.map((t) => t.y), ...s.chips.map((c) => c.y - 10)];
      expect(Math.min(...tops), f).toBeGreaterThanOrEqual(0);
      // The same view under another step's strip: the body's shapes are the same.
      const other = layoutStage(view, undefined, { columns: 2, selection: null });
      expect(other.cards.map((c) => [c.key, c.x, c.y]), f).toEqual(s.cards.map((c) => [c.key, c.x, c.y]));
      expect(other.height - other.bodyY, f).toBe(s.height - s.bodyY);
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
    expect(s.strip.texts.map((t) => t.text).join(' ')).toMatch(/✕\u00a0FAILS/);
  });

  it('puts CPUs and slabs in one column on a phone', () => {
    const { view } = play(file('sc11'), []);
    const one = layoutStage(view, undefined, { columns: 1, selection: null });
    const two = layoutStage(view, undefined, { columns: 2, selection: null });
    expect(one.width).toBeLessThan(two.width);
    expect(new Set(one.cards.filter((c) => c.kind !== 'node').map((c) => c.x)).size).toBe(1);
  });

  it('words owners and object states (never colour alone)', () => {
    expect(ownerText({ kind: 'cpu', cpu: 1 })).toBe('CPU 1 slab');
    expect(ownerText({ kind: 'cpuPartial', cpu: 0 })).toBe('CPU 0 partial');
    expect(ownerText({ kind: 'nodePartial', node: 0 })).toBe('node 0 partial');
    expect(ownerText({ kind: 'full' })).toBe('full, on no list');
    expect(objectState({ kind: 'user', var: 'x' })).toEqual({ state: 'held', cpu: null, label: 'x' });
    expect(objectState({ kind: 'inflight', ctx: 'T' })).toEqual({ state: 'inflight', cpu: null, label: '⇢T' });
    expect(objectState({ kind: 'cpu', cpu: 1 })).toEqual({ state: 'free', cpu: 1, label: '' });
    expect(objectState({ kind: 'lost' }).state).toBe('lost');
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
    const events = eventsOf(sim);
    const i = events.findIndex((e) => e.mv !== null && e.coherence.some((t) => t.from === 'I' && t.to !== 'I'));
    expect(i).toBeGreaterThan(0);
    const e = events[i];
    if (e === undefined || e.mv === null) throw new Error('unreachable');
    sim.seek(e.mv + 1);
    const view = sim.view();
    const s = layoutLines(view.lines, view.cpus.length, lastEventOf(sim));
    expect(s.cells).toHaveLength(view.lines.length * view.cpus.length);
    expect(s.cells.filter((c) => c.changed).length).toBe(lastEventOf(sim)?.coherence.length);
    const gainer = lastEventOf(sim)?.coherence.find((t) => t.from === 'I' && t.to !== 'I');
    expect(s.transfers.map((t) => t.toCpu)).toContain(gainer?.cpu);
    sim.free();
  });
});

describe('cache lines labels', () => {
  it('one cycles label a row in every move of every built-in scenario: none drawn over another', () => {
    let labelled = 0;
    let shared = 0;
    for (const f of scenarioFiles()) {
      const sim = new Simulation(readFileSync(f, 'utf8'));
      sim.runToEnd();
      const moves = new Set(eventsOf(sim).flatMap((e) => (e.mv !== null && e.coherence.length > 0 ? [e.mv] : [])));
      for (const mv of moves) {
        sim.seek(mv + 1);
        const view = sim.view();
        const s = layoutLines(view.lines, view.cpus.length, lastEventOf(sim), view.linesOmitted);
        const byRow = new Map<number, number>();
        for (const t of s.transfers) if (t.label !== '') byRow.set(t.y, (byRow.get(t.y) ?? 0) + 1);
        for (const n of byRow.values()) expect(n).toBe(1);
        labelled += byRow.size;
        if (s.transfers.length > byRow.size) shared++;
      }
      sim.free();
    }
    expect(labelled).toBeGreaterThan(10);
    // Moves that send one row several tokens exist (the case the rule is for).
    expect(shared).toBeGreaterThan(0);
  });
});

describe('timeline layout', () => {
  it('one tick per move, future ones hollow, the failed cmpxchg marked and its retry bracketed', () => {
    const text = file('sc01');
    const sim = new Simulation(text);
    for (const m of SC1_FAIL) sim.apply(m);
    sim.runToEnd();
    const schedule = sim.history();
    const events = eventsOf(sim);
    const { contexts } = sim.view();
    const s = layoutTimeline(events, schedule, 10, contexts, 800);
    expect(s.ticks).toHaveLength(schedule.length);
    expect(s.ticks.filter((t) => t.future)).toHaveLength(schedule.length - 10);
    expect(s.ticks.filter((t) => t.failed).map((t) => t.move)).toEqual([SC1_FAIL.length - 1]);
    expect(s.ticks.find((t) => t.kind === 'irq')?.cpu).toBe(0);
    expect(s.brackets).toHaveLength(1);
    // A labelled lane per context; each tick in its context's lane, the retry in T's.
    expect(s.lanes.map((l) => l.label)).toEqual(['T · CPU 0', 'I · irq · CPU 0']);
    const [laneT, laneI] = s.lanes;
    const inLane = (t: { y: number }, l: { y: number; h: number } | undefined) => l !== undefined && t.y >= l.y && t.y < l.y + l.h;
    expect(s.ticks.filter((t) => t.kind === 'irq').every((t) => inLane(t, laneI))).toBe(true);
    expect(s.ticks.filter((t) => t.kind === 'task').every((t) => inLane(t, laneT))).toBe(true);
    expect(inLane({ y: (s.brackets[0]?.y ?? 0) - 1 }, laneT)).toBe(true);
    expect(s.height).toBeGreaterThan((laneI?.y ?? 0) + (laneI?.h ?? 0));
    expect(cursorAt(s, s.cursorX)).toBe(10);
    expect(cursorAt(s, 0)).toBe(0);
    expect(cursorAt(s, 10_000)).toBe(schedule.length);
    sim.free();
  });
});

describe('timeline layout: a long schedule', () => {
  it('draws a tick per column and context, not per move, and a step changes only which are hollow', () => {
    // SC3: T reads, U preempts it, the switched-out T migrates back and forth, U runs on.
    const text = file('sc03');
    const moves = ['T', 'T', 'T', 'T', 'U'];
    while (moves.length < 60_000) moves.push(moves.length % 2 === 1 ? 'migrate:T:1' : 'migrate:T:0');
    moves.push('U', 'U');
    const { view, events } = play(text, moves);
    const s = layoutTimeline(events, moves, 30_000, view.contexts, 800);
    expect(moves.length).toBeGreaterThan(MAX_TICKS);
    expect(s.ticks.length).toBeLessThanOrEqual(2 * 512);
    // Every move is in one run: the runs' titles count 60,002 moves, U's 3 steps among them.
    const counted = s.ticks.map((t) => /: (?:(\d+) steps?)?(?: and )?(?:(\d+) migrations?)? of/.exec(t.title)).map((m) => Number(m?.[1] ?? 0) + Number(m?.[2] ?? 0));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(moves.length);
    expect(s.ticks.filter((t) => t.kind === 'task' && t.title.endsWith('of U'))).toHaveLength(2);
    const t = s.ticks.filter((x) => x.title.endsWith('of T'));
    expect(t.slice(1).every((x) => x.kind === 'migrate')).toBe(true);
    expect(s.ticks.some((x) => x.future) && s.ticks.some((x) => !x.future)).toBe(true);
    const later = layoutTimeline(events, moves, moves.length, view.contexts, 800);
    expect(later.ticks.map((x) => x.key)).toEqual(s.ticks.map((x) => x.key));
    expect(later.ticks.some((x) => x.future)).toBe(false);
    expect(cursorAt(later, later.cursorX)).toBe(moves.length);
  });
});

describe('timeline layout: a broken invariant', () => {
  it('draws the violation at the move that broke it, named, across the lanes', () => {
    const sc = JSON.parse(file('sc02')) as Record<string, unknown>;
    const sim = new Simulation(JSON.stringify({ ...sc, variant: { fastpath: 'no-tid' } }));
    const next = (id: string) => sim.view().contexts.find((c) => c.id === id);
    while (next('T')?.label !== 'slab_alloc:A9') sim.apply('T');
    while (next('I')?.state !== 'finished') sim.apply('I');
    sim.runToEnd();
    const view = sim.view();
    const events = eventsOf(sim);
    const schedule = sim.history();
    expect(view.violations.map((v) => v.invariant)).toContain('INV-12');
    const s = layoutTimeline(events, schedule, schedule.length, view.contexts, 800, view.violations);
    const mark = s.violations.find((v) => v.text.startsWith('⚠ INV-12'));
    const broke = events.find((e) => e.step === view.violations.find((v) => v.invariant === 'INV-12')?.step)?.mv ?? -1;
    expect(mark).toBeDefined();
    expect(cursorAt(s, mark?.x ?? 0)).toBeGreaterThanOrEqual(broke);
    expect(cursorAt(s, mark?.x ?? 0)).toBeLessThanOrEqual(broke + 1);
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

// ----- SLAB (model.md Appendix A) -----

/** SC18's task A to the moment it links its new slab under list_lock (mid-refill). */
const SC18_GROW = Array<string>(9).fill('A');

/** A SLAB scenario whose array fills: the fifth free flushes the two oldest entries to shared. */
const FLUSH = JSON.stringify({
  schemaVersion: 1,
  name: 'flush',
  allocator: 'slab',
  cpus: 2,
  cache: { objectsPerSlab: 4, limit: 4, batchcount: 2, shared: 1 },
  setup: ['a', 'b', 'c', 'd', 'e', 'f'].map((v) => ({ cpu: 0, op: 'alloc', var: v })),
  tasks: [
    { id: 'A', cpu: 0, ops: ['a', 'b', 'c', 'd', 'e', 'f'].map((v) => ({ op: 'free', var: v })) },
    { id: 'B', cpu: 1, ops: [{ op: 'alloc', var: 'g' }] },
  ],
});

/** SLAB at its default tunables (limit 120, batchcount 60, a shared array of 480). */
const BIG = JSON.stringify({
  schemaVersion: 1,
  name: 'default tunables',
  allocator: 'slab',
  cpus: 2,
  cache: { objectsPerSlab: 8 },
  setup: [0, 1, 2].map((i) => ({ cpu: 0, op: 'alloc', var: `v${i}` })),
  tasks: [
    { id: 'A', cpu: 0, ops: [{ op: 'alloc', var: 'x' }] },
    { id: 'B', cpu: 1, ops: [{ op: 'alloc', var: 'y' }] },
  ],
});

const array = (over: Partial<Parameters<typeof stackRows>[0]>) => ({
  avail: 0,
  limit: 4,
  batchcount: 2,
  touched: false,
  entries: [],
  handed: 0,
  ...over,
});

describe('array_cache stacks', () => {
  it('shows every slot of a small array, bottom first, entries then empty slots', () => {
    const rows = stackRows(array({ avail: 2, entries: ['p0', 'p1'] }), STACK_ROWS);
    expect(rows.map((r) => [r.kind, r.index, r.name])).toEqual([
      ['entry', 0, 'p0'],
      ['entry', 1, 'p1'],
      ['empty', 2, null],
      ['empty', 3, null],
    ]);
  });

  it('folds a big array into at most maxRows rows, keeping the top, the slot above it, the bottom and the limit', () => {
    for (const avail of [0, 1, 5, 60, 119, 120]) {
      const entries = Array.from({ length: avail }, (_, i) => `o${i}`);
      const rows = stackRows(array({ avail, limit: 120, batchcount: 60, entries, handed: Math.min(avail, 3) }), STACK_ROWS);
      expect(rows.length, `avail ${avail}`).toBeLessThanOrEqual(STACK_ROWS);
      const shown = rows.filter((r) => r.kind !== 'gap').map((r) => r.index);
      for (const must of [0, 119, avail - 1, avail].filter((i) => i >= 0 && i < 120)) expect(shown, `avail ${avail}`).toContain(must);
      // Every slot is accounted for exactly once, in order.
      expect(rows.flatMap((r) => Array.from({ length: r.last - r.index + 1 }, (_, k) => r.index + k))).toEqual(
        Array.from({ length: 120 }, (_, i) => i),
      );
      for (const r of rows) {
        if (r.kind === 'gap') continue;
        expect(r.kind).toBe(r.index >= avail ? 'empty' : r.index < Math.min(avail, 3) ? 'stale' : 'entry');
      }
    }
  });
});

describe('stage layout under SLAB', () => {
  /** SC19 (a tune): T to its read through the pointer (RF2S), then W as far as it can go. */
  function sc19(variant: string, wMoves: number): View {
    const json = JSON.parse(file('sc19')) as { variant: Record<string, string> };
    json.variant.slabSharedFree = variant;
    const sim = new Simulation(JSON.stringify(json));
    const label = (id: string) => sim.view().contexts.find((c) => c.id === id)?.label;
    for (let i = 0; i < 20 && label('T') !== 'cache_alloc_refill:RF2S'; i++) sim.apply('T');
    for (let i = 0; i < wMoves && !['blocked', 'finished'].includes(sim.view().contexts.find((c) => c.id === 'W')?.state ?? ''); i++) sim.apply('W');
    const view = sim.view();
    sim.free();
    return view;
  }
  const cardTexts = (view: View, key: string) => layoutStage(view, undefined, { columns: 2, selection: null }).cards.find((c) => c.key === key)?.texts.map((t) => t.text) ?? [];

  it("names the shared array, the retired one and the reader's pointer only where arrays are replaced (a tune)", () => {
    // Before W runs: one array, A0, and T's pointer to it.
    const before = sc19('after-grace-period', 0);
    expect(before.nodes[0]?.slab?.sharedId).toBe('A0');
    expect(cardTexts(before, 'node:0')).toEqual(expect.arrayContaining(['shared A0', 'old shared arrays: none']));
    expect(cardTexts(before, 'cpu:0')).toContain("  shared = A0 (node 0's n->shared)");
    // W swapped and waits (SN6): A1 published, A0 unpublished, T still holds A0.
    const waits = sc19('after-grace-period', 20);
    expect(waits.contexts.find((c) => c.id === 'W')?.label).toBe('setup_kmem_cache_node:SN6');
    expect(cardTexts(waits, 'node:0')).toEqual(expect.arrayContaining(['shared A1', 'A0 · unpublished', 'W waits for cpu0 (synchronize_sched)']));
    expect(cardTexts(waits, 'cpu:0')).toContain('  shared = A0 (unpublished)');
    const words = describeView(waits);
    expect(words).toContain('T holds shared = A0 (unpublished)');
    expect(words).toContain('shared array A1 ');
    expect(words).toContain('old shared array A0 · unpublished, W waits for cpu0 (synchronize_sched)');
    // Freed at once: W's kfree runs while T still holds the pointer.
    const freed = sc19('at-once', 20);
    expect(cardTexts(freed, 'node:0')).toContain('A0 · freed by W (kfree)');
    expect(cardTexts(freed, 'cpu:0')).toContain('  shared = A0 (freed)');
    expect(describeView(freed)).toContain('T holds shared = A0 (freed)');
    // Every text of the tuning stage stays inside its card, and no card overlaps another.
    for (const v of [before, waits, freed]) {
      const s = layoutStage(v, undefined, { columns: 2, selection: null });
      for (const c of s.cards) for (const t of c.texts) if (t.anchor !== 'end') expect(t.x + t.text.length * CHAR_W, `${c.key}: ${t.text}`).toBeLessThanOrEqual(c.w);
      for (const a of s.cards) for (const b of s.cards) if (a !== b) expect(overlaps(a, b), `${a.key} / ${b.key}`).toBe(false);
    }
    // A scenario without a tune keeps its view as it was: no identities, nothing retired.
    const sc18 = play(file('sc18'), SC18_GROW).view.nodes[0]?.slab;
    expect(sc18 === null || sc18 === undefined ? [] : Object.keys(sc18)).not.toContain('sharedId');
    expect(Object.keys(sc18 ?? {})).not.toContain('retired');
  });

  it("draws each CPU's array_cache as a stack of chips that come from their slab, and none of SLUB's CPU fields", () => {
    const { view, events } = play(file('sc18'), SC18_GROW);
    expect(view.allocator).toBe('slab');
    const s = layoutStage(view, events.at(-1), { columns: 2, selection: null });
    const ac = view.cpus[0]?.arrayCache;
    if (ac === undefined || ac === null) throw new Error('no array_cache');
    expect(ac.entries.length).toBeGreaterThan(0);
    const arr = s.chips.filter((c) => c.key.startsWith('arr:'));
    expect(arr.map((c) => c.object)).toEqual(ac.entries);
    // Top at the top: the stack's last entry is drawn highest.
    const ys = arr.map((c) => c.y);
    expect([...ys].sort((a, b) => b - a)).toEqual(ys);
    for (const c of arr) {
      const home = s.chips.find((g) => g.key === `obj:${c.object}`);
      expect(c.from).toEqual({ x: home?.x, y: home?.y });
      expect(c.cpu).toBe(0);
    }
    const cpu0 = s.cards.find((c) => c.key === 'cpu:0');
    const texts = cpu0?.texts.map((t) => t.text) ?? [];
    expect(texts).toContain('array_cache');
    expect(texts).toContain(`avail ${ac.avail}/${ac.limit} · touched ${ac.touched ? 1 : 0}`);
    expect(texts.some((t) => t.includes('◀ top'))).toBe(true);
    expect(texts.some((t) => t.includes(`batchcount ${ac.batchcount}`))).toBe(true);
    expect(cpu0?.marks.map((m) => m.cls)).toEqual(['tube', 'divider', 'bracket']);
    // No tid, freelist chain, CPU slab or CPU partial list under SLAB.
    expect(texts.some((t) => /^(tid|freelist|slab|partial)$/.test(t))).toBe(false);
    expect(s.chips.some((c) => c.key.startsWith('fl:'))).toBe(false);
    expect(s.refs.every((r) => s.cards.find((c) => c.kind === 'node' && r.y >= c.y && r.y <= c.y + c.h) !== undefined)).toBe(true);
  });

  it('lists the node: three slab lists, free_objects against free_limit, the shared array and list_lock', () => {
    const { view } = play(file('sc18'), [...SC18_GROW, ...Array<string>(14).fill('A')]);
    const n = view.nodes[0];
    if (n?.slab === null || n?.slab === undefined) throw new Error('no SLAB node');
    const s = layoutStage(view, undefined, { columns: 2, selection: null });
    const node = s.cards.find((c) => c.key === 'node:0');
    const texts = node?.texts.map((t) => t.text) ?? [];
    for (const label of ['slabs_partial', 'slabs_full', 'slabs_free', 'list_lock', 'shared']) expect(texts).toContain(label);
    expect(texts).toContain(`free_objects ${n.slab.freeObjects} / free_limit ${n.slab.freeLimit}`);
    expect(s.refs.map((r) => r.slab).sort()).toEqual([...n.partial, ...n.slab.slabsFull, ...n.slab.slabsFree].sort());
    expect(s.locks.map((l) => l.key)).toEqual(['lock:0']);
    // The slab card: active/num and the index array's order over the free chips.
    const p = view.slabs[0];
    const card = s.cards.find((c) => c.key === `slab:${p?.name ?? ''}`);
    expect(card?.texts[2]?.text).toMatch(new RegExp(`^active ${p?.inuse}/${p?.capacity} · `));
  });

  it('ghosts the stale copies a flush left until its memmove, while their objects sit in the shared array', () => {
    const sim = new Simulation(FLUSH);
    for (let i = 0; i < 40 && (sim.view().cpus[0]?.arrayCache?.handed ?? 0) === 0; i++) sim.apply('A');
    const view = sim.view();
    sim.free();
    const ac = view.cpus[0]?.arrayCache;
    const shared = view.nodes[0]?.slab?.shared;
    if (ac === null || ac === undefined || shared === null || shared === undefined) throw new Error('no arrays');
    expect(ac.handed).toBe(2);
    const s = layoutStage(view, undefined, { columns: 2, selection: null });
    const ghosts = s.chips.filter((c) => c.key.startsWith('ghost:'));
    expect(ghosts.map((c) => [c.object, c.state])).toEqual(ac.entries.slice(0, 2).map((o) => [o, 'stale']));
    // The same objects, live, in the shared array (their `arr:` chips moved there).
    const node = s.cards.find((c) => c.key === 'node:0');
    const inShared = s.chips.filter((c) => c.key.startsWith('arr:') && node !== undefined && c.y > node.y);
    expect(inShared.map((c) => c.object).sort()).toEqual([...shared.entries].sort());
    expect(describeView(view)).toMatch(/already given back by a flush/);
    const keys = [...s.cards, ...s.chips, ...s.refs, ...s.arrows, ...s.locks].map((x) => x.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps a big array within its rows and folds the cache lines no CPU holds', () => {
    const { view } = play(BIG, ['A', 'A', 'A']);
    const one = layoutStage(view, undefined, { columns: 1, selection: null });
    const two = layoutStage(view, undefined, { columns: 2, selection: null });
    for (const s of [one, two]) {
      for (const c of s.cards) expect(c.x + c.w, c.key).toBeLessThanOrEqual(s.width);
      expect(s.chips.filter((c) => c.key.startsWith('arr:')).map((c) => c.object)).toEqual(view.cpus[0]?.arrayCache?.entries);
    }
    const lines = layoutLines(view.lines, view.cpus.length, undefined);
    expect(lines.rows.length).toBeLessThan(view.lines.length / 3);
    expect(lines.rows.every((r) => r.name.length <= 17)).toBe(true);
    expect(lines.rows.map((r) => r.longName)).toContain('shared[0] entries 6..479');
  });

  it("counts a context's ops from 1: the op in progress, else the next", () => {
    const { view } = play(file('sc18'), []);
    const a = view.contexts.find((c) => c.id === 'A');
    if (a === undefined) throw new Error('no A');
    expect(a.op).toBe('alloc a');
    expect(opProgress(a)).toBe('1/3');
    expect(opProgress({ ...a, op: null, opIndex: 1 })).toBe('2/3');
    expect(opProgress({ ...a, op: null, opIndex: 3, state: 'finished' })).toBe('3/3');
  });

  it('words SLAB owners, arrays and lines', () => {
    expect(ownerText({ kind: 'nodeFull', node: 0 })).toBe('node 0 full');
    expect(ownerText({ kind: 'nodeFree', node: 1 })).toBe('node 1 free');
    expect(slabObjectState({ kind: 'cpu', cpu: 1 })).toEqual({ state: 'free', cpu: 1, label: 'cpu1' });
    expect(slabObjectState({ kind: 'shared', node: 0 })).toEqual({ state: 'free', cpu: null, label: 'shared0' });
    expect(slabObjectState({ kind: 'user', var: 'x' })).toEqual({ state: 'held', cpu: null, label: 'x' });
    expect(shortLineName('array_cache[0] entries 6..13')).toBe('ac[0] [6..13]');
    expect(shortLineName('shared[1] entries 502..509')).toBe('sh[1] [502..509]');
    expect(shortLineName('objects P[0..1]')).toBe('objects P[0..1]');
  });

  it("never folds the built-in SLUB scenarios' lines (their runs are short)", () => {
    for (const f of scenarioFiles()) {
      const sim = new Simulation(readFileSync(f, 'utf8'));
      sim.runToEnd();
      const view = sim.view();
      sim.free();
      if (view.allocator === 'slab') continue;
      expect(foldLines(view.lines, new Set()).length, f).toBe(view.lines.length);
    }
  });

  it('folds the idle lines of big objects into a row per run: a table of rows, not thousands', () => {
    const setup = Array.from({ length: 8 }, (_, c) => ({ cpu: c, op: 'alloc', var: `v${c}` }));
    const tasks = [{ id: 'T', cpu: 0, ops: [{ op: 'alloc', var: 'x' }] }];
    const huge = { schemaVersion: 1, cpus: 8, cache: { objectSize: 4096, objectsPerSlab: 64 }, setup, tasks };
    const sim = new Simulation(JSON.stringify(huge));
    const view = sim.view();
    sim.free();
    // The view lists the object lines some CPU holds and counts the others (MAX_LISTED_LINES).
    expect(view.lines.length + view.linesOmitted).toBe(8 + 1 + 1 + 8 * (1 + 64 * 64));
    expect(view.linesOmitted).toBeGreaterThan(30_000);
    const rows = foldLines(view.lines, new Set());
    expect(rows.length).toBeLessThan(200);
    // Every line outside the objects (the CPUs', the nodes', the slabs' metadata) keeps its row.
    for (const l of view.lines.filter((x) => x.holds.kind !== 'objects')) {
      expect(rows.some((r) => r.first === l && r.last === l), l.name).toBe(true);
    }
    // A folded row says the most any CPU holds of it, and how many lines each holds.
    const shapes = layoutLines(view.lines, 8, undefined, view.linesOmitted);
    const p = shapes.rows.find((r) => r.name === 'p0..p63');
    expect(p?.states[0]).toBe('M');
    expect(p?.longName).toMatch(/^\d+ lines of objects p0\.\.p63 \(CPU 0 holds \d+/);
    expect(shapes.omitted?.text).toMatch(/^\+ [\d,]+ object lines in no cache$/);
  });

  it('describes the arrays and lists for screen readers', () => {
    const { view } = play(file('sc18'), SC18_GROW);
    const d = describeView(view);
    expect(d).toMatch(/CPU 0: array_cache avail 2 of limit 4 \(2 its own\), bottom to top \w+, \w+ \(top \w+\)/);
    expect(d).toMatch(/Node 0: slabs_partial empty, slabs_full empty, slabs_free empty, free_objects 0 of free_limit \d+/);
    expect(d).not.toMatch(/tid/);
  });
});
