// The module vite-plugin.ts generates: every valid lesson, parsed and validated at build time,
// and the course pages around them.
declare module 'virtual:lessons' {
  const lessons: readonly import('./index').Lesson[];
  export default lessons;
  export const course: import('./index').CoursePages;
}

// The same lessons' ids, numbers, titles and step counts alone, for the front page.
declare module 'virtual:lesson-titles' {
  const titles: readonly { readonly id: string; readonly number: number; readonly title: string; readonly steps: number }[];
  export default titles;
}

// Every lesson's head.
declare module 'virtual:lesson-heads' {
  const heads: readonly import('./index').LessonHead[];
  export default heads;
}

// One loader per lesson, by id (its module below, a chunk of its own).
declare module 'virtual:lesson-loaders' {
  const loaders: Readonly<Record<string, () => Promise<{ default: import('./index').Lesson }>>>;
  export default loaders;
}

// One whole lesson, `virtual:lesson/<id>`.
declare module 'virtual:lesson/*' {
  const lesson: import('./index').Lesson;
  export default lesson;
}

// The glossary and the invariants.
declare module 'virtual:course' {
  const course: import('./index').CoursePages;
  export default course;
}
