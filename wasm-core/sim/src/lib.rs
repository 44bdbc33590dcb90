//! slub-sim: a step-level model of the Linux kernel's lockless SLUB allocator.
//!
//! The model is `docs/model.md` made executable: the structures of model.md §1
//! (`kmem_cache_cpu`, the slab's `freelist` + `counters`, `kmem_cache_node` with `list_lock`)
//! and every operation of model.md §2 as the listed atomic steps, canonical v3.10 plus every variant
//! key of §2.16 and the era bundles. One step is one shared-memory action of one context
//! (a load, a store, a CAS, a lock, an irq or preempt toggle, a prefetch, a page allocation);
//! branches, calls and stat bumps between steps are free (`model` explains the executor).
//! Contexts are tasks and interrupt handlers moved by a schedule of design.md §3 moves; the
//! whole machine state is plain data, so it can be cloned, compared and hashed.
//!
//! With `"allocator": "slab"` the same machine runs SLAB instead, the comparison model of
//! model.md Appendix A (`model::slab`, its invariants SLAB-1…SLAB-7 in `model::slab::invariants`).
//! Each allocator is a module of its own (`model::slub`, `model::slab`) with its state, step
//! functions, invariants and variant keys; `model::allocator` is the one place the shared
//! machine asks the running allocator anything (`docs/adding-an-allocator.md`).
//!
//! Driving. Everything outside the model moves the machine through [`model::Driver`]: the
//! enabled moves, applying one, the end of the run, and a read-only [`model::PolicyView`] of
//! what a scheduling policy needs. [`policy`] has the default policy of design.md §5 and a seeded
//! random one; [`Simulator`] keeps a history of moves over a machine, [`explore`] searches the
//! schedules, and the Lab (crate `slub-lab-core`) runs workloads by a discrete-event clock.
//!
//! After every step the invariants INV-1…INV-14 of model.md §5 are checked (INV-15 at the end);
//! a violation is an outcome with its step and a sentence, never a panic. Every memory access
//! moves 64-byte lines between per-CPU caches (MESI) and is charged by the one cost table of
//! `model::cost` (model.md §7). Every step can produce an event with a sentence of narration; none
//! of that is built unless asked for.
//!
//! What the model leaves out, on purpose:
//! - Memory is sequentially consistent. Real x86 is TSO and arm64/POWER are weaker: a bug that
//!   needs a load to pass a store (say, E4's remote `c->tid` read seeing a stale `c->page` on
//!   arm64) cannot show here (model.md §3.6).
//! - One cache, one page order: no `ORDER_FALLBACK`, no debug caches (their slow-path-only
//!   allocation and full lists), no `__GFP_ZERO`, no RCU-deferred slab freeing, no freelist
//!   hardening, no bulk alloc/free, no memcg/KASAN/KFENCE hooks, no pfmemalloc matching.
//! - `get_any_partial` (and 7.0's `get_from_any_partial` and `__refill_objects_any`) always
//!   walk the nodes: the kernel skips the walk when `get_cycles() % 1024` exceeds
//!   `remote_node_defrag_ratio` (24 times in 1024 by default). The model has no randomness of its
//!   own, and its clock (`cycles`) is timing only, outside the explorer's state identity, so no
//!   branch may depend on it.
//! - 3.1's `acquire_slab` loop, its missing re-read of `c->freelist` in `__slab_alloc` and its
//!   `deactivate_slab(s, c)` order are the 3.1 bundle's (`tid-unguarded` without CPU partial
//!   lists); 5.15 itself (objects, not slabs, as the CPU partial budget) is not a separate key.
//!   v4.0's `put_cpu_partial` preempt guard is not a separate key (the 3.x form is used).
//! - The CPU partial list's `pobjects` is kept as the kernel keeps it (approximate), and
//!   INV-10 does not check `pages` against the chain length: an ABA on `c->partial` can leave
//!   it stale in the kernel too (model.md §2.8).
//! - Irq handlers do not nest; a handler runs with interrupts off from entry to exit.
//!
//! The "bypass race" (model.md §3.6): in the 3.x slow path the `DEACTIVATE_BYPASS` exit
//! clears `c->page` without bumping tid and `new_slab` may enable interrupts, so a task preempted
//! inside its free fast path on the same CPU can commit an object to a CPU freelist whose slab
//! is gone; the object is then lost when the new slab is installed. It is a known kernel bug,
//! reported and fixed by Jann Horn in June 2022 (commit eeaa345e1285, "mm/slub: add missing TID
//! updates on slab deactivation", first in 5.19, backported to stable); 5.15–5.18 mainline still
//! had it. The model's `slowpath: local-lock` is the code after that fix, which bumps tid there
//! and is immune. SC17 (the 3.1 torn read) ships
//! without an allocation on its second CPU so that exploring it finds its own bug, not this.

// No input reaches a panic: the page's wasm builds abort on one (`panic = "abort"`), which would
// take its wasm instance with it, and the CLI would lose its report (exit 101). These lints are the
// proof, for the library (its unit tests, `tests/` and `benches/` may unwrap), and the lint stage
// (`cargo clippy ... -D warnings`, scripts/test.mjs) keeps it. A lookup by an id the model itself
// hands around goes through the typed lookups of `model`, which turn an id with nothing behind it
// into an internal error of the model (`model::Fault`): the violation `MODEL`, after which the
// machine stops. Counts a run reaches wrap as the kernel's counters do (`model::state::Bump`, far
// from their limit); what input reaches is checked or saturates; the few helpers allowed plain
// arithmetic name what bounds it.
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::unreachable,
        clippy::todo,
        clippy::unimplemented,
        clippy::arithmetic_side_effects
    )
)]

pub mod event;
pub mod explore;
pub mod model;
pub mod policy;
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

/// What `slub-lab run` prints (design.md §5), minus the CLI's own `events` switch.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
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

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub total: std::collections::BTreeMap<String, u64>,
    pub per_cpu: Vec<std::collections::BTreeMap<String, u64>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Cycles {
    pub per_cpu: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct VarOutcome {
    pub addr: Option<u64>,
    pub held: bool,
}

mod simulator;
pub use simulator::{Simulator, MAX_MOVES_CEILING, MAX_POLICY_MOVES, MAX_RUN_MOVES};

/// One modelled kernel function of the code listing (design.md §3 "Code listing").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ListingFunction {
    pub name: String,
    pub lines: Vec<ListingLine>,
}

/// A line of pseudo-code; `label` is what events carry (`slab_alloc:A9`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct ListingLine {
    pub label: String,
    pub text: String,
}

mod listing;
mod listing_slab;
mod listing_v7;
pub use listing::{listing, listing_for, listing_v7};
