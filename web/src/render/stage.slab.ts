// SLAB's cards (model.md Appendix A; wasm-core/sim/src/model/slab): a CPU's array_cache as a
// stack, a node's three slab lists, free_objects and shared array. Pure.
import type { ArrayView, CpuView, NodeView, ObjectOwner, RetiredArrayView, SlabNodeView, SlabView, View } from '../sim/types';
import { CHAR_W, contextMarker, r1 } from './geometry';
import { stackHeightRows } from './stack.layout';
import {
  CARD_CHARS,
  CARD_W,
  clip,
  CTX_LINE,
  GAP,
  LABEL_X,
  listLockTexts,
  NODE_RIGHT_W,
  objectState,
  REF_STEP,
  ROW,
  slabRef,
  text,
  VALUE_X,
  type ArrowShape,
  type CardShape,
  type ChipShape,
  type GridPos,
  type Keyer,
  type LockShape,
  type MarkShape,
  type ObjectState,
  type RefShape,
  type TextShape,
} from './stage.shapes';
import { layoutStack, SLOT_H, stackCardFoot, STACK_ROWS } from './stage.stack';

/** A CPU card under SLAB: the array_cache line, then the stack's top. */
const AC_LINE_Y = 40;
const AC_STACK_TOP = 50;
/** A SLAB node card: where the slab lists' tokens start (after `slabs_partial`). */
const LIST_X = 112;

/** `active`'s free objects as the index array hands them out: `index array: 2 3`. */
export function freeIndexText(s: SlabView): string {
  if (s.freelist.length === 0) return 'no free object';
  const index = new Map(s.objects.map((o, i) => [o.name, i] as const));
  return `index array: ${s.freelist.map((name) => String(index.get(name) ?? name)).join(' ')}`;
}

/** An array_cache's header in words: `avail 2/4 · touched 0`. */
export function arrayText(a: ArrayView): string {
  return `avail ${a.avail}/${a.limit} · touched ${a.touched ? 1 : 0}`;
}

/**
 * Under SLAB a free object is in a CPU's array, in a node's shared array or in its slab: the
 * chip says which array in words (`cpu0`, `shared0`), beside the CPU's hue.
 */
export function slabObjectState(owner: ObjectOwner): { state: ObjectState; cpu: number | null; label: string } {
  const st = objectState(owner);
  if (st.state !== 'free') return st;
  if (st.cpu !== null) return { ...st, label: `cpu${st.cpu}` };
  if (owner.kind === 'shared') return { ...st, label: `shared${owner.node}` };
  return st;
}

/**
 * A scenario that replaces shared arrays (a `tune` op, lesson 19): arrays have identities
 * (`A0`, `A1`), and a lockless reader's pointer can outlive the node's array.
 */
export function slabTunes(view: View): boolean {
  return view.nodes.some((n) => n.slab?.sharedId !== undefined);
}

/**
 * A retired shared array in words, one or two lines (the card's and the description's):
 * `A0 · unpublished` / `W waits for cpu0 (synchronize_sched)`, then `A0 · freed by W (kfree)`.
 */
export function retiredLines(r: RetiredArrayView): string[] {
  if (r.freedBy !== null) return [`${r.id} · freed by ${r.freedBy} (kfree)`];
  if (r.waiter === null) return [`${r.id} · unpublished`, 'not freed yet; nobody waits'];
  if (r.waitsFor.length === 0) return [`${r.id} · unpublished`, `${r.waiter}'s wait is over (synchronize_sched)`];
  return [`${r.id} · unpublished`, `${r.waiter} waits for ${r.waitsFor.map((k) => `cpu${k}`).join(', ')} (synchronize_sched)`];
}

/**
 * What context `ctx` holds from a lockless read of `n->shared` (RF2 to RF2S), in words:
 * `shared = A0 (unpublished)`, `(freed)` or `(n->shared)` while it is still the node's; null if none.
 */
export function readerText(view: View, ctx: string): string | null {
  for (const n of view.nodes) {
    const sn = n.slab;
    const r = sn?.readers?.find((x) => x.ctx === ctx);
    if (sn === null || r === undefined) continue;
    const old = sn.retired?.find((x) => x.id === r.array);
    const state = old === undefined ? (sn.sharedId === r.array ? `node ${n.node}'s n->shared` : 'unknown') : old.freedBy === null ? 'unpublished' : 'freed';
    return `shared = ${r.array} (${state})`;
  }
  return null;
}

/** Lines a node card keeps under its shared array for retired arrays (only where arrays are replaced). */
function retiredRows(sn: SlabNodeView): number {
  if (sn.sharedId === undefined) return 0;
  return Math.max(2, (sn.retired ?? []).reduce((k, r) => k + retiredLines(r).length, 0));
}

/**
 * Height of a CPU card under SLAB: the array_cache stack, the irq line, two lines per context,
 * and where arrays are replaced one more for a lockless reader's pointer.
 */
export function slabCpuHeight(c: CpuView, contexts: number, view?: View): number {
  const rows = c.arrayCache === null ? 1 : stackHeightRows(c.arrayCache, STACK_ROWS);
  const reader = view !== undefined && slabTunes(view) ? CTX_LINE : 0;
  return AC_STACK_TOP + rows * SLOT_H + 20 + 15 + 2 * CTX_LINE * Math.max(1, contexts) + reader;
}

/** A CPU card under SLAB: its array_cache as a stack; no tid, freelist, CPU slab or partial list. */
export function layoutSlabCpu(
  c: CpuView,
  view: View,
  box: { x: number; y: number; h: number },
  out: { cards: CardShape[]; chips: ChipShape[]; arrows: ArrowShape[] },
  gridPos: ReadonlyMap<string, GridPos>,
  sel: string | null,
  uniqueKeys: Keyer,
): void {
  const running = view.contexts.find((ctx) => ctx.id === c.running);
  const texts: TextShape[] = [
    text(LABEL_X, 15, `CPU ${c.cpu}`, 'title on-band'),
    text(CARD_W - LABEL_X, 15, running === undefined ? 'idle' : `running ${contextMarker(running.kind)} ${running.id}`, 'on-band', 'end'),
    text(LABEL_X, AC_LINE_Y, 'array_cache', 'label'),
  ];
  const marks: MarkShape[] = [];
  const a = c.arrayCache;
  let rows = 1;
  if (a === null) {
    texts.push(text(VALUE_X + 20, AC_LINE_Y, 'none', 'muted'));
  } else {
    texts.push(text(VALUE_X + 20, AC_LINE_Y, arrayText(a), 'value'));
    const objects = new Map(view.slabs.flatMap((s) => s.objects.map((o) => [o.name, o] as const)));
    layoutStack(
      a,
      { cardX: box.x, cardY: box.y, x0: 0, top: AC_STACK_TOP, w: CARD_W, cpu: c.cpu, batch: true },
      { chips: out.chips, texts, marks },
      objects,
      gridPos,
      sel,
      uniqueKeys,
    );
    rows = stackHeightRows(a, STACK_ROWS);
  }
  const irqY = AC_STACK_TOP + rows * SLOT_H + 20;
  const ctxs = stackCardFoot(c, view, irqY, texts);
  // A pointer loaded without list_lock (RF2), under the contexts: with interrupts off on this
  // CPU only its holder runs here, so the line follows its `at` line.
  for (const ctx of ctxs) {
    const held = readerText(view, ctx.id);
    if (held !== null) texts.push(text(LABEL_X, irqY + 20 + ctxs.length * 2 * CTX_LINE, clip(`  ${held}`, CARD_CHARS), held.endsWith('(freed)') ? 'value warn strong' : 'value'));
  }
  out.cards.push({ key: `cpu:${c.cpu}`, kind: 'cpu', x: box.x, y: box.y, w: CARD_W, h: box.h, cpu: c.cpu, faded: false, selected: false, texts, marks });
}

/**
 * A node under SLAB: `free_objects` against `free_limit`, the three slab lists (partial, full,
 * free) as slab tokens, then list_lock and the shared array in a right-hand column (below the
 * lists on a narrow stage).
 */
export function layoutSlabNode(
  n: NodeView,
  sn: SlabNodeView,
  y: number,
  w: number,
  out: { cards: CardShape[]; chips: ChipShape[]; refs: RefShape[]; arrows: ArrowShape[]; locks: LockShape[] },
  slabs: ReadonlyMap<string, SlabView>,
  view: View,
  gridPos: ReadonlyMap<string, GridPos>,
  sel: string | null,
  uniqueKeys: Keyer,
): number {
  // Where arrays are replaced the label names the array (`shared A1`): three characters more.
  const idW = sn.sharedId === undefined ? 0 : Math.ceil(3 * CHAR_W);
  const rightW = NODE_RIGHT_W + idW;
  const wide = w >= LIST_X + 4 * REF_STEP + rightW;
  const texts: TextShape[] = [
    text(LABEL_X, 16, `node ${n.node}`, 'title'),
    text(LABEL_X + 60, 16, `total_slabs ${sn.totalSlabs} · free_slabs ${sn.freeSlabs}`, 'muted'),
    text(LABEL_X, 34, `free_objects ${sn.freeObjects} / free_limit ${sn.freeLimit}`, 'value'),
  ];
  const marks: MarkShape[] = [];
  const listRight = wide ? w - rightW - 10 : w - LABEL_X;
  const perRow = Math.max(1, Math.floor((listRight - LIST_X + 12) / REF_STEP));
  let ly = 44;
  for (const [label, names] of [
    ['slabs_partial', n.partial],
    ['slabs_full', sn.slabsFull],
    ['slabs_free', sn.slabsFree],
  ] as const) {
    texts.push(text(LABEL_X, ly + 16, label, 'label'));
    if (names.length === 0) texts.push(text(LIST_X, ly + 16, 'empty', 'muted'));
    const keys = uniqueKeys('ref', names);
    names.forEach((name, j) => {
      const rx = GAP + LIST_X + (j % perRow) * REF_STEP;
      const ry = y + ly + 2 + Math.floor(j / perRow) * ROW;
      out.refs.push(slabRef(slabs, keys[j] ?? `ref:${name}`, name, rx, ry, sel));
      if (j % perRow !== 0) {
        out.arrows.push({ key: `link:${keys[j] ?? name}`, d: `M${r1(rx - 11)},${r1(ry + 10)} L${r1(rx - 2)},${r1(ry + 10)}`, kind: 'link' });
      }
    });
    ly += ROW * Math.max(1, Math.ceil(names.length / perRow));
  }
  const listsBottom = ly + 8;

  // The right column: list_lock, then the shared array.
  // (On a narrow card the padlock keeps clear of the card's edge.)
  const rx = wide ? w - rightW : 6;
  const ry = wide ? 0 : listsBottom;
  const holder = view.contexts.find((c) => c.id === n.listLock);
  texts.push(...listLockTexts(rx + 22, ry, holder, n.waiters));
  out.locks.push({ key: `lock:${n.node}`, x: GAP + rx + 8, y: y + ry + 26, held: holder !== undefined, holderCpu: holder?.cpu ?? null });
  const sy = ry + 62;
  const sharedX = rx + 62 + idW;
  texts.push(text(rx + LABEL_X, sy + 12, sn.sharedId === undefined ? 'shared' : `shared ${sn.sharedId}`, 'label'));
  let rightBottom = sy + 22;
  if (sn.shared === null) {
    texts.push(text(sharedX, sy + 12, 'none (one CPU)', 'muted'));
  } else {
    texts.push(text(sharedX, sy + 12, arrayText(sn.shared), 'value'));
    const objects = new Map(view.slabs.flatMap((s) => s.objects.map((o) => [o.name, o] as const)));
    layoutStack(
      sn.shared,
      { cardX: GAP, cardY: y, x0: rx, top: sy + 20, w, cpu: null, batch: false },
      { chips: out.chips, texts, marks },
      objects,
      gridPos,
      sel,
      uniqueKeys,
    );
    rightBottom = sy + 20 + stackHeightRows(sn.shared, STACK_ROWS) * SLOT_H + 8;
  }
  let bottom = wide ? Math.max(listsBottom, rightBottom) : rightBottom;
  // Retired arrays (swapped out at SN4) under both columns, their state in words; the rows
  // are kept from the start of a tuning scenario so that the card does not grow mid-lesson.
  const rows = retiredRows(sn);
  if (rows > 0) {
    const chars = Math.floor((w - 2 * LABEL_X) / CHAR_W);
    const lines = (sn.retired ?? []).flatMap((r) => retiredLines(r).map((t, i) => ({ t, freed: r.freedBy !== null, first: i === 0 })));
    if (lines.length === 0) texts.push(text(LABEL_X, bottom + 12, 'old shared arrays: none', 'muted'));
    lines.forEach((l, i) => texts.push(text(LABEL_X, bottom + 12 + i * CTX_LINE, clip(l.t, chars), l.first && !l.freed ? 'value' : 'muted')));
    bottom += rows * CTX_LINE + 4;
  }
  const h = Math.max(bottom, 60);
  out.cards.push({ key: `node:${n.node}`, kind: 'node', x: GAP, y, w, h, cpu: null, faded: false, selected: false, texts, marks });
  return h;
}
