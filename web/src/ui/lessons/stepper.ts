// Lesson steps as a small player: the step shown (from 1), bounded to [lo, hi] (an embed's
// `from`/`to`), and whether it is playing (advancing a step at a time). The same commands as
// the keyboard and the embed's message API (state/commands.ts) drive it. Pure.
import type { CommandName } from '../../state/commands';

export interface StepperState {
  readonly step: number;
  readonly playing: boolean;
}

export interface StepBounds {
  readonly lo: number;
  readonly hi: number;
}

export type StepAction =
  | { readonly type: 'goto'; readonly step: number }
  | { readonly type: 'next' }
  | { readonly type: 'prev' }
  | { readonly type: 'first' }
  | { readonly type: 'last' }
  | { readonly type: 'play' }
  | { readonly type: 'pause' }
  | { readonly type: 'togglePlay' }
  /** The play timer: the next step, or stop at the last. */
  | { readonly type: 'tick' };

const clamp = (n: number, b: StepBounds) => Math.max(b.lo, Math.min(b.hi, Math.round(n)));

export function stepReducer(bounds: StepBounds): (s: StepperState, a: StepAction) => StepperState {
  const to = (s: StepperState, step: number, playing = s.playing): StepperState => {
    const n = clamp(step, bounds);
    return n === s.step && playing === s.playing ? s : { step: n, playing };
  };
  return (s, a) => {
    switch (a.type) {
      case 'goto':
        return to(s, a.step);
      case 'next':
        return to(s, s.step + 1);
      case 'prev':
        return to(s, s.step - 1, false);
      case 'first':
        return to(s, bounds.lo, false);
      case 'last':
        return to(s, bounds.hi, false);
      case 'play':
        // Playing from the last step starts over.
        return s.step >= bounds.hi ? to(s, bounds.lo, true) : to(s, s.step, true);
      case 'pause':
        return to(s, s.step, false);
      case 'togglePlay':
        return stepReducer(bounds)(s, { type: s.playing ? 'pause' : 'play' });
      case 'tick':
        if (!s.playing) return s;
        return s.step >= bounds.hi ? to(s, s.step, false) : to(s, s.step + 1, s.step + 1 < bounds.hi);
    }
  };
}

/** What a command of the shared table does to lesson steps (null: not a step command). */
export function stepAction(name: CommandName, step?: number): StepAction | null {
  switch (name) {
    case 'prev':
    case 'next':
    case 'first':
    case 'last':
    case 'play':
    case 'pause':
    case 'togglePlay':
      return { type: name };
    case 'goto':
      return step === undefined ? null : { type: 'goto', step };
    default:
      return null;
  }
}
