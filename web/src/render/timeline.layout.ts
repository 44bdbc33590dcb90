// The event timeline: one tick per move (the interleaved part; setup is one block before it),
// coloured by the CPU of the context and shaped by its kind (task: full bar, irq: short bar
// with a notch), a failed cmpxchg marked ✕ and its retry bracketed up to the context's next
// successful cmpxchg. Moves kept ahead of the cursor are drawn hollow. Pure; see timeline.view.ts.
import type { ContextView, SimEvent } from '../sim/types';

export const TL_HEIGHT = 58;
const SETUP_W = 26;
const PAD = 8;
const TICK_TOP = 16;
const TICK_H = 26;

export interface Tick {
  readonly key: string;
  /** Move index (0-based); clicking it goes to `move + 1`. */
  readonly move: number;
  readonly x: number;
  readonly w: number;
  readonly y: number;
  readonly h: number;
  readonly cpu: number | null;
  readonly kind: 'task' | 'irq' | 'migrate';
  readonly failed: boolean;
  /** Ahead of the cursor (kept for stepping forward). */
  readonly future: boolean;
  readonly title: string;
}

export interface Bracket {
  readonly key: string;
  readonly x1: number;
  readonly x2: number;
  readonly y: number;
}

export interface TimelineShapes {
  readonly width: number;
  readonly height: number;
  readonly setup: { readonly x: number; readonly w: number };
  readonly ticks: readonly Tick[];
  readonly brackets: readonly Bracket[];
  /** x of the cursor line (after `cursor` moves). */
  readonly cursorX: number;
  /** Total moves in the schedule. */
  readonly total: number;
  /** Pixels per move. */
  readonly step: number;
}

/**
 * How many moves the width is divided into: the next of 8, 12, 16, 24, 32, 48… at or above
 * `total`. The ticks fill two thirds of the width or more, and a move added to the schedule
 * moves no tick until it crosses one of those sizes (a step then writes one tick, not all).
 */
export function capacityFor(total: number): number {
  let cap = 8;
  while (cap < total) cap = cap % 3 === 0 ? (cap / 3) * 4 : (cap / 2) * 3;
  return cap;
}

/** The move index under x, as a cursor (0 = before the first move). */
export function cursorAt(shapes: TimelineShapes, x: number): number {
  const start = shapes.setup.x + shapes.setup.w;
  if (x <= start || shapes.total === 0) return 0;
  return Math.max(0, Math.min(shapes.total, Math.round((x - start) / shapes.step)));
}

export function layoutTimeline(
  events: readonly SimEvent[],
  schedule: readonly string[],
  cursor: number,
  contexts: readonly ContextView[],
  width: number,
): TimelineShapes {
  const total = schedule.length;
  const start = PAD + SETUP_W + 4;
  const step = (width - PAD - start) / capacityFor(total);
  const byMove = new Map<number, SimEvent[]>();
  for (const e of events) {
    if (e.mv === null) continue;
    byMove.set(e.mv, [...(byMove.get(e.mv) ?? []), e]);
  }
  const ctxById = new Map(contexts.map((c) => [c.id, c]));
  const ticks: Tick[] = [];
  schedule.forEach((move, i) => {
    const evs = byMove.get(i) ?? [];
    const first = evs[0];
    const migrate = move.startsWith('migrate:');
    const ctxId = migrate ? (move.split(':')[1] ?? move) : move;
    const ctx = ctxById.get(ctxId);
    const kind = migrate ? 'migrate' : ctx?.kind === 'irq' ? 'irq' : 'task';
    const failed = evs.some((e) => e.ok === false);
    const cpu = first?.cpu ?? ctx?.cpu ?? null;
    const w = Math.max(1, Math.min(step - (step > 4 ? 1 : 0), 18));
    const h = kind === 'irq' ? TICK_H - 8 : kind === 'migrate' ? 10 : TICK_H;
    const title =
      first === undefined
        ? `move ${i + 1}: ${move}`
        : `move ${i + 1}: ${move} · ${first.label} · ${first.narration}`;
    ticks.push({
      key: `tick:${i}`,
      move: i,
      x: start + i * step + (step - w) / 2,
      w,
      y: TICK_TOP + (TICK_H - h),
      h,
      cpu,
      kind,
      failed,
      future: i >= cursor,
      title,
    });
  });
  // Retry brackets: from a failed cmpxchg to the same context's next successful one.
  const brackets: Bracket[] = [];
  const moveEvents = events.filter((e) => e.mv !== null);
  moveEvents.forEach((e, i) => {
    if (e.ok !== false || e.mv === null) return;
    const next = moveEvents.slice(i + 1).find((n) => n.ctx === e.ctx && n.ok === true);
    const end = next?.mv ?? Math.min(total, cursor) - 1;
    if (end <= e.mv) return;
    brackets.push({ key: `retry:${e.mv}`, x1: start + e.mv * step, x2: start + (end + 1) * step, y: TICK_TOP + TICK_H + 6 });
  });
  return {
    width,
    height: TL_HEIGHT,
    setup: { x: PAD, w: SETUP_W },
    ticks,
    brackets,
    cursorX: start + cursor * step,
    total,
    step,
  };
}
