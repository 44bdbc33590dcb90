// The lesson reader (prose, stage, code) is a chunk of its own: the lesson index, the glossary
// and the invariants page fetch neither it nor the stage's views and the simulator's bridge it
// brings. main.tsx starts it at once, beside the lesson pages' chunk, when the first page is a
// lesson, so a lesson's words wait for no extra round trip.
let here: typeof import('./LessonReader') | undefined;
export const loadLessonReader = () =>
  import('./LessonReader').then((m) => {
    here = m;
    return m;
  });
/** The reader's module if it has arrived (drawn at once, without a "Loading" frame). */
export const lessonReaderHere = () => here;
