// The frame after a lesson's last step: what to take away, the exercises (a model-checked one
// opens the playground with its goal; a written one's answer key is in the instructors'
// guide), how to see it on a real machine, the sources, and what to read next.
import { exercisePlayground, type Lesson } from '../../lessons';
import { playHash } from '../../state/url';
import { BUILTIN_TEXTS } from '../scenarios';

export function LessonFrameEnd({ lesson }: { lesson: Lesson }) {
  const f = lesson.frame;
  return (
    <section className="lesson-frame" aria-label="After the lesson" data-testid="lesson-frame">
      <h3>Takeaways</h3>
      <ul data-testid="takeaways">
        {f.takeawaysHtml.map((t, i) => (
          <li key={i} dangerouslySetInnerHTML={{ __html: t }} />
        ))}
      </ul>

      <h3>Exercises</h3>
      <ol data-testid="exercises">
        {f.exercises.map((e, i) => {
          const open = exercisePlayground(lesson, e);
          return (
            <li key={i} data-kind={e.check === null ? 'written' : 'model'}>
              <span dangerouslySetInnerHTML={{ __html: e.questionHtml }} />{' '}
              {open === null ? (
                <span className="muted small">(written: discuss or hand in)</span>
              ) : (
                <a
                  className="button-link"
                  data-testid={`exercise-${String(i + 1)}`}
                  href={playHash(open.scenario, open.moves, open.moves.length, BUILTIN_TEXTS, 'play', `${lesson.id}/e${String(i + 1)}`)}
                >
                  Try it: the model scores it →
                </a>
              )}
            </li>
          );
        })}
      </ol>

      {f.onYourMachineHtml !== null && (
        <>
          <h3>See it on your machine</h3>
          <div className="prose" data-testid="on-your-machine" dangerouslySetInnerHTML={{ __html: f.onYourMachineHtml }} />
        </>
      )}

      <h3>Sources</h3>
      <ul className="sources small" data-testid="sources">
        {f.sourcesHtml.map((t, i) => (
          <li key={i} dangerouslySetInnerHTML={{ __html: t }} />
        ))}
      </ul>

      {f.readNextHtml.length > 0 && (
        <>
          <h3>Read next</h3>
          <ul data-testid="read-next">
            {f.readNextHtml.map((t, i) => (
              <li key={i} dangerouslySetInnerHTML={{ __html: t }} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
