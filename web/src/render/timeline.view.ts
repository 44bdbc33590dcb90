// D3 rendering of the event timeline (timeline.layout.ts): ticks keyed by move index, the
// cursor line, retry brackets. Pointer scrubbing is wired by the caller through `cursorAt`.
import { redrawn, select, setAttr, setText } from './d3';
import { cpuColor } from './geometry';
import type { Bracket, Tick, TimelineShapes } from './timeline.layout';
import { ensureStyle } from './style';

export function renderTimeline(svgEl: SVGSVGElement, shapes: TimelineShapes): void {
  ensureStyle(svgEl);
  const svg = select(svgEl);
  setAttr(svg, 'viewBox', () => `0 0 ${shapes.width} ${shapes.height}`);
  const setup = svg
    .selectAll<SVGGElement, typeof shapes.setup>('g.setup')
    .data([shapes.setup])
    .join((enter) => {
      const g = enter.append('g').attr('class', 'setup');
      g.append('rect').attr('y', 16).attr('height', 26).attr('rx', 3);
      g.append('text').attr('y', 11).attr('class', 'label').text('setup');
      g.append('title').text('setup: runs to completion before the interleaved part');
      return g;
    });
  setAttr(setup.select<SVGRectElement>('rect'), 'x', (s) => s.x);
  setAttr(setup.select<SVGRectElement>('rect'), 'width', (s) => s.w);
  setAttr(setup.select<SVGTextElement>('text'), 'x', (s) => s.x);
  const ticks = svg
    .selectAll<SVGGElement, Tick>('g.tick')
    .data(shapes.ticks, (t) => t.key)
    .join((enter) => {
      const g = enter.append('g');
      g.append('rect');
      g.append('text').attr('class', 'fail').attr('y', 12);
      g.append('title');
      return g;
    });
  // A step changes one tick's class (the cursor passes it) or adds one: draw only those.
  const changed = redrawn(ticks, (t) => `${t.kind},${t.future},${t.failed},${t.x},${t.y},${t.w},${t.h},${t.cpu ?? ''},${t.title}`);
  setAttr(changed, 'class', (t) => `tick ${t.kind}${t.future ? ' future' : ''}${t.failed ? ' failed' : ''}`);
  const rect = changed.select<SVGRectElement>('rect');
  setAttr(rect, 'x', (t) => t.x);
  setAttr(rect, 'y', (t) => t.y);
  setAttr(rect, 'width', (t) => t.w);
  setAttr(rect, 'height', (t) => t.h);
  setAttr(rect, 'fill', (t) => (t.cpu === null ? 'var(--muted)' : cpuColor(t.cpu)));
  const fail = changed.select<SVGTextElement>('text.fail');
  setAttr(fail, 'x', (t) => t.x + t.w / 2);
  setText(fail, (t) => (t.failed ? '✕' : ''));
  setText(changed.select<SVGTitleElement>('title'), (t) => t.title);
  const brackets = svg
    .selectAll<SVGPathElement, Bracket>('path.bracket')
    .data(shapes.brackets, (b) => b.key)
    .join((enter) => enter.append('path').attr('class', 'bracket'));
  setAttr(brackets, 'd', (b) => `M${b.x1},${b.y - 4} v4 H${b.x2} v-4`);
  // The cursor jumps, even between consecutive steps: its tween showed nothing the stage does
  // not, and a running transition delayed each step's next frame (Event Timing: most key
  // presses took a frame longer to paint with it).
  const cursor = svg
    .selectAll<SVGLineElement, number>('line.cursor')
    .data([shapes.cursorX])
    .join((enter) => enter.append('line').attr('class', 'cursor').attr('y1', 4).attr('y2', 54));
  setAttr(cursor, 'x1', (x) => x);
  setAttr(cursor, 'x2', (x) => x);
}
