// Run something once the page's next frame is painted: what a page draws first (a lesson's
// words, the playground's bar) is not held back by what it asks for next (the simulator, the
// stage's code), on the link or on the main thread.

/**
 * Run `fn` after the next paint; returns a cancel. (A passive effect may run before that paint,
 * when a layout effect updates state: the frame callback runs before it, its timeout after.)
 */
export function afterNextPaint(fn: () => void): () => void {
  let timer = 0;
  const frame = requestAnimationFrame(() => {
    timer = window.setTimeout(fn, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    window.clearTimeout(timer);
  };
}
