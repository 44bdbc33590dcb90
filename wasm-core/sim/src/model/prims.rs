//! Step primitives shared by the modelled functions: per-CPU field access, irq and preempt
//! toggles, the CAS flavours of spec §2.1, list_lock, add/remove_partial and discard_slab.
//! Each touches its cache lines through `access` and charges the cost table.

use super::cost;
use super::memory::Access;
use super::state::*;
use super::{Fault, Flow, Machine, Stat};
use crate::event::{CasHalf, EventKind};
use crate::view::Violation;

impl Machine {
    pub fn set_note(&mut self, kind: EventKind, target: String, narration: String) {
        if let Some(r) = self.rec.as_mut() {
            r.cur.kind = kind;
            r.cur.target = target;
            r.cur.narration = narration;
        }
    }
    pub fn set_read(&mut self, v: String) {
        if let Some(r) = self.rec.as_mut() {
            r.cur.read = Some(v);
        }
    }
    pub fn set_wrote(&mut self, v: String) {
        if let Some(r) = self.rec.as_mut() {
            r.cur.wrote = Some(v);
        }
    }
    pub fn set_ok(&mut self, ok: bool) {
        if let Some(r) = self.rec.as_mut() {
            r.cur.ok = Some(ok);
        }
    }

    /// Record an invariant violation once per invariant (the first time it is seen).
    pub fn violate(&mut self, invariant: &str, message: String) {
        if self.violations.iter().any(|v| v.invariant == invariant) {
            return;
        }
        self.violations.push(Violation {
            step: self.st.steps,
            invariant: invariant.into(),
            message,
        });
    }

    /// Note an internal error of the model ([`Fault`]): the first one noted is reported after
    /// the label that found it and stops the machine. Returns the `Flow` a step function then
    /// returns (the label ends there; nothing after it runs).
    pub fn fault(&self, f: Fault) -> Flow {
        note_fault(&self.fault, f);
        Flow::Step
    }

    /// Report a noted internal error as the violation `MODEL`, naming the context and the
    /// label (`at`) that found it, and stop the machine. Nothing if none was noted (the check
    /// every label pays; the report is out of line).
    #[inline]
    pub(super) fn report_fault(&mut self, at: Option<&Frame>) {
        if self.fault.get().is_some() {
            self.report_noted_fault(at);
        }
    }

    #[cold]
    #[inline(never)]
    fn report_noted_fault(&mut self, at: Option<&Frame>) {
        let Some(f) = self.fault.take() else { return };
        let place = match at {
            Some(fr) => format!(
                " ({} at {}:{})",
                self.cfg.ctx_ids.get(self.cur as usize).map_or("?", |s| s),
                fr.func().name(),
                fr.pc.name()
            ),
            None => String::new(),
        };
        self.violate(
            "MODEL",
            format!(
                "internal error of the model{place}: {f}. This is a bug of the model, not a \
                 finding about the kernel; the run stops here"
            ),
        );
        self.halted = true;
    }

    /// A read-only lookup that found nothing: note it ([`Fault::NoSuch`]) and hand out the
    /// inert stand-in.
    #[cold]
    pub(super) fn missing<T>(
        &self,
        what: &'static str,
        id: u64,
        stand_in: &'static T,
    ) -> &'static T {
        missing(&self.fault, what, id, stand_in)
    }

    /// The model stopped at an internal error, or found one it has not reported yet.
    #[inline]
    pub(super) fn stopped(&self) -> bool {
        self.halted || self.fault.get().is_some()
    }

    pub fn me(&self) -> u32 {
        self.cur_cpu
    }

    // ----- lookups -----
    //
    // Every id the model hands around names something that exists: CPUs and nodes come from
    // the validated scenario, slabs are never removed (a discarded one keeps its id), contexts
    // are fixed at creation. A lookup that finds nothing is therefore an internal error of the
    // model: it is noted ([`Fault::NoSuch`]) and a read gets an inert stand-in (no links, no
    // objects, nothing held), a write is skipped (`None`); the machine stops after the label.

    #[inline]
    pub fn cpu(&self, k: u32) -> &Cpu {
        self.st
            .cpus
            .get(k as usize)
            .unwrap_or_else(|| missing(&self.fault, "cpu", k.into(), &NO_CPU))
    }
    #[inline]
    pub fn cpu_mut(&mut self, k: u32) -> Option<&mut Cpu> {
        found(
            &self.fault,
            "cpu",
            k.into(),
            self.st.cpus.get_mut(k as usize),
        )
    }
    /// The stepping CPU's `Cpu`, for a write.
    #[inline]
    pub fn my_cpu_mut(&mut self) -> Option<&mut Cpu> {
        self.cpu_mut(self.cur_cpu)
    }
    #[inline]
    pub fn node(&self, n: u32) -> &Node {
        self.st
            .nodes
            .get(n as usize)
            .unwrap_or_else(|| missing(&self.fault, "node", n.into(), &NO_NODE))
    }
    #[inline]
    pub fn node_mut(&mut self, n: u32) -> Option<&mut Node> {
        found(
            &self.fault,
            "node",
            n.into(),
            self.st.nodes.get_mut(n as usize),
        )
    }
    #[inline]
    pub fn slab_mut(&mut self, s: SlabId) -> Option<&mut Page> {
        found(
            &self.fault,
            "slab",
            s.into(),
            self.st.slabs.get_mut(s as usize),
        )
    }
    #[inline]
    pub fn ctx(&self, cx: CtxId) -> &Ctx {
        self.st
            .ctxs
            .get(cx as usize)
            .unwrap_or_else(|| missing(&self.fault, "context", cx.into(), &NO_CTX))
    }
    #[inline]
    pub fn ctx_mut(&mut self, cx: CtxId) -> Option<&mut Ctx> {
        found(
            &self.fault,
            "context",
            cx.into(),
            self.st.ctxs.get_mut(cx as usize),
        )
    }
    #[inline]
    pub fn var(&self, v: usize) -> &Var {
        self.st
            .vars
            .get(v)
            .unwrap_or_else(|| missing(&self.fault, "variable", v as u64, &NO_VAR))
    }
    #[inline]
    pub fn var_mut(&mut self, v: usize) -> Option<&mut Var> {
        found(&self.fault, "variable", v as u64, self.st.vars.get_mut(v))
    }
    /// Cache line `l`'s MESI state in every CPU (a line the layout has: `Config::line_cc`,
    /// `line_nd`, a slab's or a sheaf's lines).
    #[inline]
    pub fn line(&self, l: u32) -> [Mesi; MAX_CPUS] {
        match self.st.lines.get(l as usize) {
            Some(&states) => states,
            None => {
                note_fault(&self.fault, Fault::NoSuch("cache line", l.into()));
                [Mesi::I; MAX_CPUS]
            }
        }
    }
    #[inline]
    pub fn line_mut(&mut self, l: u32) -> Option<&mut [Mesi; MAX_CPUS]> {
        found(
            &self.fault,
            "cache line",
            l.into(),
            self.st.lines.get_mut(l as usize),
        )
    }
    /// The stepping CPU's clock.
    #[inline]
    pub fn my_cycles(&self) -> u64 {
        self.policy_view().cycles(self.cur_cpu as usize)
    }
    /// The node CPU `k` belongs to (`cpu_to_node`).
    #[inline]
    pub fn node_of_cpu(&self, k: u32) -> u32 {
        match self.cfg.cpu_node.get(k as usize) {
            Some(&n) => n,
            None => {
                note_fault(&self.fault, Fault::NoSuch("cpu", k.into()));
                0
            }
        }
    }
    /// The stepping CPU's node (`numa_mem_id()`).
    #[inline]
    pub fn my_node(&self) -> u32 {
        self.node_of_cpu(self.cur_cpu)
    }
    /// A scenario variable's name.
    pub fn var_name(&self, v: usize) -> &str {
        match self.cfg.var_names.get(v) {
            Some(name) => name,
            None => {
                note_fault(&self.fault, Fault::NoSuch("variable", v as u64));
                "?"
            }
        }
    }

    // ----- processor state -----

    /// `local_irq_save`: remember the flag in the frame, disable.
    pub fn irq_save(&mut self, fr: &mut Frame) {
        self.touch_resource(super::RES_SCHED | self.cur_cpu, true);
        if let Some(cpu) = self.my_cpu_mut() {
            fr.saved_irq = cpu.irqs_on;
            cpu.irqs_on = false;
        }
        self.charge(cost::Id::IrqSave);
    }

    /// `local_irq_restore` of what the frame saved.
    pub fn irq_restore(&mut self, fr: &Frame) {
        self.touch_resource(super::RES_SCHED | self.cur_cpu, true);
        if let Some(cpu) = self.my_cpu_mut() {
            cpu.irqs_on = fr.saved_irq;
        }
        self.charge(cost::Id::IrqRestore);
    }

    pub fn irq_set(&mut self, on: bool) {
        self.touch_resource(super::RES_SCHED | self.cur_cpu, true);
        if let Some(cpu) = self.my_cpu_mut() {
            cpu.irqs_on = on;
        }
        self.charge(if on {
            cost::Id::IrqRestore
        } else {
            cost::Id::IrqSave
        });
    }

    pub fn preempt_off(&mut self) {
        self.touch_resource(super::RES_SCHED | self.cur_cpu, true);
        if let Some(cpu) = self.my_cpu_mut() {
            cpu.preempt_count.bump();
        }
        self.charge(cost::Id::PreemptToggle);
    }

    pub fn preempt_on(&mut self) {
        self.touch_resource(super::RES_SCHED | self.cur_cpu, true);
        if let Some(cpu) = self.my_cpu_mut() {
            cpu.preempt_count = cpu.preempt_count.saturating_sub(1);
        }
        self.charge(cost::Id::PreemptToggle);
    }

    // ----- kmem_cache_cpu fields (of CPU `c`, which may not be the executing CPU) -----

    pub fn ld_tid(&mut self, c: u32) -> u64 {
        self.access(self.cfg.line_cc(c), Access::Read);
        self.cpu(c).tid
    }
    pub fn ld_freelist(&mut self, c: u32) -> Addr {
        self.access(self.cfg.line_cc(c), Access::Read);
        self.cpu(c).freelist
    }
    pub fn ld_page(&mut self, c: u32) -> Option<SlabId> {
        self.access(self.cfg.line_cc(c), Access::Read);
        self.cpu(c).page
    }
    pub fn ld_partial(&mut self, c: u32) -> Option<SlabId> {
        self.access(self.cfg.line_cc(c), Access::Read);
        self.cpu(c).partial
    }
    pub fn st_freelist(&mut self, c: u32, v: Addr) {
        self.access(self.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_mut(c) {
            cpu.freelist = v;
            cpu.ghost_version.bump();
        }
    }
    pub fn st_page(&mut self, c: u32, v: Option<SlabId>) {
        self.access(self.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_mut(c) {
            cpu.page = v;
            cpu.ghost_version.bump();
        }
    }
    pub fn st_partial(&mut self, c: u32, v: Option<SlabId>) {
        self.access(self.cfg.line_cc(c), Access::Write);
        if let Some(cpu) = self.cpu_mut(c) {
            cpu.partial = v;
        }
    }
    /// `next_tid`: the kernel's tid is an `unsigned long` that wraps, and so does this one.
    pub fn bump_tid(&mut self, c: u32) {
        self.access(self.cfg.line_cc(c), Access::Write);
        let step = self.cfg.tid_step;
        if let Some(cpu) = self.cpu_mut(c) {
            cpu.tid = cpu.tid.wrapping_add(step);
        }
    }

    /// `this_cpu_cmpxchg_double` on the executing CPU's (freelist, tid): no LOCK prefix, atomic
    /// only against this CPU (spec §2.1). `with_tid` false is the broken `no-tid` control.
    /// Checks INV-12 on success: the CPU and ghost version must be the ones snapshotted when the
    /// compared value was read.
    pub fn pcas2(
        &mut self,
        fr: &Frame,
        old: (Addr, u64),
        new: (Addr, u64),
        with_tid: bool,
    ) -> bool {
        let k = self.me();
        self.atomic(self.cfg.line_cc(k), cost::Id::PercpuCmpxchg16b);
        let (fl, tid) = (self.cpu(k).freelist, self.cpu(k).tid);
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
            self.check_snapshot(fr, k);
            if with_tid && fr.ghost_cpu != k {
                // INV-11: the tid this CAS commits (`tid + TID_STEP`) must have been read on
                // the CPU whose tid it replaces; only a forced TID_STEP (SC4) lets it pass.
                let msg = format!(
                    "{} committed on cpu{k} a tid it read from cpu{}: per-CPU tids collide (TID_STEP {})",
                    self.ctx_name(self.cur),
                    fr.ghost_cpu,
                    self.cfg.tid_step
                );
                self.violate("INV-11", msg);
            }
            if let Some(cpu) = self.cpu_mut(k) {
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
    pub fn check_snapshot(&mut self, fr: &Frame, k: u32) {
        let now = self.cpu(k).ghost_version;
        if fr.ghost_cpu != k {
            let msg = format!(
                "the lockless update of cpu{k}'s freelist succeeded with a snapshot taken from cpu{}: \
                 {} acted on a CPU other than the one it read",
                fr.ghost_cpu,
                self.ctx_name(self.cur)
            );
            self.violate("INV-12", msg);
        } else if now != fr.ghost_version {
            let msg = format!(
                "the lockless update of cpu{k}'s freelist succeeded although cpu{k}'s freelist or slab \
                 changed {} time(s) since {} read it: a stale snapshot was accepted (ABA)",
                // Versions only grow: the difference is the number of changes.
                now.wrapping_sub(fr.ghost_version),
                self.ctx_name(self.cur)
            );
            self.violate("INV-12", msg);
        }
    }

    /// Take the ghost snapshot for INV-12 (when the value the CAS compares is read: the tid, or
    /// the freelist head in the variants that compare only the head).
    pub fn snapshot(&self, fr: &mut Frame, k: u32) {
        fr.ghost_cpu = k;
        fr.ghost_version = self.cpu(k).ghost_version;
    }

    // ----- the slab descriptor -----

    #[inline]
    pub fn slab(&self, s: SlabId) -> &Page {
        self.st
            .slabs
            .get(s as usize)
            .unwrap_or_else(|| missing(&self.fault, "slab", s.into(), &NO_PAGE))
    }

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
        self.access(self.slab(s).line, Access::Read);
        let sl = self.slab(s);
        (sl.freelist, sl.counters)
    }

    /// The LOCK'd `cmpxchg16b` on `P.freelist`/`P.counters` (spec §2.2, native).
    pub fn cas2_native(&mut self, s: SlabId, old: (Addr, Counters), new: (Addr, Counters)) -> bool {
        self.atomic(self.slab(s).line, cost::Id::LockedCmpxchg16b);
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

    // ----- kmem_cache_node -----

    pub fn node_of_slab(&self, s: SlabId) -> u32 {
        self.slab(s).node
    }

    pub fn lock_free(&self, n: u32) -> bool {
        self.node(n).list_lock.is_none()
    }

    pub fn spin_lock(&mut self, n: u32) {
        self.atomic(self.cfg.line_nd(n), cost::Id::SpinLock);
        if self.cpu(self.cur_cpu).irqs_on {
            let msg = format!(
                "{} took node {n}'s list_lock with interrupts enabled",
                self.ctx_name(self.cur)
            );
            self.violate("INV-13", msg);
        }
        // A scan of every slab: an invariant check, so only when checks are on.
        if self.checks && self.st.slabs.iter().any(|s| s.slab_lock == Some(self.cur)) {
            let msg = format!(
                "{} took list_lock while holding a slab_lock (order is list_lock first)",
                self.ctx_name(self.cur)
            );
            self.violate("INV-13", msg);
        }
        let cur = self.cur;
        if let Some(node) = self.node_mut(n) {
            node.list_lock = Some(cur);
        }
    }

    pub fn spin_unlock(&mut self, n: u32) {
        self.access(self.cfg.line_nd(n), Access::Write);
        self.charge(cost::Id::SpinUnlock);
        if let Some(node) = self.node_mut(n) {
            node.list_lock = None;
        }
    }

    pub fn ld_nr_partial(&mut self, n: u32) -> u32 {
        self.access(self.cfg.line_nd(n), Access::Read);
        self.node(n).nr_partial
    }

    /// The discard test of spec §2.9/§2.10/§2.13: `>` (3.x) or `>=` (4.0+).
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
            .map(|&p| self.slab(p).line)
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
        self.access(self.slab(s).line, Access::Write);
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
        self.access(self.slab(s).line, Access::Write);
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
            let cpus: Vec<u32> = (0..self.cfg.cpus as u32)
                .filter(|&k| self.cpu(k).page == Some(s))
                .collect();
            let why = if sl.life == Life::Discarded {
                Some("already discarded".to_string())
            } else if sl.counters.inuse != 0 {
                Some(format!("{} object(s) are in use", sl.counters.inuse))
            } else if sl.counters.frozen {
                Some("still frozen".into())
            } else if self.st.nodes.iter().any(|n| n.partial.contains(&s)) {
                Some("still on a partial list".into())
            } else if self
                .st
                .cpus
                .iter()
                .any(|c| self.chain_contains(c.partial, s))
            {
                Some("still on a CPU partial list".into())
            } else {
                None
            };
            self.pending_discards.push((s, why, cpus));
        }
        let first = self.slab(s).line;
        for l in first..=first.saturating_add(self.cfg.obj_lines) {
            self.invalidate_line(l);
        }
        if let Some(sl) = self.slab_mut(s) {
            sl.life = Life::Discarded;
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

/// Note `f` unless an earlier fault is noted (the first one is the one to report).
#[inline]
pub(super) fn note_fault(slot: &std::cell::Cell<Option<Fault>>, f: Fault) {
    if slot.get().is_none() {
        slot.set(Some(f));
    }
}

/// A lookup that found nothing: note it and hand out the inert stand-in.
#[cold]
pub(super) fn missing<T>(
    slot: &std::cell::Cell<Option<Fault>>,
    what: &'static str,
    id: u64,
    stand_in: &'static T,
) -> &'static T {
    note_fault(slot, Fault::NoSuch(what, id));
    stand_in
}

/// A lookup for a write: note it if it found nothing.
#[inline]
pub(super) fn found<T>(
    slot: &std::cell::Cell<Option<Fault>>,
    what: &'static str,
    id: u64,
    r: Option<T>,
) -> Option<T> {
    if r.is_none() {
        note_fault(slot, Fault::NoSuch(what, id));
    }
    r
}

/// The stand-ins a read gets for an id with nothing behind it: nothing linked, nothing held,
/// nothing free.
static NO_CPU: Cpu = Cpu {
    freelist: NULL,
    tid: 0,
    page: None,
    partial: None,
    local_lock: None,
    irqs_on: false,
    preempt_count: 0,
    current: None,
    irq: None,
    ghost_version: 0,
};
static NO_NODE: Node = Node {
    list_lock: None,
    nr_partial: 0,
    partial: Vec::new(),
};
static NO_PAGE: Page = Page {
    node: 0,
    freelist: NULL,
    counters: Counters {
        inuse: 0,
        objects: 0,
        frozen: false,
    },
    slab_lock: None,
    next: None,
    pages: 0,
    pobjects: 0,
    life: Life::Discarded,
    on_node_partial: false,
    fp: Vec::new(),
    line: 0,
};
static NO_VAR: Var = Var {
    bound: false,
    addr: None,
    freed: false,
};
static NO_CTX: Ctx = Ctx {
    kind: CtxKind::Task,
    cpu: 0,
    op_index: 0,
    stack: Vec::new(),
    finished: true,
    entered: false,
    settled: true,
    begun: false,
    saved_irqs_on: false,
    saved_preempt: 0,
    cur_op: None,
};

pub fn counters_text(c: Counters) -> String {
    format!(
        "inuse {} objects {} frozen {}",
        c.inuse, c.objects, c.frozen as u8
    )
}
