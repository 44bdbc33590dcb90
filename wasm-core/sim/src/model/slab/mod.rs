//! SLAB, the comparison model of model.md Appendix A (mm/slab.c, ~v4.7): per-CPU `array_cache`
//! stacks touched only with interrupts off, a node-wide `shared` array, three slab lists and
//! `free_objects` under `list_lock`, and the lockless decision to grow of model.md §4 (v)
//! (`variant.slabGrow`). The same machine runs it as SLUB: contexts, moves, locks, cache lines
//! and the one cost table; only the kernel functions differ.
//!
//! Step granularity. Every access to a per-CPU array is a step (they run with interrupts off,
//! so only the owning CPU can interleave, and only where the kernel enables interrupts:
//! `cache_grow_begin`'s page allocation). Under `list_lock`, a step is one list operation the
//! kernel does without dropping the lock: `alloc_block` plus `fixup_slab_list` for one slab,
//! `slab_put_obj` plus its relinking for one object of `free_block`. The racy reads of the
//! lockless decision are one step.
//!
//! Simplifications, each named where it is modelled: no slab colouring, no reaper
//! (`cache_reap`), no `pfmemalloc`; a free of an object of another node (NUMA) goes straight to
//! its home node's lists under that node's lock, which is what `cache_free_alien` does when
//! alien caches are off (`noaliencache`); `flush` is `do_drain` of one CPU's array (the per-CPU
//! part of `drain_cpu_caches`). The slab's index-array freelist is charged to the slab's
//! descriptor line `PG(P)`.

use super::cost;
use super::memory::Access;
use super::state;
use super::state::*;
use crate::model::pcs::labels::*;
use crate::model::Fault;

use super::state::OpCall;
use super::Block;
use super::{Core, Flow, Pc, Stat};

// Laid out as SLUB's module is: its state and what its locals answer (their structs are in
// `locals/slab.rs`, below the frame table), the lookups and list operations its
// functions share, the functions of allocation and of free, its invariants and its part of
// the views.
mod access;
mod alloc;
mod free;
mod invariants;
mod structs;
mod tune;
mod view;

use super::locals::{
    ArrayCache, CacheAlloc, CacheAllocRefill, CacheFlusharray, CacheFree, CacheGrowBegin,
    CacheGrowEnd, DoDrain,
};
pub use structs::*;
pub(super) use tune::tune_frame;

/// The entry frame of an op under SLAB.
pub(super) fn op_frame(call: OpCall) -> Frame {
    match call {
        OpCall::Alloc { .. } => Frame::CacheAlloc {
            pc: cache_alloc::CA0,
            l: CacheAlloc::default(),
        },
        OpCall::Free { addr, slab } => Frame::CacheFree {
            pc: cache_free::CF0,
            l: CacheFree {
                x: addr,
                pg: slab,
                ..CacheFree::default()
            },
        },
        OpCall::Flush { target } => Frame::DoDrain {
            pc: do_drain::DD0,
            l: DoDrain {
                c: target.unwrap_or(0),
                flag: target.is_none(),
                ..DoDrain::default()
            },
        },
    }
}

/// `cache_grow_begin`'s page allocation with `__GFP_WAIT` (GB2) is where a task may sleep.
pub(super) fn at_sleep_point(fr: &Frame) -> bool {
    fr.pc() == Pc::CacheGrowBegin(cache_grow_begin::GB2)
}

impl SlabState {
    /// The lock SLAB's next step of `cx` waits for: a node's `list_lock`, held by another (or,
    /// at `synchronize_sched()`, the end of a grace period).
    pub(in crate::model) fn lock_wait(&self, core: &Core, cx: CtxId, fr: &Frame) -> Option<Block> {
        let n = match fr {
            Frame::SetupKmemCacheNode {
                pc: setup_kmem_cache_node::SN6,
                ..
            } => {
                return (self.grace_wait(cx)).map(Block::GracePeriod);
            }
            Frame::SetupKmemCacheNode {
                pc: setup_kmem_cache_node::SN2,
                l,
            } => l.n,
            Frame::CacheAllocRefill {
                pc: cache_alloc_refill::RF3,
                l,
            } => l.n,
            Frame::CacheGrowEnd {
                pc: cache_grow_end::GE1,
                l,
            } => l.n,
            Frame::CacheFlusharray {
                pc: cache_flusharray::FA1,
                l,
            } => l.n,
            Frame::DoDrain {
                pc: do_drain::DD1,
                l,
            } => l.n,
            Frame::CacheFree {
                pc: cache_free::CFA1,
                l,
            } => need!(core, l.n, None),
            _ => return None,
        };
        core.node(n)
            .list_lock
            .filter(|&h| h != cx)
            .map(|h| Block::ListLock(n, h))
    }
}

impl SlabState {
    /// Run one label of one of its functions: the frame's arm names the function, its label
    /// and its locals (`allocator.rs` lends the state and the core, borrowed apart).
    pub(in crate::model) fn exec(&mut self, core: &mut Core, fr: &mut Frame) -> Flow {
        match fr {
            Frame::CacheAlloc { pc, l } => self.cache_alloc(core, pc, l),
            Frame::CacheAllocRefill { pc, l } => self.cache_alloc_refill(core, pc, l),
            Frame::CacheGrowBegin { pc, l } => self.cache_grow_begin(core, pc, l),
            Frame::CacheGrowEnd { pc, l } => self.cache_grow_end(core, pc, l),
            Frame::CacheFree { pc, l } => self.cache_free(core, pc, l),
            Frame::CacheFlusharray { pc, l } => self.cache_flusharray(core, pc, l),
            Frame::DoDrain { pc, l } => self.do_drain(core, pc, l),
            Frame::SetupKmemCacheNode { pc, l } => self.setup_kmem_cache_node(core, pc, l),
            _ => core.fault(Fault::Broken("a function of another allocator")),
        }
    }
}
