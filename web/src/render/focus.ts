// The stage for a projector (issue 25 item 1, `density=projector`): fewer cards, so the rest
// can be drawn large. A CPU with no context on it and nothing in its per-CPU structures is left
// out, and so is a node with an empty partial list and a free list_lock: neither is what a step
// is about, and on a slide each card costs the text size of all the others. Pure.
import type { CpuView, NodeView, View } from '../sim/types';

/** Whether a CPU's card says anything: a context runs there or its per-CPU state is not empty. */
function cpuMatters(c: CpuView, view: View): boolean {
  if (view.contexts.some((x) => x.cpu === c.cpu && x.state !== 'finished')) return true;
  if (c.freelist.length > 0 || c.page !== null || c.partial.length > 0) return true;
  if ((c.arrayCache?.avail ?? 0) > 0) return true;
  const s = c.sheaves;
  if (s !== undefined && (s.lockedBy !== null || s.main.objects.length > 0 || (s.spare?.objects.length ?? 0) > 0)) return true;
  return false;
}

function nodeMatters(n: NodeView): boolean {
  return n.slab !== null || n.barn !== undefined || n.partial.length > 0 || n.listLock !== null || n.waiters.length > 0;
}

/** The view with the cards a projector can do without left out (at least one CPU kept). */
export function focusView(view: View): View {
  const cpus = view.cpus.filter((c) => cpuMatters(c, view));
  const nodes = view.nodes.filter(nodeMatters);
  if (cpus.length === view.cpus.length && nodes.length === view.nodes.length) return view;
  return { ...view, cpus: cpus.length > 0 ? cpus : view.cpus.slice(0, 1), nodes };
}
