//! Step primitives shared by the modelled functions: per-CPU field access, irq and preempt
//! toggles, the CAS flavours of model.md §2.1, list_lock, add/remove_partial and discard_slab.
//! Each touches its cache lines through `access` and charges the cost table.

use super::memory::Access;
use super::{Core, Fault, Flow};
use crate::event::EventKind;
use crate::event::Violation;
use crate::model::cost;
use crate::model::state::*;

impl Core {
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
    pub(in crate::model) fn report_fault(&mut self, at: Option<&Frame>) {
        if self.fault.get().is_some() {
            self.report_noted_fault(at);
        }
    }

    #[cold]
    #[inline(never)]
    fn report_noted_fault(&mut self, at: Option<&Frame>) {
        let Some(f) = self.fault.take() else {
            return;
        };
        let place = match at {
            Some(fr) => format!(
                " ({} at {}:{})",
                self.cfg.ctx_ids.get(self.cur as usize).map_or("?", |s| s),
                fr.func().name(),
                fr.pc().name()
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
    pub(in crate::model) fn missing<T>(
        &self,
        what: &'static str,
        id: u64,
        stand_in: &'static T,
    ) -> &'static T {
        missing(&self.fault, what, id, stand_in)
    }

    /// The model stopped at an internal error, or found one it has not reported yet.
    #[inline]
    pub(in crate::model) fn stopped(&self) -> bool {
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
    /// Slab `s`'s memory (its allocator's fields of it are the allocator's: SLUB's and 7.0's
    /// `slab_page::slab`).
    #[inline]
    pub fn page(&self, s: SlabId) -> &Page {
        self.st
            .slabs
            .get(s as usize)
            .unwrap_or_else(|| missing(&self.fault, "slab", s.into(), &NO_PAGE))
    }
    #[inline]
    pub fn page_mut(&mut self, s: SlabId) -> Option<&mut Page> {
        found(
            &self.fault,
            "slab",
            s.into(),
            self.st.slabs.get_mut(s as usize),
        )
    }
    /// A new slab's memory from the page allocator on `node`: its descriptor line and its
    /// object lines, all uncached; the allocator adds its own fields of it.
    pub(in crate::model) fn new_page(&mut self, node: u32) -> SlabId {
        self.touch_resource(super::RES_PAGE_ALLOC, true);
        let id = self.st.slabs.len() as SlabId;
        let line = self.st.lines.len() as u32;
        for _ in 0..=self.cfg.obj_lines {
            self.st.lines.push([Mesi::I; MAX_CPUS]);
        }
        self.st.slabs.push(Page {
            node,
            life: Life::Private,
            fp: vec![NULL; self.cfg.objects as usize],
            line,
        });
        id
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
        self.cpu_cycles(self.cur_cpu as usize)
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

    /// `local_irq_save(flags)`: remember the flag in the frame's `flags`, disable.
    pub fn irq_save(&mut self, flags: &mut bool) {
        self.touch_resource(super::RES_SCHED | self.cur_cpu, true);
        if let Some(cpu) = self.my_cpu_mut() {
            *flags = cpu.irqs_on;
            cpu.irqs_on = false;
        }
        self.charge(cost::Id::IrqSave);
    }

    /// `local_irq_restore(flags)` of what the frame saved.
    pub fn irq_restore(&mut self, flags: bool) {
        self.touch_resource(super::RES_SCHED | self.cur_cpu, true);
        if let Some(cpu) = self.my_cpu_mut() {
            cpu.irqs_on = flags;
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

    // ----- kmem_cache_node -----

    pub fn node_of_slab(&self, s: SlabId) -> u32 {
        self.page(s).node
    }

    pub fn lock_free(&self, n: u32) -> bool {
        self.node(n).list_lock.is_none()
    }

    /// `spin_lock(&n->list_lock)`. `inside` is the allocator's answer to INV-13's order check:
    /// whether the stepping context holds a lock that nests inside `list_lock` (SLUB's
    /// `slab_lock`; SLAB has none, so it passes `false`).
    pub fn spin_lock(&mut self, n: u32, inside: bool) {
        self.atomic(self.cfg.line_nd(n), cost::Id::SpinLock);
        if self.cpu(self.cur_cpu).irqs_on {
            let msg = format!(
                "{} took node {n}'s list_lock with interrupts enabled",
                self.ctx_name(self.cur)
            );
            self.violate("INV-13", msg);
        }
        if self.checks && inside {
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
}

/// Note `f` unless an earlier fault is noted (the first one is the one to report).
#[inline]
pub(in crate::model) fn note_fault(slot: &std::cell::Cell<Option<Fault>>, f: Fault) {
    if slot.get().is_none() {
        slot.set(Some(f));
    }
}

/// A lookup that found nothing: note it and hand out the inert stand-in.
#[cold]
pub(in crate::model) fn missing<T>(
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
pub(in crate::model) fn found<T>(
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
    irqs_on: false,
    preempt_count: 0,
    current: None,
    irq: None,
};
static NO_NODE: Node = Node {
    list_lock: None,
    nr_partial: 0,
    partial: Vec::new(),
};
static NO_PAGE: Page = Page {
    node: 0,
    life: Life::Discarded,
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
