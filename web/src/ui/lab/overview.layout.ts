// The layout of the lab's overview: every comparison on one axis of change (after ÷ before − 1),
// one row per case, the seed's published change (◆) and the model's (●) joined by a line, so
// which cases agree in direction and how far apart they are shows at a glance. Pure (tested in
// chart.test.ts); overview.view.ts draws it.
import { pct } from './format';
import { linear } from './scale';

export interface OverviewRowInput {
  readonly id: string;
  readonly seedRatio: number;
  /** Null until the model's run is back. */
  readonly modelRatio: number | null;
}

export interface OverviewRow {
  readonly id: string;
  readonly y: number;
  readonly seedX: number;
  readonly modelX: number | null;
  /** The row's model change is on the other side of zero from the seed's. */
  readonly opposite: boolean;
}

export interface OverviewShapes {
  readonly width: number;
  readonly height: number;
  readonly labelX: number;
  readonly zeroX: number;
  readonly plotTop: number;
  readonly plotBottom: number;
  readonly rows: readonly OverviewRow[];
  readonly ticks: readonly { readonly key: string; readonly x: number; readonly label: string }[];
}

export const OVERVIEW_ROW_H = 22;
const TOP = 6;
const AXIS_H = 22;
const LABEL_W = 52;
const RIGHT = 14;
const MIN_SPAN = 0.1;

export function layoutOverview(rows: readonly OverviewRowInput[], width: number): OverviewShapes {
  const w = Math.max(240, Math.round(width));
  const changes = rows.flatMap((r) => [r.seedRatio - 1, ...(r.modelRatio === null ? [] : [r.modelRatio - 1])]);
  let lo = Math.min(0, ...changes);
  let hi = Math.max(0, ...changes);
  if (hi - lo < MIN_SPAN) {
    const extra = MIN_SPAN - (hi - lo);
    lo -= extra / 2;
    hi += extra / 2;
  }
  const pad = (hi - lo) * 0.04;
  const x = linear([lo - pad, hi + pad], [LABEL_W + 8, w - RIGHT]);
  const plotBottom = TOP + rows.length * OVERVIEW_ROW_H;
  const sign = (v: number) => (Math.abs(v) < 0.0005 ? 0 : Math.sign(v));
  const count = Math.max(3, Math.min(8, Math.floor((w - LABEL_W) / 55)));
  return {
    width: w,
    height: plotBottom + AXIS_H,
    labelX: LABEL_W,
    zeroX: x(0),
    plotTop: TOP,
    plotBottom,
    rows: rows.map((r, i) => ({
      id: r.id,
      y: TOP + i * OVERVIEW_ROW_H + OVERVIEW_ROW_H / 2,
      seedX: x(r.seedRatio - 1),
      modelX: r.modelRatio === null ? null : x(r.modelRatio - 1),
      opposite: r.modelRatio !== null && sign(r.modelRatio - 1) * sign(r.seedRatio - 1) < 0,
    })),
    ticks: x.ticks(count).map((t) => ({
      key: t.toFixed(6),
      x: x(t),
      label: Math.abs(t) < 1e-9 ? '0' : pct(t, Math.abs(t * 100 - Math.round(t * 100)) < 1e-6 ? 0 : 1),
    })),
  };
}
