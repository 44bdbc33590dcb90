// Whether the playground is still a goal's exercise, by `slub-lab grade`'s rule: the goal
// banner says "✓ Goal reached" only where the grader would score the page's link.

/** Two JSON values equal as data (objects by their keys, whatever their order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && sameJson(ra[k], rb[k]));
}

/**
 * Why the playground is no longer the goal's, or `null` while it is. `slub-lab grade`'s rule
 * (wasm-core/lessons/src/grade.rs, `same_scenario` and the opening's moves): the scenario must
 * be the opening's but for its `name` and `schedule`, and the moves must start with the ones
 * the goal opened with. The banner only calls a goal reached where the grader would score it.
 */
export function notTheGoal(
  opening: { scenario: string; moves: readonly string[] },
  scenario: string,
  moves: readonly string[],
): string | null {
  const strip = (text: string): unknown => {
    try {
      const j = JSON.parse(text) as unknown;
      if (typeof j !== 'object' || j === null || Array.isArray(j)) return j;
      return Object.fromEntries(Object.entries(j).filter(([k]) => k !== 'name' && k !== 'schedule'));
    } catch {
      return undefined;
    }
  };
  if (!sameJson(strip(opening.scenario), strip(scenario))) {
    return 'the scenario or its variant is no longer the one the goal opened with';
  }
  if (moves.length < opening.moves.length || opening.moves.some((m, i) => moves[i] !== m)) {
    return `the moves no longer start where the goal opened (the lesson's ${String(opening.moves.length)} moves)`;
  }
  return null;
}
