//! SLUB's per-CPU primitives (model.md §2.1): the `kmem_cache_cpu` loads and stores with the
//! per-CPU double CAS of the fast paths and the INV-12 snapshot. The slab level's (the pair's
//! double CAS, the node partial list) are in `slab_page`, which Linux 7.0 shares.

use super::super::cost;
use super::super::memory::Access;
use super::super::state::*;
use super::super::Machine;
use crate::event::CasHalf;

/// Ghost (INV-12): the CPU and the version of its `kmem_cache_cpu` snapshotted when the value
/// a fast path's CAS compares was read (the tid, or the head under `no-tid` /
/// `cmpxchg-local*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Snapshot {
    pub cpu: u32,
    pub version: u64,
}

impl Machine {
    // ----- kmem_cache_cpu fields (of CPU `c`, which may not be the executing CPU) -----

    pub fn ld_tid(&mut self, c: u32) -> u64 {
        self.core.access(self.core.cfg.line_cc(c), Access::Read);
        self.cpu_slab(c).tid
    }
    pub fn ld_freelist(&mut self, c: u32) -> Addr {
        self.core.access(self.core.cfg.line_cc(c), Access::Read);
        self.cpu_slab(c).freelist
    }
    pub fn ld_page(&mut self, c: u32) -> Option<SlabId> {
        self.core.access(self.core.cfg.line_cc(c), Access::Read);
        self.cpu_slab(c).page
    }
    pub fn ld_partial(&mut self, c: u32) -> Option<SlabId> {
        self.core.access(self.core.cfg.line_cc(c), Access::Read);
        self.cpu_slab(c).partial
    }
    pub fn st_freelist(&mut self, c: u32, v: Addr) {
        self.core.access(self.core.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_slab_mut(c) {
            cpu.freelist = v;
            cpu.ghost_version.bump();
        }
    }
    pub fn st_page(&mut self, c: u32, v: Option<SlabId>) {
        self.core.access(self.core.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_slab_mut(c) {
            cpu.page = v;
            cpu.ghost_version.bump();
        }
    }
    pub fn st_partial(&mut self, c: u32, v: Option<SlabId>) {
        self.core.access(self.core.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_slab_mut(c) {
            cpu.partial = v;
        }
    }
    /// `next_tid`: the kernel's tid is an `unsigned long` that wraps, and so does this one.
    pub fn bump_tid(&mut self, c: u32) {
        self.core.access(self.core.cfg.line_cc(c), Access::Write);
        let step = self.core.cfg.tid_step;
        if let Some(cpu) = self.cpu_slab_mut(c) {
            cpu.tid = cpu.tid.wrapping_add(step);
        }
    }

    /// `this_cpu_cmpxchg_double` on the executing CPU's (freelist, tid): no LOCK prefix, atomic
    /// only against this CPU (model.md §2.1). `with_tid` false is the broken `no-tid` control.
    /// Checks INV-12 on success: the CPU and ghost version must be the ones snapshotted when the
    /// compared value was read.
    pub fn pcas2(
        &mut self,
        snap: Snapshot,
        old: (Addr, u64),
        new: (Addr, u64),
        with_tid: bool,
    ) -> bool {
        let k = self.core.me();
        self.core
            .atomic(self.core.cfg.line_cc(k), cost::Id::PercpuCmpxchg16b);
        let (fl, tid) = (self.cpu_slab(k).freelist, self.cpu_slab(k).tid);
        let ok = fl == old.0 && (!with_tid || tid == old.1);
        self.core.set_ok(ok);
        if !ok && self.core.recording() {
            let mut halves = vec![CasHalf {
                field: "freelist".into(),
                expected: self.core.addr_name(old.0),
                actual: self.core.addr_name(fl),
            }];
            if with_tid {
                halves.push(CasHalf {
                    field: "tid".into(),
                    expected: old.1.to_string(),
                    actual: tid.to_string(),
                });
            }
            self.core.ev_halves(halves);
        }
        if ok {
            self.check_snapshot(snap, k);
            if with_tid && snap.cpu != k {
                // INV-11: the tid this CAS commits (`tid + TID_STEP`) must have been read on
                // the CPU whose tid it replaces; only a forced TID_STEP (SC4) lets it pass.
                let msg = format!(
                    "{} committed on cpu{k} a tid it read from cpu{}: per-CPU tids collide (TID_STEP {})",
                    self.core.ctx_name(self.core.cur),
                    snap.cpu,
                    self.core.cfg.tid_step
                );
                self.core.violate("INV-11", msg);
            }
            if let Some(cpu) = self.cpu_slab_mut(k) {
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
    pub fn check_snapshot(&mut self, snap: Snapshot, k: u32) {
        let now = self.cpu_slab(k).ghost_version;
        if snap.cpu != k {
            let msg = format!(
                "the lockless update of cpu{k}'s freelist succeeded with a snapshot taken from cpu{}: \
                 {} acted on a CPU other than the one it read",
                snap.cpu,
                self.core.ctx_name(self.core.cur)
            );
            self.core.violate("INV-12", msg);
        } else if now != snap.version {
            let msg = format!(
                "the lockless update of cpu{k}'s freelist succeeded although cpu{k}'s freelist or slab \
                 changed {} time(s) since {} read it: a stale snapshot was accepted (ABA)",
                // Versions only grow: the difference is the number of changes.
                now.wrapping_sub(snap.version),
                self.core.ctx_name(self.core.cur)
            );
            self.core.violate("INV-12", msg);
        }
    }

    /// Take the ghost snapshot for INV-12 (when the value the CAS compares is read: the tid, or
    /// the freelist head in the variants that compare only the head).
    pub fn snapshot(&self, k: u32) -> Snapshot {
        Snapshot {
            cpu: k,
            version: self.cpu_slab(k).ghost_version,
        }
    }
}
