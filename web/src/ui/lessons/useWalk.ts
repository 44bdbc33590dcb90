// The cursor shown on a lesson's stage, walking to its target one move at a time so that a
// step's moves play out (each move is one tween of the stage) instead of jumping. Going back
// or reduced motion jump at once; a long step plays every move too, faster
// (lesson 04's payoff step of 47 moves used to jump to its end in 0.2 s). The learner sets the pace (`speed`, 0.25× to
// 2×) or takes the step's moves one per press (`stepOne`, which holds the walk where it is).
import { useCallback, useEffect, useState } from 'react';

/** At 1×, the walk of one step lasts about this long, each move between the two bounds below. */
const WALK_MS = 1800;
const MIN_MOVE_MS = 120;
const MAX_MOVE_MS = 320;
/**
 * A long step's walk lasts at most this long at 1× (47 moves: 5.6 s at MIN_MOVE_MS, under it):
 * past it each move gets less time, never under MIN_FRAME_MS, so every move is still drawn.
 */
export const MAX_WALK_MS = 8000;
/** A move shown for at least this long: two frames at 60 Hz. */
export const MIN_FRAME_MS = 34;

/** ms per move of a walk of `n` moves at `speed` (pure; 0 for no move). */
export function moveMs(n: number, speed: number): number {
  if (n <= 0) return 0;
  let every = Math.max(MIN_MOVE_MS, Math.min(MAX_MOVE_MS, WALK_MS / n));
  if (every * n > MAX_WALK_MS) every = Math.max(MIN_FRAME_MS, MAX_WALK_MS / n);
  return Math.round(every / speed);
}

/** The paces a learner may choose. */
export const SPEEDS = [0.25, 0.5, 1, 2] as const;
export type Speed = (typeof SPEEDS)[number];

interface Walk {
  /** Which run the cursor counts moves of (a what-if step shows another). */
  readonly track: string;
  readonly target: number;
  readonly cursor: number;
  /** ms per move of the current walk. */
  readonly every: number;
  /** Held by `stepOne`: the cursor moves only on a press. */
  readonly held: boolean;
}

function start(track: string, from: number, target: number, animate: boolean, speed: number): Walk {
  const n = target - from;
  if (!animate || n <= 0) return { track, target, cursor: target, every: 0, held: false };
  return { track, target, cursor: from, every: moveMs(n, speed), held: false };
}

/**
 * `cursor`: where the stage is; `walking`: moves remain; `replay(from)`: walk again from
 * `from`; `finish()`: jump to the target; `stepOne(from)`: one move on (from `from` when the
 * step has been played out), then hold. `track` names the run the cursor counts in and
 * `trackStart` where a new run's walk begins.
 */
export function useWalk(
  target: number,
  animate: boolean,
  track = '',
  trackStart = target,
  speed: number = 1,
): {
  cursor: number;
  walking: boolean;
  held: boolean;
  replay: (from: number) => void;
  finish: () => void;
  stepOne: (from: number) => void;
} {
  const [walk, setWalk] = useState<Walk>(() => ({ track, target, cursor: target, every: 0, held: false }));
  let current = walk;
  if (walk.track !== track) {
    // Another run on the stage (a what-if step, or back from one): walk it from its start.
    current = start(track, trackStart, target, animate, speed);
    setWalk(current);
  } else if (walk.target !== target) {
    // A new target (another step, or the answer given): adjust during render.
    current = start(track, walk.cursor, target, animate, speed);
    setWalk(current);
  }
  useEffect(() => {
    if (current.held || current.cursor >= current.target) return;
    const id = window.setTimeout(() => {
      setWalk((w) => (w.cursor < w.target && !w.held ? { ...w, cursor: w.cursor + 1 } : w));
    }, current.every);
    return () => window.clearTimeout(id);
  }, [current]);
  const replay = useCallback(
    (from: number) => setWalk((w) => start(w.track, Math.min(from, w.target), w.target, true, speed)),
    [speed],
  );
  const finish = useCallback(() => setWalk((w) => ({ ...w, cursor: w.target, held: false })), []);
  const stepOne = useCallback(
    (from: number) =>
      setWalk((w) => {
        const at = w.cursor >= w.target ? Math.min(from + 1, w.target) : w.cursor + 1;
        return { ...w, cursor: Math.min(at, w.target), held: at < w.target };
      }),
    [],
  );
  return {
    cursor: current.cursor,
    walking: current.cursor < current.target,
    held: current.held,
    replay,
    finish,
    stepOne,
  };
}
