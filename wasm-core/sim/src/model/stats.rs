//! `enum stat_item` of CONFIG_SLUB_STATS (model.md §8), counted per CPU where the modelled era counts.

use serde::Serialize;

macro_rules! stats {
    ($($name:ident),+ $(,)?) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
        pub enum Stat { $($name),+ }
        impl Stat {
            pub const ALL: &'static [Stat] = &[$(Stat::$name),+];
            pub fn name(self) -> &'static str { match self { $(Stat::$name => stringify!($name)),+ } }
        }
    };
}

stats!(
    ALLOC_FASTPATH,
    ALLOC_SLOWPATH,
    FREE_FASTPATH,
    FREE_SLOWPATH,
    FREE_FROZEN,
    FREE_ADD_PARTIAL,
    FREE_REMOVE_PARTIAL,
    ALLOC_FROM_PARTIAL,
    ALLOC_SLAB,
    ALLOC_REFILL,
    ALLOC_NODE_MISMATCH,
    FREE_SLAB,
    CPUSLAB_FLUSH,
    DEACTIVATE_FULL,
    DEACTIVATE_EMPTY,
    DEACTIVATE_TO_HEAD,
    DEACTIVATE_TO_TAIL,
    DEACTIVATE_REMOTE_FREES,
    DEACTIVATE_BYPASS,
    ORDER_FALLBACK,
    CMPXCHG_DOUBLE_CPU_FAIL,
    CMPXCHG_DOUBLE_FAIL,
    CPU_PARTIAL_ALLOC,
    CPU_PARTIAL_FREE,
    CPU_PARTIAL_NODE,
    CPU_PARTIAL_DRAIN,
    // SLAB's STATS_INC_* (mm/slab.c, CONFIG_DEBUG_SLAB's counters; model.md Appendix A)
    ALLOCHIT,
    ALLOCMISS,
    FREEHIT,
    FREEMISS,
    GROWN,
    // Linux 7.0's sheaf and barn items (model.md C.6)
    SHEAF_FLUSH,
    SHEAF_REFILL,
    SHEAF_ALLOC,
    SHEAF_FREE,
    BARN_GET,
    BARN_GET_FAIL,
    BARN_PUT,
    BARN_PUT_FAIL,
);

pub const NR_STATS: usize = 39;

impl Stat {
    /// The counters a run under `allocator` reports: the classic 26 and SLAB's five for SLUB
    /// and SLAB (as always), and for Linux 7.0 the items of its `enum stat_item` that the
    /// model counts (model.md C.6; the 15 classic names 7.0 removed are not among them).
    pub fn reported(allocator: crate::scenario::Allocator) -> &'static [Stat] {
        use Stat::*;
        match allocator {
            crate::scenario::Allocator::Sheaves => &[
                ALLOC_FASTPATH,
                ALLOC_SLOWPATH,
                FREE_FASTPATH,
                FREE_SLOWPATH,
                FREE_ADD_PARTIAL,
                FREE_REMOVE_PARTIAL,
                ALLOC_SLAB,
                ALLOC_NODE_MISMATCH,
                FREE_SLAB,
                ORDER_FALLBACK,
                CMPXCHG_DOUBLE_FAIL,
                SHEAF_FLUSH,
                SHEAF_REFILL,
                SHEAF_ALLOC,
                SHEAF_FREE,
                BARN_GET,
                BARN_GET_FAIL,
                BARN_PUT,
                BARN_PUT_FAIL,
            ],
            // SLUB's and SLAB's items: every one up to SLAB's last.
            _ => Stat::ALL.get(..=GROWN as usize).unwrap_or(Stat::ALL),
        }
    }
}
