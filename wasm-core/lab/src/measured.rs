//! What a run measured: cycles, spinning, list locks, cache-line transfers and cost
//! constants per operation and per CPU, and how often the mechanisms of `mech` were used.

use crate::mech;
use serde::Serialize;
use slub_sim::model::cost::{self, Costs};
use slub_sim::model::state::IOp;
use std::collections::BTreeMap;

pub use slub_sim::model::memory::Transfers;

/// What one kind of operation cost, summed over a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tally {
    pub ops: u64,
    /// Cycles the cost model charged inside these operations.
    pub cycles: u64,
    /// Cycles spent spinning on a lock another CPU held (included in `cycles`).
    pub spin: u64,
    /// `list_lock` acquisitions.
    pub list_locks: u64,
    pub transfers: Transfers,
    /// How often each cost constant was charged inside these operations (`cost::Id` order):
    /// `cycles - spin - prefetch_wait` is exactly the sum of these times the constants' cycles.
    pub charges: [u64; cost::N],
    /// Cycles spent waiting for a prefetched line still on its way.
    pub prefetch_wait: u64,
    /// Cycles of issue of the loads and stores the core overlapped (`mech::Core`).
    pub issue: u64,
    /// Cycles a `LOCK`ed instruction waited for the store buffer to drain.
    pub stall: u64,
}

impl Tally {
    pub fn per_op(&self) -> Option<f64> {
        (self.ops > 0).then(|| self.cycles as f64 / self.ops as f64)
    }

    pub(crate) fn add(&mut self, o: &Tally) {
        self.ops += o.ops;
        self.cycles += o.cycles;
        self.spin += o.spin;
        self.list_locks += o.list_locks;
        self.prefetch_wait += o.prefetch_wait;
        self.issue += o.issue;
        self.stall += o.stall;
        self.transfers.add(&o.transfers);
        for (a, b) in self.charges.iter_mut().zip(o.charges) {
            *a += b;
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpTallies {
    pub alloc: Tally,
    pub free: Tally,
    pub touch: Tally,
}

impl OpTallies {
    pub(crate) fn of(&mut self, op: IOp) -> &mut Tally {
        match op {
            IOp::Alloc { .. } => &mut self.alloc,
            IOp::Free { .. } => &mut self.free,
            IOp::Touch { .. } | IOp::Flush { .. } | IOp::Tune => &mut self.touch,
        }
    }
}

/// One CPU's time: busy (charged + spinning) and idle (sleeping for work), and its tallies.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CpuTime {
    pub busy: u64,
    pub idle: u64,
    pub ops: OpTallies,
}

/// Everything a run measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Measured {
    pub per_cpu: Vec<CpuTime>,
    pub ops: OpTallies,
    pub steps: u64,
    pub stats: BTreeMap<String, u64>,
    pub stats_per_cpu: Vec<BTreeMap<String, u64>>,
    pub finished: bool,
    pub violations: Vec<slub_sim::view::Violation>,
    /// The cost table the run charged.
    #[serde(skip)]
    pub costs: Costs,
    /// What the run's mechanisms outside the step model did.
    pub mechanisms: MechUse,
}

/// How often a run used each of the Lab's mechanisms (`mech`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MechUse {
    pub pages: mech::PageStats,
    /// kmalloc's size-to-cache lookups.
    pub kmalloc_lookups: u64,
    /// `virt_to_head_page` reads of a freed object's page.
    pub page_reads: u64,
    /// Loads of those pages' `struct page` in all (`page_loads` per free).
    pub page_loads: u64,
    /// The store buffers and overlapped loads, all CPUs.
    pub core: mech::CoreStats,
    /// Cycles the CPUs slept at slab_test's phase barrier, all CPUs (0 without it).
    pub barrier_idle: u64,
    /// Operations run before the clock started (the warm-up), all contexts.
    pub warmup_ops: u64,
    /// Times a `spinlock_t` went to the waiter first in line (`Mechs::fifo_locks`).
    pub queued_handoffs: u64,
}
