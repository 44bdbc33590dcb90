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
import type { CoursePages, Lesson } from './index.js';
import { loadLessons } from './library.js';

export const LESSONS_MODULE = 'virtual:lessons';
const RESOLVED = `\0${LESSONS_MODULE}`;
/** The lessons' ids, titles and step counts alone: what the front page lists (a few KB, not the library). */
export const LESSON_TITLES_MODULE = 'virtual:lesson-titles';
const RESOLVED_TITLES = `\0${LESSON_TITLES_MODULE}`;

/**
 * The module's code: the lessons, and the course pages (glossary, invariants), as JSON strings
 * (JSON.parse is quicker than a literal).
 */
export function lessonsModule(lessons: readonly Lesson[], course: CoursePages = { glossary: [], invariants: [] }): string {
  return (
    `export default JSON.parse(${JSON.stringify(JSON.stringify(lessons))});\n` +
    `export const course = JSON.parse(${JSON.stringify(JSON.stringify(course))});\n`
  );
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
  return {
    name: 'slub-lab:lessons',
    buildStart() {
      loaded = undefined;
    },
    resolveId(id) {
      if (id === LESSONS_MODULE) return RESOLVED;
      return id === LESSON_TITLES_MODULE ? RESOLVED_TITLES : undefined;
    },
    load(id) {
      if (id !== RESOLVED && id !== RESOLVED_TITLES) return undefined;
      for (const file of lessonFilesOf(lessonsDir)) this.addWatchFile(file);
      // Both modules come from one export (the checker's run is the slow part).
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
      if (id === RESOLVED_TITLES) {
        const titles = lessons.map((l) => ({ id: l.id, title: l.front.title, steps: l.steps.length }));
        return `export default JSON.parse(${JSON.stringify(JSON.stringify(titles))});\n`;
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
      const mods = [RESOLVED, RESOLVED_TITLES].flatMap((m) => graph.getModuleById(m) ?? []);
      if (mods.length === 0) return undefined;
      for (const mod of mods) graph.invalidateModule(mod);
      this.environment.hot.send({ type: 'full-reload' });
      return [];
    },
  };
}
