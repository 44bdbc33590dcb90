// A plain-text summary of the stage for screen readers (the SVG's accessible description).
import type { ArrayView, SheafView, View } from '../sim/types';
import { ownerText } from './stage.shapes';
import { freeIndexText, readerText, retiredLines } from './stage.slab';
import { snapshotLine } from './stage.slub';

const chain = (xs: readonly string[]) => (xs.length === 0 ? 'empty' : xs.join(' → '));
const list = (xs: readonly string[]) => (xs.length === 0 ? 'empty' : xs.join(', '));

export function describeView(view: View): string {
  if (view.allocator === 'slab') return describeSlab(view);
  if (view.allocator === 'sheaves') return describeSheaves(view);
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

/** An array_cache in words: `avail 2 of limit 4, bottom to top p0, p1 (top p1), touched 0`. */
export function describeArray(a: ArrayView): string {
  const live = a.entries.slice(a.handed);
  const stale = a.entries.slice(0, a.handed);
  const held =
    a.avail === 0
      ? 'empty'
      : `bottom to top ${a.entries.join(', ')} (top ${a.entries.at(-1) ?? ''})${
          stale.length === 0 ? '' : `; ${stale.join(', ')} already given back by a flush (stale copies until its memmove)`
        }`;
  return `avail ${a.avail} of limit ${a.limit} (${live.length} its own), ${held}, touched ${a.touched ? 1 : 0}, batchcount ${a.batchcount}`;
}

function describeSlab(view: View): string {
  const cpus = view.cpus.map(
    (c) =>
      `CPU ${c.cpu}: array_cache ${c.arrayCache === null ? 'none' : describeArray(c.arrayCache)}; ` +
      `irqs ${c.irqsEnabled ? 'on' : 'off'}, ${c.running === null ? 'idle' : `running ${c.running}`}` +
      // A lockless reader's pointer (lesson 19): `T holds shared = A0 (unpublished)`.
      view.contexts
        .filter((x) => x.cpu === c.cpu)
        .map((x) => [x.id, readerText(view, x.id)] as const)
        .map(([id, held]) => (held === null ? '' : `; ${id} holds ${held}`))
        .join('') +
      '.',
  );
  const slabs = view.slabs.map(
    (s) => `Slab ${s.name}: ${ownerText(s.owner)}, active ${s.inuse} of ${s.capacity}, ${freeIndexText(s)}${s.freelist.length === 0 ? '' : ` (${s.freelist.join(', ')})`}.`,
  );
  const nodes = view.nodes.map((n) => {
    const sn = n.slab;
    const lock = `list_lock ${n.listLock === null ? 'free' : `held by ${n.listLock}`}${n.waiters.length === 0 ? '' : `, waiting ${n.waiters.join(', ')}`}`;
    if (sn === null) return `Node ${n.node}: slabs_partial ${list(n.partial)}, ${lock}.`;
    return (
      `Node ${n.node}: slabs_partial ${list(n.partial)}, slabs_full ${list(sn.slabsFull)}, slabs_free ${list(sn.slabsFree)}, ` +
      `free_objects ${sn.freeObjects} of free_limit ${sn.freeLimit}, total_slabs ${sn.totalSlabs}, ` +
      `shared array ${sn.sharedId === undefined ? '' : `${sn.sharedId} `}${sn.shared === null ? 'none' : describeArray(sn.shared)}; ${lock}` +
      (sn.retired ?? []).map((r) => `; old shared array ${retiredLines(r).join(', ')}`).join('') +
      '.'
    );
  });
  return [...cpus, ...slabs, ...nodes].join(' ');
}

/** A sheaf in words: `h3 holds 2 of 4: bottom to top p0, p1 (top p1)`. */
export function describeSheaf(h: SheafView): string {
  const objects = h.objects.length === 0 ? 'empty' : `bottom to top ${h.objects.join(', ')} (top ${h.objects.at(-1) ?? ''})`;
  return `${h.name} holds ${h.objects.length} of ${h.capacity}: ${objects}`;
}

function describeSheaves(view: View): string {
  const cpus = view.cpus.map((c) => {
    const p = c.sheaves;
    const lock = p?.lockedBy == null ? 'lock free' : `locked by ${p.lockedBy}`;
    const main = p === undefined ? 'none' : describeSheaf(p.main);
    const spare = p?.spare == null ? 'none' : describeSheaf(p.spare);
    return `CPU ${c.cpu}: sheaves ${lock}; main ${main}; spare ${spare}; ${c.running === null ? 'idle' : `running ${c.running}`}.`;
  });
  const slabs = view.slabs.map((s) => `Slab ${s.name}: ${ownerText(s.owner)}, inuse ${s.inuse} of ${s.capacity}.`);
  const nodes = view.nodes.map((n) => {
    const b = n.barn;
    const barn =
      b === undefined
        ? ''
        : ` Barn: lock ${b.lockedBy === null ? 'free' : `held by ${b.lockedBy}`}, full sheaves ${list(b.full.map((h) => `${h.name} (${h.objects.length})`))}, empty sheaves ${list(b.empty.map((h) => h.name))}.`;
    return `Node ${n.node}: partial ${chain(n.partial)}, list_lock ${n.listLock === null ? 'free' : `held by ${n.listLock}`}.${barn}`;
  });
  const loose = (view.looseSheaves ?? []).map((h) => `Sheaf ${describeSheaf(h)}, held by ${h.heldBy ?? 'an operation'}.`);
  return [...cpus, ...slabs, ...nodes, ...loose].join(' ');
}
