// The lessons as a lesson page fetches them: every lesson's head at once (virtual:lesson-heads:
// the index, the glossary and a lesson's way on), and a whole lesson only when it is opened, a
// chunk of its own (virtual:lesson-loaders, vite-plugin.ts; index.html's route preload may
// have fetched it already, route-preload.ts). bundled.ts keeps the whole library for what needs every
// lesson at once (a goal in the playground).
import heads from 'virtual:lesson-heads';
import loaders from 'virtual:lesson-loaders';
import type { Lesson, LessonHead } from './index';

/** Every lesson's head, in folder order. */
export const LESSON_HEADS: readonly LessonHead[] = heads;

const here = new Map<string, Lesson>();
const loading = new Map<string, Promise<Lesson>>();

/** The lesson if it has arrived (drawn at once, without a "Loading" frame). */
export function lessonHere(id: string): Lesson | undefined {
  return here.get(id);
}

/** Fetch a lesson (once; later calls share the first). Rejects for an id that is no lesson. */
export function loadLesson(id: string): Promise<Lesson> {
  const load = Object.hasOwn(loaders, id) ? loaders[id] : undefined;
  if (load === undefined) return Promise.reject(new Error(`there is no lesson "${id}"`));
  let p = loading.get(id);
  if (p === undefined) {
    p = load().then((m) => {
      here.set(id, m.default);
      return m.default;
    });
    loading.set(id, p);
    // A failed fetch (a dropped connection) may be tried again.
    p.catch(() => loading.delete(id));
  }
  return p;
}
