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
  /** The kernel whose code the listing shows (the era badge). */
  era: string;
  /** The lesson's one idea (inline Markdown). */
  crux: string;
  takeaways: string[];
  readNext: string[];
  onYourMachine: string | null;
  sources: string[];
  exercises: ExportedExercise[];
}

/** An exercise as exported: a written one carries its answer key, which the page never gets. */
export interface ExportedExercise {
  question: string;
  answer: string | null;
  check: {
    from: 'start' | 'end';
    variant: Record<string, Scalar>;
    cache: Record<string, Scalar>;
    win: LessonWin;
  } | null;
}

/** An exercise as the page gets it: prose rendered, no answer key. */
export interface LessonExercise {
  questionHtml: string;
  /** A model-checked exercise: where the playground opens and what it scores. */
  check: {
    from: 'start' | 'end';
    variant: Record<string, Scalar>;
    cache: Record<string, Scalar>;
    win: LessonWin;
    saysHtml: string;
  } | null;
}

/** A glossary entry as the page gets it (course.ts). */
export interface CourseGlossaryEntry {
  term: string;
  /** Its part of `#/lessons/glossary/<slug>`. */
  slug: string;
  /** The lesson that introduces it. */
  lesson: string;
  definitionHtml: string;
}

/** An invariant the model checks, in words, and where the course breaks it. */
export interface CourseInvariant {
  id: string;
  /** SLUB 3.x–6.x, SLAB, or Linux 7.0. */
  family: 'slub' | 'slab' | 'v7';
  statementHtml: string;
  brokenHtml: string;
}

/** The pages around the lessons: the glossary and the invariants. */
export interface CoursePages {
  glossary: CourseGlossaryEntry[];
  invariants: CourseInvariant[];
}

/** The frame around a lesson's steps, rendered at build time. */
export interface LessonFrame {
  cruxHtml: string;
  takeawaysHtml: string[];
  readNextHtml: string[];
  onYourMachineHtml: string | null;
  sourcesHtml: string[];
  exercises: LessonExercise[];
}

/** The parts of the page a lesson's `reveal` may hold back (format.rs REVEALABLE). */
export type Revealable = 'lines' | 'tid' | 'stats' | 'vars' | 'violations' | 'primitives' | 'cycles' | 'eras';

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
  /** ... and none of these is. */
  without: string[];
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
  run: LessonRun | null;
  narration: string;
}

/** A what-if on the stage: the run a step shows instead of the lesson's own. */
export interface LessonRun {
  variant: Record<string, Scalar>;
  cache: Record<string, Scalar>;
  /** Every plain move from the start of the changed scenario. */
  moves: string[];
  /** Where this step's own moves begin in `moves`. */
  from: number;
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
  /** A what-if on the stage: the changed scenario (JSON text) and its run. */
  run: (LessonRun & { scenario: string }) | null;
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
  frame: LessonFrame;
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

/**
 * What the stage shows at `step`: a scenario, its schedule and the cursor range of the step's
 * own moves (`before`..`after`). The lesson's own run, or a what-if step's run.
 */
export function stageTrack(
  lesson: Lesson,
  step: LessonStep,
): { scenario: string; moves: string[]; before: number; after: number } {
  if (step.run !== null) {
    return { scenario: step.run.scenario, moves: step.run.moves, before: step.run.from, after: step.run.moves.length };
  }
  const moves = movesThrough(lesson, lesson.steps.length);
  const before = movesThrough(lesson, step.n - 1).length;
  return { scenario: lesson.scenario, moves, before, after: before + step.moves.length };
}

/** What a model-checked exercise opens: a scenario and the moves to replay in it. */
export function exercisePlayground(
  lesson: Lesson,
  exercise: LessonExercise,
): { scenario: string; moves: string[] } | null {
  const c = exercise.check;
  if (c === null) return null;
  return {
    scenario: withOverrides(lesson.scenario, c.variant, c.cache),
    moves: c.from === 'end' ? movesThrough(lesson, lesson.steps.length) : [],
  };
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
