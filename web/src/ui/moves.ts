// Words for the enabled moves (design.md §3 "Moves"): step a context, fire an interrupt, preempt
// (switch to another task on its CPU), migrate a task.
import type { View } from '../sim';
import type { IconName } from './Icon';

export interface MoveButton {
  readonly move: string;
  readonly text: string;
  readonly cpu: number | null;
  readonly kind: 'step' | 'irq' | 'preempt' | 'migrate';
  /** Drawn before the words (an SVG icon, not an emoji: Icon.tsx). */
  readonly icon?: IconName;
}

export function describeMove(move: string, view: View): MoveButton {
  const m = /^migrate:([^:]+):(\d+)$/.exec(move);
  if (m) {
    return { move, text: `migrate ${m[1] ?? ''} → CPU ${m[2] ?? ''}`, cpu: Number(m[2]), kind: 'migrate' };
  }
  const ctx = view.contexts.find((c) => c.id === move);
  if (ctx === undefined) return { move, text: move, cpu: null, kind: 'step' };
  if (ctx.kind === 'irq' && ctx.state === 'waiting') {
    return { move, text: `fire irq ${ctx.id} on CPU ${ctx.cpu}`, cpu: ctx.cpu, kind: 'irq', icon: 'bolt' };
  }
  const running = view.cpus[ctx.cpu]?.running;
  if (ctx.kind === 'task' && running !== ctx.id) {
    return { move, text: `preempt: switch CPU ${ctx.cpu} to ${ctx.id}`, cpu: ctx.cpu, kind: 'preempt', icon: 'task' };
  }
  return { move, text: `step ${ctx.id}`, cpu: ctx.cpu, kind: 'step', icon: ctx.kind === 'irq' ? 'bolt' : 'task' };
}

/**
 * The "run to the end" button beside a context's move, if it has one: a task inside or before
 * an operation runs to that operation's end; an interrupt fires and runs its handler to the end.
 */
export function describeRunToEnd(move: string, view: View): { ctx: string; text: string; label: string; icon?: IconName } | null {
  const ctx = view.contexts.find((c) => c.id === move);
  if (ctx === undefined || ctx.state === 'finished') return null;
  if (ctx.kind === 'irq') {
    return { ctx: ctx.id, text: `» ${ctx.id} to its end`, label: `run interrupt ${ctx.id} to the end of its handler`, icon: 'bolt' };
  }
  const op = ctx.op ?? 'its next operation';
  return { ctx: ctx.id, text: `» ${ctx.id} to end of ${ctx.op === null ? 'next op' : op}`, label: `run task ${ctx.id} to the end of ${op}` };
}
