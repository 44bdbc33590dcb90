// A lesson's handout, `#/lessons/<id>/handout`: every step on one page, to
// print or save as PDF from the browser (lessons.css `@media print`): its title, narration and
// the stage after its moves (before them where it asks a prediction), the prediction without
// its answer; then the takeaways, the
// exercises and the sources (LessonFrameEnd). Each stage is the reader's StageView, drawn once
// (no tween) from the simulator at the step's end.
import { useMemo } from 'react';
import { revealed, stageTrack, type Lesson, type LessonStep } from '../../lessons';
import { lessonLoader } from '../../lessons/heads';
import { CrashScreen } from '../CrashScreen';
import { useSimReady } from '../simReady';
import { useChunk } from '../useChunk';
import { useSimulationWhen } from '../useSimulation';
import { StageView } from '../views';
import { LessonFrameEnd } from './LessonFrame';
import { lessonHash } from './route';

export function LessonHandout({ id }: { id: string }) {
  const lesson = useChunk(lessonLoader(id));
  if (lesson.kind === 'failed') return <CrashScreen title="The lesson could not be loaded" message={lesson.message} />;
  if (lesson.kind !== 'ready') {
    return (
      <p className="loading" role="status">
        Loading the lesson…
      </p>
    );
  }
  const l = lesson.module;
  return (
    <main className="page lesson-handout" data-lesson={l.id} data-testid="handout">
      <h1>{l.front.title}</h1>
      <p className="muted">
        slub-lab lesson {l.number}, {l.steps.length} steps · {l.front.era} · online: <a href={lessonHash(l.id, 1)}>{lessonHash(l.id, 1)}</a>
      </p>
      <div className="prose" dangerouslySetInnerHTML={{ __html: l.introHtml }} />
      {l.steps.map((s) => (
        <HandoutStep key={s.n} lesson={l} step={s} />
      ))}
      <LessonFrameEnd lesson={l} />
    </main>
  );
}

function HandoutStep({ lesson, step }: { lesson: Lesson; step: LessonStep }) {
  const ready = useSimReady();
  const track = useMemo(() => stageTrack(lesson, step), [lesson, step]);
  // A step that asks a prediction shows the stage before its moves (where the question is
  // asked): the state after them would give the answer away.
  const p = step.predict;
  const cursor = p === null ? track.after : track.before;
  const derived = useSimulationWhen(ready, track.scenario, track.moves, cursor);
  const shown = (part: Parameters<typeof revealed>[1]) => revealed(lesson.front, part, step.n);
  return (
    <section className="handout-step" data-step={step.n}>
      <h2>
        Step {step.n}: {step.title}
      </h2>
      <div className="prose" dangerouslySetInnerHTML={{ __html: step.narrationHtml }} />
      {p !== null && (
        <div className="handout-predict" data-testid="handout-predict">
          <p>
            <strong>Predict.</strong> <span dangerouslySetInnerHTML={{ __html: p.questionHtml }} />
          </p>
          <ol type="a">
            {p.choicesHtml.map((c, i) => (
              <li key={i}>
                <span dangerouslySetInnerHTML={{ __html: c }} />
              </li>
            ))}
          </ol>
        </div>
      )}
      {p !== null && track.after > track.before && <p className="muted small">The stage before this step&apos;s moves, where the question is asked.</p>}
      {derived.kind === 'ok' ? (
        <StageView
          legend={false}
          hide={{ tid: !shown('tid'), lines: !shown('lines'), primitives: !shown('primitives'), cycles: !shown('cycles') }}
          view={derived.view}
          event={derived.lastEvent}
          selection={null}
          step={cursor}
          animate={false}
        />
      ) : derived.kind === 'loading' ? (
        <p className="loading" role="status">
          Loading the simulator…
        </p>
      ) : (
        <p className="error" role="alert">
          This step does not play: {derived.message}
        </p>
      )}
    </section>
  );
}
