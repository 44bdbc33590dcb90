//! SLAB's frames' locals (mm/slab.c, model.md Appendix A): the struct of each of its step
//! machines' locals (`Frame`'s arm of the function, with its pc), and the `ArrayCache` that
//! `setup_kmem_cache_node`'s locals hold. What they answer the machine (`impl Locals`) is in
//! `slab/structs.rs` and `slab/tune.rs`, beside the step machines. The structs are here, below
//! the frame table (`pcs`), because `Frame` holds them and nothing the frame table reaches may
//! reach up to the state, the core or an allocator.

use super::Ret;
use crate::model::ids::{Addr, SlabId};

/// SLAB's `struct array_cache`: a LIFO stack of object pointers. `avail` is `entry.len()`.
/// It is SLAB's state's data as well (each CPU's `SlabState::ac`, a node's `shared`); it is
/// here, below the frame table, because `setup_kmem_cache_node`'s locals hold the array it
/// builds (`new_shared`); its methods stay with SLAB's state (`slab/structs.rs`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArrayCache {
    pub limit: u32,
    pub batchcount: u32,
    pub touched: bool,
    pub entry: Vec<Addr>,
    /// Ghost: the first `handed` entries were already given back by a `cache_flusharray` or
    /// drain whose final memmove has not run yet (they are no longer this array's objects).
    pub handed: u32,
    /// A shared array's identity (`A<id>` in messages): its allocation, so a pointer loaded
    /// before a `tune` still names the old array after the swap. 0 for a CPU's array.
    pub id: u32,
}

// ----- their `impl Locals`: `slab/structs.rs` -----

/// `slab_alloc` → `____cache_alloc` (`cache_alloc`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheAlloc {
    /// `local_irq_save(save_flags)`.
    pub saved_irq: bool,
    /// The CPU whose `array_cache` it pops (`ac = cpu_cache_get(cachep)`).
    pub c: u32,
    /// `objp`, the object it returns.
    pub obj: Addr,
    /// What `cache_alloc_refill` returned.
    pub ret: Ret,
}

/// `cache_alloc_refill`, irqs off on entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheAllocRefill {
    /// The CPU whose array it refills, and its node (`n`), both set at RF1.
    pub c: u32,
    pub n: u32,
    /// `batchcount`: how many objects are still to move to the array.
    pub count: u32,
    /// The slab `cache_grow_begin` made, if any.
    pub p: Option<SlabId>,
    /// What `cache_grow_begin` returned.
    pub ret: Ret,
    /// Split lockless check only (a context tunes): `n->free_objects` as RF2 read it, and
    /// `shared = READ_ONCE(n->shared)`, the identity of the array RF2S reads `avail` through.
    pub free: u32,
    pub shared: Option<u32>,
}

/// `cache_grow_begin`: a new slab from the page allocator.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheGrowBegin {
    /// The node the slab comes from.
    pub n: u32,
    /// It enabled interrupts for the page allocation (`gfpflags_allow_blocking`).
    pub flag: bool,
    /// The new slab (`page`), `None` if the page allocator failed.
    pub p: Option<SlabId>,
}

/// `cache_grow_end`: link the new slab `p` into node `n`'s lists.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheGrowEnd {
    pub n: u32,
    pub p: SlabId,
}

/// `kmem_cache_free` → `___cache_free` (`cache_free`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheFree {
    /// `local_irq_save(flags)`.
    pub saved_irq: bool,
    /// The CPU whose array it pushes on.
    pub c: u32,
    /// `objp`, the object freed, and its slab.
    pub x: Addr,
    pub pg: SlabId,
    /// The object's home node when it is not this CPU's (`cache_free_alien`).
    pub n: Option<u32>,
    /// The object is no longer in flight (pushed on an array or freed to its slab).
    pub flag: bool,
    /// Free slabs for `slabs_destroy`.
    pub queue: Vec<SlabId>,
}

/// `cache_flusharray` of CPU `c`'s full array into node `n`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheFlusharray {
    pub c: u32,
    pub n: u32,
    /// `batchcount`: the entries it gives away; `pages` counts those `free_block` returned.
    pub count: u32,
    pub pages: u32,
    /// Free slabs for `slabs_destroy`.
    pub queue: Vec<SlabId>,
}

/// `do_drain`: CPU `c`'s array (this CPU's if `flag`) back to node `n`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DoDrain {
    /// `local_irq_save`: the drain runs with interrupts off (`on_each_cpu`'s IPI).
    pub saved_irq: bool,
    /// The flush is of the running CPU (`c` is set at DD0), not of a dead CPU `c`.
    pub flag: bool,
    pub c: u32,
    pub n: u32,
    /// `ac->avail`, the entries it frees; `pages` counts those `free_block` returned.
    pub count: u32,
    pub pages: u32,
    /// Free slabs for `slabs_destroy`.
    pub queue: Vec<SlabId>,
}

// ----- their `impl Locals`: `slab/tune.rs` -----

/// `setup_kmem_cache_node(..., force_change = true)`: the node of the running CPU.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SetupKmemCacheNode {
    /// The node whose shared array it replaces.
    pub n: u32,
    /// `new_shared`: the array `alloc_arraycache` made (SN1), until it is published (SN4).
    pub new: Option<ArrayCache>,
    /// `old_shared`: the identity of the array it took off the node (SN4), if there was one.
    pub old: Option<u32>,
    /// Free slabs for `slabs_destroy`.
    pub queue: Vec<SlabId>,
}
