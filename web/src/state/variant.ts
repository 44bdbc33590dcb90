// Variant and era toggles: rebuild the scenario JSON with its `variant` object (design.md §4; keys
// and values of model.md §2.16, generated from wasm-core/sim/src/scenario.rs). Pure.
import { ERAS, SHEAVES_VARIANT_KEYS, SLAB_VARIANT_KEYS, SLUB_VARIANT_KEYS } from '../sim/generated/variantKeys';

export { ERAS };

/** Each toggle and its values, as the scenario JSON spells them (generated). */
export const VARIANT_KEYS: Readonly<Record<string, readonly (string | boolean)[]>> = SLUB_VARIANT_KEYS;

/**
 * The keys SLAB reads (model.md Appendix A, §4 (v); generated): `preempt`, and `slabGrow`, the v4.7
 * lockless decision to grow against taking `list_lock` first. The others (and the eras) are SLUB's.
 */
export const SLAB_KEYS: Readonly<Record<string, readonly (string | boolean)[]>> = SLAB_VARIANT_KEYS;

/**
 * The keys Linux 7.0's sheaves read besides `era` (model.md Appendix C; generated): the per-CPU
 * lock (`none` is the negative control), `preempt`, and whether a short refill is flushed.
 */
export const SHEAVES_KEYS: Readonly<Record<string, readonly (string | boolean)[]>> = SHEAVES_VARIANT_KEYS;

/** The era that selects Linux 7.0's sheaves instead of the classic per-CPU slab. */
export const SHEAVES_ERA = 'v7.0';

/** The cache keys only one of the two SLUB designs has (the others are refused with it). */
const CLASSIC_CACHE_KEYS = ['cpuPartial'];
const SHEAVES_CACHE_KEYS = ['sheafCapacity', 'maxFullSheaves', 'maxEmptySheaves'];

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
  if (key === 'era' && (value === SHEAVES_ERA) !== (variantOf(scenario).era === SHEAVES_ERA)) {
    // Crossing between the classic design and 7.0's: keep only the keys the new one reads,
    // so the scenario stays valid (each refuses the other's keys, naming them).
    const sheaves = value === SHEAVES_ERA;
    const keep = new Set(Object.keys(sheaves ? SHEAVES_KEYS : VARIANT_KEYS));
    variant = Object.fromEntries(Object.entries(variant).filter(([k]) => keep.has(k)));
    const cache = obj.cache;
    if (cache !== null && typeof cache === 'object' && !Array.isArray(cache)) {
      const drop = new Set(sheaves ? CLASSIC_CACHE_KEYS : SHEAVES_CACHE_KEYS);
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

/**
 * The variant values that break the allocator on purpose (the negative controls of the spec's
 * golden scenarios), and what each lets through: the playground says so beside the scenario.
 */
export const NEGATIVE_CONTROLS: readonly { readonly key: string; readonly value: VariantValue; readonly says: string }[] = [
  {
    key: 'fastpath',
    value: 'no-tid',
    says: 'the fast path without its transaction id: a CAS that finds the same freelist head succeeds even when the list changed under it: the ABA problem of the lesson "Break it: without the tid"',
  },
  {
    key: 'fastpath',
    value: 'cmpxchg-local',
    says: 'cmpxchg_local on the freelist alone, no tid: the same ABA goes through',
  },
  {
    key: 'fastpath',
    value: 'tid-unguarded',
    says: "3.1's fast path, which read the tid and the CPU slab unguarded: a migrated task can pair one CPU's tid with the other's slab (fixed in 3.8)",
  },
  { key: 'tidStep', value: 1, says: "a tid step of 1: one CPU's tid can equal a stale snapshot of another's" },
  { key: 'pcsLock', value: 'none', says: "7.0's sheaves without their local lock: an interrupt can touch a sheaf mid-operation" },
  { key: 'refillFailFlush', value: false, says: 'a refill that falls short frees its sheaf without flushing it: the objects leak' },
];

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

/**
 * The allocator a scenario runs: SLAB, Linux 7.0's sheaves (`"era": "v7.0"`), or the classic
 * SLUB (also when the text is unreadable: the simulator says why).
 */
export function allocatorOf(scenario: string): 'slub' | 'slab' | 'sheaves' {
  try {
    const parsed = JSON.parse(scenario) as { allocator?: unknown };
    if (parsed.allocator === 'slab') return 'slab';
    return variantOf(scenario).era === SHEAVES_ERA ? 'sheaves' : 'slub';
  } catch {
    return 'slub';
  }
}
