// The variant toggles ask the generated table (wasm-core/sim/src/scenario/keys.rs) which keys each
// allocator reads, and which allocator an era runs.
import { describe, expect, it } from 'vitest';
import { NEGATIVE_CONTROLS } from '../sim/generated/variantKeys';
import { negativeControls, variantKeys, variantOf, withoutNegativeControls, withVariant } from './variant';

describe('variant keys by allocator', () => {
  it('offers each allocator the keys it reads', () => {
    expect(Object.keys(variantKeys('slab'))).toEqual(['preempt', 'slabGrow', 'slabSharedFree']);
    expect(Object.keys(variantKeys('sheaves'))).toEqual(['era', 'preempt', 'pcsLock', 'refillFailFlush']);
    expect(Object.keys(variantKeys('slub'))[0]).toBe('era');
    expect(variantKeys('slub').freeRetryLock).toEqual(['release', 'hold']);
  });

  it('crossing into and out of 7.0 keeps only the keys the new design reads', () => {
    const classic = JSON.stringify({ schemaVersion: 1, cpus: 1, cache: { cpuPartial: 3 }, variant: { fastpath: 'tid-loop', preempt: 'none' }, tasks: [] });
    const v7 = withVariant(classic, 'era', 'v7.0') ?? '';
    expect(variantOf(v7)).toEqual({ preempt: 'none', era: 'v7.0' });
    expect((JSON.parse(v7) as { cache: object }).cache).toEqual({});
    const withLock = withVariant(JSON.stringify({ ...JSON.parse(v7), cache: { sheafCapacity: 4 } }), 'pcsLock', 'none') ?? '';
    const back = withVariant(withLock, 'era', 'v6.8') ?? '';
    expect(variantOf(back)).toEqual({ preempt: 'none', era: 'v6.8' });
    expect((JSON.parse(back) as { cache: object }).cache).toEqual({});
    // Within one design nothing is dropped.
    expect(variantOf(withVariant(classic, 'era', 'v3.1') ?? '')).toEqual({ fastpath: 'tid-loop', preempt: 'none', era: 'v3.1' });
  });
});

describe('the negative controls (the `broken` values of keys.rs)', () => {
  const base = JSON.stringify({ schemaVersion: 1, cpus: 2, tasks: [] });

  it('flag every fast path that breaks, the emulated cmpxchg_local too (it races as the native one)', () => {
    const broken = NEGATIVE_CONTROLS.filter((n) => n.key === 'fastpath').map((n) => n.value);
    expect(broken).toEqual(['no-tid', 'cmpxchg-local', 'cmpxchg-local-emulated', 'tid-unguarded']);
    const emulated = withVariant(base, 'fastpath', 'cmpxchg-local-emulated') ?? '';
    expect(negativeControls(emulated).map((n) => n.says)).toEqual([expect.stringMatching(/no tid: the same ABA/)]);
    expect(variantOf(withoutNegativeControls(emulated) ?? '')).toEqual({});
  });

  it('name only keys a file may set, with a value of the key\'s own', () => {
    for (const n of NEGATIVE_CONTROLS) {
      const offered = (['slub', 'slab', 'sheaves'] as const).flatMap((a) => variantKeys(a)[n.key] ?? []);
      // tidStep, a number, is set in the scenario text only.
      if (n.key === 'tidStep') expect(typeof n.value).toBe('number');
      else expect(offered, `${n.key}: ${String(n.value)}`).toContain(n.value);
    }
  });
});
