// The side-by-side view: one scenario's operations under Linux 6.8's per-CPU
// slab and tid and under Linux 7.0's sheaves, and the counters that tell the two apart. Pure:
// the scenario for each design, and the counters of a run's events up to a move.
import type { SimEvent } from '../sim/types';
import { SHEAVES_ERA } from './variant';

export type Design = 'v6.8' | 'v7.0';

export const DESIGNS: readonly { readonly era: Design; readonly title: string }[] = [
  { era: 'v6.8', title: 'Linux 6.8: per-CPU slab, freelist and tid' },
  { era: SHEAVES_ERA, title: 'Linux 7.0: per-CPU sheaves and the barn' },
];

/**
 * The scenario under one design: its era set, the keys the other design reads dropped (each
 * refuses the other's, naming them). A 7.0 sheaf holds a slab's worth of objects unless the
 * scenario says otherwise, so both stages stay readable (the kernel would size it by object
 * size: 60 pointers for 64-byte objects). Null when the scenario is not a SLUB scenario.
 */
export function designScenario(text: string, era: Design): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const obj = { ...(parsed as Record<string, unknown>) };
  if (obj.allocator === 'slab') return null;
  // The era alone: every other key of one design means nothing to the other. Both sides run
  // the default policy, so a scripted schedule (written for one design) is dropped.
  obj.variant = { era };
  delete obj.schedule;
  const drop = new Set(era === SHEAVES_ERA ? ['cpuPartial'] : ['sheafCapacity', 'maxFullSheaves', 'maxEmptySheaves']);
  const cache = Object.fromEntries(Object.entries((obj.cache ?? {}) as Record<string, unknown>).filter(([k]) => !drop.has(k)));
  if (era === SHEAVES_ERA && cache.sheafCapacity === undefined) {
    const perSlab = typeof cache.objectsPerSlab === 'number' ? cache.objectsPerSlab : 4;
    cache.sheafCapacity = Math.min(Math.max(perSlab, 1), 64);
  }
  obj.cache = cache;
  return JSON.stringify(obj, null, 2);
}

/** What the two designs are compared by, counted over the steps of the played operations. */
export interface Counters {
  /** Cycles the cost table charged (model.md §7, docs/cost-table.md), all CPUs. */
  readonly cycles: number;
  /** LOCK'd double compare-and-swaps on a slab's freelist and counters. */
  readonly slabCas: number;
  /** Per-CPU compare-and-swaps (`this_cpu_cmpxchg_double` and the like). */
  readonly cpuCas: number;
  /** Compare-and-swaps that failed (and were retried). */
  readonly casFailed: number;
  readonly listLocks: number;
  readonly barnLocks: number;
  /** A cache line arriving in a CPU's cache that did not hold it (I → S, E or M). */
  readonly lineFetches: number;
}

export const COUNTER_ROWS: readonly { readonly key: keyof Counters; readonly label: string }[] = [
  { key: 'cycles', label: 'cycles (cost table)' },
  { key: 'cpuCas', label: 'per-CPU cmpxchg' },
  { key: 'slabCas', label: "slab's double cmpxchg (LOCK'd)" },
  { key: 'casFailed', label: 'cmpxchg that failed' },
  { key: 'listLocks', label: 'list_lock taken' },
  { key: 'barnLocks', label: 'barn lock taken' },
  { key: 'lineFetches', label: 'cache lines fetched' },
];

const CPU_CAS = new Set(['pcas2', 'pcas', 'cas-local']);

export const NO_COUNTERS: Counters = { cycles: 0, slabCas: 0, cpuCas: 0, casFailed: 0, listLocks: 0, barnLocks: 0, lineFetches: 0 };

/** The counters of the events of moves `0 .. upTo` (setup's events, with no move, are left out). */
export function countersUpTo(events: readonly SimEvent[], upTo: number): Counters {
  let c = NO_COUNTERS;
  for (const e of events) if (e.mv !== null && e.mv < upTo) c = addEvent(c, e);
  return c;
}

/** The counters with one more event's step counted. */
export function addEvent(c: Counters, e: SimEvent): Counters {
  const cas = e.kind === 'cas2' || CPU_CAS.has(e.kind);
  let fetches = 0;
  for (const t of e.coherence) if (t.from === 'I' && t.to !== 'I') fetches++;
  return {
    cycles: c.cycles + e.cycles,
    slabCas: c.slabCas + (e.kind === 'cas2' ? 1 : 0),
    cpuCas: c.cpuCas + (CPU_CAS.has(e.kind) ? 1 : 0),
    casFailed: c.casFailed + (cas && e.ok === false ? 1 : 0),
    listLocks: c.listLocks + (e.kind === 'lock' && e.target.includes('list_lock') ? 1 : 0),
    barnLocks: c.barnLocks + (e.kind === 'lock' && e.target.startsWith('barn') ? 1 : 0),
    lineFetches: c.lineFetches + fetches,
  };
}

/** The context a move steps (`T`, or the task of `migrate:T:1`). */
export function moveContext(move: string): string {
  const m = /^migrate:(.+):\d+$/.exec(move);
  return m?.[1] ?? move;
}

/**
 * Why a side has no failed compare-and-swap where the other has some, when the designs say why
 * (null otherwise): 7.0's sheaves take and put objects under the CPU's local lock, not with a
 * per-CPU cmpxchg (mm/slub.c `alloc_from_pcs`, `free_to_pcs`: `local_trylock`); an interrupt
 * that finds the lock taken goes to the slab's own paths instead (SH5).
 */
export function whyNoFailedCas(failed68: number, failed70: number): string | null {
  if (failed68 > 0 && failed70 === 0) {
    return (
      `Linux 6.8 has ${failed68} failed cmpxchg here, Linux 7.0 none: 7.0's fast path takes and puts objects in the CPU's sheaf under a local lock ` +
      '(alloc_from_pcs and free_to_pcs take it with local_trylock), not with a this_cpu_cmpxchg, so there is no compare-and-swap to lose; ' +
      'an interrupt that finds the lock taken does not wait, it takes the slab’s own path.'
    );
  }
  return null;
}
