// The Lab's words and numbers, as pure functions of the cases and results (tested in
// format.test.ts): percent changes, the verdicts in words and symbols (colour is never the only
// carrier), the variant change, the workload's parameters and the per-operation explanation.
import type { CaseInfo, LabParams, Metric, OpLine, Pair, SeedResult, Sensitivity, Shares, Side } from '../../sim/lab';

const MINUS = '\u2212';

/**
 * One formatter per number of decimals, made once: `toLocaleString` with options builds a new
 * `Intl.NumberFormat` on every call, and the Lab's cards format thousands of numbers (it was the
 * page's costliest function on a throttled phone).
 */
const FORMATS = new Map<number, Intl.NumberFormat>();

/** A number as the page writes it: at most `digits` decimals, no trailing zeros, a real minus. */
export function num(x: number, digits = 2): string {
  if (!Number.isFinite(x)) return '–';
  let format = FORMATS.get(digits);
  if (format === undefined) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
    FORMATS.set(digits, format);
  }
  return format.format(x).replace(/^-/, MINUS).replace(/^−0$/, '0');
}

/** A change as a signed percentage: `+36.2 %`, `−6.5 %`, `0 %`. */
export function pct(change: number, digits = 1): string {
  if (!Number.isFinite(change)) return '–';
  const p = Math.round(change * 100 * 10 ** digits) / 10 ** digits;
  if (p === 0) return '0 %';
  return `${p > 0 ? '+' : MINUS}${Math.abs(p).toFixed(digits)} %`;
}

/** `after / before` as a multiplier: `×1.362`. */
export function ratioText(ratio: number): string {
  return Number.isFinite(ratio) ? `×${ratio.toFixed(3)}` : '–';
}

export type Direction = 'more' | 'less' | 'same';

/** Every metric of the lab is a cost (cycles, seconds): a ratio above 1 costs more after. */
export function direction(ratio: number): Direction {
  if (Math.abs(ratio - 1) < 0.0005) return 'same';
  return ratio > 1 ? 'more' : 'less';
}

/** `costs 36.2 % more after`, `costs 6.5 % less after`, `costs the same`. */
export function changeWords(ratio: number): string {
  const d = direction(ratio);
  if (d === 'same') return 'costs the same after';
  return `costs ${pct(Math.abs(ratio - 1)).replace(/^\+/, '')} ${d} after`;
}

export interface Verdict {
  readonly ok: boolean;
  /** ✓ or ✗: the symbol beside the words. */
  readonly symbol: string;
  /** Short, for the summary table: `same direction`, `within ±25 %`. */
  readonly short: string;
  /** A sentence for the card. */
  readonly text: string;
}

export function signVerdict(r: Pick<SeedResult, 'seedRatio' | 'modelRatio' | 'signOk'>): Verdict {
  const both = { more: 'both cost more after', less: 'both cost less after', same: 'both show no change' } as const;
  const one = { more: 'costs more after', less: 'costs less after', same: 'shows no change' } as const;
  if (r.signOk) {
    return { ok: true, symbol: '✓', short: 'same direction', text: `Same direction as the seed: ${both[direction(r.seedRatio) === 'same' ? direction(r.modelRatio) : direction(r.seedRatio)]}.` };
  }
  return {
    ok: false,
    symbol: '✗',
    short: 'opposite direction',
    text: `Not the seed’s direction: the seed ${one[direction(r.seedRatio)]}, the model ${one[direction(r.modelRatio)]}.`,
  };
}

export function toleranceVerdict(r: Pick<SeedResult, 'ratioOff' | 'withinTolerance'>, tolerance: number): Verdict {
  const band = `±${num(tolerance * 100, 0)} %`;
  const off = r.ratioOff;
  const where =
    Math.abs(off) < 0.0005
      ? 'equal to the seed’s'
      : `${pct(Math.abs(off)).replace(/^\+/, '')} ${off > 0 ? 'above' : 'below'} the seed’s`;
  return r.withinTolerance
    ? { ok: true, symbol: '✓', short: `within ${band}`, text: `Within ${band}: the model’s ratio is ${where}.` }
    : { ok: false, symbol: '✗', short: `outside ${band}`, text: `Outside ${band}: the model’s ratio is ${where}.` };
}

/**
 * The size verdict: the model's change (ratio − 1) between half and twice the seed's, with the
 * sign right (the Rust side's `effectOk`, `EFFECT_RANGE`).
 */
export function effectVerdict(r: Pick<SeedResult, 'changeFraction' | 'effectOk' | 'signOk'>): Verdict {
  const f = r.changeFraction;
  const size = Number.isFinite(f) ? `${num(f, 2)} × the seed’s change` : 'no change to compare';
  // The summary's cell: the fraction, or a dash where it means nothing (the other way, or none).
  const short = r.signOk && Number.isFinite(f) ? `${num(f, 2)}×` : '—';
  if (r.effectOk) return { ok: true, symbol: '✓', short, text: `Size within ½–2×: the model shows ${size}.` };
  const why = !r.signOk ? 'the change goes the other way' : Number.isFinite(f) && f < 0.5 ? 'too small' : 'too large';
  return { ok: false, symbol: '✗', short, text: `Size outside ½–2× (${why}): the model shows ${size}.` };
}

/** Whether a card should say the model cannot match (and the note, or that there is none). */
export function mismatch(r: Pick<SeedResult, 'signOk' | 'withinTolerance'>): boolean {
  return !r.signOk || !r.withinTolerance;
}

export interface VariantChange {
  readonly key: string;
  /** The value before (null: the variant's default, not set by the case). */
  readonly from: string | null;
  readonly to: string;
}

/** What the "after" run changes: each changed key with its value before (the last pair wins). */
export function variantChanges(before: readonly Pair[], change: readonly Pair[]): VariantChange[] {
  const last = new Map<string, string>();
  for (const [k, v] of before) last.set(k, v);
  const out = new Map<string, VariantChange>();
  for (const [key, to] of change) out.set(key, { key, from: last.get(key) ?? null, to });
  return [...out.values()];
}

/** `era=v3.1, fastpath=irq-disable` (the later of two pairs of a key kept). */
export function pairsText(pairs: readonly Pair[]): string {
  const m = new Map<string, string>();
  for (const [k, v] of pairs) m.set(k, v);
  return [...m].map(([k, v]) => `${k}=${v}`).join(', ');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${num(n, 0)} ${n === 1 ? one : many}`;
}

/** `1 CPU · 8-byte objects, 512 per slab (order 0) · n = 10,000`. */
export function paramsText(p: LabParams): string {
  const parts = [
    plural(p.cpus, 'CPU'),
    ...(p.nodes > 1 ? [plural(p.nodes, 'node')] : []),
    `${p.size}-byte objects, ${num(p.objectsPerSlab, 0)} per slab (order ${p.slabOrder})`,
    `n = ${num(p.n, 0)}`,
  ];
  if (p.rounds !== undefined) parts.push(plural(p.rounds, 'round'));
  if (p.pairs !== undefined && p.pairs > 1) parts.push(`${num(p.pairs, 0)} producer/consumer pairs`);
  if (p.window !== undefined) parts.push(`at most ${plural(p.window, 'message')} in flight${p.pairs !== undefined && p.pairs > 1 ? ' each' : ''}`);
  return parts.join(' · ');
}

/** What the model's number of a metric is. */
export function metricUnit(m: Metric): string {
  switch (m) {
    case 'alloc':
      return 'cycles per allocation';
    case 'free':
      return 'cycles per free';
    case 'pair':
      return 'cycles per allocation + free';
    case 'message':
      return 'busy cycles of all CPUs per message';
  }
}

/** The operations a metric reads. */
export function metricOps(m: Metric): readonly ('alloc' | 'free' | 'touch')[] {
  switch (m) {
    case 'alloc':
      return ['alloc'];
    case 'free':
      return ['free'];
    case 'pair':
      return ['alloc', 'free'];
    case 'message':
      return ['alloc', 'free', 'touch'];
  }
}

const OP_NAME = { alloc: 'allocation', free: 'free', touch: 'use of the object (touch)' } as const;

export interface OpRow {
  readonly op: 'alloc' | 'free' | 'touch';
  readonly before: OpLine;
  readonly after: OpLine;
  /** The metric reads this operation. */
  readonly counted: boolean;
}

/** The per-operation lines both sides have, in alloc, free, touch order. */
export function opRows(before: Side, after: Side, metric: Metric): OpRow[] {
  const counted = metricOps(metric);
  return (['alloc', 'free', 'touch'] as const).flatMap((op) => {
    const b = before.perOp[op];
    const a = after.perOp[op];
    return b !== undefined && a !== undefined ? [{ op, before: b, after: a, counted: counted.includes(op) }] : [];
  });
}

const EPS = 0.005;
/**
 * Rough cycles of one unit of traffic, to tell whether the traffic that changed can account for
 * a change in cycles (the words only: the cycles themselves are the model's). A transfer costs
 * 65–75 (CLEAN/MODIFIED_IN_OTHER_CORE), a lock 25 (SPIN_LOCK + SPIN_UNLOCK) plus its line.
 */
const TRANSFER_CYCLES = 75;
const LOCK_CYCLES = 25;

function delta(after: number, before: number, digits = 2): string {
  const d = after - before;
  return `${d > 0 ? '+' : d < 0 ? MINUS : '±'}${num(Math.abs(d), digits)}`;
}

/**
 * Why the cycles moved, one sentence per operation the metric reads: the change in cycles,
 * then what the cost table charges it to: list_lock acquisitions, cache-line transfers (by kind
 * of line) and lines a prefetch brought in, when they changed enough to account for it; else
 * the path's own steps: its instructions and the accesses that are not transfers.
 */
export function explainOps(before: Side, after: Side, metric: Metric): string[] {
  const counted = opRows(before, after, metric).filter((r) => r.counted);
  return counted
    .map(({ op, before: b, after: a }) => {
      const dc = a.cycles - b.cycles;
      const head = `Per ${OP_NAME[op]}: ${num(b.cycles)} → ${num(a.cycles)} cycles (${delta(a.cycles, b.cycles)}).`;
      if (Math.abs(dc) < EPS) return `${head} Nothing the cost table charges changed.`;
      const dLocks = a.listLocks - b.listLocks;
      const dTransfers = a.transfers - b.transfers;
      const dPrefetched = a.prefetched - b.prefetched;
      const causes: string[] = [];
      // The time spent waiting for a lock is counted per metric (`shares`): it is this
      // operation's when the metric is this one operation.
      const waits = counted.length === 1 ? { b: before.shares.waiting, a: after.shares.waiting } : null;
      const dWait = waits === null ? 0 : waits.a - waits.b;
      if (waits !== null && Math.abs(dWait) >= 0.5 * Math.abs(dc)) {
        causes.push(`waiting for a lock ${num(waits.b)} → ${num(waits.a)} cycles per operation`);
      }
      if (Math.abs(dLocks) >= EPS) causes.push(`list_lock acquisitions ${num(b.listLocks)} → ${num(a.listLocks)} per operation`);
      if (Math.abs(dTransfers) >= EPS) {
        const kinds: string[] = [];
        if (Math.abs(a.objectTransfers - b.objectTransfers) >= EPS) kinds.push(`object lines ${delta(a.objectTransfers, b.objectTransfers)}`);
        if (Math.abs(a.slabPageTransfers - b.slabPageTransfers) >= EPS) kinds.push(`slab descriptors ${delta(a.slabPageTransfers, b.slabPageTransfers)}`);
        causes.push(`cache-line transfers ${num(b.transfers)} → ${num(a.transfers)} per operation${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}`);
      }
      if (Math.abs(dPrefetched) >= EPS) {
        causes.push(
          `lines that arrive by a prefetch ${num(b.prefetched)} → ${num(a.prefetched)} per operation (the operation pays the prefetch’s issue, not the transfer)`,
        );
      }
      const traffic = (Math.abs(dTransfers) + Math.abs(dPrefetched)) * TRANSFER_CYCLES + Math.abs(dLocks) * LOCK_CYCLES + Math.abs(dWait);
      if (causes.length > 0 && traffic >= 0.5 * Math.abs(dc)) return `${head} What moved: ${causes.join('; ')}.`;
      const none = b.transfers < EPS && a.transfers < EPS && b.listLocks < EPS && a.listLocks < EPS;
      const traffics = none
        ? 'There is no list_lock and no cache-line transfer on either side'
        : causes.length === 0
          ? `The list_lock acquisitions (${num(a.listLocks)}) and cache-line transfers (${num(a.transfers)}) per operation are the same on both sides`
          : `The traffic barely moved (${causes.join('; ')})`;
      return `${head} ${traffics}: the difference is in the path’s own steps, its instructions (irq, preempt, cmpxchg) and the accesses that stay in this CPU’s cache or go to memory.`;
    });
}

/** A note as a sentence: capital first letter, final stop. */
export function sentence(text: string): string {
  const t = text.trim();
  if (t === '') return t;
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?)]$/.test(s) ? s : `${s}.`;
}

export interface StatRow {
  readonly name: string;
  readonly before: number;
  readonly after: number;
}

/** The stat counters of both sides, by name; those that differ first. */
export function statRows(before: Side, after: Side): StatRow[] {
  const names = [...new Set([...Object.keys(before.stats), ...Object.keys(after.stats)])].sort();
  const rows = names.map((name) => ({ name, before: before.stats[name] ?? 0, after: after.stats[name] ?? 0 }));
  return [...rows.filter((r) => r.before !== r.after), ...rows.filter((r) => r.before === r.after)];
}

/** The seed's short name, from the file: `003_c2c5fff6815398df.txt` → `003`. */
export function seedNumber(file: string): string {
  return file.replace(/_.*$/, '');
}

/** The lesson index filtered to the lessons citing a seed file. */
export function lessonsHash(file: string): string {
  return `#/lessons?${new URLSearchParams({ q: file }).toString()}`;
}

/** Progress in words for the live region. */
export function progressText(
  p: { batch: number; ended: number; running: readonly string[]; batchMs: number | null },
  failed: number,
): string {
  if (p.batch === 0) return '';
  if (p.running.length === 1) return `Running ${Math.min(p.ended + 1, p.batch)} of ${p.batch}: seed case ${p.running[0]}…`;
  if (p.running.length > 1) {
    const first = Math.min(p.ended + 1, p.batch);
    const last = Math.min(p.ended + p.running.length, p.batch);
    return `Running ${first}–${last} of ${p.batch}: seed cases ${p.running.join(' and ')}…`;
  }
  const secs = p.batchMs === null ? '' : ` in ${num(p.batchMs / 1000, 1)} s`;
  const fails = failed > 0 ? `, ${num(failed, 0)} failed` : '';
  return `All ${plural(p.batch, 'comparison')} ran${secs}${fails}.`;
}

/** The case's published figures in its unit: `105 → 143 cycles per pair (IA64)`. */
export function publishedText(c: Pick<CaseInfo, 'published' | 'unit'>): string {
  return `${num(c.published.before, 3)} → ${num(c.published.after, 3)} ${c.unit}`;
}

/** The four shares of a metric's cycles, in the order the stacked bar draws them. */
export const SHARE_KEYS = ['waiting', 'transfers', 'atomics', 'work'] as const;
export type ShareKey = (typeof SHARE_KEYS)[number];

export const SHARE_WORDS: Record<ShareKey, string> = {
  waiting: 'waiting for a lock',
  transfers: 'cache-line transfers',
  atomics: 'atomic instructions',
  work: 'other work',
};

/** One side's shares as a sentence: "waiting for a lock 606, cache-line transfers 121, …". */
export function sharesText(s: Shares): string {
  return SHARE_KEYS.filter((k) => s[k] > 0)
    .map((k) => `${SHARE_WORDS[k]} ${num(s[k], 0)}`)
    .join(', ');
}

export interface SensitivityRow extends Sensitivity {
  /** How far apart the two ends are (the bar's length). */
  spread: number;
}

/** The sensitivity rows, the constants that move the ratio most first. */
export function sensitivityRows(r: Pick<SeedResult, 'sensitivity'>): SensitivityRow[] {
  return r.sensitivity
    .map((s) => ({ ...s, spread: Math.abs(s.high - s.low) }))
    .sort((a, b) => Number(b.flips) - Number(a.flips) || b.spread - a.spread || a.constant.localeCompare(b.constant));
}

/** The verdict on robustness in words. */
export function robustnessText(r: Pick<SeedResult, 'sensitivity' | 'sensitivityMethod'>): string {
  const flips = r.sensitivity.filter((s) => s.flips).map((s) => s.constant);
  const how =
    r.sensitivityMethod === 'rerun'
      ? 'each constant re-run at 75 % and 125 %'
      : 'each constant at 75 % and 125 %, the interleaving held fixed';
  if (flips.length === 0) return `No single cost constant moved by 25 % flips this verdict (${how}).`;
  return `The verdict flips when ${flips.join(', ')} ${flips.length === 1 ? 'moves' : 'move'} by 25 % (${how}): it depends on ${flips.length === 1 ? 'that value' : 'those values'}.`;
}
