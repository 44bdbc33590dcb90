// Variant and era toggles: rebuild the scenario JSON with its `variant` object (DESIGN §4; keys
// and values of slub-algorithm.md §2.16, generated from wasm-core/sim/src/scenario.rs). Pure.
import { ERAS, SLAB_VARIANT_KEYS, SLUB_VARIANT_KEYS } from '../sim/generated/variantKeys';

export { ERAS };

/** Each toggle and its values, as the scenario JSON spells them (generated). */
export const VARIANT_KEYS: Readonly<Record<string, readonly (string | boolean)[]>> = SLUB_VARIANT_KEYS;

/**
 * The keys SLAB reads (spec Appendix A, §4 (v); generated): `preempt`, and `slabGrow`, the v4.7
 * lockless decision to grow against taking `list_lock` first. The others (and the eras) are SLUB's.
 */
export const SLAB_KEYS: Readonly<Record<string, readonly (string | boolean)[]>> = SLAB_VARIANT_KEYS;

export type VariantValue = string | boolean | number;

/** The scenario's own `variant` object ({} when absent or when the text is not JSON). */
export function variantOf(scenario: string): Record<string, VariantValue> {
  try {
    const parsed = JSON.parse(scenario) as { variant?: unknown };
    const v = parsed.variant;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return { ...(v as Record<string, VariantValue>) };
  } catch {
    // not JSON
  }
  return {};
}

/**
 * The scenario with `variant[key]` set to `value`, or removed when `value` is undefined (the
 * era's or the default's value then applies). An empty variant object is dropped. Null when the
 * scenario is not a JSON object.
 */
export function withVariant(scenario: string, key: string, value: VariantValue | undefined): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(scenario);
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const obj = { ...(parsed as Record<string, unknown>) };
  const variant = Object.fromEntries(Object.entries(variantOf(scenario)).filter(([k]) => k !== key));
  if (value !== undefined) variant[key] = value;
  if (Object.keys(variant).length === 0) delete obj.variant;
  else obj.variant = variant;
  return JSON.stringify(obj, null, 2);
}

/** A select's option value for a variant value (booleans and strings told apart). */
export function optionValue(v: VariantValue): string {
  return JSON.stringify(v);
}

export function parseOptionValue(s: string): VariantValue | undefined {
  if (s === '') return undefined;
  try {
    const v: unknown = JSON.parse(s);
    if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v;
  } catch {
    // not ours
  }
  return undefined;
}
