//! The allocator seam: the questions the shared machine (executor, views) asks of the
//! allocator a scenario runs, one `match` per question and one arm per allocator, with the
//! allocator's arm of the state (`AllocState`). The allocators answer in their own modules
//! (`slub`, `slab`, `sheaves`); the ground floor (`state`, `core`, `config`, `executor`) knows
//! none of them: an allocator's geometry of cache lines is data in `config.rs` (`Layout`), and
//! the op a context starts (`OpCall`) is in `state.rs`.
//! Adding an allocator adds its module and an arm to each match here (the compiler lists
//! them): see `docs/adding-an-allocator.md`.

use super::executor::Block;
use super::state::*;
use super::{Flow, Machine};
use crate::scenario::Allocator;

/// The state of the allocator a scenario runs beyond the shared `Cpu`, `Node` and `Page`
/// structures: one arm per allocator, each owned by its module.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AllocState {
    /// SLUB's `kmem_cache_cpu`s and its fields of every slab (`model::slub`).
    Slub(super::slub::SlubState),
    /// SLAB's arrays, slab lists and index-array freelists (`model::slab`).
    Slab(super::slab::SlabState),
    /// Linux 7.0's per-CPU sheaves and per-node barns, and SLUB's fields of every slab
    /// (`model::sheaves`).
    Sheaves(super::sheaves::SheavesState),
}

/// An allocator's own arm of `AllocState`, which its code reaches through `Machine::own` (a
/// read) and `own_mut` (a write). Only an allocator's code runs under it: finding another arm
/// is an internal error of the model, noted (`WRONG`), with an empty stand-in for a read and
/// `None` for a write.
pub(super) trait OwnState: 'static {
    /// The internal error when the arm is not there.
    const WRONG: &'static str;
    fn arm(a: &AllocState) -> Option<&Self>;
    fn arm_mut(a: &mut AllocState) -> Option<&mut Self>;
    /// An empty state, for a read that found another arm.
    fn stand_in() -> &'static Self;
}

/// `OwnState` for `$state`, the allocator state in the arm `AllocState::$arm`, with the
/// internal error `$wrong` and the empty `$stand_in`.
macro_rules! own_state {
    ($state:ty, $arm:ident, $wrong:expr, $stand_in:expr) => {
        impl OwnState for $state {
            const WRONG: &'static str = $wrong;
            fn arm(a: &$crate::model::allocator::AllocState) -> Option<&$state> {
                match a {
                    $crate::model::allocator::AllocState::$arm(s) => Some(s),
                    _ => None,
                }
            }
            fn arm_mut(a: &mut $crate::model::allocator::AllocState) -> Option<&mut $state> {
                match a {
                    $crate::model::allocator::AllocState::$arm(s) => Some(s),
                    _ => None,
                }
            }
            fn stand_in() -> &'static $state {
                static STAND_IN: $state = $stand_in;
                &STAND_IN
            }
        }
    };
}
pub(super) use own_state;

/// `Machine::own_mut` on the fields alone, for a lookup that also borrows the fault slot.
pub(super) fn own_mut<'a, S: OwnState>(
    fault: &std::cell::Cell<Option<super::Fault>>,
    alloc: &'a mut AllocState,
) -> Option<&'a mut S> {
    let arm = S::arm_mut(alloc);
    if arm.is_none() {
        super::prims::note_fault(fault, super::Fault::Broken(S::WRONG));
    }
    arm
}

impl Machine {
    /// The running allocator's own state (see `OwnState`).
    pub(super) fn own<S: OwnState>(&self) -> &S {
        S::arm(&self.alloc).unwrap_or_else(|| {
            self.core.fault(super::Fault::Broken(S::WRONG));
            S::stand_in()
        })
    }
    #[cfg(test)]
    pub(super) fn own_mut<S: OwnState>(&mut self) -> Option<&mut S> {
        own_mut(&self.core.fault, &mut self.alloc)
    }
}

impl AllocState {
    /// About how many bytes the allocator's state holds beyond its own size (its main
    /// vectors: per CPU, per slab, per sheaf), for `Machine::approx_bytes`.
    // Sizes times lengths of vectors in memory: far below `usize::MAX`.
    #[allow(clippy::arithmetic_side_effects)]
    pub(super) fn approx_bytes(&self) -> usize {
        use super::driver::heap_block as b;
        use std::mem::size_of_val as sz;
        match self {
            AllocState::Slub(s) => b(sz(&*s.cpu_slab)) + b(sz(&*s.pages)),
            AllocState::Slab(s) => {
                let arrays: usize = s.ac.iter().map(|a| b(sz(&*a.entry))).sum();
                let bufctls: usize = s.pages.iter().map(|p| b(sz(&*p.bufctl))).sum();
                b(sz(&*s.ac)) + b(sz(&*s.pages)) + arrays + bufctls
            }
            AllocState::Sheaves(s) => {
                let slots: usize = s.sheaves.iter().map(|h| b(sz(&*h.slots))).sum();
                let barns: usize = s
                    .barns
                    .iter()
                    .map(|n| b(sz(&*n.full)) + b(sz(&*n.empty)))
                    .sum();
                b(sz(&*s.pcs))
                    + b(sz(&*s.sheaves))
                    + b(sz(&*s.pages))
                    + slots
                    + b(sz(&*s.barns))
                    + barns
                    + b(sz(&*s.held))
                    + b(sz(&*s.isolated))
            }
        }
    }
}

impl Machine {
    pub(super) fn allocator(&self) -> Allocator {
        self.core.cfg.sc.allocator
    }

    /// The allocator's own state in a new machine.
    pub(super) fn initial_alloc_state(cfg: &super::Config) -> AllocState {
        match cfg.sc.allocator {
            Allocator::Slub => AllocState::Slub(super::slub::SlubState::new(cfg.cpus)),
            Allocator::Sheaves => AllocState::Sheaves(super::sheaves::SheavesState {
                pcs: Vec::new(),
                sheaves: Vec::new(),
                barns: vec![Default::default(); cfg.sc.nodes as usize],
                held: Vec::new(),
                isolated: Vec::new(),
                pages: Vec::new(),
            }),
            Allocator::Slab => {
                // `Config::from_scenario` made the layout of every SLAB scenario.
                let l = (cfg.layout.slab().cloned())
                    .unwrap_or_else(|| super::config::SlabLayout::of(&cfg.sc));
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
            Allocator::Sheaves => {
                let Machine { core, alloc } = self;
                if let Some(st) = own_mut::<super::sheaves::SheavesState>(&core.fault, alloc) {
                    st.init(core);
                }
            }
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

    /// The entry frame of SLAB's `tune` op (`do_tune_cpucache`'s node part); `None` under an
    /// allocator without a shared array (`scenario::validate` refuses the op there).
    pub(super) fn tune_frame(&self) -> Option<Frame> {
        match self.allocator() {
            Allocator::Slab => Some(super::slab::tune_frame()),
            Allocator::Slub | Allocator::Sheaves => None,
        }
    }

    /// Run one label of a frame: the user's `touch` (the same under every allocator) or one of
    /// the allocator's kernel functions.
    #[inline]
    pub(super) fn exec(&mut self, fr: &mut Frame) -> Flow {
        if let Frame::Touch { l, .. } = fr {
            return l.exec(&mut self.core);
        }
        // The machine's two fields, borrowed apart: the allocator's state and the core beside it.
        let Machine { core, alloc } = self;
        match alloc {
            AllocState::Slub(st) => st.exec(core, fr),
            AllocState::Sheaves(st) => st.exec(core, fr),
            AllocState::Slab(st) => st.exec(core, fr),
        }
    }

    /// The lock the frame's next step waits for, if another context holds it.
    #[inline]
    pub(super) fn lock_wait(&self, cx: CtxId, fr: &Frame) -> Option<Block> {
        match self.allocator() {
            Allocator::Slub => self.slub_lock_wait(cx, fr),
            Allocator::Sheaves => self.sheaves_state().sheaves_lock_wait(&self.core, cx, fr),
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

    /// The allocator's per-CPU structure in CPU k's view.
    pub(super) fn fill_cpu_view(&self, k: u32, v: &mut crate::view::CpuView) {
        match self.allocator() {
            Allocator::Slub => self.slub_cpu_view(k, v),
            Allocator::Sheaves => v.sheaves = Some(self.sheaves_state().pcs_view(&self.core, k)),
            Allocator::Slab => {
                v.array_cache = Some(self.slab_state().cpu_array_view(&self.core, k))
            }
        }
    }

    /// The allocator's own structures of node n in its view (SLAB's lists and shared array,
    /// 7.0's barn; SLUB's node is all shared).
    pub(super) fn fill_node_view(&self, n: u32, v: &mut crate::view::NodeView) {
        match self.allocator() {
            Allocator::Slub => {}
            Allocator::Sheaves => {
                let st = self.sheaves_state();
                v.barn = Some(st.barn_view(&self.core, n, |c| self.blocked(c)))
            }
            Allocator::Slab => v.slab = Some(self.slab_state().slab_node_view(&self.core, n)),
        }
    }

    /// The allocator's fields of slab `s` in its view.
    pub(super) fn fill_slab_view(&self, s: SlabId, v: &mut crate::view::SlabView) {
        match self.allocator() {
            Allocator::Slub => self.slub_slab_view(s, v),
            Allocator::Sheaves => self.sheaves_slab_view(s, v),
            Allocator::Slab => self.slab_state().slab_slab_view(&self.core, s, v),
        }
    }

    /// Who holds each object.
    pub(super) fn object_owners(&self) -> super::view::ObjectOwners {
        use super::view::ObjectOwners;
        match self.allocator() {
            Allocator::Slub => ObjectOwners::Each(Machine::slub_object_owner),
            Allocator::Sheaves => ObjectOwners::Each(Machine::sheaves_object_owner),
            Allocator::Slab => ObjectOwners::All(self.slab_state().slab_object_owners(&self.core)),
        }
    }

    /// The name of line `l` if it is one of the allocator's own (SLAB's arrays, 7.0's barns
    /// and sheaves); `None` for the lines every allocator lays out alike (`view`).
    pub(super) fn own_line_name(&self, l: u32) -> Option<String> {
        match self.allocator() {
            Allocator::Slub => None,
            Allocator::Sheaves => self.sheaves_state().sheaves_line_name(&self.core, l),
            Allocator::Slab => self.slab_state().slab_line_name(&self.core, l),
        }
    }

    /// What line `l` holds if it is one of the allocator's own (as `own_line_name`).
    pub(super) fn own_line_holds(&self, l: u32) -> Option<crate::view::LineHolds> {
        match self.allocator() {
            Allocator::Slub => None,
            Allocator::Sheaves => self.sheaves_state().sheaves_line_holds(&self.core, l),
            Allocator::Slab => self.slab_state().slab_line_holds(&self.core, l),
        }
    }

    /// The allocator's invariants after a step.
    pub(super) fn check_step_invariants(&mut self) {
        match self.allocator() {
            Allocator::Slub => self.check_invariants(),
            Allocator::Sheaves => {
                let Machine { core, alloc } = self;
                if let Some(st) = own_mut::<super::sheaves::SheavesState>(&core.fault, alloc) {
                    st.check_sheaves_invariants(core);
                }
            }
            Allocator::Slab => {
                let Machine { core, alloc } = self;
                if let Some(sb) = own_mut::<super::slab::SlabState>(&core.fault, alloc) {
                    sb.check_slab_invariants(core);
                }
            }
        }
    }

    /// The allocator's end-of-run identities.
    pub(super) fn check_end_of_run(&mut self) {
        match self.allocator() {
            Allocator::Slub => self.check_end(),
            Allocator::Sheaves => {
                let Machine { core, alloc } = self;
                if let Some(st) = own_mut::<super::sheaves::SheavesState>(&core.fault, alloc) {
                    st.check_sheaves_end(core);
                }
            }
            Allocator::Slab => {
                let Machine { core, alloc } = self;
                if let Some(sb) = own_mut::<super::slab::SlabState>(&core.fault, alloc) {
                    sb.check_slab_end(core);
                }
            }
        }
    }
}
