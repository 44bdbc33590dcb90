// The goal of a lesson's "try it yourself" over the playground (issue 13 item 6): what to
// find, how far the learner is, the model's word once it is reached, and the way back.
// Loaded lazily with the lesson library, only when a link names a goal.
import { lessonById } from '../lessons/bundled';
import { goalProgress, goalReached } from '../lessons/win';
import type { Outcome, View } from '../sim';
import { lessonHash } from './lessons/route';

export function GoalBanner({ goal, view, outcome }: { goal: string; view: View; outcome: Outcome }) {
  const [id = '', n = ''] = goal.split('/');
  const lesson = lessonById(id);
  const step = lesson?.steps[Number(n) - 1];
  const t = step?.tryIt;
  if (lesson === undefined || step === undefined || t === null || t === undefined) {
    return (
      <p className="error goal-error" role="alert" data-testid="goal-error">
        The link&apos;s goal, <code>{goal}</code>, is not the &ldquo;try it yourself&rdquo; of any lesson step (
        <a href="#/lessons">the lessons</a>).
      </p>
    );
  }
  const won = t.win !== null && goalReached(t.win, view, outcome);
  const next = lesson.steps[step.n];
  const back = lessonHash(lesson.id, step.n);
  return (
    <section className={`goal${won ? ' won' : ''}`} aria-labelledby="goal-title" data-testid="goal" data-won={won}>
      <h2 id="goal-title">
        {won ? '✓ Goal reached' : 'Your goal'}{' '}
        <span className="muted">
          · lesson {lesson.number}, step {step.n}: {lesson.front.title}
        </span>
      </h2>
      <p className="goal-text" dangerouslySetInnerHTML={{ __html: t.goalHtml }} />
      <p className="goal-status" aria-live="polite" data-testid="goal-status">
        {t.win === null ? (
          'An open question: the model does not score it. Explore, then compare with the lesson.'
        ) : won ? (
          <span dangerouslySetInnerHTML={{ __html: t.saysHtml ?? '' }} />
        ) : (
          <>Not yet: {goalProgress(t.win, view, outcome)}.</>
        )}
      </p>
      <p className="goal-links">
        <a className="button-link" href={back} data-testid="goal-back">
          ← Back to the lesson
        </a>
        {won && next !== undefined && (
          <a className="button-link primary" href={lessonHash(lesson.id, next.n)}>
            Continue with step {next.n} →
          </a>
        )}
      </p>
    </section>
  );
}
