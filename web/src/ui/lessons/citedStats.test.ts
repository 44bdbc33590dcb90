import { describe, expect, it } from 'vitest';
import type { NamedHighlight } from '../../lessons';
import { citedStats } from './citedStats';

describe('citedStats: the counters a slide embed shows', () => {
  const known = ['ALLOC_FASTPATH', 'CMPXCHG_DOUBLE_CPU_FAIL', 'FREE_SLOWPATH'];
  const fail: NamedHighlight = { name: 'stat CMPXCHG_DOUBLE_CPU_FAIL', kind: 'stat', stat: 'CMPXCHG_DOUBLE_CPU_FAIL' };
  it('keeps the counters the highlights name, first', () => {
    const tid: NamedHighlight = { name: 'cpu0.tid', kind: 'cpu', cpu: 0, field: 'tid' };
    expect(citedStats([tid, fail], '<p>The counter reads 1.</p>', known)).toEqual(['CMPXCHG_DOUBLE_CPU_FAIL']);
  });
  it('adds the counters the narration cites by name, once, and no other capitalised word', () => {
    const html = '<p><code>FREE_SLOWPATH</code> and <code>ALLOC_FASTPATH</code> move; <code>SLAB_FREE</code> and <code>CMPXCHG_DOUBLE_CPU_FAIL</code> too.</p>';
    expect(citedStats([fail], html, known)).toEqual(['CMPXCHG_DOUBLE_CPU_FAIL', 'FREE_SLOWPATH', 'ALLOC_FASTPATH']);
  });
  it('shows nothing for a step that names no counter', () => {
    expect(citedStats([{ name: 'stats', kind: 'panel', panel: 'stats' }], '<p>T pops p0.</p>', known)).toEqual([]);
  });
});
