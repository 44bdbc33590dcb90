//! The simulated machine: the core every allocator uses and the running allocator's state,
//! with what the Lab's driver reads of the core from outside the model. Its steps are the
//! executor's (`executor.rs`), its questions to the allocator the seam's (`allocator.rs`).

use super::allocator::AllocState;
use super::core::memory;
use super::state::*;
use super::Core;
use crate::event::Event;

/// The simulated machine: what every allocator uses and none owns ([`Core`]), and the state of
/// the allocator the scenario runs ([`AllocState`], one arm per allocator). Together they are
/// the whole state the explorer hashes (`Machine::hash_state`).
#[derive(Clone, Debug)]
pub struct Machine {
    pub(in crate::model) core: Core,
    /// The allocator's own state beyond the shared structures of `core.st`.
    pub(in crate::model) alloc: AllocState,
}

/// What the Lab's driver (`slub-lab-core`) reads and touches of the core from outside the
/// model: the memory a workload's own code uses between ops, and its lookups.
impl Machine {
    /// [`Core::access`] from the stepping CPU.
    pub fn access(&mut self, line: u32, acc: memory::Access) -> u64 {
        self.core.access(line, acc)
    }
    /// [`Core::pass_time`].
    pub fn pass_time(&mut self, k: u32, cycles: u64) {
        self.core.pass_time(k, cycles)
    }
    /// [`Core::spin_read`].
    pub fn spin_read(&mut self, k: u32, line: u32) -> bool {
        self.core.spin_read(k, line)
    }
    /// [`Core::var`].
    pub fn var(&self, v: usize) -> &Var {
        self.core.var(v)
    }
    /// [`Core::slab_of`].
    pub fn slab_of(&self, a: Addr) -> Option<SlabId> {
        self.core.slab_of(a)
    }
    /// [`Core::obj_line`].
    pub fn obj_line(&self, s: SlabId, i: u32) -> u32 {
        self.core.obj_line(s, i)
    }
}

/// The allocator's checks, which the executor runs after each step and at the end of a run
/// (`AllocState`'s).
impl Machine {
    /// The allocator's invariants after a step.
    pub(in crate::model) fn check_step_invariants(&mut self) {
        self.alloc.check_step_invariants(&mut self.core)
    }
    /// The allocator's end-of-run identities.
    pub(in crate::model) fn check_end_of_run(&mut self) {
        self.alloc.check_end_of_run(&mut self.core)
    }
    /// SLUB: the names of the slabs exempt from INV-5/6/9 right now; none under another
    /// allocator.
    pub fn slabs_held_by_ops(&self) -> Vec<String> {
        self.alloc.slabs_held_by_ops(&self.core)
    }
}

impl Machine {
    /// Describe the step being taken. The closure runs only when events are recorded.
    #[inline]
    pub fn ev(&mut self, f: impl FnOnce(&Machine, &mut Event)) {
        if let Some(mut r) = self.core.rec.take() {
            f(self, &mut r.cur);
            self.core.rec = Some(r);
        }
    }
}
