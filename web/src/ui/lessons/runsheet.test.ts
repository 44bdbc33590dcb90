// The 50-minute lecture: the run sheet of docs/instructors-guide.md 7.1, the
// deck (public/slides/index.html) and the clicker questions (7.3) agree: one row per lesson
// slide, in the deck's order, with its lesson, steps and optional mark; the core rows' minutes
// run from 0 to 50 without a gap; every clicker question a row names exists, and Q1's answer is
// the one the notes of its slide give.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../sim/testing';

const guide = readFileSync(join(repoRoot, 'docs', 'instructors-guide.md'), 'utf8');
const deck = readFileSync(join(repoRoot, 'public', 'slides', 'index.html'), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
/** Lesson id → its number (the folder's prefix, as the guide names lessons). */
const numberOf = new Map(
  readdirSync(join(repoRoot, 'lessons'))
    .map((d) => /^(\d\d)-(.+)$/.exec(d))
    .filter((m) => m !== null)
    .map((m) => [m[2], m[1]]),
);

function section(title: string): string {
  const at = guide.indexOf(title);
  expect(at, title).toBeGreaterThan(-1);
  const next = guide.indexOf('\n### ', at + title.length);
  return guide.slice(at, next < 0 ? undefined : next);
}

interface Row {
  min: string;
  slide: string;
  with: string;
  clicker: string;
}
const rows: Row[] = section('### 7.1 A 50-minute lecture')
  .split('\n')
  .filter((l) => l.startsWith('| ') && !l.startsWith('| Min'))
  .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()))
  .map(([min = '', slide = '', w = '', clicker = '']) => ({ min, slide, with: w, clicker }));

const slides = [...deck.matchAll(/<section([^>]*data-lesson="[^"]*"[^>]*)>([\s\S]*?)<\/section>/g)].map((m) => {
  const attrs = m[1] ?? '';
  const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? '';
  return { lesson: attr('data-lesson'), steps: attr('data-steps'), title: attr('data-title'), optional: /\bdata-optional\b/.test(attrs), notes: m[2] ?? '' };
});

const questions = section('### 7.3 Clicker questions').split(/\n(?=\d+\. )/).slice(1);

describe('the run sheet, the deck and the clicker questions agree', () => {
  it('has one row per lesson slide, in order, with its lesson, steps and optional mark', () => {
    expect(slides.length).toBeGreaterThanOrEqual(15);
    expect(rows.length).toBe(slides.length);
    slides.forEach((s, i) => {
      const row = rows[i];
      expect(row, `slide ${i + 1}`).toBeDefined();
      if (row === undefined) return;
      expect(row.slide.startsWith(`${i + 1} ${s.title}`), `row ${i + 1}: "${row.slide}" for "${s.title}"`).toBe(true);
      const [from, to] = s.steps.split('-');
      const steps = from === to ? `step ${from}` : `steps ${from}–${to}`;
      expect(row.with, `row ${i + 1}`).toBe(`lesson ${numberOf.get(s.lesson)} ${steps}`);
      expect(row.min.startsWith('optional'), `row ${i + 1}: optional`).toBe(s.optional);
    });
  });

  it('fits the core slides in 50 minutes, one after another', () => {
    let at = 0;
    for (const row of rows.filter((r) => !r.min.startsWith('optional'))) {
      const m = /^(\d+)–(\d+)$/.exec(row.min);
      expect(m, row.min).not.toBeNull();
      expect(Number(m?.[1]), row.slide).toBe(at);
      at = Number(m?.[2]);
      expect(at).toBeGreaterThan(Number(m?.[1]));
    }
    expect(at).toBe(50);
  });

  it("names only questions that exist, and Q1's answer is its slide's", () => {
    for (const row of rows.filter((r) => r.clicker !== '')) {
      const n = Number(/^Q(\d+)$/.exec(row.clicker)?.[1]);
      expect(n >= 1 && n <= questions.length, row.clicker).toBe(true);
    }
    const q1 = rows.findIndex((r) => r.clicker === 'Q1');
    const answer = /\*\*\(([^)]*)\)\*\*/.exec(questions[0] ?? '')?.[1];
    expect(answer).toBeDefined();
    expect(slides[q1]?.notes).toContain(`(${answer ?? ''})`);
  });
});
