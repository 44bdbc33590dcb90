//! One event per step (design.md §3 "Events"). Built only when the caller asks for events: the
//! machine carries an `Option<EventSink>` and every piece of an event is made behind it, so
//! the explorer and the benchmarks pay nothing for narration.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

// It lives here, beside the events, because the model records it after a step (the model
// stays below the view); the view and the simulator report it.
/// An invariant violation, recorded as an outcome (never a panic).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, TS)]
pub struct Violation {
    pub step: u64,
    pub invariant: String,
    pub message: String,
}

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
    pub kind: EventKind,
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

/// What kind of instruction a step is: the stage's caption names it and lessons match on it
/// (`kind: pcas2`). One closed set, so a typo in the model or a lesson is an error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// A plain load.
    #[default]
    Load,
    /// A plain store.
    Store,
    /// A per-CPU load (`this_cpu_read`, `raw_cpu_read`).
    Pld,
    /// Taking a per-CPU pointer (`raw_cpu_ptr`, `this_cpu_ptr`): no memory access.
    Pcpu,
    /// A per-CPU single-word compare-and-swap (`this_cpu_cmpxchg`).
    Pcas,
    /// The per-CPU double compare-and-swap of the fast path (`this_cpu_cmpxchg_double`).
    Pcas2,
    /// The slab's double compare-and-swap of freelist and counters (`cmpxchg_double_slab`).
    Cas2,
    /// The fast path's `cmpxchg_local` (2.6.2x, no tid).
    CasLocal,
    /// `spin_lock` (the node's `list_lock`, SLAB's locks).
    Lock,
    /// `spin_unlock`.
    Unlock,
    /// `local_lock_irqsave` (5.15+).
    LocalLock,
    /// `local_unlock_irqrestore`.
    LocalUnlock,
    /// `slab_lock`: the page's bit spinlock (the double-CAS fallback).
    BitLock,
    /// `slab_unlock`.
    BitUnlock,
    /// `local_irq_save` / `local_irq_disable`.
    IrqOff,
    /// `local_irq_restore` / `local_irq_enable`.
    IrqOn,
    /// `preempt_disable`.
    PreemptOff,
    /// `preempt_enable`.
    PreemptOn,
    /// A slab added to a list (`add_partial`, a CPU partial list).
    ListAdd,
    /// A slab taken off a list (`remove_partial`).
    ListDel,
    /// A slab's pages from the page allocator (`new_slab`).
    PageAlloc,
    /// A slab's pages back to the page allocator (`discard_slab`).
    PageFree,
    /// `prefetch` / `prefetchw` of the next object.
    Prefetch,
    /// Linux 7.0's `local_trylock` test of the per-CPU sheaves' `acquired` flag.
    Trylock,
    /// Linux 7.0: a sheaf from `kzalloc` (`__alloc_empty_sheaf`).
    SheafAlloc,
    /// Linux 7.0: a sheaf back to `kfree` (`free_empty_sheaf`).
    SheafFree,
    /// An object back to kmalloc (`kfree`), not a page: SLAB's replaced shared array
    /// (`setup_kmem_cache_node`).
    Kfree,
}

impl EventKind {
    /// The kind as it is written in events and lessons (`pcas2`, `irq-off`).
    pub fn as_str(self) -> &'static str {
        use EventKind::*;
        match self {
            Load => "load",
            Store => "store",
            Pld => "pld",
            Pcpu => "pcpu",
            Pcas => "pcas",
            Pcas2 => "pcas2",
            Cas2 => "cas2",
            CasLocal => "cas-local",
            Lock => "lock",
            Unlock => "unlock",
            LocalLock => "local-lock",
            LocalUnlock => "local-unlock",
            BitLock => "bit-lock",
            BitUnlock => "bit-unlock",
            IrqOff => "irq-off",
            IrqOn => "irq-on",
            PreemptOff => "preempt-off",
            PreemptOn => "preempt-on",
            ListAdd => "list-add",
            ListDel => "list-del",
            PageAlloc => "page-alloc",
            PageFree => "page-free",
            Prefetch => "prefetch",
            Trylock => "trylock",
            SheafAlloc => "sheaf-alloc",
            SheafFree => "sheaf-free",
            Kfree => "kfree",
        }
    }
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CasHalf {
    pub field: String,
    pub expected: String,
    pub actual: String,
}

/// A cache-line state change caused by one access (design.md §3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Transition {
    pub line: u32,
    pub cpu: u32,
    pub from: char,
    pub to: char,
}
