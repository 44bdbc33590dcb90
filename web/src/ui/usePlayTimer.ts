// The play timer of the playground and the embed: while playing, one `tick` (the next move of the
// default policy) after each 1/speed seconds. Each state change re-arms it, so a pause, a step
// or a speed change takes effect at once.
import { useEffect, type Dispatch } from 'react';
import { movesPerSecond, type Action, type PlayerState } from '../state/player';

export function usePlayTimer(state: PlayerState, enabledMoves: readonly string[], dispatch: Dispatch<Action>): void {
  useEffect(() => {
    if (!state.playing) return;
    const id = window.setTimeout(() => dispatch({ type: 'tick', enabledMoves }), 1000 / movesPerSecond(state));
    return () => window.clearTimeout(id);
  }, [state, enabledMoves, dispatch]);
}
