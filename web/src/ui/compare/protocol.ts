// The messages between `#/compare` and its worker (compare.worker.ts). The page asks for a
// scenario once, then for frames by operation index; the worker sends what it has loaded, its
// progress while the runs go on, and each frame once both sides have reached it.
import type { Design } from '../../state/compare';
import type { Loaded, Progress, SideFrame } from './engine';

export type CompareRequest =
  | {
      readonly type: 'slub-lab:compare-load';
      readonly scenario: string;
      /** A built-in story's schedule for each design (scenarios.ts `compareSchedules`). */
      readonly schedules: Partial<Record<Design, readonly string[]>> | null;
      /** The designs this worker runs (the page starts one worker per design). */
      readonly eras: readonly Design[];
    }
  /** The frame after k operations; a later request replaces one not answered yet. */
  | { readonly type: 'slub-lab:compare-frame'; readonly k: number };

export type CompareReply =
  | Loaded
  | Progress
  | { readonly kind: 'frame'; readonly k: number; readonly frames: readonly SideFrame[] }
  /** Bad input: the message says what is wrong (shown as a located error). */
  | { readonly kind: 'error'; readonly message: string }
  /** A bug of the simulator (a Rust panic): the crash screen. */
  | { readonly kind: 'crash'; readonly message: string };
