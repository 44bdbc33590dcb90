// Variant and era toggles: rebuild the scenario JSON with its `variant` object (design.md §4; keys
// and values of model.md §2.16, generated from the table of keys in
// wasm-core/sim/src/scenario/keys.rs). Pure. Which allocator a scenario runs is the
// simulator's answer (`View.allocator`), not derived here.
import type { Allocator } from '../sim/types';
import { DEFAULT_ERA, ERA_ALLOCATOR, ERAS, NEGATIVE_CONTROLS, VARIANT_KEYS } from '../sim/generated/variantKeys';

export { ERAS };

/**
 * Each toggle of `allocator` and its values, as the scenario JSON spells them (generated), `era`
 * first where the allocator reads one. SLAB reads `preempt`, `slabGrow` and `slabSharedFree`; Linux 7.0's sheaves
 * their lock, `preempt` and whether a short refill is flushed.
 */
export function variantKeys(allocator: Allocator): Readonly<Record<string, readonly VariantValue[]>> {
  return VARIANT_KEYS[allocator];
}

/** The era that selects Linux 7.0's sheaves instead of the classic per-CPU slab. */
export const SHEAVES_ERA = 'v7.0' satisfies keyof typeof ERA_ALLOCATOR;

/** The allocator a SLUB scenario of `era` runs (no era: the defaults' era). */
function eraAllocator(era: VariantValue | undefined): Allocator {
  const name = typeof era === 'string' ? era : DEFAULT_ERA;
  return Object.hasOwn(ERA_ALLOCATOR, name) ? ERA_ALLOCATOR[name as keyof typeof ERA_ALLOCATOR] : ERA_ALLOCATOR[DEFAULT_ERA];
}

/** The cache keys the other SLUB design refuses, dropped when the era crosses to this one. */
const REFUSED_CACHE_KEYS: Partial<Record<Allocator, readonly string[]>> = {
  sheaves: ['cpuPartial'],
  slub: ['sheafCapacity', 'maxFullSheaves', 'maxEmptySheaves'],
};

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
  let variant = Object.fromEntries(Object.entries(variantOf(scenario)).filter(([k]) => k !== key));
  const to = eraAllocator(value);
  if (key === 'era' && to !== eraAllocator(variantOf(scenario).era)) {
    // Crossing between the classic design and 7.0's: keep only the keys the new one reads,
    // so the scenario stays valid (each refuses the other's keys, naming them).
    const keep = new Set(Object.keys(variantKeys(to)));
    variant = Object.fromEntries(Object.entries(variant).filter(([k]) => keep.has(k)));
    const cache = obj.cache;
    if (cache !== null && typeof cache === 'object' && !Array.isArray(cache)) {
      const drop = new Set(REFUSED_CACHE_KEYS[to] ?? []);
      obj.cache = Object.fromEntries(Object.entries(cache as Record<string, unknown>).filter(([k]) => !drop.has(k)));
    }
  }
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

/** The negative-control values the scenario's own variant sets. */
export function negativeControls(scenario: string): (typeof NEGATIVE_CONTROLS)[number][] {
  const v = variantOf(scenario);
  return NEGATIVE_CONTROLS.filter((n) => v[n.key] === n.value);
}

/** The scenario with every negative-control value removed (the kernel's own code then runs). */
export function withoutNegativeControls(scenario: string): string | null {
  let text: string | null = scenario;
  for (const n of negativeControls(scenario)) {
    if (text === null) return null;
    text = withVariant(text, n.key, undefined);
  }
  return text;
}
