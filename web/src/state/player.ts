// Player state and the actions on it (DESIGN §6: the simulator owns the simulation; the page
// keeps only what the learner chose). Pure functions, no React, no simulator: whatever an action
// needs to know about the simulation (the enabled moves) comes in the action itself.

export interface PlayerState {
  /** The scenario JSON being played, as text (what the learner loaded). */
  readonly scenario: string;
  /** Moves chosen so far; stepping back keeps the ones after the cursor for stepping forward. */
  readonly schedule: readonly string[];
  /** How many moves of `schedule` are applied. */
  readonly cursor: number;
}

export type Action =
  | { readonly type: 'stepBack' }
  /** Redo the next kept move, else apply the first enabled move. */
  | { readonly type: 'stepForward'; readonly enabledMoves: readonly string[] }
  | { readonly type: 'applyMove'; readonly move: string }
  | { readonly type: 'loadScenario'; readonly scenario: string };

export type ActionType = Action['type'];

/**
 * A scenario at its start. Its scripted moves (`schedule`, if the JSON has one) are kept ahead
 * of the cursor, so stepping forward plays the script; choosing another move branches off it.
 */
export function initialState(scenario: string): PlayerState {
  return { scenario, schedule: scriptedMoves(scenario), cursor: 0 };
}

function scriptedMoves(scenario: string): string[] {
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

export function perform(state: PlayerState, action: Action): PlayerState {
  switch (action.type) {
    case 'stepBack':
      return state.cursor > 0 ? { ...state, cursor: state.cursor - 1 } : state;
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
      };
    case 'loadScenario':
      return initialState(action.scenario);
  }
}

export function canStepBack(state: PlayerState): boolean {
  return state.cursor > 0;
}

export function canStepForward(state: PlayerState, enabledMoves: readonly string[]): boolean {
  return state.cursor < state.schedule.length || enabledMoves.length > 0;
}

/** Keyboard shortcuts: one table, so the help text and the handler cannot disagree. */
export const SHORTCUTS: Readonly<Record<string, 'stepBack' | 'stepForward'>> = {
  ArrowLeft: 'stepBack',
  ArrowRight: 'stepForward',
};

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
