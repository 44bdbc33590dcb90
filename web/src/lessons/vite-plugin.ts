// The Vite plugin that gives the page its lessons at build time (and in the dev server):
// `import lessons from 'virtual:lessons'` (bundled.ts) gets every lesson of `<repo>/lessons` as
// JSON. The Rust checker parses, validates and replays them (`slub-lab lesson export`, run by
// library.ts); markdown-it renders their prose to safe HTML here, in node (render.ts). Neither
// reaches the page.
//
// A lesson with an error, malformed or with a claim the model does not bear out, fails `vite
// build`, and in `vite` (dev) shows the error overlay, with the checker's messages:
// `lessons/NN-slug/lesson.md: <step>: <field>: <why>`, one line each. In dev, a change to a
// file under lessons/ reloads the page with the lessons read again.
//
// vite.config.ts imports this file, so Vite's config loader bundles it with library.ts,
// render.ts, vocabulary.ts and index.ts: their relative imports name the file (`./library.js`
// for library.ts, as TypeScript resolves it) and the JSON import has its `with { type: 'json'
// }`, which Vite's native config loader needs (it warns otherwise).
import { readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { normalizePath, type Plugin } from 'vite';
import type { CoursePages, Lesson, LessonHead } from './index.js';
import { loadLessons } from './library.js';

export const LESSONS_MODULE = 'virtual:lessons';
/** The lessons' ids, titles and step counts alone: what the front page lists (a few KB, not the library). */
export const LESSON_TITLES_MODULE = 'virtual:lesson-titles';
/** Every lesson's head (heads.ts: what the index, the glossary and a lesson's way on show). */
export const LESSON_HEADS_MODULE = 'virtual:lesson-heads';
/** A loader per lesson (its own chunk): a lesson page fetches its own lesson, not the library. */
export const LESSON_LOADERS_MODULE = 'virtual:lesson-loaders';
/** One whole lesson: `virtual:lesson/<id>`. */
export const LESSON_MODULE_PREFIX = 'virtual:lesson/';
/** The glossary and the invariants. */
export const COURSE_MODULE = 'virtual:course';

/** The modules this plugin makes. */
function isOurs(id: string): boolean {
  return [LESSONS_MODULE, LESSON_TITLES_MODULE, LESSON_HEADS_MODULE, LESSON_LOADERS_MODULE, COURSE_MODULE].includes(id) || id.startsWith(LESSON_MODULE_PREFIX);
}

/** A value as module code (JSON.parse of a string is quicker than a literal). */
function json(value: unknown): string {
  return `JSON.parse(${JSON.stringify(JSON.stringify(value))})`;
}

/** The head of a lesson (index.ts `LessonHead`): its front matter's title and index fields, its step titles. */
export function lessonHead(l: Lesson): LessonHead {
  const { title, summary, topics, seeds, patches, era } = l.front;
  return { id: l.id, number: l.number, front: { title, summary, topics, seeds, patches, era }, steps: l.steps.map((s) => ({ title: s.title })) };
}

/** `virtual:lesson-loaders`: one dynamic import per lesson, by id. */
export function loadersModule(lessons: readonly Lesson[]): string {
  const loaders = lessons.map((l) => `  ${JSON.stringify(l.id)}: () => import(${JSON.stringify(LESSON_MODULE_PREFIX + l.id)}),`);
  return `export default {\n${loaders.join('\n')}\n};\n`;
}

/**
 * The module's code: the lessons, and the course pages (glossary, invariants), as JSON strings
 * (JSON.parse is quicker than a literal).
 */
export function lessonsModule(lessons: readonly Lesson[], course: CoursePages = { glossary: [], invariants: [] }): string {
  return `export default ${json(lessons)};\nexport const course = ${json(course)};\n`;
}

/** Every `NN-slug/*.md` and `*.json` of the lessons folder (and of course/), and its vocabulary.json. */
function lessonFilesOf(lessonsDir: string): string[] {
  const out = [join(lessonsDir, 'vocabulary.json')];
  for (const dir of readdirSync(lessonsDir)) {
    const folder = join(lessonsDir, dir);
    if (!statSync(folder).isDirectory()) continue;
    for (const f of readdirSync(folder)) {
      if (['.md', '.json'].includes(extname(f))) out.push(join(folder, f));
    }
  }
  return out;
}

/** `lessonsDir` is `<repo>/lessons`, an absolute path. */
export function lessonsPlugin(lessonsDir: string): Plugin {
  const under = `${normalizePath(lessonsDir)}/`;
  const isLessonFile = (file: string) =>
    normalizePath(file).startsWith(under) && ['.md', '.json'].includes(extname(file));
  let loaded: ReturnType<typeof loadLessons> | undefined;
  /** The resolved ids of the modules made so far (a lesson's change reloads them all). */
  const made = new Set<string>();
  return {
    name: 'slub-lab:lessons',
    buildStart() {
      loaded = undefined;
    },
    resolveId(id) {
      return isOurs(id) ? `\0${id}` : undefined;
    },
    load(resolved) {
      if (!resolved.startsWith('\0') || !isOurs(resolved.slice(1))) return undefined;
      const id = resolved.slice(1);
      made.add(resolved);
      for (const file of lessonFilesOf(lessonsDir)) this.addWatchFile(file);
      // Every module comes from one export (the checker's run is the slow part).
      loaded ??= loadLessons(lessonsDir);
      const { lessons, course, errors } = loaded;
      if (errors.length > 0) {
        // `id`: the first broken file, for the overlay (LessonError's `file` is `lessons/…`).
        const first = (errors[0]?.file ?? '').replace(`${basename(lessonsDir)}/`, '');
        this.error({
          message: errors.map((e) => e.message).join('\n'),
          id: join(lessonsDir, first),
        });
      }
      if (id === LESSON_TITLES_MODULE) {
        return `export default ${json(lessons.map((l) => ({ id: l.id, number: l.number, title: l.front.title, steps: l.steps.length })))};\n`;
      }
      if (id === LESSON_HEADS_MODULE) return `export default ${json(lessons.map(lessonHead))};\n`;
      if (id === LESSON_LOADERS_MODULE) return loadersModule(lessons);
      if (id === COURSE_MODULE) return `export default ${json(course)};\n`;
      if (id.startsWith(LESSON_MODULE_PREFIX)) {
        const lesson = lessons.find((l) => l.id === id.slice(LESSON_MODULE_PREFIX.length));
        if (lesson === undefined) this.error(`${id}: no such lesson`);
        return `export default ${json(lesson)};\n`;
      }
      return lessonsModule(lessons, course);
    },
    configureServer(server) {
      // lessons/ is outside the Vite root: watch it, new lesson folders included.
      server.watcher.add(lessonsDir);
    },
    hotUpdate({ file }) {
      if (!isLessonFile(file)) return undefined;
      const graph = this.environment.moduleGraph;
      loaded = undefined;
      const mods = [...made].flatMap((m) => graph.getModuleById(m) ?? []);
      if (mods.length === 0) return undefined;
      for (const mod of mods) graph.invalidateModule(mod);
      this.environment.hot.send({ type: 'full-reload' });
      return [];
    },
  };
}
