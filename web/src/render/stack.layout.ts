// SLAB's array_cache drawn as a stack: which slots to show, bottom first. A small array shows
// every slot up to its limit; a big one (the default limit is 120, up to 512) shows at most
// `maxRows` rows: the top of the stack and the slot above it first (what the next pop and push
// touch), then the bottom (the oldest entries, which a flush gives back), then the last slot
// (the limit), the rest folded into gap rows. Pure; used by stage.layout.ts.
import type { ArrayView } from '../sim/types';

/**
 * `entry` an object the array holds, `stale` one a flush already gave back (its memmove has
 * not run yet), `empty` a free slot, `gap` a run of slots not shown.
 */
export type StackRowKind = 'entry' | 'stale' | 'empty' | 'gap';

export interface StackRow {
  readonly kind: StackRowKind;
  /** The slot (`entry[index]`); for a gap, its first hidden slot. */
  readonly index: number;
  /** A gap's last hidden slot (= `index` otherwise). */
  readonly last: number;
  /** The object in the slot (entries and stale copies). */
  readonly name: string | null;
}

/** The slots an array has: its limit (or more, if it ever held more: the invariants say so). */
export function stackSlots(a: ArrayView): number {
  return Math.max(a.limit, a.avail, 1);
}

/** Rows the stack takes on its card: the same at every step, so the cards do not jump. */
export function stackHeightRows(a: ArrayView, maxRows: number): number {
  return Math.min(stackSlots(a), maxRows);
}

function kindOf(a: ArrayView, i: number): StackRowKind {
  if (i >= a.avail) return 'empty';
  return i < a.handed ? 'stale' : 'entry';
}

/** How many rows a set of shown slots takes: one per slot, one per hidden run. */
function rowsFor(shown: readonly number[], total: number): number {
  const sorted = [...shown].sort((x, y) => x - y);
  let rows = sorted.length;
  let next = 0;
  for (const i of sorted) {
    if (i > next) rows++;
    next = i + 1;
  }
  if (next < total) rows++;
  return rows;
}

/** The rows of an array's stack, bottom first (the top of the stack is the last entry row). */
export function stackRows(a: ArrayView, maxRows: number): StackRow[] {
  const total = stackSlots(a);
  const shown = new Set<number>();
  if (total <= maxRows) {
    for (let i = 0; i < total; i++) shown.add(i);
  } else {
    const tryAdd = (i: number): boolean => {
      if (i < 0 || i >= total || shown.has(i)) return false;
      if (rowsFor([...shown, i], total) > maxRows) return false;
      shown.add(i);
      return true;
    };
    for (const i of [a.avail - 1, a.avail, 0, total - 1]) tryAdd(i);
    // Then, in turn: two more below the top, one more from the bottom, one above the top.
    let down = a.avail - 2;
    let up = 1;
    let above = a.avail + 1;
    for (let guard = 0; guard < total * 2 && (down >= 0 || up < total || above < total); guard++) {
      tryAdd(down--);
      tryAdd(down--);
      tryAdd(up++);
      tryAdd(above++);
    }
  }
  const rows: StackRow[] = [];
  let gapStart: number | null = null;
  for (let i = 0; i < total; i++) {
    if (!shown.has(i)) {
      gapStart ??= i;
      continue;
    }
    if (gapStart !== null) {
      rows.push({ kind: 'gap', index: gapStart, last: i - 1, name: null });
      gapStart = null;
    }
    const kind = kindOf(a, i);
    rows.push({ kind, index: i, last: i, name: kind === 'empty' ? null : (a.entries[i] ?? null) });
  }
  if (gapStart !== null) rows.push({ kind: 'gap', index: gapStart, last: total - 1, name: null });
  return rows;
}

/** A gap row in words: what the hidden slots hold. */
export function gapText(a: ArrayView, row: StackRow): string {
  const n = row.last - row.index + 1;
  const entries = Math.max(0, Math.min(row.last + 1, a.avail) - row.index);
  if (entries === 0) return `${n} empty`;
  if (entries === n) return `${n} more`;
  return `${entries} more, ${n - entries} empty`;
}
