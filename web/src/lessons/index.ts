// The lessons as the page sees them: every `lessons/NN-slug/lesson.md` with its scenario,
// parsed, validated and replayed at build time by the Rust checker (crate slub-lessons, through
// `slub-lab lesson export`, which vite-plugin.ts runs), its prose rendered to safe HTML
// (render.ts), and shipped as JSON in the module `virtual:lessons`, which bundled.ts reads.
// This module and bundled.ts are what the page imports: neither pulls in a parser.
//
// State of a lesson at step k = the scenario (with the lesson's variant overrides) after the
// moves of steps 1..k. A step's `predict` is asked before its moves are played and answered
// by the state after them.
//
// The shapes of `slub-lab lesson export` (wasm-core/lessons/src/export.rs) are written by hand
// below (`Exported*`), as are the page's own (`Lesson`, `LessonStep`, ...).

export { DESCRIPTIONS, PATCHES, SEEDS, STATS, TOPICS } from './vocabulary.js';

type Scalar = string | boolean | number;

/** A lesson's front matter (docs/writing-lessons.md §2). */
export interface FrontMatter {
  id: string;
  title: string;
  summary: string;
  topics: string[];
  seeds: string[];
  patches: string[];
  scenario: string;
  variant: Record<string, Scalar>;
  /** Parts held back until a step (1-based) or for the whole lesson (`false`). */
  reveal: Partial<Record<Revealable, number | boolean>>;
}

/** The parts of the page a lesson's `reveal` may hold back (format.rs REVEALABLE). */
export type Revealable = 'lines' | 'tid' | 'stats' | 'vars' | 'violations';

/** Whether `part` is shown at step `n` of a lesson with front matter `front`. */
export function revealed(front: Pick<FrontMatter, 'reveal'>, part: Revealable, n: number): boolean {
  const r = front.reveal[part];
  return r === undefined || (typeof r === 'number' ? n >= r : r);
}

export type Panel = 'lines' | 'stats' | 'timeline' | 'violations' | 'code';

/** A highlight (docs/writing-lessons.md §4), parsed by the Rust side (highlight.rs). */
export type Highlight =
  | { readonly kind: 'cpu'; readonly cpu: number; readonly field: string | null }
  | { readonly kind: 'slab'; readonly slab: string; readonly field: string | null }
  | { readonly kind: 'object'; readonly object: string; readonly fp: boolean }
  | { readonly kind: 'node'; readonly node: number; readonly field: string | null }
  | { readonly kind: 'line'; readonly line: string }
  | { readonly kind: 'code'; readonly label: string }
  | { readonly kind: 'ctx'; readonly ctx: string }
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'stat'; readonly stat: string }
  | { readonly kind: 'panel'; readonly panel: Panel };

/** A highlight with its name as the lesson writes it (`cpu0.tid`). */
export type NamedHighlight = Highlight & { readonly name: string };

export interface LessonTryIt {
  /** Markdown as written; `goalHtml` is it rendered. */
  goal: string;
  /** `here`: open the playground at this step's state; `start`: at the scenario's start. */
  from: 'here' | 'start';
  variant: Record<string, Scalar>;
  cache: Record<string, Scalar>;
  /** What the playground checks after every move to say the goal is reached (win.ts). */
  win: LessonWin | null;
}

/** A try-it's goal as the model can check it (wasm-core/lessons/src/format.rs `Win`). */
export interface LessonWin {
  /** Reached when any one of these invariants is violated (none listed: no such condition). */
  violation: string[];
  /** Reached when each counter's total (setup included) is at least its number. */
  stats: Record<string, number>;
  /** Inline Markdown, said once it is reached. */
  says: string;
  /** Moves (lesson syntax) that reach it; checked by `slub-lab lesson check`. */
  example: string[];
}

/** A step of `slub-lab lesson export`: prose as Markdown, claims as written. */
export interface ExportedStep {
  n: number;
  title: string;
  line: number;
  moves: string[];
  movesSource: string[];
  highlights: NamedHighlight[];
  predict: {
    question: string;
    choices: string[];
    answer: number;
    explain: string | null;
    claims: unknown;
  } | null;
  tryIt: LessonTryIt | null;
  expect: unknown;
  whatIf: unknown;
  narration: string;
}

/** A lesson of `slub-lab lesson export`. */
export interface ExportedLesson {
  file: string;
  dir: string;
  number: number;
  id: string;
  front: FrontMatter;
  intro: string;
  /** The scenario file as written. */
  scenario: string;
  steps: ExportedStep[];
}

export interface LessonPredict {
  question: string;
  /** The question as inline HTML (backticks become `<code>`). */
  questionHtml: string;
  choices: string[];
  choicesHtml: string[];
  /** Index (from 0) of the right choice. */
  answer: number;
  explainHtml: string | null;
}

/**
 * A step as the page gets it. The claims a step makes (`expect`, `whatIf`, a prediction's
 * claims) are checked by `slub-lab lesson check`, not shown, and stay out of the bundle.
 */
export interface LessonStep {
  /** 1-based, as in the URL `#/lessons/<id>/<n>`. */
  n: number;
  title: string;
  /** Line of the heading in lesson.md. */
  line: number;
  /** The moves this step plays (`T*3` expanded, `T to end` resolved). */
  moves: string[];
  /** The moves as written. */
  movesSource: string[];
  highlights: NamedHighlight[];
  predict: LessonPredict | null;
  tryIt: (LessonTryIt & { goalHtml: string; saysHtml: string | null }) | null;
  /** Narration rendered to HTML at build time, safe to insert (render.ts). */
  narrationHtml: string;
}

export interface Lesson {
  /** `lessons/NN-slug/lesson.md`. */
  file: string;
  /** `NN-slug`. */
  dir: string;
  /** The `NN` of the folder. */
  number: number;
  id: string;
  front: FrontMatter;
  introHtml: string;
  steps: LessonStep[];
  /** The lesson's scenario JSON with its variant overrides merged in: what the player loads. */
  scenario: string;
}

type Json = Record<string, unknown>;
type Overrides = Readonly<Record<string, string | boolean | number>>;

/** `scenario` with `variant` and `cache` keys set (later overrides win), as JSON text. */
export function withOverrides(
  scenario: string,
  variant: Overrides = {},
  cache: Overrides = {},
): string {
  const j = JSON.parse(scenario) as Json;
  if (Object.keys(variant).length > 0)
    j.variant = { ...(j.variant as Json | undefined), ...variant };
  if (Object.keys(cache).length > 0) j.cache = { ...(j.cache as Json | undefined), ...cache };
  return JSON.stringify(j);
}

/** Every move of steps 1..n (n from 1; 0 = the scenario's setup state). */
export function movesThrough(lesson: Lesson, n: number): string[] {
  return lesson.steps.slice(0, Math.max(0, n)).flatMap((s) => s.moves);
}

/** What the "try it yourself" of `step` opens: a scenario and the moves to replay in it. */
export function tryItPlayground(
  lesson: Lesson,
  step: LessonStep,
): { scenario: string; moves: string[] } | null {
  const t = step.tryIt;
  if (!t) return null;
  return {
    scenario: withOverrides(lesson.scenario, t.variant, t.cache),
    moves: t.from === 'here' ? movesThrough(lesson, step.n) : [],
  };
}
