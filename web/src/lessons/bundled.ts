// The lessons the build bundled (`virtual:lessons`, made by vite-plugin.ts): ready JSON, parsed
// and validated at build time, so the page runs no parser. A lesson with an error fails the
// build (and shows the dev server's overlay), so every lesson here is valid.
import lessons, { course } from 'virtual:lessons';
import type { CoursePages, Lesson } from './index';

/** Every lesson, in folder order. Folders without lesson.md, like `00-sample`, are not lessons. */
export const LESSONS: readonly Lesson[] = lessons;

/** A lesson by id. */
export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/** The glossary and the invariants. */
export const COURSE: CoursePages = course;
