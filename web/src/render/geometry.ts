// Shared geometry and small pure helpers of the render layer (no DOM, no React, no store).

/** Okabe-Ito hues, one per CPU (CSS variables --cpu0..--cpu7 carry them, with dark overrides). */
export const OKABE_ITO = [
  '#E69F00',
  '#56B4E9',
  '#009E73',
  '#0072B2',
  '#D55E00',
  '#CC79A7',
  '#F0E442',
  '#000000',
] as const;

/** The CSS colour of CPU `cpu` (wraps after 8, the model's maximum). */
export function cpuColor(cpu: number): string {
  return `var(--cpu${cpu % 8})`;
}

/** A context's marker: tasks ●, interrupt handlers ⚡ (the shape beside the hue). */
export function contextMarker(kind: string): string {
  return kind === 'irq' ? '⚡' : '●';
}

/** Width of one character of the stage's monospace font (12 px, style.ts), rounded up. */
export const CHAR_W = 7.3;

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Round to tenths, so path strings and tests are stable. */
export function r1(n: number): number {
  return Math.round(n * 10) / 10;
}

/**
 * A free-pointer arrow from the top edge of one chip to another's, arching over the chips
 * between them (higher for farther targets); across rows, a plain curve.
 */
export function arcPath(from: Point, to: Point, chipH: number): string {
  const y1 = from.y - chipH / 2;
  const y2 = to.y - chipH / 2;
  if (Math.abs(from.y - to.y) < 1) {
    const lift = Math.min(8 + Math.abs(to.x - from.x) * 0.12, 22);
    const mx = (from.x + to.x) / 2;
    return `M${r1(from.x)},${r1(y1)} Q${r1(mx)},${r1(y1 - lift * 2)} ${r1(to.x)},${r1(y2 - 1)}`;
  }
  const mx = (from.x + to.x) / 2;
  return `M${r1(from.x)},${r1(y1)} C${r1(mx)},${r1(y1 - 24)} ${r1(mx)},${r1(y2 - 24)} ${r1(to.x)},${r1(y2 - 1)}`;
}

/** A straight link between two chips of a chain, edge to edge. */
export function linkPath(from: Point, to: Point, halfW: number): string {
  if (Math.abs(from.y - to.y) < 1) {
    return `M${r1(from.x + halfW)},${r1(from.y)} L${r1(to.x - halfW - 2)},${r1(to.y)}`;
  }
  // wrapped to the next row: down from under the chip, back to the start of the row
  return `M${r1(from.x)},${r1(from.y + 10)} C${r1(from.x)},${r1(to.y - 4)} ${r1(to.x)},${r1(from.y + 6)} ${r1(to.x)},${r1(to.y - 11)}`;
}
