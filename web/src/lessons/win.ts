// A try-it's goal, checked in the playground after every move: the same rule
// as `won` in wasm-core/lessons/src/replay.rs, where `slub-lab lesson check` proves every goal
// reachable by its example and not already reached where the playground opens.
import type { Outcome, View } from '../sim';
import type { LessonWin } from './index';

/**
 * Whether the model's state reaches `win`: any listed invariant violated, none of `without`
 * violated, every counter at least its number.
 */
export function goalReached(win: LessonWin, view: Pick<View, 'violations'>, outcome: Pick<Outcome, 'stats'>): boolean {
  const violated = win.violation.length === 0 || view.violations.some((v) => win.violation.includes(v.invariant));
  const spared = !view.violations.some((v) => win.without.includes(v.invariant));
  return violated && spared && Object.entries(win.stats).every(([name, atLeast]) => (outcome.stats.total[name] ?? 0) >= atLeast);
}

/** How far the learner is, in words: what is still missing. */
export function goalProgress(win: LessonWin, view: Pick<View, 'violations'>, outcome: Pick<Outcome, 'stats'>): string {
  const parts: string[] = [];
  if (win.violation.length > 0) {
    const found = view.violations.filter((v) => win.violation.includes(v.invariant));
    parts.push(found.length > 0 ? `${found[0]?.invariant ?? ''} violated` : `waiting for ${win.violation.join(' or ')}`);
  }
  const unwanted = view.violations.filter((v) => win.without.includes(v.invariant));
  if (unwanted.length > 0) parts.push(`${unwanted[0]?.invariant ?? ''} violated too: start again and avoid it`);
  for (const [name, atLeast] of Object.entries(win.stats)) {
    parts.push(`${name} ${outcome.stats.total[name] ?? 0} of ${atLeast}`);
  }
  return parts.join(' · ');
}
