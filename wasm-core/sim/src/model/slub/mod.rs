//! SLUB (`mm/slub.c`): the allocator the model is about. Its kernel functions as step
//! machines (`alloc`: `slab_alloc` and its slow path, `get_freelist`, `get_partial_node`,
//! `acquire_slab`, `new_slab`; `free`: `slab_free`, `__slab_free`, `touch`; `lists`: the CPU
//! partial list, `unfreeze_partials`, `deactivate_slab`, the flushes and
//! `cmpxchg_double_slab`), the fast-path steps both listings share (`steps`) and its
//! invariants INV-1…INV-15 (`invariants`).

use super::{cost, memory, prims, state, Flow, Machine, Pc, Stat, RES_PAGE_ALLOC};

mod alloc;
mod free;
mod invariants;
mod lists;
mod steps;
