//! SLUB (`mm/slub.c`): the allocator the model is about. Its kernel functions as step
//! machines (`alloc`: `slab_alloc` and its slow path, `get_freelist`, `get_partial_node`,
//! `acquire_slab`, `new_slab`; `free`: `slab_free`, `__slab_free`, `touch`; `lists`: the CPU
//! partial list, `unfreeze_partials`, `deactivate_slab`, the flushes and
//! `cmpxchg_double_slab`), the fast-path steps both listings share (`steps`) and its
//! invariants INV-1…INV-15 (`invariants`).

use super::{cost, memory, state, Flow, Machine, Pc, Stat};
use crate::model::pcs::labels::*;
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
pub(super) fn op_frame(call: OpCall) -> Shared {
    match call {
        OpCall::Alloc { node } => {
            let mut f = Shared::new(slab_alloc::AllocEntry);
            f.node = node;
            f
        }
        OpCall::Free { addr, slab } => {
            let mut f = Shared::new(slab_free::FreeEntry);
            f.x = addr;
            f.pg = Some(slab);
            f
        }
        OpCall::Flush { target } => {
            let mut f = Shared::new(flush_cpu_slab::FC0);
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
    let Some(fr) = fr.shared() else {
        return false;
    };
    fr.pc == Pc::NewSlab(new_slab::N2)
}

impl Machine {
    /// Dispatch one label of a SLUB function to its step machine.
    pub(super) fn exec_slub(&mut self, fr: &mut Frame) -> Flow {
        let Frame::Shared(fr) = fr else {
            return self.fault(Fault::Broken("a function of another allocator"));
        };
        match fr.pc {
            Pc::SlabAlloc(pc) => self.slab_alloc(fr, pc),
            Pc::SlabAllocSlow(pc) => self.slab_alloc_slow(fr, pc),
            Pc::SlabAllocSlowLl(pc) => self.slab_alloc_slow_ll(fr, pc),
            Pc::GetFreelist(pc) => self.get_freelist(fr, pc),
            Pc::GetPartialNode(pc) => self.get_partial_node(fr, pc),
            Pc::AcquireSlab(pc) => self.acquire_slab(fr, pc),
            Pc::NewSlab(pc) => self.new_slab(fr, pc),
            Pc::PutCpuPartial(pc) => self.put_cpu_partial(fr, pc),
            Pc::UnfreezePartials(pc) => self.unfreeze_partials(fr, pc),
            Pc::DeactivateSlab(pc) => self.deactivate_slab(fr, pc),
            Pc::FlushSlab(pc) => self.flush_slab(fr, pc),
            Pc::FlushCpuSlab(pc) => self.flush_cpu_slab(fr, pc),
            Pc::SlabFree(pc) => self.slab_free(fr, pc),
            Pc::SlabFreeSlow(pc) => self.slab_free_slow(fr, pc),
            Pc::CmpxchgDoubleSlab(pc) => self.cmpxchg_double_slab(fr, pc),
            Pc::Touch(touch::TC) => self.touch(fr),
            _ => self.fault(Fault::Broken("a function of another allocator")),
        }
    }

    /// The lock SLUB's next step of `cx` waits for, if another context holds it: a node's
    /// `list_lock`, a slab's `slab_lock` or a CPU's `local_lock`.
    pub(super) fn slub_lock_wait(&self, cx: CtxId, fr: &Frame) -> Option<Block> {
        let fr = fr.shared()?;
        let held_by = |who: Option<CtxId>| who.filter(|&h| h != cx);
        let node_lock = |n: u32| held_by(self.node(n).list_lock).map(|h| Block::ListLock(n, h));
        let local_lock =
            |k: u32| held_by(self.cpu_slab(k).local_lock).map(|h| Block::LocalLock(k, h));
        match fr.pc {
            Pc::SlabFreeSlow(slab_free_slow::S4) => {
                node_lock(self.node_of_slab(need!(self, fr.pg, None)))
            }
            Pc::GetPartialNode(get_partial_node::H2) => node_lock(need!(self, fr.n, None)),
            Pc::UnfreezePartials(unfreeze_partials::V3l) => {
                node_lock(self.node_of_slab(need!(self, fr.p, None)))
            }
            Pc::DeactivateSlab(
                deactivate_slab::D6 | deactivate_slab::DS6 | deactivate_slab::DSK,
            ) => node_lock(need!(self, fr.n, None)),
            Pc::CmpxchgDoubleSlab(cmpxchg_double_slab::X2) => {
                let s = need!(self, fr.pg, None);
                held_by(self.slab(s).slab_lock).map(|h| Block::SlabLock(s, h))
            }
            Pc::SlabAllocSlowLl(
                slab_alloc_slow_ll::LL4
                | slab_alloc_slow_ll::LL21
                | slab_alloc_slow_ll::LL30
                | slab_alloc_slow_ll::LL50,
            )
            | Pc::FlushSlab(flush_slab::K1)
            | Pc::FlushCpuSlab(flush_cpu_slab::FC3) => local_lock(fr.c),
            Pc::PutCpuPartial(put_cpu_partial::U6) => local_lock(self.ctx(cx).cpu),
            _ => None,
        }
    }
}
