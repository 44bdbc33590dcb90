// docs/answer-key.md is the lessons' exercises with their keys: it must be what the lessons say.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../sim/testing';
import { answerKey } from './answer-key';
import { exportLessons } from './library';

describe('the answer key', () => {
  it('is the lessons’ exercises with their keys (UPDATE_ANSWER_KEY=1 rewrites it)', () => {
    const { lessons, errors } = exportLessons(join(repoRoot, 'lessons'));
    expect(errors).toEqual([]);
    const want = answerKey(lessons);
    const file = join(repoRoot, 'docs', 'answer-key.md');
    if (process.env.UPDATE_ANSWER_KEY === '1') writeFileSync(file, want);
    expect(readFileSync(file, 'utf8')).toBe(want);
    // Every lesson has at least one written and one model-checked exercise in it.
    for (const l of lessons) {
      expect(l.front.exercises.some((e) => e.answer !== null), l.id).toBe(true);
      expect(l.front.exercises.some((e) => e.check !== null), l.id).toBe(true);
    }
  });
});
