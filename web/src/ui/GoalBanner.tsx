// The goal of a lesson's "try it yourself" over the playground: what to
// find, how far the learner is, the model's word once it is reached, and the way back.
// Loaded lazily with the lesson library, only when a link names a goal.
import { goalOf } from '../lessons/goal';
import { notTheGoal } from '../lessons/same-exercise';
import { goalProgress, goalReached } from '../lessons/win';
import type { Outcome, View } from '../sim';
import { lessonHash } from './lessons/route';

export function GoalBanner({
  goal,
  view,
  outcome,
  scenario,
  moves,
}: {
  goal: string;
  view: View;
  outcome: Outcome;
  /** The playground's scenario and its moves up to the cursor: still the goal's? */
  scenario: string;
  moves: readonly string[];
}) {
  const g = goalOf(goal);
  if (g === null) {
    return (
      <p className="error goal-error" role="alert" data-testid="goal-error">
        The link&apos;s goal, <code>{goal}</code>, is not the &ldquo;try it yourself&rdquo; or an exercise of any lesson (
        <a href="#/lessons">the lessons</a>).
      </p>
    );
  }
  const { lesson, win } = g;
  const back = lessonHash(lesson.id, g.backStep);
  const away = g.opening === null ? null : notTheGoal(g.opening, scenario, moves);
  if (away !== null) {
    // What the grader would refuse is not the exercise any more: no goal, no hand-in.
    return (
      <section className="goal away" aria-labelledby="goal-title" data-testid="goal" data-won={false} data-away>
        <h2 id="goal-title">
          No longer the goal{' '}
          <span className="muted">
            · lesson {lesson.number}, {g.where}: {lesson.front.title}
          </span>
        </h2>
        <p className="goal-status" aria-live="polite" data-testid="goal-status">
          This page is no longer the exercise: {away}. Explore freely; to work on the goal, open it again from the
          lesson.
        </p>
        <p className="goal-links">
          <a className="button-link" href={back} data-testid="goal-back">
            ← Back to the lesson
          </a>
        </p>
      </section>
    );
  }
  const won = win !== null && goalReached(win, view, outcome);
  return (
    <section className={`goal${won ? ' won' : ''}`} aria-labelledby="goal-title" data-testid="goal" data-won={won}>
      <h2 id="goal-title">
        {won ? '✓ Goal reached' : 'Your goal'}{' '}
        <span className="muted">
          · lesson {lesson.number}, {g.where}: {lesson.front.title}
        </span>
      </h2>
      <p className="goal-text" dangerouslySetInnerHTML={{ __html: g.goalHtml }} />
      <p className="goal-status" aria-live="polite" data-testid="goal-status">
        {win === null ? (
          'An open question: the model does not score it. Explore, then compare with the lesson.'
        ) : won ? (
          <span dangerouslySetInnerHTML={{ __html: g.saysHtml ?? '' }} />
        ) : (
          <>Not yet: {goalProgress(win, view, outcome)}.</>
        )}
      </p>
      {won && g.exercise !== null && (
        <p className="goal-hand-in small" data-testid="goal-hand-in">
          To hand it in, copy this page&apos;s address: it is your schedule. Your instructor checks it with{' '}
          <code>
            slub-lab grade {g.exercise} &apos;&lt;address&gt;&apos;
          </code>
          .
        </p>
      )}
      <p className="goal-links">
        <a className="button-link" href={back} data-testid="goal-back">
          ← Back to the lesson
        </a>
        {won && g.nextStep !== null && (
          <a className="button-link primary" href={lessonHash(lesson.id, g.nextStep)}>
            Continue with step {g.nextStep} →
          </a>
        )}
      </p>
    </section>
  );
}
