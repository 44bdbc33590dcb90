// D3 rendering of the stage from the arrays of stage.layout.ts (shapes: stage.shapes.ts): keyed joins on the shapes'
// stable keys, so between consecutive steps an object chip *moves* from its slab to a CPU
// freelist, a slab token slides from the node list to a CPU. `duration` 0 (reduced motion,
// top speed, a jump) sets everything at once; changed chips are then outlined briefly instead.
// No React, no store: the caller owns the <svg>.
import { forget, place, redrawn, select, setAttr, setStyle, setText, translate, tweenOnly, type Selection } from './d3';
import { cpuColor, type Point } from './geometry';
import { halfText } from './stage.layout';
import {
  CHIP_H,
  CHIP_W,
  type ArrowShape,
  type CardShape,
  type ChipShape,
  type HalfShape,
  type LockShape,
  type MarkShape,
  type RefShape,
  type StageShapes,
  type TextShape,
} from './stage.shapes';
import { ensureStyle } from './style';
import { renderTokens } from './tokens.view';

export interface RenderOptions {
  /** Tween length in ms; 0 = no tween. */
  readonly duration: number;
}

type Layer = Selection<SVGGElement, unknown, null, undefined>;

function layer<E extends SVGSVGElement | SVGGElement>(root: Selection<E, unknown, null, undefined>, name: string): Layer {
  const found = root.select<SVGGElement>(`g.layer-${name}`);
  if (!found.empty()) return found;
  return root.append('g').attr('class', `layer-${name}`);
}

/**
 * The group of everything under the strip, at the strip's foot: when the strip wraps to another
 * line the body slides as one element (tweened like a card), its contents keep their places.
 */
function bodyLayer(svg: Selection<SVGSVGElement, unknown, null, undefined>, y: number, d: number): Layer {
  const body = svg
    .selectAll<SVGGElement, Point>('g.layer-body')
    .data([{ x: 0, y }])
    .join((enter) => enter.append('g').attr('class', 'layer-body').attr('transform', (p) => translate(p.x, p.y)).attr('opacity', 1));
  place(body, d);
  return select(body.node() as SVGGElement);
}

function drawTexts<P extends SVGGElement, D>(g: Selection<P, D, null | SVGGElement, unknown>, texts: (d: D) => readonly TextShape[]) {
  const t = g.selectAll<SVGTextElement, TextShape>('text.t').data(texts, (_t, i) => `${i}`).join('text');
  setAttr(t, 'class', (x) => `t ${x.cls}`);
  setAttr(t, 'x', (x) => x.x);
  setAttr(t, 'y', (x) => x.y);
  setAttr(t, 'text-anchor', (x) => x.anchor);
  setText(t, (x) => x.text);
}

/**
 * The SVG's drawn height is the stage's rounded up to a multiple of ROOM_STEP, and kept while
 * the stage stays within it and not two steps shorter. Resizing an SVG lays out every <text>
 * in it again (the browser rescales their fonts): in a huge scenario, 20 to 50 ms of the step.
 */
export const ROOM_STEP = 240;

function roomFor(svg: SVGSVGElement, width: number, height: number): number {
  // (No viewBox yet: a rect of zeros.)
  const now = svg.viewBox.baseVal;
  const room = now.width !== width ? 0 : now.height;
  if (room >= height && room - height < 2 * ROOM_STEP) return room;
  return Math.ceil(height / ROOM_STEP) * ROOM_STEP;
}

/** Where each chip is drawn (its centre), as moveChip last placed it, mid-tween too. */
const chipAt = new WeakMap<Element, Point>();

/** Place a chip's shapes around its centre `p`: the pill, its name, the label under it. */
function moveChip(g: SVGGElement, p: Point): void {
  chipAt.set(g, { x: p.x, y: p.y });
  const x = String(p.x);
  for (const el of g.children) {
    if (el instanceof SVGRectElement) {
      write(el, 'x', String(p.x - CHIP_W / 2));
      write(el, 'y', String(p.y - CHIP_H / 2));
    } else if (el instanceof SVGTextElement) {
      write(el, 'x', x);
      write(el, 'y', String(el.classList.contains('sub') ? p.y + CHIP_H / 2 + 11 : p.y));
      for (const t of el.children) write(t, 'x', x);
    }
  }
}

/** Set an attribute unless it already has the value (a write of the same value costs a frame). */
function write(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** A transition's tween moving a chip from where it is now to `to`. */
function chipTween(g: SVGGElement, to: Point): (t: number) => void {
  const from = chipAt.get(g) ?? to;
  const target = { x: to.x, y: to.y };
  return (t) => moveChip(g, { x: from.x + (target.x - from.x) * t, y: from.y + (target.y - from.y) * t });
}

/** What each chip showed when last drawn (its state, label and CPU): a change is outlined. */
const chipStates = new WeakMap<Element, string>();

export function renderStage(svgEl: SVGSVGElement, shapes: StageShapes, options: RenderOptions): void {
  ensureStyle(svgEl);
  const svg = select(svgEl);
  // The SVG's height, in steps of ROOM_STEP: its box (StageView's) cuts it to the stage's.
  setAttr(svg, 'viewBox', () => `0 0 ${shapes.width} ${roomFor(svgEl, shapes.width, shapes.height)}`);
  setAttr(svg, 'data-height', () => shapes.height);
  ensureDefs(svg);
  const d = options.duration;

  // The step strip.
  const strip = layer(svg, 'strip');
  setAttr(strip, 'class', () => `layer-strip strip${shapes.strip.failed ? ' failed' : ''}`);
  const bg = strip
    .selectAll<SVGRectElement, number>('rect.bg')
    .data([shapes.width])
    .join((enter) => enter.append('rect').attr('class', 'bg').attr('x', 12).attr('y', 2));
  setAttr(bg, 'width', (w) => w - 24);
  setAttr(bg, 'height', () => shapes.strip.h);
  const band = strip
    .selectAll<SVGRectElement, number | null>('rect.band')
    .data([shapes.strip.cpu])
    .join((enter) => enter.append('rect').attr('class', 'band').attr('x', 12).attr('y', 2).attr('width', 6));
  setAttr(band, 'height', () => shapes.strip.h);
  setAttr(band, 'fill', (c) => (c === null ? 'var(--border)' : cpuColor(c)));
  drawTexts(strip, () => shapes.strip.texts);
  const halves = strip
    .selectAll<SVGGElement, HalfShape>('g.half')
    .data(shapes.strip.halves, (h) => h.key)
    .join((enter) => {
      const g = enter.append('g');
      g.append('rect');
      g.append('text').attr('class', 'f');
      return g;
    })
    .attr('class', (h) => `half${h.match ? '' : ' mismatch'}`)
    .attr('transform', (h) => translate(h.x, h.y));
  halves.select('rect').attr('width', (h) => h.w).attr('height', (h) => h.h);
  halves
    .select('text.f')
    .attr('x', 8)
    .attr('y', 16)
    .text((h) => halfText(h.field, h.expected, h.actual));
  // (The halves exist only on the step of a failed cmpxchg: few, and all new.)

  // Cards.
  const body = bodyLayer(svg, shapes.bodyY, d);
  const cards = layer(body, 'cards')
    .selectAll<SVGGElement, CardShape>('g.card')
    .data(shapes.cards, (c) => c.key)
    .join(
      (enter) => {
        const g = enter
          .append('g')
          .attr('transform', (c) => translate(c.x, c.y))
          .attr('opacity', d > 0 ? 0 : 1);
        g.append('rect').attr('class', 'bg');
        g.append('rect').attr('class', 'frost').attr('opacity', (c) => (c.frozen === true ? 1 : 0));
        g.append('rect').attr('class', 'band').attr('x', 0).attr('y', 0).attr('height', 5).attr('rx', 2);
        return g;
      },
      (update) => update,
      (exit) => (d > 0 ? forget(exit).transition().duration(d).attr('opacity', 0).remove() : exit.remove()),
    );
  // Only the cards whose shape changed (a step changes the texts of one or two).
  const changedCards = redrawn(cards, cardSignature);
  setAttr(changedCards, 'class', (c) => `card ${c.kind}${c.selected ? ' selected' : ''}${c.faded ? ' faded' : ''}`);
  setAttr(changedCards, 'data-key', (c) => c.key);
  const cardBg = changedCards.select<SVGRectElement>('rect.bg');
  setAttr(cardBg, 'width', (c) => c.w);
  setAttr(cardBg, 'height', (c) => c.h);
  // Freezing is a transition of its own: the card frosts over (or thaws) where it stands.
  const frost = changedCards.select<SVGRectElement>('rect.frost');
  setAttr(frost, 'width', (c) => c.w);
  setAttr(frost, 'height', (c) => c.h);
  const thawing = tweenOnly(frost, (el, c) => el.getAttribute('opacity') !== (c.frozen === true ? '1' : '0'));
  if (d > 0) thawing.transition().duration(d * 1.5).attr('opacity', (c) => (c.frozen === true ? 1 : 0));
  else thawing.attr('opacity', (c) => (c.frozen === true ? 1 : 0));
  const cardBand = changedCards.select<SVGRectElement>('rect.band');
  setAttr(cardBand, 'width', (c) => (c.cpu === null ? 0 : c.w));
  setAttr(cardBand, 'fill', (c) => (c.cpu === null ? 'none' : cpuColor(c.cpu)));
  // SLAB's stack slots and brackets (none under SLUB), under the texts.
  const marks = changedCards
    .selectAll<SVGPathElement, MarkShape>('path.m')
    .data((c) => c.marks, (_m, i) => `${i}`)
    .join((enter) => enter.insert('path', 'text'));
  setAttr(marks, 'class', (m) => `m ${m.cls}`);
  setAttr(marks, 'd', (m) => m.d);
  drawTexts(changedCards, (c) => c.texts);
  place(changedCards, d);

  // Arrows (under the chips). A new or redrawn one (no path tween) is hidden while the chips
  // move and fades in where it ends; the others are left alone.
  const arrows = layer(body, 'arrows')
    .selectAll<SVGPathElement, ArrowShape>('path.arrow')
    .data(shapes.arrows, (a) => a.key)
    .join(
      (enter) => enter.append('path').attr('opacity', 0),
      (update) => update,
      (exit) => exit.remove(),
    );
  const changedArrows = redrawn(arrows, (a) => `${a.kind} ${a.d}`);
  setAttr(changedArrows, 'class', (a) => `arrow ${a.kind}`);
  setAttr(changedArrows, 'marker-end', (a) => (a.kind === 'link' ? 'url(#slub-link)' : 'url(#slub-arrow)'));
  const fading = tweenOnly(changedArrows, (el, a) => el.getAttribute('d') !== a.d || el.getAttribute('opacity') !== '1');
  fading.attr('d', (a) => a.d);
  if (d > 0) fading.attr('opacity', 0).transition().delay(d * 0.6).duration(d * 0.4).attr('opacity', 1);
  else fading.attr('opacity', 1);

  // Ties from moved cache lines to what they hold (drawn by renderTokens, below the chips).
  const ties = layer(body, 'ties');

  // Slab tokens.
  const refs = layer(body, 'refs')
    .selectAll<SVGGElement, RefShape>('g.ref')
    .data(shapes.refs, (r) => r.key)
    .join(
      (enter) => {
        const g = enter.append('g').attr('transform', (r) => translate(r.x, r.y)).attr('opacity', d > 0 ? 0 : 1);
        g.append('rect');
        g.append('text');
        g.append('title');
        return g;
      },
      (update) => update,
      (exit) => (d > 0 ? exit.transition().duration(d).attr('opacity', 0).remove() : exit.remove()),
    );
  setAttr(refs, 'class', (r) => `ref${r.frozen ? ' frozen' : ''}${r.selected ? ' selected' : ''}`);
  setAttr(refs, 'data-slab', (r) => r.slab);
  const refRect = refs.select<SVGRectElement>('rect');
  setAttr(refRect, 'width', (r) => r.w);
  setAttr(refRect, 'height', (r) => r.h);
  const refText = refs.select<SVGTextElement>('text');
  setAttr(refText, 'x', (r) => r.w / 2);
  setAttr(refText, 'y', (r) => r.h / 2);
  setText(refText, (r) => r.text);
  setText(refs.select<SVGTitleElement>('title'), (r) => `slab ${r.slab}${r.frozen ? ', frozen' : ''}`);
  place(refs, d);

  // Object chips: grid chips and freelist links, entering from / leaving to the grid. A chip
  // is not a translated group: its shapes are placed themselves (moveChip), since each
  // transform is a node of the browser's property trees, and a big stage's thousand of them
  // cost every frame's paint and compositing.
  const grid = new Map(shapes.chips.filter((c) => c.key.startsWith('obj:')).map((c) => [c.object, c]));
  const chips = layer(body, 'chips')
    .selectAll<SVGGElement, ChipShape>('g.chip')
    .data(shapes.chips, (c) => c.key)
    .join(
      (enter) => {
        const g = enter.append('g').attr('opacity', (c) => (d > 0 && c.from === null ? 0 : 1));
        g.append('rect').attr('width', CHIP_W).attr('height', CHIP_H).attr('rx', CHIP_H / 2);
        g.append('text').attr('class', 'name');
        g.append('title');
        g.each(function (c) {
          moveChip(this, c.from ?? c);
        });
        return g;
      },
      (update) => update,
      (exit) => {
        if (d === 0) return exit.remove();
        // A leaving link goes home to its grid position; a SLAB ghost just fades where it is.
        return forget(exit)
          .transition()
          .duration(d)
          .tween('at', function (c) {
            const home = c.key.startsWith('ghost:') ? undefined : grid.get(c.object);
            return chipTween(this, home ?? c);
          })
          .attr('opacity', 0)
          .remove();
      },
    );
  // A chip is drawn again only when what it shows differs from what it was last drawn with:
  // a step changes a few of a big stage's thousand chips. With no tween, a chip whose state
  // changed is outlined for that step.
  const outlined = new Set<string>();
  const redrawnChips = redrawn(chips, (c, el) => {
    const state = `${c.state}|${c.label}|${c.cpu ?? ''}`;
    const before = chipStates.get(el);
    chipStates.set(el, state);
    if (d === 0 && before !== undefined && before !== state) outlined.add(c.key);
    return `${c.x},${c.y},${outlined.has(c.key) ? 1 : 0},${c.selected ? 1 : 0},${c.object}|${state}`;
  });
  setAttr(redrawnChips, 'class', (c) => `chip ${c.state}${c.selected ? ' selected' : ''}${outlined.has(c.key) ? ' changed' : ''}`);
  setAttr(redrawnChips, 'data-object', (c) => c.object);
  const chipRect = redrawnChips.select<SVGRectElement>('rect');
  const hue = (c: ChipShape) => c.cpu !== null && c.state === 'free' && !c.selected;
  setStyle(chipRect, 'stroke', (c) => (hue(c) ? cpuColor(c.cpu ?? 0) : null));
  setStyle(chipRect, 'stroke-width', (c) => (hue(c) ? '2.5px' : null));
  setText(redrawnChips.select<SVGTextElement>('text.name'), (c) => c.object);
  // The label under a chip (its holder), only when it says something: a free chip has none,
  // and in a big stage a thousand empty texts cost every frame's paint. A label of two lines
  // (an object with two holders) is drawn as two tspans.
  const subs = redrawnChips
    .selectAll<SVGTextElement, ChipShape>('text.sub')
    .data((c) => (c.label === '' ? [] : [c]))
    .join((enter) => enter.insert('text', 'title').attr('class', 'sub'));
  const lines = subs
    .selectAll<SVGTSpanElement, string>('tspan')
    .data((c) => c.label.split('\n'))
    .join('tspan');
  setAttr(lines, 'dy', (_l, i) => (i === 0 ? null : '1.15em'));
  setText(lines, (l) => l);
  setText(redrawnChips.select<SVGTitleElement>('title'), chipTitle);
  // Where each redrawn chip is: its own label's place too (the label may be new).
  redrawnChips.each(function () {
    const at = chipAt.get(this);
    if (at !== undefined) moveChip(this, at);
  });
  const moving = tweenOnly(redrawnChips, (el, c) => {
    const at = chipAt.get(el);
    return at === undefined || Math.abs(at.x - c.x) >= 0.01 || Math.abs(at.y - c.y) >= 0.01 || el.getAttribute('opacity') !== '1';
  });
  if (d > 0) {
    moving
      .transition()
      .duration(d)
      .tween('at', function (c) {
        return chipTween(this, c);
      })
      .attr('opacity', 1);
  } else {
    moving.attr('opacity', 1).each(function (c) {
      moveChip(this, c);
    });
  }

  // Cache-line tokens in each CPU's band, and their ties.
  renderTokens(ties, layer(body, 'tokens'), shapes, d);

  // list_lock padlocks.
  const locks = layer(body, 'locks')
    .selectAll<SVGGElement, LockShape>('g.lock')
    .data(shapes.locks, (l) => l.key)
    .join((enter) => {
      const g = enter.append('g');
      g.append('path').attr('class', 'shackle');
      g.append('path').attr('class', 'body').attr('d', 'M-7,-2 h14 v11 h-14 z');
      return g;
    });
  setAttr(locks, 'class', (l) => `lock${l.held ? ' held' : ''}`);
  setAttr(locks, 'transform', (l) => translate(l.x, l.y));
  setAttr(locks.select<SVGPathElement>('path.shackle'), 'd', (l) => (l.held ? 'M-4,-2 v-4 a4,4 0 0 1 8,0 v4' : 'M-4,-2 v-4 a4,4 0 0 1 8,0 v-2'));
  setStyle(locks.select<SVGPathElement>('path.body'), 'fill', (l) => (l.held && l.holderCpu !== null ? cpuColor(l.holderCpu) : null));
}

/** Everything a card draws of its shape (`redrawn`). */
function cardSignature(c: CardShape): string {
  const texts = c.texts.map((t) => `${t.x},${t.y},${t.anchor},${t.cls},${t.text}`).join('\n');
  const marks = c.marks.map((m) => `${m.cls} ${m.d}`).join('\n');
  return `${c.kind},${c.x},${c.y},${c.w},${c.h},${c.cpu ?? ''},${c.faded},${c.frozen ?? ''},${c.selected}\n${texts}\n${marks}`;
}

function chipTitle(c: ChipShape): string {
  const where = c.key.startsWith('fl:')
    ? ` on CPU ${c.cpu ?? '?'}'s freelist`
    : c.key.startsWith('arr:')
      ? c.cpu === null
        ? ' in a shared array'
        : ` in CPU ${c.cpu}'s array_cache`
      : '';
  switch (c.state) {
    case 'free':
      return `${c.object}: free${where}`;
    case 'held':
      return `${c.object}: allocated, held by ${c.label}`;
    case 'inflight':
      return `${c.object}: in flight (${c.label})`;
    case 'lost':
      return `${c.object}: lost (reachable from nothing)`;
    case 'stale':
      return `${c.object}: a stale copy (a flush already gave it back; its memmove has not run yet)`;
    case 'double':
      return `${c.object}: handed out twice, held by ${c.label.replace(/⚠/g, '').split('\n').join(' and ')}`;
  }
}

function ensureDefs(svg: Selection<SVGSVGElement, unknown, null, undefined>): void {
  if (!svg.select('defs').empty()) return;
  const defs = svg.insert('defs', ':first-child');
  for (const [id, colour] of [
    ['slub-arrow', 'var(--fg)'],
    ['slub-link', 'var(--muted)'],
  ] as const) {
    defs
      .append('marker')
      .attr('id', id)
      .attr('viewBox', '0 0 8 8')
      .attr('refX', 7)
      .attr('refY', 4)
      .attr('markerWidth', 7)
      .attr('markerHeight', 7)
      .attr('orient', 'auto')
      .append('path')
      .attr('d', 'M0,0 L8,4 L0,8 z')
      .style('fill', colour);
  }
}
