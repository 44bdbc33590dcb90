// The lessons as the page sees them: every `lessons/NN-slug/lesson.md` with its scenario,
// parsed, validated and replayed at build time by the Rust checker (crate slub-lessons, through
// `slub-lab lesson export`, which vite-plugin.ts runs), its prose rendered to safe HTML
// (render.ts), and shipped as JSON in the modules `virtual:lessons` (bundled.ts reads it),
// `virtual:lesson-heads` and `virtual:lesson/<id>` (heads.ts). This module, bundled.ts and
// heads.ts are what the page imports: none pulls in a parser.
//
// State of a lesson at step k = the scenario (with the lesson's variant overrides) after the
// moves of steps 1..k. A step's `predict` is asked before its moves are played and answered
// by the state after them.
//
// The shapes of `slub-lab lesson export` (wasm-core/lessons/src/export.rs and format.rs) are
// generated from the Rust types into ./generated (wasm-core/wasm/tests/contract.rs writes them
// and fails `npm test` when they are stale); the page's own (`Lesson`, `LessonStep`, ...) are
// written below.

import type { ExerciseCheck } from './generated/ExerciseCheck';
import type { FrontMatter } from './generated/FrontMatter';
import type { Highlight } from './generated/Highlight';
import type { LessonRun } from './generated/LessonRun';
import type { LessonTryIt } from './generated/LessonTryIt';
import type { NamedHighlight } from './generated/NamedHighlight';
import type { Revealable } from './generated/revealable';

export type { ExportedExercise } from './generated/ExportedExercise';
export type { ExportedLesson } from './generated/ExportedLesson';
export type { ExportedStep } from './generated/ExportedStep';
export type { LessonWin } from './generated/LessonWin';
export type { FrontMatter, Highlight, LessonRun, LessonTryIt, NamedHighlight, Revealable };
export { DESCRIPTIONS, PATCHES, SEEDS, STATS, TOPICS } from './vocabulary.js';


/** An exercise as the page gets it: prose rendered, no answer key. */
export interface LessonExercise {
  questionHtml: string;
  /** A model-checked exercise: where the playground opens and what it scores. */
  check: (ExerciseCheck & { saysHtml: string }) | null;
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

/** Whether `part` is shown at step `n` of a lesson with front matter `front`. */
export function revealed(front: Pick<FrontMatter, 'reveal'>, part: Revealable, n: number): boolean {
  const r = front.reveal[part];
  return r === undefined || (typeof r === 'number' ? n >= r : r);
}

/** The panels a highlight can name by itself. */
export type Panel = Extract<Highlight, { kind: 'panel' }>['panel'];

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

/**
 * What the lesson index, the glossary and a lesson's way on show of every lesson (the module
 * `virtual:lesson-heads`, heads.ts): not its steps' prose, its frame or its scenario, which come
 * with the lesson itself when it is opened. A whole `Lesson` is one too.
 */
export interface LessonHead {
  id: string;
  number: number;
  front: Pick<FrontMatter, 'title' | 'summary' | 'topics' | 'seeds' | 'patches' | 'era'>;
  steps: readonly { title: string }[];
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

/** `scenario` run by another allocator (a what-if step's `run.allocator`, `slab`), as JSON text. */
export function withAllocator(scenario: string, allocator: string | null): string {
  if (allocator === null) return scenario;
  return JSON.stringify({ ...(JSON.parse(scenario) as Json), allocator });
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
