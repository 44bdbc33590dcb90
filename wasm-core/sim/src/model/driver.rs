//! The driver seam: the one interface through which anything outside the model moves the
//! machine. A driver asks which moves are enabled, applies one, and reads a [`PolicyView`]:
//! what a scheduling policy may look at (each context's CPU, whether it finished, is inside
//! an op or blocked, which op it is at; each CPU's cycles; the stats; the violations). The
//! default policy and a seeded random one (`crate::policy`), the simulator's history, the
//! explorer, the Lab's discrete-event clock and the benchmarks all drive the machine this
//! way; nothing outside `model` reads or writes the machine's fields.

use super::state::{CtxId, CtxKind, IOp};
use super::stats::NR_STATS;
use super::{heap_block, Machine, Move};
use crate::event::Event;
use crate::event::Violation;

/// Drive a machine: the moves, applying one, the end of the run and what a policy sees.
pub trait Driver {
    /// The moves that may come next: contexts in scenario order, then migrations.
    fn enabled_moves(&self) -> Vec<Move>;
    /// Whether one move is enabled now (cheaper than listing them all).
    fn move_enabled(&self, mv: Move) -> bool;
    /// Why a move cannot be applied now, or `None` if it is enabled.
    fn move_blocked(&self, mv: Move) -> Option<String>;
    /// Apply an enabled move; `index` is its place in a history, for the events it records.
    fn apply(&mut self, mv: Move, index: Option<usize>);
    /// After a move: when every context has finished run the end-of-run checks (INV-15), and
    /// report a deadlock when nothing can move. Cheap once done; a driver that only needs
    /// the stats may call it once at the end.
    fn finish_if_done(&mut self);
    /// What a policy may read.
    fn policy_view(&self) -> PolicyView<'_>;
    /// Move the events recorded since the last call to the end of `out` (none when the
    /// machine records none).
    fn take_events(&mut self, out: &mut Vec<Event>);
}

impl Driver for Machine {
    fn enabled_moves(&self) -> Vec<Move> {
        Machine::enabled_moves(self)
    }
    #[inline]
    fn move_enabled(&self, mv: Move) -> bool {
        Machine::move_enabled(self, mv)
    }
    fn move_blocked(&self, mv: Move) -> Option<String> {
        Machine::move_blocked(self, mv)
    }
    #[inline]
    fn apply(&mut self, mv: Move, index: Option<usize>) {
        self.apply_move(mv, index)
    }
    fn finish_if_done(&mut self) {
        Machine::finish_if_done(self)
    }
    #[inline]
    fn policy_view(&self) -> PolicyView<'_> {
        Machine::policy_view(self)
    }
    fn take_events(&mut self, out: &mut Vec<Event>) {
        if let Some(r) = self.core.rec.as_mut() {
            out.append(&mut r.events);
        }
    }
}

/// One context as a policy sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtxView {
    pub kind: CtxKind,
    pub cpu: u32,
    pub finished: bool,
    /// Inside an op (it has a kernel function on its stack).
    pub in_op: bool,
    /// An interrupt handler that has entered (its next move is not an irq entry).
    pub entered: bool,
    /// The op it is executing, or the next one it will start (its index in the context's
    /// program; past the end once finished).
    pub op: usize,
}

/// The read-only state a policy may look at. Borrowed, allocation-free: the Lab's clock reads
/// it before and after every step.
#[derive(Clone, Copy)]
pub struct PolicyView<'a> {
    m: &'a Machine,
}

impl<'a> PolicyView<'a> {
    /// Contexts a move can name (tasks then irqs; not the hidden setup context).
    #[inline]
    pub fn contexts(&self) -> usize {
        self.m.core.cfg.n_ctx
    }
    pub fn tasks(&self) -> usize {
        self.m.core.cfg.sc.tasks.len()
    }
    #[inline]
    pub fn ctx(&self, cx: CtxId) -> CtxView {
        let c = self.m.core.ctx(cx);
        CtxView {
            kind: c.kind,
            cpu: c.cpu,
            finished: c.finished,
            in_op: !c.stack.is_empty(),
            entered: c.entered,
            op: c.cur_op.unwrap_or(c.op_index),
        }
    }
    /// Whether the context's next step must wait (a lock held by another, a variable not yet
    /// bound) or it has finished.
    pub fn blocked(&self, cx: CtxId) -> bool {
        self.m.blocked(cx).is_some()
    }
    /// The context's `i`th op, its variable resolved to an index. A driver asks only for an
    /// op a context has (`CtxView::op` of a context in an op); any other is an internal error
    /// ([`super::Fault`]): it is noted, stops the machine, and reads as a `flush`.
    pub fn op(&self, cx: CtxId, i: usize) -> IOp {
        match self.m.core.cfg.ops_of(cx).get(i) {
            Some(&op) => op,
            None => {
                let f = super::Fault::NoSuch("op", i as u64);
                super::prims::note_fault(&self.m.core.fault, f);
                IOp::Flush { target: None }
            }
        }
    }
    pub fn ctx_name(&self, cx: CtxId) -> &'a str {
        self.m.core.ctx_name(cx)
    }
    /// The listing label of the named context's next step (`slab_alloc:A9`), if it is in an op.
    pub fn ctx_label(&self, name: &str) -> Option<String> {
        let cx = self.ctx_index(name)?;
        let f = self.m.core.ctx(cx).stack.last()?;
        Some(format!("{}:{}", f.func().name(), f.pc().name()))
    }
    /// The context a move text names (`A`), if any.
    pub fn ctx_index(&self, name: &str) -> Option<CtxId> {
        (self.m.core.cfg.ctx_ids.iter().take(self.m.core.cfg.n_ctx))
            .position(|c| c == name)
            .map(|i| i as CtxId)
    }
    pub fn cpus(&self) -> usize {
        self.m.core.cfg.cpus
    }
    pub fn node_of_cpu(&self, k: u32) -> u32 {
        self.m.core.node_of_cpu(k)
    }
    /// Cache lines of the fixed structures (`kmem_cache`, per-CPU, per-node), then each
    /// slab's descriptor line followed by `obj_lines` object lines.
    pub fn static_lines(&self) -> u32 {
        self.m.core.cfg.static_lines()
    }
    pub fn obj_lines(&self) -> u32 {
        self.m.core.cfg.obj_lines
    }
    /// Cycles charged to CPU `k` so far.
    #[inline]
    pub fn cycles(&self, k: usize) -> u64 {
        self.m.core.cpu_cycles(k)
    }
    /// How often each cost constant was charged on CPU `k`, if the machine counts them
    /// (`Machine::with_costs`).
    pub fn charges(&self, k: usize) -> Option<&'a [u64; super::cost::N]> {
        self.m.core.charges(k)
    }
    /// Cycles CPU `k` waited for prefetched lines, if the machine counts them.
    pub fn prefetch_wait(&self, k: usize) -> Option<u64> {
        self.m.core.prefetch_wait(k)
    }
    /// The cache-line transfers to CPU `k`, if the machine counts them.
    pub fn transfers(&self, k: usize) -> Option<&'a super::memory::Transfers> {
        self.m.core.transfers(k)
    }
    pub fn cycles_per_cpu(&self) -> &'a [u64] {
        &self.m.core.st.cycles
    }
    /// Steps taken (setup's included).
    pub fn steps(&self) -> u64 {
        self.m.core.st.steps
    }
    /// The context that moved last (what the default policy keeps running).
    pub fn last_moved(&self) -> Option<CtxId> {
        self.m.core.st.last_moved
    }
    /// How many nodes' `list_lock` are held now.
    pub fn list_locks_held(&self) -> usize {
        self.m
            .core
            .st
            .nodes
            .iter()
            .filter(|n| n.list_lock.is_some())
            .count()
    }
    /// The allocator the scenario runs.
    pub fn allocator(&self) -> crate::scenario::Allocator {
        self.m.core.cfg.sc.allocator
    }
    /// Each CPU's stat counters, indexed by `Stat as usize`.
    pub fn stats_per_cpu(&self) -> &'a [[u64; NR_STATS]] {
        &self.m.core.st.stats
    }
    pub fn violations(&self) -> &'a [Violation] {
        &self.m.core.violations
    }
    pub fn all_finished(&self) -> bool {
        self.m.all_finished()
    }
    pub fn deadlocked(&self) -> bool {
        self.m.deadlocked()
    }
    /// A move as text (`A`, `migrate:A:1`).
    pub fn move_text(&self, mv: Move) -> String {
        self.m.move_text(mv)
    }
    /// Parse a move text against this machine's contexts and CPUs.
    pub fn parse_move(&self, mv: &str) -> Result<Move, String> {
        self.m.parse_move(mv)
    }
    /// Each scenario variable's name, address (`None` when unbound or NULL) and whether it
    /// still holds its object.
    pub fn vars(&self) -> impl Iterator<Item = (&'a str, Option<u64>, bool)> + 'a {
        let m = self.m;
        m.core
            .cfg
            .var_names
            .iter()
            .zip(&m.core.st.vars)
            .map(|(n, v)| (n.as_str(), v.addr, v.held()))
    }
}

/// What the simulator and the explorer need beyond driving: the scenario, recording on and
/// off, a move's footprint and a hash of the state.
impl Machine {
    /// What a policy may read (also [`Driver::policy_view`]).
    #[inline]
    pub fn policy_view(&self) -> PolicyView<'_> {
        PolicyView { m: self }
    }

    /// The cache line of the lock context `cx` spins on (`list_lock`, a slab's `slab_lock`
    /// bit, a barn's lock), if it is blocked on one another CPU holds. A local lock is not
    /// spun on: its holder is on the same CPU.
    pub fn spin_line(&self, cx: CtxId) -> Option<u32> {
        use super::Block;
        match self.blocked(cx)? {
            Block::ListLock(n, _) => Some(self.core.cfg.line_nd(n)),
            Block::BarnLock(n, _) => Some(self.core.cfg.line_nd(n).saturating_add(1)),
            Block::SlabLock(s, _) => Some(self.core.page(s).line),
            Block::LocalLock(..)
            | Block::Var(_)
            | Block::CpuOnline(_)
            | Block::GracePeriod(_)
            | Block::Finished => None,
        }
    }

    /// Whether the lock context `cx` spins on is a `spinlock_t` (a node's `list_lock`, a
    /// barn's lock), which hands itself to its waiters in the order they came (ticket
    /// spinlocks from 2.6.25, queued spinlocks from 4.2), rather than a `slab_lock` bit
    /// (`bit_spin_lock`: test-and-set, whoever sees it free first takes it).
    pub fn spin_queued(&self, cx: CtxId) -> bool {
        use super::Block;
        matches!(
            self.blocked(cx),
            Some(Block::ListLock(..) | Block::BarnLock(..))
        )
    }

    pub fn scenario(&self) -> &crate::Scenario {
        &self.core.cfg.sc
    }

    /// Turn event recording off (replaying to a point whose events are kept elsewhere) or
    /// on again (with nothing recorded yet).
    pub fn set_recording(&mut self, on: bool) {
        if on != self.core.rec.is_some() {
            self.core.rec = on.then(Box::default);
        }
    }

    /// Apply a move and return the resources it read or wrote (cache lines and the tagged
    /// `RES_*` ids; `WRITE` set on writes): the explorer's dependency relation.
    pub fn apply_traced(&mut self, mv: Move) -> Vec<u32> {
        self.core.foot = Some(Vec::new());
        self.apply_move(mv, None);
        self.finish_if_done();
        self.core.foot.take().unwrap_or_default()
    }

    /// Hash what makes two states the same for the explorer: the allocator's structures (the
    /// shared ones and its own), the
    /// contexts, the variables and who moved last (not cycles, stats or coherence).
    /// About how many bytes one copy of this machine holds (its state's vectors; the
    /// configuration is shared between copies): what the explorer's memory budget counts.
    // Sizes times lengths of vectors this copy holds in memory: far below `usize::MAX`.
    #[allow(clippy::arithmetic_side_effects)]
    pub fn approx_bytes(&self) -> usize {
        use super::state::{Cpu, Ctx, Frame, Mesi, Node, Page, SlabId, Var, MAX_CPUS};
        use std::mem::size_of;
        let st = &self.core.st;
        // Every vector a clone allocates, as the heap block the allocator gives it (a clone
        // holds exactly its length).
        let frames: usize = st
            .ctxs
            .iter()
            .map(|c| heap_block(c.stack.len() * size_of::<Frame>()))
            .sum();
        let partials: usize = st
            .nodes
            .iter()
            .map(|n| heap_block(n.partial.len() * size_of::<SlabId>()))
            .sum();
        let words: usize = st
            .slabs
            .iter()
            .map(|p| heap_block(std::mem::size_of_val(&*p.fp)))
            .sum();
        size_of::<Machine>()
            + heap_block(st.cpus.len() * size_of::<Cpu>())
            + heap_block(st.nodes.len() * size_of::<Node>())
            + partials
            + heap_block(st.slabs.len() * size_of::<Page>())
            + words
            + self.alloc.approx_bytes()
            + heap_block(st.ctxs.len() * size_of::<Ctx>())
            + frames
            + heap_block(st.vars.len() * size_of::<Var>())
            + heap_block(st.lines.len() * size_of::<[Mesi; MAX_CPUS]>())
            + heap_block(st.stats.len() * size_of::<[u64; NR_STATS]>())
            + heap_block(st.cycles.len() * size_of::<u64>())
            + heap_block(st.prefetches.len() * size_of::<super::state::PrefetchInFlight>())
            + heap_block(self.core.violations.len() * size_of::<crate::event::Violation>())
            + heap_block(self.core.scratch.len())
    }

    pub fn hash_state<H: std::hash::Hasher>(&self, h: &mut H) {
        use std::hash::Hash;
        let st = &self.core.st;
        st.cpus.hash(h);
        st.nodes.hash(h);
        st.slabs.hash(h);
        self.alloc.hash(h);
        st.ctxs.hash(h);
        st.vars.hash(h);
        st.last_moved.hash(h);
    }
}
