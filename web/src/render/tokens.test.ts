// The cache-line tokens of the stage, on real views: each CPU's band holds the lines its cache
// holds, a moved line travels from the copy it was taken from, an invalidated copy is a ghost.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../sim';
import { lastEventOf, loadWasmNode, scenarioFiles, scenarioFrames } from '../sim/testing';
import { layoutStage } from './stage.layout';
import { tokenName } from './tokens.layout';

beforeAll(loadWasmNode);

describe('cache-line tokens', () => {
  it('draw every line a CPU holds (or count it in +N more) inside that CPU card, on every scenario', () => {
    for (const { file: f, at, view, event } of scenarioFrames()) {
      const s = layoutStage(view, event, { columns: 2, selection: null });
      const keys = s.tokens.map((t) => t.key);
      expect(new Set(keys).size, f).toBe(keys.length);
      for (const c of view.cpus) {
        const card = s.cards.find((k) => k.key === `cpu:${c.cpu}`);
        const mine = s.tokens.filter((t) => t.cpu === c.cpu);
        for (const t of mine) {
          expect(t.x >= (card?.x ?? 0) && t.x + t.w <= (card?.x ?? 0) + (card?.w ?? 0), `${f} ${t.key} inside its card`).toBe(true);
          expect(t.y + 20 <= (card?.y ?? 0) + (card?.h ?? 0), `${f} ${t.key} above the card's bottom`).toBe(true);
        }
        const held = view.lines.filter((l) => l.states[c.cpu] !== 'I').length;
        const more = s.tokenLabels.find((l) => l.key === `more:${c.cpu}`);
        const counted = mine.filter((t) => !t.gone).length + (more === undefined ? 0 : Number(/\+(\d+)/.exec(more.text)?.[1]));
        expect(counted, `${f} at ${at}: cpu${c.cpu}`).toBe(held);
      }
    }
  });

  it('moves a line from the CPU that gave it up, with the cycles on it, and leaves a faded ghost', () => {
    // SC1: T (CPU 0) reads; I (same CPU) frees; a remote free elsewhere would move the line. Use
    // a two-CPU scenario instead: find the first step that moves a line between CPUs.
    for (const f of scenarioFiles()) {
      const sim = new Simulation(readFileSync(f, 'utf8'));
      sim.runToEnd();
      const n = sim.history().length;
      for (let at = 1; at <= n; at++) {
        sim.seek(at);
        const ev = lastEventOf(sim);
        const taken = ev?.coherence.find((t) => t.to === 'I' && t.from === 'M');
        if (ev === undefined || taken === undefined) continue;
        const s = layoutStage(sim.view(), ev, { columns: 2, selection: null });
        const ghost = s.tokens.find((t) => t.line === taken.line && t.cpu === taken.cpu);
        expect(ghost?.gone, `${f} at ${at}: the invalidated copy`).toBe(true);
        const arrived = s.tokens.find((t) => t.line === taken.line && t.arrived);
        if (arrived !== undefined) {
          expect(arrived.from).toEqual({ x: ghost?.x, y: ghost?.y });
          expect(arrived.text).toContain(`${ev.cycles}cy`);
        }
        sim.free();
        return;
      }
      sim.free();
    }
    throw new Error('no scenario moves a Modified line between CPUs');
  });

  it('brings a line from memory out of what it holds, tied to it', () => {
    for (const f of scenarioFiles()) {
      const sim = new Simulation(readFileSync(f, 'utf8'));
      sim.runToEnd();
      for (let at = 1; at <= sim.history().length; at++) {
        sim.seek(at);
        const ev = lastEventOf(sim);
        const view = sim.view();
        // A line some CPU took while no CPU held it (from memory), holding a slab's metadata.
        const fetched = ev?.coherence.find(
          (t) => t.from === 'I' && t.to !== 'I' && view.lines.find((l) => l.id === t.line)?.holds.kind === 'slab' && !ev.coherence.some((o) => o.line === t.line && o.cpu !== t.cpu && o.from !== 'I'),
        );
        if (ev === undefined || fetched === undefined) continue;
        const s = layoutStage(view, ev, { columns: 2, selection: null });
        const token = s.tokens.find((t) => t.line === fetched.line && t.cpu === fetched.cpu);
        expect(token?.arrived, `${f} at ${at}`).toBe(true);
        expect(token?.from, `${f} at ${at}: it comes from the slab's card`).not.toBeNull();
        expect(s.ties.some((t) => t.key === `tie:${fetched.line}:${fetched.cpu}`)).toBe(true);
        sim.free();
        return;
      }
      sim.free();
    }
    throw new Error("no scenario fetches a slab's metadata line from memory");
  });

  it('names tokens short: the CPU, the slab metadata, a range of objects', () => {
    const line = (holds: Parameters<typeof tokenName>[0]['holds'], name = '') => tokenName({ id: 0, name, states: [], holds });
    expect(line({ kind: 'cpu', cpu: 1 }, 'cpu_slab[1]')).toBe('cpu1');
    expect(line({ kind: 'cpu', cpu: 1 }, 'array_cache[1] entries 6..13')).toBe('ac1');
    expect(line({ kind: 'slab', slab: 'P' })).toBe('page P');
    expect(line({ kind: 'objects', slab: 'P', objects: ['p0', 'p1'] })).toBe('p0..1');
    expect(line({ kind: 'objects', slab: 'P', objects: ['p3'] })).toBe('p3');
    expect(line({ kind: 'cache' })).toBe('kmem_cache');
  });
});
