//! The driver: a small discrete-event simulation that plays a workload's scenario as the
//! benchmarks' machines ran it, every CPU in parallel (docs/lab.md, "The driver"). Each CPU
//! has a clock; the runnable context whose CPU is earliest in time takes the next step; a
//! context that spins on a lock is charged the wait, one that sleeps for work is idle.
//!
//! [`drive`] is the loop; a [`Run`] holds its state, and each part of a step is a method:
//! [`Run::next_context`] picks who steps, [`Run::spinners_reread`] lets the CPUs spinning at
//! that moment re-read their locks' lines, [`Run::step`] applies the step and what `mech`
//! charges around it, [`Run::tally`] books it to its operation, [`Run::wake`] catches up the
//! clocks of the contexts it let go on, and [`Run::finish`] sums up.

use crate::gates::{gate_open, Wait};
use crate::{mech, Api, CpuTime, Gate, Measured, MechUse, OpTallies, Workload, WorkloadKind};
use slub_sim::model::cost::{self, Costs};
use slub_sim::model::memory::{Access, Transfers};
use slub_sim::model::state::{CtxId, IOp};
use slub_sim::model::{Driver, Machine, Move, PolicyView, Stat};
use slub_sim::scenario::{Allocator, Scenario};
use std::collections::BTreeMap;

/// Run a scenario under the lab's driver (see the module docs) and the cost table `costs`.
/// The machine counts charges and cache-line transfers itself: no events are recorded.
pub fn drive(sc: Scenario, gates: &[Gate], costs: cost::Costs, w: &Workload) -> Measured {
    let mut run = Run::new(sc, gates, costs, w);
    while let Some(cx) = run.next_context() {
        let step = run.step(cx);
        run.tally(cx, &step);
        run.wake(cx, step.now + step.charged);
    }
    run.finish()
}

/// Each CPU's time beyond the cycles the model charged it.
struct Clocks {
    /// Cycles spent spinning on a lock another CPU held.
    spin: Vec<u64>,
    /// Cycles spent asleep, waiting for work.
    idle: Vec<u64>,
    /// What the mechanisms added to (or, replacing a charge, took from) each CPU's clock.
    lab: Vec<i64>,
}

impl Clocks {
    /// CPU `k`'s clock: its charged cycles, its spinning and sleeping, and `mech`'s part.
    fn at(&self, v: PolicyView, k: usize) -> u64 {
        (v.cycles(k) + self.spin[k] + self.idle[k]).saturating_add_signed(self.lab[k])
    }
}

/// A run of the driver in progress.
struct Run<'w> {
    m: Machine,
    w: &'w Workload,
    costs: Costs,
    allocator: Allocator,
    /// The slab order of the workload's cache (the page allocator's pages).
    order: u32,
    pages: mech::PageAllocator,
    used: MechUse,
    clocks: Clocks,
    /// The op each context last stepped in: a step in another is that op's first.
    begun: Vec<Option<usize>>,
    cores: Vec<mech::Core>,
    /// The store buffer or overlapped loads are on: steps are applied with their footprint.
    traced: bool,
    /// SLUB's frees read the object's page (`virt_to_head_page`); SLAB's only under kfree.
    page_read: bool,
    /// kmalloc's size-to-cache lookup comes before each allocation.
    kmalloc: bool,
    /// gates_of[ctx]: (op, after_ctx, after_op), sorted by op; the next unpassed one first.
    gates_of: Vec<Vec<Gate>>,
    /// Ops of each context before this one are the warm-up's (`Workload::warmup`).
    warm_ops: usize,
    warm: OpTallies,
    per_cpu: Vec<CpuTime>,
    /// Contexts that could not step when last looked at, and how they wait.
    waiting: Vec<Option<Wait>>,
    /// When each context began to wait for a queued lock (`Mechs::fifo_locks`), until it has it.
    queued_since: Vec<Option<u64>>,
}

/// One step as applied, for [`Run::tally`].
struct Step {
    /// The stepping CPU's clock before the step.
    now: u64,
    /// Cycles the step cost its CPU, `mech`'s part and any wait for the store buffer included.
    charged: u64,
    /// How often each cost constant was charged, `mech`'s part included.
    delta: [u64; cost::N],
    /// The op the context stepped in, and its index.
    op: IOp,
    op_i: usize,
    /// What `mech` charged (its spinning, issue and store-buffer stall cycles).
    extra: mech::Charge,
    /// The CPU's transfers and prefetch wait before the step.
    transfers_before: Transfers,
    wait_before: u64,
    /// `list_lock` acquisitions held before and after the step.
    locked: (usize, usize),
}

impl<'w> Run<'w> {
    fn new(sc: Scenario, gates: &[Gate], costs: Costs, w: &'w Workload) -> Self {
        let allocator = sc.allocator;
        let m = Machine::with_costs(sc, false, false, costs, true);
        let (n_ctx, cpus) = {
            let v = m.policy_view();
            (v.contexts(), v.cpus())
        };
        let (order, _) = w.geometry();
        let mut gates_of: Vec<Vec<Gate>> = vec![Vec::new(); n_ctx];
        for g in gates {
            gates_of[g.ctx].push(*g);
        }
        for list in &mut gates_of {
            list.sort_by_key(|g| std::cmp::Reverse(g.op));
        }
        Run {
            m,
            w,
            costs,
            allocator,
            order,
            // Linux 7.0 (the sheaves) keeps pages up to order 3 on the per-CPU lists (5.13 on).
            pages: mech::PageAllocator::new(cpus, allocator == Allocator::Sheaves),
            used: MechUse::default(),
            clocks: Clocks {
                spin: vec![0; cpus],
                idle: vec![0; cpus],
                lab: vec![0; cpus],
            },
            begun: vec![None; n_ctx],
            cores: vec![mech::Core::default(); cpus],
            traced: w.mechs.store_buffer || w.mechs.mlp,
            page_read: w.mechs.kmalloc && (allocator != Allocator::Slab || w.api == Api::Kmalloc),
            kmalloc: w.mechs.kmalloc && w.api == Api::Kmalloc,
            gates_of,
            warm_ops: w.warmup_ops(),
            warm: OpTallies::default(),
            per_cpu: vec![CpuTime::default(); cpus],
            waiting: vec![None; n_ctx],
            queued_since: vec![None; n_ctx],
        }
    }

    /// The context to step next: of those that can step now, the one whose CPU is earliest in
    /// time (`None` when none can). Those that cannot are marked as waiting, spinning on a
    /// lock or asleep for work.
    fn next_context(&mut self) -> Option<usize> {
        let mut best: Option<(u64, u64, usize)> = None;
        let m = &self.m;
        let v = m.policy_view();
        for (cx, waiting) in self.waiting.iter_mut().enumerate() {
            let gate = gate_open(v, &mut self.gates_of, cx);
            let enabled = m.move_enabled(Move::Step(cx as CtxId));
            let c = v.ctx(cx as CtxId);
            if gate && enabled {
                let k = c.cpu as usize;
                let t = self.clocks.at(v, k);
                // Of the contexts ready at the same moment, a queued lock's waiters go in the
                // order they began to wait (`Mechs::fifo_locks`).
                let key = (t, self.queued_since[cx].unwrap_or(t));
                if best.is_none_or(|(bt, bs, _)| key < (bt, bs)) {
                    best = Some((key.0, key.1, cx));
                }
            } else if !c.finished && waiting.is_none() {
                // Spinning on a lock costs; waiting for work (a closed gate, a variable not
                // yet bound: the op cannot even start) is sleep.
                let spins = gate && c.in_op && v.blocked(cx as CtxId);
                *waiting = Some(if spins {
                    if self.w.mechs.fifo_locks
                        && self.queued_since[cx].is_none()
                        && m.spin_queued(cx as CtxId)
                    {
                        let k = c.cpu as usize;
                        self.queued_since[cx] = Some(self.clocks.at(v, k));
                    }
                    // The lock it spins on stays the same until it can step.
                    Wait::Spin(m.spin_line(cx as CtxId))
                } else {
                    Wait::Sleep
                });
            }
        }
        let (_, _, cx) = best?;
        // It takes the lock it waited for in line (or was not waiting): out of the queue.
        if self.queued_since[cx].take().is_some() {
            self.used.queued_handoffs += 1;
        }
        Some(cx)
    }

    /// Every CPU spinning at this moment (`now`, on the clock of `k`, the CPU about to step)
    /// re-reads its lock's line: the step about to be taken finds those Shared copies (a
    /// write to the line must invalidate them).
    fn spinners_reread(&mut self, k: usize, now: u64) {
        for (o, w) in self.waiting.iter().enumerate() {
            let Some(Wait::Spin(Some(line))) = *w else {
                continue;
            };
            let v = self.m.policy_view();
            let spinner = v.ctx(o as CtxId);
            let ko = spinner.cpu;
            if ko as usize == k || self.clocks.at(v, ko as usize) > now {
                continue;
            }
            let op = v.op(o as CtxId, spinner.op);
            if self.m.spin_read(ko, line) {
                self.per_cpu[ko as usize].ops.of(op).transfers.spin_reads += 1;
            }
        }
    }

    /// Context `cx` takes its next step, with what the mechanisms of `mech` charge around
    /// it: kmalloc's lookup before an allocation, the free's read of the object's page, the
    /// core's store buffer, the page allocator in place of `PAGE_ALLOC`/`PAGE_FREE`.
    fn step(&mut self, cx: usize) -> Step {
        let (k, now) = {
            let v = self.m.policy_view();
            let k = v.ctx(cx as CtxId).cpu as usize;
            (k, self.clocks.at(v, k))
        };
        self.spinners_reread(k, now);
        let v = self.m.policy_view();
        let op_i = v.ctx(cx as CtxId).op;
        let op = v.op(cx as CtxId, op_i);
        let before = v.cycles(k);
        let charges_before = v.charges(k).copied().unwrap_or([0; cost::N]);
        let transfers_before = v.transfers(k).copied().unwrap_or_default();
        let wait_before = v.prefetch_wait(k).unwrap_or(0);
        let locked_before = v.list_locks_held();
        // The op's first step: kmalloc's lookup comes before it, and the free's page read.
        let starting = self.begun[cx] != Some(op_i);
        self.begun[cx] = Some(op_i);
        let freed_page = match op {
            IOp::Free { var } if starting && self.page_read => page_line(&self.m, var),
            _ => None,
        };
        let foot = if self.traced {
            self.m.apply_traced(Move::Step(cx as CtxId))
        } else {
            self.m.apply(Move::Step(cx as CtxId), None);
            Vec::new()
        };
        // The loads of the object's `struct page` beyond the first (`page_loads`): the line
        // is this CPU's by then, each an L1 hit.
        let mut page_again = 0;
        if let Some(line) = freed_page {
            // `virt_to_head_page(x)`: the object's `struct page` (compound_head, PageSlab,
            // slab_cache: one line), charged by the machine as the line's state says.
            self.m.access(line, Access::Read);
            self.used.page_reads += 1;
            page_again = page_loads(self.allocator, self.w.api).saturating_sub(1);
            self.used.page_loads += u64::from(page_again) + 1;
        }
        self.m.finish_if_done();
        let v = self.m.policy_view();
        let locked_after = v.list_locks_held();
        let charged = v.cycles(k) - before;
        let mut delta = [0u64; cost::N];
        if let Some(after) = v.charges(k) {
            for ((d, a), b) in delta.iter_mut().zip(after).zip(charges_before) {
                *d = a - b;
            }
        }
        let mut step = Step {
            now,
            charged,
            delta,
            op,
            op_i,
            extra: mech::Charge::default(),
            transfers_before,
            wait_before,
            locked: (locked_before, locked_after),
        };
        self.charge_mechanisms(cx, k, starting, page_again, &foot, &mut step);
        step
    }

    /// The mechanisms of `mech` around step `s` of context `cx` on CPU `k`, in the table's
    /// constants: added to the step's charge and to the CPU's clock.
    fn charge_mechanisms(
        &mut self,
        cx: usize,
        k: usize,
        starting: bool,
        page_again: u32,
        foot: &[u32],
        s: &mut Step,
    ) {
        let w = self.w;
        let costs = &self.costs;
        let mut extra = if self.traced {
            let kind = mech::StepKind::of(foot, &s.delta);
            self.cores[k].step(
                kind,
                cx,
                s.op_i,
                s.now,
                costs,
                w.mechs.store_buffer,
                w.mechs.mlp,
            )
        } else {
            mech::Charge::default()
        };
        if page_again > 0 {
            extra.add(cost::Id::L1Hit, i64::from(page_again));
        }
        if starting && self.kmalloc && matches!(s.op, IOp::Alloc { .. }) {
            extra.merge(&mech::kmalloc_lookup(w.size));
            self.used.kmalloc_lookups += 1;
        }
        let (pa, pf) = (
            s.delta[cost::Id::PageAlloc as usize],
            s.delta[cost::Id::PageFree as usize],
        );
        if pa + pf > 0 && w.mechs.zone_lock {
            let at = s.now + s.charged;
            extra.add(cost::Id::PageAlloc, -(pa as i64));
            extra.add(cost::Id::PageFree, -(pf as i64));
            for _ in 0..pa {
                extra.merge(&self.pages.alloc(k, at, self.order, costs));
            }
            for _ in 0..pf {
                extra.merge(&self.pages.free(k, at, self.order, costs));
            }
        }
        if !extra.is_empty() {
            for (d, e) in s.delta.iter_mut().zip(extra.ids) {
                *d = d.saturating_add_signed(e);
            }
            let add = extra.cycles(costs);
            s.charged = s.charged.saturating_add_signed(add) + extra.wait;
            self.clocks.lab[k] += add;
            self.clocks.spin[k] += extra.wait;
            if add > 0 || extra.wait > 0 {
                // Time passed on this CPU: its prefetches kept travelling.
                self.m.pass_time(k as u32, add.max(0) as u64 + extra.wait);
            }
        }
        s.extra = extra;
    }

    /// Book step `s` of context `cx` to its operation's tally on its CPU (or to the warm-up's,
    /// which counts nowhere: `Workload::warmup`).
    fn tally(&mut self, cx: usize, s: &Step) {
        let v = self.m.policy_view();
        let c = v.ctx(cx as CtxId);
        let k = c.cpu as usize;
        let tr = v
            .transfers(k)
            .map(|t| t.since(&s.transfers_before))
            .unwrap_or_default();
        let tally = if s.op_i < self.warm_ops {
            self.warm.of(s.op)
        } else {
            self.per_cpu[k].ops.of(s.op)
        };
        tally.cycles += s.charged;
        tally.spin += s.extra.wait;
        tally.issue += s.extra.issue;
        tally.stall += s.extra.stall;
        tally.prefetch_wait += v.prefetch_wait(k).unwrap_or(0) - s.wait_before;
        for (t, d) in tally.charges.iter_mut().zip(s.delta) {
            *t += d;
        }
        tally.list_locks += s.locked.1.saturating_sub(s.locked.0) as u64;
        tally.transfers.add(&tr);
        if c.op != s.op_i || !c.in_op {
            tally.ops += 1;
        }
    }

    /// Whoever could not step before the step of `cx` and can now was waiting for it: its
    /// clock catches up with the stepping CPU's (`t_now`), as spinning (charged to its op)
    /// or as sleep.
    fn wake(&mut self, cx: usize, t_now: u64) {
        let v = self.m.policy_view();
        let mut passed = Vec::new();
        for (other, waiting) in self.waiting.iter_mut().enumerate() {
            let Some(how) = *waiting else {
                continue;
            };
            let o = v.ctx(other as CtxId);
            if other == cx
                || !(self.m.move_enabled(Move::Step(other as CtxId))
                    && gate_open(v, &mut self.gates_of, other))
            {
                if o.finished {
                    *waiting = None;
                }
                continue;
            }
            *waiting = None;
            let ko = o.cpu as usize;
            let t_other = self.clocks.at(v, ko);
            if t_now > t_other {
                let wait = t_now - t_other;
                passed.push((ko as u32, wait));
                if matches!(how, Wait::Spin(_)) {
                    self.clocks.spin[ko] += wait;
                    let t = self.per_cpu[ko].ops.of(v.op(other as CtxId, o.op));
                    t.cycles += wait;
                    t.spin += wait;
                } else {
                    self.clocks.idle[ko] += wait;
                }
            }
        }
        // Time passed on those CPUs: their prefetches kept travelling meanwhile.
        for (k, wait) in passed {
            self.m.pass_time(k, wait);
        }
    }

    /// Everything the run measured, once no context can step.
    fn finish(mut self) -> Measured {
        self.m.finish_if_done();
        let v = self.m.policy_view();
        let Clocks { spin, idle, lab } = &self.clocks;
        let mut ops = OpTallies::default();
        for (k, c) in self.per_cpu.iter_mut().enumerate() {
            c.busy = (v.cycles(k) + spin[k]).saturating_add_signed(lab[k]);
            c.idle = idle[k];
            ops.alloc.add(&c.ops.alloc);
            ops.free.add(&c.ops.free);
            ops.touch.add(&c.ops.touch);
        }
        let stats_per_cpu: Vec<BTreeMap<String, u64>> = v
            .stats_per_cpu()
            .iter()
            .map(|c| {
                Stat::ALL
                    .iter()
                    .filter(|s| c[**s as usize] > 0)
                    .map(|s| (s.name().to_string(), c[*s as usize]))
                    .collect()
            })
            .collect();
        let mut stats = BTreeMap::new();
        for c in &stats_per_cpu {
            for (k, v) in c {
                *stats.entry(k.clone()).or_insert(0) += v;
            }
        }
        let w = self.w;
        Measured {
            per_cpu: self.per_cpu,
            ops,
            steps: v.steps(),
            stats,
            stats_per_cpu,
            finished: v.all_finished(),
            violations: v.violations().to_vec(),
            costs: self.costs,
            mechanisms: MechUse {
                pages: self.pages.stats,
                core: self
                    .cores
                    .iter()
                    .fold(mech::CoreStats::default(), |mut a, c| {
                        a.add(&c.stats);
                        a
                    }),
                barrier_idle: if w.kind == WorkloadKind::Concurrent && w.mechs.barrier {
                    idle.iter().sum()
                } else {
                    0
                },
                warmup_ops: self.warm.alloc.ops + self.warm.free.ops,
                ..self.used
            },
        }
    }
}

/// How many loads of the freed object's `struct page` the free makes before it reaches the
/// allocator: SLUB's `kfree` (every era, 2.6.22 to 7.0) tests `PageTail` in `compound_head`,
/// then `PageSlab`, then reads `page->slab_cache` (two `test_bit`s of `page->flags`, volatile
/// reads the compiler may not merge, and the cache pointer); SLUB's `kmem_cache_free` only
/// `compound_head`'s test (it has the cache); SLAB's `kfree` (`virt_to_cache`)
/// `compound_head`'s test and `page->slab_cache`; SLAB's `kmem_cache_free` none.
fn page_loads(allocator: Allocator, api: Api) -> u32 {
    match (allocator, api) {
        (Allocator::Slab, Api::Kmalloc) => 2,
        (Allocator::Slab, Api::KmemCache) => 0,
        (_, Api::Kmalloc) => 3,
        (_, Api::KmemCache) => 1,
    }
}

/// The `struct page` line of the object variable `var` holds (its slab's descriptor line,
/// which the slab's object lines follow), if it holds one.
fn page_line(m: &Machine, var: usize) -> Option<u32> {
    let v = m.var(var);
    let slab = m.slab_of(v.addr.filter(|_| v.held())?)?;
    // The lab's caches keep the free pointer at offset 0: object 0 starts the first line
    // after the descriptor's.
    m.obj_line(slab, 0).checked_sub(1)
}
