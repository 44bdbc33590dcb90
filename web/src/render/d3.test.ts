// When a view's part may be left as drawn (sameAsDrawn): only from the same shapes, once the
// tweens of the draw that showed them have ended; a part that moves something is always drawn.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sameAsDrawn } from './d3';

describe('sameAsDrawn', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  // Only its identity matters (a WeakMap key): no DOM in these tests.
  const part = () => ({}) as Element;

  it('draws the first time, then leaves the same shapes drawn without tweens as they are', () => {
    const el = part();
    expect(sameAsDrawn(el, 'a', 0)).toBe(false);
    expect(sameAsDrawn(el, 'a', 0)).toBe(true);
    expect(sameAsDrawn(el, 'b', 0)).toBe(false);
    expect(sameAsDrawn(el, 'a', 0)).toBe(false);
  });

  it('draws the same shapes again while the tweens of the last draw may still run', () => {
    const el = part();
    expect(sameAsDrawn(el, 'a', 320)).toBe(false);
    vi.advanceTimersByTime(100);
    expect(sameAsDrawn(el, 'a', 0)).toBe(false);
    // That draw (without tweens) settled it at once.
    expect(sameAsDrawn(el, 'a', 0)).toBe(true);
    expect(sameAsDrawn(el, 'b', 320)).toBe(false);
    vi.advanceTimersByTime(1.5 * 320 + 51);
    expect(sameAsDrawn(el, 'b', 320)).toBe(true);
  });

  it('always draws a part that moves something, and remembers that it did', () => {
    const el = part();
    expect(sameAsDrawn(el, 'a', 0)).toBe(false);
    expect(sameAsDrawn(el, null, 0)).toBe(false);
    expect(sameAsDrawn(el, null, 0)).toBe(false);
    // Drawn as something else since: the same shapes as before are drawn again.
    expect(sameAsDrawn(el, 'a', 0)).toBe(false);
  });
});
