// The Vite plugin that parses and validates the lessons at build time (and in the dev server):
// `import lessons from 'virtual:lessons'` (bundled.ts) gets every lesson of `<repo>/lessons` as
// JSON, its narration already rendered to safe HTML (parse.ts). markdown-it, yaml and zod run
// here, in node, and never reach the page.
//
// A lesson with an error fails `vite build`, and in `vite` (dev) shows the error overlay, with
// the messages of LessonError: `lessons/NN-slug/lesson.md: <field>: <why>`, one line each. In
// dev, a change to a file under lessons/ reloads the page with the lessons read again.
//
// vite.config.ts imports this file, so Vite's config loader bundles it with library.ts,
// parse.ts, schema.ts, vocabulary.ts and index.ts: their relative imports name the file
// (`./parse.js` for parse.ts, as TypeScript resolves it) and the JSON import has its
// `with { type: 'json' }`, which Vite's native config loader needs (it warns otherwise).
import { extname, join } from 'node:path';
import { normalizePath, type Plugin } from 'vite';
import type { Lesson } from './index.js';
import { buildLibrary, pageLesson, readLessonFiles } from './library.js';

export const LESSONS_MODULE = 'virtual:lessons';
const RESOLVED = `\0${LESSONS_MODULE}`;

/** The module's code: the lessons as a JSON string (JSON.parse is quicker than a literal). */
export function lessonsModule(lessons: readonly Lesson[]): string {
  return `export default JSON.parse(${JSON.stringify(JSON.stringify(lessons))});\n`;
}

/** `lessonsDir` is `<repo>/lessons`, an absolute path. */
export function lessonsPlugin(lessonsDir: string): Plugin {
  const under = `${normalizePath(lessonsDir)}/`;
  const isLessonFile = (file: string) =>
    normalizePath(file).startsWith(under) && ['.md', '.json'].includes(extname(file));
  return {
    name: 'slub-lab:lessons',
    resolveId(id) {
      return id === LESSONS_MODULE ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      const { lessonFiles, scenarioFiles } = readLessonFiles(lessonsDir);
      for (const file of [...Object.keys(lessonFiles), ...Object.keys(scenarioFiles)]) {
        this.addWatchFile(file);
      }
      const { lessons, errors } = buildLibrary(lessonFiles, scenarioFiles);
      if (errors.length > 0) {
        // `id`: the first broken file, for the overlay (LessonError's `file` is `lessons/…`).
        const first = (errors[0]?.file ?? '').replace(/^lessons\//, '');
        this.error({
          message: errors.map((e) => e.message).join('\n'),
          id: join(lessonsDir, first),
        });
      }
      return lessonsModule(lessons.map(pageLesson));
    },
    configureServer(server) {
      // lessons/ is outside the Vite root: watch it, new lesson folders included.
      server.watcher.add(lessonsDir);
    },
    hotUpdate({ file }) {
      if (!isLessonFile(file)) return undefined;
      const graph = this.environment.moduleGraph;
      const mod = graph.getModuleById(RESOLVED);
      if (mod === undefined) return undefined;
      graph.invalidateModule(mod);
      this.environment.hot.send({ type: 'full-reload' });
      return [];
    },
  };
}
