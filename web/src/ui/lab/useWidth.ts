// The width of an element in CSS pixels, followed as it resizes: the charts are laid out for
// the real width, so their texts keep their size on a phone.
//
// Only a ResizeObserver reads it. Reading `clientWidth` on mount forced a layout of the page
// for each of the Lab's eighteen charts, including cards off screen that the browser would not
// lay out yet (content-visibility: auto); the observer reports a box once it is laid out, after
// layout and before paint, and flushSync draws the chart at that width in the same frame.
//
// Null until then, and a chart draws nothing while it is: each chart was drawn at a guessed
// 480 px when its card was made, and again at its width when the card came on screen (a
// phone's cards are 356 px); a card never scrolled to now never draws its chart.
import { useLayoutEffect, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';

export function useWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const ro = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w !== undefined && w > 0) flushSync(() => setWidth(Math.round(w)));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
