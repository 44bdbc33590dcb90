// The event timeline: one lane per context, labelled with its name, kind and CPU,
// and one tick per move in the lane of the context it stepped (setup is one block
// before them all). Ticks take the colour of their CPU; what matters is written, not only
// coloured: a failed cmpxchg is a ✕ over its tick and its retry is bracketed up to the
// context's next successful cmpxchg; a broken invariant is a line across the lanes with its
// name. Moves kept ahead of the cursor are drawn hollow. Pure; see timeline.view.ts.
import type { ContextView, SimEvent, Violation } from '../sim/types';

/** The row of marks (✕, ⚠ INV-n) over the lanes, and the height of one lane. */
const MARK_H = 18;
const LANE_H = 22;
const BOTTOM = 6;
/** The lane labels' column: `I · irq · CPU 0` in the 12 px monospace font, and a margin. */
const LABEL_W = 124;
const SETUP_W = 26;
const PAD = 8;

/** The timeline's height for `lanes` lanes (at least one). */
export function timelineHeight(lanes: number): number {
  return MARK_H + Math.max(1, lanes) * LANE_H + BOTTOM;
}

export const TL_HEIGHT = timelineHeight(2);

export interface Lane {
  readonly key: string;
  readonly y: number;
  readonly h: number;
  /** `T · CPU 0`, `I · irq · CPU 0`. */
  readonly label: string;
  readonly cpu: number;
}

/** A broken invariant: a line across the lanes at the move that broke it, with its name. */
export interface ViolationMark {
  readonly key: string;
  readonly x: number;
  readonly text: string;
  readonly anchor: 'start' | 'end';
  readonly title: string;
}

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
  readonly lanes: readonly Lane[];
  readonly violations: readonly ViolationMark[];
  /** The y of the marks' baseline (✕ and ⚠ texts). */
  readonly markY: number;
  readonly setup: { readonly x: number; readonly y: number; readonly w: number; readonly h: number };
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

/**
 * Above this many moves (a long link's), the timeline draws a tick per pixel column and lane
 * (`binTicks`), not one per move: a hundred thousand SVG elements took seconds to draw and
 * made every step slow. Every schedule a learner steps by hand is far below it.
 */
export const MAX_TICKS = 4_096;
/** How many columns a binned timeline has at most: one per two pixels of a laptop's width. */
const BINS = 512;

/**
 * The ticks of a long schedule: the moves cut into at most BINS runs of equal length, and in
 * each run one tick per context that moved in it (a step's kind over a migration's), failed
 * when one of its cmpxchg failed, hollow when the run starts at or after the cursor; its title
 * says which moves it covers and how many were that context's.
 */
function binTicks(
  schedule: readonly string[],
  byMove: ReadonlyMap<number, SimEvent[]>,
  ctxById: ReadonlyMap<string, ContextView>,
  laneOf: ReadonlyMap<string, number>,
  start: number,
  step: number,
): BinTick[] {
  const per = Math.ceil(schedule.length / BINS);
  const w = Math.max(1, per * step - (per * step > 4 ? 1 : 0));
  const ticks: BinTick[] = [];
  for (let from = 0; from < schedule.length; from += per) {
    const to = Math.min(schedule.length, from + per);
    const lanes = new Map<string, { steps: number; migrations: number; failed: boolean; cpu: number | null }>();
    for (let i = from; i < to; i++) {
      const move = schedule[i] ?? '';
      const migrate = move.startsWith('migrate:');
      // `migrate:T:1`'s context, without a split per move (a hundred thousand arrays).
      const ctxId = migrate ? move.slice(8, move.lastIndexOf(':') > 8 ? move.lastIndexOf(':') : undefined) : move;
      let lane = lanes.get(ctxId);
      if (lane === undefined) lanes.set(ctxId, (lane = { steps: 0, migrations: 0, failed: false, cpu: null }));
      const evs = byMove.get(i);
      if (migrate) lane.migrations++;
      else lane.steps++;
      if (evs !== undefined) {
        lane.failed ||= evs.some((e) => e.ok === false);
        lane.cpu = evs[0]?.cpu ?? lane.cpu;
      }
    }
    for (const [ctxId, lane] of lanes) {
      const ctx = ctxById.get(ctxId);
      const kind = lane.steps === 0 ? 'migrate' : ctx?.kind === 'irq' ? 'irq' : 'task';
      const h = kind === 'migrate' ? 8 : LANE_H - 8;
      const laneTop = MARK_H + (laneOf.get(ctxId) ?? 0) * LANE_H;
      const what = [lane.steps > 0 ? `${lane.steps} step${lane.steps === 1 ? '' : 's'}` : '', lane.migrations > 0 ? `${lane.migrations} migration${lane.migrations === 1 ? '' : 's'}` : '']
        .filter((x) => x !== '')
        .join(' and ');
      ticks.push({
        key: `bin:${from}:${ctxId}`,
        move: to - 1,
        x: start + from * step,
        w,
        y: laneTop + (LANE_H - 2 - h) / 2,
        h,
        cpu: lane.cpu ?? ctx?.cpu ?? null,
        kind,
        failed: lane.failed,
        future: false,
        first: from,
        title: `moves ${from + 1}–${to}: ${what} of ${ctxId}${lane.failed ? ' · a compare-and-swap failed' : ''}`,
      });
    }
  }
  return ticks;
}

/** A binned tick and the first move of its run. */
interface BinTick extends Tick {
  readonly first: number;
}

/**
 * The last binned ticks and what they were made of: a step moves only the cursor, and the
 * ticks are then the same but for which are hollow (a hundred thousand moves were walked on
 * every step).
 */
let lastBins: { readonly of: readonly unknown[]; readonly ticks: readonly BinTick[] } | null = null;

function binnedAt(cursor: number, make: () => BinTick[], of: readonly unknown[]): Tick[] {
  if (lastBins === null || lastBins.of.length !== of.length || lastBins.of.some((x, i) => x !== of[i])) {
    lastBins = { of, ticks: make() };
  }
  return lastBins.ticks.map((t) => ({ ...t, future: t.first >= cursor }));
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
  violations: readonly Violation[] = [],
): TimelineShapes {
  const total = schedule.length;
  const start = PAD + LABEL_W + SETUP_W + 4;
  const step = (width - PAD - start) / capacityFor(total);
  const byMove = new Map<number, SimEvent[]>();
  for (const e of events) {
    if (e.mv === null) continue;
    let list = byMove.get(e.mv);
    if (list === undefined) byMove.set(e.mv, (list = []));
    list.push(e);
  }
  const laneOf = new Map<string, number>();
  const lanes: Lane[] = contexts.map((c, i) => {
    laneOf.set(c.id, i);
    return {
      key: `lane:${c.id}`,
      y: MARK_H + i * LANE_H,
      h: LANE_H,
      label: c.kind === 'irq' ? `${c.id} · irq · CPU ${c.cpu}` : `${c.id} · CPU ${c.cpu}`,
      cpu: c.cpu,
    };
  });
  const ctxById = new Map(contexts.map((c) => [c.id, c]));
  const ticks: Tick[] = [];
  const binned = total > MAX_TICKS;
  if (binned) {
    ticks.push(...binnedAt(cursor, () => binTicks(schedule, byMove, ctxById, laneOf, start, step), [events, schedule, contexts, width]));
  } else schedule.forEach((move, i) => {
    const evs = byMove.get(i) ?? [];
    const first = evs[0];
    const migrate = move.startsWith('migrate:');
    const ctxId = migrate ? (move.split(':')[1] ?? move) : move;
    const ctx = ctxById.get(ctxId);
    const kind = migrate ? 'migrate' : ctx?.kind === 'irq' ? 'irq' : 'task';
    const failed = evs.some((e) => e.ok === false);
    const cpu = first?.cpu ?? ctx?.cpu ?? null;
    const w = Math.max(1, Math.min(step - (step > 4 ? 1 : 0), 18));
    const laneTop = MARK_H + (laneOf.get(ctxId) ?? 0) * LANE_H;
    // A migration is a short tick at the middle of its task's lane.
    const h = kind === 'migrate' ? 8 : LANE_H - 8;
    const title =
      first === undefined
        ? `move ${i + 1}: ${move}`
        : `move ${i + 1}: ${move} · ${first.label} · ${first.narration}${failed ? ' · the compare-and-swap failed' : ''}`;
    ticks.push({
      key: `tick:${i}`,
      move: i,
      x: start + i * step + (step - w) / 2,
      w,
      y: laneTop + (LANE_H - 2 - h) / 2,
      h,
      cpu,
      kind,
      failed,
      future: i >= cursor,
      title,
    });
  });
  // Retry brackets: from a failed cmpxchg to the same context's next successful one, along
  // the bottom of that context's lane.
  const brackets: Bracket[] = [];
  const moveEvents = events.filter((e) => e.mv !== null);
  // Each context's next successful cmpxchg after each event, found in one pass from the end
  // (a search forward from every failure was quadratic in a retry loop's length).
  const nextOk: (number | null)[] = new Array<number | null>(moveEvents.length).fill(null);
  const okAfter = new Map<string, number>();
  for (let i = moveEvents.length - 1; i >= 0; i--) {
    const e = moveEvents[i];
    if (e === undefined) continue;
    nextOk[i] = okAfter.get(e.ctx) ?? null;
    if (e.ok === true && e.mv !== null) okAfter.set(e.ctx, e.mv);
  }
  moveEvents.forEach((e, i) => {
    if (e.ok !== false || e.mv === null) return;
    const end = nextOk[i] ?? Math.min(total, cursor) - 1;
    if (end <= e.mv) return;
    const laneTop = MARK_H + (laneOf.get(e.ctx) ?? 0) * LANE_H;
    const bracket = { key: `retry:${e.mv}`, x1: start + e.mv * step, x2: start + (end + 1) * step, y: laneTop + LANE_H - 1 };
    // Binned, brackets of a lane that overlap are one: a retry loop of thousands of failures
    // draws one bracket, not thousands on the same pixels.
    const last = brackets.at(-1);
    if (binned && last !== undefined && last.y === bracket.y && bracket.x1 <= last.x2) {
      brackets[brackets.length - 1] = { ...last, x2: Math.max(last.x2, bracket.x2) };
    } else brackets.push(bracket);
  });
  // Broken invariants, at the move whose step broke them (setup's: at the setup block); those
  // of one move share a mark, their names joined (INV-12 and INV-1 break at the same step).
  const moveOfStep = new Map<number, number | null>(events.map((e) => [e.step, e.mv]));
  const byX = new Map<number, Violation[]>();
  for (const v of violations) {
    const mv = moveOfStep.get(v.step) ?? null;
    const x = mv === null ? PAD + LABEL_W + SETUP_W / 2 : start + (mv + 0.5) * step;
    byX.set(x, [...(byX.get(x) ?? []), v]);
  }
  const marks: ViolationMark[] = [...byX].map(([x, vs]) => ({
    key: `inv:${vs.map((v) => `${v.invariant}@${v.step}`).join(',')}`,
    x,
    text: `⚠ ${vs.map((v) => v.invariant).join(', ')}`,
    anchor: x > width / 2 ? 'end' : 'start',
    title: vs.map((v) => `${v.invariant} broken at step ${v.step}: ${v.message}`).join('\n'),
  }));
  const height = timelineHeight(lanes.length);
  return {
    width,
    height,
    lanes,
    violations: marks,
    markY: MARK_H - 5,
    setup: { x: PAD + LABEL_W, y: MARK_H, w: SETUP_W, h: Math.max(1, lanes.length) * LANE_H - 2 },
    ticks,
    brackets,
    cursorX: start + cursor * step,
    total,
    step,
  };
}

/** The x where lane labels end (for the view). */
export const LANE_LABEL_X = PAD;
