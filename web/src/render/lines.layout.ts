// Cache lines: one row per line, one column per CPU with its MESI letter; the step's coherence
// transitions become transfer tokens from the CPU that gave the line up (or memory) to the one
// that took it. Pure; the D3 renderer is lines.view.ts.
import type { LineView, SimEvent } from '../sim/types';

export const LINE_ROW = 20;
export const LINE_NAME_W = 118;
export const LINE_COL_W = 34;
const HEAD = 24;
/** Room after the columns: the token's offset and its cycles label. */
export const LINES_MARGIN = 56;

export interface LineCell {
  readonly key: string;
  readonly x: number;
  readonly y: number;
  readonly cpu: number;
  /** M, E, S or I. */
  readonly state: string;
  /** Its state changed in this step. */
  readonly changed: boolean;
}

export interface LineRow {
  readonly key: string;
  readonly y: number;
  /** As the table shows it (17 characters fit). */
  readonly name: string;
  /** In full, for the table's description (`array_cache[0] entries 6..13`). */
  readonly longName: string;
  /** One MESI letter per CPU. */
  readonly states: readonly string[];
  readonly touched: boolean;
}

export interface Transfer {
  readonly key: string;
  /** Source column centre (memory when `fromCpu` is null: the name column's right edge). */
  readonly x1: number;
  readonly x2: number;
  readonly y: number;
  readonly fromCpu: number | null;
  readonly toCpu: number;
  readonly label: string;
}

export interface LinesShapes {
  readonly width: number;
  readonly height: number;
  /** Under the rows: the lines a huge scenario's view left out (none: null). */
  readonly omitted: { readonly y: number; readonly text: string } | null;
  readonly heads: readonly { readonly key: string; readonly x: number; readonly cpu: number }[];
  readonly rows: readonly LineRow[];
  readonly cells: readonly LineCell[];
  readonly transfers: readonly Transfer[];
}

/** SLAB's array lines beyond the header: `array_cache[0] entries 6..13`, `shared[0] entries ...`. */
const ENTRY_LINE = /^(array_cache|shared)\[(\d+)\] entries (\d+)\.\.(\d+)$/;

/**
 * A line's name as the table shows it (17 characters fit): SLAB's array entry lines,
 * `array_cache[0] entries 6..13`, become `ac[0] [6..13]` (the description keeps the model's).
 */
export function shortLineName(name: string): string {
  const m = ENTRY_LINE.exec(name);
  if (m === null) return name;
  return `${m[1] === 'shared' ? 'sh' : 'ac'}[${m[2] ?? ''}] [${m[3] ?? ''}..${m[4] ?? ''}]`;
}

/** Runs shorter than this stay line by line (every built-in SLUB scenario's objects do). */
export const MIN_FOLD = 8;

/**
 * The table's rows: one per line, except that a run of idle lines (no CPU holds them, the step
 * did not touch them) of one SLAB array (`ac[0] [14..117]`) or of one slab's objects
 * (`p3..p63`) folds into one row: a default SLAB array of 120 entries is 16 lines per CPU, and a
 * slab of 64 objects of 4096 bytes is 4096 lines, one table row and eight cells each (the
 * biggest scenario within the limits: 860,000 elements for eight such slabs). A run shorter than MIN_FOLD lines stays.
 */
export function foldLines(lines: readonly LineView[], touched: ReadonlySet<number>): { first: LineView; last: LineView; lines: LineView[] }[] {
  const runOf = (l: LineView): string | null => {
    if (touched.has(l.id)) return null;
    // A slab's objects fold whatever CPUs hold them (the row then says the most any holds).
    if (l.holds.kind === 'objects') return `objects ${l.holds.slab}`;
    if (!l.states.every((st) => st === 'I')) return null;
    return ENTRY_LINE.test(l.name) ? (/^\w+\[\d+\]/.exec(l.name)?.[0] ?? null) : null;
  };
  const out: { first: LineView; last: LineView; lines: LineView[] }[] = [];
  let run: LineView[] = [];
  let key: string | null = null;
  const flush = () => {
    const first = run[0];
    const last = run.at(-1);
    if (first !== undefined && last !== undefined && run.length >= MIN_FOLD && key !== null) out.push({ first, last, lines: run });
    else for (const l of run) out.push({ first: l, last: l, lines: [l] });
    run = [];
  };
  for (const l of lines) {
    const k = runOf(l);
    if (k === null || k !== key) flush();
    key = k;
    if (k === null) out.push({ first: l, last: l, lines: [l] });
    else run.push(l);
  }
  flush();
  return out;
}

const RANK: Record<string, number> = { I: 0, S: 1, E: 2, M: 3 };

/** Per CPU, the most owning state among `lines` (a folded row's cells), and how many it holds. */
function summary(lines: readonly LineView[], cpus: number): { states: string[]; held: number[] } {
  const states = Array.from({ length: cpus }, () => 'I');
  const held = Array.from({ length: cpus }, () => 0);
  for (const l of lines) {
    l.states.forEach((st, cpu) => {
      if (st !== 'I') held[cpu] = (held[cpu] ?? 0) + 1;
      if ((RANK[st] ?? 0) > (RANK[states[cpu] ?? 'I'] ?? 0)) states[cpu] = st;
    });
  }
  return { states, held };
}

function foldedName(first: LineView, last: LineView): { name: string; longName: string } {
  if (first === last) return { name: shortLineName(first.name), longName: first.name };
  if (first.holds.kind === 'objects' && last.holds.kind === 'objects') {
    const a = first.holds.objects[0] ?? '?';
    const b = last.holds.objects.at(-1) ?? a;
    const lines = last.id - first.id + 1;
    return { name: a === b ? `${a} ×${lines}` : `${a}..${b}`, longName: `${lines} lines of objects ${a}..${b}` };
  }
  const x = ENTRY_LINE.exec(first.name);
  const y = ENTRY_LINE.exec(last.name);
  const long = `${x?.[1] ?? ''}[${x?.[2] ?? ''}] entries ${x?.[3] ?? ''}..${y?.[4] ?? ''}`;
  return { name: shortLineName(long), longName: long };
}

const colX = (cpu: number) => LINE_NAME_W + cpu * LINE_COL_W + LINE_COL_W / 2;

const OWNING = new Set(['M', 'E']);

export function layoutLines(lines: readonly LineView[], cpus: number, event: SimEvent | undefined, omitted = 0): LinesShapes {
  const transitions = event?.coherence ?? [];
  const changed = new Set(transitions.map((t) => `${t.line}:${t.cpu}`));
  const rows: LineRow[] = [];
  const cells: LineCell[] = [];
  const yOf = new Map<number, number>();
  const folded = foldLines(lines, new Set(transitions.map((t) => t.line)));
  folded.forEach(({ first: l, last, lines: run }, i) => {
    const y = HEAD + i * LINE_ROW + LINE_ROW / 2;
    yOf.set(l.id, y);
    const names = foldedName(l, last);
    const { states, held } = run.length > 1 ? summary(run, cpus) : { states: l.states, held: [] };
    const holders = held.flatMap((n, cpu) => (n > 0 ? [`CPU ${cpu} holds ${n}`] : []));
    rows.push({
      key: `line:${l.id}`,
      y,
      name: names.name,
      longName:
        run.length > 1 && l.holds.kind === 'objects'
          ? `${names.longName}${holders.length > 0 ? ` (${holders.join(', ')}; the cells show the most any of them is in)` : ", in no CPU's cache"}`
          : names.longName,
      states,
      touched: transitions.some((t) => t.line === l.id),
    });
    states.forEach((state, cpu) => {
      cells.push({ key: `cell:${l.id}:${cpu}`, x: colX(cpu), y, cpu, state, changed: changed.has(`${l.id}:${cpu}`) });
    });
  });
  // A transfer per line the step touched: to each CPU whose state rose (I→S/E/M, S→M), from
  // the CPU that lost it (M/E/S → I or M/E → S), else from memory.
  const transfers: Transfer[] = [];
  const byLine = new Map<number, typeof transitions>();
  // One cycles label a row: a folded row (several lines) or a line taken by two CPUs drew two
  // labels on one spot, one over the other ("75 cy" over its neighbour).
  const labelled = new Set<number>();
  for (const t of transitions) byLine.set(t.line, [...(byLine.get(t.line) ?? []), t]);
  for (const [line, ts] of byLine) {
    const y = yOf.get(line);
    if (y === undefined) continue;
    const gainers = ts.filter((t) => t.to !== 'I' && (t.from === 'I' || (t.from === 'S' && OWNING.has(t.to))));
    const losers = ts.filter((t) => t.from !== 'I' && (t.to === 'I' || (OWNING.has(t.from) && t.to === 'S')));
    const src = losers.find((t) => OWNING.has(t.from)) ?? losers[0];
    for (const g of gainers) {
      if (src !== undefined && src.cpu === g.cpu) continue;
      transfers.push({
        key: `xfer:${line}:${g.cpu}`,
        x1: src === undefined ? LINE_NAME_W - 4 : colX(src.cpu),
        x2: colX(g.cpu),
        y,
        fromCpu: src?.cpu ?? null,
        toCpu: g.cpu,
        label: labelled.has(y) ? '' : `${event?.cycles ?? 0} cy`,
      });
      labelled.add(y);
    }
  }
  const heads = Array.from({ length: cpus }, (_, cpu) => ({ key: `head:${cpu}`, x: colX(cpu), cpu }));
  const bottom = HEAD + folded.length * LINE_ROW;
  return {
    // The columns, then room for the cycles label (12 px, "300 cy") after them.
    width: LINE_NAME_W + cpus * LINE_COL_W + LINES_MARGIN,
    height: bottom + 6 + (omitted > 0 ? LINE_ROW : 0),
    omitted: omitted > 0 ? { y: bottom + LINE_ROW / 2 + 4, text: `+ ${omitted.toLocaleString('en')} object lines in no cache` } : null,
    heads,
    rows,
    cells,
    transfers,
  };
}
