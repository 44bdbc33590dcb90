//! The Lab: the seed patches' own benchmarks as workloads on the model, under the one cost
//! table of `model::cost` (model.md §7), with no per-experiment constant anywhere.
//!
//! How it works and why it is built so (the driver's clocks, spinning and queued locks, what
//! an object's size means, the mechanisms outside the step model, what the cost model leaves
//! out and adds, SLAB's costs, the experiments tried and left out) is docs/lab.md, "How the
//! Lab runs a benchmark". The crate in rooms, each its own file:
//! - `workloads`: the workloads ([`WorkloadKind`], [`Workload`]), their parameters and the
//!   cache geometry an object size implies;
//! - `gates`: the order a workload puts between its contexts' operations ([`Gate`]), and how
//!   a context that cannot step waits;
//! - `variants`: variants from `key=value` text ([`parse_flavour`]);
//! - `driver`: [`drive`], the discrete-event clock that plays a workload on the machine;
//! - `measured`: what a run measured ([`Measured`], [`Tally`], [`MechUse`]);
//! - `mech`: the mechanisms outside the step model the driver charges around the steps;
//! - `reports`: a run's report ([`Report`]) and [`bench()`];
//! - `seeds`: the seeds' comparisons, `seeds.json` as data ([`seed_cases`], [`run_seed`]);
//! - `mechanisms`: a comparison's rows of what each mechanism did;
//! - `sensitivity`: how a verdict moves with each cost constant ([`rerun_sensitivity`]);
//! - `export`: what the Lab page reads (`slub-lab-wasm`).

mod driver;
pub mod export;
mod gates;
mod measured;
pub mod mech;
mod mechanisms;
mod reports;
mod seeds;
mod sensitivity;
mod variants;
mod workloads;

pub use driver::drive;
pub use gates::Gate;
pub use measured::{CpuTime, Measured, MechUse, OpTallies, Tally, Transfers};
pub use mechanisms::MechanismRow;
pub use reports::{
    bench, bench_with, CpuCyclesOut, CyclesOut, OpsOut, ParamsOut, Report, StatsOut, TransfersOut,
    ISSUE, PREFETCH_WAIT, STORE_DRAIN, WAITING,
};
pub use seeds::{
    pending_seeds, run_seed, run_seed_with, seed_cases, Metric, OpLine, PendingSeed, SeedCase,
    SeedResult, Shares, Side, EFFECT_RANGE, TOLERANCE,
};
pub use sensitivity::{rerun_sensitivity, Sensitivity, SensitivityMethod};
pub use variants::{parse_flavour, parse_variant};
pub use workloads::{
    slab_geometry, slab_geometry_slab, Api, Mechs, Workload, WorkloadKind, MAX_OPS, MAX_SIZE,
};

use mechanisms::mechanism_rows;
use reports::round2;
use sensitivity::linear_sensitivity;
