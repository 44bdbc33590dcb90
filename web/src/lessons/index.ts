// The lesson library: every `lessons/NN-slug/lesson.md` with its scenario, bundled at build
// time (Vite's import.meta.glob), parsed and validated (parse.ts, schema.ts). A lesson that does
// not validate is reported in `errors` and left out of `lessons`, so one bad file cannot take
// the library down; the Vitest and Rust tests fail on it.
//
// State of a lesson at step k = the scenario (with the lesson's variant overrides) after the
// moves of steps 1..k. A step's `predict` is asked before its moves are played and answered
// by the state after them.
import { LessonError, parseLesson, type LessonSource, type LessonStep } from './parse';

export { LessonError, parseLesson, renderInline, renderMarkdown } from './parse';
export type { LessonPredict, LessonSource, LessonStep, LessonTryIt } from './parse';
export { DESCRIPTIONS, expandMoves, PATCHES, SEEDS, STATS, TOPICS } from './schema';
export type { Claims, FrontMatter, WhatIf } from './schema';

export interface Lesson extends LessonSource {
  id: string;
  /** The lesson's scenario JSON with its variant overrides merged in: what the player loads. */
  scenario: string;
}

export interface LessonLibrary {
  /** Valid lessons, in folder order. */
  lessons: Lesson[];
  errors: LessonError[];
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

/** Attach the scenario text to a parsed lesson (throws LessonError if it is not usable). */
export function withScenario(src: LessonSource, scenarioText: string | undefined): Lesson {
  const field = 'front matter: scenario';
  if (scenarioText === undefined) {
    throw new LessonError(src.file, [
      { field, message: `no file ${src.front.scenario} beside lesson.md` },
    ]);
  }
  let j: Json;
  try {
    j = JSON.parse(scenarioText) as Json;
  } catch (e) {
    throw new LessonError(src.file, [
      { field, message: `${src.front.scenario} is not JSON: ${String(e)}` },
    ]);
  }
  if ('schedule' in j) {
    throw new LessonError(src.file, [
      {
        field,
        message: `${src.front.scenario} has a \`schedule\`; a lesson's steps are its schedule`,
      },
    ]);
  }
  return {
    ...src,
    id: src.front.id,
    scenario: withOverrides(scenarioText, src.front.variant ?? {}),
  };
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

/**
 * Parse and validate raw files: `lessonFiles` maps `…/lessons/NN-slug/lesson.md` to its text,
 * `scenarioFiles` maps `…/lessons/NN-slug/NAME.json` to its text.
 */
export function buildLibrary(
  lessonFiles: Record<string, string>,
  scenarioFiles: Record<string, string>,
): LessonLibrary {
  const lessons: Lesson[] = [];
  const errors: LessonError[] = [];
  const ids = new Map<string, string>();
  const scenarios = new Map(
    Object.entries(scenarioFiles).map(([path, text]) => [relative(path), text]),
  );
  for (const path of Object.keys(lessonFiles).sort()) {
    const file = relative(path);
    const dir = file.split('/')[1] ?? '';
    try {
      const src = parseLesson(file, dir, lessonFiles[path] ?? '');
      const lesson = withScenario(src, scenarios.get(`lessons/${dir}/${src.front.scenario}`));
      const other = ids.get(lesson.id);
      if (other !== undefined) {
        throw new LessonError(file, [
          {
            field: 'front matter: id',
            message: `${JSON.stringify(lesson.id)} is also the id of ${other}`,
          },
        ]);
      }
      ids.set(lesson.id, file);
      lessons.push(lesson);
    } catch (e) {
      if (!(e instanceof LessonError)) throw e;
      errors.push(e);
    }
  }
  return { lessons, errors };
}

/** `/abs/path/lessons/03-x/lesson.md` or `../../../lessons/03-x/lesson.md` → `lessons/03-x/lesson.md`. */
function relative(path: string): string {
  const i = path.lastIndexOf('lessons/');
  return i < 0 ? path : path.slice(i);
}

let library: LessonLibrary | null = null;

/** The bundled lessons (parsed once). Folders without lesson.md, like `00-sample`, are not lessons. */
export function loadLessons(): LessonLibrary {
  library ??= buildLibrary(
    import.meta.glob<string>('../../../lessons/*/lesson.md', {
      query: '?raw',
      import: 'default',
      eager: true,
    }),
    import.meta.glob<string>('../../../lessons/*/*.json', {
      query: '?raw',
      import: 'default',
      eager: true,
    }),
  );
  return library;
}

/** A lesson by id. */
export function lessonById(id: string): Lesson | undefined {
  return loadLessons().lessons.find((l) => l.id === id);
}
