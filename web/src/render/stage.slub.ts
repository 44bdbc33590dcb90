// SLUB's CPU card (model.md §1.2; wasm-core/sim/src/model/slub): the tid, the lockless
// freelist as a chain of chips, the CPU slab and the CPU partial list, and under each context
// what its fast path has read (snapshotLine). Pure.
import type { ContextView, CpuView, ObjectView, SlabView, View } from '../sim/types';
import { arcPath, contextMarker, linkPath, r1, type Point } from './geometry';
import {
  CARD_CHARS,
  CARD_W,
  CHIP_H,
  CHIP_STEP,
  CHIP_W,
  CTX_LINE,
  LABEL_X,
  LOST,
  objectState,
  opProgress,
  REF_STEP,
  ROW,
  slabRef,
  text,
  VALUE_X,
  wrap,
  type ArrowShape,
  type CardShape,
  type ChipShape,
  type GridPos,
  type Keyer,
  type RefShape,
  type TextShape,
} from './stage.shapes';

/** Freelist chips per row of a CPU card, and slab tokens per row of its partial list. */
export const PER_ROW_CHIPS = Math.floor((CARD_W - VALUE_X - LABEL_X + 14) / CHIP_STEP);
export const PER_ROW_REFS = Math.floor((CARD_W - VALUE_X - LABEL_X + 12) / REF_STEP);

/** `object·TID_STEP + cpu` (model.md §3.1), the tid's decomposition shown beside it. */
export function tidText(c: CpuView, tidStep: number): string {
  return `${c.tid} = ${c.tidEvent}·${tidStep}+${c.tidCpu}`;
}

/** Fast paths whose cmpxchg compares the tid too (model.md §2.16). */
const TID_FASTPATHS = new Set(['preempt-disable', 'tid-loop', 'tid-direct', 'tid-unguarded']);
/** Fast paths with no cmpxchg: the update is a plain store with irqs off (E0). */
const STORE_FASTPATHS = new Set(['irq-disable']);

export interface SnapshotLine {
  readonly text: string;
  /** The same in a sentence (for the stage's description to screen readers). */
  readonly words: string;
  /** The `next` it read is no longer the object's free pointer (the ABA of model.md §3.4). */
  readonly stale: boolean;
  /** The object and the `next` it holds (for the stale pointer's arrow). */
  readonly object: string | null;
  readonly next: string | null;
}

/**
 * What a context's pending fast-path update will expect and install, from what it has read
 * so far (`ContextView.snapshot`): `CAS expects p1, tid 12 → p2`, with `⚠ p1 now → p3` when
 * the free pointer it read has changed since. Null outside the fast path's read–CAS window.
 */
export function snapshotLine(ctx: ContextView, view: View, objects: ReadonlyMap<string, ObjectView>): SnapshotLine | null {
  const s = ctx.snapshot;
  // SLAB's fast path is a plain push or pop with irqs off: nothing read to compare later.
  if (s === null || view.allocator === 'slab') return null;
  // What it has read so far is the model's to say (SnapshotView.objectRead, nextRead).
  const alloc = s.op === 'alloc';
  const tid = TID_FASTPATHS.has(view.variant.fastpath) ? `tid ${s.tid}` : null;
  const where = s.cpu === ctx.cpu ? '' : ` (CPU ${s.cpu})`;
  const verb = STORE_FASTPATHS.has(view.variant.fastpath) ? 'read' : 'CAS expects';
  const read = s.objectRead;
  const on = s.cpu === ctx.cpu ? '' : ` (read on CPU ${s.cpu})`;
  if (!read) {
    if (tid === null) return null;
    return { text: `  holds ${tid}${where}`, words: `${ctx.id} holds ${tid}${on}.`, stale: false, object: null, next: null };
  }
  const expects = [s.object, tid].filter((x) => x !== null).join(', ');
  // A free installs the object it frees; an alloc the free pointer it read (once read).
  const installs = alloc ? (s.nextRead ? s.next : null) : s.next;
  let text = `  ${verb} ${expects}${where}${installs === null ? '' : ` → ${installs}`}`;
  let words = `${ctx.id}'s ${verb === 'read' ? 'update has read' : 'cmpxchg expects'} ${expects}${on}${installs === null ? '' : ` and installs ${installs}`}`;
  let stale = false;
  if (alloc && installs !== null) {
    const fp = objects.get(s.object)?.fp;
    if (fp !== undefined && fp !== s.next) {
      stale = true;
      text += ` ⚠ ${s.object} now → ${fp}`;
      words += `, but ${s.object} now points to ${fp}: the next it read is stale`;
    }
  }
  return { text, words: `${words}.`, stale, object: alloc ? s.object : null, next: installs };
}

function contextLine(c: ContextView): string {
  const op = c.op === null ? (c.state === 'finished' ? 'done' : 'between ops') : c.op;
  const progress = opProgress(c);
  const at = c.label === null ? '' : ` · ${c.label}`;
  return `${contextMarker(c.kind)} ${c.id} ${c.state} · ${op} ${progress}${at}`;
}

/**
 * A context's lines in its CPU card, wrapped to the card: what it does, then what its fast path
 * holds (that line kept, blank, when empty, so a card does not jump as a fast path starts).
 */
export function contextTexts(
  ctx: ContextView,
  running: boolean,
  view: View,
  objects: ReadonlyMap<string, ObjectView>,
): { lines: { text: string; cls: string }[]; snap: SnapshotLine | null } {
  const lines = wrap(contextLine(ctx), CARD_CHARS, '  ').map((t) => ({ text: t, cls: running ? 'value strong' : 'muted' }));
  const snap = snapshotLine(ctx, view, objects);
  if (snap === null) lines.push({ text: '', cls: 'muted' });
  else for (const t of wrap(snap.text, CARD_CHARS, '    ')) lines.push({ text: t, cls: snap.stale ? 'value warn' : 'muted' });
  return { lines, snap };
}

/** What a SLUB CPU card needs of the stage being laid out. */
export interface SlubStage {
  readonly view: View;
  /** Room for a whole slab's objects on each CPU freelist (cards do not grow as slabs arrive). */
  readonly capacity: number;
  readonly showTid: boolean;
  readonly bandH: number;
  readonly contexts: (cpu: number) => ContextView[];
  readonly objectByName: ReadonlyMap<string, ObjectView>;
  readonly slabByName: ReadonlyMap<string, SlabView>;
  readonly gridPos: ReadonlyMap<string, GridPos>;
  readonly sel: string | null;
  readonly uniqueKeys: Keyer;
}

/** Height of a SLUB CPU card (its tid, freelist rows, slab, partial list, contexts, lines band). */
export function slubCpuHeight(st: SlubStage, c: CpuView): number {
  const { capacity, showTid, bandH, view, objectByName } = st;
  const perRowChips = PER_ROW_CHIPS;
  const perRowRefs = PER_ROW_REFS;
  const ctxByCpu = st.contexts;
  const flRows = Math.max(Math.ceil(capacity / perRowChips), Math.ceil(c.freelist.length / perRowChips), 1);
  const partialRows = Math.max(1, Math.ceil(c.partial.length / perRowRefs));
  // Two lines per context: what it does, and what its fast path holds (kept even when empty,
  // so the cards do not jump as a fast path starts and ends).
  const ctxs = ctxByCpu(c.cpu);
  const ctxLines = ctxs.length === 0 ? 2 : ctxs.reduce((n, ctx) => n + contextTexts(ctx, false, view, objectByName).lines.length, 0);
  return 22 + ROW * ((showTid ? 1 : 0) + flRows + 1 + partialRows + 1) + CTX_LINE * ctxLines + 14 + bandH;
}

/** A CPU card under SLUB, at (x, top), `h` high. */
export function layoutSlubCpu(
  st: SlubStage,
  c: CpuView,
  box: { x: number; top: number; h: number },
  out: { cards: CardShape[]; chips: ChipShape[]; refs: RefShape[]; arrows: ArrowShape[] },
): void {
  const { view, capacity, showTid, objectByName, slabByName, gridPos, sel, uniqueKeys } = st;
  const { x, top, h } = box;
  const { cards, chips, refs, arrows } = out;
  const perRowChips = PER_ROW_CHIPS;
  const perRowRefs = PER_ROW_REFS;
  const ctxByCpu = st.contexts;
  const running = view.contexts.find((ctx) => ctx.id === c.running);
  const texts: TextShape[] = [
    text(LABEL_X, 15, `CPU ${c.cpu}`, 'title on-band'),
    text(
      CARD_W - LABEL_X,
      15,
      running === undefined ? 'idle' : `running ${contextMarker(running.kind)} ${running.id}`,
      'on-band',
      'end',
    ),
  ];
  let ry = 22 + ROW - 6;
  if (showTid) {
    texts.push(text(LABEL_X, ry + 4, 'tid', 'label'), text(VALUE_X, ry + 4, tidText(c, view.tidStep)));
    ry += ROW;
  }
  texts.push(text(LABEL_X, ry + 4, 'freelist', 'label'));
  if (c.freelist.length === 0) texts.push(text(VALUE_X, ry + 4, 'NULL', 'muted'));
  const flKeys = uniqueKeys('fl', c.freelist);
  const flPos: Point[] = [];
  c.freelist.forEach((name, j) => {
    const cx = x + VALUE_X + CHIP_W / 2 + (j % perRowChips) * CHIP_STEP;
    const cy = top + ry + Math.floor(j / perRowChips) * ROW;
    flPos.push({ x: cx, y: cy });
    const obj = objectByName.get(name);
    const st = obj === undefined ? objectState(LOST) : objectState(obj.owner);
    chips.push({
      key: flKeys[j] ?? `fl:${name}`,
      object: name,
      x: cx,
      y: cy,
      state: st.state === 'free' ? 'free' : st.state,
      cpu: c.cpu,
      label: '',
      from: gridPos.get(name) ?? null,
      selected: sel === name,
    });
    const prev = flPos[j - 1];
    if (prev !== undefined) {
      arrows.push({ key: `link:${flKeys[j] ?? name}`, d: linkPath(prev, { x: cx, y: cy }, CHIP_W / 2), kind: 'link' });
    }
  });
  const flRows = Math.max(Math.ceil(capacity / perRowChips), Math.ceil(c.freelist.length / perRowChips), 1);
  ry += ROW * flRows;
  texts.push(text(LABEL_X, ry + 4, 'slab', 'label'));
  if (c.page === null) texts.push(text(VALUE_X, ry + 4, 'NULL', 'muted'));
  else refs.push(slabRef(slabByName, uniqueKeys('ref', [c.page])[0] ?? c.page, c.page, x + VALUE_X, top + ry - 10, sel));
  ry += ROW;
  texts.push(text(LABEL_X, ry + 4, 'partial', 'label'));
  if (c.partial.length === 0) texts.push(text(VALUE_X, ry + 4, 'empty', 'muted'));
  const pKeys = uniqueKeys('ref', c.partial);
  c.partial.forEach((name, j) => {
    const rx = x + VALUE_X + (j % perRowRefs) * REF_STEP;
    const rowY = top + ry - 10 + Math.floor(j / perRowRefs) * ROW;
    refs.push(slabRef(slabByName, pKeys[j] ?? `ref:${name}`, name, rx, rowY, sel));
    if (j % perRowRefs !== 0) {
      arrows.push({
        key: `link:${pKeys[j] ?? name}`,
        d: `M${r1(rx - 11)},${r1(rowY + 10)} L${r1(rx - 2)},${r1(rowY + 10)}`,
        kind: 'link',
      });
    }
  });
  ry += ROW * Math.max(1, Math.ceil(c.partial.length / perRowRefs));
  texts.push(
    text(
      LABEL_X,
      ry + 4,
      `irqs ${c.irqsEnabled ? 'on' : 'OFF'} · preempt ${c.preemptCount} · ${c.cycles} cycles`,
      'value',
    ),
  );
  ry += ROW - 4;
  const ctxs = ctxByCpu(c.cpu);
  if (ctxs.length === 0) texts.push(text(LABEL_X, ry + 4, 'no context here', 'muted'));
  let line = 0;
  ctxs.forEach((ctx) => {
    const { lines, snap } = contextTexts(ctx, ctx.id === c.running, view, objectByName);
    for (const l of lines) {
      if (l.text !== '') texts.push(text(LABEL_X, ry + 4 + line * CTX_LINE, l.text, l.cls));
      line++;
    }
    if (snap === null) return;
    const from = snap.object === null ? undefined : gridPos.get(snap.object);
    const to = snap.next === null ? undefined : gridPos.get(snap.next);
    if (snap.stale && from !== undefined && to !== undefined) {
      arrows.push({ key: `snap:${ctx.id}`, d: arcPath(from, to, CHIP_H), kind: 'snap' });
    }
  });
  cards.push({ key: `cpu:${c.cpu}`, kind: 'cpu', x, y: top, w: CARD_W, h, cpu: c.cpu, faded: false, selected: false, texts, marks: [] });
}
