// The built-in scenarios: the model's golden scenarios (wasm-core/sim/tests/scenarios, read at
// build time through Vite's glob import) and the sample lesson's. Ids are short and stable:
// `sc01` for `sc01_alloc_fastpath_irq_free_retry.json`, `sample` for lessons/00-sample.
import sample from '../../../lessons/00-sample/scenario.json?raw';

const files = import.meta.glob<string>('../../../wasm-core/sim/tests/scenarios/*.json', {
  query: '?raw',
  import: 'default',
  eager: true,
});

export interface BuiltinScenario {
  readonly id: string;
  readonly name: string;
  readonly text: string;
}

function nameOf(text: string, fallback: string): string {
  try {
    const parsed = JSON.parse(text) as { name?: unknown };
    return typeof parsed.name === 'string' ? parsed.name : fallback;
  } catch {
    return fallback;
  }
}

export const DEFAULT_SCENARIO_ID = 'sample';

export const BUILTIN_SCENARIOS: readonly BuiltinScenario[] = [
  { id: DEFAULT_SCENARIO_ID, name: nameOf(sample, 'sample'), text: sample },
  ...Object.entries(files)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, text]) => {
      const file = path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
      const id = file.split('_')[0] ?? file;
      return { id, name: nameOf(text, file), text };
    }),
];

/** id → scenario text, for the router. */
export const BUILTIN_TEXTS: Readonly<Record<string, string>> = Object.fromEntries(
  BUILTIN_SCENARIOS.map((s) => [s.id, s.text]),
);
