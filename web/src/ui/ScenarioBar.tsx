// The top of the playground: the scenario, its era and the variant key that
// matters most, side by side, with the rest of the keys one click away. A scenario that runs a
// broken variant on purpose (a negative control) says so here, with a way back to the kernel's
// own code: a student sees at once what is broken and can break it or mend it.
import { memo, useId } from 'react';
import type { Allocator, VariantView } from '../sim';
import {
  negativeControls,
  optionValue,
  parseOptionValue,
  variantKeys,
  variantOf,
  withoutNegativeControls,
  type VariantValue,
} from '../state/variant';
import { Icon } from './Icon';
import { BUILTIN_SCENARIOS } from './scenarios';

/** The key shown beside the era for each allocator: the one its lessons turn. */
const HEADLINE: Record<Allocator, readonly string[]> = {
  slub: ['era', 'fastpath'],
  sheaves: ['era', 'pcsLock'],
  slab: ['slabGrow'],
};

interface Props {
  scenario: string;
  /** The allocator the simulator runs the scenario on (`View.allocator`): it picks the keys. */
  allocator: Allocator;
  /** The variant the simulator resolved (era applied, defaults filled): what "—" stands for. */
  resolved: VariantView;
  onLoad: (scenario: string) => void;
  /** The same scenario changed (a negative control mended): the moves that still play are kept. */
  onMend: (scenario: string) => void;
  onChange: (key: string, value: VariantValue | undefined) => void;
}

function ScenarioBarImpl({ scenario, allocator, resolved, onLoad, onMend, onChange }: Props) {
  const id = useId();
  const variant = variantOf(scenario);
  const keys = variantKeys(allocator);
  const headline = HEADLINE[allocator].filter((k) => k in keys);
  const rest = Object.keys(keys).filter((k) => !headline.includes(k));
  const setRest = rest.filter((k) => variant[k] !== undefined).length;
  const builtin = BUILTIN_SCENARIOS.find((s) => s.text === scenario);
  const broken = negativeControls(scenario);
  const mended = broken.length > 0 ? withoutNegativeControls(scenario) : null;

  const inherited = (key: string): string => {
    if (key === 'era') return '— (v3.10 defaults)';
    const value = key in resolved ? resolved[key as keyof VariantView] : undefined;
    const from = variant.era === undefined ? 'default' : `era ${String(variant.era)}`;
    return value === undefined ? `— (${from})` : `— ${String(value)} (${from})`;
  };
  const row = (key: string) => (
    <div className="variant-row" key={key}>
      <label htmlFor={`${id}-${key}`}>
        <code>{key}</code>
      </label>
      <select
        id={`${id}-${key}`}
        value={variant[key] === undefined ? '' : optionValue(variant[key])}
        onChange={(e) => onChange(key, parseOptionValue(e.target.value))}
      >
        <option value="">{inherited(key)}</option>
        {(keys[key] ?? []).map((v) => (
          <option key={optionValue(v)} value={optionValue(v)}>
            {String(v)}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <section className="scenario-bar" aria-label="Scenario and kernel variant" data-testid="scenario-bar">
      <div className="scenario-pick">
        <label htmlFor={`${id}-pick`}>Built-in scenario</label>
        <select
          id={`${id}-pick`}
          value={builtin?.id ?? ''}
          onChange={(e) => {
            const s = BUILTIN_SCENARIOS.find((b) => b.id === e.target.value);
            if (s !== undefined) onLoad(s.text);
          }}
        >
          {builtin === undefined && <option value="">(edited or from a link)</option>}
          {BUILTIN_SCENARIOS.map((s) => (
            <option key={s.id} value={s.id}>
              {s.id} · {s.name}
            </option>
          ))}
        </select>
      </div>
      <div className="variant-head" role="group" aria-label="Kernel variant">
        {headline.map(row)}
        {rest.length > 0 && (
          <details className="more-keys">
            <summary>
              More variant keys{setRest > 0 ? ` (${setRest} set)` : ''}
            </summary>
            <p className="muted small">
              A change reloads the scenario and keeps the moves that still play. “—” leaves a key to the era or the default, whose value it names.
            </p>
            <div className="variant-rows">{rest.map(row)}</div>
          </details>
        )}
      </div>
      {broken.length > 0 && (
        <p className="negative-note" data-testid="negative-control">
          <Icon name="warning" />
          <span>
            <strong>Negative control: this scenario runs a broken variant on purpose.</strong>{' '}
            {broken.map((b, i) => (
              <span key={b.key}>
                {i > 0 && '; '}
                <code>
                  {b.key}: {String(b.value)}
                </code>{' '}
                is {b.says}
              </span>
            ))}
            .{' '}
            {mended !== null && (
              <button type="button" onClick={() => onMend(mended)}>
                Run the kernel&apos;s own code instead
              </button>
            )}
          </span>
        </p>
      )}
      {builtin?.note !== undefined && <p className="scenario-note muted small">{builtin.note}</p>}
    </section>
  );
}

export const ScenarioBar = memo(
  ScenarioBarImpl,
  (a, b) =>
    a.scenario === b.scenario &&
    a.allocator === b.allocator &&
    a.onChange === b.onChange &&
    a.onLoad === b.onLoad &&
    a.onMend === b.onMend &&
    (Object.keys(a.resolved) as (keyof VariantView)[]).every((k) => a.resolved[k] === b.resolved[k]),
);
