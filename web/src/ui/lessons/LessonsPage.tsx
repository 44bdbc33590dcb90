// `#/lessons…` in the app: the index or the reader, or the link-error panel naming what is
// wrong with the link (an unknown lesson, a step it does not have).
import { lazy, Suspense } from 'react';
import COURSE from 'virtual:course';
import { LESSON_HEADS, lessonLoader } from '../../lessons/heads';
import { GlossaryPage, InvariantsPage } from './CoursePages';
import { LinkErrorPanel } from '../LinkErrorPanel';
import { LessonIndex } from './LessonIndex';
import { CrashScreen } from '../CrashScreen';
import { useChunk } from '../useChunk';
import { lessonReaderHere, loadLessonReader } from './loadReader';
import { parseLessonPath, resolveStep } from './route';
import './lessons.css';

// The handout (every step, to print) loads with its own chunk, only when asked for.
const LessonHandout = lazy(() => import('./LessonHandout').then((m) => ({ default: m.LessonHandout })));

export function LessonsPage({ path, query, hash }: { path: string; query: string; hash: string }) {
  const route = parseLessonPath(path, query);
  if (route.kind === 'error') return <LinkErrorPanel error={route} hash={hash} />;
  if (route.kind === 'index') return <LessonIndex lessons={LESSON_HEADS} topic={route.topic} text={route.text} />;
  if (route.kind === 'glossary') return <GlossaryPage course={COURSE} lessons={LESSON_HEADS} at={route.term} />;
  if (route.kind === 'invariants') return <InvariantsPage course={COURSE} at={route.id} />;
  if (route.kind === 'handout') {
    const head = resolveStep(LESSON_HEADS, route.id, 1);
    if ('kind' in head) return <LinkErrorPanel error={head} hash={hash} />;
    return (
      <Suspense fallback={<p className="loading" role="status">Loading the handout…</p>}>
        <LessonHandout id={head.lesson.id} />
      </Suspense>
    );
  }
  const found = resolveStep(LESSON_HEADS, route.id, route.step);
  if ('kind' in found) return <LinkErrorPanel error={found} hash={hash} />;
  return <Reader key={found.lesson.id} id={found.lesson.id} step={found.step} />;
}

/** A lesson's reader, drawn once its chunk and the lesson's are here (loadReader.ts, heads.ts). */
function Reader({ id, step }: { id: string; step: number }) {
  const chunk = useChunk(loadLessonReader);
  const lesson = useChunk(lessonLoader(id));
  const reader = chunk.kind === 'ready' ? chunk.module : lessonReaderHere();
  if (reader !== undefined && lesson.kind === 'ready') {
    return <reader.LessonReader lessons={LESSON_HEADS} lesson={lesson.module} initialStep={step} />;
  }
  if (chunk.kind === 'failed') return <CrashScreen title="The lesson could not be loaded" message={chunk.message} />;
  if (lesson.kind === 'failed') return <CrashScreen title="The lesson could not be loaded" message={lesson.message} />;
  return (
    <p className="loading" role="status">
      Loading the lesson…
    </p>
  );
}
