//! The slab level's primitives (model.md §2.2, §2.14): the slab's `freelist` + `counters` pair
//! with its double CAS, and the node partial list under `list_lock`, with `discard_slab`.
//! Each is a method of `SlabPages`, the slabs' SLUB fields lent with the core by whichever
//! allocator runs (SLUB or 7.0).

use super::super::cost;
use super::super::memory::Access;
use super::super::state::*;
use super::super::{Core, Stat};
use super::{counters_text, Counters, SlabPages, SlubPage};
use crate::event::CasHalf;

impl SlabPages<'_> {
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
        self.core.access(self.core.page(s).line, Access::Read);
        let sl = self.slab(s);
        (sl.freelist, sl.counters)
    }

    /// The LOCK'd `cmpxchg16b` on `P.freelist`/`P.counters` (model.md §2.2, native).
    pub fn cas2_native(&mut self, s: SlabId, old: (Addr, Counters), new: (Addr, Counters)) -> bool {
        self.core
            .atomic(self.core.page(s).line, cost::Id::LockedCmpxchg16b);
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
        self.core.set_ok(ok);
        if ok {
            if let Some(sl) = self.slab_mut(s) {
                sl.freelist = new.0;
                sl.counters = new.1;
            }
        } else {
            if self.core.recording() {
                let h = vec![
                    CasHalf {
                        field: "freelist".into(),
                        expected: self.core.addr_name(old.0),
                        actual: self.core.addr_name(fl),
                    },
                    CasHalf {
                        field: "counters".into(),
                        expected: counters_text(old.1),
                        actual: counters_text(cnt),
                    },
                ];
                self.core.ev_halves(h);
            }
            self.core.stat(Stat::CMPXCHG_DOUBLE_FAIL);
        }
        ok
    }

    // ----- the node partial list -----

    pub fn ld_nr_partial(&mut self, n: u32) -> u32 {
        self.core.access(self.core.cfg.line_nd(n), Access::Read);
        self.core.node(n).nr_partial
    }

    fn list_neighbours(&mut self, n: u32, pos: usize) {
        let list = &self.core.node(n).partial;
        let before = pos.checked_sub(1).and_then(|i| list.get(i));
        let after = list.get(pos..).and_then(|rest| rest.get(1));
        let lines: Vec<u32> = (before.into_iter().chain(after))
            .map(|&p| self.core.page(p).line)
            .collect();
        for l in lines {
            self.core.access(l, Access::Write);
        }
    }

    fn check_list_lock(&mut self, n: u32, what: &str) {
        if self.core.node(n).list_lock != Some(self.core.cur) {
            let msg = format!(
                "{} changed node {n}'s partial list ({what}) without holding list_lock",
                self.core.ctx_name(self.core.cur)
            );
            self.core.violate("INV-13", msg);
        }
    }

    /// `add_partial`: one step under `list_lock` (head or tail).
    pub fn add_partial(&mut self, n: u32, s: SlabId, tail: bool) {
        self.check_list_lock(n, "add_partial");
        self.core.access(self.core.cfg.line_nd(n), Access::Write);
        self.core.access(self.core.page(s).line, Access::Write);
        let Some(node) = self.core.node_mut(n) else {
            return;
        };
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
        self.core.access(self.core.cfg.line_nd(n), Access::Write);
        self.core.access(self.core.page(s).line, Access::Write);
        let Some(pos) = self.core.node(n).partial.iter().position(|&x| x == s) else {
            let msg = format!(
                "list_del of slab {} from node {n}'s partial list, which does not hold it",
                self.core.slab_name(s)
            );
            self.core.violate("INV-7", msg);
            return;
        };
        self.list_neighbours(n, pos);
        if let Some(node) = self.core.node_mut(n) {
            node.partial.remove(pos);
            node.nr_partial = node.nr_partial.saturating_sub(1);
        }
        if let Some(sl) = self.slab_mut(s) {
            sl.on_node_partial = false;
        }
    }

    /// `discard_slab`: give the page back. INV-14 is judged after the step (it needs the
    /// callers' frames), from the facts noted here. `cpu_slabs` is each CPU's slab and the
    /// head of its CPU partial chain (SLUB's `kmem_cache_cpu`; 7.0 has none: empty), read
    /// only when checks are on.
    pub fn discard_slab<I>(&mut self, s: SlabId, mut cpu_slabs: I)
    where
        I: Iterator<Item = (Option<SlabId>, Option<SlabId>)> + Clone,
    {
        self.core.charge(cost::Id::PageFree);
        if self.core.checks {
            let sl = self.slab(s);
            // CPUs whose CPU slab it is.
            let cpus: Vec<u32> = (cpu_slabs.clone().enumerate())
                .filter(|(_, (page, _))| *page == Some(s))
                .map(|(k, _)| k as u32)
                .collect();
            let why = if self.core.page(s).life == Life::Discarded {
                Some("already discarded".to_string())
            } else if sl.counters.inuse != 0 {
                Some(format!("{} object(s) are in use", sl.counters.inuse))
            } else if sl.counters.frozen {
                Some("still frozen".into())
            } else if self.core.st.nodes.iter().any(|n| n.partial.contains(&s)) {
                Some("still on a partial list".into())
            } else if cpu_slabs.any(|(_, partial)| self.chain_contains(partial, s)) {
                Some("still on a CPU partial list".into())
            } else {
                None
            };
            self.core.pending_discards.push((s, why, cpus));
        }
        let first = self.core.page(s).line;
        for l in first..=first.saturating_add(self.core.cfg.obj_lines) {
            self.core.invalidate_line(l);
        }
        if let Some(pg) = self.core.page_mut(s) {
            pg.life = Life::Discarded;
        }
    }

    /// Whether a CPU partial chain starting at `head` contains `s` (see `chain_contains`).
    pub fn chain_contains(&self, head: Option<SlabId>, s: SlabId) -> bool {
        chain_contains(self.pages, self.core, head, s)
    }
}

/// The discard test of model.md §2.9/§2.10/§2.13: `>` (3.x) or `>=` (4.0+).
pub fn discard_ok(core: &Core, nr_partial: u32) -> bool {
    let min = core.cfg.sc.cache.min_partial;
    match core.variant().discard {
        crate::scenario::Discard::Gt => nr_partial > min,
        crate::scenario::Discard::Ge => nr_partial >= min,
    }
}

/// Whether a CPU partial chain starting at `head` contains `s` (bounded walk).
pub fn chain_contains(pages: &[SlubPage], core: &Core, head: Option<SlabId>, s: SlabId) -> bool {
    let mut cur = head;
    // A chain longer than there are slabs is a cycle (INV-10 reports it).
    for _ in 0..=core.st.slabs.len() {
        let Some(p) = cur else { return false };
        if p == s {
            return true;
        }
        cur = super::slab(pages, core, p).next;
    }
    false
}
