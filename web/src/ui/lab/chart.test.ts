// The lab's chart layouts (chart.layout.ts, overview.layout.ts): bars from the zero line, every
// label inside the chart at a phone's width as at a desktop's, the tolerance band where the
// seed's ratio ±25 % is, and the overview's rows.
import { describe, expect, it } from 'vitest';
import { labelWidth, layoutRatioChart, type ChartInput, type ChartShapes } from './chart.layout';
import { layoutOverview } from './overview.layout';

const done = (seedRatio: number, modelRatio: number): ChartInput => ({ seedRatio, modelRatio, tolerance: 0.25, state: 'done' });
/** Monospace 12px: about 7.3 px a character. */
const textWidth = (t: string) => t.length * 7.3;

function labelsInside(s: ChartShapes): void {
  for (const r of s.rows) {
    if (r.value === null) continue;
    const left = r.value.anchor === 'end' ? r.value.x - textWidth(r.value.text) : r.value.x;
    const right = r.value.anchor === 'end' ? r.value.x : r.value.x + textWidth(r.value.text);
    expect(left, `${r.key} ${r.value.text}`).toBeGreaterThanOrEqual(labelWidth(s.width) - 1);
    expect(right, `${r.key} ${r.value.text}`).toBeLessThanOrEqual(s.width);
  }
  for (const t of s.ticks) {
    expect(t.x).toBeGreaterThanOrEqual(labelWidth(s.width));
    expect(t.x).toBeLessThanOrEqual(s.width);
  }
}

describe('the comparison chart', () => {
  it('draws both changes as bars from the zero line, labelled in %', () => {
    for (const width of [320, 560, 900]) {
      const s = layoutRatioChart(done(1.3619, 1.2484), width);
      const [seed, model] = s.rows;
      if (seed?.bar == null || model?.bar == null) throw new Error('bars missing');
      expect(seed.bar.x).toBeCloseTo(s.zeroX);
      expect(model.bar.x).toBeCloseTo(s.zeroX);
      expect(seed.bar.w).toBeGreaterThan(model.bar.w);
      expect(seed.value?.text).toBe('+36.2 %');
      expect(model.value?.text).toBe('+24.8 %');
      labelsInside(s);
    }
  });

  it('draws a decrease to the left with its label on the left, and opposite signs on both sides', () => {
    const s = layoutRatioChart(done(1.0073, 0.9528), 360);
    const [seed, model] = s.rows;
    expect(seed?.negative).toBe(false);
    expect(model?.negative).toBe(true);
    expect((model?.bar?.x ?? 0) + (model?.bar?.w ?? 0)).toBeCloseTo(s.zeroX);
    expect(model?.value?.anchor).toBe('end');
    labelsInside(s);
    expect(s.ticks.some((t) => t.label === '0')).toBe(true);
  });

  it('shades the seed’s ratio ±25 % on the model’s row, clipped to the plot, and marks the seed', () => {
    const s = layoutRatioChart(done(0.9348, 0.9469), 600);
    if (s.band === null || s.seedMark === null) throw new Error('no band');
    // 0.9348 × 0.75 − 1 = −30 %, 0.9348 × 1.25 − 1 = +17 %: wider than the data on both sides.
    expect(s.band.openLeft).toBe(true);
    expect(s.band.openRight).toBe(true);
    expect(s.band.x).toBeCloseTo(labelWidth(600));
    expect(s.seedMark.x).toBeCloseTo(s.rows[0]?.bar?.x ?? Number.NaN);
    const narrow = layoutRatioChart(done(1.3619, 1.2484), 600);
    expect(narrow.band?.openLeft).toBe(false);
  });

  it('says the model is waiting or running until its result is back, with no band', () => {
    const s = layoutRatioChart({ seedRatio: 1.36, modelRatio: null, tolerance: 0.25, state: 'running' }, 500);
    expect(s.rows[1]).toMatchObject({ bar: null, value: null, status: 'running…' });
    expect(s.band).toBeNull();
    expect(s.seedMark).toBeNull();
    expect(layoutRatioChart({ seedRatio: 1.36, modelRatio: null, tolerance: 0.25, state: 'waiting' }, 500).rows[1]?.status).toBe('waiting to run');
  });

  it('does not blow a tiny change up to the whole width', () => {
    const s = layoutRatioChart(done(1.001, 1.002), 800);
    expect(s.rows[0]?.bar?.w ?? 0).toBeLessThan(100);
  });
});

describe('the overview', () => {
  it('puts every case on one axis, one row each, and marks the opposite ones', () => {
    const s = layoutOverview(
      [
        { id: '003', seedRatio: 1.36, modelRatio: 1.25 },
        { id: '004e', seedRatio: 1.0073, modelRatio: 0.9528 },
        { id: '001', seedRatio: 0.5, modelRatio: null },
      ],
      480,
    );
    expect(s.rows.map((r) => r.id)).toEqual(['003', '004e', '001']);
    expect(s.rows[1]?.opposite).toBe(true);
    expect(s.rows[0]?.opposite).toBe(false);
    expect(s.rows[2]?.modelX).toBeNull();
    const ys = s.rows.map((r) => r.y);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    for (const r of s.rows) {
      expect(r.seedX).toBeGreaterThan(s.labelX);
      expect(r.seedX).toBeLessThanOrEqual(s.width);
    }
    expect((s.rows[0]?.seedX ?? 0) > s.zeroX && (s.rows[2]?.seedX ?? 0) < s.zeroX).toBe(true);
  });
});
