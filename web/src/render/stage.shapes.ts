// The stage's vocabulary: the shapes a layout produces (stage.view.ts draws them), the card
// geometry every allocator's cards share, and the small helpers they all use. The layout itself
// is stage.layout.ts, with one file per allocator's cards: stage.slub.ts, stage.slab.ts,
// stage.sheaves.ts (mirroring wasm-core/sim/src/model/{slub,slab,sheaves}), and stage.stack.ts
// for the stacks SLAB's arrays and 7.0's sheaves are drawn as.
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
import type { ContextView, ObjectOwner, SlabOwner, SlabView } from '../sim/types';
import { CHAR_W, contextMarker, type Point } from './geometry';
import type { TieShape, TokenLayout } from './tokens.layout';

export const CARD_W = 296;
export const GAP = 12;
export const CHIP_W = 34;
export const CHIP_H = 20;
export const CHIP_STEP = CHIP_W + 14;
export const REF_W = 44;
export const REF_STEP = REF_W + 12;
export const LABEL_X = 10;
export const VALUE_X = 76;
export const ROW = 24;
/** Height of the step strip's first line and of each line after it. */
export const STRIP_LINE = 18;
/** Height of a context's line in a CPU card. */
export const CTX_LINE = 16;
/** Characters that fit on one line of a card, inside its margins. */
export const CARD_CHARS = Math.floor((CARD_W - 2 * LABEL_X) / CHAR_W);
/**
 * The type scale (VISUAL "lay out for the box you are given"): the stage is laid
 * out in units of its 12 px font and drawn at a scale the container decides. More columns are
 * used only while the scale stays at or above MIN_SCALE; it never grows past MAX_SCALE.
 */
export const MIN_SCALE = 0.95;
export const MAX_SCALE = 1.35;
/** The width of a node card's right column (list_lock, then SLAB's shared array). */
export const NODE_RIGHT_W = 230;

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
  readonly hide?: StageHide;
  /**
   * Nodes and barns as wide as a card (in the first column) rather than the stage: a slide's
   * crop puts one in the place of a CPU the step is not about (ui/lessons/cropStage.ts).
   */
  readonly narrowNodes?: boolean;
}

/**
 * What a lesson's `reveal` may hold back on the stage: the tid (its field, its halves of a
 * failed compare-and-swap), the cache-line band and the strip's coherence line, the strip's
 * primitive (`pcas2 cpu_slab[0].(freelist,tid)` and what it read or wrote), every cycle count.
 */
export interface StageHide {
  readonly tid?: boolean;
  readonly lines?: boolean;
  readonly primitives?: boolean;
  readonly cycles?: boolean;
}

export const text = (
  x: number,
  y: number,
  t: string,
  cls = 'value',
  anchor: TextShape['anchor'] = 'start',
): TextShape => ({ x, y, text: t, cls, anchor });

/** A node's `list_lock` at (x, y): its name, who holds it, who waits for it. */
export function listLockTexts(x: number, y: number, holder: ContextView | undefined, waiters: readonly string[]): TextShape[] {
  return [
    text(x, y + 16, 'list_lock', 'label'),
    text(
      x,
      y + 34,
      holder === undefined ? 'free' : `held by ${contextMarker(holder.kind)} ${holder.id} (CPU ${holder.cpu})`,
      holder === undefined ? 'muted' : 'value strong',
    ),
    text(x, y + 50, waiters.length === 0 ? 'no waiter' : `waiting: ${waiters.join(', ')}`, waiters.length === 0 ? 'muted' : 'value warn'),
  ];
}

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

export const LOST: ObjectOwner = { kind: 'lost' };

/**
 * Which op a context is at, 1-based, of how many: `opIndex` is the index of the next op to
 * start, so the op in progress is the `opIndex`-th; between ops the next one is shown.
 */
export function opProgress(c: ContextView): string {
  return `${c.op === null ? Math.min(c.opIndex + 1, c.ops) : c.opIndex}/${c.ops}`;
}

/**
 * Unique keys across the whole stage: a slab can be on two lists at once mid-operation, and a
 * broken freelist can name an object twice. The first sighting keeps the plain key (it animates).
 */
export function keyer(): (prefix: string, names: readonly string[]) => string[] {
  const seen = new Map<string, number>();
  return (prefix, names) =>
    names.map((n) => {
      const base = `${prefix}:${n}`;
      const k = (seen.get(base) ?? 0) + 1;
      seen.set(base, k);
      return k === 1 ? base : `${base}#${k}`;
    });
}

export type Keyer = ReturnType<typeof keyer>;

export interface GridPos {
  readonly x: number;
  readonly y: number;
}

export function cpuOfOwner(owner: SlabOwner): number | null {
  return owner.kind === 'cpu' || owner.kind === 'cpuPartial' ? owner.cpu : null;
}

export function slabRef(
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
