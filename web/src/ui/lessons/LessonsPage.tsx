// `#/lessons…` in the app: the index or the reader, or the link-error panel naming what is
// wrong with the link (an unknown lesson, a step it does not have).
import { COURSE, LESSONS } from '../../lessons/bundled';
import { GlossaryPage, InvariantsPage } from './CoursePages';
import { LinkErrorPanel } from '../LinkErrorPanel';
import { LessonIndex } from './LessonIndex';
import { CrashScreen } from '../CrashScreen';
import { useChunk } from '../useChunk';
import { lessonReaderHere, loadLessonReader } from './loadReader';
import { parseLessonPath, resolveStep } from './route';
import './lessons.css';

export function LessonsPage({ path, query, hash }: { path: string; query: string; hash: string }) {
  const route = parseLessonPath(path, query);
  if (route.kind === 'error') return <LinkErrorPanel error={route} hash={hash} />;
  if (route.kind === 'index') return <LessonIndex lessons={LESSONS} topic={route.topic} text={route.text} />;
  if (route.kind === 'glossary') return <GlossaryPage course={COURSE} lessons={LESSONS} at={route.term} />;
  if (route.kind === 'invariants') return <InvariantsPage course={COURSE} at={route.id} />;
  const found = resolveStep(LESSONS, route.id, route.step);
  if ('kind' in found) return <LinkErrorPanel error={found} hash={hash} />;
  return <Reader key={found.lesson.id} lesson={found.lesson} step={found.step} />;
}

/** A lesson's reader, drawn once its chunk is here (loadReader.ts). */
function Reader({ lesson, step }: { lesson: (typeof LESSONS)[number]; step: number }) {
  const chunk = useChunk(loadLessonReader);
  const reader = chunk.kind === 'ready' ? chunk.module : lessonReaderHere();
  if (reader !== undefined) return <reader.LessonReader lessons={LESSONS} lesson={lesson} initialStep={step} />;
  if (chunk.kind === 'failed') return <CrashScreen title="The lesson could not be loaded" message={chunk.message} />;
  return (
    <p className="loading" role="status">
      Loading the lesson…
    </p>
  );
}
