//! slub-sim: a step-level model of the Linux kernel's lockless SLUB allocator.
//! (Crate docs are completed in `model` once the model lands.)

pub mod event;
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
    Move { index: usize, mv: String, why: String },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Scenario(e) => write!(f, "bad scenario: {e}"),
            Error::Move { index, mv, why } => write!(f, "move {index} ({mv:?}) is not enabled: {why}"),
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

/// The one entry point for the CLI and the wasm crate: a scenario, the moves applied so far and
/// the machine they led to. (API fixed here; bodies land with the model.)
pub struct Simulator {
    _private: (),
}

impl Simulator {
    /// Parse and validate a scenario, run its setup. Events are recorded when `events` is true.
    pub fn from_json(_json: &str, _events: bool) -> Result<Simulator, Error> {
        unimplemented!("lands with the model")
    }
    pub fn scenario(&self) -> &Scenario {
        unimplemented!()
    }
    /// The moves that may come next, in a stable order: tasks, irqs, then migrations.
    pub fn enabled_moves(&self) -> Vec<String> {
        unimplemented!()
    }
    /// Apply one move. A move that is not enabled is an `Error::Move` and changes nothing.
    pub fn apply(&mut self, _mv: &str) -> Result<(), Error> {
        unimplemented!()
    }
    /// Apply moves in order; stops at the first that is not enabled.
    pub fn apply_all<S: AsRef<str>>(&mut self, _moves: &[S]) -> Result<(), Error> {
        unimplemented!()
    }
    /// Go on by the default policy of DESIGN §5 until done or nothing is enabled.
    pub fn run_to_end(&mut self) {
        unimplemented!()
    }
    /// The moves applied so far.
    pub fn history(&self) -> &[String] {
        unimplemented!()
    }
    /// Move the cursor to `n` moves of the history (time travel; the history is kept).
    pub fn seek(&mut self, _n: usize) -> Result<(), Error> {
        unimplemented!()
    }
    pub fn view(&self) -> View {
        unimplemented!()
    }
    /// Events of every step so far (empty unless created with events on).
    pub fn events(&self) -> &[Event] {
        unimplemented!()
    }
    pub fn outcome(&self) -> Outcome {
        unimplemented!()
    }
}

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

/// The listing of every modelled function, in one place with the labels events refer to.
pub fn listing() -> Vec<ListingFunction> {
    unimplemented!("lands with the model")
}
