//! SLAB's state (`SlabState`: its `array_cache`s, its nodes' lists and `free_objects`, each
//! slab's `active` and `bufctl`; its geometry of cache lines, `SlabLayout`, is in `config.rs`)
//! and what each step machine's locals answer the machine (`impl Locals`; their structs,
//! `Frame`'s arm of the function with its pc, are in `locals/slab.rs`, below the frame table,
//! as is `ArrayCache`, which `setup_kmem_cache_node`'s locals hold).

use super::*;
use crate::model::config::SlabLayout;
use crate::model::locals::{
    ArrayCache, CacheAlloc, CacheAllocRefill, CacheFlusharray, CacheFree, CacheGrowBegin,
    CacheGrowEnd, DoDrain,
};

// ----- what each step machine's locals answer (their structs: `locals/slab.rs`) -----

impl Locals for CacheAlloc {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.obj == a
    }
}

impl Locals for CacheAllocRefill {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
}

impl Locals for CacheGrowBegin {}

impl Locals for CacheGrowEnd {}

impl Locals for CacheFree {
    fn holds_addr(&self, a: Addr) -> bool {
        self.x == a
    }
    fn queued(&self, s: SlabId) -> bool {
        self.queue.contains(&s)
    }
}

impl Locals for CacheFlusharray {
    fn queued(&self, s: SlabId) -> bool {
        self.queue.contains(&s)
    }
}

impl Locals for DoDrain {
    fn queued(&self, s: SlabId) -> bool {
        self.queue.contains(&s)
    }
}

/// SLAB's own state: what `mm/slab.c` keeps beyond the shared `Cpu`, `Node` and `Page`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabState {
    /// Each CPU's `array_cache`.
    pub ac: Vec<ArrayCache>,
    /// Each node's `kmem_cache_node` beyond `list_lock` and `slabs_partial`.
    pub nodes: Vec<SlabNode>,
    /// SLAB's fields of every slab, by `SlabId`.
    pub pages: Vec<SlabPage>,
    /// The identity the next `alloc_arraycache` of a shared array gets (node n's first array
    /// is `n`, so this starts at the node count).
    pub next_array: u32,
    /// Shared arrays a `tune` took off their node (`old_shared`), readable until `kfree`.
    pub retired: Vec<Retired>,
    /// Each pending `synchronize_sched()`: the waiting context and the CPUs still inside the
    /// interrupts-off section they were in at the swap.
    pub grace: Vec<Grace>,
}

/// A node's old shared array after `setup_kmem_cache_node` swapped it out (SN4): its memory
/// stays readable through a pointer loaded before the swap until `kfree(old_shared)` (SN7).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Retired {
    pub node: u32,
    pub arr: ArrayCache,
    /// The context whose `kfree(old_shared)` freed it.
    pub freed_by: Option<CtxId>,
}

/// A pending `synchronize_sched()` of context `ctx` before the `kfree` of array `arr`: the CPUs that had interrupts off at the
/// swap and have not been seen with interrupts on since (our reconstruction of the grace
/// period's guarantee, model.md Appendix A).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Grace {
    pub ctx: CtxId,
    /// The old array it waits to free.
    pub arr: u32,
    pub cpus: Vec<u32>,
}

/// SLAB's fields of a slab's `struct page`: `active`, the objects in use, and the freelist,
/// an array of object indices (`bufctl`): the free objects are `bufctl[active..num]`. The
/// array is empty until `cache_init_objs` writes it. The shared `Page` holds the memory.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabPage {
    pub active: u32,
    pub bufctl: Vec<u16>,
}

impl SlabState {
    /// The state of a new cache: `enable_cpucache`'s arrays and `init_cache_node`'s lists.
    pub fn new(l: &SlabLayout, cpu_node: &[u32], nodes: u32, objects: u32) -> SlabState {
        SlabState {
            ac: cpu_node
                .iter()
                .map(|_| ArrayCache {
                    limit: l.limit,
                    batchcount: l.batchcount,
                    ..Default::default()
                })
                .collect(),
            nodes: (0..nodes)
                .map(|n| SlabNode {
                    // init_cache_node: free_limit = (1 + CPUs of the node) * batchcount + num.
                    free_limit: (cpu_node.iter().filter(|&&m| m == n).count() as u32)
                        .saturating_add(1)
                        .saturating_mul(l.batchcount)
                        .saturating_add(objects),
                    shared: (l.shared_limit > 0).then(|| ArrayCache {
                        limit: l.shared_limit,
                        batchcount: l.batchcount,
                        id: n,
                        ..Default::default()
                    }),
                    ..Default::default()
                })
                .collect(),
            pages: Vec::new(),
            next_array: nodes,
            retired: Vec::new(),
            grace: Vec::new(),
        }
    }

    /// Slab `s`'s index array (empty before `cache_init_objs`).
    pub fn bufctl(&self, s: SlabId) -> &[u16] {
        self.pages
            .get(s as usize)
            .map_or(&[], |p| p.bufctl.as_slice())
    }

    /// Slab `s`'s `page->active`: its objects in use.
    pub fn active(&self, s: SlabId) -> u32 {
        self.pages.get(s as usize).map_or(0, |p| p.active)
    }
}

/// SLAB's `kmem_cache_node` beyond `list_lock` and `slabs_partial` (model.md Appendix A).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabNode {
    pub slabs_full: Vec<SlabId>,
    pub slabs_free: Vec<SlabId>,
    /// Free objects in this node's linked slabs (not those queued in arrays).
    pub free_objects: u32,
    pub free_limit: u32,
    pub total_slabs: u32,
    pub free_slabs: u32,
    /// The node-wide `shared` array (none on a one-CPU machine, as `enable_cpucache` decides).
    pub shared: Option<ArrayCache>,
}

impl ArrayCache {
    pub fn avail(&self) -> u32 {
        self.entry.len() as u32
    }
    /// The entries this array still owns.
    pub fn live(&self) -> &[Addr] {
        self.entry.get(self.handed as usize..).unwrap_or_default()
    }
}

/// Which array a step works on: a CPU's or a node's shared one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arr {
    Cpu(u32),
    Shared(u32),
}

pub(super) static NO_ARRAY: ArrayCache = ArrayCache {
    limit: 0,
    batchcount: 0,
    touched: false,
    entry: Vec::new(),
    handed: 0,
    id: 0,
};
pub(super) static NO_SLAB_NODE: SlabNode = SlabNode {
    slabs_full: Vec::new(),
    slabs_free: Vec::new(),
    free_objects: 0,
    free_limit: 0,
    total_slabs: 0,
    free_slabs: 0,
    shared: None,
};
