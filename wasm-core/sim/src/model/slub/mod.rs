//! SLUB (`mm/slub.c`): the allocator the model is about. Its kernel functions as step
//! machines, a file per kernel function or per group of them: `alloc` (the fast path
//! `slab_alloc`), `alloc_slow` (`__slab_alloc` of 3.x–5.14 and `get_freelist`),
//! `alloc_slow_ll` (5.15+'s `___slab_alloc` under the local lock), `grow` (`new_slab`),
//! `node_partial` (`get_partial_node`, `acquire_slab`), `cpu_partial` (`put_cpu_partial`,
//! `unfreeze_partials`), `deactivate` (`deactivate_slab`), `flush` (`flush_slab`,
//! `__flush_cpu_slab`), `cmpxchg` (`cmpxchg_double_slab` and the double CAS at its call
//! sites), `free` (`slab_free`, `__slab_free`); the fast-path steps both listings share
//! (`steps`) and its invariants INV-1…INV-15 (`invariants`).
//!
//! SLUB is a value: its state is `SlubState` (`structs`), and its functions, primitives and
//! checks are `impl SlubState` over `core: &mut Core` (the memory, its cost, the event),
//! reaching the slab level it shares with Linux 7.0 through `SlubState::sp` (`slab_page`).
//! `SlubState::exec` runs each step, given SLUB's arm and the core by `AllocState::exec`
//! (`allocator.rs`), which calls its views, its lock wait and its checks the same way.

use super::{cost, memory, state, Flow, Pc, Stat};
use crate::model::pcs::labels::*;
use crate::model::Fault;

mod access;
mod alloc;
mod alloc_slow;
mod alloc_slow_ll;
mod cmpxchg;
mod cpu_partial;
mod deactivate;
#[cfg(test)]
mod faults;
mod flush;
mod free;
mod grow;
mod invariants;
#[cfg(test)]
mod negative;
mod node_partial;
mod steps;
mod structs;
mod view;

pub use structs::SlubState;

use super::locals::Snapshot;
use super::locals::{
    FlushCpuSlab, FlushSlab, GetFreelist, NewSlab, SlabAlloc, SlabAllocSlow, SlabAllocSlowLl,
    SlabFree, UnfreezePartials,
};

use super::state::OpCall;
use super::Block;
use super::Core;
use state::*;

/// The entry frame of an op under SLUB.
pub(super) fn op_frame(call: OpCall) -> Frame {
    match call {
        OpCall::Alloc { node } => Frame::SlabAlloc {
            pc: slab_alloc::AllocEntry,
            l: SlabAlloc {
                node,
                ..SlabAlloc::default()
            },
        },
        OpCall::Free { addr, slab } => Frame::SlabFree {
            pc: slab_free::FreeEntry,
            l: SlabFree {
                x: addr,
                pg: slab,
                ..SlabFree::default()
            },
        },
        OpCall::Flush { target } => Frame::FlushCpuSlab {
            pc: flush_cpu_slab::FC0,
            l: FlushCpuSlab {
                c: target.unwrap_or(0),
                flag: target.is_none(),
                ..FlushCpuSlab::default()
            },
        },
    }
}

/// `new_slab`'s page allocation with `__GFP_WAIT` (N2) is where a task may sleep.
pub(super) fn at_sleep_point(fr: &Frame) -> bool {
    fr.pc() == Pc::NewSlab(new_slab::N2)
}

impl SlubState {
    /// The lock SLUB's next step of `cx` waits for, if another context holds it: a node's
    /// `list_lock`, a slab's `slab_lock` or a CPU's `local_lock`.
    pub(super) fn lock_wait(&self, core: &Core, cx: CtxId, fr: &Frame) -> Option<Block> {
        let held_by = |who: Option<CtxId>| who.filter(|&h| h != cx);
        let node_lock = |n: u32| held_by(core.node(n).list_lock).map(|h| Block::ListLock(n, h));
        let local_lock =
            |k: u32| held_by(self.cpu_slab(core, k).local_lock).map(|h| Block::LocalLock(k, h));
        match fr {
            Frame::SlabFreeSlow {
                pc: slab_free_slow::S4,
                l,
            } => node_lock(core.node_of_slab(l.pg)),
            Frame::GetPartialNode {
                pc: get_partial_node::H2,
                l,
            } => node_lock(l.n),
            Frame::UnfreezePartials {
                pc: unfreeze_partials::V3l,
                l,
            } => node_lock(core.node_of_slab(need!(core, l.p, None))),
            Frame::DeactivateSlab {
                pc: deactivate_slab::D6 | deactivate_slab::DS6 | deactivate_slab::DSK,
                l,
            } => node_lock(l.n),
            Frame::CmpxchgDoubleSlab {
                pc: cmpxchg_double_slab::X2,
                l,
            } => held_by(self.slab(core, l.pg).slab_lock).map(|h| Block::SlabLock(l.pg, h)),
            Frame::SlabAllocSlowLl {
                pc:
                    slab_alloc_slow_ll::LL4
                    | slab_alloc_slow_ll::LL21
                    | slab_alloc_slow_ll::LL30
                    | slab_alloc_slow_ll::LL50,
                l,
            } => local_lock(l.c),
            Frame::FlushSlab {
                pc: flush_slab::K1,
                l,
            } => local_lock(l.c),
            Frame::FlushCpuSlab {
                pc: flush_cpu_slab::FC3,
                l,
            } => local_lock(l.c),
            Frame::PutCpuPartial {
                pc: put_cpu_partial::U6,
                ..
            } => local_lock(core.ctx(cx).cpu),
            _ => None,
        }
    }
}

impl SlubState {
    /// Run one label of one of its functions: the frame's arm names the function, its label
    /// and its locals (`allocator.rs` lends the state and the core, borrowed apart).
    pub(in crate::model) fn exec(&mut self, core: &mut Core, fr: &mut Frame) -> Flow {
        match fr {
            Frame::SlabAlloc { pc, l } => self.slab_alloc(core, pc, l),
            Frame::SlabAllocSlow { pc, l } => self.slab_alloc_slow(core, pc, l),
            Frame::SlabAllocSlowLl { pc, l } => self.slab_alloc_slow_ll(core, pc, l),
            Frame::GetFreelist { pc, l } => self.get_freelist(core, pc, l),
            Frame::GetPartialNode { pc, l } => self.get_partial_node(core, pc, l),
            Frame::AcquireSlab { pc, l } => self.acquire_slab(core, pc, l),
            Frame::NewSlab { pc, l } => self.new_slab(core, pc, l),
            Frame::PutCpuPartial { pc, l } => self.put_cpu_partial(core, pc, l),
            Frame::UnfreezePartials { pc, l } => self.unfreeze_partials(core, pc, l),
            Frame::FlushSlab { pc, l } => self.flush_slab(core, pc, l),
            Frame::FlushCpuSlab { pc, l } => self.flush_cpu_slab(core, pc, l),
            Frame::SlabFree { pc, l } => self.slab_free(core, pc, l),
            Frame::SlabFreeSlow { pc, l } => self.slab_free_slow(core, pc, l),
            Frame::CmpxchgDoubleSlab { pc, l } => self.cmpxchg_double_slab(core, pc, l),
            Frame::DeactivateSlab { pc, l } => self.deactivate_slab(core, pc, l),
            _ => core.fault(Fault::Broken("a function of another allocator")),
        }
    }
}
