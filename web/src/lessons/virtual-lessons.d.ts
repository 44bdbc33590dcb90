// The module vite-plugin.ts generates: every valid lesson, parsed and validated at build time.
declare module 'virtual:lessons' {
  const lessons: readonly import('./index').Lesson[];
  export default lessons;
}
