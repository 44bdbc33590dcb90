// The module vite-plugin.ts generates: every valid lesson, parsed and validated at build time,
// and the course pages around them.
declare module 'virtual:lessons' {
  const lessons: readonly import('./index').Lesson[];
  export default lessons;
  export const course: import('./index').CoursePages;
}
