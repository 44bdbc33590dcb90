// The instructors' answer key, `docs/answer-key.md`: every lesson's exercises with their keys
// (a written exercise's `answer`; a model-checked one's goal and a schedule that reaches it),
// made from the lessons as `slub-lab lesson export` gives them. The page never gets the keys
// (library.ts leaves them out); answer-key.test.ts keeps the committed file in step with the
// lessons, and `UPDATE_ANSWER_KEY=1 npx vitest run --config web/vitest.config.ts answer-key`
// rewrites it.
import type { ExportedLesson } from './index.js';

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}

/** The answer key as Markdown. */
export function answerKey(lessons: readonly ExportedLesson[]): string {
  const out: string[] = [
    '# Answer key',
    '',
    '<!-- Generated from lessons/*/lesson.md by web/src/lessons/answer-key.ts: do not edit by hand. -->',
    '',
    'For instructors: the exercises at the end of every lesson, with their answers. A written',
    "exercise's key is its `answer` in the lesson file; a model-checked exercise is scored by the",
    'model in the playground, and its key is a schedule the checker has proven to reach the goal.',
    'The page ships neither key. A student hands in a model-checked answer as a playground',
    'permalink: opened, the playground replays it and says whether the goal is reached.',
    '',
  ];
  for (const l of lessons) {
    out.push(`## ${String(l.number).padStart(2, '0')} ${l.front.title}`, '', `Lesson \`${l.id}\` (${l.front.era}).`, '');
    l.front.exercises.forEach((e, i) => {
      out.push(`${String(i + 1)}. ${oneLine(e.question)}`, '');
      if (e.answer !== null) {
        out.push(`   *Written.* ${oneLine(e.answer)}`, '');
      } else if (e.check !== null) {
        const c = e.check;
        const changes = [...Object.entries(c.variant), ...Object.entries(c.cache)].map(([k, v]) => `${k} = ${String(v)}`);
        const goal = [
          c.win.violation.length > 0 ? `any of ${c.win.violation.join(', ')} violated` : '',
          c.win.without.length > 0 ? `none of ${c.win.without.join(', ')}` : '',
          ...Object.entries(c.win.stats).map(([k, n]) => `${k} ≥ ${String(n)}`),
        ].filter((s) => s !== '');
        out.push(
          `   *Model-checked*, from ${c.from === 'start' ? 'the start' : 'the end of the lesson'}${changes.length > 0 ? ` with ${changes.join(', ')}` : ''}: reached when ${goal.join(' and ')}. A schedule that reaches it: \`${c.win.example.join(', ')}\`. ${oneLine(c.win.says)}`,
          '',
        );
      }
    });
  }
  return `${out.join('\n').trimEnd()}\n`;
}
