// An array of object pointers drawn as a stack of slots: SLAB's array_cache (stage.slab.ts) and
// Linux 7.0's sheaves (stage.sheaves.ts) alike, with the two-line context text their CPU cards
// share. Pure.
import type { ArrayView, ContextView, CpuView, ObjectView, View } from '../sim/types';
import { CHAR_W, contextMarker, r1 } from './geometry';
import { gapText, stackHeightRows, stackRows } from './stack.layout';
import { CARD_CHARS, CHIP_W, clip, CTX_LINE, LABEL_X, LOST, objectState, opProgress, text, type ChipShape, type GridPos, type Keyer, type MarkShape, type TextShape } from './stage.shapes';

/** Rows of an array_cache stack at most: a bigger array folds its middle (stack.layout.ts). */
export const STACK_ROWS = 8;
export const SLOT_H = 24;
const SLOT_W = CHIP_W + 8;
/** In a stack block: slot indices end here, slots are centred here, then the bracket, notes. */
const IDX_X = 58;
const SLOT_CX = 84;
const BRACKET_X = SLOT_CX + SLOT_W / 2 + 4;
const NOTE_X = BRACKET_X + 11;

/** A rounded rectangle as a path (a stack's slot), centred on (cx, cy). */
function roundRect(cx: number, cy: number, w: number, h: number, r: number): string {
  const x = cx - w / 2;
  const y = cy - h / 2;
  return (
    `M${r1(x + r)},${r1(y)} H${r1(x + w - r)} Q${r1(x + w)},${r1(y)} ${r1(x + w)},${r1(y + r)} ` +
    `V${r1(y + h - r)} Q${r1(x + w)},${r1(y + h)} ${r1(x + w - r)},${r1(y + h)} H${r1(x + r)} ` +
    `Q${r1(x)},${r1(y + h)} ${r1(x)},${r1(y + h - r)} V${r1(y + r)} Q${r1(x)},${r1(y)} ${r1(x + r)},${r1(y)} Z`
  );
}

/**
 * The foot of a CPU card drawn with stacks (SLAB's, 7.0's): the irq line at `irqY`, then two
 * lines per context on the CPU. Returns those contexts.
 */
export function stackCardFoot(c: CpuView, view: View, irqY: number, texts: TextShape[]): ContextView[] {
  texts.push(text(LABEL_X, irqY, `irqs ${c.irqsEnabled ? 'on' : 'OFF'} · preempt ${c.preemptCount} · ${c.cycles} cycles`, 'value'));
  const ctxs = view.contexts.filter((ctx) => ctx.cpu === c.cpu);
  if (ctxs.length === 0) texts.push(text(LABEL_X, irqY + 20, 'no context here', 'muted'));
  ctxs.forEach((ctx, j) => {
    const y0 = irqY + 20 + j * 2 * CTX_LINE;
    const [what, at] = contextLines(ctx);
    texts.push(text(LABEL_X, y0, what, ctx.id === c.running ? 'value strong' : 'muted'));
    if (at !== '') texts.push(text(LABEL_X, y0 + CTX_LINE, at, 'muted'));
  });
  return ctxs;
}

export function contextLines(ctx: ContextView): [string, string] {
  const op = ctx.op === null ? (ctx.state === 'finished' ? 'done' : 'between ops') : ctx.op;
  const progress = opProgress(ctx);
  return [
    clip(`${contextMarker(ctx.kind)} ${ctx.id} ${ctx.state} · ${op} ${progress}`, CARD_CHARS),
    ctx.label === null ? '' : clip(`  at ${ctx.label}`, CARD_CHARS),
  ];
}

export interface StackPlace {
  /** The card's top-left (absolute), for the chips. */
  readonly cardX: number;
  readonly cardY: number;
  /** The stack block's left edge and top, in card coordinates. */
  readonly x0: number;
  readonly top: number;
  /** The card's width (notes are clipped to it). */
  readonly w: number;
  /** A CPU's array (its hue on the chips), or null for a shared array. */
  readonly cpu: number | null;
  /** Mark the `batchcount` oldest entries (what a flush gives back). */
  readonly batch: boolean;
}

/**
 * An array_cache as a stack of slots, bottom first, the top at the top: the objects it holds as
 * chips (`arr:<name>`, which move from array to array and from their slab's grid), the stale
 * copies a flush left as ghosts, `[i]` beside each slot, the top marked, the oldest
 * `batchcount` bracketed.
 */
export function layoutStack(
  a: ArrayView,
  p: StackPlace,
  out: { chips: ChipShape[]; texts: TextShape[]; marks: MarkShape[] },
  objects: ReadonlyMap<string, ObjectView>,
  gridPos: ReadonlyMap<string, GridPos>,
  sel: string | null,
  uniqueKeys: Keyer,
): void {
  const rows = stackRows(a, STACK_ROWS);
  const reserved = stackHeightRows(a, STACK_ROWS);
  const bottom = p.top + reserved * SLOT_H;
  const cy = (r: number) => bottom - (r + 0.5) * SLOT_H;
  const notes = rows.map((): string[] => []);
  const noteChars = Math.max(4, Math.floor((p.w - p.x0 - NOTE_X - 6) / CHAR_W));
  // The array: one tube of slots, a divider between each two.
  const tubeTop = bottom - rows.length * SLOT_H;
  const left = p.x0 + SLOT_CX - SLOT_W / 2;
  out.marks.push({ d: roundRect(p.x0 + SLOT_CX, (tubeTop + bottom) / 2, SLOT_W, bottom - tubeTop, 5), cls: 'tube' });
  if (rows.length > 1) {
    const dividers = rows.slice(1).map((_row, r) => `M${r1(left)},${r1(bottom - (r + 1) * SLOT_H)} h${SLOT_W}`);
    out.marks.push({ d: dividers.join(' '), cls: 'divider' });
  }
  rows.forEach((row, r) => {
    const y = cy(r);
    if (row.kind === 'gap') {
      out.texts.push(text(p.x0 + SLOT_CX, y + 4, '⋮', 'muted', 'middle'));
      notes[r]?.push(gapText(a, row));
      return;
    }
    out.texts.push(text(p.x0 + IDX_X, y + 4, `[${row.index}]`, 'muted', 'end'));
    if (row.name === null) return;
    const name = row.name;
    const at = { x: p.cardX + p.x0 + SLOT_CX, y: p.cardY + y };
    if (row.kind === 'stale') {
      out.chips.push({
        key: uniqueKeys('ghost', [name])[0] ?? `ghost:${name}`,
        object: name,
        ...at,
        state: 'stale',
        cpu: null,
        label: '',
        from: null,
        selected: sel === name,
      });
      notes[r]?.push('stale copy');
      return;
    }
    const obj = objects.get(name);
    const st = obj === undefined ? objectState(LOST) : objectState(obj.owner);
    out.chips.push({
      key: uniqueKeys('arr', [name])[0] ?? `arr:${name}`,
      object: name,
      ...at,
      state: st.state,
      cpu: p.cpu,
      label: '',
      from: gridPos.get(name) ?? null,
      selected: sel === name,
    });
    if (row.index === a.avail - 1) notes[r]?.unshift('◀ top');
  });
  if (a.avail === 0) notes[0]?.push('empty');
  if (p.batch && a.batchcount > 0) {
    // The rows holding slots 0..batchcount-1 (a folded run counts if it starts inside).
    let last = -1;
    rows.forEach((row, r) => {
      if (row.index <= a.batchcount - 1) last = r;
    });
    if (last >= 0) {
      const x = p.x0 + BRACKET_X;
      const yTop = cy(last) - SLOT_H / 2 + 2;
      const yBottom = cy(0) + SLOT_H / 2 - 2;
      out.marks.push({ d: `M${r1(x)},${r1(yTop)} h4 V${r1(yBottom)} h-4`, cls: 'bracket' });
      notes[0]?.push(`batchcount ${a.batchcount}`);
    }
  }
  notes.forEach((n, r) => {
    if (n.length > 0) out.texts.push(text(p.x0 + NOTE_X, cy(r) + 4, clip(n.join(' · '), noteChars), 'muted'));
  });
}
