// The cursor shown on a lesson's stage, walking to its target one move at a time so that a
// step's moves play out (each move is one tween of the stage) instead of jumping. Going back,
// a long step, or reduced motion jump at once.
import { useCallback, useEffect, useState } from 'react';

/** Steps with more moves than this jump (they would take too long to watch). */
export const MAX_WALK = 30;
/** The walk of one step lasts about this long, each move between the two bounds below. */
const WALK_MS = 1800;
const MIN_MOVE_MS = 120;
const MAX_MOVE_MS = 320;

interface Walk {
  readonly target: number;
  readonly cursor: number;
  /** ms per move of the current walk. */
  readonly every: number;
}

function start(from: number, target: number, animate: boolean): Walk {
  const n = target - from;
  if (!animate || n <= 0 || n > MAX_WALK) return { target, cursor: target, every: 0 };
  return { target, cursor: from, every: Math.max(MIN_MOVE_MS, Math.min(MAX_MOVE_MS, Math.round(WALK_MS / n))) };
}

/**
 * `cursor`: where the stage is; `walking`: moves remain; `replay(from)`: walk again from
 * `from`; `finish()`: jump to the target.
 */
export function useWalk(
  target: number,
  animate: boolean,
): { cursor: number; walking: boolean; replay: (from: number) => void; finish: () => void } {
  const [walk, setWalk] = useState<Walk>(() => ({ target, cursor: target, every: 0 }));
  let current = walk;
  if (walk.target !== target) {
    // A new target (another step, or the answer given): adjust during render.
    current = start(walk.cursor, target, animate);
    setWalk(current);
  }
  useEffect(() => {
    if (current.cursor >= current.target) return;
    const id = window.setTimeout(() => {
      setWalk((w) => (w.cursor < w.target ? { ...w, cursor: w.cursor + 1 } : w));
    }, current.every);
    return () => window.clearTimeout(id);
  }, [current]);
  const replay = useCallback(
    (from: number) => setWalk((w) => start(Math.min(from, w.target), w.target, true)),
    [],
  );
  const finish = useCallback(() => setWalk((w) => ({ ...w, cursor: w.target })), []);
  return { cursor: current.cursor, walking: current.cursor < current.target, replay, finish };
}
