// Player state and the actions on it (design.md §6: the simulator owns the simulation; the page
// keeps only what the learner chose: scenario, schedule, cursor, speed, selection, and whether
// it is playing). Pure functions, no React, no simulator: whatever an action needs to know about
// the simulation (the enabled moves) comes in the action itself.

/** Play speeds in moves per second; at the top speeds the stage skips its tweens. */
export const SPEEDS = [0.5, 1, 2, 4, 8, 30] as const;
export const DEFAULT_SPEED = 2;
/** From this speed index on, no tween (the frame must keep up). */
export const NO_TWEEN_SPEED = 4;

export interface PlayerState {
  /** The scenario JSON being played, as text (what the learner loaded). */
  readonly scenario: string;
  /** Moves chosen so far; stepping back keeps the ones after the cursor for stepping forward. */
  readonly schedule: readonly string[];
  /** How many moves of `schedule` are applied. */
  readonly cursor: number;
  /** Index into SPEEDS. */
  readonly speed: number;
  readonly playing: boolean;
  /** An object or slab name the learner picked: outlined wherever it appears. */
  readonly selection: string | null;
  /**
   * The end of a loaded schedule (a counterexample, a scenario's script): ▶ Play stops there,
   * on the frame the schedule was written to show, rather than running past it by the
   * default policy. Null once the learner branches off it, or when nothing was loaded.
   */
  readonly stopAt: number | null;
}

export type Action =
  | { readonly type: 'stepBack' }
  /** Redo the next kept move, else apply the first enabled move. */
  | { readonly type: 'stepForward'; readonly enabledMoves: readonly string[] }
  | { readonly type: 'applyMove'; readonly move: string }
  /** Several moves in a row ("run to the end"), each as `applyMove`. */
  | { readonly type: 'applyMoves'; readonly moves: readonly string[] }
  /** A scenario, with the moves to keep (default: its scripted `schedule`) and the cursor. */
  | {
      readonly type: 'loadScenario';
      readonly scenario: string;
      readonly schedule?: readonly string[];
      readonly cursor?: number;
    }
  /** Move the cursor within the kept schedule (clamped). */
  | { readonly type: 'goto'; readonly cursor: number }
  | { readonly type: 'first' }
  | { readonly type: 'last' }
  | { readonly type: 'play' }
  | { readonly type: 'pause' }
  | { readonly type: 'togglePlay' }
  /** One beat of the play timer: step forward, or stop when nothing can move. */
  | { readonly type: 'tick'; readonly enabledMoves: readonly string[] }
  | { readonly type: 'faster' }
  | { readonly type: 'slower' }
  | { readonly type: 'setSpeed'; readonly speed: number }
  | { readonly type: 'select'; readonly name: string | null };

export type ActionType = Action['type'];

/**
 * A scenario at its start. Its scripted moves (`schedule`, if the JSON has one) are kept ahead
 * of the cursor, so stepping forward plays the script; choosing another move branches off it.
 */
export function initialState(scenario: string): PlayerState {
  const schedule = scriptedMoves(scenario);
  return {
    scenario,
    schedule,
    cursor: 0,
    speed: DEFAULT_SPEED,
    playing: false,
    selection: null,
    stopAt: stopFor(schedule.length),
  };
}

/** Where ▶ Play stops for a loaded schedule of `length` moves (none when it is empty). */
export function stopFor(length: number): number | null {
  return length > 0 ? length : null;
}

export function scriptedMoves(scenario: string): string[] {
  try {
    const parsed: unknown = JSON.parse(scenario);
    if (parsed !== null && typeof parsed === 'object' && 'schedule' in parsed) {
      const { schedule } = parsed;
      if (Array.isArray(schedule) && schedule.every((m) => typeof m === 'string')) {
        return schedule;
      }
    }
  } catch {
    // not JSON: the simulator reports why when it is loaded
  }
  return [];
}

const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));

export function perform(state: PlayerState, action: Action): PlayerState {
  switch (action.type) {
    case 'stepBack':
      return state.cursor > 0 ? { ...state, cursor: state.cursor - 1, playing: false } : state;
    case 'stepForward': {
      if (state.cursor < state.schedule.length) return { ...state, cursor: state.cursor + 1 };
      const first = action.enabledMoves[0];
      return first === undefined ? state : perform(state, { type: 'applyMove', move: first });
    }
    case 'applyMove':
      // The same move as the kept one keeps the rest of the kept moves; another one branches.
      if (state.schedule[state.cursor] === action.move) {
        return { ...state, cursor: state.cursor + 1 };
      }
      return {
        ...state,
        schedule: [...state.schedule.slice(0, state.cursor), action.move],
        cursor: state.cursor + 1,
        // A branch inside the loaded schedule leaves it: its end is no longer a stop.
        stopAt: state.stopAt !== null && state.stopAt > state.cursor ? null : state.stopAt,
      };
    case 'applyMoves':
      return action.moves.reduce((s, move) => perform(s, { type: 'applyMove', move }), state);
    case 'loadScenario': {
      const base = initialState(action.scenario);
      const schedule = action.schedule ?? base.schedule;
      return {
        ...base,
        schedule,
        cursor: clamp(action.cursor ?? 0, 0, schedule.length),
        speed: state.speed,
        stopAt: stopFor(schedule.length),
      };
    }
    case 'goto': {
      const cursor = clamp(Math.round(action.cursor), 0, state.schedule.length);
      return cursor === state.cursor ? state : { ...state, cursor };
    }
    case 'first':
      return perform(state, { type: 'goto', cursor: 0 });
    case 'last':
      return perform(state, { type: 'goto', cursor: state.schedule.length });
    case 'play':
      return state.playing ? state : startPlaying(state);
    case 'pause':
      return state.playing ? { ...state, playing: false } : state;
    case 'togglePlay':
      return state.playing ? { ...state, playing: false } : startPlaying(state);
    case 'tick': {
      if (!state.playing) return state;
      // The end of the loaded schedule: stop on its last frame (▶ again replays it).
      if (state.cursor === state.stopAt) return { ...state, playing: false };
      const next = perform(state, { type: 'stepForward', enabledMoves: action.enabledMoves });
      return next === state ? { ...state, playing: false } : next;
    }
    case 'faster':
      return perform(state, { type: 'setSpeed', speed: state.speed + 1 });
    case 'slower':
      return perform(state, { type: 'setSpeed', speed: state.speed - 1 });
    case 'setSpeed': {
      const speed = clamp(Math.round(action.speed), 0, SPEEDS.length - 1);
      return speed === state.speed ? state : { ...state, speed };
    }
    case 'select':
      return { ...state, selection: action.name === state.selection ? null : action.name };
  }
}

/**
 * ▶ Play. At the end of a loaded schedule it replays the schedule from its start (a lecturer
 * showing a counterexample again); Step forward goes on past it.
 */
function startPlaying(state: PlayerState): PlayerState {
  if (state.stopAt !== null && state.cursor === state.stopAt) return { ...state, cursor: 0, playing: true };
  return { ...state, playing: true };
}

export function canStepBack(state: PlayerState): boolean {
  return state.cursor > 0;
}

export function canStepForward(state: PlayerState, enabledMoves: readonly string[]): boolean {
  return state.cursor < state.schedule.length || enabledMoves.length > 0;
}

/** Moves per second at the state's speed. */
export function movesPerSecond(state: PlayerState): number {
  return SPEEDS[state.speed] ?? 1;
}

/**
 * The scenario with the schedule played so far, as JSON a bug report can carry (the schedule is
 * the artifact). Falls back to the moves alone when the scenario is not JSON.
 */
export function replayJson(state: PlayerState): string {
  const moves = state.schedule.slice(0, state.cursor);
  try {
    const scenario: unknown = JSON.parse(state.scenario);
    if (scenario !== null && typeof scenario === 'object' && !Array.isArray(scenario)) {
      return JSON.stringify({ ...scenario, schedule: moves }, null, 2);
    }
  } catch {
    // not JSON: the moves are still worth copying
  }
  return JSON.stringify({ schedule: moves });
}
