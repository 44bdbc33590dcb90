//! One event per step (DESIGN §3 "Events"). Built only when the caller asks for events: the
//! machine carries an `Option<EventSink>` and every piece of an event is made behind it, so
//! the explorer and the benchmarks pay nothing for narration.

use serde::Serialize;
use ts_rs::TS;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Default, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SimEvent")] // not the DOM's `Event`
pub struct Event {
    /// Index of the step since the start (setup included).
    pub step: u64,
    /// Index of the move that caused it (`None` during setup and the default policy's moves
    /// are numbered on after the given ones).
    pub mv: Option<usize>,
    pub ctx: String,
    pub cpu: u32,
    /// The code-listing label of the line executed (e.g. `slab_alloc:A9`).
    pub label: String,
    /// `load`, `store`, `pcas2`, `pcas`, `cas2`, `lock`, `unlock`, `irq-off`, `irq-on`, ...
    pub kind: String,
    /// Structure and field touched, e.g. `cpu_slab[0].freelist`, `page P.counters`.
    pub target: String,
    pub read: Option<String>,
    pub wrote: Option<String>,
    /// For CAS kinds: whether it succeeded.
    pub ok: Option<bool>,
    /// For a failed double CAS: each half, expected vs actual.
    pub halves: Vec<CasHalf>,
    pub coherence: Vec<Transition>,
    pub cycles: u64,
    pub stats: Vec<String>,
    pub narration: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CasHalf {
    pub field: String,
    pub expected: String,
    pub actual: String,
}

/// A cache-line state change caused by one access (DESIGN §3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Transition {
    pub line: u32,
    pub cpu: u32,
    pub from: char,
    pub to: char,
}
