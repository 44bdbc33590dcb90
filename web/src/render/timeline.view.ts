// D3 rendering of the event timeline (timeline.layout.ts): a labelled lane per context, ticks
// keyed by move index, the cursor line, retry brackets, broken invariants. Pointer scrubbing is
// wired by the caller through `cursorAt`.
import { redrawn, select, setAttr, setText } from './d3';
import { cpuColor } from './geometry';
import { LANE_LABEL_X, type Bracket, type Lane, type Tick, type TimelineShapes, type ViolationMark } from './timeline.layout';
import { ensureStyle } from './style';

/** A group of the timeline's, made once, in the order of the first draw (lanes at the back). */
function layer(svgEl: SVGSVGElement, name: string) {
  const root = select(svgEl);
  const found = root.select<SVGGElement>(`g.tl-${name}`);
  return found.empty() ? root.append('g').attr('class', `tl-${name}`) : found;
}

export function renderTimeline(svgEl: SVGSVGElement, shapes: TimelineShapes): void {
  ensureStyle(svgEl);
  setAttr(select(svgEl), 'viewBox', () => `0 0 ${shapes.width} ${shapes.height}`);
  const back = layer(svgEl, 'back');
  const front = layer(svgEl, 'front');
  // The lanes: a band each, its context's name at the left in the CPU's colour's outline.
  const lanes = back
    .selectAll<SVGGElement, Lane>('g.lane')
    .data(shapes.lanes, (l) => l.key)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'lane');
      g.append('rect').attr('class', 'band');
      g.append('rect').attr('class', 'swatch');
      g.append('text').attr('class', 'lane-label');
      return g;
    });
  setAttr(lanes.select<SVGRectElement>('rect.band'), 'x', () => LANE_LABEL_X);
  setAttr(lanes.select<SVGRectElement>('rect.band'), 'y', (l) => l.y);
  setAttr(lanes.select<SVGRectElement>('rect.band'), 'width', () => shapes.width - 2 * LANE_LABEL_X);
  setAttr(lanes.select<SVGRectElement>('rect.band'), 'height', (l) => l.h - 2);
  setAttr(lanes.select<SVGRectElement>('rect.swatch'), 'x', () => LANE_LABEL_X);
  setAttr(lanes.select<SVGRectElement>('rect.swatch'), 'y', (l) => l.y);
  setAttr(lanes.select<SVGRectElement>('rect.swatch'), 'width', () => 4);
  setAttr(lanes.select<SVGRectElement>('rect.swatch'), 'height', (l) => l.h - 2);
  setAttr(lanes.select<SVGRectElement>('rect.swatch'), 'fill', (l) => cpuColor(l.cpu));
  setAttr(lanes.select<SVGTextElement>('text'), 'x', () => LANE_LABEL_X + 8);
  setAttr(lanes.select<SVGTextElement>('text'), 'y', (l) => l.y + l.h / 2 + 3);
  setText(lanes.select<SVGTextElement>('text'), (l) => l.label);

  const setup = back
    .selectAll<SVGGElement, typeof shapes.setup>('g.setup')
    .data([shapes.setup])
    .join((enter) => {
      const g = enter.append('g').attr('class', 'setup');
      g.append('rect').attr('rx', 3);
      g.append('text').attr('class', 'label');
      g.append('title').text('setup: runs to completion before the interleaved part');
      return g;
    });
  setAttr(setup.select<SVGRectElement>('rect'), 'x', (s) => s.x);
  setAttr(setup.select<SVGRectElement>('rect'), 'y', (s) => s.y);
  setAttr(setup.select<SVGRectElement>('rect'), 'width', (s) => s.w);
  setAttr(setup.select<SVGRectElement>('rect'), 'height', (s) => s.h);
  // Its label over the lane labels, clear of the marks' row (a ✕ over the first move).
  setAttr(setup.select<SVGTextElement>('text'), 'x', (s) => s.x - 4);
  setAttr(setup.select<SVGTextElement>('text'), 'y', () => shapes.markY);
  setAttr(setup.select<SVGTextElement>('text'), 'text-anchor', () => 'end');
  setText(setup.select<SVGTextElement>('text'), () => 'setup');

  const ticks = front
    .selectAll<SVGGElement, Tick>('g.tick')
    .data(shapes.ticks, (t) => t.key)
    .join((enter) => {
      const g = enter.append('g');
      g.append('rect');
      g.append('text').attr('class', 'fail');
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
  // The ✕ of a failed compare-and-swap, in the marks' row over the lanes.
  const fail = changed.select<SVGTextElement>('text.fail');
  setAttr(fail, 'x', (t) => t.x + t.w / 2);
  setAttr(fail, 'y', () => shapes.markY);
  setText(fail, (t) => (t.failed ? '✕' : ''));
  setText(changed.select<SVGTitleElement>('title'), (t) => t.title);
  const brackets = front
    .selectAll<SVGPathElement, Bracket>('path.bracket')
    .data(shapes.brackets, (b) => b.key)
    .join((enter) => enter.append('path').attr('class', 'bracket'));
  setAttr(brackets, 'd', (b) => `M${b.x1},${b.y - 4} v4 H${b.x2} v-4`);

  const marks = front
    .selectAll<SVGGElement, ViolationMark>('g.violation')
    .data(shapes.violations, (v) => v.key)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'violation');
      g.append('line');
      g.append('text');
      g.append('title');
      return g;
    });
  setAttr(marks.select<SVGLineElement>('line'), 'x1', (v) => v.x);
  setAttr(marks.select<SVGLineElement>('line'), 'x2', (v) => v.x);
  setAttr(marks.select<SVGLineElement>('line'), 'y1', () => shapes.markY + 2);
  setAttr(marks.select<SVGLineElement>('line'), 'y2', () => shapes.height - 4);
  setAttr(marks.select<SVGTextElement>('text'), 'x', (v) => (v.anchor === 'start' ? v.x + 3 : v.x - 3));
  setAttr(marks.select<SVGTextElement>('text'), 'y', () => shapes.markY);
  setAttr(marks.select<SVGTextElement>('text'), 'text-anchor', (v) => v.anchor);
  setText(marks.select<SVGTextElement>('text'), (v) => v.text);
  setText(marks.select<SVGTitleElement>('title'), (v) => v.title);

  // The cursor jumps, even between consecutive steps: its tween showed nothing the stage does
  // not, and a running transition delayed each step's next frame (Event Timing: most key
  // presses took a frame longer to paint with it).
  const cursor = front
    .selectAll<SVGLineElement, number>('line.cursor')
    .data([shapes.cursorX])
    .join((enter) => enter.append('line').attr('class', 'cursor'));
  setAttr(cursor, 'x1', (x) => x);
  setAttr(cursor, 'x2', (x) => x);
  setAttr(cursor, 'y1', () => 2);
  setAttr(cursor, 'y2', () => shapes.height - 2);
}
