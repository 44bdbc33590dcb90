// The lessons as the page sees them: every `lessons/NN-slug/lesson.md` with its scenario,
// parsed and validated at build time (vite-plugin.ts runs library.ts, parse.ts and schema.ts
// in node) and shipped as JSON in the module `virtual:lessons`, which bundled.ts reads. This
// module and bundled.ts are what the page imports: neither pulls in markdown-it, yaml or zod.
//
// State of a lesson at step k = the scenario (with the lesson's variant overrides) after the
// moves of steps 1..k. A step's `predict` is asked before its moves are played and answered
// by the state after them.
import type { FrontMatter } from './schema.js';

export { DESCRIPTIONS, expandMoves, PATCHES, SEEDS, STATS, TOPICS } from './vocabulary.js';
export type { Claims, FrontMatter, WhatIf } from './schema.js';

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

export interface LessonTryIt {
  goal: string;
  goalHtml: string;
  /** `here`: open the playground at this step's state; `start`: at the scenario's start. */
  from: 'here' | 'start';
  variant: Record<string, string | boolean | number>;
  cache: Record<string, string | boolean | number>;
}

/**
 * A step as the page gets it. The claims a step makes (`expect`, `whatIf`, a prediction's
 * claims) are checked by the tests, not shown, and stay out of the bundle (parse.ts has them).
 */
export interface LessonStep {
  /** 1-based, as in the URL `#/lessons/<id>/<n>`. */
  n: number;
  title: string;
  /** Line of the heading in lesson.md. */
  line: number;
  /** The moves this step plays, `T*3` expanded. */
  moves: string[];
  /** The moves as written. */
  movesSource: string[];
  highlights: string[];
  predict: LessonPredict | null;
  tryIt: LessonTryIt | null;
  /** Narration rendered to HTML at build time, safe to insert (parse.ts). */
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
