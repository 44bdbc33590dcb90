//! The cycle cost model of spec §7, as one table. Every step is charged its instruction cost
//! plus the cost of each cache line it touches (see `memory.rs`). The Lab (a later issue)
//! uses the same table for every experiment: no per-experiment constants.
//!
//! | constant | cycles | spec §7 source |
//! |---|---|---|
//! | `L1_HIT` | 4 | Xeon 5500 guide, "L1 ~4 cycles" |
//! | `L3_UNSHARED` | 40 | same guide; also the cost of a line no CPU holds |
//! | `CLEAN_IN_OTHER_CORE` | 65 | same guide; also the invalidation a write to a Shared line needs |
//! | `MODIFIED_IN_OTHER_CORE` | 75 | same guide, "~75" |
//! | `REMOTE_SOCKET` | 200 | 100–300 in the guide; CPUs on different NUMA nodes |
//! | `LOCKED_CMPXCHG16B` | 20 | estimate (spec §7) |
//! | `PERCPU_CMPXCHG16B` | 9 | non-LOCK `cmpxchg16b`, M10 |
//! | `PERCPU_CMPXCHG` | 3 | non-LOCK `cmpxchg`, M8 |
//! | `IRQ_SAVE` / `IRQ_RESTORE` | 14 / 10 | the 20–30 estimate for pushf;cli…popf, split |
//! | `PREEMPT_TOGGLE` | 3 | preempt disable+enable = 6, M8 |
//! | `SPIN_LOCK` / `SPIN_UNLOCK` | 20 / 5 | uncontended lock+unlock 25, estimate |
//! | `PREFETCH` | 1 | estimate: the transfer it starts is charged to the line |
//! | `PAGE_ALLOC` / `PAGE_FREE` | 600 / 300 | 300–1000, estimate |

pub const L1_HIT: u64 = 4;
pub const L3_UNSHARED: u64 = 40;
pub const CLEAN_IN_OTHER_CORE: u64 = 65;
pub const MODIFIED_IN_OTHER_CORE: u64 = 75;
pub const REMOTE_SOCKET: u64 = 200;
pub const LOCKED_CMPXCHG16B: u64 = 20;
pub const PERCPU_CMPXCHG16B: u64 = 9;
pub const PERCPU_CMPXCHG: u64 = 3;
pub const IRQ_SAVE: u64 = 14;
pub const IRQ_RESTORE: u64 = 10;
pub const PREEMPT_TOGGLE: u64 = 3;
pub const SPIN_LOCK: u64 = 20;
pub const SPIN_UNLOCK: u64 = 5;
pub const PREFETCH: u64 = 1;
pub const PAGE_ALLOC: u64 = 600;
pub const PAGE_FREE: u64 = 300;
