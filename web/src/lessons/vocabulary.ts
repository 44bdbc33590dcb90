// The closed vocabularies of lessons/vocabulary.json, for the index's filters. The lessons are
// checked against them by the Rust side (crate slub-lessons), at build time.
import vocabulary from '../../../lessons/vocabulary.json' with { type: 'json' };

export const SEEDS: readonly string[] = Object.keys(vocabulary.seeds);
export const PATCHES: readonly string[] = Object.keys(vocabulary.patches);
export const TOPICS: readonly string[] = Object.keys(vocabulary.topics);
export const STATS: readonly string[] = vocabulary.stats;

/**
 * A lookup table without a prototype: a key from a link (`#/lessons?topic=__proto__`) finds
 * only the vocabulary's own entries, never `Object.prototype` (which React cannot render).
 */
function own(record: Readonly<Record<string, string>>): Readonly<Record<string, string | undefined>> {
  return Object.assign(Object.create(null) as Record<string, string>, record);
}

/** Human descriptions of the vocabularies (for an index's filters). */
export const DESCRIPTIONS = {
  seeds: own(vocabulary.seeds),
  patches: own(vocabulary.patches),
  topics: own(vocabulary.topics),
};
