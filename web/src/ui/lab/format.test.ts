// The lab's words and numbers (format.ts): signs, verdicts, the variant change, the explanation.
import { describe, expect, it } from 'vitest';
import type { OpLine, Side } from '../../sim/lab';
import {
  changeWords,
  direction,
  explainOps,
  lessonsHash,
  mismatch,
  num,
  pairsText,
  paramsText,
  pct,
  progressText,
  robustnessText,
  sensitivityRows,
  sharesText,
  ratioText,
  sentence,
  effectVerdict,
  signVerdict,
  statRows,
  toleranceVerdict,
  variantChanges,
} from './format';

const line = (o: Partial<OpLine>): OpLine => ({
  cycles: 0,
  listLocks: 0,
  transfers: 0,
  prefetched: 0,
  objectTransfers: 0,
  slabPageTransfers: 0,
  ...o,
});
const side = (perOp: Side['perOp'], stats: Record<string, number> = {}): Side => ({
  variant: {},
  published: 1,
  model: 1,
  perOp,
  byConstant: {},
  shares: { waiting: 0, transfers: 0, atomics: 0, work: 0 },
  stats,
});

describe('numbers', () => {
  it('writes changes with a sign and a real minus, ratios as multipliers', () => {
    expect(pct(0.3619)).toBe('+36.2 %');
    expect(pct(-0.0652)).toBe('−6.5 %');
    expect(pct(0.00001)).toBe('0 %');
    expect(pct(0.1, 0)).toBe('+10 %');
    expect(ratioText(1.3619)).toBe('×1.362');
    expect(num(10000)).toBe('10,000');
    expect(num(-2.5)).toBe('−2.5');
    expect(num(-0.001)).toBe('0');
    expect(num(Number.NaN)).toBe('–');
  });

  it('reads every ratio as a cost', () => {
    expect(direction(1.2)).toBe('more');
    expect(direction(0.8)).toBe('less');
    expect(direction(1.0002)).toBe('same');
    expect(changeWords(1.362)).toBe('costs 36.2 % more after');
    expect(changeWords(0.9348)).toBe('costs 6.5 % less after');
  });
});

describe('verdicts, in words and symbols', () => {
  it('says whether the direction is the seed’s', () => {
    const ok = signVerdict({ seedRatio: 1.36, modelRatio: 1.25, signOk: true });
    expect(ok).toMatchObject({ ok: true, symbol: '✓', short: 'same direction' });
    expect(ok.text).toBe('Same direction as the seed: both cost more after.');
    const bad = signVerdict({ seedRatio: 1.0073, modelRatio: 0.9528, signOk: false });
    expect(bad).toMatchObject({ ok: false, symbol: '✗' });
    expect(bad.text).toBe('Not the seed’s direction: the seed costs more after, the model costs less after.');
  });

  it('says how far the model’s ratio is from the seed’s', () => {
    expect(toleranceVerdict({ ratioOff: -0.0833, withinTolerance: true }, 0.25).text).toBe('Within ±25 %: the model’s ratio is 8.3 % below the seed’s.');
    const out = toleranceVerdict({ ratioOff: 0.4, withinTolerance: false }, 0.25);
    expect(out).toMatchObject({ ok: false, symbol: '✗', short: 'outside ±25 %' });
    expect(out.text).toContain('40.0 % above');
  });

  it('says whether the model’s change is between half and twice the seed’s', () => {
    expect(effectVerdict({ changeFraction: 0.6864, effectOk: true, signOk: true }).text).toBe('Size within ½–2×: the model shows 0.69 × the seed’s change.');
    expect(effectVerdict({ changeFraction: 0.1243, effectOk: false, signOk: true }).text).toBe('Size outside ½–2× (too small): the model shows 0.12 × the seed’s change.');
    expect(effectVerdict({ changeFraction: 2.78, effectOk: false, signOk: true }).short).toBe('2.78×');
    expect(effectVerdict({ changeFraction: -0.46, effectOk: false, signOk: false }).short).toBe('—');
    expect(effectVerdict({ changeFraction: -0.46, effectOk: false, signOk: false }).text).toMatch(/the change goes the other way/);
  });

  it('marks a case that misses either check', () => {
    expect(mismatch({ signOk: true, withinTolerance: true })).toBe(false);
    expect(mismatch({ signOk: false, withinTolerance: true })).toBe(true);
    expect(mismatch({ signOk: true, withinTolerance: false })).toBe(true);
  });

  it('makes a note a sentence', () => {
    expect(sentence('a 1-cycle change: within the noise')).toBe('A 1-cycle change: within the noise.');
    expect(sentence('Done.')).toBe('Done.');
    expect(sentence('')).toBe('');
  });
});

describe('the case’s facts', () => {
  it('names what the after side changes, from what', () => {
    const before = [
      ['era', 'v3.1'],
      ['fastpath', 'irq-disable'],
    ] as const;
    expect(variantChanges([...before], [['fastpath', 'cmpxchg-local-emulated']])).toEqual([{ key: 'fastpath', from: 'irq-disable', to: 'cmpxchg-local-emulated' }]);
    expect(variantChanges([], [['allocator', 'slab']])).toEqual([{ key: 'allocator', from: null, to: 'slab' }]);
    expect(pairsText([['a', '1'], ['b', '2'], ['a', '3']])).toBe('a=3, b=2');
  });

  it('writes the workload’s parameters', () => {
    const p = { cpus: 2, nodes: 1, size: 256, n: 4000, window: 8, objectsPerSlab: 16, slabOrder: 0, minPartial: 5, cpuPartial: 13 };
    expect(paramsText(p)).toBe('2 CPUs · 256-byte objects, 16 per slab (order 0) · n = 4,000 · at most 8 messages in flight');
    expect(paramsText({ ...p, cpus: 8, pairs: 4 })).toBe('8 CPUs · 256-byte objects, 16 per slab (order 0) · n = 4,000 · 4 producer/consumer pairs · at most 8 messages in flight each');
    const single = { cpus: 1, nodes: 1, size: 256, n: 4000, rounds: 40, objectsPerSlab: 16, slabOrder: 0, minPartial: 5, cpuPartial: 13 };
    expect(paramsText(single)).toBe('1 CPU · 256-byte objects, 16 per slab (order 0) · n = 4,000 · 40 rounds');
  });

  it('links to the lessons citing a seed', () => {
    expect(lessonsHash('003_c2c5fff6815398df.txt')).toBe('#/lessons?q=003_c2c5fff6815398df.txt');
  });

  it('lists the changed stat counters first', () => {
    const rows = statRows(side({}, { A: 1, B: 2 }), side({}, { B: 3, C: 1 }));
    expect(rows.map((r) => [r.name, r.before, r.after])).toEqual([
      ['A', 1, 0],
      ['B', 2, 3],
      ['C', 0, 1],
    ]);
    expect(statRows(side({}, { A: 1, B: 2 }), side({}, { A: 1, B: 3 })).map((r) => r.name)).toEqual(['B', 'A']);
  });
});

describe('why the cycles moved', () => {
  it('puts a change with no traffic on the instructions', () => {
    const [s] = explainOps(side({ alloc: line({ cycles: 40.51 }) }), side({ alloc: line({ cycles: 50.51 }) }), 'alloc');
    expect(s).toBe(
      'Per allocation: 40.51 → 50.51 cycles (+10). There is no list_lock and no cache-line transfer on either side: the difference is in the path’s own steps, its instructions (irq, preempt, cmpxchg) and the accesses that stay in this CPU’s cache or go to memory.',
    );
  });

  it('does not blame a change of traffic too small to account for the cycles', () => {
    const [s] = explainOps(
      side({ free: line({ cycles: 62.48, transfers: 0.03, listLocks: 0.01 }) }),
      side({ free: line({ cycles: 72.3, transfers: 0.02, listLocks: 0.01 }) }),
      'free',
    );
    expect(s).toMatch(/^Per free: 62\.48 → 72\.3 cycles \(\+9\.82\)\. The traffic barely moved \(cache-line transfers 0\.03 → 0\.02 per operation\): the difference is in the path’s own steps/);
  });

  it('names the transfers, the locks and the prefetches when they account for it', () => {
    const lines = explainOps(
      side({ alloc: line({ cycles: 118.48, transfers: 1.18 }), free: line({ cycles: 50, listLocks: 1, transfers: 1, objectTransfers: 1 }) }),
      side({ alloc: line({ cycles: 63.51, transfers: 1.2, prefetched: 0.8 }), free: line({ cycles: 150, listLocks: 2, transfers: 2, objectTransfers: 2 }) }),
      'pair',
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('lines that arrive by a prefetch 0 → 0.8 per operation');
    expect(lines[1]).toBe(
      'Per free: 50 → 150 cycles (+100). What moved: list_lock acquisitions 1 → 2 per operation; cache-line transfers 1 → 2 per operation (object lines +1).',
    );
  });

  it('names the wait for a lock when the metric is this operation and the wait moved the cycles', () => {
    const waiting = (w: number, cycles: number) => ({ ...side({ alloc: line({ cycles, listLocks: 1, transfers: 2 }) }), shares: { waiting: w, transfers: 0, atomics: 0, work: 0 } });
    const [s] = explainOps(waiting(2000, 3295), waiting(600, 1432), 'alloc');
    expect(s).toBe('Per allocation: 3,295 → 1,432 cycles (−1,863). What moved: waiting for a lock 2,000 → 600 cycles per operation.');
  });

  it('says when nothing changed, and leaves out operations the metric does not read', () => {
    const b = side({ alloc: line({ cycles: 5 }), free: line({ cycles: 7 }) });
    expect(explainOps(b, b, 'free')).toEqual(['Per free: 7 → 7 cycles (±0). Nothing the cost table charges changed.']);
  });
});

describe('progress in words', () => {
  it('counts the runs, then says how long they took', () => {
    expect(progressText({ batch: 0, ended: 0, running: [], batchMs: null }, 0)).toBe('');
    expect(progressText({ batch: 11, ended: 2, running: ['003c'], batchMs: null }, 0)).toBe('Running 3 of 11: seed case 003c…');
    expect(progressText({ batch: 11, ended: 2, running: ['003c', '001'], batchMs: null }, 0)).toBe('Running 3–4 of 11: seed cases 003c and 001…');
    expect(progressText({ batch: 9, ended: 9, running: [], batchMs: 4670 }, 0)).toBe('All 9 comparisons ran in 4.7 s.');
    expect(progressText({ batch: 9, ended: 9, running: [], batchMs: 4670 }, 2)).toBe('All 9 comparisons ran in 4.7 s, 2 failed.');
  });
});

describe('where the cycles go and how robust the verdict is', () => {
  it('writes the shares in words, skipping the empty ones', () => {
    expect(sharesText({ waiting: 605.57, transfers: 121.2, atomics: 0, work: 436.3 })).toBe(
      'waiting for a lock 606, cache-line transfers 121, other work 436',
    );
  });

  it('puts the constants that flip the verdict first, then the widest', () => {
    const rows = sensitivityRows({
      sensitivity: [
        { constant: 'L1_HIT', low: 0.93, high: 0.94, flips: false },
        { constant: 'PAGE_ALLOC', low: 0.9, high: 0.97, flips: false },
        { constant: 'CLEAN_IN_OTHER_CORE', low: 0.86, high: 1.02, flips: true },
      ],
    });
    expect(rows.map((r) => r.constant)).toEqual(['CLEAN_IN_OTHER_CORE', 'PAGE_ALLOC', 'L1_HIT']);
  });

  it('says whether a verdict depends on one constant, and how that was found', () => {
    const sensitivity = [{ constant: 'CLEAN_IN_OTHER_CORE', low: 0.86, high: 1.02, flips: true }];
    expect(robustnessText({ sensitivity, sensitivityMethod: 'rerun' })).toBe(
      'The verdict flips when CLEAN_IN_OTHER_CORE moves by 25 % (each constant re-run at 75 % and 125 %): it depends on that value.',
    );
    expect(robustnessText({ sensitivity: [], sensitivityMethod: 'linear' })).toMatch(/^No single cost constant/);
  });
});
