// Commands applied one after another, each to the state the one before it left.
// A burst (five `next` messages posted in one tick, a held key) arrives before React renders
// again: applied at once, every command would read the moves enabled *before* the burst and
// the second would play a move that is no longer enabled. Queued, each is applied after the
// render of the previous one, with that render's state and enabled moves.
//
// A command that finds nothing waiting (a key pressed on a page at rest: nearly always) is
// applied at once, in its event: a key press is then one render, in the event's own task,
// rather than a render to wake the queue and a second, a task later, for the command.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** More than a presenter or a held key can send; what a flooding host sends beyond it is dropped. */
export const MAX_QUEUED = 256;

export function useCommandQueue<C>(apply: (command: C) => void): (command: C) => void {
  const queue = useRef<C[]>([]);
  const latest = useRef(apply);
  /** A command was applied and no render has committed since: the next one must wait. */
  const applied = useRef(false);
  const [pending, wake] = useState(0);
  // On every commit, before anything can call the queue again: this render's closure, and the
  // last command's state is drawn (or it changed nothing and nothing was rendered: the next
  // command, queued, wakes a render that ends the wait).
  useLayoutEffect(() => {
    latest.current = apply;
    applied.current = false;
  });
  // One queued command per render: its state change and the wake-up render together, and the
  // next command is applied after that render, with what it computed.
  useEffect(() => {
    const next = queue.current.shift();
    if (next === undefined) return;
    applied.current = true;
    latest.current(next);
    if (queue.current.length > 0) wake((n) => n + 1);
  }, [pending]);
  return useCallback((command: C) => {
    if (!applied.current && queue.current.length === 0) {
      applied.current = true;
      latest.current(command);
      return;
    }
    if (queue.current.length >= MAX_QUEUED) return;
    queue.current.push(command);
    wake((n) => n + 1);
  }, []);
}
