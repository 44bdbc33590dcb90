// The stage for a projector (`density=projector`) and for an embed fitted to its
// frame: fewer cards, so the rest can be drawn large. A CPU with no context on it and nothing in
// its per-CPU structures is left out, and so is a node whose partial list is empty, whose
// list_lock is free and whose barn (Linux 7.0) holds no sheaf and no lock: none of them is what
// a step is about, and on a slide each card costs the text size of all the others. A card the
// step's highlights name is kept whatever it holds ("the barn is empty" is a subject too). Pure.
import type { BarnView, CpuView, NodeView, View } from '../sim/types';

/** Cards a step names (its highlights `cpu1…`, `node 0…`): drawn even when they say nothing. */
export interface FocusKeep {
  readonly cpus: readonly number[];
  readonly nodes: readonly number[];
  /** The step is about cache lines (a `line` or the `lines` panel): a projector keeps their band. */
  readonly lines?: boolean;
}

/** Whether a CPU's card says anything: a context runs there or its per-CPU state is not empty. */
function cpuMatters(c: CpuView, view: View): boolean {
  if (view.contexts.some((x) => x.cpu === c.cpu && x.state !== 'finished')) return true;
  if (c.freelist.length > 0 || c.page !== null || c.partial.length > 0) return true;
  if ((c.arrayCache?.avail ?? 0) > 0) return true;
  const s = c.sheaves;
  if (s !== undefined && (s.lockedBy !== null || s.main.objects.length > 0 || (s.spare?.objects.length ?? 0) > 0)) return true;
  return false;
}

function barnMatters(b: BarnView | undefined): boolean {
  return b !== undefined && (b.lockedBy !== null || b.waiters.length > 0 || b.full.length > 0 || b.empty.length > 0);
}

function nodeMatters(n: NodeView): boolean {
  return n.slab !== null || barnMatters(n.barn) || n.partial.length > 0 || n.listLock !== null || n.waiters.length > 0;
}

/** The view with the cards a projector can do without left out (at least one CPU kept). */
export function focusView(view: View, keep: FocusKeep = { cpus: [], nodes: [] }): View {
  const cpus = view.cpus.filter((c) => keep.cpus.includes(c.cpu) || cpuMatters(c, view));
  const nodes = view.nodes.filter((n) => keep.nodes.includes(n.node) || nodeMatters(n));
  if (cpus.length === view.cpus.length && nodes.length === view.nodes.length) return view;
  return { ...view, cpus: cpus.length > 0 ? cpus : view.cpus.slice(0, 1), nodes };
}

/** The cards a step's highlights name (lessons' `Highlight`s: `{kind: 'cpu', cpu}`, `{kind: 'node', node}`). */
export function keepOf(highlights: readonly { kind: string; cpu?: number; node?: number; panel?: string }[]): FocusKeep {
  const cpus: number[] = [];
  const nodes: number[] = [];
  let lines = false;
  for (const h of highlights) {
    if (h.kind === 'cpu' && h.cpu !== undefined) cpus.push(h.cpu);
    if (h.kind === 'node' && h.node !== undefined) nodes.push(h.node);
    if (h.kind === 'line' || (h.kind === 'panel' && h.panel === 'lines')) lines = true;
  }
  return { cpus, nodes, lines };
}
