//! The invariants of model.md §5, checked after every step. A violation is recorded (once per
//! invariant, with the step and a plain sentence), never a panic.
//!
//! Ghost state: ownership is derived from reachability (held variables, CPU freelists, slab
//! freelists) plus what each in-flight operation declares from its locals (`inflight`). An
//! in-flight declaration counts only for objects nothing else owns, so declaring generously
//! can hide a lost object but can never invent a double owner. "Sections" are the
//! irq-off/locked windows in which the kernel itself has `c.page`/`c.freelist` half updated
//! (model.md §5 INV-4's exceptions); a CPU in a section is skipped by INV-1's CPU-freelist walk and
//! by INV-4.

use super::state::*;
use super::SlubState;
use crate::model::pcs::labels::*;
use crate::model::Core;
use crate::model::Fault;

const USER: u8 = 1 << 6;

/// A slab's name, formatted only if a message is made.
struct SlabName<'a>(&'a Core, SlabId);

impl std::fmt::Display for SlabName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0.slab_name(self.1))
    }
}

impl SlubState {
    /// Whether some context is inside a section that is rewriting CPU k's `kmem_cache_cpu`.
    #[inline]
    pub(in crate::model) fn cpu_in_section(core: &Core, k: u32) -> bool {
        let unfrozen = !core.variant().cpu_partial_frozen;
        core.st.ctxs.iter().any(|c| {
            c.stack.iter().any(|f| match f {
                Frame::FlushSlab { pc, l } => {
                    use flush_slab::Pc::*;
                    l.c == k && matches!(pc, W2c | W3 | W4 | W4b | T3 | T4 | K3 | K4 | K5 | K6)
                }
                Frame::SlabAllocSlow { pc, l } => {
                    use slab_alloc_slow::Pc::*;
                    l.c == k
                        // With unfrozen CPU partial slabs on the irq-off slow path, the slab
                        // taken at B15 is frozen only by get_freelist (called from B5/B6).
                        && ((unfrozen && matches!(pc, B5 | B6))
                            || matches!(pc, B4d | B4b | B4c | B8 | B8a | B15b | B16))
                }
                Frame::SlabAllocSlowLl { pc, l } => {
                    use slab_alloc_slow_ll::Pc::*;
                    l.c == k
                        && matches!(
                            pc,
                            LL8 | LL8a
                                | LL33
                                | LL34
                                | LL35
                                | LLu37
                                | LL25
                                | LL25n
                                | LL25i
                                | LL27
                                | LL28
                                | LL26
                                | LL55
                                | LL56
                                | LL57
                                | LL53
                        )
                }
                _ => false,
            })
        })
    }

    /// Whether CPU k's `c->freelist` still points at a chain that a deactivation is moving
    /// object by object to its slab (3.10 `flush_slab` clears it only afterwards): those
    /// objects are owned by the deactivation, not by the CPU.
    pub(in crate::model) fn cpu_freelist_detached(core: &Core, k: u32) -> bool {
        core.st.ctxs.iter().any(|c| {
            c.stack.iter().any(|f| match f {
                Frame::FlushSlab { pc, l } => {
                    use flush_slab::Pc::*;
                    l.c == k && matches!(pc, W2c | W3 | W4 | W4b)
                }
                Frame::SlabAllocSlow { pc, l } => {
                    use slab_alloc_slow::Pc::*;
                    l.c == k && matches!(pc, B4d | B4b | B4c)
                }
                _ => false,
            })
        })
    }

    /// Whether frame `f` is at a step where the slabs in its locals may be transiently
    /// inconsistent (model.md §5, INV-5/6/9 "held by an op"). `__slab_free` changes its slab only
    /// with the CAS at S5: before it (S0–S5, including a retry after a failed CAS) the slab
    /// is exactly as other contexts left it, so holding it there must not hide their faults.
    /// From the successful CAS on it holds the slab it froze (until `put_cpu_partial`'s U5)
    /// or emptied (S5–S6, until the discard). The other operations change their slab from
    /// their first step on (`new_slab`, `acquire_slab`, `deactivate_slab`, the flushes and
    /// `unfreeze_partials`), so their windows are their lives.
    pub(in crate::model) fn frame_holds_slabs(f: &Frame) -> bool {
        match f {
            Frame::SlabAlloc { .. } | Frame::SlabFree { .. } | Frame::Touch { .. } => false,
            // The slab-lock fallback (X1–X6) is the CAS itself: once it has stored (X4 ok),
            // its caller's window has begun although the caller waits for the return.
            Frame::CmpxchgDoubleSlab { pc, l } => {
                l.ok && matches!(pc, cmpxchg_double_slab::X5 | cmpxchg_double_slab::X6)
            }
            Frame::SlabFreeSlow { pc, l } => {
                use slab_free_slow::Pc::*;
                !(matches!(pc, S0 | S1 | S2 | S3 | S4 | S5) || (*pc == S5r && !l.ok))
            }
            _ => true,
        }
    }

    /// The names of the slabs exempt from INV-5/6/9 right now because an operation holds them
    /// in one of its windows (for tests and the explorer's explanations).
    pub(in crate::model) fn slabs_held_by_ops(&self, core: &Core) -> Vec<String> {
        self.held_by_ops(core)
            .iter()
            .enumerate()
            .filter(|(_, &h)| h)
            .map(|(s, _)| core.slab_name(s as SlabId))
            .collect()
    }

    /// Slabs operations legitimately hold in their locals right now (INV-5/6/9 windows), as a
    /// flag per slab.
    fn held_by_ops(&self, core: &Core) -> Vec<bool> {
        let mut held = vec![false; core.st.slabs.len()];
        let mut mark = |s: Option<SlabId>| {
            if let Some(s) = s {
                if let Some(h) = held.get_mut(s as usize) {
                    *h = true;
                }
            }
        };
        for c in &core.st.ctxs {
            for f in &c.stack {
                if !Self::frame_holds_slabs(f) {
                    continue;
                }
                f.slabs(&mut mark);
                // A detached CPU partial list (5.15+ `__unfreeze_partials`, 6.8+
                // `__put_partials`, and the flush that detached it) is held as a chain.
                let chain = match f {
                    Frame::UnfreezePartials { l, .. } => Some(l.p),
                    Frame::PutCpuPartial { l, .. } => Some(l.p),
                    Frame::FlushCpuSlab { l, .. } => Some(l.p),
                    _ => None,
                };
                if let Some(head) = chain {
                    let mut cur = head;
                    // A chain longer than there are slabs loops (INV-10 says so).
                    for _ in 0..=core.st.slabs.len() {
                        let Some(p) = cur else { break };
                        mark(Some(p));
                        cur = self.slab(core, p).next;
                    }
                }
            }
        }
        held
    }

    /// Objects (or chains, by head) that an operation holds outside every list.
    fn inflight(f: &Frame, out: &mut Vec<(Addr, bool)>) {
        match f {
            Frame::SlabAlloc { pc, l } => {
                use slab_alloc::Pc::*;
                if matches!(pc, A10 | A11 | E0g | L6) || (*pc == L5d && l.ok) {
                    out.push((l.obj, false))
                }
            }
            Frame::SlabAllocSlow { pc, l } => {
                use slab_alloc_slow::Pc::*;
                if l.flag || *pc == B22 {
                    out.push((l.f, true));
                } else if matches!(pc, B12 | B13) {
                    out.push((l.f, false));
                }
            }
            Frame::SlabAllocSlowLl { pc, l } => {
                use slab_alloc_slow_ll::Pc::*;
                if l.flag {
                    out.push((l.f, true));
                } else if matches!(pc, LL12 | LL13 | LL9) {
                    out.push((l.f, false));
                }
                if matches!(pc, LL33 | LL34 | LL35 | LLu37 | LL37) {
                    out.push((l.f, true));
                }
                if matches!(pc, LL55 | LL56 | LL57 | LL53 | LL54 | LL54r) {
                    out.push((l.prior, true));
                }
            }
            Frame::GetFreelist { l, .. } => out.push((l.freelist, true)),
            Frame::GetPartialNode { l, .. } => out.push((l.obj, true)),
            Frame::AcquireSlab { l, .. } if l.lock => out.push((l.f, true)),
            Frame::SlabFree { l, .. } => out.push((l.x, false)),
            Frame::SlabFreeSlow { l, .. } => out.push((l.x, false)),
            Frame::DeactivateSlab { l, .. } => {
                // Stage 1 holds the CPU freelist as `freelist` (pushed one by one) and,
                // between D2 and the CAS, its rest as `nextfree`.
                out.push((l.f, true));
                out.push((l.nxt, true));
            }
            Frame::FlushSlab { l, .. } => out.push((l.f, true)),
            _ => {}
        }
    }

    /// Collect the chain from `head` into `out` (cleared first), stopping at a repeat, a
    /// non-object or more than a slab's worth; `Err` says which.
    fn walk_into(core: &Core, head: Addr, out: &mut Vec<Addr>) -> Result<(), String> {
        out.clear();
        let mut a = head;
        let limit = (core.cfg.objects as usize).saturating_add(1);
        while a != NULL {
            let Some((s, i)) = core.object_of(a) else {
                return Err(format!(
                    "reaches {}, which is not a free object (user data or garbage)",
                    core.addr_name(a)
                ));
            };
            if out.contains(&a) {
                return Err(format!("loops back to {}", core.addr_name(a)));
            }
            out.push(a);
            if out.len() > limit {
                return Err("is longer than a slab".into());
            }
            // `object_of` checked `i < objects`, the length of every `fp`.
            a = match core.page(s).fp.get(i as usize) {
                Some(&next) => next,
                None => {
                    core.fault(Fault::NoSuch("object", a));
                    return Err(format!(
                        "reaches {}, which has no free pointer",
                        core.addr_name(a)
                    ));
                }
            };
        }
        Ok(())
    }

    pub(in crate::model) fn check_invariants(&mut self, core: &mut Core) {
        let objects = core.cfg.objects as usize;
        let nslabs = core.st.slabs.len();
        let mut own = std::mem::take(&mut core.scratch);
        own.clear();
        own.resize(nslabs.saturating_mul(objects), 0);
        // Object i of slab s is slot `s * objects + i` of `own` (below its length: s < nslabs,
        // i < objects).
        let slot = |s: SlabId, i: u32| {
            (s as usize)
                .saturating_mul(objects)
                .saturating_add(i as usize)
        };
        let idx = |core: &Core, a: Addr| core.object_of(a).map(|(s, i)| slot(s, i));
        let mut problems: Vec<(&'static str, String)> = Vec::new();

        // INV-1 (users): every held variable names a live object.
        for (vi, v) in core.st.vars.iter().enumerate() {
            let (true, Some(a)) = (v.held(), v.addr) else {
                continue;
            };
            match core.object_of(a) {
                Some((s, i)) => {
                    if let Some(o) = own.get_mut(slot(s, i)) {
                        *o = o.saturating_add(1) | USER;
                    }
                    if core.page(s).life == Life::Discarded {
                        problems.push((
                            "INV-9",
                            format!(
                                "`{}` holds {}, but its slab {} was discarded",
                                core.var_name(vi),
                                core.addr_name(a),
                                core.slab_name(s)
                            ),
                        ));
                    }
                }
                None => problems.push((
                    "INV-2",
                    format!(
                        "`{}` was handed {}, which is not an object",
                        core.var_name(vi),
                        core.addr_name(a)
                    ),
                )),
            }
        }

        // INV-2/INV-4 (CPU freelists).
        let mut chain: Vec<Addr> = Vec::with_capacity(objects.saturating_add(2));
        for k in 0..core.cfg.cpus as u32 {
            if Self::cpu_freelist_detached(core, k) {
                continue;
            }
            let section = Self::cpu_in_section(core, k);
            let c = self.cpu_slab(core, k);
            let (head, page) = (c.freelist, c.page);
            let walked = Self::walk_into(core, head, &mut chain);
            for a in &chain {
                if let Some(i) = idx(core, *a) {
                    if let Some(o) = own.get_mut(i) {
                        *o = o.saturating_add(1);
                    }
                }
            }
            if section {
                // c.page and c.freelist are half rewritten: count the objects, judge nothing.
                continue;
            }
            if head != NULL && page.is_none() {
                problems.push(("INV-4", format!("cpu{k}'s freelist starts at {} but cpu{k} has no CPU slab: those objects are stranded", core.addr_name(head))));
            }
            if let Some(p) = page {
                let sl = self.slab(core, p);
                if core.page(p).life == Life::Discarded {
                    problems.push((
                        "INV-9",
                        format!("cpu{k}'s CPU slab {} was discarded", core.slab_name(p)),
                    ));
                } else if !sl.counters.frozen {
                    problems.push((
                        "INV-4",
                        format!("cpu{k}'s CPU slab {} is not frozen", core.slab_name(p)),
                    ));
                }
            }
            if let Err(e) = walked {
                problems.push(("INV-2", format!("cpu{k}'s freelist {e}")));
            }
            if let Some(a) = chain.iter().find(|&&a| core.slab_of(a) != page) {
                problems.push((
                    "INV-2",
                    format!(
                        "cpu{k}'s freelist holds {}, which is not in its CPU slab {}",
                        core.addr_name(*a),
                        core.slab_opt_name(page)
                    ),
                ));
            }
        }

        // INV-2/INV-3 (slab freelists).
        for s in 0..nslabs as SlabId {
            let (sl, life) = (self.slab(core, s), core.page(s).life);
            if life == Life::Discarded {
                continue;
            }
            let walked = Self::walk_into(core, sl.freelist, &mut chain);
            match walked {
                Err(e) => problems.push((
                    "INV-2",
                    format!("slab {}'s freelist {e}", core.slab_name(s)),
                )),
                Ok(()) => {
                    let len = chain.len() as u32;
                    let counted = sl.counters.inuse.checked_add(len);
                    if life == Life::Live && counted != Some(sl.counters.objects) {
                        problems.push(("INV-3", format!("slab {} counts {} in use but its freelist holds {len} of {} objects", core.slab_name(s), sl.counters.inuse, sl.counters.objects)));
                    }
                }
            }
            if let Some(a) = chain.iter().find(|&&a| core.slab_of(a) != Some(s)) {
                problems.push((
                    "INV-2",
                    format!(
                        "slab {}'s freelist holds {}, an object of another slab",
                        core.slab_name(s),
                        core.addr_name(*a)
                    ),
                ));
            }
            for a in &chain {
                if let Some(i) = idx(core, *a) {
                    if let Some(o) = own.get_mut(i) {
                        *o = o.saturating_add(1);
                    }
                }
            }
        }

        // In-flight objects of operations.
        let mut inflight = Vec::new();
        for c in &core.st.ctxs {
            for f in &c.stack {
                Self::inflight(f, &mut inflight);
            }
        }
        for (a, is_chain) in inflight {
            if is_chain {
                let _ = Self::walk_into(core, a, &mut chain);
            } else {
                chain.clear();
                chain.push(a);
            }
            for x in &chain {
                if let Some(i) = idx(core, *x) {
                    if let Some(o) = own.get_mut(i).filter(|o| **o & 0x3f == 0) {
                        *o |= 0x80;
                    }
                }
            }
        }

        // INV-1: exactly one owner per object of every live slab.
        for s in 0..nslabs as SlabId {
            if core.page(s).life == Life::Discarded {
                continue;
            }
            for i in 0..objects as u32 {
                let o = own.get(slot(s, i)).copied().unwrap_or_default();
                let count = o & 0x3f;
                let a = core.obj_addr(s, i);
                if count > 1 {
                    problems.push((
                        "INV-1",
                        format!(
                            "{} has {count} owners{}: it will be handed out twice",
                            core.addr_name(a),
                            if o & USER != 0 {
                                " (a variable holds it and a freelist reaches it)"
                            } else {
                                " (two freelists reach it)"
                            }
                        ),
                    ));
                } else if count == 0 && o & 0x80 == 0 && core.page(s).life != Life::Private {
                    problems.push((
                        "INV-1",
                        format!(
                            "{} is lost: no variable holds it and no freelist reaches it",
                            core.addr_name(a)
                        ),
                    ));
                }
            }
        }
        core.scratch = own;

        self.check_lists(core, &mut problems);
        // INV-14: discards of this step (3.10 `flush_slab` may discard while `c.page` still
        // names the slab: it clears it in the same irq-off section).
        for (s, why, cpus) in std::mem::take(&mut core.pending_discards) {
            let why = why.or_else(|| {
                cpus.iter()
                    .find(|&&k| !Self::cpu_in_section(core, k))
                    .map(|k| format!("cpu{k} still uses it as its CPU slab"))
            });
            if let Some(why) = why {
                problems.push((
                    "INV-14",
                    format!("slab {} was discarded while {why}", core.slab_name(s)),
                ));
            }
        }
        for (inv, msg) in problems {
            core.violate(inv, msg);
        }
    }

    /// INV-5…INV-10 and INV-13: slab states, partial lists, lock discipline (INV-11 is checked
    /// at the tid commit, INV-8 is part of INV-6).
    fn check_lists(&self, core: &Core, problems: &mut Vec<(&'static str, String)>) {
        let frozen_partials = core.variant().cpu_partial_frozen;
        // INV-10: CPU partial chains.
        let mut in_chain = vec![0u32; core.st.slabs.len()];
        for (k, c) in self.cpu_slab.iter().enumerate() {
            let mut cur = c.partial;
            // More entries than slabs: the chain loops.
            let mut budget = 0..core.st.slabs.len();
            while let Some(p) = cur {
                if let Some(n) = in_chain.get_mut(p as usize) {
                    n.bump();
                }
                if budget.next().is_none() {
                    problems.push(("INV-10", format!("cpu{k}'s partial list loops")));
                    break;
                }
                cur = self.slab(core, p).next;
            }
        }
        let mut on_node = vec![false; core.st.slabs.len()];
        for n in &core.st.nodes {
            for &s in &n.partial {
                if let Some(on) = on_node.get_mut(s as usize) {
                    *on = true;
                }
            }
        }
        let sections: Vec<bool> = (0..core.cfg.cpus as u32)
            .map(|k| Self::cpu_in_section(core, k))
            .collect();
        let held_by_ops = self.held_by_ops(core);
        for s in 0..core.st.slabs.len() as SlabId {
            let (sl, pg) = (self.slab(core, s), core.page(s));
            let name = SlabName(core, s);
            // One entry per slab in each (built above from `core.st.slabs.len()`).
            let at = s as usize;
            let chained = in_chain.get(at).copied().unwrap_or_default();
            let listed = on_node.get(at).copied().unwrap_or_default();
            let held = held_by_ops.get(at).copied().unwrap_or_default();
            let cpu_refs = (self.cpu_slab.iter().zip(&sections))
                .filter(|(c, &section)| c.page == Some(s) && !section)
                .count() as u32;
            if pg.life == Life::Discarded {
                if chained > 0 || listed || cpu_refs > 0 {
                    problems.push((
                        "INV-9",
                        format!("slab {name} was discarded but is still on a list or a CPU's slab"),
                    ));
                }
                continue;
            }
            if pg.life == Life::Private {
                continue;
            }
            if chained > 1 {
                problems.push((
                    "INV-10",
                    format!("slab {name} is on CPU partial lists {} times", chained),
                ));
            }
            let refs = cpu_refs.saturating_add(chained);
            if refs > 1 {
                problems.push(("INV-5", format!("slab {name} is owned by {refs} CPUs at once (CPU slab or CPU partial list)")));
            }
            if sl.counters.frozen && refs == 0 && !held {
                problems.push((
                    "INV-5",
                    format!(
                        "slab {name} is frozen but no CPU owns it: nobody will ever unfreeze it"
                    ),
                ));
            }
            if !sl.counters.frozen && !held {
                if cpu_refs > 0 {
                    problems.push(("INV-5", format!("slab {name} is a CPU slab but not frozen")));
                }
                if frozen_partials && chained > 0 {
                    problems.push((
                        "INV-5",
                        format!("slab {name} is on a CPU partial list but not frozen"),
                    ));
                }
            }
            if listed && !held {
                if sl.counters.frozen {
                    problems.push((
                        "INV-6",
                        format!(
                            "slab {name} is on node {}'s partial list while frozen",
                            pg.node
                        ),
                    ));
                }
                if sl.freelist == NULL {
                    problems.push((
                        "INV-6",
                        format!("slab {name} is on the partial list with no free object"),
                    ));
                }
                if refs > 0 {
                    problems.push((
                        "INV-6",
                        format!("slab {name} is on the node partial list and owned by a CPU"),
                    ));
                }
            }
            // INV-8 (a full unfrozen slab is on no list) is folded into INV-6's "on the
            // partial list with no free object": the same states, one report.
            if !sl.counters.frozen
                && sl.counters.inuse == 0
                && !held
                && !listed
                && (frozen_partials || chained == 0)
            {
                problems.push(("INV-9", format!("slab {name} is empty and unfrozen but on no list: it can never be reused or freed")));
            }
        }
        // INV-7: nr_partial and list shape.
        for (n, node) in core.st.nodes.iter().enumerate() {
            if node.nr_partial as usize != node.partial.len() {
                problems.push((
                    "INV-7",
                    format!(
                        "node {n}'s nr_partial is {} but its list holds {}",
                        node.nr_partial,
                        node.partial.len()
                    ),
                ));
            }
            for (i, s) in node.partial.iter().enumerate() {
                if node.partial.iter().take(i).any(|x| x == s) {
                    problems.push((
                        "INV-7",
                        format!(
                            "slab {} is on node {n}'s partial list twice",
                            core.slab_name(*s)
                        ),
                    ));
                }
            }
            // INV-13: list_lock is held with interrupts off.
            if let Some(h) = node.list_lock {
                let c = &core.ctx(h);
                if core.cpu(c.cpu).irqs_on {
                    problems.push((
                        "INV-13",
                        format!(
                            "{} holds node {n}'s list_lock with interrupts on",
                            core.ctx_name(h)
                        ),
                    ));
                }
            }
        }
        // INV-11 is checked where a tid is committed (`pcas2`): "tid ≡ cpu (mod TID_STEP)"
        // held by construction (tids only move by TID_STEP), so it could never fire.
    }

    /// INV-15 at the end of a run: conservation and stat identities.
    pub(in crate::model) fn check_end(&mut self, core: &mut Core) {
        let stat = |core: &Core, s: super::Stat| {
            core.st
                .stats
                .iter()
                .filter_map(|c| c.get(s as usize))
                .sum::<u64>()
        };
        use super::Stat::*;
        let fast = stat(core, ALLOC_FASTPATH);
        let slow_ok = core.ghost.slow_allocs;
        if fast.checked_add(slow_ok) != Some(core.ghost.allocs) {
            let msg = format!("ALLOC_FASTPATH ({fast}) + successful slow-path allocations ({slow_ok}) != successful allocations ({})", core.ghost.allocs);
            core.violate("INV-15", msg);
        }
        let frees = stat(core, FREE_FASTPATH).saturating_add(stat(core, FREE_SLOWPATH));
        if frees != core.ghost.frees {
            let msg = format!(
                "FREE_FASTPATH + FREE_SLOWPATH = {frees}, but {} objects were freed",
                core.ghost.frees
            );
            core.violate("INV-15", msg);
        }
        if core.checks {
            self.check_invariants(core);
        }
    }
}

// The machine's entry points to SLUB's checks (`allocator.rs`, the tests): SLUB's state and
// the core, borrowed apart.
