// Draws the overview (overview.layout.ts) into an <svg> with keyed joins: rows by case id,
// ticks by value. A model's dot moves out from the zero line when its result comes back, and
// the axis rescales, over `duration` ms (0: no movement). No React, no state.
import type { BaseType, Selection } from 'd3-selection';
import { select, setAttr, setText } from '../../render/d3';
import type { OverviewRow, OverviewShapes } from './overview.layout';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Sel<E extends BaseType, D> = Selection<E, D, any, any>;

const DIAMOND = 'M0,-6L6,0L0,6L-6,0Z';

function layer(root: Sel<SVGSVGElement, unknown>, cls: string): Sel<SVGGElement, unknown> {
  const found = root.select<SVGGElement>(`:scope > g.${cls}`);
  return found.empty() ? root.append('g').attr('class', cls) : found;
}

/** Set attributes, tweened over `duration` ms when it is not 0 (one transition for them all:
 * a second transition on an element would cancel the first). */
function move<E extends Element, D>(sel: Sel<E, D>, duration: number, attrs: Record<string, (d: D) => string | number>): void {
  if (duration > 0) {
    const t = sel.transition().duration(duration);
    for (const [name, f] of Object.entries(attrs)) t.attr(name, (d) => f(d));
  } else {
    sel.interrupt();
    for (const [name, f] of Object.entries(attrs)) setAttr(sel, name, (d) => f(d));
  }
}

export function renderOverview(svg: SVGSVGElement, s: OverviewShapes, { duration }: { duration: number }): void {
  const root = select(svg);
  setAttr(root, 'viewBox', () => `0 0 ${s.width} ${s.height}`);
  setAttr(root, 'width', () => s.width);
  setAttr(root, 'height', () => s.height);
  const grid = layer(root, 'grid');
  const zero = layer(root, 'zero');
  const rowsG = layer(root, 'rows');

  const ticks = grid
    .selectAll<SVGGElement, OverviewShapes['ticks'][number]>('g.tick')
    .data(s.ticks, (d) => d.key)
    .join((enter) => {
      const t = enter.append('g').attr('class', 'tick').attr('transform', (d) => `translate(${d.x},0)`);
      t.append('line');
      t.append('text').attr('text-anchor', 'middle');
      return t;
    });
  move(ticks, duration, { transform: (d) => `translate(${d.x},0)` });
  setAttr(ticks.select<SVGLineElement>('line'), 'y1', () => s.plotTop);
  setAttr(ticks.select<SVGLineElement>('line'), 'y2', () => s.plotBottom);
  setAttr(ticks.select<SVGTextElement>('text'), 'y', () => s.plotBottom + 15);
  setText(ticks.select<SVGTextElement>('text'), (d) => d.label);

  const zl = zero.selectAll<SVGLineElement, number>('line').data([s.zeroX]).join('line');
  setAttr(zl, 'y1', () => s.plotTop - 2);
  setAttr(zl, 'y2', () => s.plotBottom + 2);
  move(zl, duration, { x1: (d) => d, x2: (d) => d });

  const rows = rowsG
    .selectAll<SVGGElement, OverviewRow>('g.ov-row')
    .data(s.rows, (d) => d.id)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'ov-row').attr('transform', (d) => `translate(0,${d.y})`);
      g.append('text').attr('class', 'id').attr('text-anchor', 'end').attr('dy', '0.35em');
      g.append('line').attr('class', 'link');
      g.append('path').attr('class', 'seed').attr('d', DIAMOND);
      g.append('circle').attr('class', 'model').attr('r', 5.5);
      return g;
    });
  rows.attr('class', (d) => `ov-row${d.opposite ? ' opposite' : ''}`);
  move(rows, duration, { transform: (d) => `translate(0,${d.y})` });
  const ids = rows.select<SVGTextElement>('text.id');
  setAttr(ids, 'x', () => s.labelX);
  setText(ids, (d) => d.id);
  move(rows.select<SVGPathElement>('path.seed'), duration, { transform: (d) => `translate(${d.seedX},0)` });

  const models = rows.select<SVGCircleElement>('circle.model');
  const links = rows.select<SVGLineElement>('line.link');
  setAttr(models, 'visibility', (d) => (d.modelX === null ? 'hidden' : null));
  setAttr(links, 'visibility', (d) => (d.modelX === null ? 'hidden' : null));
  // A dot that was hidden starts on the zero line (and its link with no length).
  models.each(function (d) {
    if (d.modelX !== null && this.getAttribute('data-shown') !== '1') {
      this.setAttribute('cx', String(s.zeroX));
      this.setAttribute('data-shown', '1');
      const link = this.parentElement?.querySelector('line.link');
      link?.setAttribute('x1', String(d.seedX));
      link?.setAttribute('x2', String(d.seedX));
    }
  });
  const shown = (d: OverviewRow) => d.modelX !== null;
  move(models.filter(shown), duration, { cx: (d) => d.modelX ?? s.zeroX });
  move(links.filter(shown), duration, { x1: (d) => d.seedX, x2: (d) => d.modelX ?? d.seedX });
}
