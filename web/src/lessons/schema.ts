// The lesson format of docs/writing-lessons.md as zod schemas: YAML front matter and the YAML
// block of each step. The same rules are enforced, and the claims checked against the model,
// by wasm-core/sim/tests/lessons.rs; the closed vocabularies come from lessons/vocabulary.json
// (vocabulary.ts), which both read. Runs at build time (vite-plugin.ts) and in the tests, never
// in the page.
import { z } from 'zod';
import { MAX_REPEAT, MOVE, PATCHES, SEEDS, STATS, TOPICS } from './vocabulary.js';

export { DESCRIPTIONS, expandMoves, MAX_REPEAT, MOVE, PATCHES, SEEDS, STATS, TOPICS } from './vocabulary.js';

/** Fewest and most steps a lesson may have. */
export const MIN_STEPS = 5;
export const MAX_STEPS = 15;

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The highlight names (syntax; the Rust replay checks that what they name exists). */
const HIGHLIGHTS: readonly RegExp[] = [
  /^(lines|stats|timeline|violations|code)$/,
  /^cpu\d+(\.(freelist|tid|page|partial|irqs|preempt|array))?$/,
  /^slab [A-Z][A-Za-z0-9_]*(\.(freelist|counters|inuse|frozen))?$/,
  /^object [a-z][A-Za-z0-9_]*(\.fp)?$/,
  /^node \d+(\.(partial|list_lock|shared|free_objects|slabs_full|slabs_free))?$/,
  /^line \S.*$/,
  /^code [A-Za-z_][A-Za-z0-9_]*:[A-Za-z_][A-Za-z0-9_]*$/,
  /^(ctx|var) [A-Za-z_][A-Za-z0-9_]*$/,
  /^stat [A-Z_]+$/,
];

export function isHighlight(h: string): boolean {
  return HIGHLIGHTS.some((re) => re.test(h));
}

const oneOf = (words: readonly string[], what: string) =>
  z.string().refine((s) => words.includes(s), {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is not in lessons/vocabulary.json ${what} (one of ${words.join(', ')})`,
  });

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const count = z.number().int().nonnegative();
const statName = oneOf(STATS, 'stats');
const cpuKey = z.string().regex(/^cpu\d+$/, 'CPUs are named cpu0, cpu1, ...');
const nodeKey = z.string().regex(/^node\d+$/, 'nodes are named node0, node1, ...');
const ident = z.string().regex(IDENT, 'must be an identifier');
const moveName = z
  .string()
  .regex(MOVE, 'must be a move: `<ctx>`, `migrate:<task>:<cpu>`, optionally `*<n>`');
const letter = z.string().regex(/^[MESI]$/, 'a MESI letter');

/** Variant overrides: the keys of spec §2.16 (validated by the model when it loads them). */
const variantObject = z.record(
  z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/),
  z.union([z.string(), z.boolean(), z.number()]),
);
const cacheObject = z.record(
  z.string().regex(/^[a-zA-Z][a-zA-Z0-9]*$/),
  z.union([z.string(), z.boolean(), z.number()]),
);

export const FrontMatter = z.strictObject({
  id: z.string().regex(KEBAB, 'must be kebab-case'),
  title: nonEmpty,
  summary: nonEmpty,
  topics: z.array(oneOf(TOPICS, 'topics')).min(1, 'list at least one topic'),
  seeds: z.array(oneOf(SEEDS, 'seeds')),
  patches: z.array(oneOf(PATCHES, 'patches')),
  scenario: z.string().regex(/^[^/\\]+\.json$/, 'must be a .json file beside lesson.md'),
  variant: variantObject.optional(),
});
export type FrontMatter = z.infer<typeof FrontMatter>;

/** SLAB's `array_cache`: a CPU's, or a node's shared one (entries bottom first). */
const ArrayClaim = z.strictObject({
  entries: z.array(z.string()).optional(),
  avail: count.optional(),
  limit: count.optional(),
  batchcount: count.optional(),
  touched: z.boolean().optional(),
  handed: count.optional(),
});

const CpuClaim = z.strictObject({
  freelist: z.array(z.string()).optional(),
  tid: count.optional(),
  page: z.string().nullable().optional(),
  partial: z.array(z.string()).optional(),
  irqs: z.boolean().optional(),
  preempt: count.optional(),
  running: z.string().nullable().optional(),
  cycles: count.optional(),
  /** SLAB: the CPU's array_cache. */
  array: ArrayClaim.optional(),
});

const SlabClaim = z.strictObject({
  freelist: z.array(z.string()).optional(),
  inuse: count.optional(),
  frozen: z.boolean().optional(),
  owner: z.string().optional(),
  locked: z.boolean().optional(),
});

const ObjectClaim = z.strictObject({ fp: z.string().optional(), owner: z.string().optional() });

const NodeClaim = z.strictObject({
  partial: z.array(z.string()).optional(),
  nrPartial: count.optional(),
  listLock: z.string().nullable().optional(),
  waiters: z.array(z.string()).optional(),
  // SLAB: the node's counters, its other two lists (`partial` is slabs_partial) and its shared
  // array (null: the cache has none).
  freeObjects: count.optional(),
  freeLimit: count.optional(),
  totalSlabs: count.optional(),
  freeSlabs: count.optional(),
  slabsFull: z.array(z.string()).optional(),
  slabsFree: z.array(z.string()).optional(),
  shared: ArrayClaim.nullable().optional(),
});

const ContextClaim = z.strictObject({
  at: z.string().nullable().optional(),
  state: z.enum(['running', 'runnable', 'waiting', 'blocked', 'finished']).optional(),
  cpu: count.optional(),
  op: z.string().nullable().optional(),
});

const EventClaim = z.strictObject({
  ctx: z.string().optional(),
  label: z.string().optional(),
  kind: z.string().optional(),
  ok: z.boolean().optional(),
  cycles: count.optional(),
  stat: statName.optional(),
  says: z.string().min(1).optional(),
  coherence: z
    .array(z.strictObject({ line: z.string(), cpu: count, from: letter, to: letter }))
    .optional(),
  count: count.optional(),
});

/** What a lesson may claim about the model after a step (docs/writing-lessons.md). */
const claimShape = {
  stats: z.record(statName, count).optional(),
  delta: z.record(statName, z.number().int()).optional(),
  stepCycles: z.record(cpuKey, count).optional(),
  violations: z
    .array(
      z
        .string()
        .regex(
          /^(INV-([1-9]|1[0-5])|SLAB-[1-6])$/,
          'must be INV-1 … INV-15 (SLUB) or SLAB-1 … SLAB-6',
        ),
    )
    .optional(),
  vars: z.record(ident, z.string().nullable()).optional(),
  cpus: z.record(cpuKey, CpuClaim).optional(),
  slabs: z
    .record(z.string().regex(/^[A-Z][A-Za-z0-9_]*$/, 'slabs are named P, Q, R, ...'), SlabClaim)
    .optional(),
  objects: z
    .record(z.string().regex(/^[a-z][A-Za-z0-9_]*$/, 'objects are named p0, q1, ...'), ObjectClaim)
    .optional(),
  nodes: z.record(nodeKey, NodeClaim).optional(),
  contexts: z.record(ident, ContextClaim).optional(),
  enabled: z.record(moveName, z.boolean()).optional(),
  lines: z
    .record(z.string().min(1), z.string().regex(/^[MESI]+$/, 'MESI letters, one per CPU'))
    .optional(),
  events: z.array(EventClaim).optional(),
  tidStep: count.optional(),
  finished: z.boolean().optional(),
  deadlock: z.boolean().optional(),
};

const hasClaim = (c: Record<string, unknown>) =>
  Object.keys(claimShape).some((k) => c[k] !== undefined);

export const Claims = z
  .strictObject(claimShape)
  .refine(hasClaim, { error: 'claim something (stats, vars, cpus, ...)' });
export type Claims = z.infer<typeof Claims>;

export const Answer = z
  .strictObject({ choice: count, ...claimShape })
  .refine(hasClaim, { error: 'needs at least one claim the model checks (stats, vars, ...)' });
export type Answer = z.infer<typeof Answer>;

export const Predict = z
  .strictObject({
    question: nonEmpty,
    choices: z.array(nonEmpty).min(2, 'give at least two choices'),
    answer: Answer,
    explain: nonEmpty.optional(),
  })
  .superRefine((p, ctx) => {
    if (p.answer.choice >= p.choices.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['answer', 'choice'],
        message: `${p.answer.choice} is out of range (${p.choices.length} choices, counted from 0)`,
      });
    }
  });
export type Predict = z.infer<typeof Predict>;

export const WhatIf = z
  .strictObject({
    variant: variantObject.optional(),
    cache: cacheObject.optional(),
    moves: z.array(moveName).optional(),
    expect: Claims,
  })
  .refine((w) => w.variant !== undefined || w.cache !== undefined || w.moves !== undefined, {
    error: 'change a variant or cache key, or give other moves',
  });
export type WhatIf = z.infer<typeof WhatIf>;

export const TryIt = z.strictObject({
  goal: nonEmpty,
  from: z.enum(['here', 'start']).default('here'),
  variant: variantObject.optional(),
  cache: cacheObject.optional(),
});
export type TryIt = z.infer<typeof TryIt>;

export const StepBlock = z.strictObject({
  moves: z.array(moveName).superRefine((moves, ctx) => {
    moves.forEach((m, i) => {
      const n = MOVE.exec(m)?.[3];
      if (n !== undefined && (Number(n) < 1 || Number(n) > MAX_REPEAT)) {
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message: `the repetition after \`*\` must be from 1 to ${MAX_REPEAT}`,
        });
      }
    });
  }),
  highlights: z
    .array(
      z.string().refine(isHighlight, { error: 'not a highlight name (docs/writing-lessons.md)' }),
    )
    .default([]),
  predict: Predict.optional(),
  expect: Claims.optional(),
  whatIf: z.array(WhatIf).default([]),
  tryIt: TryIt.optional(),
});
export type StepBlock = z.infer<typeof StepBlock>;

/** `a.b[0].c` from a zod issue path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += (out === '' ? '' : '.') + String(p);
  }
  return out;
}
