// Draws a comparison chart (chart.layout.ts) into an <svg> with keyed joins: the rows by
// `seed`/`model`, the ticks by value. When the model's result comes back its bar grows from the
// zero line and the axis rescales in one tween (`duration` 0: no movement, for reduced motion).
// No React, no state: the shapes and an element.
import type { BaseType, Selection } from 'd3-selection';
import { select, setAttr, setText } from '../../render/d3';
import { labelWidth, type ChartRow, type ChartShapes, type ChartTick } from './chart.layout';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Sel<E extends BaseType, D> = Selection<E, D, any, any>;

/** Set numeric attributes, tweened over `duration` ms when it is not 0. */
function place<E extends Element, D>(sel: Sel<E, D>, duration: number, attrs: Record<string, (d: D) => number>): void {
  if (duration > 0) {
    const t = sel.transition().duration(duration);
    for (const [name, f] of Object.entries(attrs)) t.attr(name, (d) => f(d));
  } else {
    sel.interrupt();
    for (const [name, f] of Object.entries(attrs)) setAttr(sel, name, (d) => f(d));
  }
}

function child<E extends BaseType>(parent: Sel<SVGGElement, unknown>, tag: string, cls: string): Sel<E, unknown> {
  const found = parent.select<E>(`:scope > ${tag}.${cls}`);
  if (!found.empty()) return found;
  return parent.append(tag).attr('class', cls) as unknown as Sel<E, unknown>;
}

export function renderRatioChart(svg: SVGSVGElement, s: ChartShapes, { duration }: { duration: number }): void {
  const root = select(svg);
  setAttr(root, 'viewBox', () => `0 0 ${s.width} ${s.height}`);
  setAttr(root, 'width', () => s.width);
  setAttr(root, 'height', () => s.height);
  const g = root as unknown as Sel<SVGGElement, unknown>;
  const grid = child<SVGGElement>(g, 'g', 'grid');
  const bandG = child<SVGGElement>(g, 'g', 'band');
  const rowsG = child<SVGGElement>(g, 'g', 'rows');
  const zero = child<SVGLineElement>(g, 'line', 'zero');
  const mark = child<SVGLineElement>(g, 'line', 'seed-mark');

  // Ticks: a grid line and a label under the plot.
  const ticks = (grid)
    .selectAll<SVGGElement, ChartTick>('g.tick')
    .data(s.ticks, (d) => d.key)
    .join((enter) => {
      const t = enter.append('g').attr('class', 'tick').attr('transform', (d) => `translate(${d.x},0)`);
      t.append('line').attr('y1', s.plotTop).attr('y2', s.plotBottom);
      t.append('text').attr('y', s.plotBottom + 15).attr('text-anchor', 'middle');
      return t;
    });
  if (duration > 0) ticks.transition().duration(duration).attr('transform', (d) => `translate(${d.x},0)`);
  else setAttr(ticks.interrupt(), 'transform', (d) => `translate(${d.x},0)`);
  setText(ticks.select<SVGTextElement>('text'), (d) => d.label);

  // The tolerance band, on the model's row.
  const band = (bandG)
    .selectAll<SVGRectElement, NonNullable<ChartShapes['band']>>('rect')
    .data(s.band === null ? [] : [s.band])
    .join((enter) => enter.append('rect').attr('x', (d) => d.x).attr('width', (d) => d.w).attr('opacity', duration > 0 ? 0 : 1));
  place(band, duration, { x: (d) => d.x, y: (d) => d.y, width: (d) => d.w, height: (d) => d.h, opacity: () => 1 });
  const edges = (bandG)
    .selectAll<SVGLineElement, { x: number; y1: number; y2: number }>('line.edge')
    .data(
      s.band === null
        ? []
        : [
            ...(s.band.openLeft ? [] : [{ x: s.band.x, y1: s.band.y, y2: s.band.y + s.band.h }]),
            ...(s.band.openRight ? [] : [{ x: s.band.x + s.band.w, y1: s.band.y, y2: s.band.y + s.band.h }]),
          ],
    )
    .join('line')
    .attr('class', 'edge');
  place(edges, duration, { x1: (d) => d.x, x2: (d) => d.x, y1: (d) => d.y1, y2: (d) => d.y2 });

  // The rows: label, bar, value, status.
  const lw = labelWidth(s.width);
  const rows = (rowsG)
    .selectAll<SVGGElement, ChartRow>('g.row')
    .data(s.rows, (d) => d.key)
    .join((enter) => {
      const r = enter.append('g').attr('class', (d) => `row ${d.key}`);
      r.append('text').attr('class', 'row-label').attr('text-anchor', 'end');
      r.append('rect').attr('class', 'bar').attr('x', s.zeroX).attr('width', 0);
      r.append('text').attr('class', 'value');
      r.append('text').attr('class', 'status').attr('text-anchor', 'middle');
      return r;
    });
  rows.attr('class', (d) => `row ${d.key}${d.negative ? ' negative' : ''}`);
  const labels = rows.select<SVGTextElement>('text.row-label');
  setAttr(labels, 'x', () => lw - 6);
  setAttr(labels, 'y', (d) => d.textY);
  setText(labels, (d) => d.label);

  const bars = rows.select<SVGRectElement>('rect.bar');
  setAttr(bars, 'visibility', (d) => (d.bar === null ? 'hidden' : null));
  // A bar that was hidden starts from the zero line.
  bars.each(function (d) {
    if (d.bar !== null && this.getAttribute('data-shown') !== '1') {
      this.setAttribute('x', String(s.zeroX));
      this.setAttribute('width', '0');
      this.setAttribute('data-shown', '1');
    } else if (d.bar === null) {
      this.removeAttribute('data-shown');
    }
  });
  place(
    bars.filter((d) => d.bar !== null),
    duration,
    {
      x: (d) => d.bar?.x ?? s.zeroX,
      y: (d) => d.bar?.y ?? 0,
      width: (d) => d.bar?.w ?? 0,
      height: (d) => d.bar?.h ?? 0,
    },
  );

  const values = rows.select<SVGTextElement>('text.value');
  setAttr(values, 'text-anchor', (d) => d.value?.anchor ?? 'start');
  setAttr(values, 'y', (d) => d.textY);
  setText(values, (d) => d.value?.text ?? '');
  place(values, duration, { x: (d) => d.value?.x ?? s.zeroX });

  const status = rows.select<SVGTextElement>('text.status');
  setAttr(status, 'x', () => s.statusX);
  setAttr(status, 'y', (d) => d.textY);
  setText(status, (d) => d.status ?? '');

  setAttr(zero, 'y1', () => s.plotTop - 2);
  setAttr(zero, 'y2', () => s.plotBottom + 2);
  place(zero, duration, { x1: () => s.zeroX, x2: () => s.zeroX });

  setAttr(mark, 'visibility', () => (s.seedMark === null ? 'hidden' : null));
  if (s.seedMark !== null) {
    const m = s.seedMark;
    place(mark, duration, { x1: () => m.x, x2: () => m.x, y1: () => m.y1, y2: () => m.y2 });
  }
}
