//! The allocator seam: the questions the shared machine (executor, views) asks of the
//! allocator a scenario runs, one `match` per question and one arm per allocator. The
//! allocators answer in their own modules (`slub`, `slab`); the executor knows neither.
//! Adding an allocator adds its module and an arm to each match here (the compiler lists
//! them): see `docs/adding-an-allocator.md`.

use super::executor::Block;
use super::state::*;
use super::{Flow, Machine};
use crate::scenario::Allocator;

/// The op a context starts, as the allocator runs it.
pub(super) enum OpCall {
    /// `kmem_cache_alloc(_node)`.
    Alloc { node: Option<u32> },
    /// `kmem_cache_free` of an object of slab `slab`.
    Free { addr: Addr, slab: SlabId },
    /// Flush a CPU's per-CPU cache: `Some(k)` a dead CPU `k`'s, `None` the running CPU's.
    Flush { target: Option<u32> },
}

impl Machine {
    pub(super) fn allocator(&self) -> Allocator {
        self.cfg.sc.allocator
    }

    /// The allocator's own state in a new machine.
    pub(super) fn initial_alloc_state(cfg: &super::Config) -> AllocState {
        match cfg.sc.allocator {
            Allocator::Slub => AllocState::Slub,
            Allocator::Sheaves => AllocState::Sheaves(super::sheaves::SheavesState {
                pcs: Vec::new(),
                sheaves: Vec::new(),
                barns: vec![Default::default(); cfg.sc.nodes as usize],
                held: Vec::new(),
                isolated: Vec::new(),
            }),
            Allocator::Slab => {
                // `Config::from_scenario` made the layout of every SLAB scenario.
                let l = cfg
                    .slab
                    .clone()
                    .unwrap_or_else(|| super::slab::SlabLayout::of(&cfg.sc));
                AllocState::Slab(super::slab::SlabState::new(
                    &l,
                    &cfg.cpu_node,
                    cfg.sc.nodes,
                    cfg.objects,
                ))
            }
        }
    }

    /// What the allocator sets up when the cache is created, before the scenario's setup.
    pub(super) fn create_cache(&mut self) {
        match self.allocator() {
            Allocator::Slub | Allocator::Slab => {}
            Allocator::Sheaves => self.init_sheaves(),
        }
    }

    /// The entry frame of an op.
    pub(super) fn op_frame(&self, call: OpCall) -> Frame {
        match self.allocator() {
            Allocator::Slub => super::slub::op_frame(call),
            Allocator::Sheaves => super::sheaves::op_frame(call),
            Allocator::Slab => super::slab::op_frame(call),
        }
    }

    /// Run one label of a frame of the allocator's kernel functions.
    #[inline]
    pub(super) fn exec(&mut self, fr: &mut Frame) -> Flow {
        match self.allocator() {
            Allocator::Slub => self.exec_slub(fr),
            Allocator::Sheaves => self.exec_sheaves(fr),
            Allocator::Slab => self.exec_slab(fr),
        }
    }

    /// The lock the frame's next step waits for, if another context holds it.
    #[inline]
    pub(super) fn lock_wait(&self, cx: CtxId, fr: &Frame) -> Option<Block> {
        match self.allocator() {
            Allocator::Slub => self.slub_lock_wait(cx, fr),
            Allocator::Sheaves => self.sheaves_lock_wait(cx, fr),
            Allocator::Slab => self.slab_lock_wait(cx, fr),
        }
    }

    /// Whether the frame stands at a point where its task may sleep (the page allocator with
    /// `__GFP_WAIT`): a non-preemptible kernel switches tasks only there.
    pub(super) fn at_sleep_point(&self, fr: &Frame) -> bool {
        match self.allocator() {
            Allocator::Slub => super::slub::at_sleep_point(fr),
            Allocator::Sheaves => super::sheaves::at_sleep_point(fr),
            Allocator::Slab => super::slab::at_sleep_point(fr),
        }
    }

    /// The allocator's invariants after a step.
    pub(super) fn check_step_invariants(&mut self) {
        match self.allocator() {
            Allocator::Slub => self.check_invariants(),
            Allocator::Sheaves => self.check_sheaves_invariants(),
            Allocator::Slab => self.check_slab_invariants(),
        }
    }

    /// The allocator's end-of-run identities.
    pub(super) fn check_end_of_run(&mut self) {
        match self.allocator() {
            Allocator::Slub => self.check_end(),
            Allocator::Sheaves => self.check_sheaves_end(),
            Allocator::Slab => self.check_slab_end(),
        }
    }
}
