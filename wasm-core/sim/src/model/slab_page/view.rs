//! SLUB's fields of a slab in the slab's view, under SLUB and Linux 7.0 (which keeps SLUB's
//! slab level): each object's free-pointer word, the freelist, `counters`, `slab_lock` and who
//! owns the slab. A function of the slabs and the core, given each CPU's slab and CPU partial
//! head (SLUB's `kmem_cache_cpu`s; none under 7.0), as `discard_slab`.

use super::{chain_contains, slab, SlubPage};
use crate::model::state::*;
use crate::model::Core;
use crate::view::{SlabOwner, SlabView};

/// Slab `s`'s SLUB fields in its view `v`.
pub fn slab_view<I>(pages: &[SlubPage], core: &Core, cpu_slabs: I, s: SlabId, v: &mut SlabView)
where
    I: Iterator<Item = (Option<SlabId>, Option<SlabId>)> + Clone,
{
    for o in &mut v.objects {
        o.fp = core.addr_name(core.peek_fp(o.addr).unwrap_or(DATA));
    }
    let sl = slab(pages, core, s);
    v.freelist = chain_names(core, sl.freelist);
    v.inuse = sl.counters.inuse;
    v.capacity = sl.counters.objects;
    v.frozen = sl.counters.frozen;
    v.owner = slab_owner(pages, core, cpu_slabs, s);
    v.slab_locked = sl.slab_lock.is_some();
}

/// Who owns slab `s`: its life, a CPU's slab, a CPU partial list, a node's partial list, or
/// no list (full or not). 7.0 adds the slabs a refill isolated (`sheaves`).
fn slab_owner<I>(pages: &[SlubPage], core: &Core, cpu_slabs: I, s: SlabId) -> SlabOwner
where
    I: Iterator<Item = (Option<SlabId>, Option<SlabId>)> + Clone,
{
    let sl = slab(pages, core, s);
    match core.page(s).life {
        Life::Discarded => return SlabOwner::Discarded,
        Life::Private => return SlabOwner::Private,
        Life::Live => {}
    }
    for (k, (page, _)) in cpu_slabs.clone().enumerate() {
        if page == Some(s) {
            return SlabOwner::Cpu { cpu: k as u32 };
        }
    }
    for (k, (_, partial)) in cpu_slabs.enumerate() {
        if chain_contains(pages, core, partial, s) {
            return SlabOwner::CpuPartial { cpu: k as u32 };
        }
    }
    for (n, node) in core.st.nodes.iter().enumerate() {
        if node.partial.contains(&s) {
            return SlabOwner::NodePartial { node: n as u32 };
        }
    }
    if sl.freelist == NULL {
        SlabOwner::Full
    } else {
        SlabOwner::None
    }
}

/// The objects on the freelist chain from `head`, in order, following each free pointer:
/// at most one more than a slab's objects, so that a cycle ends. The next link is read only
/// when it is asked for, so a search that stops at its object reads no further.
fn chain(core: &Core, head: Addr) -> impl Iterator<Item = Addr> + '_ {
    std::iter::successors(Some(head), |&a| core.peek_fp(a))
        .take_while(|&a| a != NULL)
        .take((core.cfg.objects as usize).saturating_add(1))
}

/// The names on the freelist chain from `head` (`chain`).
pub fn chain_names(core: &Core, head: Addr) -> Vec<String> {
    chain(core, head).map(|a| core.addr_name(a)).collect()
}

/// Whether object `a` is on the freelist chain from `head` (`chain`, without naming every
/// link: a view asks this for every object of every slab).
pub fn chain_has(core: &Core, head: Addr, a: Addr) -> bool {
    chain(core, head).any(|x| x == a)
}
