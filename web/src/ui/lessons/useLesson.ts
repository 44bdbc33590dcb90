// A whole lesson for a page that draws it (the reader, an embed): at once if it has arrived,
// else fetched (heads.ts: each lesson is a chunk of its own). The page is keyed by the lesson's
// id, so `id` does not change under one.
import { useEffect, useState } from 'react';
import { lessonHere, loadLesson } from '../../lessons/heads';
import type { Lesson } from '../../lessons';

export type LessonState = { kind: 'ready'; lesson: Lesson } | { kind: 'loading' } | { kind: 'failed'; message: string };

export function useLesson(id: string): LessonState {
  const [state, setState] = useState<LessonState>(() => {
    const lesson = lessonHere(id);
    return lesson === undefined ? { kind: 'loading' } : { kind: 'ready', lesson };
  });
  const waiting = state.kind === 'loading';
  useEffect(() => {
    if (!waiting) return;
    let live = true;
    loadLesson(id).then(
      (lesson) => live && setState({ kind: 'ready', lesson }),
      (e: unknown) => live && setState({ kind: 'failed', message: String(e) }),
    );
    return () => {
      live = false;
    };
  }, [id, waiting]);
  return state;
}
