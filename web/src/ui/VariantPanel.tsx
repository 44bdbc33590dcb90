import { memo, useId } from 'react';
import type { VariantView } from '../sim';
import { ERAS, optionValue, parseOptionValue, SHEAVES_ERA, SHEAVES_KEYS, SLAB_KEYS, VARIANT_KEYS, variantOf, type VariantValue } from '../state/variant';

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

interface Props {
  scenario: string;
  /** The variant the simulator resolved (era applied, defaults filled): what "—" stands for. */
  resolved: VariantView;
  onChange: (key: string, value: VariantValue | undefined) => void;
}

/**
 * The era bundle and each variant key (model.md §2.16); "—" leaves the key to the era or the
 * default, and says which value that is.
 */
function VariantPanelImpl({ scenario, resolved, onChange }: Props) {
  const id = useId();
  const variant = variantOf(scenario);
  const allocator = allocatorOf(scenario);
  const slab = allocator === 'slab';
  const era = variant.era;
  const inherited = (key: string): string => {
    if (key === 'era') return '— (v3.10 defaults)';
    const value = key in resolved ? resolved[key as keyof VariantView] : undefined;
    const from = era === undefined ? 'default' : `era ${String(era)}`;
    return value === undefined ? `— (${from})` : `— ${String(value)} (${from})`;
  };
  const row = (key: string, values: readonly VariantValue[]) => {
    const current = variant[key];
    return (
      <div className="variant-row" key={key}>
        <label htmlFor={`${id}-${key}`}>
          <code>{key}</code>
        </label>
        <select
          id={`${id}-${key}`}
          value={current === undefined ? '' : optionValue(current)}
          onChange={(e) => onChange(key, parseOptionValue(e.target.value))}
        >
          <option value="">{inherited(key)}</option>
          {values.map((v) => (
            <option key={optionValue(v)} value={optionValue(v)}>
              {String(v)}
            </option>
          ))}
        </select>
      </div>
    );
  };
  return (
    <section className="panel variants" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Kernel variant</h2>
      <p className="muted small">
        Changing a toggle reloads the scenario and keeps the moves that still play. “—” leaves a key to the era or the default, whose value it
        names.
        {slab && ' This scenario runs SLAB, which reads only these two keys.'}
        {allocator === 'sheaves' && ' Era v7.0 runs the per-CPU sheaves, which have no tid, CPU slab or CPU partial list: they read only these keys.'}
      </p>
      <div className="variant-rows">
        {slab ? (
          Object.entries(SLAB_KEYS).map(([k, vs]) => row(k, vs))
        ) : (
          <>
            {row('era', ERAS)}
            {Object.entries(allocator === 'sheaves' ? SHEAVES_KEYS : VARIANT_KEYS).map(([k, vs]) => row(k, vs))}
          </>
        )}
      </div>
    </section>
  );
}

/** A step gives a new (equal) resolved variant: the panel re-renders only when it differs. */
export const VariantPanel = memo(
  VariantPanelImpl,
  (a, b) => a.scenario === b.scenario && a.onChange === b.onChange && sameVariant(a.resolved, b.resolved),
);

function sameVariant(a: VariantView, b: VariantView): boolean {
  return (Object.keys(a) as (keyof VariantView)[]).every((k) => a[k] === b[k]);
}
