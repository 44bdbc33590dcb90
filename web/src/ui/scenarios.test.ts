// The built-in scenarios as the playground presents them: a negative control
// loads broken and says so; SC1's script stops at its failed compare-and-swap.
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../sim';
import { loadWasmNode } from '../sim/testing';
import { designScenario } from '../state/compare';
import { negativeControls, variantOf, withoutNegativeControls } from '../state/variant';
import { BUILTIN_TEXTS, PRESENTED, SC1_STORY } from './scenarios';

beforeAll(loadWasmNode);

describe('the built-in scenarios as presented', () => {
  it('SC2 (the negative control without a tid) loads with fastpath no-tid, and says so', () => {
    const sc02 = BUILTIN_TEXTS.sc02 ?? '';
    expect(variantOf(sc02)).toEqual({ fastpath: 'no-tid' });
    expect(negativeControls(sc02).map((n) => n.key)).toEqual(['fastpath']);
    expect(variantOf(withoutNegativeControls(sc02) ?? '')).toEqual({});
  });

  const sc01 = BUILTIN_TEXTS.sc01 ?? '';
  const compare = PRESENTED.sc01?.compare;
  it.each([
    ['the default era', sc01, SC1_STORY],
    ['v6.8', designScenario(sc01, 'v6.8') ?? '', compare?.['v6.8'] ?? []],
  ])("SC1's script ends on T's failed compare-and-swap under %s", (_, text, story) => {
    const sim = new Simulation(text);
    const scene = sim.scene(story, story.length, 0);
    expect(scene.played).toBe(story.length);
    const last = scene.events.filter((e) => e.mv === story.length - 1);
    expect(last.some((e) => e.ctx === 'T' && e.ok === false)).toBe(true);
    sim.free();
  });

  it("SC1's story under 7.0: the interrupt's trylock fails while T holds the sheaves, and it frees to the slab", () => {
    const story = compare?.['v7.0'] ?? [];
    const sim = new Simulation(designScenario(sc01, 'v7.0') ?? '');
    const scene = sim.scene(story, story.length, 0);
    expect(scene.played).toBe(story.length);
    const irq = scene.events.filter((e) => e.ctx === 'I');
    expect(irq.some((e) => e.kind === 'trylock' && e.ok === false)).toBe(true);
    expect(irq.some((e) => e.label.startsWith('__slab_free'))).toBe(true);
    expect(scene.events.some((e) => e.ok === false && e.kind !== 'trylock')).toBe(false);
    sim.free();
  });

  it('every built-in scenario loads', () => {
    for (const [id, text] of Object.entries(BUILTIN_TEXTS)) {
      expect(() => new Simulation(text, { events: false }).free(), id).not.toThrow();
    }
  });
});
