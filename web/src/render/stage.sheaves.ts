// Linux 7.0's cards (model.md Appendix C; wasm-core/sim/src/model/sheaves): a CPU's main and
// spare sheaves as stacks under the sheaves' lock, a node's barn. Pure.
import type { ArrayView, BarnView, ContextView, CpuView, SheafView, View } from '../sim/types';
import { CHAR_W, contextMarker } from './geometry';
import {
  CARD_CHARS,
  CARD_W,
  clip,
  CTX_LINE,
  GAP,
  LABEL_X,
  ROW,
  text,
  VALUE_X,
  wrap,
  type CardShape,
  type ChipShape,
  type GridPos,
  type Keyer,
  type LockShape,
  type MarkShape,
  type TextShape,
} from './stage.shapes';
import { layoutStack, SLOT_H, stackCardFoot, STACK_ROWS } from './stage.stack';

// ----- Linux 7.0 (model.md Appendix C): per-CPU sheaves as stacks, the node's barn -----

/** A CPU card under 7.0: two columns, main on the left and spare on the right. */
export const SHEAF_COL = CARD_W / 2;
/** The sheaves' caption line (`main h3 · 2/4`) and the stacks' top. */
export const SHEAF_LINE_Y = 58;
const SHEAF_STACK_TOP = 66;
/** A stack block's origin so that its slot sits in the column (see layoutStack's offsets). */
const SHEAF_X0 = -34;

/** A sheaf as the array layoutStack draws: `size` objects of `capacity` slots, top last. */
export function sheafArray(h: SheafView): ArrayView {
  return { avail: h.objects.length, limit: h.capacity, batchcount: 0, touched: false, entries: h.objects, handed: 0 };
}

/** `h3 · 2/4`: a sheaf's name and fill. */
export function sheafText(h: SheafView): string {
  return `${h.name} · ${h.objects.length}/${h.capacity}`;
}

/** The sheaves in flight a context on CPU `cpu` holds (refilled, flushed, about to be installed). */
function looseOn(view: View, cpu: number): SheafView[] {
  const here = new Set(view.contexts.filter((c) => c.cpu === cpu).map((c) => c.id));
  return (view.looseSheaves ?? []).filter((h) => h.heldBy !== undefined && here.has(h.heldBy));
}

export function sheafCpuHeight(view: View, c: CpuView): number {
  const cap = c.sheaves?.main.capacity ?? 1;
  const rows = Math.min(Math.max(cap, 1), STACK_ROWS);
  const contexts = Math.max(1, view.contexts.filter((ctx) => ctx.cpu === c.cpu).length);
  return SHEAF_STACK_TOP + rows * SLOT_H + 20 + 15 + 2 * CTX_LINE * contexts + CTX_LINE * looseOn(view, c.cpu).length;
}

/** A CPU card under 7.0: the sheaves' lock, then main and spare as stacks; no tid, freelist or CPU slab. */
export function layoutSheafCpu(
  c: CpuView,
  view: View,
  box: { x: number; y: number; h: number },
  out: { cards: CardShape[]; chips: ChipShape[] },
  gridPos: ReadonlyMap<string, GridPos>,
  sel: string | null,
  uniqueKeys: Keyer,
): void {
  const running = view.contexts.find((ctx) => ctx.id === c.running);
  const pcs = c.sheaves;
  const holder = view.contexts.find((ctx) => ctx.id === pcs?.lockedBy);
  const texts: TextShape[] = [
    text(LABEL_X, 15, `CPU ${c.cpu}`, 'title on-band'),
    text(CARD_W - LABEL_X, 15, running === undefined ? 'idle' : `running ${contextMarker(running.kind)} ${running.id}`, 'on-band', 'end'),
    text(LABEL_X, 38, 'sheaves', 'label'),
    text(
      VALUE_X,
      38,
      holder === undefined ? 'lock free' : `locked by ${contextMarker(holder.kind)} ${holder.id}`,
      holder === undefined ? 'muted' : 'value strong',
    ),
  ];
  const marks: MarkShape[] = [];
  const objects = new Map(view.slabs.flatMap((s) => s.objects.map((o) => [o.name, o] as const)));
  const column = (label: string, h: SheafView | null | undefined, col: number) => {
    const x = col * SHEAF_COL;
    if (h === null || h === undefined) {
      texts.push(text(x + LABEL_X, SHEAF_LINE_Y, `${label} NULL`, 'muted'));
      return;
    }
    texts.push(text(x + LABEL_X, SHEAF_LINE_Y, `${label} ${sheafText(h)}`, 'value'));
    layoutStack(
      sheafArray(h),
      { cardX: box.x, cardY: box.y, x0: x + SHEAF_X0, top: SHEAF_STACK_TOP, w: x + SHEAF_COL, cpu: c.cpu, batch: false },
      { chips: out.chips, texts, marks },
      objects,
      gridPos,
      sel,
      uniqueKeys,
    );
  };
  column('main', pcs?.main, 0);
  column('spare', pcs?.spare, 1);
  const rows = Math.min(Math.max(pcs?.main.capacity ?? 1, 1), STACK_ROWS);
  const irqY = SHEAF_STACK_TOP + rows * SLOT_H + 20;
  const ctxs = stackCardFoot(c, view, irqY, texts);
  const loose = looseOn(view, c.cpu);
  loose.forEach((h, j) => {
    const y0 = irqY + 20 + Math.max(1, ctxs.length) * 2 * CTX_LINE + j * CTX_LINE;
    const short = `${h.heldBy ?? '?'} holds ${sheafText(h)}`;
    const what = `${short}${h.objects.length > 0 ? `: ${h.objects.join(' ')}` : ' (empty)'}`;
    // The objects when they fit on the line; a big sheaf says only its fill.
    texts.push(text(LABEL_X, y0, clip(what.length <= CARD_CHARS ? what : short, CARD_CHARS), 'value'));
  });
  out.cards.push({ key: `cpu:${c.cpu}`, kind: 'cpu', x: box.x, y: box.y, w: CARD_W, h: box.h, cpu: c.cpu, faded: false, selected: false, texts, marks });
}

/**
 * A node's barn under 7.0: its lock, then the full sheaves (each with its objects) and the
 * empty ones, with the counts against the soft limits.
 */
export function layoutBarn(
  node: number,
  b: BarnView,
  y: number,
  w: number,
  out: { cards: CardShape[]; locks: LockShape[] },
  contexts: readonly ContextView[],
): number {
  const chars = Math.floor((w - VALUE_X - LABEL_X) / CHAR_W);
  const holder = contexts.find((c) => c.id === b.lockedBy);
  const full = b.full.length === 0 ? ['none'] : b.full.map((h) => `${sheafText(h)}: ${h.objects.join(' ')}`);
  const empty = b.empty.length === 0 ? 'none' : b.empty.map((h) => h.name).join(' ');
  // The counts go beside the title on a wide card, under it (shorter) on a narrow one.
  const counts = `nr_full ${b.full.length}/${b.maxFull} · nr_empty ${b.empty.length}/${b.maxEmpty} (soft limits)`;
  const short = `full ${b.full.length}/${b.maxFull} · empty ${b.empty.length}/${b.maxEmpty} (soft limits)`;
  const wide = w >= LABEL_X + 112 + counts.length * CHAR_W + LABEL_X;
  const top = wide ? 0 : 18;
  const texts: TextShape[] = [
    text(LABEL_X, 16, `barn of node ${node}`, 'title'),
    wide ? text(LABEL_X + 112, 16, counts, 'muted') : text(LABEL_X, 34, short, 'muted'),
    text(LABEL_X + 22, top + 38, 'lock', 'label'),
    text(
      VALUE_X,
      top + 38,
      holder === undefined ? 'free' : `held by ${contextMarker(holder.kind)} ${holder.id} (CPU ${holder.cpu})`,
      holder === undefined ? 'muted' : 'value strong',
    ),
  ];
  if (b.waiters.length > 0) {
    texts.push(text(LABEL_X, top + 38 + ROW, clip(`waiting: ${b.waiters.join(', ')}`, chars), 'value warn'));
  }
  let ly = top + 38 + ROW * (b.waiters.length > 0 ? 2 : 1);
  texts.push(text(LABEL_X, ly, 'full', 'label'));
  // A full sheaf's objects wrap rather than being cut (a sheaf of 60 takes several lines).
  for (const line of full.flatMap((l) => wrap(l, chars, '  '))) {
    texts.push(text(VALUE_X, ly, line, b.full.length === 0 ? 'muted' : 'value'));
    ly += ROW - 4;
  }
  ly += 4;
  texts.push(text(LABEL_X, ly, 'empty', 'label'));
  for (const line of wrap(empty, chars, '  ')) {
    texts.push(text(VALUE_X, ly, line, b.empty.length === 0 ? 'muted' : 'value'));
    ly += ROW - 4;
  }
  ly -= ROW - 4;
  const h = ly + 14;
  out.locks.push({ key: `barnlock:${node}`, x: GAP + LABEL_X + 8, y: y + top + 34, held: holder !== undefined, holderCpu: holder?.cpu ?? null });
  out.cards.push({ key: `barn:${node}`, kind: 'node', x: GAP, y, w, h, cpu: null, faded: false, selected: false, texts, marks: [] });
  return h;
}
