// Commands applied one after another, each to the state the one before it left (issue 12 item 6).
// A burst (five `next` messages posted in one tick, a held key) arrives before React renders
// again: applied at once, every command would read the moves enabled *before* the burst and
// the second would play a move that is no longer enabled. Queued, each is applied after the
// render of the previous one, with that render's state and enabled moves.
import { useCallback, useEffect, useRef, useState } from 'react';

/** More than a presenter or a held key can send; what a flooding host sends beyond it is dropped. */
export const MAX_QUEUED = 256;

export function useCommandQueue<C>(apply: (command: C) => void): (command: C) => void {
  const queue = useRef<C[]>([]);
  const latest = useRef(apply);
  const [pending, wake] = useState(0);
  // Declared before the drain, so it runs first: the drain applies with this render's closure.
  useEffect(() => {
    latest.current = apply;
  });
  // One command per render: its state change and the wake-up render together, and the next
  // command is applied after that render, with what it computed.
  useEffect(() => {
    const next = queue.current.shift();
    if (next === undefined) return;
    latest.current(next);
    if (queue.current.length > 0) wake((n) => n + 1);
  }, [pending]);
  return useCallback((command: C) => {
    if (queue.current.length >= MAX_QUEUED) return;
    queue.current.push(command);
    wake((n) => n + 1);
  }, []);
}
