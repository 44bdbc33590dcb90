//! Linux 7.0's frames' locals (model.md Appendix C): the struct of each of its step machines'
//! locals (`Frame`'s arm of the function, with its pc). What they answer the machine
//! (`impl Locals`) and the step machines that use them are in `sheaves/`, each beside its
//! function. The structs are here, below the frame table (`pcs`), because `Frame` holds them
//! and nothing the frame table reaches may reach up to the state, the core or an allocator.

use super::Counters;
use super::Ret;
use crate::model::ids::{Addr, SlabId};

// ----- their `impl Locals`: `sheaves/alloc.rs` -----

/// The locals of `__pcs_replace_empty_main(s, pcs, gfp)`: `pcs` the CPU whose sheaves are
/// locked, `main` its empty main, `empty` the spare as read and then the empty sheaf to refill,
/// `barn` the node of the barn (`get_barn(s)`), `can_alloc` the gfp may block, `count` the CPU
/// locked again on return.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PcsReplaceEmptyMain {
    pub pcs: u32,
    pub can_alloc: bool,
    pub count: u32,
    pub barn: u32,
    pub ret: Ret,
    pub main: Option<u32>,
    pub empty: Option<u32>,
}

/// The locals of `slab_alloc_node(s, gfp, node)` with `alloc_from_pcs`: `pcs` the CPU
/// whose sheaves are locked, `main` its main sheaf and `size` its size as read, `object` the
/// object popped, `wrong_node` it is not of the node asked for (SA8), `slow` 1 once the slab
/// path (`___slab_alloc`) was taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabAllocNode {
    pub pcs: u32,
    pub object: Addr,
    pub node: Option<u32>,
    pub wrong_node: bool,
    pub slow: u8,
    pub size: u32,
    pub ret: Ret,
    pub main: Option<u32>,
}

// ----- their `impl Locals`: `sheaves/alloc_slow.rs` -----

/// The locals of `alloc_from_new_slab(s, slab, p, count, allow_spin)`: `slab` the private
/// new slab, `p` the slot of `sheaf` where the array begins (no `sheaf`: one object into
/// `object`), `count` the objects wanted and `allocated` those taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AllocFromNewSlab {
    pub object: Addr,
    pub slab: SlabId,
    pub saved_irq: bool,
    pub allocated: u32,
    pub p: u32,
    pub count: u32,
    pub sheaf: Option<u32>,
}

/// The locals of `new_slab(s, gfp, node)` (its `allocate_slab`): `slab` the slab it made.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AllocateSlab {
    pub slab: Option<SlabId>,
    pub node: Option<u32>,
}

/// The locals of `get_from_partial_node(s, n)`: the `slab` tried, its `freelist` and
/// `counters` as read, `next` (`get_freepointer(freelist)`) and the `object` taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GetFromPartialNode {
    pub object: Addr,
    pub next: Addr,
    pub freelist: Addr,
    pub slab: Option<SlabId>,
    pub counters: Counters,
    pub n: u32,
    pub saved_irq: bool,
}

/// The locals of `___slab_alloc(s, gfp, node)`: `walking` 1 while the NUMA walk of other
/// nodes runs, `nid` the node it tries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabAllocV7 {
    pub node: Option<u32>,
    pub n: Option<u32>,
    pub walking: u8,
    pub nid: u8,
    pub ret: Ret,
    /// A node-specific request whose first try (`__GFP_THISNODE`) found no slab: the retry
    /// without it (`try_thisnode = false`), which may take any node's partial slab.
    pub retry: bool,
}

// ----- their `impl Locals`: `sheaves/barn.rs` -----

/// The locals of `barn_get_empty_sheaf(barn)`: `barn` the barn's node, `empty` the sheaf
/// taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BarnGetEmptySheaf {
    pub saved_irq: bool,
    pub barn: u32,
    pub empty: Option<u32>,
}

/// The locals of `barn_put_empty_sheaf(barn, sheaf)` and `barn_put_full_sheaf(barn, sheaf)`:
/// `barn` the barn's node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BarnPutSheaf {
    pub saved_irq: bool,
    pub barn: u32,
    pub sheaf: Option<u32>,
}

/// The locals of `barn_replace_empty_sheaf(barn, empty)`: `barn` the barn's node, `full`
/// the sheaf taken for `empty`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BarnReplaceEmptySheaf {
    pub saved_irq: bool,
    pub barn: u32,
    pub empty: Option<u32>,
    pub full: Option<u32>,
}

/// The locals of `barn_replace_full_sheaf(barn, full)`: `barn` the barn's node, `empty`
/// the sheaf taken for `full`, `err` its error (`E2BIG`, `ENOMEM`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct BarnReplaceFullSheaf {
    pub saved_irq: bool,
    pub err: u32,
    pub barn: u32,
    pub full: Option<u32>,
    pub empty: Option<u32>,
}

/// The locals of `local_lock(&s->cpu_sheaves->lock)`: `cpu` the CPU whose lock it takes,
/// returned as `count`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LocalLockV7 {
    pub cpu: u32,
    pub count: u32,
}

/// The locals of `local_trylock(&s->cpu_sheaves->lock)`: `cpu` the CPU whose lock it
/// tries, returned as `count`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LocalTrylock {
    pub cpu: u32,
    pub count: u32,
}

/// The locals of `local_unlock(&s->cpu_sheaves->lock)`: `cpu` the CPU whose lock it drops.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LocalUnlockV7 {
    pub cpu: u32,
}

// ----- their `impl Locals`: `sheaves/flush.rs` -----

/// The locals of `__kmem_cache_free_bulk(s, size, p)` with its
/// `build_detached_freelist`: `arr` the batch `p` and `size` its entries left, the detached
/// freelist's `slab`, `freelist` (head) and `tail`, `same` the look-back cursor and
/// `lookahead` the other-slab objects it may still pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KmemCacheFreeBulk {
    pub tail: Addr,
    pub freelist: Addr,
    pub slab: Option<SlabId>,
    pub lookahead: u8,
    pub size: u32,
    pub same: u32,
    pub ret: Ret,
    pub arr: Vec<Addr>,
}

/// The locals of `pcs_flush_all(s)` on this CPU: `pcs` the CPU, `spare` the spare it detached.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PcsFlushAll {
    pub pcs: u32,
    pub ret: Ret,
    pub spare: Option<u32>,
}

/// The locals of `sheaf_flush_main(s)`: `pcs` the locked CPU, `main` its main sheaf,
/// `batch` the objects taken off it into `arr`, `remaining` what is left on it, `flushed` it
/// flushed anything (its `ret`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SheafFlushMain {
    pub pcs: u32,
    pub flushed: bool,
    pub remaining: u32,
    pub batch: u32,
    pub ret: Ret,
    pub main: Option<u32>,
    pub arr: Vec<Addr>,
}

/// The locals of `sheaf_flush_unused(s, sheaf)`: `arr` the batch taken off it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SheafFlushUnused {
    pub sheaf: u32,
    pub arr: Vec<Addr>,
}

/// The locals of `slub_cpu_dead(cpu)` (its `__pcs_flush_all_cpu`): the dead `cpu`'s
/// `main` and `spare`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlubCpuDead {
    pub cpu: u32,
    pub main: Option<u32>,
    pub spare: Option<u32>,
}

// ----- their `impl Locals`: `sheaves/free.rs` -----

/// The locals of `free_to_pcs(s, object, allow_spin)`: `pcs` the CPU whose sheaves are
/// locked, `main` its main sheaf and `size` its size as read, `replaced` 1 while
/// `__pcs_replace_full_main` runs for it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FreeToPcs {
    pub pcs: u32,
    pub object: Addr,
    pub replaced: u8,
    pub size: u32,
    pub ret: Ret,
    pub main: Option<u32>,
}

/// The locals of `__pcs_install_empty_sheaf(s, pcs, empty, barn)`: `pcs` the locked CPU,
/// `main` its main sheaf, `empty` the sheaf to install, `barn` the barn's node,
/// `empty_to_barn` 1 when `empty` went to the barn instead.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PcsInstallEmptySheaf {
    pub pcs: u32,
    pub empty_to_barn: u8,
    pub barn: u32,
    pub main: Option<u32>,
    pub empty: u32,
}

/// The locals of `__pcs_replace_full_main(s, pcs, allow_spin)`: `pcs` the locked CPU,
/// `main` its full main, `empty` the spare as read and then the empty sheaf to install,
/// `barn` the barn's node, `put_fail` the barn refused the full sheaf (`-E2BIG`), `count` the
/// CPU locked again on return.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PcsReplaceFullMain {
    pub pcs: u32,
    pub put_fail: bool,
    pub count: u32,
    pub barn: u32,
    pub ret: Ret,
    pub main: Option<u32>,
    pub empty: Option<u32>,
}

/// The locals of `slab_free(s, slab, object, addr)`: `local` the slab is of this CPU's
/// node (the object may go to the sheaves).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabFreeV7 {
    pub object: Addr,
    pub slab: SlabId,
    pub local: bool,
    pub ret: Ret,
}

// ----- their `impl Locals`: `sheaves/free_slow.rs` -----

/// The locals of `__slab_free(s, slab, head, tail, cnt, addr)` as 7.0 has it: `prior`
/// and `counters` as read, `new` the counters to write, `n` the node whose `list_lock` is
/// held, `was_full` (`!prior`) and `on_node_partial` (`SL_partial` read under the lock).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabFreeSlowV7 {
    pub tail: Addr,
    pub head: Addr,
    pub prior: Addr,
    pub slab: SlabId,
    pub counters: Counters,
    pub new: Counters,
    pub n: Option<u32>,
    pub saved_irq: bool,
    pub was_full: bool,
    pub on_node_partial: bool,
    pub cnt: u32,
}

// ----- their `impl Locals`: `sheaves/refill.rs` -----

/// The locals of `get_freelist_nofreeze(s, slab)`: `freelist` and `counters` as read (`old`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GetFreelistNofreeze {
    pub freelist: Addr,
    pub slab: SlabId,
    pub counters: Counters,
}

/// The locals of `get_partial_node_bulk(s, n, pc, allow_spin)`: `max` the objects wanted
/// (`pc->max_objects`), `total` the free objects of the slabs isolated so far, `trylock` when
/// `allow_spin` is false.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GetPartialNodeBulk {
    pub n: u32,
    pub saved_irq: bool,
    pub trylock: bool,
    pub total: u32,
    pub max: u32,
}

/// The locals of `refill_objects(s, p, gfp, min, max)` with `min == max`: the array `p`
/// is `sheaf`'s slots from slot `p`; `refilled` the objects stored so far, `n` the other node
/// being tried.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RefillObjects {
    pub node: Option<u32>,
    pub n: Option<u32>,
    pub refilled: u32,
    pub p: u32,
    pub max: u32,
    pub ret: Ret,
    pub sheaf: Option<u32>,
}

/// The locals of `__refill_objects_node(s, p, gfp, min, max, n, allow_spin)`: the array
/// `p` is `sheaf`'s slots from slot `p`; `refilled` the objects stored so far, `slab` the
/// isolated slab being emptied, `object` the rest of its chain still to store (`tail` its
/// last when given back), `trylock` when `allow_spin` is false.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RefillObjectsNode {
    pub tail: Addr,
    pub object: Addr,
    pub slab: Option<SlabId>,
    pub n: u32,
    pub saved_irq: bool,
    pub trylock: bool,
    pub refilled: u32,
    pub p: u32,
    pub max: u32,
    pub ret: Ret,
    pub sheaf: Option<u32>,
}

/// The locals of `refill_sheaf(s, sheaf, gfp)`: `size` the sheaf's size before, `to_fill`
/// the slots to fill, `filled` what `refill_objects` stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RefillSheaf {
    pub filled: u32,
    pub size: u32,
    pub to_fill: u32,
    pub ret: Ret,
    pub sheaf: u32,
}
