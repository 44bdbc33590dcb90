// The layout of one comparison's chart, a pure function of the numbers and the width
// (design.md §2: the D3 view in chart.view.ts only draws what this returns; chart.test.ts checks it).
//
// Two rows of diverging bars on one axis, "after ÷ before − 1": the seed's published change
// and the model's, each normalised to its own "before" (the zero line), so numbers from an
// IA64 in 2007 and from the model's cost table compare. On the model's row the tolerance band
// (the seed's ratio ±25 %) is shaded and the seed's change is marked, so "within tolerance"
// and "same direction" can be seen, while the words beside the chart say them.
import { pct } from './format';
import { linear } from './scale';

export type ModelState = 'waiting' | 'running' | 'done' | 'failed';

export interface ChartInput {
  readonly seedRatio: number;
  /** Null until the model's run is back. */
  readonly modelRatio: number | null;
  readonly tolerance: number;
  readonly state: ModelState;
}

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface ChartRow {
  readonly key: 'seed' | 'model';
  readonly label: string;
  /** Baseline of the row's texts. */
  readonly textY: number;
  readonly bar: Rect | null;
  /** Change is negative: the bar goes left of the zero line. */
  readonly negative: boolean;
  readonly value: { readonly x: number; readonly text: string; readonly anchor: 'start' | 'end' } | null;
  /** `running…`, `waiting`, `failed` in place of a bar. */
  readonly status: string | null;
}

export interface ChartTick {
  readonly key: string;
  readonly x: number;
  readonly label: string;
}

export interface ChartShapes {
  readonly width: number;
  readonly height: number;
  readonly zeroX: number;
  /** The top and bottom of the plot (the zero line and the grid span them). */
  readonly plotTop: number;
  readonly plotBottom: number;
  readonly rows: readonly ChartRow[];
  readonly ticks: readonly ChartTick[];
  /** The tolerance band on the model's row, clipped to the plot; `open*`: it goes on beyond. */
  readonly band: (Rect & { readonly openLeft: boolean; readonly openRight: boolean }) | null;
  /** The seed's change marked on the model's row. */
  readonly seedMark: { readonly x: number; readonly y1: number; readonly y2: number } | null;
  /** Where a row's status text is centred. */
  readonly statusX: number;
}

export const ROW_H = 30;
export const BAR_H = 16;
const TOP = 4;
const AXIS_H = 22;
const RIGHT = 6;
/** Room for a value label (`−12.3 %`) beyond the longest bar. */
const VALUE_ROOM = 58;
/** The narrowest span the axis shows (±2 %), so a tiny change is not blown up to full width. */
const MIN_SPAN = 0.04;

const STATUS: Record<ModelState, string | null> = {
  waiting: 'waiting to run',
  running: 'running…',
  done: null,
  failed: 'the run failed',
};

/** The row labels' column (`published` in bold needs about 68 px). */
export function labelWidth(width: number): number {
  return width < 420 ? 80 : 88;
}

/** Lay out the chart at `width` CSS pixels. */
export function layoutRatioChart(input: ChartInput, width: number): ChartShapes {
  const w = Math.max(240, Math.round(width));
  const seed = input.seedRatio - 1;
  const model = input.modelRatio === null ? null : input.modelRatio - 1;
  const values = [0, seed, ...(model === null ? [] : [model])];
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < MIN_SPAN) {
    // Widen around the data, on the side the bars go (keeps 0 inside).
    const extra = MIN_SPAN - (hi - lo);
    if (lo < 0 && hi <= 0) lo -= extra;
    else if (hi > 0 && lo >= 0) hi += extra;
    else {
      lo -= extra / 2;
      hi += extra / 2;
    }
  }
  const x0 = labelWidth(w);
  const x1 = w - RIGHT;
  const padL = lo < 0 ? VALUE_ROOM : 10;
  const padR = hi > 0 ? VALUE_ROOM : 10;
  const x = linear([lo, hi], [x0 + padL, x1 - padR]);
  const plotLo = x.invert(x0);
  const plotHi = x.invert(x1);
  const zeroX = x(0);
  const plotTop = TOP;
  const plotBottom = TOP + 2 * ROW_H;

  const row = (key: 'seed' | 'model', label: string, i: number, change: number | null, status: string | null): ChartRow => {
    const top = TOP + i * ROW_H + (ROW_H - BAR_H) / 2;
    const textY = top + BAR_H / 2 + 4;
    if (change === null) {
      return { key, label, textY, bar: null, negative: false, value: null, status };
    }
    const xv = x(change);
    const negative = change < 0;
    const bar = { x: Math.min(zeroX, xv), y: top, w: Math.max(Math.abs(xv - zeroX), 1.5), h: BAR_H };
    const value = negative
      ? { x: bar.x - 4, text: pct(change), anchor: 'end' as const }
      : { x: bar.x + bar.w + 4, text: pct(change), anchor: 'start' as const };
    return { key, label, textY, bar, negative, value, status: null };
  };

  const rows = [
    row('seed', 'published', 0, seed, null),
    row('model', 'model', 1, model, model === null ? STATUS[input.state] : null),
  ];

  const count = Math.max(2, Math.min(8, Math.floor((x1 - x0) / 76)));
  const ticks = x
    .ticks(count)
    .filter((t) => t >= plotLo && t <= plotHi)
    .map((t) => ({ key: t.toFixed(6), x: x(t), label: Math.abs(t) < 1e-9 ? '0' : pct(t, Math.abs(t * 100 - Math.round(t * 100)) < 1e-6 ? 0 : 1) }));

  let band: ChartShapes['band'] = null;
  let seedMark: ChartShapes['seedMark'] = null;
  if (input.state === 'done' && model !== null) {
    const bLo = input.seedRatio * (1 - input.tolerance) - 1;
    const bHi = input.seedRatio * (1 + input.tolerance) - 1;
    const cLo = Math.max(bLo, plotLo);
    const cHi = Math.min(bHi, plotHi);
    if (cHi > cLo) {
      band = {
        x: x(cLo),
        y: TOP + ROW_H + 2,
        w: x(cHi) - x(cLo),
        h: ROW_H - 4,
        openLeft: bLo < plotLo,
        openRight: bHi > plotHi,
      };
    }
    seedMark = { x: x(seed), y1: TOP + ROW_H + 1, y2: TOP + 2 * ROW_H - 1 };
  }

  return {
    width: w,
    height: plotBottom + AXIS_H,
    zeroX,
    plotTop,
    plotBottom,
    rows,
    ticks,
    band,
    seedMark,
    statusX: (x0 + x1) / 2,
  };
}

/** The chart in words (the SVG's accessible name). */
export function describeChart(input: ChartInput, tolerance: number): string {
  const seed = `Published: after ÷ before is ${input.seedRatio.toFixed(3)} (${pct(input.seedRatio - 1)}).`;
  if (input.modelRatio === null) return `${seed} Model: ${STATUS[input.state] ?? ''}.`;
  return `${seed} Model: ${input.modelRatio.toFixed(3)} (${pct(input.modelRatio - 1)}); the shaded band is the seed's ratio ±${Math.round(tolerance * 100)} %.`;
}
