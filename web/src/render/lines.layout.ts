// Cache lines: one row per line, one column per CPU with its MESI letter; the step's coherence
// transitions become transfer tokens from the CPU that gave the line up (or memory) to the one
// that took it. Pure; the D3 renderer is lines.view.ts.
import type { LineView, SimEvent } from '../sim/types';

export const LINE_ROW = 20;
export const LINE_NAME_W = 118;
export const LINE_COL_W = 34;
const HEAD = 24;

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
  readonly name: string;
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
  readonly heads: readonly { readonly key: string; readonly x: number; readonly cpu: number }[];
  readonly rows: readonly LineRow[];
  readonly cells: readonly LineCell[];
  readonly transfers: readonly Transfer[];
}

const colX = (cpu: number) => LINE_NAME_W + cpu * LINE_COL_W + LINE_COL_W / 2;

const OWNING = new Set(['M', 'E']);

export function layoutLines(lines: readonly LineView[], cpus: number, event: SimEvent | undefined): LinesShapes {
  const transitions = event?.coherence ?? [];
  const changed = new Set(transitions.map((t) => `${t.line}:${t.cpu}`));
  const rows: LineRow[] = [];
  const cells: LineCell[] = [];
  const yOf = new Map<number, number>();
  lines.forEach((l, i) => {
    const y = HEAD + i * LINE_ROW + LINE_ROW / 2;
    yOf.set(l.id, y);
    rows.push({ key: `line:${l.id}`, y, name: l.name, touched: transitions.some((t) => t.line === l.id) });
    l.states.forEach((state, cpu) => {
      cells.push({ key: `cell:${l.id}:${cpu}`, x: colX(cpu), y, cpu, state, changed: changed.has(`${l.id}:${cpu}`) });
    });
  });
  // A transfer per line the step touched: to each CPU whose state rose (I→S/E/M, S→M), from
  // the CPU that lost it (M/E/S → I or M/E → S), else from memory.
  const transfers: Transfer[] = [];
  const byLine = new Map<number, typeof transitions>();
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
        label: `${event?.cycles ?? 0} cy`,
      });
    }
  }
  const heads = Array.from({ length: cpus }, (_, cpu) => ({ key: `head:${cpu}`, x: colX(cpu), cpu }));
  return {
    width: LINE_NAME_W + cpus * LINE_COL_W + 44,
    height: HEAD + lines.length * LINE_ROW + 6,
    heads,
    rows,
    cells,
    transfers,
  };
}
