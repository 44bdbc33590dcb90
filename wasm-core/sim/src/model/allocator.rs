//! The allocator seam: the questions the shared machine (executor, machine, views, driver)
//! asks of the allocator a scenario runs, one `match` per question and one arm per allocator,
//! with the allocator's arm of the state (`AllocState`). The allocators answer in their own
//! modules (`slub`, `slab`, `sheaves`); `state`, `core` and `config` lie below the seam, and
//! none of them nor the executor names an allocator: an allocator's geometry of cache lines is
//! data in `config.rs` (`Layout`), and the op a context starts (`OpCall`) is in `state.rs`.
//! Adding an allocator adds its module and an arm to each match here (the compiler lists
//! them): see `docs/adding-an-allocator.md`.

use super::config::{Config, SlabLayout};
use super::sheaves::SheavesState;
use super::slab::SlabState;
use super::slub::SlubState;
use super::state::*;
use super::{Block, Core, Fault, Flow};
use crate::scenario::Allocator;
use crate::view::{CpuView, LineHolds, NodeView, ObjectOwner, SheafView, SlabView};

/// The state of the allocator a scenario runs beyond the shared `Cpu`, `Node` and `Page`
/// structures: one arm per allocator, each owned by its module.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AllocState {
    /// SLUB's `kmem_cache_cpu`s and its fields of every slab (`model::slub`).
    Slub(SlubState),
    /// SLAB's arrays, slab lists and index-array freelists (`model::slab`).
    Slab(SlabState),
    /// Linux 7.0's per-CPU sheaves and per-node barns, and SLUB's fields of every slab
    /// (`model::sheaves`).
    Sheaves(SheavesState),
}

impl AllocState {
    /// About how many bytes the allocator's state holds beyond its own size (its main
    /// vectors: per CPU, per slab, per sheaf), for `Machine::approx_bytes`.
    // Sizes times lengths of vectors in memory: far below `usize::MAX`.
    #[allow(clippy::arithmetic_side_effects)]
    pub(super) fn approx_bytes(&self) -> usize {
        use super::heap_block as b;
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

impl AllocState {
    /// The allocator's own state in a new machine.
    pub(super) fn new(cfg: &Config) -> AllocState {
        match cfg.sc.allocator {
            Allocator::Slub => AllocState::Slub(SlubState::new(cfg.cpus)),
            Allocator::Sheaves => AllocState::Sheaves(SheavesState {
                pcs: Vec::new(),
                sheaves: Vec::new(),
                barns: vec![Default::default(); cfg.sc.nodes as usize],
                held: Vec::new(),
                isolated: Vec::new(),
                pages: Vec::new(),
            }),
            Allocator::Slab => {
                // `Config::from_scenario` made the layout of every SLAB scenario.
                let l = (cfg.layout.slab().cloned()).unwrap_or_else(|| SlabLayout::of(&cfg.sc));
                AllocState::Slab(SlabState::new(&l, &cfg.cpu_node, cfg.sc.nodes, cfg.objects))
            }
        }
    }

    /// What the allocator sets up when the cache is created, before the scenario's setup.
    pub(super) fn create_cache(&mut self, core: &mut Core) {
        match self {
            AllocState::Slub(_) | AllocState::Slab(_) => {}
            AllocState::Sheaves(st) => st.init(core),
        }
    }

    /// The entry frame of an op.
    pub(super) fn op_frame(&self, call: OpCall) -> Frame {
        match self {
            AllocState::Slub(_) => super::slub::op_frame(call),
            AllocState::Sheaves(_) => super::sheaves::op_frame(call),
            AllocState::Slab(_) => super::slab::op_frame(call),
        }
    }

    /// The entry frame of SLAB's `tune` op (`do_tune_cpucache`'s node part); `None` under an
    /// allocator without a shared array (`scenario::validate` refuses the op there).
    pub(super) fn tune_frame(&self) -> Option<Frame> {
        match self {
            AllocState::Slab(_) => Some(super::slab::tune_frame()),
            AllocState::Slub(_) | AllocState::Sheaves(_) => None,
        }
    }

    /// Run one label of a frame: the user's `touch` (the same under every allocator) or one of
    /// the allocator's kernel functions.
    #[inline]
    pub(super) fn exec(&mut self, core: &mut Core, fr: &mut Frame) -> Flow {
        if let Frame::Touch { l, .. } = fr {
            return l.exec(core);
        }
        match self {
            AllocState::Slub(st) => st.exec(core, fr),
            AllocState::Sheaves(st) => st.exec(core, fr),
            AllocState::Slab(st) => st.exec(core, fr),
        }
    }

    /// The lock the frame's next step waits for, if another context holds it.
    #[inline]
    pub(super) fn lock_wait(&self, core: &Core, cx: CtxId, fr: &Frame) -> Option<Block> {
        match self {
            AllocState::Slub(st) => st.lock_wait(core, cx, fr),
            AllocState::Sheaves(st) => st.sheaves_lock_wait(core, cx, fr),
            AllocState::Slab(st) => st.lock_wait(core, cx, fr),
        }
    }

    /// Whether the frame stands at a point where its task may sleep (the page allocator with
    /// `__GFP_WAIT`): a non-preemptible kernel switches tasks only there.
    pub(super) fn at_sleep_point(&self, fr: &Frame) -> bool {
        match self {
            AllocState::Slub(_) => super::slub::at_sleep_point(fr),
            AllocState::Sheaves(_) => super::sheaves::at_sleep_point(fr),
            AllocState::Slab(_) => super::slab::at_sleep_point(fr),
        }
    }

    /// After each step: SLAB's pending grace periods learn which CPUs turned interrupts on.
    pub(super) fn quiescent(&mut self, core: &mut Core) {
        if let AllocState::Slab(sb) = self {
            sb.quiescent(core);
        }
    }

    /// The allocator's per-CPU structure in CPU k's view.
    pub(super) fn fill_cpu_view(&self, core: &Core, k: u32, v: &mut CpuView) {
        match self {
            AllocState::Slub(st) => st.cpu_view(core, k, v),
            AllocState::Sheaves(st) => v.sheaves = Some(st.pcs_view(core, k)),
            AllocState::Slab(st) => v.array_cache = Some(st.cpu_array_view(core, k)),
        }
    }

    /// The allocator's own structures of node n in its view (SLAB's lists and shared array,
    /// 7.0's barn; SLUB's node is all shared). `blocked` says why a context waits.
    pub(super) fn fill_node_view(
        &self,
        core: &Core,
        n: u32,
        v: &mut NodeView,
        blocked: impl Fn(CtxId) -> Option<Block>,
    ) {
        match self {
            AllocState::Slub(_) => {}
            AllocState::Sheaves(st) => v.barn = Some(st.barn_view(core, n, blocked)),
            AllocState::Slab(st) => v.slab = Some(st.slab_node_view(core, n)),
        }
    }

    /// The allocator's fields of slab `s` in its view.
    pub(super) fn fill_slab_view(&self, core: &Core, s: SlabId, v: &mut SlabView) {
        match self {
            AllocState::Slub(st) => st.slab_view(core, s, v),
            AllocState::Sheaves(st) => st.slab_view(core, s, v),
            AllocState::Slab(st) => st.slab_slab_view(core, s, v),
        }
    }

    /// Who holds each object.
    pub(super) fn object_owners(&self, core: &Core) -> ObjectOwners<'_> {
        match self {
            AllocState::Slub(st) => ObjectOwners::Slub(st),
            AllocState::Sheaves(st) => ObjectOwners::Sheaves(st),
            AllocState::Slab(st) => ObjectOwners::All(st.slab_object_owners(core)),
        }
    }

    /// Linux 7.0: the sheaves neither on a CPU nor in a barn nor freed; `None` under another
    /// allocator.
    pub(super) fn loose_sheaves(&self, core: &Core) -> Option<Vec<SheafView>> {
        match self {
            AllocState::Sheaves(st) => Some(st.loose_sheaves(core)),
            AllocState::Slub(_) | AllocState::Slab(_) => None,
        }
    }

    /// The name of line `l` if it is one of the allocator's own (SLAB's arrays, 7.0's barns
    /// and sheaves); `None` for the lines every allocator lays out alike (`view`).
    pub(super) fn own_line_name(&self, core: &Core, l: u32) -> Option<String> {
        match self {
            AllocState::Slub(_) => None,
            AllocState::Sheaves(st) => st.sheaves_line_name(core, l),
            AllocState::Slab(st) => st.slab_line_name(core, l),
        }
    }

    /// What line `l` holds if it is one of the allocator's own (as `own_line_name`).
    pub(super) fn own_line_holds(&self, core: &Core, l: u32) -> Option<LineHolds> {
        match self {
            AllocState::Slub(_) => None,
            AllocState::Sheaves(st) => st.sheaves_line_holds(core, l),
            AllocState::Slab(st) => st.slab_line_holds(core, l),
        }
    }

    /// The allocator's invariants after a step.
    pub(super) fn check_step_invariants(&mut self, core: &mut Core) {
        match self {
            AllocState::Slub(st) => st.check_invariants(core),
            AllocState::Sheaves(st) => st.check_sheaves_invariants(core),
            AllocState::Slab(st) => st.check_slab_invariants(core),
        }
    }

    /// The allocator's end-of-run identities.
    pub(super) fn check_end_of_run(&mut self, core: &mut Core) {
        match self {
            AllocState::Slub(st) => st.check_end(core),
            AllocState::Sheaves(st) => st.check_sheaves_end(core),
            AllocState::Slab(st) => st.check_slab_end(core),
        }
    }

    /// SLUB: the names of the slabs exempt from INV-5/6/9 right now (`SlubState`'s); none
    /// under another allocator.
    pub(super) fn slabs_held_by_ops(&self, core: &Core) -> Vec<String> {
        match self {
            AllocState::Slub(st) => st.slabs_held_by_ops(core),
            AllocState::Sheaves(_) | AllocState::Slab(_) => Vec::new(),
        }
    }
}

/// Who holds each object, as the allocator answers it (`AllocState::object_owners`): SLAB
/// finds every object's owner in one pass over its arrays and lists; SLUB and 7.0 answer one
/// object at a time.
pub(super) enum ObjectOwners<'a> {
    /// Slab by slab, each slab's objects in order.
    All(Vec<ObjectOwner>),
    /// SLUB, asked for each object.
    Slub(&'a SlubState),
    /// Linux 7.0, asked for each object.
    Sheaves(&'a SheavesState),
}

impl ObjectOwners<'_> {
    /// The owner of object `i` of slab `s`.
    pub(super) fn of(&self, core: &Core, s: SlabId, i: u32) -> ObjectOwner {
        match self {
            ObjectOwners::All(v) => {
                let index = (s as usize)
                    .saturating_mul(core.cfg.objects as usize)
                    .saturating_add(i as usize);
                v.get(index).cloned().unwrap_or_else(|| {
                    core.fault(Fault::NoSuch("object", core.obj_addr(s, i)));
                    ObjectOwner::Lost
                })
            }
            ObjectOwners::Slub(st) => st.object_owner(core, core.obj_addr(s, i)),
            ObjectOwners::Sheaves(st) => st.object_owner(core, core.obj_addr(s, i)),
        }
    }
}
