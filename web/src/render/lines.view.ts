// D3 rendering of the cache-line table (lines.layout.ts): MESI letters keyed by line and CPU,
// a transfer token moving from the CPU that gave the line up to the one that took it.
import { sameAsDrawn, select, setAttr, setText } from './d3';
import { cpuColor } from './geometry';
import { LINE_COL_W, LINE_ROW, LINES_MARGIN, type LineCell, type LineRow, type LinesShapes, type Transfer } from './lines.layout';
import type { RenderOptions } from './stage.view';
import { ensureStyle } from './style';

export function renderLines(svgEl: SVGSVGElement, shapes: LinesShapes, options: RenderOptions): void {
  ensureStyle(svgEl);
  const d = options.duration;
  // Most steps move no cache line: the table is as drawn (a transfer moves its token again).
  if (sameAsDrawn(svgEl, shapes.transfers.length === 0 ? JSON.stringify(shapes) : null, d)) return;
  const svg = select(svgEl);
  setAttr(svg, 'viewBox', () => `0 0 ${shapes.width} ${shapes.height}`);
  svg
    .selectAll<SVGGElement, (typeof shapes.heads)[number]>('g.head')
    .data(shapes.heads, (h) => h.key)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'head');
      g.append('rect').attr('y', 2).attr('height', 5).attr('rx', 2);
      g.append('text').attr('y', 18).attr('text-anchor', 'middle').attr('class', 'label');
      return g;
    })
    .call((g) => {
      const r = g.select<SVGRectElement>('rect');
      setAttr(r, 'x', (h) => h.x - LINE_COL_W / 2 + 3);
      setAttr(r, 'width', () => LINE_COL_W - 6);
      setAttr(r, 'fill', (h) => cpuColor(h.cpu));
      setAttr(g.select<SVGTextElement>('text'), 'x', (h) => h.x);
      setText(g.select<SVGTextElement>('text'), (h) => `C${h.cpu}`);
    });
  svg
    .selectAll<SVGTextElement, number>('text.line-head')
    .data([0])
    .join((enter) => enter.append('text').attr('class', 'line-head label').attr('x', 4).attr('y', 18).text('line'));
  const omitted = svg
    .selectAll<SVGTextElement, NonNullable<LinesShapes['omitted']>>('text.omitted')
    .data(shapes.omitted === null ? [] : [shapes.omitted])
    .join((enter) => enter.append('text').attr('class', 'omitted label').attr('x', 4));
  setAttr(omitted, 'y', (o) => o.y);
  setText(omitted, (o) => o.text);
  const rows = svg
    .selectAll<SVGGElement, LineRow>('g.row')
    .data(shapes.rows, (r) => r.key)
    .join((enter) => {
      const g = enter.append('g');
      g.append('text').attr('class', 'name').attr('x', 4).attr('dominant-baseline', 'central');
      return g;
    });
  setAttr(rows, 'class', (r) => `row${r.touched ? ' touched' : ''}`);
  setAttr(rows, 'transform', (r) => `translate(0,${r.y})`);
  setText(rows.select<SVGTextElement>('text.name'), (r) => (r.name.length > 17 ? `${r.name.slice(0, 16)}…` : r.name));
  const cells = svg
    .selectAll<SVGGElement, LineCell>('g.cell')
    .data(shapes.cells, (c) => c.key)
    .join((enter) => {
      const g = enter.append('g');
      g.append('rect')
        .attr('x', -10)
        .attr('y', -(LINE_ROW - 4) / 2)
        .attr('width', 20)
        .attr('height', LINE_ROW - 4);
      g.append('text');
      return g;
    });
  setAttr(cells, 'class', (c) => `cell ${c.state}${c.changed ? ' changed' : ''}`);
  setAttr(cells, 'transform', (c) => `translate(${c.x},${c.y})`);
  setText(cells.select<SVGTextElement>('text'), (c) => c.state);
  const xfers = svg
    .selectAll<SVGGElement, Transfer>('g.xfer')
    .data(shapes.transfers, (t) => t.key)
    .join(
      (enter) => {
        const g = enter.append('g').attr('class', 'xfer');
        g.append('circle').attr('r', 5);
        g.append('text').attr('class', 'cy').attr('text-anchor', 'start');
        return g;
      },
      (update) => update,
      (exit) => exit.remove(),
    );
  xfers.select('circle').attr('fill', (t) => cpuColor(t.toCpu));
  // The token rests on the target cell's corner; the cycles go in the margin after the columns.
  const rest = (t: Transfer) => `translate(${t.x2 + 10},${t.y - 6})`;
  xfers
    .select('text')
    .attr('x', (t) => shapes.width - LINES_MARGIN + 6 - t.x2 - 10)
    .attr('y', 10)
    .text((t) => t.label);
  xfers.interrupt().attr('transform', (t) => (d > 0 ? `translate(${t.x1},${t.y - 6})` : rest(t)));
  if (d > 0) xfers.transition().duration(d).attr('transform', rest);
}
