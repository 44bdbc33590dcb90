//! Contexts and moves (design.md §3): which move is enabled, applying one, settling a context
//! after its step, starting and finishing operations, setup and the default policy.

use super::allocator::AllocState;
use super::cost;
use super::state::OpCall;
use super::state::*;
use super::touch::Touch;
use super::{Block, Config, Core, Fault, Flow, Machine};
use crate::event::Event;
use crate::model::pcs::labels::*;
use crate::scenario::{Preempt, Scenario};

/// Why no move is enabled after an internal error of the model.
const HALTED: &str = "the model stopped at an internal error (the violation MODEL)";

/// A parsed move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    Step(CtxId),
    Migrate(CtxId, u32),
}

impl Machine {
    pub fn new(sc: Scenario, record: bool, checks: bool) -> Machine {
        Machine::with_costs(sc, record, checks, cost::Costs::default(), false)
    }

    /// A machine that charges `costs` instead of the table's and, if `count`, counts every
    /// charge per constant and CPU ([`Core::charges`]) and the cache-line transfers
    /// ([`Core::transfers`]): the Lab's breakdown of a run's cycles, its sensitivity runs,
    /// and its transfer counts without recording events.
    pub fn with_costs(
        sc: Scenario,
        record: bool,
        checks: bool,
        costs: cost::Costs,
        count: bool,
    ) -> Machine {
        let mut cfg = Config::from_scenario(sc);
        cfg.costs = costs;
        let cfg = std::rc::Rc::new(cfg);
        let cpus = cfg.cpus;
        let mut lines = Vec::new();
        for _ in 0..cfg.static_lines() {
            lines.push([Mesi::I; MAX_CPUS]);
        }
        let sc = &cfg.sc;
        let mut ctxs = Vec::new();
        for (kind, list) in [(CtxKind::Task, &sc.tasks), (CtxKind::Irq, &sc.irqs)] {
            ctxs.extend(list.iter().map(|t| Ctx::new(kind, t.cpu)));
        }
        // The hidden context that runs `setup`, one op at a time on the op's CPU.
        ctxs.push(Ctx::new(CtxKind::Task, 0));
        let st = State {
            cpus: (0..cpus)
                .map(|_| Cpu {
                    irqs_on: true,
                    preempt_count: 0,
                    current: None,
                    irq: None,
                })
                .collect(),
            nodes: (0..sc.nodes)
                .map(|_| Node {
                    list_lock: None,
                    nr_partial: 0,
                    partial: Vec::new(),
                })
                .collect(),
            slabs: Vec::new(),
            ctxs,
            vars: vec![Var::default(); cfg.var_names.len()],
            lines,
            stats: vec![[0; super::stats::NR_STATS]; cpus],
            cycles: vec![0; cpus],
            prefetches: Vec::new(),
            steps: 0,
            in_setup: true,
            last_moved: None,
        };
        let alloc = AllocState::new(&cfg);
        let core = Core {
            cfg,
            st,
            violations: Vec::new(),
            checks,
            rec: record.then(Box::default),
            probing: false,
            cur: 0,
            cur_cpu: 0,
            scratch: Vec::new(),
            ghost: Default::default(),
            foot: None,
            end_checked: false,
            pending_discards: Vec::new(),
            counts: count.then(Box::default),
            fault: Default::default(),
            halted: false,
        };
        let mut m = Machine { core, alloc };
        m.alloc.create_cache(&mut m.core);
        m.run_setup();
        m
    }

    /// The hidden context that runs `setup`: the one after the scenario's tasks and irqs.
    fn setup_ctx(&self) -> CtxId {
        self.core.cfg.n_ctx as CtxId
    }

    fn run_setup(&mut self) {
        let sx = self.setup_ctx();
        let setup = self.core.cfg.sc.setup.clone();
        for (i, op) in setup.iter().enumerate() {
            let k = op.cpu;
            if let Some(c) = self.core.ctx_mut(sx) {
                c.cpu = k;
            }
            if let Some(cpu) = self.core.cpu_mut(k) {
                cpu.current = Some(sx);
            }
            self.settle(sx);
            // Settling after an op's last step already lines up the next op: stop at the op
            // boundary so each op runs on its own CPU. An op that would not end (a variant that
            // livelocks) is cut after as many steps as a run may add, and said so.
            let mut budget = 0..crate::scenario::MAX_POLICY_MOVES;
            while !self.core.ctx(sx).stack.is_empty() && self.core.ctx(sx).cur_op == Some(i) {
                if self.blocked(sx).is_some() || self.core.stopped() {
                    break;
                }
                if budget.next().is_none() {
                    let msg = format!(
                        "setup[{i}] did not finish in {} steps: the variant livelocks",
                        crate::scenario::MAX_POLICY_MOVES
                    );
                    self.core.violate("LIVELOCK", msg);
                    break;
                }
                self.run_step(sx, None);
            }
            if let Some(cpu) = self.core.cpu_mut(k) {
                cpu.current = None;
            }
            // Validation refuses every setup op that could wait (on a dead CPU, on a variable
            // not yet allocated); one that still did would leave every later op unrun, so it
            // is said, never dropped in silence.
            if !self.core.stopped() && self.core.ctx(sx).op_index <= i {
                let why = self
                    .blocked_reason(sx)
                    .unwrap_or_else(|| "it did not start".into());
                self.core.violate(
                    "MODEL",
                    format!("setup[{i}] could not run: the setup {why}"),
                );
                break;
            }
        }
        if let Some(c) = self.core.ctx_mut(sx) {
            c.finished = true;
        }
        self.core.st.in_setup = false;
        // Each CPU's first task is current; the others wait switched out.
        let tasks = self.core.cfg.sc.tasks.len();
        for (i, c) in self.core.st.ctxs.iter().enumerate().take(tasks) {
            if let Some(cpu) = self.core.st.cpus.get_mut(c.cpu as usize) {
                if c.kind == CtxKind::Task && cpu.current.is_none() {
                    cpu.current = Some(i as CtxId);
                }
            }
        }
        for i in 0..self.core.cfg.n_ctx {
            self.settle(i as CtxId);
        }
        self.core.report_fault(None);
    }

    pub fn parse_move(&self, mv: &str) -> Result<Move, String> {
        let find = |id: &str| {
            self.core
                .cfg
                .ctx_ids
                .iter()
                .take(self.core.cfg.n_ctx)
                .position(|c| c == id)
                .map(|i| i as CtxId)
        };
        if let Some(rest) = mv.strip_prefix("migrate:") {
            let (task, cpu) = rest
                .rsplit_once(':')
                .ok_or_else(|| "a migration is written `migrate:<task>:<cpu>`".to_string())?;
            let t = find(task).ok_or_else(|| format!("there is no context `{task}`"))?;
            if self.core.ctx(t).kind != CtxKind::Task {
                return Err(format!(
                    "`{task}` is an interrupt handler; only tasks migrate"
                ));
            }
            let k: u32 = cpu
                .parse()
                .map_err(|_| format!("`{cpu}` is not a CPU number"))?;
            if k as usize >= self.core.cfg.cpus {
                return Err(format!(
                    "there is no cpu{k} (the scenario has {} CPUs)",
                    self.core.cfg.cpus
                ));
            }
            return Ok(Move::Migrate(t, k));
        }
        find(mv)
            .map(Move::Step)
            .ok_or_else(|| format!("there is no context `{mv}`"))
    }

    /// Whether a move is enabled now (the fast check the policies and the explorer use).
    pub fn move_enabled(&self, mv: Move) -> bool {
        match mv {
            // A move of a context that does not exist (only a caller that made up a `Move`
            // can name one) is not enabled; after an internal error nothing is.
            Move::Step(cx) => {
                let Some(c) = self.core.st.ctxs.get(cx as usize) else {
                    return false;
                };
                if c.finished || self.core.stopped() {
                    return false;
                }
                let cpu = self.core.cpu(c.cpu);
                let ok = match c.kind {
                    CtxKind::Irq => c.entered || (cpu.irq.is_none() && cpu.irqs_on),
                    CtxKind::Task => {
                        cpu.irq.is_none()
                            && (cpu.current == Some(cx)
                                || cpu
                                    .current
                                    .is_none_or(|cur| self.switch_blocked(cur).is_none()))
                    }
                };
                ok && self.blocked(cx).is_none()
            }
            Move::Migrate(..) => self.move_blocked(mv).is_none(),
        }
    }

    /// Why a move cannot be applied now, or `None` if it is enabled.
    pub fn move_blocked(&self, mv: Move) -> Option<String> {
        match mv {
            Move::Step(cx) => {
                let Some(c) = self.core.st.ctxs.get(cx as usize) else {
                    return Some(format!("there is no context {cx}"));
                };
                let name = self.core.ctx_name(cx);
                if c.finished {
                    return Some(format!("{name} has finished"));
                }
                if self.core.stopped() {
                    return Some(HALTED.into());
                }
                let cpu = self.core.cpu(c.cpu);
                match c.kind {
                    CtxKind::Irq => {
                        if !c.entered {
                            if let Some(other) = cpu.irq {
                                return Some(format!(
                                    "interrupt handler {} is running on cpu{}",
                                    self.core.ctx_name(other),
                                    c.cpu
                                ));
                            }
                            if !cpu.irqs_on {
                                return Some(format!("interrupts are disabled on cpu{}", c.cpu));
                            }
                        }
                    }
                    CtxKind::Task => {
                        if let Some(i) = cpu.irq {
                            return Some(format!(
                                "interrupt handler {} is running on cpu{}",
                                self.core.ctx_name(i),
                                c.cpu
                            ));
                        }
                        if cpu.current != Some(cx) {
                            if let Some(cur) = cpu.current {
                                if let Some(why) = self.switch_blocked(cur) {
                                    return Some(format!(
                                        "{name} would preempt {} on cpu{}, but {why}",
                                        self.core.ctx_name(cur),
                                        c.cpu
                                    ));
                                }
                            }
                        }
                    }
                }
                self.blocked_reason(cx).map(|why| format!("{name} {why}"))
            }
            Move::Migrate(t, k) => {
                let Some(c) = self.core.st.ctxs.get(t as usize) else {
                    return Some(format!("there is no context {t}"));
                };
                let name = self.core.ctx_name(t);
                if c.finished {
                    return Some(format!("{name} has finished"));
                }
                if self.core.stopped() {
                    return Some(HALTED.into());
                }
                if c.kind != CtxKind::Task || k as usize >= self.core.cfg.cpus {
                    return Some(format!("{name} cannot migrate to cpu{k}"));
                }
                if self.core.variant().preempt == Preempt::None {
                    return Some(
                        "tasks cannot be preempted or migrated with preempt = none".into(),
                    );
                }
                if c.cpu == k {
                    return Some(format!("{name} is already on cpu{k}"));
                }
                if self.cpu_offline(k) {
                    return Some(format!("cpu{k} is offline (a survivor flushed it as dead)"));
                }
                if self.core.cpu(c.cpu).current == Some(t) {
                    return Some(format!(
                        "{name} is running on cpu{}: only a task that is switched out can migrate",
                        c.cpu
                    ));
                }
                None
            }
        }
    }

    /// Why the current task `cur` of a CPU cannot be switched out now.
    fn switch_blocked(&self, cur: CtxId) -> Option<String> {
        let c = self.core.ctx(cur);
        if c.finished {
            return None;
        }
        let cpu = self.core.cpu(c.cpu);
        let at_sleep_point = c.stack.last().is_some_and(|f| self.alloc.at_sleep_point(f));
        if self.core.variant().preempt == Preempt::None {
            return (!at_sleep_point).then(|| {
                "the kernel is not preemptible (preempt = none) and it is not sleeping".into()
            });
        }
        if cpu.preempt_count > 0 {
            return Some(format!(
                "preemption is disabled (preempt count {})",
                cpu.preempt_count
            ));
        }
        if !cpu.irqs_on {
            return Some("interrupts are disabled".into());
        }
        None
    }

    /// Whether a context's next step must wait: a lock held by another, a variable not yet
    /// bound. `None` means it can take its step.
    pub fn blocked(&self, cx: CtxId) -> Option<Block> {
        let c = self.core.ctx(cx);
        if c.finished {
            return Some(Block::Finished);
        }
        let Some(fr) = c.stack.last() else {
            return match self.core.cfg.ops_of(cx).get(c.op_index) {
                Some(IOp::Free { var }) | Some(IOp::Touch { var })
                    if !self.core.var(*var).bound =>
                {
                    Some(Block::Var(*var))
                }
                Some(IOp::Flush { target: Some(k) }) if self.cpu_busy(*k, cx) => {
                    Some(Block::CpuOnline(*k))
                }
                _ => None,
            };
        };
        self.alloc.lock_wait(&self.core, cx, fr)
    }

    /// `blocked` in words ("spins on node 0's list_lock, held by B").
    pub fn blocked_reason(&self, cx: CtxId) -> Option<String> {
        self.blocked(cx).map(|b| match b {
            Block::Finished => "has finished".into(),
            Block::Var(v) => format!("waits until `{}` is allocated", self.core.var_name(v)),
            Block::CpuOnline(k) => format!(
                "waits until cpu{k}'s contexts have finished: it flushes cpu{k} as a dead CPU"
            ),
            Block::ListLock(n, h) => format!(
                "spins on node {n}'s list_lock, held by {}",
                self.core.ctx_name(h)
            ),
            Block::SlabLock(s, h) => format!(
                "spins on slab {}'s slab_lock, held by {}",
                self.core.slab_name(s),
                self.core.ctx_name(h)
            ),
            Block::BarnLock(n, h) => format!(
                "spins on node {n}'s barn lock, held by {}",
                self.core.ctx_name(h)
            ),
            Block::GracePeriod(k) => format!(
                "waits in synchronize_sched() until cpu{k} has left the interrupts-off section it was in when the shared array was swapped"
            ),
            Block::LocalLock(k, h) => format!(
                "waits for cpu{k}'s local lock, held by {}",
                self.core.ctx_name(h)
            ),
        })
    }

    /// The moves that may come next: contexts in scenario order, then migrations.
    pub fn enabled_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        let n = self.core.cfg.n_ctx;
        for cx in 0..n as CtxId {
            if self.move_enabled(Move::Step(cx)) {
                out.push(Move::Step(cx));
            }
        }
        if self.core.variant().preempt == Preempt::Full {
            for cx in 0..self.core.cfg.sc.tasks.len() as CtxId {
                for k in 0..self.core.cfg.cpus as u32 {
                    let mv = Move::Migrate(cx, k);
                    if self.move_blocked(mv).is_none() {
                        out.push(mv);
                    }
                }
            }
        }
        out
    }

    pub fn move_text(&self, mv: Move) -> String {
        match mv {
            Move::Step(cx) => self.core.ctx_name(cx).to_string(),
            Move::Migrate(t, k) => format!("migrate:{}:{k}", self.core.ctx_name(t)),
        }
    }

    /// Apply an enabled move (the caller checked `move_blocked`).
    pub fn apply_move(&mut self, mv: Move, index: Option<usize>) {
        if self.core.foot.is_some() {
            self.note_move_resources(mv);
        }
        match mv {
            Move::Migrate(t, k) => {
                let from = self.core.ctx(t).cpu;
                if let Some(c) = self.core.ctx_mut(t) {
                    c.cpu = k;
                }
                if let Some(cpu) = self.core.cpu_mut(from) {
                    if cpu.current == Some(t) {
                        cpu.current = None;
                    }
                }
            }
            Move::Step(cx) => {
                let (k, kind, entered) = {
                    let c = self.core.ctx(cx);
                    (c.cpu, c.kind, c.entered)
                };
                match kind {
                    CtxKind::Task => {
                        if let Some(cpu) = self.core.cpu_mut(k) {
                            cpu.current = Some(cx);
                        }
                    }
                    CtxKind::Irq => {
                        if !entered {
                            let (irqs_on, preempt) = {
                                let cpu = self.core.cpu(k);
                                (cpu.irqs_on, cpu.preempt_count)
                            };
                            if let Some(c) = self.core.ctx_mut(cx) {
                                c.entered = true;
                                c.saved_irqs_on = irqs_on;
                                c.saved_preempt = preempt;
                            }
                            if let Some(cpu) = self.core.cpu_mut(k) {
                                cpu.irqs_on = false;
                                cpu.preempt_count.bump();
                                cpu.irq = Some(cx);
                            }
                        }
                    }
                }
                if !self.core.ctx(cx).settled {
                    self.settle(cx);
                }
                // Settling can finish the context without a step: its last ops had none (a
                // `free` of a variable whose allocation failed is kfree(NULL), which returns
                // at once). The move then only lets it run to its end.
                if !self.core.ctx(cx).stack.is_empty() && !self.core.stopped() {
                    self.run_step(cx, index);
                }
                // SLAB's grace periods (the `tune` op): a CPU that has interrupts on now has
                // left the section a pending `synchronize_sched()` waits for.
                self.alloc.quiescent(&mut self.core);
                self.core.st.last_moved = Some(cx);
            }
        }
        self.core.report_fault(None);
    }

    pub fn all_finished(&self) -> bool {
        self.core
            .st
            .ctxs
            .iter()
            .take(self.core.cfg.n_ctx)
            .all(|c| c.finished)
    }

    /// Some context is unfinished and no move is enabled. (Not after an internal error of the
    /// model: nothing moves then because the model stopped, `MODEL` says why.)
    pub fn deadlocked(&self) -> bool {
        !self.core.stopped()
            && !self.all_finished()
            && (0..self.core.cfg.n_ctx as CtxId).all(|c| !self.move_enabled(Move::Step(c)))
    }

    /// Run free work of context `cx` until its next label is a step (or it finishes).
    pub(super) fn settle(&mut self, cx: CtxId) {
        self.core.probing = true;
        self.core.cur = cx;
        // An internal error stops the settling where it was found.
        while !self.core.stopped() {
            self.core.cur_cpu = self.core.ctx(cx).cpu;
            if self.core.ctx(cx).stack.is_empty() {
                if !self.start_op(cx) {
                    break;
                }
                continue;
            }
            let flow = self.exec_top(cx);
            if let Flow::Pending = flow {
                if let Some(c) = self.core.ctx_mut(cx) {
                    c.settled = true;
                }
                break;
            }
            self.after_exec(cx, flow);
        }
        self.core.probing = false;
    }

    /// Run the current label of `cx`'s top frame in place. The stack is moved out for the
    /// call (a three-word move, not a frame copy), so nothing that runs inside a label may
    /// look at this context's stack: invariant checks that need it run after the step. An
    /// internal error the label found is reported here, where its label is known.
    fn exec_top(&mut self, cx: CtxId) -> Flow {
        let Some(c) = self.core.ctx_mut(cx) else {
            return Flow::Step;
        };
        let mut stack = std::mem::take(&mut c.stack);
        let flow = match stack.last_mut() {
            Some(fr) => {
                let flow = self.alloc.exec(&mut self.core, fr);
                self.core.report_fault(Some(fr));
                flow
            }
            None => self
                .core
                .fault(Fault::Broken("a context stepped with no frame to run")),
        };
        if let Some(c) = self.core.ctx_mut(cx) {
            c.stack = stack;
        }
        flow
    }

    /// Push/pop frames after `exec` ran the top frame's label. A return pops the frame and
    /// hands what it returned to its caller's return register (`Frame::returned`), or ends the
    /// op with it.
    fn after_exec(&mut self, cx: CtxId, flow: Flow) {
        let Some(c) = self.core.ctx_mut(cx) else {
            return;
        };
        let stack = &mut c.stack;
        let ret = match flow {
            Flow::Step | Flow::Go | Flow::Pending => return,
            Flow::Call(child) => return stack.push(*child),
            Flow::Ret(ret) => ret,
        };
        // The returning frame is the one `exec_top` just ran.
        if stack.pop().is_none() {
            return;
        }
        if let Some(parent) = stack.last_mut() {
            parent.returned(ret);
        } else {
            self.finish_op(cx, ret.value);
        }
    }

    /// Start the context's next op. Returns false if there is none (finished) or it must wait.
    fn start_op(&mut self, cx: CtxId) -> bool {
        let idx = self.core.ctx(cx).op_index;
        let Some(&op) = self.core.cfg.ops_of(cx).get(idx) else {
            self.finish_ctx(cx);
            return false;
        };
        if self.blocked(cx).is_some() {
            return false;
        }
        let fr = match op {
            IOp::Alloc { node, .. } => Some(self.alloc.op_frame(OpCall::Alloc { node })),
            IOp::Flush { target } => Some(self.alloc.op_frame(OpCall::Flush { target })),
            // SLAB only (`scenario::validate` refuses it elsewhere).
            IOp::Tune => match self.alloc.tune_frame() {
                Some(fr) => Some(fr),
                None => {
                    self.core.fault(Fault::Broken(
                        "`tune` under an allocator without a shared array",
                    ));
                    None
                }
            },
            IOp::Free { var } => {
                let addr = self.core.var(var).addr;
                match addr {
                    None => {
                        if let Some(v) = self.core.var_mut(var) {
                            v.freed = true;
                        }
                        None // kfree(NULL): nothing to do
                    }
                    // The variable lets go of its object at the op's first step (`begin_op`).
                    Some(a) => match self.core.slab_of(a) {
                        Some(s) => Some(self.alloc.op_frame(OpCall::Free { addr: a, slab: s })),
                        None => {
                            if let Some(v) = self.core.var_mut(var) {
                                v.freed = true;
                            }
                            let msg = format!(
                                "kfree of `{}` = {}, which is not an object of this cache (the allocation returned user data)",
                                self.core.var_name(var),
                                self.core.addr_name(a)
                            );
                            self.core.violate("INV-2", msg);
                            None
                        }
                    },
                }
            }
            IOp::Touch { var } => self.core.var(var).addr.map(|a| Frame::Touch {
                pc: touch::TC,
                l: Touch {
                    x: a,
                    var: var as u32,
                },
            }),
        };
        let Some(c) = self.core.ctx_mut(cx) else {
            return false;
        };
        // At most the context's op count (`MAX_CONTEXT_OPS`, or a workload's length).
        c.op_index.bump();
        c.cur_op = Some(idx);
        c.begun = false;
        match fr {
            Some(f) => c.stack.push(f),
            None => self.finish_op(cx, NULL),
        }
        true
    }

    /// The first step of an op: a `free` hands its object over to the kernel now (not when
    /// the op was merely lined up by settling, which happens before the context moves).
    fn begin_op(&mut self, cx: CtxId) {
        let Some(c) = self.core.ctx_mut(cx) else {
            return;
        };
        if c.begun {
            return;
        }
        c.begun = true;
        let Some(i) = c.cur_op else { return };
        match self.core.cfg.ops_of(cx).get(i) {
            Some(&IOp::Free { var }) => {
                if let Some(v) = self.core.var_mut(var) {
                    v.freed = true;
                }
                self.core.ghost.frees.bump();
            }
            Some(&IOp::Flush { target: Some(k) }) => {
                // Hotplug: this start waited for k's contexts to finish and takes k
                // offline (no migration there any more): both are part of its footprint.
                use super::{RES_CTX, RES_SCHED};
                if self.core.foot.is_some() {
                    let on_k: Vec<usize> = (self.core.st.ctxs.iter().enumerate())
                        .filter(|(_, c)| c.cpu == k)
                        .map(|(o, _)| o)
                        .collect();
                    for o in on_k {
                        self.core.touch_resource(RES_CTX | o as u32, false);
                    }
                }
                self.core.touch_resource(RES_SCHED | k, true);
            }
            _ => {}
        }
    }

    /// Whether a context other than `cx` is still alive on CPU k (so k cannot go offline).
    fn cpu_busy(&self, k: u32, cx: CtxId) -> bool {
        self.core
            .st
            .ctxs
            .iter()
            .enumerate()
            .any(|(o, c)| o != cx as usize && c.cpu == k && !c.finished)
    }

    /// Whether a survivor has begun flushing CPU k as dead (an op `flush` with `target` k).
    pub fn cpu_offline(&self, k: u32) -> bool {
        self.core.st.ctxs.iter().enumerate().any(|(o, c)| {
            self.core
                .cfg
                .ops_of(o as CtxId)
                .iter()
                .take(c.op_index)
                .any(|op| matches!(op, IOp::Flush { target: Some(t) } if *t == k))
        })
    }

    fn finish_op(&mut self, cx: CtxId, v: Addr) {
        let Some(i) = self.core.ctx(cx).cur_op else {
            return;
        };
        if let Some(&IOp::Alloc { var: vi, .. }) = self.core.cfg.ops_of(cx).get(i) {
            let addr = (v != NULL).then_some(v);
            if let Some(a) = addr {
                self.core.ghost.allocs.bump();
                // INV-1 by a scan of every variable: an invariant check, so only when checks
                // are on (the Lab's runs bind tens of thousands of variables).
                let holder = if self.core.checks {
                    self.core
                        .st
                        .vars
                        .iter()
                        .position(|o| o.held() && o.addr == Some(a))
                } else {
                    None
                };
                if let Some(other) = holder {
                    let msg = format!(
                        "`{}` was handed {}, which `{}` still holds: a double allocation",
                        self.core.var_name(vi),
                        self.core.addr_name(a),
                        self.core.var_name(other)
                    );
                    self.core.violate("INV-1", msg);
                }
            }
            if let Some(var) = self.core.var_mut(vi) {
                var.bound = true;
                var.addr = addr;
            }
        }
        if let Some(c) = self.core.ctx_mut(cx) {
            c.cur_op = None;
        }
    }

    /// The scheduling state a move reads or writes, for the explorer's footprints: every move
    /// of a context writes that context; a step reads its CPU's scheduling state (who is
    /// current, irqs, preemption), a switch, an irq entry or a migration writes it.
    fn note_move_resources(&mut self, mv: Move) {
        use super::{RES_CTX, RES_SCHED};
        match mv {
            Move::Migrate(t, k) => {
                let from = self.core.ctx(t).cpu;
                self.core.touch_resource(RES_CTX | t as u32, true);
                self.core.touch_resource(RES_SCHED | from, true);
                self.core.touch_resource(RES_SCHED | k, true);
            }
            Move::Step(cx) => {
                let c = self.core.ctx(cx);
                let k = c.cpu;
                let switches = match c.kind {
                    CtxKind::Irq => !c.entered,
                    CtxKind::Task => self.core.cpu(k).current != Some(cx),
                };
                self.core.touch_resource(RES_CTX | cx as u32, true);
                self.core.touch_resource(RES_SCHED | k, switches);
            }
        }
    }

    fn finish_ctx(&mut self, cx: CtxId) {
        let k = self.core.ctx(cx).cpu;
        self.core.touch_resource(super::RES_SCHED | k, true);
        let n_ctx = self.core.cfg.n_ctx;
        let Some(c) = self.core.ctx_mut(cx) else {
            return;
        };
        if c.finished {
            return;
        }
        c.finished = true;
        let (kind, entered, on, preempt) = (c.kind, c.entered, c.saved_irqs_on, c.saved_preempt);
        let Some(cpu) = self.core.cpu_mut(k) else {
            return;
        };
        match kind {
            CtxKind::Irq => {
                if entered {
                    cpu.irqs_on = on;
                    cpu.preempt_count = preempt;
                    cpu.irq = None;
                }
            }
            CtxKind::Task => {
                if cpu.current == Some(cx) && (cx as usize) < n_ctx {
                    cpu.current = None;
                }
            }
        }
    }

    /// Execute the step at the top of `cx`'s stack, settle, record and check.
    pub(super) fn run_step(&mut self, cx: CtxId, mv: Option<usize>) {
        self.core.cur = cx;
        self.core.cur_cpu = self.core.ctx(cx).cpu;
        if let Some(c) = self.core.ctx_mut(cx) {
            c.settled = false;
        }
        self.begin_op(cx);
        if self.core.recording() {
            // A settled context that moves has a step on top (`apply_move` checked).
            let label = self
                .core
                .ctx(cx)
                .stack
                .last()
                .map(|fr| format!("{}:{}", fr.func().name(), fr.pc().name()))
                .unwrap_or_default();
            let ev = Event {
                step: self.core.st.steps,
                mv,
                ctx: self.core.ctx_name(cx).to_string(),
                cpu: self.core.cur_cpu,
                label,
                ..Default::default()
            };
            if let Some(rec) = self.core.rec.as_mut() {
                rec.cur = ev;
            }
        }
        let flow = self.exec_top(cx);
        debug_assert!(!matches!(flow, Flow::Pending));
        self.after_exec(cx, flow);
        self.settle(cx);
        if let Some(r) = self.core.rec.as_mut() {
            let mut ev = std::mem::take(&mut r.cur);
            let waited = std::mem::take(&mut r.prefetch_wait);
            if waited > 0 {
                // The step itself does not know: the access waited for a prefetch in flight.
                ev.narration += &format!(
                    " The line was prefetched but still on its way: {waited} of the cycles are the wait for the rest of its transfer."
                );
            }
            r.events.push(ev);
        }
        // The invariants judge a consistent state only: after an internal error `MODEL` says
        // what broke.
        if self.core.checks && !self.core.halted {
            self.check_step_invariants();
        }
        // A run is bounded by its moves (`MAX_POLICY_MOVES` and the like), far below u64.
        self.core.st.steps.bump();
    }
}

impl Machine {
    /// After a move: at the end of the run check INV-15, and report a deadlock as an outcome
    /// (or an internal error of the model a read-only lookup noted since the last move).
    pub fn finish_if_done(&mut self) {
        self.core.report_fault(None);
        if self.core.end_checked || self.core.halted {
            return;
        }
        if self.all_finished() {
            self.core.end_checked = true;
            self.check_end_of_run();
        } else if self.deadlocked() {
            self.core.end_checked = true;
            let waits: Vec<String> = (0..self.core.cfg.n_ctx as CtxId)
                .filter(|&c| !self.core.ctx(c).finished)
                .map(|c| match self.blocked_reason(c) {
                    Some(r) => format!("{} {r}", self.core.ctx_name(c)),
                    None => format!("{} cannot run", self.core.ctx_name(c)),
                })
                .collect();
            self.core.violate(
                "DEADLOCK",
                format!("no context can move: {}", waits.join("; ")),
            );
        }
    }
}
