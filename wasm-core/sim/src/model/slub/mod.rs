//! SLUB (`mm/slub.c`): the allocator the model is about. Its kernel functions as step
//! machines (`alloc`: `slab_alloc` and its slow path, `get_freelist`, `get_partial_node`,
//! `acquire_slab`, `new_slab`; `free`: `slab_free`, `__slab_free`, `touch`; `lists`: the CPU
//! partial list, `unfreeze_partials`, `deactivate_slab`, the flushes and
//! `cmpxchg_double_slab`), the fast-path steps both listings share (`steps`) and its
//! invariants INV-1…INV-15 (`invariants`).

use super::{cost, memory, state, Flow, Machine, Pc, Stat};
use crate::model::Fault;

mod access;
mod alloc;
mod free;
mod invariants;
mod lists;
mod steps;
mod structs;
mod view;

pub(in crate::model) use access::counters_text;

pub use structs::{SlubPage, SlubState};

use super::allocator::OpCall;
use super::executor::Block;
use state::*;

/// The entry frame of an op under SLUB.
pub(super) fn op_frame(call: OpCall) -> Frame {
    match call {
        OpCall::Alloc { node } => {
            let mut f = Frame::new(Func::SlabAlloc, Pc::AllocEntry);
            f.node = node;
            f
        }
        OpCall::Free { addr, slab } => {
            let mut f = Frame::new(Func::SlabFree, Pc::FreeEntry);
            f.x = addr;
            f.pg = Some(slab);
            f
        }
        OpCall::Flush { target } => {
            let mut f = Frame::new(Func::FlushCpuSlab, Pc::FC0);
            match target {
                Some(t) => f.c = t,
                None => f.flag = true,
            }
            f
        }
    }
}

/// `new_slab`'s page allocation with `__GFP_WAIT` (N2) is where a task may sleep.
pub(super) fn at_sleep_point(fr: &Frame) -> bool {
    fr.func == Func::NewSlab && fr.pc == Pc::N2
}

impl Machine {
    /// Dispatch one label of a SLUB function.
    pub(super) fn exec_slub(&mut self, fr: &mut Frame) -> Flow {
        match fr.func {
            Func::SlabAlloc => self.slab_alloc(fr),
            Func::SlabAllocSlow => self.slab_alloc_slow(fr),
            Func::GetFreelist => self.get_freelist(fr),
            Func::GetPartialNode => self.get_partial_node(fr),
            Func::AcquireSlab => self.acquire_slab(fr),
            Func::NewSlab => self.new_slab(fr),
            Func::PutCpuPartial => self.put_cpu_partial(fr),
            Func::UnfreezePartials => self.unfreeze_partials(fr),
            Func::DeactivateSlab => self.deactivate_slab(fr),
            Func::FlushSlab => self.flush_slab(fr),
            Func::FlushCpuSlab => self.flush_cpu_slab(fr),
            Func::SlabFree => self.slab_free(fr),
            Func::SlabFreeSlow => self.slab_free_slow(fr),
            Func::CmpxchgDoubleSlab => self.cmpxchg_double_slab(fr),
            Func::Touch => self.touch(fr),
            _ => self.fault(Fault::Broken("a function of another allocator")),
        }
    }

    /// The lock SLUB's next step of `cx` waits for, if another context holds it: a node's
    /// `list_lock`, a slab's `slab_lock` or a CPU's `local_lock`.
    pub(super) fn slub_lock_wait(&self, cx: CtxId, fr: &Frame) -> Option<Block> {
        let held_by = |who: Option<CtxId>| who.filter(|&h| h != cx);
        let node_lock = |n: u32| held_by(self.node(n).list_lock).map(|h| Block::ListLock(n, h));
        let local_lock =
            |k: u32| held_by(self.cpu_slab(k).local_lock).map(|h| Block::LocalLock(k, h));
        use Pc::*;
        match (fr.func, fr.pc) {
            (Func::SlabFreeSlow, S4) => node_lock(self.node_of_slab(need!(self, fr.pg, None))),
            (Func::GetPartialNode, H2) => node_lock(need!(self, fr.n, None)),
            (Func::UnfreezePartials, V3l) => node_lock(self.node_of_slab(need!(self, fr.p, None))),
            (Func::DeactivateSlab, D6)
            | (Func::DeactivateSlab, DS6)
            | (Func::DeactivateSlab, DSK) => node_lock(need!(self, fr.n, None)),
            (Func::CmpxchgDoubleSlab, X2) => {
                let s = need!(self, fr.pg, None);
                held_by(self.slab(s).slab_lock).map(|h| Block::SlabLock(s, h))
            }
            (Func::SlabAllocSlow, LL4 | LL21 | LL30 | LL50)
            | (Func::FlushSlab, K1)
            | (Func::FlushCpuSlab, FC3) => local_lock(fr.c),
            (Func::PutCpuPartial, U6) => local_lock(self.ctx(cx).cpu),
            _ => None,
        }
    }
}
