// The try-it goal rule: the page's reading must agree with the checker's (replay.rs `won`).
import { describe, expect, it } from 'vitest';
import type { Outcome, View } from '../sim';
import { goalProgress, goalReached } from './win';

const view = (invariants: string[]) => ({ violations: invariants.map((invariant) => ({ invariant, step: 1, message: '' })) }) as unknown as Pick<View, 'violations'>;
const outcome = (total: Record<string, number>) => ({ stats: { total, perCpu: [] } }) as unknown as Pick<Outcome, 'stats'>;

describe('goalReached', () => {
  const win = { violation: ['INV-1', 'INV-2'], without: [] as string[], stats: { CMPXCHG_DOUBLE_CPU_FAIL: 1 }, says: '', example: [] };
  it('needs any listed invariant and every counter', () => {
    expect(goalReached(win, view([]), outcome({ CMPXCHG_DOUBLE_CPU_FAIL: 3 }))).toBe(false);
    expect(goalReached(win, view(['INV-12']), outcome({ CMPXCHG_DOUBLE_CPU_FAIL: 3 }))).toBe(false);
    expect(goalReached(win, view(['INV-2']), outcome({}))).toBe(false);
    expect(goalReached(win, view(['INV-12', 'INV-2']), outcome({ CMPXCHG_DOUBLE_CPU_FAIL: 1 }))).toBe(true);
  });
  it('says what is missing', () => {
    expect(goalProgress(win, view([]), outcome({}))).toBe('waiting for INV-1 or INV-2 · CMPXCHG_DOUBLE_CPU_FAIL 0 of 1');
  });
  it('a goal of counters alone holds without a violation', () => {
    expect(goalReached({ ...win, violation: [] }, view([]), outcome({ CMPXCHG_DOUBLE_CPU_FAIL: 1 }))).toBe(true);
  });
  it('a goal with `without` is not reached while that invariant is violated too', () => {
    const w = { ...win, violation: ['INV-12'], without: ['INV-1'], stats: {} };
    expect(goalReached(w, view(['INV-12']), outcome({}))).toBe(true);
    expect(goalReached(w, view(['INV-12', 'INV-1']), outcome({}))).toBe(false);
  });
});
