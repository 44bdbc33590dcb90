// Cache lines on the stage: each CPU card ends in a band of the lines that
// CPU's cache holds, one token per line with its MESI letter. A line the step moved *travels*:
// its token enters on the CPU that took it from the token of the CPU that gave it up (or, from
// memory, from what the line holds: the slab's card, the object, the node), carrying the step's
// cycles; the copy the step invalidated stays one step as a faded `I` ghost; a dotted tie joins
// each moved token to what it holds (the `kmem_cache_cpu`, a slab's metadata, an object).
// Pure; the D3 renderer is tokens.view.ts, the band's room is reserved by stage.layout.ts.
//
// Keys: tok:<line>:<cpu> (a CPU's copy of a line), tie:<line>:<cpu>, more:<cpu>.
import type { LineView, SimEvent } from '../sim/types';
import { CHAR_W, type Point } from './geometry';

export const TOKEN_H = 20;
const TOKEN_ROW = TOKEN_H + 6;
const TOKEN_GAP = 6;
/**
 * The band: a label line, then this many rows of tokens, always (a band that grew as lines
 * arrive would move every card below it at each transfer).
 */
export const TOKEN_ROWS = 2;
const BAND_LABEL = 18;

export type Mesi = 'M' | 'E' | 'S' | 'I';

export interface TokenShape {
  readonly key: string;
  readonly line: number;
  readonly cpu: number;
  /** Top-left, stage coordinates. */
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly text: string;
  readonly state: Mesi;
  /** The step moved this copy here (it travels from `from`). */
  readonly arrived: boolean;
  /** The step invalidated this copy: drawn as a faded ghost, gone at the next step. */
  readonly gone: boolean;
  /** Where an arriving token comes from (top-left), if it travels. */
  readonly from: Point | null;
  /** Long description, for the token's title and the stage's text alternative. */
  readonly title: string;
}

export interface TieShape {
  readonly key: string;
  readonly d: string;
}

/** The band's height at the bottom of a CPU card (its label and token rows). */
export const TOKEN_BAND_H = BAND_LABEL + TOKEN_ROWS * TOKEN_ROW;

/** The token's name: short enough for a band of three or four, the letter kept. */
export function tokenName(l: LineView): string {
  const h = l.holds;
  switch (h.kind) {
    case 'cache':
      return 'kmem_cache';
    case 'cpu':
      return /^array_cache/.test(l.name) ? `ac${h.cpu}` : /^cpu_sheaves/.test(l.name) ? `pcs${h.cpu}` : `cpu${h.cpu}`;
    case 'node':
      return /^shared/.test(l.name) ? `shared${h.node}` : `node${h.node}`;
    case 'slab':
      return `page ${h.slab}`;
    case 'objects': {
      const first = h.objects[0] ?? '?';
      const last = h.objects.at(-1) ?? first;
      return first === last ? first : `${first}..${last.replace(/^[a-z]+/, '')}`;
    }
    case 'barn':
      return `barn${h.node}`;
    case 'sheaf':
      return h.sheaf;
  }
}

function tokenTitle(l: LineView, state: Mesi, gone: boolean): string {
  const h = l.holds;
  const what =
    h.kind === 'cache'
      ? 'the kmem_cache'
      : h.kind === 'cpu'
        ? `CPU ${h.cpu}'s ${/^array_cache/.test(l.name) ? 'array_cache' : /^cpu_sheaves/.test(l.name) ? 'slub_percpu_sheaves' : 'kmem_cache_cpu'}`
        : h.kind === 'node'
          ? `node ${h.node}'s ${/^shared/.test(l.name) ? 'shared array' : 'kmem_cache_node'}`
          : h.kind === 'slab'
            ? `slab ${h.slab}'s metadata (freelist, counters)`
            : h.kind === 'barn'
              ? `node ${h.node}'s barn (its lock and lists of full and empty sheaves)`
              : h.kind === 'sheaf'
                ? `sheaf ${h.sheaf} (its size and object pointers)`
                : `object${h.objects.length > 1 ? 's' : ''} ${h.objects.join(', ')}`;
  return `cache line ${l.name} (${what}): ${gone ? 'invalidated by this step' : MESI_WORDS[state]}`;
}

const MESI_WORDS: Record<Mesi, string> = {
  M: 'Modified (this CPU wrote it; the only copy)',
  E: 'Exclusive (the only copy, clean)',
  S: 'Shared (other CPUs may hold copies)',
  I: 'Invalid',
};

interface BandItem {
  readonly line: LineView;
  readonly state: Mesi;
  readonly arrived: boolean;
  readonly gone: boolean;
  readonly text: string;
  readonly w: number;
}

const asMesi = (s: string | undefined): Mesi => (s === 'M' || s === 'E' || s === 'S' ? s : 'I');

/** The tokens of one CPU's band, in line order: the lines it holds, and those the step took from it. */
function bandItems(lines: readonly LineView[], event: SimEvent | undefined, cpu: number): BandItem[] {
  const transitions = (event?.coherence ?? []).filter((t) => t.cpu === cpu);
  const items: BandItem[] = [];
  for (const l of lines) {
    const state = asMesi(l.states[cpu]);
    const t = transitions.find((x) => x.line === l.id);
    const gone = state === 'I' && t !== undefined && t.from !== 'I';
    if (state === 'I' && !gone) continue;
    const arrived = t !== undefined && state !== 'I' && (t.from === 'I' || (t.from === 'S' && state !== 'S'));
    const label = `${tokenName(l)} ${gone ? 'I' : state}${arrived && event !== undefined ? ` ${event.cycles}cy` : ''}`;
    items.push({ line: l, state, arrived, gone, text: label, w: Math.ceil(label.length * CHAR_W + 12) });
  }
  return items;
}

function flow(items: readonly { w: number }[], width: number): { rows: number; at: Point[] } {
  const at: Point[] = [];
  let x = 0;
  let row = 0;
  for (const it of items) {
    if (x > 0 && x + it.w > width) {
      row++;
      x = 0;
    }
    at.push({ x, y: row * TOKEN_ROW });
    x += it.w + TOKEN_GAP;
  }
  return { rows: items.length === 0 ? 1 : row + 1, at };
}

export interface TokenBand {
  readonly cpu: number;
  /** The band's top-left inside the stage, its width and its rows. */
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly rows: number;
}

export interface TokenLayout {
  readonly tokens: readonly TokenShape[];
  readonly ties: readonly TieShape[];
  /** Band labels and the `+N more` of a full band (stage coordinates). */
  readonly labels: readonly { readonly key: string; readonly x: number; readonly y: number; readonly text: string }[];
}

/**
 * Lay out every CPU's band. `anchor` says where what a line holds is drawn (the card or chip),
 * or null when it is not on the stage.
 */
export function layoutTokens(
  lines: readonly LineView[],
  event: SimEvent | undefined,
  bands: readonly TokenBand[],
  anchor: (l: LineView) => Point | null,
): TokenLayout {
  const tokens: TokenShape[] = [];
  const labels: { key: string; x: number; y: number; text: string }[] = [];
  for (const band of bands) {
    const all = bandItems(lines, event, band.cpu);
    labels.push({ key: `band:${band.cpu}`, x: band.x, y: band.y + 12, text: 'cache lines held (MESI)' });
    const top = band.y + BAND_LABEL;
    // What does not fit: the moved lines stay; the rest give way, counted in `+N more`.
    let shown = all;
    let more = 0;
    const fits = (xs: readonly BandItem[], extra: number) => {
      const f = flow([...xs, ...(extra > 0 ? [{ w: moreWidth(extra) }] : [])], band.w);
      return f.rows <= band.rows;
    };
    if (!fits(all, 0)) {
      const keep = all.filter((it) => it.arrived || it.gone);
      const rest = all.filter((it) => !(it.arrived || it.gone));
      // The most of the rest that fit (binary search: a slab of big objects has thousands).
      let lo = 0;
      let hi = rest.length;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(merge(all, keep, rest.slice(0, mid)), rest.length - mid)) lo = mid;
        else hi = mid - 1;
      }
      const n = lo;
      shown = merge(all, keep, rest.slice(0, n));
      more = rest.length - n;
    }
    const f = flow([...shown, ...(more > 0 ? [{ w: moreWidth(more) }] : [])], band.w);
    shown.forEach((it, i) => {
      const p = f.at[i] ?? { x: 0, y: 0 };
      tokens.push({
        key: `tok:${it.line.id}:${band.cpu}`,
        line: it.line.id,
        cpu: band.cpu,
        x: band.x + p.x,
        y: top + p.y,
        w: it.w,
        text: it.text,
        state: it.gone ? 'I' : it.state,
        arrived: it.arrived,
        gone: it.gone,
        from: null,
        title: tokenTitle(it.line, it.state, it.gone),
      });
    });
    if (shown.length === 0) labels.push({ key: `none:${band.cpu}`, x: band.x, y: top + 14, text: 'none' });
    if (more > 0) {
      const p = f.at[shown.length] ?? { x: 0, y: 0 };
      labels.push({ key: `more:${band.cpu}`, x: band.x + p.x + 4, y: top + p.y + 14, text: `+${more} more` });
    }
  }
  // Where each arriving copy comes from: the copy the step took it from (an owner that lost it
  // or went to S), else memory, drawn as what the line holds.
  const byLine = new Map<number, TokenShape[]>();
  for (const t of tokens) byLine.set(t.line, [...(byLine.get(t.line) ?? []), t]);
  const transitions = event?.coherence ?? [];
  const ties: TieShape[] = [];
  const placed = tokens.map((t) => {
    if (!t.arrived) return t;
    const line = lines.find((l) => l.id === t.line);
    const givers = transitions.filter((x) => x.line === t.line && x.cpu !== t.cpu && x.from !== 'I');
    const giver = givers.find((x) => x.from === 'M' || x.from === 'E') ?? givers[0];
    const src = giver === undefined ? undefined : byLine.get(t.line)?.find((o) => o.cpu === giver.cpu);
    const home = line === undefined ? null : anchor(line);
    if (home !== null) {
      const mid = { x: t.x + t.w / 2, y: t.y + TOKEN_H };
      ties.push({ key: `tie:${t.line}:${t.cpu}`, d: tiePath(mid, home) });
    }
    const from = src !== undefined ? { x: src.x, y: src.y } : home === null ? null : { x: home.x - t.w / 2, y: home.y - TOKEN_H / 2 };
    return { ...t, from };
  });
  return { tokens: placed, ties, labels };
}

function moreWidth(n: number): number {
  return Math.ceil(`+${n} more`.length * CHAR_W + 8);
}

/** `keep` and the first of `rest`, in the band's (line) order. */
function merge(all: readonly BandItem[], keep: readonly BandItem[], rest: readonly BandItem[]): BandItem[] {
  const chosen = new Set([...keep, ...rest]);
  return all.filter((it) => chosen.has(it));
}

/** A gentle curve from a token to what its line holds. */
function tiePath(a: Point, b: Point): string {
  const r = (n: number) => Math.round(n * 10) / 10;
  const mx = (a.x + b.x) / 2;
  return `M${r(a.x)},${r(a.y)} C${r(mx)},${r(a.y)} ${r(mx)},${r(b.y)} ${r(b.x)},${r(b.y)}`;
}
