// Whether the playground is still a goal's exercise, by `slub-lab grade`'s rule: the goal
// banner says "✓ Goal reached" only where the grader would score the page's link.
import { sameExercise } from '../sim';

/**
 * Why the playground is no longer the goal's, or `null` while it is. `slub-lab grade`'s rule:
 * the scenario must be the opening's but for its `name` and `schedule` (decided in Rust by the
 * grader's own function, `sameExercise`), and the moves must start with the ones the goal
 * opened with. The banner only calls a goal reached where the grader would score it.
 */
export function notTheGoal(
  opening: { scenario: string; moves: readonly string[] },
  scenario: string,
  moves: readonly string[],
): string | null {
  if (!sameExercise(opening.scenario, scenario)) {
    return 'the scenario or its variant is no longer the one the goal opened with';
  }
  if (moves.length < opening.moves.length || opening.moves.some((m, i) => moves[i] !== m)) {
    return `the moves no longer start where the goal opened (the lesson's ${String(opening.moves.length)} moves)`;
  }
  return null;
}
