import { describe, expect, it } from 'vitest';
import type { ExploreReport } from '../sim';
import { DEFAULT_FORM, progressText, readBounds, summarize, timeUsed, type Limits } from './explore';

const limits: Limits = { bounds: { maxPreemptions: 3, maxMigrations: 2 }, timeoutMs: 10_000 };
const report = (r: Partial<ExploreReport>): ExploreReport => ({
  executions: 120,
  states: 3456,
  transitions: 5000,
  pruned: 10,
  dominated: 0,
  maxDepth: 40,
  complete: true,
  cancelled: false,
  cutByBounds: 0,
  peakMemoryMb: 0,
  memoryBudgetMb: 1024,
  violations: [],
  elapsedMs: 12.5,
  ...r,
});

describe('the explorer form', () => {
  it('reads the defaults as the CLI bounds and a time limit', () => {
    expect(readBounds(DEFAULT_FORM)).toEqual({ ok: true, limits });
    expect(readBounds({ maxPreemptions: ' 0', maxMigrations: '1', timeLimit: '0.5' })).toEqual({
      ok: true,
      limits: { bounds: { maxPreemptions: 0, maxMigrations: 1 }, timeoutMs: 500 },
    });
  });

  it('names the field that is wrong', () => {
    expect(readBounds({ ...DEFAULT_FORM, maxPreemptions: '' })).toMatchObject({ ok: false, field: 'maxPreemptions' });
    expect(readBounds({ ...DEFAULT_FORM, maxMigrations: '1.5' })).toMatchObject({ ok: false, field: 'maxMigrations' });
    expect(readBounds({ ...DEFAULT_FORM, maxMigrations: '99' })).toMatchObject({ ok: false, field: 'maxMigrations', message: /at most/ });
    expect(readBounds({ ...DEFAULT_FORM, timeLimit: '0' })).toMatchObject({ ok: false, field: 'timeLimit' });
    expect(readBounds({ ...DEFAULT_FORM, timeLimit: '-1' })).toMatchObject({ ok: false, field: 'timeLimit' });
    expect(readBounds({ ...DEFAULT_FORM, timeLimit: '1e9' })).toMatchObject({ ok: false, field: 'timeLimit' });
  });
});

describe('what a search says', () => {
  it('a violation: the invariant, the length of the shortest counterexample', () => {
    const s = summarize(report({ complete: false, violations: [{ invariant: 'INV-12', message: 'ABA', schedule: ['A', 'B', 'A'] }] }), limits, false);
    expect(s).toMatchObject({ kind: 'found', headline: 'INV-12 breaks after 3 moves' });
  });

  it('no violation: complete, or incomplete with the reason', () => {
    expect(summarize(report({}), limits, false)).toMatchObject({
      kind: 'none',
      complete: true,
      headline: 'No violation within these bounds (≤ 3 preemptions, ≤ 2 migrations)',
      detail: /^complete: every interleaving/,
    });
    expect(summarize(report({ complete: false, cancelled: true }), limits, true)).toMatchObject({
      headline: 'No violation in the part searched (≤ 3 preemptions, ≤ 2 migrations)',
      detail: /^incomplete: you cancelled/,
    });
    const cut = 'no schedule reached its end within the bounds (2 stopped at a bound)';
    expect(summarize(report({ complete: false, executions: 0, cutByBounds: 2, incomplete: cut }), limits, false).detail).toContain(cut);
    expect(summarize(report({ complete: false, cancelled: true }), limits, false).detail).toMatch(/^incomplete: the time limit \(10 s\) ran out/);
    expect(summarize(report({ complete: false, states: 2_000_000 }), limits, false).detail).toMatch(/state limit \(2,000,000\)/);
    expect(summarize(report({ complete: false }), limits, false).detail).toMatch(/execution limit/);
  });

  it('progress in words and as a share of the time limit', () => {
    const p = { executions: 1234, states: 56789, depth: 17, frontier: 3, elapsedMs: 2500 };
    expect(progressText(p)).toBe('1,234 executions · 56,789 states · depth 17 moves · 2.50 s');
    expect(timeUsed(p, limits)).toBe(0.25);
    expect(timeUsed({ ...p, elapsedMs: 99_999 }, limits)).toBe(1);
  });
});
