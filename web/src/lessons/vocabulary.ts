// The closed vocabularies of lessons/vocabulary.json, for the index's filters. The lessons are
// checked against them by the Rust side (crate slub-lessons), at build time.
import vocabulary from '../../../lessons/vocabulary.json' with { type: 'json' };

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
