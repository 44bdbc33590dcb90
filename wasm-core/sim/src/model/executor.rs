//! Contexts and moves (DESIGN §3): which move is enabled, applying one, settling a context
//! after its step, starting and finishing operations, setup and the default policy.

use super::allocator::OpCall;
use super::cost;
use super::state::*;
use super::{Config, Flow, Machine};
use crate::event::Event;
use crate::scenario::{Op, Preempt, Scenario};

/// Why a context cannot take its next step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    Finished,
    Var(usize),
    ListLock(u32, CtxId),
    SlabLock(SlabId, CtxId),
    LocalLock(u32, CtxId),
    /// Linux 7.0: node n's barn lock.
    BarnLock(u32, CtxId),
    /// A survivor's flush of CPU k (hotplug) waits until k's contexts have finished.
    CpuOnline(u32),
}

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
    /// charge per constant and CPU ([`Machine::charges`]) and the cache-line transfers
    /// ([`Machine::transfers`]): the Lab's breakdown of a run's cycles, its sensitivity runs,
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
                .map(|k| Cpu {
                    freelist: NULL,
                    tid: k as u64,
                    page: None,
                    partial: None,
                    local_lock: None,
                    irqs_on: true,
                    preempt_count: 0,
                    current: None,
                    irq: None,
                    ghost_version: 0,
                })
                .collect(),
            nodes: (0..sc.nodes)
                .map(|_| Node {
                    list_lock: None,
                    nr_partial: 0,
                    partial: Vec::new(),
                })
                .collect(),
            alloc: Machine::initial_alloc_state(&cfg),
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
        let mut m = Machine {
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
        };
        m.create_cache();
        m.run_setup();
        m
    }

    fn setup_ctx(&self) -> CtxId {
        (self.st.ctxs.len() - 1) as CtxId
    }

    fn run_setup(&mut self) {
        let sx = self.setup_ctx();
        let setup = self.cfg.sc.setup.clone();
        for (i, op) in setup.iter().enumerate() {
            let k = op.cpu;
            self.st.ctxs[sx as usize].cpu = k;
            self.st.cpus[k as usize].current = Some(sx);
            self.settle(sx);
            // Settling after an op's last step already lines up the next op: stop at the op
            // boundary so each op runs on its own CPU. An op that would not end (a variant that
            // livelocks) is cut after as many steps as a run may add, and said so.
            let mut steps = 0;
            while !self.st.ctxs[sx as usize].stack.is_empty()
                && self.st.ctxs[sx as usize].cur_op == Some(i)
            {
                if self.blocked(sx).is_some() {
                    break;
                }
                if steps == crate::MAX_POLICY_MOVES {
                    let msg = format!(
                        "setup[{i}] did not finish in {steps} steps: the variant livelocks"
                    );
                    self.violate("LIVELOCK", msg);
                    break;
                }
                self.run_step(sx, None);
                steps += 1;
            }
            self.st.cpus[k as usize].current = None;
        }
        self.st.ctxs[sx as usize].finished = true;
        self.st.in_setup = false;
        // Each CPU's first task is current; the others wait switched out.
        for (i, c) in self.st.ctxs.iter().enumerate() {
            if c.kind == CtxKind::Task
                && i < self.cfg.sc.tasks.len()
                && self.st.cpus[c.cpu as usize].current.is_none()
            {
                self.st.cpus[c.cpu as usize].current = Some(i as CtxId);
            }
        }
        for i in 0..self.cfg.n_ctx {
            self.settle(i as CtxId);
        }
    }

    pub fn parse_move(&self, mv: &str) -> Result<Move, String> {
        let find = |id: &str| {
            self.cfg.ctx_ids[..self.cfg.n_ctx]
                .iter()
                .position(|c| c == id)
                .map(|i| i as CtxId)
        };
        if let Some(rest) = mv.strip_prefix("migrate:") {
            let (task, cpu) = rest
                .rsplit_once(':')
                .ok_or_else(|| "a migration is written `migrate:<task>:<cpu>`".to_string())?;
            let t = find(task).ok_or_else(|| format!("there is no context `{task}`"))?;
            if self.st.ctxs[t as usize].kind != CtxKind::Task {
                return Err(format!(
                    "`{task}` is an interrupt handler; only tasks migrate"
                ));
            }
            let k: u32 = cpu
                .parse()
                .map_err(|_| format!("`{cpu}` is not a CPU number"))?;
            if k as usize >= self.cfg.cpus {
                return Err(format!(
                    "there is no cpu{k} (the scenario has {} CPUs)",
                    self.cfg.cpus
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
            Move::Step(cx) => {
                let c = &self.st.ctxs[cx as usize];
                if c.finished {
                    return false;
                }
                let cpu = &self.st.cpus[c.cpu as usize];
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
                let c = &self.st.ctxs[cx as usize];
                let name = self.ctx_name(cx);
                if c.finished {
                    return Some(format!("{name} has finished"));
                }
                let cpu = &self.st.cpus[c.cpu as usize];
                match c.kind {
                    CtxKind::Irq => {
                        if !c.entered {
                            if let Some(other) = cpu.irq {
                                return Some(format!(
                                    "interrupt handler {} is running on cpu{}",
                                    self.ctx_name(other),
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
                                self.ctx_name(i),
                                c.cpu
                            ));
                        }
                        if cpu.current != Some(cx) {
                            if let Some(cur) = cpu.current {
                                if let Some(why) = self.switch_blocked(cur) {
                                    return Some(format!(
                                        "{name} would preempt {} on cpu{}, but {why}",
                                        self.ctx_name(cur),
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
                let c = &self.st.ctxs[t as usize];
                let name = self.ctx_name(t);
                if c.finished {
                    return Some(format!("{name} has finished"));
                }
                if self.variant().preempt == Preempt::None {
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
                if self.st.cpus[c.cpu as usize].current == Some(t) {
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
        let c = &self.st.ctxs[cur as usize];
        if c.finished {
            return None;
        }
        let cpu = &self.st.cpus[c.cpu as usize];
        let at_sleep_point = c.stack.last().is_some_and(|f| self.at_sleep_point(f));
        if self.variant().preempt == Preempt::None {
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
        let c = &self.st.ctxs[cx as usize];
        if c.finished {
            return Some(Block::Finished);
        }
        let Some(fr) = c.stack.last() else {
            return match self.cfg.ops_of(cx).get(c.op_index) {
                Some(IOp::Free { var }) | Some(IOp::Touch { var }) if !self.st.vars[*var].bound => {
                    Some(Block::Var(*var))
                }
                Some(IOp::Flush { target: Some(k) }) if self.cpu_busy(*k, cx) => {
                    Some(Block::CpuOnline(*k))
                }
                _ => None,
            };
        };
        self.lock_wait(cx, fr)
    }

    /// `blocked` in words ("spins on node 0's list_lock, held by B").
    pub fn blocked_reason(&self, cx: CtxId) -> Option<String> {
        self.blocked(cx).map(|b| match b {
            Block::Finished => "has finished".into(),
            Block::Var(v) => format!("waits until `{}` is allocated", self.cfg.var_names[v]),
            Block::CpuOnline(k) => format!(
                "waits until cpu{k}'s contexts have finished: it flushes cpu{k} as a dead CPU"
            ),
            Block::ListLock(n, h) => format!(
                "spins on node {n}'s list_lock, held by {}",
                self.ctx_name(h)
            ),
            Block::SlabLock(s, h) => format!(
                "spins on slab {}'s slab_lock, held by {}",
                self.slab_name(s),
                self.ctx_name(h)
            ),
            Block::BarnLock(n, h) => format!(
                "spins on node {n}'s barn lock, held by {}",
                self.ctx_name(h)
            ),
            Block::LocalLock(k, h) => format!(
                "waits for cpu{k}'s local lock, held by {}",
                self.ctx_name(h)
            ),
        })
    }

    /// The moves that may come next: contexts in scenario order, then migrations.
    pub fn enabled_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        let n = self.cfg.n_ctx;
        for cx in 0..n as CtxId {
            if self.move_enabled(Move::Step(cx)) {
                out.push(Move::Step(cx));
            }
        }
        if self.variant().preempt == Preempt::Full {
            for cx in 0..self.cfg.sc.tasks.len() as CtxId {
                for k in 0..self.cfg.cpus as u32 {
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
            Move::Step(cx) => self.ctx_name(cx).to_string(),
            Move::Migrate(t, k) => format!("migrate:{}:{k}", self.ctx_name(t)),
        }
    }

    /// Apply an enabled move (the caller checked `move_blocked`).
    pub fn apply_move(&mut self, mv: Move, index: Option<usize>) {
        if self.foot.is_some() {
            self.note_move_resources(mv);
        }
        match mv {
            Move::Migrate(t, k) => {
                let from = self.st.ctxs[t as usize].cpu;
                self.st.ctxs[t as usize].cpu = k;
                if self.st.cpus[from as usize].current == Some(t) {
                    self.st.cpus[from as usize].current = None;
                }
            }
            Move::Step(cx) => {
                let k = self.st.ctxs[cx as usize].cpu;
                match self.st.ctxs[cx as usize].kind {
                    CtxKind::Task => {
                        self.st.cpus[k as usize].current = Some(cx);
                    }
                    CtxKind::Irq => {
                        if !self.st.ctxs[cx as usize].entered {
                            let cpu = &mut self.st.cpus[k as usize];
                            let c = &mut self.st.ctxs[cx as usize];
                            c.entered = true;
                            c.saved_irqs_on = cpu.irqs_on;
                            c.saved_preempt = cpu.preempt_count;
                            cpu.irqs_on = false;
                            cpu.preempt_count += 1;
                            cpu.irq = Some(cx);
                        }
                    }
                }
                if !self.st.ctxs[cx as usize].settled {
                    self.settle(cx);
                }
                // Settling can finish the context without a step: its last ops had none (a
                // `free` of a variable whose allocation failed is kfree(NULL), which returns
                // at once). The move then only lets it run to its end.
                if !self.st.ctxs[cx as usize].stack.is_empty() {
                    self.run_step(cx, index);
                }
                self.st.last_moved = Some(cx);
            }
        }
    }

    pub fn all_finished(&self) -> bool {
        self.st.ctxs[..self.cfg.n_ctx].iter().all(|c| c.finished)
    }

    /// Some context is unfinished and no move is enabled.
    pub fn deadlocked(&self) -> bool {
        !self.all_finished()
            && (0..self.cfg.n_ctx as CtxId).all(|c| !self.move_enabled(Move::Step(c)))
    }

    /// Run free work of context `cx` until its next label is a step (or it finishes).
    pub(super) fn settle(&mut self, cx: CtxId) {
        self.probing = true;
        self.cur = cx;
        loop {
            self.cur_cpu = self.st.ctxs[cx as usize].cpu;
            if self.st.ctxs[cx as usize].stack.is_empty() {
                if !self.start_op(cx) {
                    break;
                }
                continue;
            }
            let flow = self.exec_top(cx);
            if let Flow::Pending = flow {
                self.st.ctxs[cx as usize].settled = true;
                break;
            }
            self.after_exec(cx, flow);
        }
        self.probing = false;
    }

    /// Run the current label of `cx`'s top frame in place. The stack is moved out for the
    /// call (a three-word move, not a frame copy), so nothing that runs inside a label may
    /// look at this context's stack: invariant checks that need it run after the step.
    fn exec_top(&mut self, cx: CtxId) -> Flow {
        let mut stack = std::mem::take(&mut self.st.ctxs[cx as usize].stack);
        let flow = self.exec(stack.last_mut().expect("a frame to run"));
        self.st.ctxs[cx as usize].stack = stack;
        flow
    }

    /// Push/pop frames after `exec` ran the top frame's label.
    fn after_exec(&mut self, cx: CtxId, flow: Flow) {
        let stack = &mut self.st.ctxs[cx as usize].stack;
        match flow {
            Flow::Step | Flow::Go | Flow::Pending => {}
            Flow::Call(child) => stack.push(*child),
            Flow::Ret(v, s) => {
                let fr = stack.pop().expect("the returning frame");
                if let Some(parent) = stack.last_mut() {
                    parent.ret = v;
                    parent.ret_slab = s;
                    parent.ret_count = fr.count;
                    if fr.func == Func::CmpxchgDoubleSlab {
                        parent.ok = v != 0;
                    }
                } else {
                    self.finish_op(cx, v);
                }
            }
        }
    }

    /// Start the context's next op. Returns false if there is none (finished) or it must wait.
    fn start_op(&mut self, cx: CtxId) -> bool {
        let c = &self.st.ctxs[cx as usize];
        let Some(&op) = self.cfg.ops_of(cx).get(c.op_index) else {
            self.finish_ctx(cx);
            return false;
        };
        if self.blocked(cx).is_some() {
            return false;
        }
        let idx = c.op_index;
        let fr = match op {
            IOp::Alloc { node, .. } => Some(self.op_frame(OpCall::Alloc { node })),
            IOp::Flush { target } => Some(self.op_frame(OpCall::Flush { target })),
            IOp::Free { var } => {
                let addr = self.st.vars[var].addr;
                match addr {
                    None => {
                        self.st.vars[var].freed = true;
                        None // kfree(NULL): nothing to do
                    }
                    // The variable lets go of its object at the op's first step (`begin_op`).
                    Some(a) => match self.slab_of(a) {
                        Some(s) => Some(self.op_frame(OpCall::Free { addr: a, slab: s })),
                        None => {
                            self.st.vars[var].freed = true;
                            let msg = format!(
                                "kfree of `{}` = {}, which is not an object of this cache (the allocation returned user data)",
                                self.cfg.var_names[var],
                                self.addr_name(a)
                            );
                            self.violate("INV-2", msg);
                            None
                        }
                    },
                }
            }
            IOp::Touch { var } => self.st.vars[var].addr.map(|a| {
                let mut f = Frame::new(Func::Touch, Pc::TC);
                f.x = a;
                f.count = var as u32;
                f
            }),
        };
        let c = &mut self.st.ctxs[cx as usize];
        c.op_index += 1;
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
        let c = &mut self.st.ctxs[cx as usize];
        if c.begun {
            return;
        }
        c.begun = true;
        if let Some(i) = c.cur_op {
            match self.cfg.ops_of(cx)[i] {
                IOp::Free { var } => {
                    self.st.vars[var].freed = true;
                    self.ghost.frees += 1;
                }
                IOp::Flush { target: Some(k) } => {
                    // Hotplug: this start waited for k's contexts to finish and takes k
                    // offline (no migration there any more): both are part of its footprint.
                    use super::{RES_CTX, RES_SCHED};
                    for o in 0..self.st.ctxs.len() {
                        if self.st.ctxs[o].cpu == k {
                            self.touch_resource(RES_CTX | o as u32, false);
                        }
                    }
                    self.touch_resource(RES_SCHED | k, true);
                }
                _ => {}
            }
        }
    }

    /// Whether a context other than `cx` is still alive on CPU k (so k cannot go offline).
    fn cpu_busy(&self, k: u32, cx: CtxId) -> bool {
        self.st
            .ctxs
            .iter()
            .enumerate()
            .any(|(o, c)| o != cx as usize && c.cpu == k && !c.finished)
    }

    /// Whether a survivor has begun flushing CPU k as dead (an op `flush` with `target` k).
    pub fn cpu_offline(&self, k: u32) -> bool {
        (0..self.st.ctxs.len()).any(|o| {
            let begun = self.st.ctxs[o].op_index;
            self.cfg.ops_of(o as CtxId)[..begun]
                .iter()
                .any(|op| matches!(op, IOp::Flush { target: Some(t) } if *t == k))
        })
    }

    fn finish_op(&mut self, cx: CtxId, v: Addr) {
        let c = &self.st.ctxs[cx as usize];
        let Some(i) = c.cur_op else { return };
        if let IOp::Alloc { var: vi, .. } = self.cfg.ops_of(cx)[i] {
            let addr = (v != NULL).then_some(v);
            if let Some(a) = addr {
                self.ghost.allocs += 1;
                // INV-1 by a scan of every variable: an invariant check, so only when checks
                // are on (the Lab's runs bind tens of thousands of variables).
                if let Some(other) = self.checks.then_some(()).and_then(|()| {
                    self.st
                        .vars
                        .iter()
                        .position(|o| o.held() && o.addr == Some(a))
                }) {
                    let var = &self.cfg.var_names[vi];
                    let msg = format!(
                        "`{var}` was handed {}, which `{}` still holds: a double allocation",
                        self.addr_name(a),
                        self.cfg.var_names[other]
                    );
                    self.violate("INV-1", msg);
                }
            }
            let var = &mut self.st.vars[vi];
            var.bound = true;
            var.addr = addr;
        }
        self.st.ctxs[cx as usize].cur_op = None;
    }

    /// The scheduling state a move reads or writes, for the explorer's footprints: every move
    /// of a context writes that context; a step reads its CPU's scheduling state (who is
    /// current, irqs, preemption), a switch, an irq entry or a migration writes it.
    fn note_move_resources(&mut self, mv: Move) {
        use super::{RES_CTX, RES_SCHED};
        match mv {
            Move::Migrate(t, k) => {
                let from = self.st.ctxs[t as usize].cpu;
                self.touch_resource(RES_CTX | t as u32, true);
                self.touch_resource(RES_SCHED | from, true);
                self.touch_resource(RES_SCHED | k, true);
            }
            Move::Step(cx) => {
                let c = &self.st.ctxs[cx as usize];
                let k = c.cpu;
                let switches = match c.kind {
                    CtxKind::Irq => !c.entered,
                    CtxKind::Task => self.st.cpus[k as usize].current != Some(cx),
                };
                self.touch_resource(RES_CTX | cx as u32, true);
                self.touch_resource(RES_SCHED | k, switches);
            }
        }
    }

    fn finish_ctx(&mut self, cx: CtxId) {
        let k = self.st.ctxs[cx as usize].cpu;
        self.touch_resource(super::RES_SCHED | k, true);
        let c = &mut self.st.ctxs[cx as usize];
        if c.finished {
            return;
        }
        c.finished = true;
        let k = c.cpu as usize;
        match c.kind {
            CtxKind::Irq => {
                if c.entered {
                    let (on, pc) = (c.saved_irqs_on, c.saved_preempt);
                    let cpu = &mut self.st.cpus[k];
                    cpu.irqs_on = on;
                    cpu.preempt_count = pc;
                    cpu.irq = None;
                }
            }
            CtxKind::Task => {
                if self.st.cpus[k].current == Some(cx) && (cx as usize) < self.cfg.n_ctx {
                    self.st.cpus[k].current = None;
                }
            }
        }
    }

    /// Execute the step at the top of `cx`'s stack, settle, record and check.
    pub(super) fn run_step(&mut self, cx: CtxId, mv: Option<usize>) {
        self.cur = cx;
        self.cur_cpu = self.st.ctxs[cx as usize].cpu;
        self.st.ctxs[cx as usize].settled = false;
        self.begin_op(cx);
        if self.recording() {
            let fr = self.st.ctxs[cx as usize]
                .stack
                .last()
                .expect("settled context has a step");
            let ev = Event {
                step: self.st.steps,
                mv,
                ctx: self.ctx_name(cx).to_string(),
                cpu: self.cur_cpu,
                label: format!("{}:{}", fr.func.name(), fr.pc.name()),
                ..Default::default()
            };
            if let Some(rec) = self.rec.as_mut() {
                rec.cur = ev;
            }
        }
        let flow = self.exec_top(cx);
        debug_assert!(!matches!(flow, Flow::Pending));
        self.after_exec(cx, flow);
        self.settle(cx);
        if let Some(r) = self.rec.as_mut() {
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
        if self.checks {
            self.check_step_invariants();
        }
        self.st.steps += 1;
    }
}

impl Config {
    pub fn from_scenario(sc: Scenario) -> Config {
        let cpus = sc.cpus as usize;
        let objects = sc.cache.objects_per_slab;
        let size = sc.cache.object_size as u64;
        let obj_lines = ((objects as u64 * size).div_ceil(64)) as u32;
        let mut ctx_ids: Vec<String> = sc
            .tasks
            .iter()
            .chain(sc.irqs.iter())
            .map(|c| c.id.clone())
            .collect();
        ctx_ids.push("(setup)".into());
        let mut var_names: Vec<String> = Vec::new();
        let all_ops = sc.setup.iter().map(|s| &s.op).chain(
            sc.tasks
                .iter()
                .chain(sc.irqs.iter())
                .flat_map(|c| c.ops.iter()),
        );
        let mut seen = std::collections::HashSet::new();
        for op in all_ops {
            if let Op::Alloc { var, .. } = op {
                if seen.insert(var.clone()) {
                    var_names.push(var.clone());
                }
            }
        }
        let cpu_node = (0..sc.cpus).map(|k| sc.node_of_cpu(k)).collect();
        let mut src_ops: Vec<Vec<Op>> = sc
            .tasks
            .iter()
            .chain(sc.irqs.iter())
            .map(|c| c.ops.clone())
            .collect();
        src_ops.push(sc.setup.iter().map(|s| s.op.clone()).collect());
        let by_name: std::collections::HashMap<&str, usize> = var_names
            .iter()
            .enumerate()
            .map(|(i, v)| (v.as_str(), i))
            .collect();
        let index = |name: &str| by_name[name];
        let ops = src_ops
            .iter()
            .map(|list| {
                list.iter()
                    .map(|op| match op {
                        Op::Alloc { var, node } => IOp::Alloc {
                            var: index(var),
                            node: *node,
                        },
                        Op::Free { var } => IOp::Free { var: index(var) },
                        Op::Touch { var } => IOp::Touch { var: index(var) },
                        Op::Flush { target } => IOp::Flush { target: *target },
                    })
                    .collect()
            })
            .collect();
        let n_ctx = ctx_ids.len() - 1;
        let slab = (sc.allocator == crate::scenario::Allocator::Slab).then(|| {
            let (limit, batch, shared) = sc.slab_tunables();
            super::slab::SlabLayout::new(limit, batch, shared)
        });
        let sheaf = (sc.allocator == crate::scenario::Allocator::Sheaves).then(|| {
            let (capacity, max_full, max_empty) = sc.sheaf_tunables();
            super::sheaves::SheafLayout::new(capacity, max_full, max_empty)
        });
        let (cpu_lines, node_extra_lines) = match (&slab, &sheaf) {
            (Some(l), _) => (l.ac_lines, l.sh_lines),
            (None, Some(_)) => (1, 1),
            (None, None) => (1, 0),
        };
        Config {
            costs: cost::Costs::default(),
            slab,
            sheaf,
            cpu_lines,
            node_extra_lines,
            n_ctx,
            src_ops,
            ops,
            tid_step: sc.tid_step(),
            cpus,
            objects,
            size,
            offset: sc.cache.offset as u64,
            obj_lines,
            ctx_ids,
            var_names,
            cpu_node,
            sc,
        }
    }
}

impl Machine {
    /// After a move: at the end of the run check INV-15, and report a deadlock as an outcome.
    pub fn finish_if_done(&mut self) {
        if self.end_checked {
            return;
        }
        if self.all_finished() {
            self.end_checked = true;
            self.check_end_of_run();
        } else if self.deadlocked() {
            self.end_checked = true;
            let waits: Vec<String> = (0..self.cfg.n_ctx as CtxId)
                .filter(|&c| !self.st.ctxs[c as usize].finished)
                .map(|c| match self.blocked_reason(c) {
                    Some(r) => format!("{} {r}", self.ctx_name(c)),
                    None => format!("{} cannot run", self.ctx_name(c)),
                })
                .collect();
            self.violate(
                "DEADLOCK",
                format!("no context can move: {}", waits.join("; ")),
            );
        }
    }
}
