//! The machine: state, the immutable configuration, and the helpers every modelled kernel
//! function uses to take a step (memory access with coherence and cost, stats, events).
//!
//! How a step runs. Each context has a stack of [`Frame`]s; each frame is a kernel function
//! with its program counter and its locals. Both are typed by the function (`pcs`): a frame
//! is the function's arm of [`Frame`], `Frame::F { pc, l }`, where `pc` is a label of the
//! function's own enum, declared with its listing line by `kernel_fn!` (`crate::listing`,
//! `listing_slab`, `listing_v7`), and `l` its own struct of locals, holding only what it uses
//! (defined in `locals`, below `pcs` so that the frame table reaches up to no state, core or
//! allocator; its `impl Locals` in the allocator's module). So a
//! label is never paired with another function's locals, each function's `match` covers
//! exactly its own labels, which the compiler checks, and a local its caller always supplies
//! is never unset. `exec` dispatches the top frame to its function with its label and its
//! locals, which it runs. A label is either a *step* (one atomic
//! action on shared state: a load, a store, a CAS, a lock, an irq or preempt toggle, a
//! prefetch, a page allocation) or *free work* (branching on locals, calls, returns, stat
//! bumps). A callee returns (`Flow::Ret`) a [`Ret`]: a value, a slab, a count or a success its
//! caller tests, which lands in the caller's return register (its locals keep what they read
//! of it, `Locals::returned`). What the machine asks of a frame outside its step machine (an
//! object or a slab it holds, a sheaf it works on) is a method of [`Frame`] that its locals
//! answer (`locals::Locals`). After every step the context is
//! *settled*: its free work runs until the next label is a step, so the label a context shows
//! is the step it will take next and a finished context is known at once. In probing mode a
//! step label returns `Flow::Pending` without touching anything; that is how settling stops in
//! front of a step.
//!
//! Layout. `Machine` (`machine`) is a [`Core`], what every allocator uses and none owns, and the
//! state of the allocator the scenario runs ([`AllocState`]). The machine shared by every
//! allocator, which knows none of them by field: `state` (the plain-data state: processor, node
//! lists, slab memory, contexts, cache lines, statistics), `core` ([`Core`], [`Flow`], [`Fault`],
//! [`Block`], with `core::memory`: cache lines, MESI, the cost of an access, and `core::prims`:
//! processor state, `list_lock`, the typed lookups), `cost` (the cost table), `config` (what a
//! scenario fixes once: `Config`), `executor` (contexts and moves: which move is enabled, applying
//! one, settling, starting and finishing ops, dispatching a label to its allocator), `allocator`
//! (the seam: the questions the machine asks the allocator, one arm each, with the allocator's arm
//! of the state; the only module here that names the allocators), `driver` (the seam the policies,
//! the explorer and the Lab drive it through), `stats`, `pcs` (the functions and their program
//! counters), `locals` (each function's struct of locals, `Ret` and the `Locals` trait, below
//! `pcs`), `ids` (the plain values everything names: `Addr`, `SlabId`...; `state` re-exports them),
//! `touch` (the user's write, the same under every allocator) and `view`. Each allocator is a
//! module of its own with its state, its kernel functions as step machines, its invariants and its
//! part of the views: `slub` (`mm/slub.c`, the subject), `slab` (`mm/slab.c`, model.md Appendix A)
//! and `sheaves` (Linux 7.0, model.md Appendix C); `slab_page` is the slab level SLUB and 7.0 share
//! (a slab's `freelist` + `counters`, its double CAS, the node partial list).
//! `docs/adding-an-allocator.md` says how another one goes in.

#[macro_use]
mod macros;
mod allocator;
mod config;
mod core;
pub mod cost;
mod driver;
mod executor;
mod ids;
mod locals;
mod machine;
pub mod pcs;
mod sheaves;
mod slab;
mod slab_page;
pub(crate) mod slub;
pub mod state;
pub mod stats;
mod touch;
mod view;

pub use self::core::memory;
use self::core::prims;
pub use self::core::{
    heap_block, Block, Core, Fault, Flow, Ghost, Recorder, RES_CTX, RES_PAGE_ALLOC, RES_SCHED,
    WRITE,
};
pub use config::Config;
pub use driver::{CtxView, Driver, PolicyView};
pub use executor::Move;
pub use machine::Machine;

pub use pcs::{Func, Pc};
pub use stats::Stat;
