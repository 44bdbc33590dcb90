// A linear scale for the lab's charts: d3-array's `ticks` and the mapping itself. (d3-scale's
// scaleLinear would bring d3-format along for a tickFormat the charts do not use: 5 KB gzip.)
import { ticks } from 'd3';

export interface Linear {
  (value: number): number;
  invert(x: number): number;
  ticks(count: number): number[];
}

export function linear([d0, d1]: readonly [number, number], [r0, r1]: readonly [number, number]): Linear {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const f = (v: number) => r0 + (v - d0) * k;
  f.invert = (x: number) => (k === 0 ? d0 : d0 + (x - r0) / k);
  f.ticks = (count: number) => ticks(d0, d1, count);
  return f;
}
