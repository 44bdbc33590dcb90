// A plain-text summary of the stage for screen readers (the SVG's accessible description).
import type { View } from '../sim/types';
import { ownerText, snapshotLine } from './stage.layout';

export function describeView(view: View): string {
  const chain = (xs: readonly string[]) => (xs.length === 0 ? 'empty' : xs.join(' → '));
  const cpus = view.cpus.map(
    (c) =>
      `CPU ${c.cpu}: tid ${c.tid} (event ${c.tidEvent}, cpu ${c.tidCpu}), freelist ${chain(c.freelist)}, ` +
      `slab ${c.page ?? 'none'}, partial ${chain(c.partial)}, ${c.running === null ? 'idle' : `running ${c.running}`}.`,
  );
  const slabs = view.slabs.map(
    (s) => `Slab ${s.name}: ${ownerText(s.owner)}, inuse ${s.inuse} of ${s.capacity}${s.frozen ? ', frozen' : ''}.`,
  );
  const nodes = view.nodes.map(
    (n) => `Node ${n.node}: partial ${chain(n.partial)}, list_lock ${n.listLock === null ? 'free' : `held by ${n.listLock}`}.`,
  );
  const objects = new Map(view.slabs.flatMap((s) => s.objects.map((o) => [o.name, o] as const)));
  const pending = view.contexts.flatMap((c) => snapshotLine(c, view, objects)?.words ?? []);
  return [...cpus, ...slabs, ...nodes, ...pending].join(' ');
}
