// The lesson reader on a phone: the step's controls are a bar docked at the
// bottom (lessons.css), a sideways swipe turns the step, and an answer brings its verdict and
// the stage's subject into view together. Also the keys a lesson answers to, for its `?` list.
import { useEffect, type RefObject } from 'react';
import { COMMANDS, type CommandName } from '../../state/commands';

/** The width under which the reader is one column with its controls docked (lessons.css). */
const PHONE = '(max-width: 760px)';

export function isPhone(): boolean {
  return window.matchMedia(PHONE).matches;
}

/** What each command LessonReader's `run` handles does in a lesson, in the `?` dialog's order. */
const LESSON_HELP: readonly (readonly [CommandName, string])[] = [
  ['next', 'Next step'],
  ['prev', 'Previous step'],
  ['first', 'First step'],
  ['last', 'Last step'],
  ['togglePlay', "Replay this step's moves"],
  ['help', 'Show or hide this list'],
];

const KEY_TEXT = new Map(COMMANDS.map((c) => [c.name, c.keyText]));

/** The keys of the lesson reader, as the `?` dialog lists them: their text comes from COMMANDS. */
export const LESSON_KEYS: readonly { keyText: string; help: string }[] = LESSON_HELP.map(([name, help]) => ({
  keyText: KEY_TEXT.get(name) ?? name,
  help,
}));

/** A swipe: mostly sideways, at least this far (px). */
const SWIPE_PX = 60;

/** Whether a touch began where the finger scrolls something sideways (a table, the listing). */
function inSidewaysScroller(target: EventTarget | null, root: HTMLElement): boolean {
  for (let el = target instanceof Element ? target : null; el !== null && el !== root; el = el.parentElement) {
    if (el instanceof HTMLElement && el.scrollWidth > el.clientWidth + 1 && /auto|scroll/.test(getComputedStyle(el).overflowX)) return true;
    if (el.matches('input, select, textarea, dialog')) return true;
  }
  return false;
}

/** A sideways swipe on the page turns the step (left: next, right: previous). */
export function useSwipe(root: RefObject<HTMLElement | null>, go: (name: CommandName) => void): void {
  useEffect(() => {
    const el = root.current;
    if (el === null) return;
    let start: { x: number; y: number } | null = null;
    const down = (e: TouchEvent) => {
      const t = e.touches[0];
      start = e.touches.length === 1 && t !== undefined && !inSidewaysScroller(e.target, el) ? { x: t.clientX, y: t.clientY } : null;
    };
    const up = (e: TouchEvent) => {
      const t = e.changedTouches[0];
      if (start === null || t === undefined) return;
      const dx = t.clientX - start.x;
      const dy = t.clientY - start.y;
      start = null;
      if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > 2 * Math.abs(dy)) go(dx < 0 ? 'next' : 'prev');
    };
    el.addEventListener('touchstart', down, { passive: true });
    el.addEventListener('touchend', up, { passive: true });
    return () => {
      el.removeEventListener('touchstart', down);
      el.removeEventListener('touchend', up);
    };
  }, [root, go]);
}

/** How much of a tall subject (a CPU's card) must show: its name and first rows. */
const SUBJECT_PX = 120;

/**
 * Scroll so that the verdict is at the top and the stage's subject (its first highlighted
 * element, else its first card) shows above the docked bar, whole or, when it is taller, its
 * first SUBJECT_PX; when even that does not fit under the verdict, the subject wins and the
 * verdict goes as little above the screen as it must.
 */
export function bringIntoReach(root: HTMLElement | null, reducedMotion: boolean): void {
  if (root === null) return;
  const verdict = root.querySelector('[data-testid="verdict"]');
  const stage = root.querySelector('[data-testid="stage"]');
  const subject = stage?.querySelector('[data-look]') ?? stage?.querySelector('g.card') ?? root.querySelector('.col-stage');
  if (verdict === null || subject == null) return;
  const dock = root.querySelector('.step-nav')?.getBoundingClientRect();
  const bottom = dock === undefined || dock.top <= 0 ? window.innerHeight : dock.top;
  const margin = 8;
  const v = verdict.getBoundingClientRect();
  const s = subject.getBoundingClientRect();
  const want = v.top - margin; // the verdict at the top
  const needed = s.top + Math.min(s.height, SUBJECT_PX) - bottom + margin; // the subject above the bar
  window.scrollBy({ top: needed <= want ? want : needed, behavior: reducedMotion ? 'auto' : 'smooth' });
}
