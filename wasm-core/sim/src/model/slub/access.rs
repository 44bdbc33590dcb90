//! SLUB's primitives (model.md §2): the `kmem_cache_cpu` loads and stores with the per-CPU
//! double CAS of the fast paths, the slab's `freelist` + `counters` pair with its double CAS,
//! and the node partial list under `list_lock`. Linux 7.0 keeps SLUB's slab level and uses the
//! slab and list primitives too.

use super::super::cost;
use super::super::memory::Access;
use super::super::state::*;
use super::super::{Machine, Stat};
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
        self.access(self.cfg.line_cc(c), Access::Read);
        self.cpu_slab(c).tid
    }
    pub fn ld_freelist(&mut self, c: u32) -> Addr {
        self.access(self.cfg.line_cc(c), Access::Read);
        self.cpu_slab(c).freelist
    }
    pub fn ld_page(&mut self, c: u32) -> Option<SlabId> {
        self.access(self.cfg.line_cc(c), Access::Read);
        self.cpu_slab(c).page
    }
    pub fn ld_partial(&mut self, c: u32) -> Option<SlabId> {
        self.access(self.cfg.line_cc(c), Access::Read);
        self.cpu_slab(c).partial
    }
    pub fn st_freelist(&mut self, c: u32, v: Addr) {
        self.access(self.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_slab_mut(c) {
            cpu.freelist = v;
            cpu.ghost_version.bump();
        }
    }
    pub fn st_page(&mut self, c: u32, v: Option<SlabId>) {
        self.access(self.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_slab_mut(c) {
            cpu.page = v;
            cpu.ghost_version.bump();
        }
    }
    pub fn st_partial(&mut self, c: u32, v: Option<SlabId>) {
        self.access(self.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_slab_mut(c) {
            cpu.partial = v;
        }
    }
    /// `next_tid`: the kernel's tid is an `unsigned long` that wraps, and so does this one.
    pub fn bump_tid(&mut self, c: u32) {
        self.access(self.cfg.line_cc(c), Access::Write);
        let step = self.cfg.tid_step;
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
        let k = self.me();
        self.atomic(self.cfg.line_cc(k), cost::Id::PercpuCmpxchg16b);
        let (fl, tid) = (self.cpu_slab(k).freelist, self.cpu_slab(k).tid);
        let ok = fl == old.0 && (!with_tid || tid == old.1);
        self.set_ok(ok);
        if !ok && self.recording() {
            let mut halves = vec![CasHalf {
                field: "freelist".into(),
                expected: self.addr_name(old.0),
                actual: self.addr_name(fl),
            }];
            if with_tid {
                halves.push(CasHalf {
                    field: "tid".into(),
                    expected: old.1.to_string(),
                    actual: tid.to_string(),
                });
            }
            self.ev_halves(halves);
        }
        if ok {
            self.check_snapshot(snap, k);
            if with_tid && snap.cpu != k {
                // INV-11: the tid this CAS commits (`tid + TID_STEP`) must have been read on
                // the CPU whose tid it replaces; only a forced TID_STEP (SC4) lets it pass.
                let msg = format!(
                    "{} committed on cpu{k} a tid it read from cpu{}: per-CPU tids collide (TID_STEP {})",
                    self.ctx_name(self.cur),
                    snap.cpu,
                    self.cfg.tid_step
                );
                self.violate("INV-11", msg);
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
                self.ctx_name(self.cur)
            );
            self.violate("INV-12", msg);
        } else if now != snap.version {
            let msg = format!(
                "the lockless update of cpu{k}'s freelist succeeded although cpu{k}'s freelist or slab \
                 changed {} time(s) since {} read it: a stale snapshot was accepted (ABA)",
                // Versions only grow: the difference is the number of changes.
                now.wrapping_sub(snap.version),
                self.ctx_name(self.cur)
            );
            self.violate("INV-12", msg);
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

    // ----- the slab descriptor -----

    /// `prior = P->freelist; counters = P->counters` as one step (`__slab_free` S2,
    /// `deactivate_slab` D1/D4/DS2, `__unfreeze_partials` V4), where the kernel does two loads
    /// and `get_freelist`/`acquire_slab` (G1/G2, Q1/Q2) keep them apart. Why the merge cannot
    /// change an outcome: every caller consumes the pair only through a double CAS on the same
    /// two words (native or under `slab_lock`), and nothing it does between the loads and that
    /// CAS is visible to others except under `list_lock` (which interferers would have to take).
    /// A torn pair (freelist from before a change, counters from after) either fails the CAS,
    /// and the loop reloads, or passes it only if both words are current at the CAS, and then
    /// the same run with the interfering steps moved before the (merged) load reads the very same
    /// pair and does the same thing. So every outcome of the split loads is an outcome of the
    /// merged one. The split in G1/G2 and Q1/Q2 is kept for the listing's line-by-line view.
    pub fn ld_slab_pair(&mut self, s: SlabId) -> (Addr, Counters) {
        self.access(self.page(s).line, Access::Read);
        let sl = self.slab(s);
        (sl.freelist, sl.counters)
    }

    /// The LOCK'd `cmpxchg16b` on `P.freelist`/`P.counters` (model.md §2.2, native).
    pub fn cas2_native(&mut self, s: SlabId, old: (Addr, Counters), new: (Addr, Counters)) -> bool {
        self.atomic(self.page(s).line, cost::Id::LockedCmpxchg16b);
        self.cas2_compare_store(s, old, new)
    }

    /// Compare both halves and store both if equal; a failure bumps CMPXCHG_DOUBLE_FAIL.
    pub fn cas2_compare_store(
        &mut self,
        s: SlabId,
        old: (Addr, Counters),
        new: (Addr, Counters),
    ) -> bool {
        let (fl, cnt) = (self.slab(s).freelist, self.slab(s).counters);
        let ok = fl == old.0 && cnt == old.1;
        self.set_ok(ok);
        if ok {
            if let Some(sl) = self.slab_mut(s) {
                sl.freelist = new.0;
                sl.counters = new.1;
            }
        } else {
            if self.recording() {
                let h = vec![
                    CasHalf {
                        field: "freelist".into(),
                        expected: self.addr_name(old.0),
                        actual: self.addr_name(fl),
                    },
                    CasHalf {
                        field: "counters".into(),
                        expected: counters_text(old.1),
                        actual: counters_text(cnt),
                    },
                ];
                self.ev_halves(h);
            }
            self.stat(Stat::CMPXCHG_DOUBLE_FAIL);
        }
        ok
    }

    // ----- the node partial list -----

    pub fn ld_nr_partial(&mut self, n: u32) -> u32 {
        self.access(self.cfg.line_nd(n), Access::Read);
        self.node(n).nr_partial
    }

    /// The discard test of model.md §2.9/§2.10/§2.13: `>` (3.x) or `>=` (4.0+).
    pub fn discard_ok(&self, nr_partial: u32) -> bool {
        let min = self.cfg.sc.cache.min_partial;
        match self.variant().discard {
            crate::scenario::Discard::Gt => nr_partial > min,
            crate::scenario::Discard::Ge => nr_partial >= min,
        }
    }

    fn list_neighbours(&mut self, n: u32, pos: usize) {
        let list = &self.node(n).partial;
        let before = pos.checked_sub(1).and_then(|i| list.get(i));
        let after = list.get(pos..).and_then(|rest| rest.get(1));
        let lines: Vec<u32> = (before.into_iter().chain(after))
            .map(|&p| self.page(p).line)
            .collect();
        for l in lines {
            self.access(l, Access::Write);
        }
    }

    fn check_list_lock(&mut self, n: u32, what: &str) {
        if self.node(n).list_lock != Some(self.cur) {
            let msg = format!(
                "{} changed node {n}'s partial list ({what}) without holding list_lock",
                self.ctx_name(self.cur)
            );
            self.violate("INV-13", msg);
        }
    }

    /// `add_partial`: one step under `list_lock` (head or tail).
    pub fn add_partial(&mut self, n: u32, s: SlabId, tail: bool) {
        self.check_list_lock(n, "add_partial");
        self.access(self.cfg.line_nd(n), Access::Write);
        self.access(self.page(s).line, Access::Write);
        let Some(node) = self.node_mut(n) else { return };
        let pos = if tail {
            node.partial.push(s);
            node.partial.len().saturating_sub(1)
        } else {
            node.partial.insert(0, s);
            0
        };
        node.nr_partial.bump();
        self.list_neighbours(n, pos);
        if let Some(sl) = self.slab_mut(s) {
            sl.on_node_partial = true;
        }
    }

    /// `remove_partial`: one step under `list_lock`. Removing a slab that is not on the list
    /// is a corrupted list (INV-7), recorded rather than a crash.
    pub fn remove_partial(&mut self, n: u32, s: SlabId) {
        self.check_list_lock(n, "remove_partial");
        self.access(self.cfg.line_nd(n), Access::Write);
        self.access(self.page(s).line, Access::Write);
        let Some(pos) = self.node(n).partial.iter().position(|&x| x == s) else {
            let msg = format!(
                "list_del of slab {} from node {n}'s partial list, which does not hold it",
                self.slab_name(s)
            );
            self.violate("INV-7", msg);
            return;
        };
        self.list_neighbours(n, pos);
        if let Some(node) = self.node_mut(n) {
            node.partial.remove(pos);
            node.nr_partial = node.nr_partial.saturating_sub(1);
        }
        if let Some(sl) = self.slab_mut(s) {
            sl.on_node_partial = false;
        }
    }

    /// `discard_slab`: give the page back. INV-14 is judged after the step (it needs the
    /// callers' frames), from the facts noted here.
    pub fn discard_slab(&mut self, s: SlabId) {
        self.charge(cost::Id::PageFree);
        if self.checks {
            let sl = self.slab(s);
            // CPUs whose CPU slab it is (7.0 has no `kmem_cache_cpu`: none).
            let cpus: Vec<u32> = (self.st.alloc.cpu_slabs().iter().enumerate())
                .filter(|(_, c)| c.page == Some(s))
                .map(|(k, _)| k as u32)
                .collect();
            let why = if self.page(s).life == Life::Discarded {
                Some("already discarded".to_string())
            } else if sl.counters.inuse != 0 {
                Some(format!("{} object(s) are in use", sl.counters.inuse))
            } else if sl.counters.frozen {
                Some("still frozen".into())
            } else if self.st.nodes.iter().any(|n| n.partial.contains(&s)) {
                Some("still on a partial list".into())
            } else if (self.st.alloc.cpu_slabs().iter()).any(|c| self.chain_contains(c.partial, s))
            {
                Some("still on a CPU partial list".into())
            } else {
                None
            };
            self.pending_discards.push((s, why, cpus));
        }
        let first = self.page(s).line;
        for l in first..=first.saturating_add(self.cfg.obj_lines) {
            self.invalidate_line(l);
        }
        if let Some(pg) = self.page_mut(s) {
            pg.life = Life::Discarded;
        }
    }

    /// Whether a CPU partial chain starting at `head` contains `s` (bounded walk).
    pub fn chain_contains(&self, head: Option<SlabId>, s: SlabId) -> bool {
        let mut cur = head;
        // A chain longer than there are slabs is a cycle (INV-10 reports it).
        for _ in 0..=self.st.slabs.len() {
            let Some(p) = cur else { return false };
            if p == s {
                return true;
            }
            cur = self.slab(p).next;
        }
        false
    }
}

pub fn counters_text(c: Counters) -> String {
    format!(
        "inuse {} objects {} frozen {}",
        c.inuse, c.objects, c.frozen as u8
    )
}
