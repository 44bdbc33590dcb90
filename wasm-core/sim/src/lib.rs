//! slub-sim: a step-level model of the Linux kernel's lockless SLUB allocator.
//! (Crate docs are completed in `model` once the model lands.)

pub mod event;
pub mod model;
pub mod scenario;
pub mod view;

pub use event::Event;
pub use scenario::{Scenario, ScenarioError};
pub use view::{View, Violation};

use serde::Serialize;

/// Every error the simulator reports to a caller: a bad scenario or a move that is not enabled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Error {
    Scenario(ScenarioError),
    /// A move that cannot be applied: its index in the schedule, the move and why.
    Move {
        index: usize,
        mv: String,
        why: String,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Scenario(e) => write!(f, "bad scenario: {e}"),
            Error::Move { index, mv, why } => {
                write!(f, "move {index} ({mv:?}) is not enabled: {why}")
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<ScenarioError> for Error {
    fn from(e: ScenarioError) -> Self {
        Error::Scenario(e)
    }
}

/// What `slub-lab run` prints (DESIGN §5), minus the CLI's own `events` switch.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub schema_version: u32,
    pub finished: bool,
    pub deadlock: bool,
    pub violations: Vec<Violation>,
    pub stats: Stats,
    pub cycles: Cycles,
    pub vars: std::collections::BTreeMap<String, VarOutcome>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub total: std::collections::BTreeMap<String, u64>,
    pub per_cpu: Vec<std::collections::BTreeMap<String, u64>>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cycles {
    pub per_cpu: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VarOutcome {
    pub addr: Option<u64>,
    pub held: bool,
}

mod simulator;
pub use simulator::Simulator;

/// One modelled kernel function of the code listing (DESIGN §3 "Code listing").
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListingFunction {
    pub name: String,
    pub lines: Vec<ListingLine>,
}

/// A line of pseudo-code; `label` is what events carry (`slab_alloc:A9`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListingLine {
    pub label: String,
    pub text: String,
}

mod listing;
pub use listing::listing;
