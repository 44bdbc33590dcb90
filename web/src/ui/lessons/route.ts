// The lesson routes (design.md §6), inside the `#/lessons…` path that state/url.ts hands over:
//
//   #/lessons?topic=<topic>&q=<text>   the index, filtered (both optional)
//   #/lessons/<lesson-id>/<step>       the reader at a step, counted from 1 (absent = 1)
//   #/lessons/<lesson-id>/handout      every step on one page, to print (LessonHandout.tsx)
//   #/lessons/glossary[/<term>]         the glossary (at a term)
//   #/lessons/invariants[/<id>]         the invariants the model checks (at one)
//
// The embed takes the same reader path plus its own options (state/embed.ts). Pure: a path
// that cannot be opened comes back as a LinkError naming the part (`lesson` or `step`).
import type { LessonHead } from '../../lessons';
import type { LinkError } from '../../state/url';

export type LessonRoute =
  | { readonly kind: 'index'; readonly topic: string | null; readonly text: string }
  | { readonly kind: 'glossary'; readonly term: string | null }
  | { readonly kind: 'invariants'; readonly id: string | null }
  | { readonly kind: 'step'; readonly id: string; readonly step: number }
  | { readonly kind: 'handout'; readonly id: string }
  | LinkError;

/** `path` is the hash's path (`/lessons/x/3`), `query` what follows its `?`. */
export function parseLessonPath(path: string, query: string): LessonRoute {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts[0] !== 'lessons') return { kind: 'error', part: 'route', message: `"${path}" is not a lesson page` };
  if (parts.length === 1) {
    const p = new URLSearchParams(query);
    const topic = p.get('topic');
    return { kind: 'index', topic: topic === null || topic === '' ? null : topic, text: p.get('q') ?? '' };
  }
  if (parts[1] === 'glossary' || parts[1] === 'invariants') {
    if (parts.length > 3) return { kind: 'error', part: 'route', message: `"${path}" has too many parts` };
    const at = parts[2] === undefined ? null : decodePart(parts[2]);
    return parts[1] === 'glossary' ? { kind: 'glossary', term: at } : { kind: 'invariants', id: at };
  }
  if (parts.length > 3) {
    return { kind: 'error', part: 'route', message: `"${path}" has too many parts (a lesson step is #/lessons/<lesson>/<step>)` };
  }
  const id = decodePart(parts[1] ?? '');
  const stepText = parts[2];
  if (stepText === undefined) return { kind: 'step', id, step: 1 };
  if (stepText === 'handout') return { kind: 'handout', id };
  if (!/^\d+$/.test(stepText)) return { kind: 'error', part: 'step', message: `"${stepText}" is not a step number` };
  const step = Number(stepText);
  if (step < 1) return { kind: 'error', part: 'step', message: 'steps are counted from 1' };
  return { kind: 'step', id, step };
}

function decodePart(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The lesson and step a reader route names, or what is wrong with it. */
export function resolveStep<L extends LessonHead>(
  lessons: readonly L[],
  id: string,
  step: number,
): { lesson: L; step: number } | LinkError {
  const lesson = lessons.find((l) => l.id === id);
  if (lesson === undefined) {
    const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
    return { kind: 'error', part: 'lesson', message: `there is no lesson "${shown}" (the index at #/lessons lists them)` };
  }
  const total = lesson.steps.length;
  if (step > total) {
    return { kind: 'error', part: 'step', message: `${lesson.front.title} has ${total} steps, not ${step}` };
  }
  return { lesson, step };
}

export function lessonHash(id: string, step: number): string {
  return `#/lessons/${encodeURIComponent(id)}/${step}`;
}

/** The index with its filter (both parts left out when empty). */
export function indexHash(topic: string | null, text: string): string {
  const p = new URLSearchParams();
  if (topic !== null) p.set('topic', topic);
  if (text.trim() !== '') p.set('q', text);
  const q = p.toString();
  return q === '' ? '#/lessons' : `#/lessons?${q}`;
}
