import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../sim/types';
import { countersUpTo, designScenario, moveContext } from './compare';

const classic = JSON.stringify({
  schemaVersion: 1,
  cpus: 1,
  cache: { objectsPerSlab: 4, cpuPartial: 2 },
  variant: { fastpath: 'tid-loop', era: 'v4.0' },
  tasks: [{ id: 'T', cpu: 0, ops: [{ op: 'alloc', var: 'x' }] }],
  schedule: ['T'],
});

describe('the side-by-side scenarios', () => {
  it('keep only the era and the keys each design reads', () => {
    const v7 = JSON.parse(designScenario(classic, 'v7.0') ?? 'null') as Record<string, Record<string, unknown>>;
    expect(v7.variant).toEqual({ era: 'v7.0' });
    expect(v7.cache).toEqual({ objectsPerSlab: 4, sheafCapacity: 4 });
    expect(v7.schedule).toBeUndefined();
    const v68 = JSON.parse(designScenario(JSON.stringify(v7), 'v6.8') ?? 'null') as Record<string, Record<string, unknown>>;
    expect(v68.variant).toEqual({ era: 'v6.8' });
    expect(v68.cache).toEqual({ objectsPerSlab: 4 });
  });
  it('refuse SLAB and text that is not a scenario object', () => {
    expect(designScenario(JSON.stringify({ allocator: 'slab', cpus: 1 }), 'v7.0')).toBeNull();
    expect(designScenario('[1]', 'v6.8')).toBeNull();
    expect(designScenario('{', 'v6.8')).toBeNull();
  });
});

function ev(mv: number | null, kind: string, extra: Partial<SimEvent> = {}): SimEvent {
  return { step: 0, mv, ctx: 'T', cpu: 0, label: 'f:L', kind, target: '', read: null, wrote: null, ok: null, halves: [], coherence: [], cycles: 1, stats: [], narration: '', ...extra } as SimEvent;
}

describe('the counters', () => {
  it('count the steps of the moves before the cursor, setup left out', () => {
    const events = [
      ev(null, 'cas2'),
      ev(0, 'pcas2', { ok: false }),
      ev(1, 'cas2', { ok: true, coherence: [{ line: 3, cpu: 0, from: 'I', to: 'M' }, { line: 3, cpu: 1, from: 'M', to: 'I' }] }),
      ev(2, 'lock', { target: 'node 0.list_lock' }),
      ev(3, 'lock', { target: 'barn 0.lock' }),
    ];
    expect(countersUpTo(events, 2)).toEqual({ cycles: 2, slabCas: 1, cpuCas: 1, casFailed: 1, listLocks: 0, barnLocks: 0, lineFetches: 1 });
    expect(countersUpTo(events, 4)).toMatchObject({ listLocks: 1, barnLocks: 1, cycles: 4 });
  });
  it('name the task a migration moves', () => {
    expect(moveContext('migrate:T:1')).toBe('T');
    expect(moveContext('I')).toBe('I');
  });
});
