//! The report of one run (`slub-lab bench WORKLOAD`): per-operation cycles, cost constants,
//! transfers and stats, and [`bench`], which builds, drives and reports a workload.

use crate::{drive, Measured, MechUse, Tally, Transfers, Workload, WorkloadKind};
use serde::Serialize;
use slub_sim::model::cost::{self, Costs};
use slub_sim::scenario::{Allocator, Variant};
use std::collections::BTreeMap;

/// The workload's parameters as run, with the cache they imply.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "LabParams")]
pub struct ParamsOut {
    pub cpus: u32,
    pub nodes: u32,
    pub size: u32,
    pub n: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rounds: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub window: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pairs: Option<u32>,
    pub objects_per_slab: u32,
    pub slab_order: u32,
    pub min_partial: u32,
    pub cpu_partial: u32,
}

/// Cycles per operation (averages over the run, slow paths included).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CyclesOut {
    pub alloc: Option<f64>,
    pub free: Option<f64>,
    /// `alloc + free`: one allocation and one free, the seeds' "per element".
    pub pair: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub touch: Option<f64>,
    /// `producer-consumer`: busy cycles of every CPU per message (the analogue of
    /// hackbench's task-clock).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<f64>,
    pub per_cpu: Vec<CpuCyclesOut>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CpuCyclesOut {
    pub alloc: Option<f64>,
    pub free: Option<f64>,
    /// Cycles charged plus spinning on locks.
    pub busy: u64,
    /// Sleeping for work (a closed gate, a message not yet there).
    pub idle: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpsOut {
    pub alloc: u64,
    pub free: u64,
    pub touch: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransfersOut {
    /// Transfers per operation, by operation.
    pub per_op: BTreeMap<&'static str, f64>,
    pub alloc: Transfers,
    pub free: Transfers,
    pub touch: Transfers,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatsOut {
    pub total: BTreeMap<String, u64>,
    pub per_cpu: Vec<BTreeMap<String, u64>>,
}

/// What `slub-lab bench WORKLOAD` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub schema_version: u32,
    pub workload: &'static str,
    pub about: &'static str,
    pub params: ParamsOut,
    pub allocator: Allocator,
    pub variant: Variant,
    pub cycles: CyclesOut,
    pub ops: OpsOut,
    /// Cycles spent spinning on locks, all CPUs.
    pub spin: u64,
    /// `list_lock` acquisitions, by the operation that took them.
    pub list_locks: OpsOut,
    pub transfers: TransfersOut,
    /// Cycles per operation by cost constant (constants charged at all), by operation: where
    /// the cycles went, and what a change of one constant would move.
    pub by_constant: BTreeMap<&'static str, BTreeMap<&'static str, f64>>,
    pub stats: StatsOut,
    pub steps: u64,
    pub finished: bool,
    pub violations: Vec<slub_sim::view::Violation>,
    /// What the mechanisms outside the step model did (`mech`).
    pub mechanisms: MechUse,
}

/// Cycles per `per` by cost constant (the constants charged at all, by name), with the
/// spinning as `waiting`.
fn per_constant(t: &Tally, costs: &Costs, per: f64) -> BTreeMap<&'static str, f64> {
    let mut out: BTreeMap<&'static str, f64> = cost::Id::ALL
        .iter()
        .filter(|id| t.charges[**id as usize] > 0)
        .map(|&id| {
            let cycles = t.charges[id as usize] * costs.get(id);
            (id.cost().name, round2(cycles as f64 / per))
        })
        .collect();
    if t.spin > 0 {
        out.insert(WAITING, round2(t.spin as f64 / per));
    }
    if t.prefetch_wait > 0 {
        out.insert(PREFETCH_WAIT, round2(t.prefetch_wait as f64 / per));
    }
    if t.issue > 0 {
        out.insert(ISSUE, round2(t.issue as f64 / per));
    }
    if t.stall > 0 {
        out.insert(STORE_DRAIN, round2(t.stall as f64 / per));
    }
    out
}

/// The name of waiting for a prefetched line in `by_constant` (the rest of a transfer).
pub const PREFETCH_WAIT: &str = "prefetch wait";

/// The name of the overlapped accesses' issue cycles in `by_constant` (`mech::ISSUE` each).
pub const ISSUE: &str = "issue";

/// The name of waiting for the store buffer to drain in `by_constant` (transfer time).
pub const STORE_DRAIN: &str = "store-buffer drain";

/// The name of spinning on a held lock in `by_constant` (the driver's time, not a constant's).
pub const WAITING: &str = "waiting";

pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn avg(t: &Tally) -> Option<f64> {
    t.per_op().map(round2)
}

impl Report {
    pub fn of(w: &Workload, variant: &Variant, m: Measured) -> Report {
        let (order, objects) = w.geometry();
        let cache = w.cache();
        let o = &m.ops;
        let pair = match (o.alloc.per_op(), o.free.per_op()) {
            (Some(a), Some(f)) => Some(round2(a + f)),
            _ => None,
        };
        let busy: u64 = m.per_cpu.iter().map(|c| c.busy).sum();
        let message = (w.kind == WorkloadKind::ProducerConsumer)
            .then(|| round2(busy as f64 / f64::from(w.n * w.pairs)));
        let per_op = [("alloc", &o.alloc), ("free", &o.free), ("touch", &o.touch)]
            .into_iter()
            .filter(|(_, t)| t.ops > 0)
            .map(|(k, t)| (k, round2(t.transfers.total as f64 / t.ops as f64)))
            .collect();
        let by_constant = [("alloc", &o.alloc), ("free", &o.free), ("touch", &o.touch)]
            .into_iter()
            .filter(|(_, t)| t.ops > 0)
            .map(|(k, t)| (k, per_constant(t, &m.costs, t.ops as f64)))
            .collect();
        Report {
            schema_version: 1,
            workload: w.kind.name(),
            about: w.kind.about(),
            params: ParamsOut {
                cpus: w.cpus,
                nodes: w.nodes,
                size: w.size,
                n: w.n,
                rounds: (w.kind == WorkloadKind::NPattern).then_some(w.rounds),
                window: (w.kind == WorkloadKind::ProducerConsumer).then_some(w.window),
                pairs: (w.kind == WorkloadKind::ProducerConsumer).then_some(w.pairs),
                objects_per_slab: objects,
                slab_order: order,
                min_partial: cache.min_partial,
                cpu_partial: cache.cpu_partial,
            },
            allocator: w.allocator,
            variant: variant.clone(),
            cycles: CyclesOut {
                alloc: avg(&o.alloc),
                free: avg(&o.free),
                pair,
                touch: avg(&o.touch),
                message,
                per_cpu: m
                    .per_cpu
                    .iter()
                    .map(|c| CpuCyclesOut {
                        alloc: avg(&c.ops.alloc),
                        free: avg(&c.ops.free),
                        busy: c.busy,
                        idle: c.idle,
                    })
                    .collect(),
            },
            ops: OpsOut {
                alloc: o.alloc.ops,
                free: o.free.ops,
                touch: o.touch.ops,
            },
            spin: o.alloc.spin + o.free.spin + o.touch.spin,
            list_locks: OpsOut {
                alloc: o.alloc.list_locks,
                free: o.free.list_locks,
                touch: o.touch.list_locks,
            },
            transfers: TransfersOut {
                per_op,
                alloc: o.alloc.transfers,
                free: o.free.transfers,
                touch: o.touch.transfers,
            },
            by_constant,
            stats: StatsOut {
                total: m.stats,
                per_cpu: m.stats_per_cpu,
            },
            steps: m.steps,
            finished: m.finished,
            violations: m.violations,
            mechanisms: m.mechanisms,
        }
    }
}

/// Run a workload under a variant (parameters checked first).
pub fn bench(w: &Workload, variant: &Variant) -> Result<Report, String> {
    bench_with(w, variant, Costs::default())
}

/// [`bench()`] under another cost table (the sensitivity runs). A run is deterministic, and
/// several seed cases share a side (003b and 003c, 004c and 004d, the three of 002): each
/// distinct run is made once per process (or wasm instance) and its report reused.
pub fn bench_with(w: &Workload, variant: &Variant, costs: Costs) -> Result<Report, String> {
    w.check()?;
    type Runs = std::collections::HashMap<(String, Costs), Report>;
    thread_local! {
        static RUNS: std::cell::RefCell<Runs> = std::cell::RefCell::default();
    }
    let key = (format!("{w:?} {variant:?}"), costs);
    if let Some(r) = RUNS.with(|runs| runs.borrow().get(&key).cloned()) {
        return Ok(r);
    }
    let (sc, gates) = w.build(variant);
    let m = drive(sc, &gates, costs, w);
    let r = Report::of(w, variant, m);
    RUNS.with(|runs| runs.borrow_mut().insert(key, r.clone()));
    Ok(r)
}
