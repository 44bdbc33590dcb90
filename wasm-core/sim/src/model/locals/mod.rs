//! Each modelled function's locals, below the frame table (`pcs`): `Frame` holds them, so
//! nothing they name may reach up to the state, the core or an allocator (docs/architecture.md,
//! "Inside the model: its import graph"); they name only the plain values of `ids`. Here: the
//! return register (`Ret`), what the machine asks of any function's locals (`Locals`), and
//! the struct of each function's locals, a file per allocator (`slub`, `slab`, `sheaves`,
//! `touch`; `slab_page`: the slab level's `Counters` that SLUB's and 7.0's locals hold),
//! re-exported here. Each struct's `impl Locals` and the step machine that uses it stay in
//! the allocator's module (beside the function under SLUB and 7.0; SLAB's in
//! `slab/structs.rs`; touch's in `touch.rs`).

use super::ids::{Addr, SlabId};

mod sheaves;
mod slab;
mod slab_page;
mod slub;
mod touch;

pub use sheaves::*;
pub use slab::*;
pub use slab_page::*;
pub use slub::*;
pub use touch::*;

/// What the machine asks of any frame's locals, outside the function's own step machine;
/// each function's locals answer for themselves (the defaults: nothing held).
pub trait Locals: std::fmt::Debug {
    /// A callee returned `r` (the return register): keep what the function reads of it.
    fn returned(&mut self, _r: Ret) {}
    /// The frame holds object `a` in a local.
    fn holds_addr(&self, _a: Addr) -> bool {
        false
    }
    /// The frame has slab `s` queued.
    fn queued(&self, _s: SlabId) -> bool {
        false
    }
    /// Each slab the frame names in a local (INV-5/6/9's "held by an op", where the function
    /// is in one of its windows).
    fn slabs<F: FnMut(Option<SlabId>)>(&self, _mark: &mut F) {}
    /// Linux 7.0: the sheaves the frame works on (`main`, `spare`, `empty`, `full`...).
    fn sheaves(&self) -> [Option<u32>; 2] {
        [None, None]
    }
}

/// What a callee returns (`Flow::Ret`): its value (an object, a sheaf as `ret_sheaf` spells
/// it, 0 or 1), a slab, a count (`acquire_slab`: the free objects it took; the 7.0 lock
/// functions: the CPU they locked) and, for a function its caller tests, the success.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ret {
    pub value: Addr,
    pub slab: Option<SlabId>,
    pub count: u32,
    pub ok: Option<bool>,
}

impl Ret {
    /// A return of `value` and `slab`.
    pub fn new(value: Addr, slab: Option<SlabId>) -> Ret {
        Ret {
            value,
            slab,
            ..Ret::default()
        }
    }

    /// The same return, with a count (`acquire_slab`'s objects; 7.0: the CPU a lock function
    /// locked, the objects a refill took, `barn_replace_full_sheaf`'s error).
    pub fn counted(self, count: u32) -> Ret {
        Ret { count, ..self }
    }

    /// The return of a function its caller tests: the success (and 0 or 1 as the value).
    pub fn ok(ok: bool) -> Ret {
        Ret {
            value: Addr::from(ok),
            ok: Some(ok),
            ..Ret::default()
        }
    }
}
