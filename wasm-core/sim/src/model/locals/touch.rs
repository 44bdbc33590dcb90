//! The locals of the user's `touch` op (its step machine is `touch.rs`, the same under every
//! allocator). The struct is here, below the frame table (`pcs`), because `Frame` holds it and
//! nothing the frame table reaches may reach up to the state, the core or an allocator.

use crate::model::ids::Addr;

/// A user's write into object `x` of variable `var` (the payload word).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Touch {
    pub x: Addr,
    pub var: u32,
}
