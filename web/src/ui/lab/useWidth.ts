// The width of an element in CSS pixels, followed as it resizes: the charts are laid out for
// the real width, so their texts keep their size on a phone.
import { useLayoutEffect, useState, type RefObject } from 'react';

export function useWidth(ref: RefObject<HTMLElement | null>, initial: number): number {
  const [width, setWidth] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    setWidth(el.clientWidth || initial);
    const ro = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width;
      if (w !== undefined && w > 0) setWidth(Math.round(w));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, initial]);
  return width;
}
