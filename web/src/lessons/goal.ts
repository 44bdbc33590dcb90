// What a playground link's `goal=` names: the "try it yourself" of a lesson step
// (`<lesson id>/<step>`) or a model-checked exercise of a lesson (`<lesson id>/e<k>`, k from
// 1), with what the playground shows above the stage and checks after every move.
import { lessonById } from './bundled';
import { exercisePlayground, tryItPlayground, type Lesson, type LessonWin } from './index';

export interface Goal {
  lesson: Lesson;
  /** `step 3` or `exercise 2`, for the banner. */
  where: string;
  goalHtml: string;
  /** `null`: an open question the model does not score. */
  win: LessonWin | null;
  saysHtml: string | null;
  /** The step to go back to. */
  backStep: number;
  /** The step to continue with once the goal is reached (none after an exercise). */
  nextStep: number | null;
  /** An exercise's name for `slub-lab grade` (`<id>/e<k>`); `null` for a step's try-it. */
  exercise: string | null;
  /** Where the goal opens the playground: its scenario and the moves replayed in it. */
  opening: { scenario: string; moves: readonly string[] } | null;
}

/** The goal a link names, or `null` when no lesson has it. */
export function goalOf(goal: string): Goal | null {
  const [id = '', part = ''] = goal.split('/');
  const lesson = lessonById(id);
  if (lesson === undefined) return null;
  if (part.startsWith('e')) {
    const k = Number(part.slice(1));
    const ex = lesson.frame.exercises[k - 1];
    const c = ex?.check;
    if (ex === undefined || c == null) return null;
    return {
      lesson,
      where: `exercise ${String(k)}`,
      goalHtml: ex.questionHtml,
      win: c.win,
      saysHtml: c.saysHtml,
      backStep: lesson.steps.length,
      nextStep: null,
      exercise: goal,
      opening: exercisePlayground(lesson, ex),
    };
  }
  const step = lesson.steps[Number(part) - 1];
  const t = step?.tryIt;
  if (step === undefined || t == null) return null;
  return {
    lesson,
    where: `step ${String(step.n)}`,
    goalHtml: t.goalHtml,
    win: t.win,
    saysHtml: t.saysHtml,
    backStep: step.n,
    nextStep: lesson.steps[step.n] === undefined ? null : step.n + 1,
    exercise: null,
    opening: tryItPlayground(lesson, step),
  };
}

