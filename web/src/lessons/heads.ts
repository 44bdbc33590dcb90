// The lessons as a lesson page fetches them: every lesson's head at once (virtual:lesson-heads:
// the index, the glossary and a lesson's way on), and a whole lesson only when it is opened, a
// chunk of its own (virtual:lesson-loaders, vite-plugin.ts; index.html's route preload may
// have fetched it already, route-preload.ts). bundled.ts keeps the whole library for what needs
// every lesson at once (a goal in the playground).
import heads from 'virtual:lesson-heads';
import loaders from 'virtual:lesson-loaders';
import type { Lesson, LessonHead } from './index';

/** Every lesson's head, in folder order. */
export const LESSON_HEADS: readonly LessonHead[] = heads;

const byId = new Map<string, () => Promise<Lesson>>();

/**
 * The loader of lesson `id`, the same function on every call (useChunk keeps what it loaded by
 * its loader, so a lesson opened again draws at once). For an id that is no lesson, a loader
 * that rejects.
 */
export function lessonLoader(id: string): () => Promise<Lesson> {
  let loader = byId.get(id);
  if (loader === undefined) {
    const load = Object.hasOwn(loaders, id) ? loaders[id] : undefined;
    loader = load === undefined ? () => Promise.reject(new Error(`there is no lesson "${id}"`)) : () => load().then((m) => m.default);
    byId.set(id, loader);
  }
  return loader;
}
