// The closed vocabularies of lessons/vocabulary.json and the move syntax, without zod: the page
// imports these (the index's filters), while the schema (schema.ts, zod) runs only at build
// time and in the tests.
import vocabulary from '../../../lessons/vocabulary.json' with { type: 'json' };

/** Largest `*n` repetition of a move. */
export const MAX_REPEAT = 500;

export const SEEDS: readonly string[] = Object.keys(vocabulary.seeds);
export const PATCHES: readonly string[] = Object.keys(vocabulary.patches);
export const TOPICS: readonly string[] = Object.keys(vocabulary.topics);
export const STATS: readonly string[] = vocabulary.stats;

/** Human descriptions of the vocabularies (for an index's filters). */
export const DESCRIPTIONS = {
  seeds: vocabulary.seeds as Record<string, string>,
  patches: vocabulary.patches as Record<string, string>,
  topics: vocabulary.topics as Record<string, string>,
};

/** One move of DESIGN §3, optionally repeated: `T`, `T*7`, `migrate:T:1`. */
export const MOVE = /^(migrate:[A-Za-z_][A-Za-z0-9_]*:\d+|[A-Za-z_][A-Za-z0-9_]*)(\*(\d+))?$/;

/** `['T*3', 'migrate:T:1']` → `['T', 'T', 'T', 'migrate:T:1']` (the syntax is checked first). */
export function expandMoves(moves: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of moves) {
    const match = MOVE.exec(m);
    if (!match?.[1]) throw new Error(`not a move: ${JSON.stringify(m)}`);
    const n = match[3] === undefined ? 1 : Number(match[3]);
    for (let i = 0; i < n; i++) out.push(match[1]);
  }
  return out;
}
