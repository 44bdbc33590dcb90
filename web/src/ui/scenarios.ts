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
  /** What the playground says about it beside the scenario picker. */
  readonly note?: string;
}

/**
 * How the playground and `#/compare` present some built-in scenarios: a
 * negative control loads with the broken variant its name promises (the model's test files
 * keep the kernel's variant: their tests set the broken one themselves), and a scenario that
 * tells a story loads with the moves that tell it (▶ Play stops at their end).
 */
interface Presentation {
  readonly variant?: Readonly<Record<string, string | number | boolean>>;
  readonly schedule?: readonly string[];
  readonly note?: string;
  /**
   * The same story on each design of `#/compare`: a fast path takes a different number of
   * steps under each, so a schedule of moves is written for one (the tests check each).
   */
  readonly compare?: Readonly<Record<'v6.8' | 'v7.0', readonly string[]>>;
}

/**
 * SC1's story, model.md §9's interleaving: T runs its fast path up to the CAS (A9), the
 * interrupt frees y on the same CPU, T's CAS fails (moves 1-17), and T retries (the rest).
 * The vitest suite checks that the CAS fails at move 17 under the default era and v6.8.
 */
export const SC1_STORY: readonly string[] = [...Array<string>(7).fill('T'), ...Array<string>(9).fill('I'), 'T'];

export const PRESENTED: Readonly<Record<string, Presentation>> = {
  sc01: {
    schedule: SC1_STORY,
    note: "Its script stops where T's compare-and-swap fails: the interrupt freed y between T's reads and its CAS. Step forward to watch T retry.",
    compare: {
      // 6.8: T reads up to its CAS (A9), the interrupt frees y, T's CAS fails.
      'v6.8': [...Array<string>(5).fill('T'), ...Array<string>(6).fill('I'), 'T'],
      // 7.0: T holds the sheaves' local lock and has read its sheaf (SA5); the interrupt's
      // trylock fails and it frees y to the slab (__slab_free); T goes on.
      'v7.0': [...Array<string>(4).fill('T'), ...Array<string>(10).fill('I'), 'T'],
    },
  },
  sc02: {
    variant: { fastpath: 'no-tid' },
    note: 'Find a schedule that hands one object out twice (or press e: the explorer finds one), then run the kernel’s own code on the same moves.',
  },
};

/** The file's text with its presentation applied (the file itself when it has none). */
function presented(id: string, text: string): string {
  const p = PRESENTED[id];
  if (p === undefined) return text;
  try {
    const obj = JSON.parse(text) as Record<string, unknown>;
    if (p.variant !== undefined) obj.variant = { ...(obj.variant as object | undefined), ...p.variant };
    if (p.schedule !== undefined) obj.schedule = p.schedule;
    return JSON.stringify(obj, null, 2);
  } catch {
    return text; // the simulator says what is wrong with it
  }
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

/**
 * `#/compare`'s default: SC1, whose script makes the interrupt free under the task's fast
 * path. 6.8 fails its cmpxchg and retries; 7.0 has none to fail, and the page says why.
 */
export const DEFAULT_COMPARE_ID = 'sc01';

/** The schedules `#/compare` runs for a built-in scenario's text on each design, if it has its own. */
export function compareSchedules(text: string): Readonly<Record<'v6.8' | 'v7.0', readonly string[]>> | null {
  const id = Object.keys(BUILTIN_TEXTS).find((k) => BUILTIN_TEXTS[k] === text);
  return (id === undefined ? undefined : PRESENTED[id]?.compare) ?? null;
}

export const BUILTIN_SCENARIOS: readonly BuiltinScenario[] = [
  { id: DEFAULT_SCENARIO_ID, name: nameOf(sample, 'sample'), text: sample },
  ...Object.entries(files)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, text]) => {
      const file = path.slice(path.lastIndexOf('/') + 1, -'.json'.length);
      const id = file.split('_')[0] ?? file;
      const note = PRESENTED[id]?.note;
      return { id, name: nameOf(text, file), text: presented(id, text), ...(note === undefined ? {} : { note }) };
    }),
];

/** id → scenario text, for the router. */
export const BUILTIN_TEXTS: Readonly<Record<string, string>> = Object.fromEntries(
  BUILTIN_SCENARIOS.map((s) => [s.id, s.text]),
);
