// The module vite-plugin.ts generates: every valid lesson, parsed and validated at build time,
// and the course pages around them.
declare module 'virtual:lessons' {
  const lessons: readonly import('./index').Lesson[];
  export default lessons;
  export const course: import('./index').CoursePages;
}

// The same lessons' ids, titles and step counts alone, for the front page.
declare module 'virtual:lesson-titles' {
  const titles: readonly { readonly id: string; readonly title: string; readonly steps: number }[];
  export default titles;
}
