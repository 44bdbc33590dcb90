//! SLUB's per-CPU primitives (model.md §2.1): the `kmem_cache_cpu` loads and stores with the
//! per-CPU double CAS of the fast paths and the INV-12 snapshot, as `impl SlubState` given the
//! core (its lines, their cost, the event). The slab level's (the pair's double CAS, the node
//! partial list) are in `slab_page`, which Linux 7.0 shares.

use super::super::cost;
use super::super::memory::Access;
use super::super::state::*;
use super::super::Core;
use super::SlubState;
use crate::event::CasHalf;
use crate::model::locals::Snapshot;

impl SlubState {
    // ----- kmem_cache_cpu fields (of CPU `c`, which may not be the executing CPU) -----

    pub(in crate::model) fn ld_tid(&mut self, core: &mut Core, c: u32) -> u64 {
        core.access(core.cfg.line_cc(c), Access::Read);
        self.cpu_slab(core, c).tid
    }
    pub(in crate::model) fn ld_freelist(&mut self, core: &mut Core, c: u32) -> Addr {
        core.access(core.cfg.line_cc(c), Access::Read);
        self.cpu_slab(core, c).freelist
    }
    pub(in crate::model) fn ld_page(&mut self, core: &mut Core, c: u32) -> Option<SlabId> {
        core.access(core.cfg.line_cc(c), Access::Read);
        self.cpu_slab(core, c).page
    }
    pub(in crate::model) fn ld_partial(&mut self, core: &mut Core, c: u32) -> Option<SlabId> {
        core.access(core.cfg.line_cc(c), Access::Read);
        self.cpu_slab(core, c).partial
    }
    pub(in crate::model) fn st_freelist(&mut self, core: &mut Core, c: u32, v: Addr) {
        core.access(core.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_slab_mut(core, c) {
            cpu.freelist = v;
            cpu.ghost_version.bump();
        }
    }
    pub(in crate::model) fn st_page(&mut self, core: &mut Core, c: u32, v: Option<SlabId>) {
        core.access(core.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_slab_mut(core, c) {
            cpu.page = v;
            cpu.ghost_version.bump();
        }
    }
    pub(in crate::model) fn st_partial(&mut self, core: &mut Core, c: u32, v: Option<SlabId>) {
        core.access(core.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_slab_mut(core, c) {
            cpu.partial = v;
        }
    }
    /// `next_tid`: the kernel's tid is an `unsigned long` that wraps, and so does this one.
    pub(in crate::model) fn bump_tid(&mut self, core: &mut Core, c: u32) {
        core.access(core.cfg.line_cc(c), Access::Write);
        let step = core.cfg.tid_step;
        if let Some(cpu) = self.cpu_slab_mut(core, c) {
            cpu.tid = cpu.tid.wrapping_add(step);
        }
    }

    /// `this_cpu_cmpxchg_double` on the executing CPU's (freelist, tid): no LOCK prefix, atomic
    /// only against this CPU (model.md §2.1). `with_tid` false is the broken `no-tid` control.
    /// Checks INV-12 on success: the CPU and ghost version must be the ones snapshotted when the
    /// compared value was read.
    pub(in crate::model) fn pcas2(
        &mut self,
        core: &mut Core,
        snap: Snapshot,
        old: (Addr, u64),
        new: (Addr, u64),
        with_tid: bool,
    ) -> bool {
        let k = core.me();
        core.atomic(core.cfg.line_cc(k), cost::Id::PercpuCmpxchg16b);
        let (fl, tid) = (self.cpu_slab(core, k).freelist, self.cpu_slab(core, k).tid);
        let ok = fl == old.0 && (!with_tid || tid == old.1);
        core.set_ok(ok);
        if !ok && core.recording() {
            let mut halves = vec![CasHalf {
                field: "freelist".into(),
                expected: core.addr_name(old.0),
                actual: core.addr_name(fl),
            }];
            if with_tid {
                halves.push(CasHalf {
                    field: "tid".into(),
                    expected: old.1.to_string(),
                    actual: tid.to_string(),
                });
            }
            core.ev_halves(halves);
        }
        if ok {
            self.check_snapshot(core, snap, k);
            if with_tid && snap.cpu != k {
                // INV-11: the tid this CAS commits (`tid + TID_STEP`) must have been read on
                // the CPU whose tid it replaces; only a forced TID_STEP (SC4) lets it pass.
                let msg = format!(
                    "{} committed on cpu{k} a tid it read from cpu{}: per-CPU tids collide (TID_STEP {})",
                    core.ctx_name(core.cur),
                    snap.cpu,
                    core.cfg.tid_step
                );
                core.violate("INV-11", msg);
            }
            if let Some(cpu) = self.cpu_slab_mut(core, k) {
                cpu.freelist = new.0;
                if with_tid {
                    cpu.tid = new.1;
                }
                cpu.ghost_version.bump();
            }
        }
        ok
    }

    /// INV-12: a successful lockless update of CPU k's freelist must come from a snapshot of
    /// CPU k taken with no change to its freelist or slab since.
    pub(in crate::model) fn check_snapshot(&mut self, core: &mut Core, snap: Snapshot, k: u32) {
        let now = self.cpu_slab(core, k).ghost_version;
        if snap.cpu != k {
            let msg = format!(
                "the lockless update of cpu{k}'s freelist succeeded with a snapshot taken from cpu{}: \
                 {} acted on a CPU other than the one it read",
                snap.cpu,
                core.ctx_name(core.cur)
            );
            core.violate("INV-12", msg);
        } else if now != snap.version {
            let msg = format!(
                "the lockless update of cpu{k}'s freelist succeeded although cpu{k}'s freelist or slab \
                 changed {} time(s) since {} read it: a stale snapshot was accepted (ABA)",
                // Versions only grow: the difference is the number of changes.
                now.wrapping_sub(snap.version),
                core.ctx_name(core.cur)
            );
            core.violate("INV-12", msg);
        }
    }

    /// Take the ghost snapshot for INV-12 (when the value the CAS compares is read: the tid, or
    /// the freelist head in the variants that compare only the head).
    pub(in crate::model) fn snapshot(&self, core: &Core, k: u32) -> Snapshot {
        Snapshot {
            cpu: k,
            version: self.cpu_slab(core, k).ghost_version,
        }
    }
}
