// What a lesson step exports (the reader's and the embed's ExportPanel): the stage on screen,
// the step's own moves as the range offered, the step's permalink (#/lessons/<id>/<n>).
import type { Lesson, LessonStep } from '../../lessons';
import type { FocusKeep } from '../../render/focus';
import type { StageHide } from '../../render/stage.shapes';
import type { View } from '../../sim';
import type { ExportSpec } from '../ExportPanel';
import { lessonHash } from './route';

export function lessonExportSpec(
  lesson: Lesson,
  step: LessonStep,
  track: { readonly scenario: string; readonly moves: readonly string[]; readonly before: number; readonly after: number },
  view: View,
  cursor: number,
  hide: StageHide,
  focus?: FocusKeep,
): ExportSpec {
  const title = `${lesson.front.title} · step ${step.n}: ${step.title}`;
  return {
    caption: () => ({
      title,
      position: `step ${step.n} of ${lesson.steps.length} · move ${cursor} of ${track.moves.length} · atomic step ${view.steps}`,
      violations: view.violations.map((x) => `⚠ ${x.invariant} violated (atomic step ${x.step}): ${x.message}`),
    }),
    source: { scenario: track.scenario, schedule: track.moves, title, hide, ...(focus === undefined ? {} : { focus }) },
    name: `slub-lab-${lesson.id}-step-${step.n}`,
    link: lessonHash(lesson.id, step.n),
    from: track.before,
    to: track.after,
  };
}
