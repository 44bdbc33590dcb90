// The stage's layout: a pure function of the view (and the step's event) to arrays of shapes
// with stable keys, which the D3 renderer joins (stage.view.ts). No DOM, no React, no store:
// unit-tested in stage.layout.test.ts.
//
// Keys are the identities that animate:
//   cpu:<k>, slab:<name>, node:<n>   the cards
//   obj:<name>                        an object's chip in its slab's grid (where it lives)
//   fl:<name>                         the same object as a link of a CPU freelist chain (enters
//                                     from, and leaves to, its grid position: it *moves*)
//   ref:<slab>                        a slab as a token on a CPU (page, partial) or node list, so a
//                                     slab taken from the node partial list slides to the CPU
//   fp:<name>, link:<name>            free-pointer arrows (grid) and chain links (freelist)
// and under SLAB (no freelist chain, tid, CPU slab or CPU partial list):
//   arr:<name>                        an object in an array_cache (a CPU's or a node's shared
//                                     one): it moves from array to array, and from and to its
//                                     grid position, like a freelist link
//   ghost:<name>                      a stale copy a flush left at the bottom of a CPU's array
import type { ArrayView, BarnView, ContextView, CpuView, NodeView, ObjectOwner, ObjectView, SheafView, SimEvent, SlabNodeView, SlabOwner, SlabView, View } from '../sim/types';
import { arcPath, CHAR_W, contextMarker, linkPath, r1, type Point } from './geometry';
import { gapText, stackHeightRows, stackRows } from './stack.layout';
import { layoutTokens, TOKEN_BAND_H, TOKEN_ROWS, type TieShape, type TokenLayout } from './tokens.layout';

export const CARD_W = 296;
export const GAP = 12;
export const CHIP_W = 34;
export const CHIP_H = 20;
const CHIP_STEP = CHIP_W + 14;
const REF_W = 44;
const REF_STEP = REF_W + 12;
const LABEL_X = 10;
const VALUE_X = 76;
const ROW = 24;
/** Height of the step strip's first line and of each line after it. */
const STRIP_LINE = 18;
/** Height of a context's line in a CPU card. */
const CTX_LINE = 16;
/** Characters that fit on one line of a card, inside its margins. */
const CARD_CHARS = Math.floor((CARD_W - 2 * LABEL_X) / CHAR_W);
/**
 * The type scale (issue 13, VISUAL "lay out for the box you are given"): the stage is laid
 * out in units of its 12 px font and drawn at a scale the container decides. More columns are
 * used only while the scale stays at or above MIN_SCALE; it never grows past MAX_SCALE.
 */
export const MIN_SCALE = 0.95;
export const MAX_SCALE = 1.35;

/** `stale`: a copy left in a SLAB array by a flush that already gave the object back. */
/** `double`: held by two variables at once (the ABA's outcome: one object handed out twice). */
export type ObjectState = 'free' | 'held' | 'inflight' | 'lost' | 'stale' | 'double';

export interface TextShape {
  readonly x: number;
  readonly y: number;
  readonly text: string;
  /** CSS class: `title`, `label`, `value`, `muted`, `warn`. */
  readonly cls: string;
  readonly anchor: 'start' | 'middle' | 'end';
}

/** A path drawn inside a card, in card coordinates (a stack's slots, a batch bracket). */
export interface MarkShape {
  readonly d: string;
  /** CSS class: `tube` (an array's outline), `divider` (between its slots), `bracket`. */
  readonly cls: string;
}

export interface CardShape {
  readonly key: string;
  readonly kind: 'cpu' | 'slab' | 'node';
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  /** The CPU whose hue marks the card (its header band), if any. */
  readonly cpu: number | null;
  /** A discarded slab: drawn faded. */
  readonly faded: boolean;
  /** A SLUB slab's `frozen` bit: the card frosts over when a CPU freezes it, thaws when unfrozen. */
  readonly frozen?: boolean;
  readonly selected: boolean;
  /** Texts in card coordinates. */
  readonly texts: readonly TextShape[];
  /** Paths in card coordinates, under the chips (SLAB's stacks; none under SLUB). */
  readonly marks: readonly MarkShape[];
}

export interface ChipShape {
  readonly key: string;
  readonly object: string;
  /** Centre. */
  readonly x: number;
  readonly y: number;
  readonly state: ObjectState;
  /** The CPU whose freelist holds it (its outline hue), if any. */
  readonly cpu: number | null;
  /** Under the chip: the holder's variable, `⇢T` in flight, `⚠ lost`. */
  readonly label: string;
  /** Where an entering chip comes from (its grid position), if elsewhere. */
  readonly from: Point | null;
  readonly selected: boolean;
}

export interface RefShape {
  readonly key: string;
  readonly slab: string;
  /** Top-left. */
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly text: string;
  readonly frozen: boolean;
  readonly selected: boolean;
}

export interface ArrowShape {
  readonly key: string;
  readonly d: string;
  /**
   * `fp` a free pointer on a freelist, `stale` one left in an object that is not free, `link`
   * a chain link, `snap` a free pointer a fast path read and still holds though it has changed.
   */
  readonly kind: 'fp' | 'stale' | 'link' | 'snap';
}

export interface LockShape {
  readonly key: string;
  readonly x: number;
  readonly y: number;
  readonly held: boolean;
  readonly holderCpu: number | null;
}

export interface HalfShape {
  readonly key: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly field: string;
  readonly expected: string;
  readonly actual: string;
  readonly match: boolean;
}

/** The step strip at the top: what the last step did; a failed cmpxchg's halves. */
export interface StripShape {
  readonly texts: readonly TextShape[];
  readonly cpu: number | null;
  readonly failed: boolean;
  readonly halves: readonly HalfShape[];
  /** Height of the strip (its text wraps to the stage's width). */
  readonly h: number;
}

export interface StageShapes {
  readonly width: number;
  readonly height: number;
  readonly strip: StripShape;
  /**
   * Where the body (everything under the strip) starts. The shapes below are in the body's
   * coordinates: a strip that wraps to one more line moves the body as one, not each of its
   * elements (a huge scenario's thousands of chips).
   */
  readonly bodyY: number;
  readonly cards: readonly CardShape[];
  readonly chips: readonly ChipShape[];
  readonly refs: readonly RefShape[];
  readonly arrows: readonly ArrowShape[];
  readonly locks: readonly LockShape[];
  /** The cache lines each CPU holds, as tokens at the bottom of its card (tokens.layout.ts). */
  readonly tokens: TokenLayout['tokens'];
  readonly ties: readonly TieShape[];
  readonly tokenLabels: TokenLayout['labels'];
}

export interface StageOptions {
  /** CPU and slab cards per row (2 at slide size, 1 on a phone). */
  readonly columns: number;
  /** The selected object or slab name (outlined everywhere it appears). */
  readonly selection: string | null;
  /** Parts a lesson holds back until it introduces them (lessons' `reveal`); default: all shown. */
  readonly hide?: { readonly tid?: boolean; readonly lines?: boolean };
}

const text = (
  x: number,
  y: number,
  t: string,
  cls = 'value',
  anchor: TextShape['anchor'] = 'start',
): TextShape => ({ x, y, text: t, cls, anchor });

export function clip(s: string, n: number): string {
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}

/**
 * Word-wrap `s` into lines of at most `n` characters (the stage's font is monospace), breaking
 * after a space; a word longer than a line is split. The stage never cuts text: it wraps it.
 */
export function wrap(s: string, n: number, indent = ''): string[] {
  const width = Math.max(8, n);
  const lines: string[] = [];
  let rest = s;
  while (rest.length > width) {
    let cut = rest.lastIndexOf(' ', width);
    if (cut <= indent.length) cut = width;
    lines.push(rest.slice(0, cut).trimEnd());
    rest = indent + rest.slice(cut).trimStart();
  }
  lines.push(rest);
  return lines;
}

/** Columns and scale for a container `px` wide (see MIN_SCALE). */
export function fitColumns(px: number, cards: number): { columns: number; scale: number } {
  let columns = 1;
  for (let c = Math.max(1, cards); c > 1; c--) {
    if (px / stageWidth(c) >= MIN_SCALE) {
      columns = c;
      break;
    }
  }
  return { columns, scale: Math.min(MAX_SCALE, px / stageWidth(columns)) };
}

export function stageWidth(columns: number): number {
  return columns * CARD_W + (columns + 1) * GAP;
}

/** `object·TID_STEP + cpu` (spec §3.1), the tid's decomposition shown beside it. */
export function tidText(c: CpuView, tidStep: number): string {
  return `${c.tid} = ${c.tidEvent}·${tidStep}+${c.tidCpu}`;
}

/** Who owns a slab, in words (never by colour alone). */
export function ownerText(owner: SlabOwner): string {
  switch (owner.kind) {
    case 'cpu':
      return `CPU ${owner.cpu} slab`;
    case 'cpuPartial':
      return `CPU ${owner.cpu} partial`;
    case 'nodePartial':
      return `node ${owner.node} partial`;
    // SLAB's other two node lists.
    case 'nodeFull':
      return `node ${owner.node} full`;
    case 'nodeFree':
      return `node ${owner.node} free`;
    case 'full':
      return 'full, on no list';
    case 'private':
      return 'private (being set up)';
    case 'destroying':
      return 'destroying (to the page allocator)';
    case 'discarded':
      return 'discarded';
    case 'none':
      return 'none';
    case 'isolated':
      return `isolated by ${owner.ctx}'s refill`;
  }
}

/** An object's state from its `owner` (view.rs ObjectView). */
export function objectState(owner: ObjectOwner): { state: ObjectState; cpu: number | null; label: string } {
  switch (owner.kind) {
    case 'user':
      return { state: 'held', cpu: null, label: owner.var };
    case 'inflight':
      return { state: 'inflight', cpu: null, label: `⇢${owner.ctx}` };
    case 'lost':
      return { state: 'lost', cpu: null, label: '⚠ lost' };
    case 'cpu':
      return { state: 'free', cpu: owner.cpu, label: '' };
    default:
      return { state: 'free', cpu: null, label: '' };
  }
}

const LOST: ObjectOwner = { kind: 'lost' };

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

/** Fast paths whose cmpxchg compares the tid too (slub-algorithm §2.16). */
const TID_FASTPATHS = new Set(['preempt-disable', 'tid-loop', 'tid-direct', 'tid-unguarded']);
/** Fast paths with no cmpxchg: the update is a plain store with irqs off (E0). */
const STORE_FASTPATHS = new Set(['irq-disable']);

export interface SnapshotLine {
  readonly text: string;
  /** The same in a sentence (for the stage's description to screen readers). */
  readonly words: string;
  /** The `next` it read is no longer the object's free pointer (the ABA of spec §3.4). */
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

/**
 * Which op a context is at, 1-based, of how many: `opIndex` is the index of the next op to
 * start, so the op in progress is the `opIndex`-th; between ops the next one is shown.
 */
export function opProgress(c: ContextView): string {
  return `${c.op === null ? Math.min(c.opIndex + 1, c.ops) : c.opIndex}/${c.ops}`;
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
function contextTexts(
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

/**
 * Unique keys across the whole stage: a slab can be on two lists at once mid-operation, and a
 * broken freelist can name an object twice. The first sighting keeps the plain key (it animates).
 */
function keyer(): (prefix: string, names: readonly string[]) => string[] {
  const seen = new Map<string, number>();
  return (prefix, names) =>
    names.map((n) => {
      const base = `${prefix}:${n}`;
      const k = (seen.get(base) ?? 0) + 1;
      seen.set(base, k);
      return k === 1 ? base : `${base}#${k}`;
    });
}

interface GridPos {
  readonly x: number;
  readonly y: number;
}

export function layoutStage(
  view: View,
  event: SimEvent | undefined,
  options: StageOptions,
): StageShapes {
  // Never more columns than CPUs, but two for one CPU: its slabs go beside it.
  const columns = Math.max(1, Math.min(options.columns, Math.max(view.cpus.length, 2)));
  const width = columns * CARD_W + (columns + 1) * GAP;
  const sel = options.selection;
  const showTid = options.hide?.tid !== true;
  const bandH = options.hide?.lines === true ? 0 : TOKEN_BAND_H;
  const uniqueKeys = keyer();
  const cards: CardShape[] = [];
  const chips: ChipShape[] = [];
  const refs: RefShape[] = [];
  const arrows: ArrowShape[] = [];
  const locks: LockShape[] = [];
  const slabByName = new Map(view.slabs.map((s) => [s.name, s]));
  // (The first slab holding a name wins, as a search in slab order would find it.)
  const objectByName = new Map(view.slabs.flatMap((s) => s.objects.map((o) => [o.name, o] as const)).reverse());
  // The variables holding each object: two means it was handed out twice, drawn as such.
  const holders = new Map<string, string[]>();
  for (const v of view.vars) if (v.held && v.object !== null) holders.set(v.object, [...(holders.get(v.object) ?? []), v.name]);
  // Room for a whole slab's objects on each CPU freelist, from the start (the cache's
  // objectsPerSlab), so the cards do not grow when the first slab arrives.
  const capacity = Math.max(1, view.cache.objectsPerSlab, ...view.slabs.map((s) => s.capacity));
  const colX = (i: number) => GAP + (i % columns) * (CARD_W + GAP);

  const strip = layoutStrip(view, event, width);
  const bodyY = strip.h + GAP;
  let y = 0;

  // Slabs first (their grid positions are where freelist chips come from), placed after the
  // CPU cards, whose height we need: lay the CPUs out in two passes.
  const perRowChips = Math.floor((CARD_W - VALUE_X - LABEL_X + 14) / CHIP_STEP);
  const perRowRefs = Math.floor((CARD_W - VALUE_X - LABEL_X + 12) / REF_STEP);
  const ctxByCpu = (cpu: number) => view.contexts.filter((c) => c.cpu === cpu);
  const slab = view.allocator === 'slab';
  const sheaves = view.allocator === 'sheaves';
  const cpuHeight = (c: CpuView) => {
    if (slab) return slabCpuHeight(c, ctxByCpu(c.cpu).length) + bandH;
    if (sheaves) return sheafCpuHeight(view, c) + bandH;
    const flRows = Math.max(Math.ceil(capacity / perRowChips), Math.ceil(c.freelist.length / perRowChips), 1);
    const partialRows = Math.max(1, Math.ceil(c.partial.length / perRowRefs));
    // Two lines per context: what it does, and what its fast path holds (kept even when empty,
    // so the cards do not jump as a fast path starts and ends).
    const ctxs = ctxByCpu(c.cpu);
    const ctxLines = ctxs.length === 0 ? 2 : ctxs.reduce((n, ctx) => n + contextTexts(ctx, false, view, objectByName).lines.length, 0);
    return 22 + ROW * ((showTid ? 1 : 0) + flRows + 1 + partialRows + 1) + CTX_LINE * ctxLines + 14 + bandH;
  };
  const cpuRows: CpuView[][] = [];
  view.cpus.forEach((c, i) => {
    const row = Math.floor(i / columns);
    (cpuRows[row] ??= []).push(c);
  });
  const cpuTop: number[] = [];
  const cpuRowH: number[] = [];
  for (const row of cpuRows) {
    cpuTop.push(y);
    const h = Math.max(...row.map(cpuHeight));
    cpuRowH.push(h);
    y += h + GAP;
  }

  // Slab cards and their grids.
  const gridPerRow = Math.floor((CARD_W - 2 * LABEL_X + 14) / CHIP_STEP);
  const gridPos = new Map<string, GridPos>();
  const slabH = (s: SlabView) => 62 + Math.max(1, Math.ceil(s.objects.length / gridPerRow)) * 50;
  // Slabs fill the columns like a masonry wall: each goes to the column whose bottom is highest,
  // so with one CPU on two columns the slab sits beside it, in view, not below the fold.
  const colBottom = Array.from({ length: columns }, (_, i) => {
    const lastRow = cpuRows.length - 1;
    const inLastRow = (cpuRows[lastRow]?.length ?? 0) > i;
    if (lastRow < 0) return y;
    return inLastRow ? y : (cpuTop[lastRow] ?? y);
  });
  view.slabs.forEach((s) => {
    let col = 0;
    colBottom.forEach((b, i) => {
      if (b < (colBottom[col] ?? 0)) col = i;
    });
    const x = GAP + col * (CARD_W + GAP);
    const top = colBottom[col] ?? y;
    const slabRowH = slabH(s);
    colBottom[col] = top + slabRowH + GAP;
    const owner = ownerText(s.owner);
    const texts: TextShape[] = [
      text(LABEL_X, 16, `slab ${s.name}`, 'title'),
      text(CARD_W - LABEL_X, 16, owner, 'muted', 'end'),
      slab
        ? text(LABEL_X, 34, clip(`active ${s.inuse}/${s.capacity} · ${freeIndexText(s)}`, CARD_CHARS), 'value')
        : text(
            LABEL_X,
            34,
            `inuse ${s.inuse}/${s.capacity}${s.frozen ? ' · ❄ frozen' : ' · not frozen'}${s.slabLocked ? ' · slab_lock held' : ''}`,
            'value',
          ),
    ];
    // SLAB: the order the index array hands the free objects out in, over their chips.
    const order = slab ? new Map(s.freelist.map((name, k) => [name, k + 1] as const)) : undefined;
    cards.push({
      key: `slab:${s.name}`,
      kind: 'slab',
      x,
      y: top,
      w: CARD_W,
      h: slabRowH,
      cpu: cpuOfOwner(s.owner),
      faded: s.owner.kind === 'discarded',
      frozen: !slab && s.frozen,
      selected: sel === s.name,
      texts,
      marks: [],
    });
    s.objects.forEach((o, j) => {
      const cx = x + LABEL_X + CHIP_W / 2 + (j % gridPerRow) * CHIP_STEP;
      const cy = top + 70 + Math.floor(j / gridPerRow) * 50;
      gridPos.set(o.name, { x: cx, y: cy });
      const nth = order?.get(o.name);
      if (nth !== undefined && s.owner.kind !== 'discarded') texts.push(text(cx - x, cy - top - CHIP_H / 2 - 4, `${nth}`, 'muted', 'middle'));
      const twice = holders.get(o.name) ?? [];
      const st =
        twice.length > 1
          ? { state: 'double' as const, cpu: null, label: twice.map((v) => `⚠${v}`).join('\n') }
          : slab
            ? slabObjectState(o.owner)
            : objectState(o.owner);
      chips.push({
        key: `obj:${o.name}`,
        object: o.name,
        x: cx,
        y: cy,
        state: st.state,
        cpu: st.cpu,
        label: st.label,
        from: null,
        selected: sel === o.name,
      });
    });
  });
  // Free-pointer arrows, once every grid position is known (a pointer may cross slabs).
  for (const s of view.slabs) {
    for (const o of s.objects) {
      const from = gridPos.get(o.name);
      const to = gridPos.get(o.fp);
      if (from === undefined || to === undefined) continue;
      const free = o.owner.kind === 'slab' || o.owner.kind === 'cpu';
      arrows.push({ key: `fp:${o.name}`, d: arcPath(from, to, CHIP_H), kind: free ? 'fp' : 'stale' });
    }
  }
  const slabsBottom = Math.max(y, ...colBottom);

  // CPU cards.
  view.cpus.forEach((c, i) => {
    const row = Math.floor(i / columns);
    const x = colX(i);
    const top = cpuTop[row] ?? 0;
    const h = cpuRowH[row] ?? 0;
    if (slab) {
      layoutSlabCpu(c, view, { x, y: top, h }, { cards, chips, arrows }, gridPos, sel, uniqueKeys);
      return;
    }
    if (sheaves) {
      layoutSheafCpu(c, view, { x, y: top, h }, { cards, chips }, gridPos, sel, uniqueKeys);
      return;
    }
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
  });

  // Nodes: the partial list and list_lock, full width under the slabs.
  y = slabsBottom;
  const nodeW = width - 2 * GAP;
  for (const n of view.nodes) {
    const out = { cards, chips, refs, arrows, locks };
    const h =
      n.slab === null
        ? layoutNode(n, y, nodeW, out, slabByName, view.contexts, sel, uniqueKeys)
        : layoutSlabNode(n, n.slab, y, nodeW, out, slabByName, view, gridPos, sel, uniqueKeys);
    y += h + GAP;
    if (n.barn !== undefined) y += layoutBarn(n.node, n.barn, y, nodeW, { cards, locks }, view.contexts) + GAP;
  }

  // The cache lines, last: a moved line's token is tied to what it holds, wherever that is.
  const cardAt = new Map(cards.map((c) => [c.key, c]));
  const bands = bandH === 0 ? [] : view.cpus.map((c) => {
    const card = cardAt.get(`cpu:${c.cpu}`);
    const x = (card?.x ?? 0) + LABEL_X;
    return { cpu: c.cpu, x, y: (card?.y ?? 0) + (card?.h ?? 0) - bandH, w: CARD_W - 2 * LABEL_X, rows: TOKEN_ROWS };
  });
  const holder = (key: string, dx: number, dy: number): Point | null => {
    const card = cardAt.get(key);
    return card === undefined ? null : { x: card.x + dx, y: card.y + dy };
  };
  const { tokens, ties, labels } = layoutTokens(view.lines, event, bands, (l) => {
    const h = l.holds;
    switch (h.kind) {
      case 'cache':
        return null;
      case 'cpu':
        return holder(`cpu:${h.cpu}`, CARD_W / 2, 10);
      case 'node':
        return holder(`node:${h.node}`, 40, 12);
      case 'slab':
        return holder(`slab:${h.slab}`, 30, 12);
      case 'objects': {
        const p = gridPos.get(h.objects[0] ?? '');
        return p === undefined ? null : { x: p.x, y: p.y - CHIP_H / 2 };
      }
      case 'barn':
        return holder(`barn:${h.node}`, 40, 12);
      case 'sheaf': {
        // A CPU's main or spare: over its stack; a barn's: its barn; in flight: nowhere.
        const cpu = view.cpus.find((c) => c.sheaves?.main.name === h.sheaf || c.sheaves?.spare?.name === h.sheaf);
        if (cpu !== undefined) return holder(`cpu:${cpu.cpu}`, cpu.sheaves?.main.name === h.sheaf ? SHEAF_COL / 2 : (3 * SHEAF_COL) / 2, SHEAF_LINE_Y);
        const node = view.nodes.find((n) => n.barn?.full.some((f) => f.name === h.sheaf) === true || n.barn?.empty.some((e) => e.name === h.sheaf) === true);
        return node === undefined ? null : holder(`barn:${node.node}`, 40, 12);
      }
    }
  });

  return { width, height: bodyY + y, strip, bodyY, cards, chips, refs, arrows, locks, tokens, ties, tokenLabels: labels };
}

function cpuOfOwner(owner: SlabOwner): number | null {
  return owner.kind === 'cpu' || owner.kind === 'cpuPartial' ? owner.cpu : null;
}

function slabRef(
  slabs: ReadonlyMap<string, SlabView>,
  key: string,
  name: string,
  x: number,
  y: number,
  sel: string | null,
): RefShape {
  const frozen = slabs.get(name)?.frozen ?? false;
  return { key, slab: name, x, y, w: REF_W, h: 20, text: frozen ? `${name} ❄` : name, frozen, selected: sel === name };
}

function layoutNode(
  n: NodeView,
  y: number,
  w: number,
  out: { cards: CardShape[]; refs: RefShape[]; arrows: ArrowShape[]; locks: LockShape[] },
  slabs: ReadonlyMap<string, SlabView>,
  contexts: readonly ContextView[],
  sel: string | null,
  uniqueKeys: ReturnType<typeof keyer>,
): number {
  const { cards, refs, arrows, locks } = out;
  // The list_lock block sits at the right of a wide card, under the partial list in a narrow one.
  const wide = w >= VALUE_X + 4 * REF_STEP + NODE_RIGHT_W;
  const perRow = Math.max(1, Math.floor((w - VALUE_X - (wide ? NODE_RIGHT_W : LABEL_X)) / REF_STEP));
  const rows = Math.max(1, Math.ceil(n.partial.length / perRow));
  const listH = 22 + rows * ROW + 6;
  const lockX = wide ? w - 220 : LABEL_X;
  const lockY = wide ? 0 : listH;
  const h = wide ? Math.max(listH, 60) : listH + 58;
  const holder = contexts.find((c) => c.id === n.listLock);
  const texts: TextShape[] = [
    text(LABEL_X, 16, `node ${n.node}`, 'title'),
    text(LABEL_X + 64, 16, `nr_partial ${n.nrPartial}`, 'muted'),
    text(LABEL_X, 38, 'partial', 'label'),
    text(lockX + 22, lockY + 16, 'list_lock', 'label'),
    text(
      lockX + 22,
      lockY + 34,
      holder === undefined ? 'free' : `held by ${contextMarker(holder.kind)} ${holder.id} (CPU ${holder.cpu})`,
      holder === undefined ? 'muted' : 'value strong',
    ),
    text(lockX + 22, lockY + 50, n.waiters.length === 0 ? 'no waiter' : `waiting: ${n.waiters.join(', ')}`, n.waiters.length === 0 ? 'muted' : 'value warn'),
  ];
  if (n.partial.length === 0) texts.push(text(VALUE_X, 38, 'empty', 'muted'));
  const keys = uniqueKeys('ref', n.partial);
  n.partial.forEach((name, j) => {
    const rx = GAP + VALUE_X + (j % perRow) * REF_STEP;
    const ry = y + 24 + Math.floor(j / perRow) * ROW;
    refs.push(slabRef(slabs, keys[j] ?? `ref:${name}`, name, rx, ry, sel));
    if (j % perRow !== 0) {
      arrows.push({ key: `link:${keys[j] ?? name}`, d: `M${r1(rx - 11)},${r1(ry + 10)} L${r1(rx - 2)},${r1(ry + 10)}`, kind: 'link' });
    }
  });
  locks.push({ key: `lock:${n.node}`, x: GAP + lockX + 8, y: y + lockY + 26, held: holder !== undefined, holderCpu: holder?.cpu ?? null });
  cards.push({ key: `node:${n.node}`, kind: 'node', x: GAP, y, w, h, cpu: null, faded: false, selected: false, texts, marks: [] });
  return h;
}

// ----- SLAB (spec Appendix A): array_cache stacks, the node's three lists and shared array -----

/** Rows of an array_cache stack at most: a bigger array folds its middle (stack.layout.ts). */
export const STACK_ROWS = 8;
const SLOT_H = 24;
const SLOT_W = CHIP_W + 8;
/** In a stack block: slot indices end here, slots are centred here, then the bracket, notes. */
const IDX_X = 58;
const SLOT_CX = 84;
const BRACKET_X = SLOT_CX + SLOT_W / 2 + 4;
const NOTE_X = BRACKET_X + 11;
/** A CPU card under SLAB: the array_cache line, then the stack's top. */
const AC_LINE_Y = 40;
const AC_STACK_TOP = 50;
/** A SLAB node card: where the slab lists' tokens start (after `slabs_partial`). */
const LIST_X = 112;
/** The width of a node card's right column (list_lock, then the shared array). */
const NODE_RIGHT_W = 230;

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

function contextLines(ctx: ContextView): [string, string] {
  const op = ctx.op === null ? (ctx.state === 'finished' ? 'done' : 'between ops') : ctx.op;
  const progress = opProgress(ctx);
  return [
    clip(`${contextMarker(ctx.kind)} ${ctx.id} ${ctx.state} · ${op} ${progress}`, CARD_CHARS),
    ctx.label === null ? '' : clip(`  at ${ctx.label}`, CARD_CHARS),
  ];
}

/** Height of a CPU card under SLAB: the array_cache stack, the irq line, two lines per context. */
function slabCpuHeight(c: CpuView, contexts: number): number {
  const rows = c.arrayCache === null ? 1 : stackHeightRows(c.arrayCache, STACK_ROWS);
  return AC_STACK_TOP + rows * SLOT_H + 20 + 15 + 2 * CTX_LINE * Math.max(1, contexts);
}

interface StackPlace {
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
function layoutStack(
  a: ArrayView,
  p: StackPlace,
  out: { chips: ChipShape[]; texts: TextShape[]; marks: MarkShape[] },
  objects: ReadonlyMap<string, ObjectView>,
  gridPos: ReadonlyMap<string, GridPos>,
  sel: string | null,
  uniqueKeys: ReturnType<typeof keyer>,
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

/** A CPU card under SLAB: its array_cache as a stack; no tid, freelist, CPU slab or partial list. */
function layoutSlabCpu(
  c: CpuView,
  view: View,
  box: { x: number; y: number; h: number },
  out: { cards: CardShape[]; chips: ChipShape[]; arrows: ArrowShape[] },
  gridPos: ReadonlyMap<string, GridPos>,
  sel: string | null,
  uniqueKeys: ReturnType<typeof keyer>,
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
  texts.push(text(LABEL_X, irqY, `irqs ${c.irqsEnabled ? 'on' : 'OFF'} · preempt ${c.preemptCount} · ${c.cycles} cycles`, 'value'));
  const ctxs = view.contexts.filter((ctx) => ctx.cpu === c.cpu);
  if (ctxs.length === 0) texts.push(text(LABEL_X, irqY + 20, 'no context here', 'muted'));
  ctxs.forEach((ctx, j) => {
    const y0 = irqY + 20 + j * 2 * CTX_LINE;
    const [what, at] = contextLines(ctx);
    texts.push(text(LABEL_X, y0, what, ctx.id === c.running ? 'value strong' : 'muted'));
    if (at !== '') texts.push(text(LABEL_X, y0 + CTX_LINE, at, 'muted'));
  });
  out.cards.push({ key: `cpu:${c.cpu}`, kind: 'cpu', x: box.x, y: box.y, w: CARD_W, h: box.h, cpu: c.cpu, faded: false, selected: false, texts, marks });
}

/**
 * A node under SLAB: `free_objects` against `free_limit`, the three slab lists (partial, full,
 * free) as slab tokens, then list_lock and the shared array in a right-hand column (below the
 * lists on a narrow stage).
 */
function layoutSlabNode(
  n: NodeView,
  sn: SlabNodeView,
  y: number,
  w: number,
  out: { cards: CardShape[]; chips: ChipShape[]; refs: RefShape[]; arrows: ArrowShape[]; locks: LockShape[] },
  slabs: ReadonlyMap<string, SlabView>,
  view: View,
  gridPos: ReadonlyMap<string, GridPos>,
  sel: string | null,
  uniqueKeys: ReturnType<typeof keyer>,
): number {
  const wide = w >= LIST_X + 4 * REF_STEP + NODE_RIGHT_W;
  const texts: TextShape[] = [
    text(LABEL_X, 16, `node ${n.node}`, 'title'),
    text(LABEL_X + 60, 16, `total_slabs ${sn.totalSlabs} · free_slabs ${sn.freeSlabs}`, 'muted'),
    text(LABEL_X, 34, `free_objects ${sn.freeObjects} / free_limit ${sn.freeLimit}`, 'value'),
  ];
  const marks: MarkShape[] = [];
  const listRight = wide ? w - NODE_RIGHT_W - 10 : w - LABEL_X;
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
  const rx = wide ? w - NODE_RIGHT_W : 6;
  const ry = wide ? 0 : listsBottom;
  const holder = view.contexts.find((c) => c.id === n.listLock);
  texts.push(
    text(rx + 22, ry + 16, 'list_lock', 'label'),
    text(
      rx + 22,
      ry + 34,
      holder === undefined ? 'free' : `held by ${contextMarker(holder.kind)} ${holder.id} (CPU ${holder.cpu})`,
      holder === undefined ? 'muted' : 'value strong',
    ),
    text(rx + 22, ry + 50, n.waiters.length === 0 ? 'no waiter' : `waiting: ${n.waiters.join(', ')}`, n.waiters.length === 0 ? 'muted' : 'value warn'),
  );
  out.locks.push({ key: `lock:${n.node}`, x: GAP + rx + 8, y: y + ry + 26, held: holder !== undefined, holderCpu: holder?.cpu ?? null });
  const sy = ry + 62;
  texts.push(text(rx + LABEL_X, sy + 12, 'shared', 'label'));
  let rightBottom = sy + 22;
  if (sn.shared === null) {
    texts.push(text(rx + 62, sy + 12, 'none (one CPU)', 'muted'));
  } else {
    texts.push(text(rx + 62, sy + 12, arrayText(sn.shared), 'value'));
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
  const h = Math.max(wide ? Math.max(listsBottom, rightBottom) : rightBottom, 60);
  out.cards.push({ key: `node:${n.node}`, kind: 'node', x: GAP, y, w, h, cpu: null, faded: false, selected: false, texts, marks });
  return h;
}

// ----- Linux 7.0 (spec Appendix C): per-CPU sheaves as stacks, the node's barn -----

/** A CPU card under 7.0: two columns, main on the left and spare on the right. */
const SHEAF_COL = CARD_W / 2;
/** The sheaves' caption line (`main h3 · 2/4`) and the stacks' top. */
const SHEAF_LINE_Y = 58;
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

function sheafCpuHeight(view: View, c: CpuView): number {
  const cap = c.sheaves?.main.capacity ?? 1;
  const rows = Math.min(Math.max(cap, 1), STACK_ROWS);
  const contexts = Math.max(1, view.contexts.filter((ctx) => ctx.cpu === c.cpu).length);
  return SHEAF_STACK_TOP + rows * SLOT_H + 20 + 15 + 2 * CTX_LINE * contexts + CTX_LINE * looseOn(view, c.cpu).length;
}

/** A CPU card under 7.0: the sheaves' lock, then main and spare as stacks; no tid, freelist or CPU slab. */
function layoutSheafCpu(
  c: CpuView,
  view: View,
  box: { x: number; y: number; h: number },
  out: { cards: CardShape[]; chips: ChipShape[] },
  gridPos: ReadonlyMap<string, GridPos>,
  sel: string | null,
  uniqueKeys: ReturnType<typeof keyer>,
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
  texts.push(text(LABEL_X, irqY, `irqs ${c.irqsEnabled ? 'on' : 'OFF'} · preempt ${c.preemptCount} · ${c.cycles} cycles`, 'value'));
  const ctxs = view.contexts.filter((ctx) => ctx.cpu === c.cpu);
  if (ctxs.length === 0) texts.push(text(LABEL_X, irqY + 20, 'no context here', 'muted'));
  ctxs.forEach((ctx, j) => {
    const y0 = irqY + 20 + j * 2 * CTX_LINE;
    const [what, at] = contextLines(ctx);
    texts.push(text(LABEL_X, y0, what, ctx.id === c.running ? 'value strong' : 'muted'));
    if (at !== '') texts.push(text(LABEL_X, y0 + CTX_LINE, at, 'muted'));
  });
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
function layoutBarn(
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

/** The strip: the last step in one line; a failed cmpxchg's halves, expected against actual. */
export function layoutStrip(view: View, event: SimEvent | undefined, width: number): StripShape {
  const chars = Math.floor((width - 2 * GAP - 16) / CHAR_W);
  const texts: TextShape[] = [];
  let y = 20;
  const lines = (t: string, cls: string) => {
    for (const l of wrap(t, chars, '  ')) {
      texts.push(text(GAP + 8, y, l, cls));
      y += STRIP_LINE;
    }
  };
  // A violated invariant is the step's headline, on the stage (and so in the embed and exports).
  const violation = view.violations.at(-1);
  const violated = () => {
    if (violation !== undefined) lines(`⚠ ${violation.invariant} violated (atomic step ${violation.step}): ${violation.message}`, 'value warn strong');
  };
  if (event === undefined) {
    lines(`${view.scenarioName}: nothing has happened yet`, 'muted');
    violated();
    return { texts, cpu: null, failed: violation !== undefined, halves: [], h: y - 2 };
  }
  const who = event.ctx === '(setup)' ? 'setup' : event.ctx;
  // No break inside a verdict (a no-break space): "✕" alone at a line's end says nothing.
  const verdict = event.ok === null ? '' : event.ok ? ' · ✓\u00a0succeeds' : ' · ✕\u00a0FAILS';
  lines(
    `atomic step ${event.step} · ${who} on CPU ${event.cpu} · ${event.label} · ${event.kind} ${event.target}${verdict} · ${event.cycles} cycles`,
    event.ok === false ? 'value warn strong' : 'value',
  );
  const halves: HalfShape[] = [];
  if (event.halves.length > 0) {
    texts.push(text(GAP + 8, y + 4, 'expected / actual', 'label'));
    // Beside the label when they fit, else one under another, each as wide as its words.
    const labelW = 19 * CHAR_W;
    const words = event.halves.map((h) => halfText(h.field, h.expected, h.actual).length * CHAR_W + 16);
    const side = labelW + words.reduce((a, b) => a + b + 8, 0) <= width - 2 * GAP - 16;
    let x = GAP + 8 + (side ? labelW : 0);
    let hy = side ? y - 10 : y + 12;
    event.halves.forEach((h, i) => {
      const w = words[i] ?? 0;
      halves.push({ key: `half:${h.field}`, x, y: hy, w, h: 24, field: h.field, expected: h.expected, actual: h.actual, match: h.expected === h.actual });
      if (side) x += w + 8;
      else hy += 28;
    });
    y = hy + (side ? 24 : 0) + 14;
  } else {
    const rw = [event.read === null ? '' : `read ${event.read}`, event.wrote === null ? '' : `wrote ${event.wrote}`]
      .filter((s) => s !== '')
      .join(' · ');
    const coh = event.coherence.map((t) => `line ${t.line} CPU ${t.cpu} ${t.from}→${t.to}`).join(', ');
    const second = [rw, coh].filter((s) => s !== '').join(' · ');
    if (second !== '') lines(second, 'muted');
  }
  violated();
  return { texts, cpu: event.cpu, failed: event.ok === false || violation !== undefined, halves, h: Math.max(y - 2, 40) };
}

/** A compare-and-swap half's words: `freelist: p1 / p3 ✕ differs`. */
export function halfText(field: string, expected: string, actual: string): string {
  return `${field}: ${expected} / ${actual} ${expected === actual ? '✓' : '✕ differs'}`;
}
