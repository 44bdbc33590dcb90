// The pace of a lesson's moves: the learner's speed (0.25× to 2×, remembered in localStorage)
// and the key of the run a step's stage counts its moves in.
import { useCallback, useState, type ReactElement } from 'react';
import type { LessonStep } from '../../lessons';
import { SPEEDS, type Speed } from './useWalk';

const KEY = 'slub-lab.lesson-speed';

function stored(): Speed {
  try {
    const v = Number(globalThis.localStorage.getItem(KEY));
    return (SPEEDS as readonly number[]).includes(v) ? (v as Speed) : 1;
  } catch {
    return 1;
  }
}

/** The learner's speed and its setter, remembered across lessons and visits. */
export function useSpeed(): [Speed, (s: Speed) => void] {
  const [speed, set] = useState<Speed>(stored);
  const choose = useCallback((s: Speed) => {
    set(s);
    try {
      globalThis.localStorage.setItem(KEY, String(s));
    } catch {
      // Storage refused (private mode, quota): the speed holds for this page only.
    }
  }, []);
  return [speed, choose];
}

/**
 * The run a step's stage shows: the lesson's own (one key for all its steps, so the cursor
 * walks on from step to step) or a what-if step's own.
 */
export function trackKey(step: LessonStep, scenario: string): string {
  return step.run === null ? scenario : `${scenario}\u0000what-if ${String(step.n)}`;
}

/**
 * The speed as a labelled group of toggle buttons. Buttons, not radios: the arrow keys on a
 * radio group change its choice, and after a click on a speed → must turn the step.
 */
export function SpeedControl({ speed, onChange }: { speed: Speed; onChange: (s: Speed) => void }): ReactElement {
  return (
    <div className="speed-control" role="group" aria-labelledby="lesson-speed-label" data-testid="speed">
      <span id="lesson-speed-label" className="small">
        Speed
      </span>
      {SPEEDS.map((s) => (
        <button key={s} type="button" className={s === speed ? 'chosen' : undefined} aria-pressed={s === speed} onClick={() => onChange(s)}>
          {`${String(s)}×`}
        </button>
      ))}
    </div>
  );
}
