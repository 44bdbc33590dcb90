import { useId } from 'react';
import { ERAS, optionValue, parseOptionValue, VARIANT_KEYS, variantOf, type VariantValue } from '../state/variant';

interface Props {
  scenario: string;
  onChange: (key: string, value: VariantValue | undefined) => void;
}

/** The era bundle and each variant key (spec §2.16); "—" leaves the key to the era / default. */
export function VariantPanel({ scenario, onChange }: Props) {
  const id = useId();
  const variant = variantOf(scenario);
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
          <option value="">{key === 'era' ? '— (v3.10 defaults)' : '— (era / default)'}</option>
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
        Changing a toggle reloads the scenario and keeps the moves that still play.
      </p>
      {row('era', ERAS)}
      {Object.entries(VARIANT_KEYS).map(([k, vs]) => row(k, vs))}
    </section>
  );
}
