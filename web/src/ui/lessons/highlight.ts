// A step's highlights (docs/writing-lessons.md §4), parsed by the Rust side and shipped with
// the lesson (index.ts, `Highlight`): described in words from the current view (the reader's
// "Look at" list, so nothing is shown by colour alone), and marked on the rendered stage,
// listing, cache lines and panels (highlightDom.ts). Pure.
import type { Highlight, Panel } from '../../lessons';
import type { ArrayView, ListingFunction, ObjectOwner, Outcome, SheafView, SlabOwner, View } from '../../sim';
import { retiredLines } from '../../render/stage.slab';

export type { Highlight, Panel } from '../../lessons';

/**
 * The listing a lesson's code highlights name: the variant's own (`Simulation.listing`) for
 * Linux 7.0, whose functions are a table of their own, else the whole classic listing.
 */
export function codeFor(view: View, whole: readonly ListingFunction[], own: readonly ListingFunction[]): readonly ListingFunction[] {
  return view.allocator === 'sheaves' ? own : whole;
}

const chain = (names: readonly string[], empty = 'NULL') => (names.length === 0 ? empty : names.join(' → '));

const PANELS: Record<Panel, string> = {
  lines: 'the cache lines panel',
  stats: 'the statistics',
  timeline: 'the timeline',
  violations: 'the invariant violations',
  code: 'the code listing',
};

/** A SLAB array_cache in words: `q0, p0 (top p0), 2 of 4`. */
function arrayWords(a: ArrayView): string {
  const live = a.entries.slice(a.handed);
  if (live.length === 0) return `empty, 0 of ${a.limit}`;
  return `${live.join(', ')} (top ${live.at(-1) ?? ''}), ${live.length} of ${a.limit}`;
}

/** A Linux 7.0 sheaf in words: `h3: p0, p1 (top p1), 2 of 4`. */
function sheafWords(h: SheafView): string {
  if (h.objects.length === 0) return `${h.name}: empty, 0 of ${h.capacity}`;
  return `${h.name}: ${h.objects.join(', ')} (top ${h.objects.at(-1) ?? ''}), ${h.objects.length} of ${h.capacity}`;
}

const slabs = (names: readonly string[]) => (names.length === 0 ? 'none' : names.join(', '));

function ownerWords(owner: SlabOwner): string {
  switch (owner.kind) {
    case 'cpu':
      return `CPU ${owner.cpu}'s slab`;
    case 'cpuPartial':
      return `on CPU ${owner.cpu}'s partial list`;
    case 'nodePartial':
      return `on node ${owner.node}'s partial list`;
    case 'nodeFull':
      return `on node ${owner.node}'s full list`;
    case 'nodeFree':
      return `on node ${owner.node}'s free list`;
    case 'full':
      return 'full, on no list';
    case 'isolated':
      return `isolated by ${owner.ctx}'s refill`;
    default:
      return owner.kind;
  }
}

function objectWords(owner: ObjectOwner): string {
  switch (owner.kind) {
    case 'user':
      return `held by ${owner.var}`;
    case 'inflight':
      return `being taken by ${owner.ctx}`;
    case 'slab':
      return "free on its slab's freelist";
    case 'lost':
      return 'lost (on no list, held by nobody)';
    case 'sheaf':
      return `free in sheaf ${owner.sheaf}`;
    case 'cpu':
      return `free on CPU ${owner.cpu}'s freelist`;
    case 'shared':
      return `free in node ${owner.node}'s shared array`;
    default:
      return owner.kind;
  }
}

/**
 * The highlight in words, with its value now: `CPU 0 · tid: 14 (= 7·2+0)`. Something that does
 * not exist at this step (a slab not made yet) is said so.
 */
export function describeHighlight(
  h: Highlight,
  view: View,
  outcome: Outcome | null,
  listing: readonly ListingFunction[],
): string {
  switch (h.kind) {
    case 'panel':
      return PANELS[h.panel];
    case 'cpu': {
      const c = view.cpus.find((x) => x.cpu === h.cpu);
      const who = `CPU ${h.cpu}`;
      if (c === undefined) return `${who} (not in this scenario)`;
      const pcs = c.sheaves;
      if (pcs !== undefined) {
        // Linux 7.0: the per-CPU sheaves instead of a kmem_cache_cpu.
        switch (h.field) {
          case 'irqs':
            return `${who} · interrupts ${c.irqsEnabled ? 'on' : 'off'}`;
          case 'preempt':
            return `${who} · preempt count: ${c.preemptCount}`;
          default:
            return `${who}'s sheaves (lock ${pcs.lockedBy === null ? 'free' : `held by ${pcs.lockedBy}`}): main ${sheafWords(pcs.main)}; spare ${pcs.spare === null ? 'none' : sheafWords(pcs.spare)}`;
        }
      }
      const ac = c.arrayCache;
      if (ac !== null) {
        // SLAB: the CPU's array_cache instead of a kmem_cache_cpu.
        switch (h.field) {
          case null:
          case 'array':
            return `${who}'s array_cache: ${arrayWords(ac)}`;
          case 'irqs':
            return `${who} · interrupts ${c.irqsEnabled ? 'on' : 'off'}`;
          case 'preempt':
            return `${who} · preempt count: ${c.preemptCount}`;
          default:
            return `${who} · ${h.field}`;
        }
      }
      switch (h.field) {
        case null:
          return `${who}: slab ${c.page ?? 'none'}, freelist ${chain(c.freelist)}`;
        case 'tid':
          return `${who} · tid: ${c.tid} (= ${c.tidEvent}·${view.tidStep}+${c.tidCpu})`;
        case 'freelist':
          return `${who} · freelist: ${chain(c.freelist)}`;
        case 'page':
          return `${who} · slab: ${c.page ?? 'NULL'}`;
        case 'partial':
          return `${who} · partial list: ${c.partial.length === 0 ? 'empty' : c.partial.join(', ')}`;
        case 'irqs':
          return `${who} · interrupts ${c.irqsEnabled ? 'on' : 'off'}`;
        case 'preempt':
          return `${who} · preempt count: ${c.preemptCount}`;
        default:
          return `${who} · ${h.field}`;
      }
    }
    case 'slab': {
      const s = view.slabs.find((x) => x.name === h.slab);
      const who = `slab ${h.slab}`;
      if (s === undefined) return `${who} (not made yet)`;
      switch (h.field) {
        case null:
          return `${who}: ${ownerWords(s.owner)}, inuse ${s.inuse}/${s.capacity}${s.frozen ? ', frozen' : ''}`;
        case 'freelist':
          return `${who} · freelist: ${chain(s.freelist)}`;
        case 'counters':
          return `${who} · counters: inuse ${s.inuse}, ${s.frozen ? 'frozen' : 'not frozen'}`;
        case 'inuse':
          return `${who} · inuse: ${s.inuse} of ${s.capacity}`;
        case 'frozen':
          return `${who} · ${s.frozen ? 'frozen' : 'not frozen'}`;
        default:
          return `${who} · ${h.field}`;
      }
    }
    case 'object': {
      const o = view.slabs.flatMap((s) => s.objects).find((x) => x.name === h.object);
      if (o === undefined) return `object ${h.object} (not made yet)`;
      if (h.fp) return `object ${h.object} · free pointer: ${o.fp}`;
      return `object ${h.object}: ${objectWords(o.owner)}`;
    }
    case 'node': {
      const n = view.nodes.find((x) => x.node === h.node);
      const who = `node ${h.node}`;
      if (n === undefined) return `${who} (not in this scenario)`;
      const lock = n.listLock === null ? 'free' : `held by ${n.listLock}`;
      const barn = n.barn;
      if (barn !== undefined && h.field === 'barn') {
        const full = barn.full.length === 0 ? 'none' : barn.full.map(sheafWords).join('; ');
        const empty = barn.empty.length === 0 ? 'none' : barn.empty.map((x) => x.name).join(', ');
        return `${who}'s barn (lock ${barn.lockedBy === null ? 'free' : `held by ${barn.lockedBy}`}): full sheaves ${full}; empty sheaves ${empty}`;
      }
      const sn = n.slab;
      if (sn !== null) {
        // SLAB: three slab lists, free_objects and the shared array under list_lock.
        const shared = sn.shared === null ? 'none' : arrayWords(sn.shared);
        switch (h.field) {
          case 'partial':
            return `${who} · slabs_partial: ${slabs(n.partial)}`;
          case 'slabs_full':
            return `${who} · slabs_full: ${slabs(sn.slabsFull)}`;
          case 'slabs_free':
            return `${who} · slabs_free: ${slabs(sn.slabsFree)}`;
          case 'free_objects':
            return `${who} · free_objects: ${sn.freeObjects} (free_limit ${sn.freeLimit})`;
          case 'shared': {
            // Where arrays are replaced (a tune): its identity and the arrays swapped out.
            const id = sn.sharedId === undefined ? '' : ` ${sn.sharedId}`;
            const old = (sn.retired ?? []).map((r) => `; old ${retiredLines(r).join(', ')}`).join('');
            return `${who} · shared array${id}: ${shared}${old}`;
          }
          case 'retired': {
            const old = sn.retired ?? [];
            return `${who} · old shared arrays: ${old.length === 0 ? 'none' : old.map((r) => retiredLines(r).join(', ')).join('; ')}`;
          }
          case 'list_lock':
            break;
          default:
            return `${who}: free_objects ${sn.freeObjects}; partial ${slabs(n.partial)}, full ${slabs(sn.slabsFull)}, free ${slabs(sn.slabsFree)}; shared array ${shared}; list_lock ${lock}`;
        }
      }
      switch (h.field) {
        case 'partial':
          return `${who} · partial list: ${n.partial.length === 0 ? 'empty' : n.partial.join(', ')}`;
        case 'list_lock':
          return `${who} · list_lock: ${lock}${n.waiters.length > 0 ? `, waiting: ${n.waiters.join(', ')}` : ''}`;
        default:
          return `${who}: ${n.nrPartial} partial slab${n.nrPartial === 1 ? '' : 's'}, list_lock ${lock}`;
      }
    }
    case 'line': {
      const l = view.lines.find((x) => x.name === h.line);
      if (l === undefined) return `cache line ${h.line}`;
      return `cache line ${h.line}: ${l.states.map((s, i) => `CPU ${i} ${s}`).join(', ')}`;
    }
    case 'code': {
      const i = h.label.lastIndexOf(':');
      const fn = h.label.slice(0, i);
      const line = listing.find((f) => f.name === fn)?.lines.find((x) => x.label === h.label);
      const where = `${fn}, line ${h.label.slice(i + 1)}`;
      return line === undefined ? `code ${where}` : `code ${where}: ${line.text.trim()}`;
    }
    case 'ctx': {
      const c = view.contexts.find((x) => x.id === h.ctx);
      if (c === undefined) return `context ${h.ctx}`;
      const kind = c.kind === 'irq' ? 'interrupt handler' : 'task';
      const next = c.state === 'finished' ? 'finished' : `${c.state}${c.label === null ? '' : `, next line ${c.label}`}`;
      return `${kind} ${c.id} on CPU ${c.cpu}: ${next}`;
    }
    case 'var': {
      const v = view.vars.find((x) => x.name === h.name);
      if (v === undefined || !v.bound) return `variable ${h.name}: not allocated yet`;
      return `variable ${h.name} = ${v.object ?? 'NULL (the allocation failed)'}`;
    }
    case 'stat': {
      const n = outcome?.stats.total[h.stat];
      return `counter ${h.stat} = ${n ?? 0}`;
    }
  }
}
