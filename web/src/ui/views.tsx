// React hosts of the D3 views: each owns an element, lays the view out with the pure layout
// function (memoised) and hands the shapes to its D3 renderer in a layout effect. The tween
// length is decided here: consecutive steps animate, jumps and reduced motion do not.
import { createContext, useContext, useLayoutEffect, useMemo, useRef, useState, type PointerEvent, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { describeView } from '../render/describe';
import { focusView, type FocusKeep } from '../render/focus';
import { layoutLines } from '../render/lines.layout';
import { renderLines } from '../render/lines.view';
import { layoutListing } from '../render/listing.layout';
import { renderListing } from '../render/listing.view';
import { layoutStage } from '../render/stage.layout';
import { fitColumns, type StageHide } from '../render/stage.shapes';
import { renderStage } from '../render/stage.view';
import { cursorAt, layoutTimeline } from '../render/timeline.layout';
import { SVG_CSS } from '../render/style';
import { renderTimeline } from '../render/timeline.view';
import { Icon } from './Icon';
import { StageLegend } from './StageLegend';
import type { ListingFunction, SimEvent, View } from '../sim';

export const TWEEN_MS = 320;

/**
 * An embed's density (state/embed.ts `density`), given by embed.tsx to every stage it draws:
 * `projector` draws the stage's text at PROJECTOR_SCALE at least, whatever the page asks.
 */
export const DensityContext = createContext<'normal' | 'projector'>('normal');

/**
 * The stage's scale in a projector embed: its 12 px text at 18.6 px in the frame, which a
 * 1280×720 deck (reveal.js scales its 1280×720 slide by 0.97 there) shows at 18 px.
 */
export const PROJECTOR_SCALE = 1.55;

/**
 * Draw `shapes` with `render` in a layout effect, only when they change (the page re-renders
 * for many reasons: a D3 pass over an unchanged stage is work for nothing). The tween is
 * TWEEN_MS from the last drawn step to the next one; none for a jump, without animation, or
 * for a step that comes while the last one still moves (a held key, like top-speed play:
 * the eye cannot follow, and the frames must keep up; what changed is outlined instead).
 */
function useDraw<E extends Element, S>(
  ref: RefObject<E | null>,
  shapes: S,
  step: number,
  animate: boolean,
  render: (el: E, shapes: S, options: { duration: number }) => void,
): void {
  const last = useRef<{ step: number; at: number } | null>(null);
  useLayoutEffect(() => {
    const prev = last.current;
    const now = performance.now();
    const tween = animate && prev !== null && Math.abs(step - prev.step) === 1 && now - prev.at >= TWEEN_MS;
    if (prev === null || prev.step !== step) last.current = { step, at: now };
    if (ref.current !== null) render(ref.current, shapes, { duration: tween ? TWEEN_MS : 0 });
  }, [ref, shapes, step, animate, render]);
}

/**
 * The D3 views' CSS inside their SVG (so an exported frame carries it), rendered with the SVG:
 * every view's sheet is in the document before the first view draws. Inserted by the first
 * draw instead, the second and third sheets each restyled a stage already drawn (a huge
 * scenario's 7,000 elements, twice, 30-40 ms each, before its first frame).
 */
function SvgStyle() {
  return <style>{SVG_CSS}</style>;
}

interface StageProps {
  /**
   * In an embed: draw the stage as large as the frame's height allows, but never with text
   * under `minScale` × 12 px (a slide's back row): the frame scrolls rather than shrink it.
   */
  fitHeight?: { minScale: number };
  view: View;
  event: SimEvent | undefined;
  selection: string | null;
  step: number;
  animate: boolean;
  onSelect?: (name: string | null) => void;
  /** Parts a lesson holds back at this step (its `reveal`). */
  hide?: StageHide;
  /** Cards drawn in a focused stage even when they say nothing: the ones a step names. */
  keep?: FocusKeep;
  /** Explain the shapes drawn under the stage (not in a slide's embed, whose room is the stage's). */
  legend?: boolean;
  /** Nodes and barns as wide as a card (render/stage.shapes.ts StageOptions). */
  narrowNodes?: boolean;
}

/**
 * The stage, laid out for the width it is given: as many card columns as fit at a
 * readable scale (stage.shapes.ts fitColumns), drawn at that scale, never shrunk below it.
 */
export function StageView({ view, event, selection, step, animate, onSelect, fitHeight, legend = true, hide, keep, narrowNodes = false }: StageProps) {
  const ref = useRef<SVGSVGElement | null>(null);
  const [box, boxPx, room] = useWidth(true);
  const projector = useContext(DensityContext) === 'projector';
  // A projector lays out for the width the stage has at its scale (fewer columns, each larger).
  const px = projector ? boxPx / PROJECTOR_SCALE : boxPx;
  // An embed (fitted to its frame) draws only the cards a step can be about (render/focus.ts);
  // a projector draws no cache lines either, unless the step is about them (the
  // slide about a line moving between CPUs drew no line).
  const focus = projector || fitHeight !== undefined;
  const drawn = useMemo(() => (focus ? focusView(view, keep) : view), [focus, view, keep]);
  const fit = fitColumns(px, Math.max(drawn.cpus.length, 2));
  const { columns } = fit;
  const hideTid = hide?.tid === true;
  const hideLines = hide?.lines === true || (projector && keep?.lines !== true);
  const hidePrimitives = hide?.primitives === true;
  const hideCycles = hide?.cycles === true;
  const shapes = useMemo(
    () =>
      layoutStage(drawn, event, {
        columns,
        selection,
        hide: { tid: hideTid, lines: hideLines, primitives: hidePrimitives, cycles: hideCycles },
        narrowNodes,
      }),
    [drawn, event, columns, selection, hideTid, hideLines, hidePrimitives, hideCycles, narrowNodes],
  );
  let scale = fit.scale;
  if (projector) {
    scale = Math.max(PROJECTOR_SCALE, Math.min(fit.scale * PROJECTOR_SCALE, boxPx / shapes.width, fitHeight === undefined ? Infinity : room / shapes.height));
  } else if (fitHeight !== undefined) {
    scale = Math.max(fitHeight.minScale, Math.min(scale, room / shapes.height));
  }
  useDraw(ref, shapes, step, animate, renderStage);
  // The SVG is drawn taller than the stage (renderStage: its viewBox's height changes in big
  // steps only) and cut to the stage's own height here: a step that makes the stage taller or
  // shorter resizes this box, not the SVG, whose resizing lays out every text it holds again.
  return (
    <div ref={box} className="stage-box" data-width={boxPx}>
      <div className="stage-clip" style={{ width: Math.round(shapes.width * scale), aspectRatio: `${shapes.width} / ${shapes.height}` }}>
        <svg
          ref={ref}
          className="stage"
          data-testid="stage"
          role="img"
          aria-label={`The allocator's state. ${describeView(view)}`}
          onClick={(e) => {
            if (onSelect === undefined) return;
            const target = (e.target as Element).closest('[data-object],[data-slab]');
            onSelect(target?.getAttribute('data-object') ?? target?.getAttribute('data-slab') ?? null);
          }}
        >
          <SvgStyle />
        </svg>
      </div>
      {legend && !projector && <StageLegend shapes={shapes} />}
    </div>
  );
}

export function LinesView({ view, event, step, animate }: Omit<StageProps, 'selection' | 'columns' | 'onSelect'>) {
  const ref = useRef<SVGSVGElement | null>(null);
  const shapes = useMemo(() => layoutLines(view.lines, view.cpus.length, event, view.linesOmitted), [view, event]);
  useDraw(ref, shapes, step, animate, renderLines);
  const summary = [...shapes.rows.map((r) => `${r.longName}: ${r.states.join(' ')}`), ...(shapes.omitted === null ? [] : [shapes.omitted.text])].join('; ');
  return (
    <svg
      ref={ref}
      className="lines"
      data-testid="lines"
      role="img"
      aria-label={`Cache lines, MESI state per CPU. ${summary}`}
      width="100%"
      // Never drawn smaller than its own size (12 px text): a narrow panel scrolls
      // it sideways (.panel scrolls) rather than shrink it.
      style={{ maxWidth: `${shapes.width * 1.35}px`, minWidth: `${shapes.width}px` }}
    >
      <SvgStyle />
    </svg>
  );
}

/** A box's width, and the room from its top to the bottom of the window (both measured). */
function useWidth(atOnce: boolean): [RefObject<HTMLDivElement | null>, number, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [size, setSize] = useState({ width: 800, room: 600 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const measure = () => {
      // (A slide's crop reads it back, as the stage box's data-width, to know the stage is laid
      // out for its box: ui/lessons/LessonEmbed.tsx.)
      const width = Math.max(200, Math.round(el.clientWidth));
      // The room down to the bottom of the box that scrolls the stage (an embed's stage area,
      // with its controls under it), else of the window.
      let bottom = window.innerHeight;
      for (let p = el.parentElement; p !== null; p = p.parentElement) {
        const o = getComputedStyle(p).overflowY;
        if (o === 'auto' || o === 'scroll') {
          bottom = Math.min(bottom, p.getBoundingClientRect().bottom);
          break;
        }
      }
      const room = Math.max(0, Math.round(bottom - el.getBoundingClientRect().top - 8));
      setSize((s) => (s.width === width && s.room === room ? s : { width, room }));
    };
    // The first size: measured at once (the page is laid out here, as it is so far), or taken
    // from the observer's first report, after the browser's own layout and drawn before that
    // frame is painted. A view after the stage waits for the report: measured at once, it laid
    // out a stage just drawn (a huge scenario's, 50-70 ms) before the frame laid it out again.
    let first = !atOnce;
    const ro = new ResizeObserver(() => {
      if (!first) {
        measure();
        return;
      }
      first = false;
      flushSync(measure);
    });
    ro.observe(el);
    window.addEventListener('resize', measure);
    if (atOnce) measure();
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [atOnce]);
  return [ref, size.width, size.room];
}

interface TimelineProps {
  events: readonly SimEvent[];
  schedule: readonly string[];
  cursor: number;
  view: View;
  animate: boolean;
  onGoto: (cursor: number) => void;
}

export function TimelineView({ events, schedule, cursor, view, animate, onGoto }: TimelineProps) {
  const [box, width] = useWidth(false);
  const ref = useRef<SVGSVGElement | null>(null);
  const shapes = useMemo(
    () => layoutTimeline(events, schedule, cursor, view.contexts, width, view.violations),
    [events, schedule, cursor, view.contexts, width, view.violations],
  );
  useDraw(ref, shapes, cursor, animate, renderTimeline);
  const dragging = useRef(false);
  const at = (e: PointerEvent<SVGSVGElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return cursorAt(shapes, ((e.clientX - rect.left) * shapes.width) / rect.width);
  };
  const failed = events.filter((e) => e.ok === false && e.mv !== null).length;
  return (
    <div ref={box} className="timeline">
      <svg
        ref={ref}
        data-testid="timeline"
        role="slider"
        tabIndex={0}
        aria-label="Timeline: a lane per context, one tick per move; drag or use the arrow keys"
        aria-valuemin={0}
        aria-valuemax={schedule.length}
        aria-valuenow={cursor}
        aria-valuetext={`move ${cursor} of ${schedule.length}${failed > 0 ? `, ${failed} failed cmpxchg` : ''}${view.violations.length > 0 ? `, ${view.violations.map((v) => v.invariant).join(' and ')} broken` : ''}`}
        width="100%"
        height={shapes.height}
        onPointerDown={(e) => {
          dragging.current = true;
          e.currentTarget.setPointerCapture(e.pointerId);
          onGoto(at(e));
        }}
        onPointerMove={(e) => {
          if (dragging.current) onGoto(at(e));
        }}
        onPointerUp={() => {
          dragging.current = false;
        }}
        onPointerCancel={() => {
          dragging.current = false;
        }}
      >
        <SvgStyle />
      </svg>
    </div>
  );
}

/**
 * One pane per live context, side by side like threads: who it is, where it
 * runs, what it is doing, and the line it executes next, whole. The listing below has them all.
 */
export function ThreadPanes({ view, listing }: { view: View; listing: readonly ListingFunction[] }) {
  const live = view.contexts.filter((c) => c.state !== 'finished' && c.label !== null);
  if (live.length === 0) return null;
  return (
    <ul className="threads" aria-label="Each context's next line" data-testid="threads">
      {live.map((c) => {
        const line = listing.flatMap((f) => f.lines).find((l) => l.label === c.label);
        return (
          <li key={c.id} style={{ borderLeftColor: `var(--cpu${c.cpu % 8})` }} data-ctx={c.id}>
            <span className="thread-head">
              <Icon name={c.kind === 'irq' ? 'bolt' : 'task'} /> {c.id} · CPU {c.cpu} · {c.state}
              {c.op !== null && <> · {c.op}</>}
            </span>
            <code className="thread-line">
              <span className="muted">{c.label}</span> {line?.text.trim() ?? ''}
            </code>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The code listing: `listing` is the scenario's variant's (`Simulation.listing`), only the lines
 * it runs (its era's fast path).
 */
export function ListingView({
  view,
  listing,
  event,
  hideEras = false,
}: {
  view: View;
  listing: readonly ListingFunction[];
  event: SimEvent | undefined;
  hideEras?: boolean;
}) {
  const ol = useRef<HTMLOListElement | null>(null);
  const rows = useMemo(() => layoutListing(listing, view.contexts, event, hideEras), [listing, view.contexts, event, hideEras]);
  useLayoutEffect(() => {
    const el = ol.current;
    if (el === null) return;
    renderListing(el, rows);
    // Keep the first marked line in view, scrolling the listing only (never the page). The
    // layout is read where the frame has just computed it: a ResizeObserver reports a new
    // target once, after the frame's layout and before its paint. Read in an animation-frame
    // callback instead, it forced that layout early, and the stage's tweens, starting in a later
    // callback of the same frame, made the frame lay the page out a second time.
    const box = el.parentElement;
    const current = el.querySelector<HTMLElement>('li.current, li.executed');
    if (box === null || current === null) return;
    const ro = new ResizeObserver(() => {
      ro.disconnect();
      const top = current.offsetTop - el.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 40) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 3);
      }
    });
    ro.observe(current);
    return () => ro.disconnect();
  }, [rows]);
  return (
    <div className="listing" tabIndex={0} role="region" aria-label="Code listing with each context's next line">
      <ol ref={ol} data-testid="listing" />
    </div>
  );
}
