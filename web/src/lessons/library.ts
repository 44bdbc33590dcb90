// The lesson library, built in node (the Vite plugin, vite-plugin.ts, and the tests): the
// lessons of a `lessons/` folder as the Rust checker exports them (`slub-lab lesson export`,
// crate slub-lessons: parsed, validated and every claim replayed against the model), with
// their prose rendered to safe HTML (render.ts). The page gets `pageLesson`'s shape.
//
// The binary is `<repo>/target/release/slub-lab` (`$CARGO_TARGET_DIR/release/slub-lab` when
// that is set, or `$SLUB_LAB_BIN`); scripts/setup.mjs builds it for `npm start` and `npm test`.
import { spawnSync } from 'node:child_process';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withAllocator, withOverrides, type ExportedLesson, type ExportedStep, type Lesson, type LessonStep } from './index.js';
import { loadCourse, readGlossary, readInvariantIds, termLinker } from './course.js';
import type { CoursePages } from './index.js';
import { renderInline, renderMarkdown, type TermLinker } from './render.js';

export { renderInline, renderMarkdown } from './render.js';

/** A lesson the checker refused: its messages, each `file: step/field: why`. */
export class LessonError extends Error {
  readonly file: string;
  readonly lines: readonly string[];

  constructor(file: string, lines: readonly string[]) {
    super(lines.join('\n'));
    this.name = 'LessonError';
    this.file = file;
    this.lines = lines;
  }
}

export interface LessonLibrary {
  /** Every lesson, in folder order, when all of them hold; none otherwise. */
  lessons: Lesson[];
  /** The glossary and the invariants (empty when a lesson is broken). */
  course: CoursePages;
  /** One per broken lesson file, in the checker's order. */
  errors: LessonError[];
}

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The `slub-lab` binary the library runs. */
export function slubLabBin(): string {
  const env = process.env;
  if (env.SLUB_LAB_BIN) return env.SLUB_LAB_BIN;
  const target = env.CARGO_TARGET_DIR ? resolve(REPO, env.CARGO_TARGET_DIR) : join(REPO, 'target');
  return join(target, 'release', process.platform === 'win32' ? 'slub-lab.exe' : 'slub-lab');
}

/**
 * `slub-lab lesson export` on `lessonsDir`, run from its parent so that messages name
 * `lessons/NN-slug/lesson.md`. Exit 1 (a failed claim) or 2 (a malformed lesson) gives the
 * messages as LessonErrors, grouped by file; anything else throws.
 */
export function exportLessons(lessonsDir: string): { lessons: ExportedLesson[]; errors: LessonError[] } {
  const bin = slubLabBin();
  const name = basename(lessonsDir);
  const r = spawnSync(bin, ['lesson', 'export', name], {
    cwd: dirname(lessonsDir),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) {
    throw new Error(
      `cannot run ${bin} (${r.error.message}): build it with \`node scripts/setup.mjs\` or \`cargo build --release -p slub-lab\``,
    );
  }
  if (r.status === 0) {
    return { lessons: (JSON.parse(r.stdout) as { lessons: ExportedLesson[] }).lessons, errors: [] };
  }
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  if ((r.status !== 1 && r.status !== 2) || lines.length === 0) {
    throw new Error(`${bin} lesson export ${name}: exit ${String(r.status)}\n${r.stderr}`);
  }
  // A message starts with its file (`lessons/NN-slug/lesson.md: ...`); the lines after it that
  // do not (an event claim lists the step's events) belong to it.
  const byFile = new Map<string, string[]>();
  let last: string[] | undefined;
  for (const line of lines) {
    const file = line.startsWith(`${name}/`) ? line.slice(0, line.indexOf(': ')) : null;
    if (file === null || file === '') {
      if (last) last.push(line);
      else byFile.set(name, (last = [line]));
      continue;
    }
    last = byFile.get(file) ?? [];
    byFile.set(file, last);
    last.push(line);
  }
  return { lessons: [], errors: [...byFile].map(([file, ls]) => new LessonError(file, ls)) };
}

/**
 * What the page needs of an exported lesson: prose rendered, claims left out. With `terms`, the
 * first use of each glossary term in the lesson's intro and narration links to its entry.
 */
export function pageLesson(l: ExportedLesson, terms?: TermLinker): Lesson {
  return {
    file: l.file,
    dir: l.dir,
    number: l.number,
    id: l.id,
    front: { ...l.front, exercises: [] },
    introHtml: renderMarkdown(l.intro, terms),
    frame: {
      cruxHtml: renderInline(l.front.crux),
      takeawaysHtml: l.front.takeaways.map(renderInline),
      readNextHtml: l.front.readNext.map(renderInline),
      onYourMachineHtml: l.front.onYourMachine === null ? null : renderMarkdown(l.front.onYourMachine),
      sourcesHtml: l.front.sources.map(renderInline),
      // A written exercise's answer key is the instructors': it stays out of the page.
      exercises: l.front.exercises.map((e) => ({
        questionHtml: renderInline(e.question),
        check: e.check && { ...e.check, saysHtml: renderInline(e.check.win.says) },
      })),
    },
    steps: l.steps.map((s) => pageStep(s, l, terms)),
    scenario: withOverrides(l.scenario, l.front.variant),
  };
}

function pageStep(s: ExportedStep, l: ExportedLesson, terms?: TermLinker): LessonStep {
  const p = s.predict;
  const t = s.tryIt;
  return {
    n: s.n,
    title: s.title,
    line: s.line,
    moves: s.moves,
    movesSource: s.movesSource,
    highlights: s.highlights,
    predict: p && {
      question: p.question,
      questionHtml: renderInline(p.question),
      choices: p.choices,
      choicesHtml: p.choices.map(renderInline),
      answer: p.answer,
      explainHtml: p.explain === null ? null : renderInline(p.explain),
    },
    tryIt: t && { ...t, goalHtml: renderInline(t.goal), saysHtml: t.win === null ? null : renderInline(t.win.says) },
    run: s.run && {
      ...s.run,
      scenario: withAllocator(
        withOverrides(l.scenario, { ...l.front.variant, ...s.run.variant }, s.run.cache),
        s.run.allocator,
      ),
    },
    narrationHtml: renderMarkdown(s.narration, terms),
  };
}

/** Every lesson of `lessonsDir` (`<repo>/lessons`) as the page gets it, or the errors. */
export function loadLessons(lessonsDir: string): LessonLibrary {
  const { lessons, errors } = exportLessons(lessonsDir);
  if (errors.length > 0) return { lessons: [], course: { glossary: [], invariants: [] }, errors };
  const ids = new Set(lessons.map((l) => l.id));
  const glossary = readGlossary(lessonsDir, ids);
  const invariants = readInvariantIds(lessonsDir);
  return {
    lessons: lessons.map((l) => pageLesson(l, termLinker(glossary, invariants))),
    course: loadCourse(lessonsDir, ids),
    errors,
  };
}
