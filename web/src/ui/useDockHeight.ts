// A bar docked at the bottom of a phone's screen (the playground's controls, the lesson
// reader's step bar) covers the end of the page unless the page leaves room for it: this keeps
// `--dock-h` on the root at the bar's height, whatever it wraps to, for the page's padding
// (app.css, lessons.css). Above the phone width the bar is not docked and the variable unused.
import { useEffect } from 'react';

export function useDockHeight(selector: string): void {
  useEffect(() => {
    const el = document.querySelector<HTMLElement>(selector);
    const root = document.documentElement;
    if (el === null || typeof ResizeObserver === 'undefined') return;
    const set = () => root.style.setProperty('--dock-h', `${String(el.offsetHeight)}px`);
    set();
    const ro = new ResizeObserver(set);
    ro.observe(el);
    return () => {
      ro.disconnect();
      root.style.removeProperty('--dock-h');
    };
  }, [selector]);
}
