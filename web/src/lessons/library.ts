// The lesson library, built in node (the Vite plugin, vite-plugin.ts, and the tests): every
// `lessons/NN-slug/lesson.md` with its scenario, parsed and validated (parse.ts, schema.ts).
// A lesson that does not validate is reported in `errors` and left out of `lessons`, so a test
// can check the good ones and the messages of the bad ones; the plugin fails the build (and
// shows the dev server's overlay) on any error.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { withOverrides, type Lesson, type LessonStep } from './index.js';
import { LessonError, parseLesson, type LessonSource, type ParsedStep } from './parse.js';

export { LessonError, parseLesson, renderInline, renderMarkdown } from './parse.js';
export type { LessonSource, ParsedPredict, ParsedStep } from './parse.js';

/** A lesson with its claims (what the tests check); `pageLesson` is what the page gets. */
export interface ParsedLesson extends LessonSource {
  id: string;
  /** The lesson's scenario JSON with its variant overrides merged in: what the player loads. */
  scenario: string;
}

export interface LessonLibrary {
  /** Valid lessons, in folder order. */
  lessons: ParsedLesson[];
  errors: LessonError[];
}

type Json = Record<string, unknown>;

/** Attach the scenario text to a parsed lesson (throws LessonError if it is not usable). */
export function withScenario(src: LessonSource, scenarioText: string | undefined): ParsedLesson {
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

/**
 * Parse and validate raw files: `lessonFiles` maps `…/lessons/NN-slug/lesson.md` to its text,
 * `scenarioFiles` maps `…/lessons/NN-slug/NAME.json` to its text.
 */
export function buildLibrary(
  lessonFiles: Record<string, string>,
  scenarioFiles: Record<string, string>,
): LessonLibrary {
  const lessons: ParsedLesson[] = [];
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

/** What the page needs of a lesson (index.ts): the claims left out, field by field. */
export function pageLesson(l: ParsedLesson): Lesson {
  return {
    file: l.file,
    dir: l.dir,
    number: l.number,
    id: l.id,
    front: l.front,
    introHtml: l.introHtml,
    steps: l.steps.map(pageStep),
    scenario: l.scenario,
  };
}

function pageStep(s: ParsedStep): LessonStep {
  const p = s.predict;
  return {
    n: s.n,
    title: s.title,
    line: s.line,
    moves: s.moves,
    movesSource: s.movesSource,
    highlights: s.highlights,
    predict: p && {
      question: p.question,
      questionHtml: p.questionHtml,
      choices: p.choices,
      choicesHtml: p.choicesHtml,
      answer: p.answer,
      explainHtml: p.explainHtml,
    },
    tryIt: s.tryIt,
    narrationHtml: s.narrationHtml,
  };
}

/** `/abs/path/lessons/03-x/lesson.md` or `../../../lessons/03-x/lesson.md` → `lessons/03-x/lesson.md`. */
function relative(path: string): string {
  const i = path.lastIndexOf('lessons/');
  return i < 0 ? path : path.slice(i);
}

/**
 * The files of a lessons folder (`<repo>/lessons`), keyed by absolute path: each
 * `NN-slug/lesson.md` and each `NN-slug/*.json`. Folders without lesson.md, like `00-sample`,
 * are not lessons (their JSON is read and unused).
 */
export function readLessonFiles(lessonsDir: string): {
  lessonFiles: Record<string, string>;
  scenarioFiles: Record<string, string>;
} {
  const lessonFiles: Record<string, string> = {};
  const scenarioFiles: Record<string, string> = {};
  for (const dir of readdirSync(lessonsDir).sort()) {
    const folder = join(lessonsDir, dir);
    if (!statSync(folder).isDirectory()) continue;
    const md = join(folder, 'lesson.md');
    if (existsSync(md)) lessonFiles[md] = readFileSync(md, 'utf8');
    for (const f of readdirSync(folder)) {
      if (f.endsWith('.json')) scenarioFiles[join(folder, f)] = readFileSync(join(folder, f), 'utf8');
    }
  }
  return { lessonFiles, scenarioFiles };
}

/** Read, parse and validate every lesson of `lessonsDir` (`<repo>/lessons`). */
export function loadLessons(lessonsDir: string): LessonLibrary {
  const { lessonFiles, scenarioFiles } = readLessonFiles(lessonsDir);
  return buildLibrary(lessonFiles, scenarioFiles);
}
