//! Program counters: each modelled kernel function is a step machine whose pc is the enum of
//! its own labels, declared with its lines of the listing by `kernel_fn!` (`crate::listing`,
//! `crate::listing_v7`). A frame's pc is [`Pc`], one arm per function carrying that function's
//! label, so the function a frame runs follows from its pc ([`Pc::func`]) and each step
//! machine's `match` is exhaustive over its own labels: a label of another function cannot be
//! written there, and no fallback arm is needed. Labels shared by name between functions (7.0
//! reuses `BP1`, `LL1`...) are variants of different enums: a label is read with its function.
//!
//! Both levels are one-byte `Copy` enums, so a pc is two bytes and a dispatch is two jumps, as
//! when `Frame` held a function and one global label enum.

use super::state::{Locals, Shared};
pub(crate) use crate::listing::*;
pub(crate) use crate::listing_v7::*;

/// Every step machine, as the variant of [`Func`] and the arm of [`Pc`] it is, with the module
/// `kernel_fn!` made for its labels.
macro_rules! kernel_fns {
    ($($func:ident = $module:ident,)+) => {
        /// The modelled kernel functions (step machines; names as in the kernel's `mm/slub.c`,
        /// `mm/slab.c`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Func {
            $($func),+
        }

        impl Func {
            /// Every step machine.
            pub const ALL: &[Func] = &[$(Func::$func),+];

            /// The kernel function's name (two step machines may share one: `__slab_alloc`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Func::$func => $module::NAME),+
                }
            }

            /// Its lines of the listing: (label, text), in order.
            pub fn lines(self) -> Lines {
                match self {
                    $(Func::$func => $module::LINES),+
                }
            }
        }

        /// A frame's program counter: the function it runs and that function's label.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Pc {
            $($func($module::Pc)),+
        }

        impl Pc {
            /// The function this pc is a label of.
            #[inline]
            pub fn func(self) -> Func {
                match self {
                    $(Pc::$func(_) => Func::$func),+
                }
            }

            /// The label as events and the listing spell it (`A9`, read with its function).
            pub fn name(self) -> &'static str {
                match self {
                    $(Pc::$func(pc) => pc.name()),+
                }
            }
        }

        $(
            impl From<$module::Pc> for Pc {
                #[inline]
                fn from(pc: $module::Pc) -> Pc {
                    Pc::$func(pc)
                }
            }
        )+

        /// Each step machine's labels (`slab_alloc::A9`), for `use crate::model::pcs::labels::*`.
        pub mod labels {
            pub(crate) use super::{$($module),+};
        }
    };
}

kernel_fns! {
    SlabAlloc = slab_alloc,
    SlabAllocSlow = slab_alloc_slow,
    SlabAllocSlowLl = slab_alloc_slow_ll,
    GetFreelist = get_freelist,
    GetPartialNode = get_partial_node,
    AcquireSlab = acquire_slab,
    NewSlab = new_slab,
    PutCpuPartial = put_cpu_partial,
    UnfreezePartials = unfreeze_partials,
    DeactivateSlab = deactivate_slab,
    FlushSlab = flush_slab,
    FlushCpuSlab = flush_cpu_slab,
    SlabFree = slab_free,
    SlabFreeSlow = slab_free_slow,
    CmpxchgDoubleSlab = cmpxchg_double_slab,
    CacheAlloc = cache_alloc,
    CacheAllocRefill = cache_alloc_refill,
    CacheGrowBegin = cache_grow_begin,
    CacheGrowEnd = cache_grow_end,
    CacheFree = cache_free,
    CacheFlusharray = cache_flusharray,
    DoDrain = do_drain,
    Touch = touch,
    SlabAllocNode = slab_alloc_node,
    LocalTrylock = local_trylock,
    LocalLockV7 = local_lock_v7,
    LocalUnlockV7 = local_unlock_v7,
    ReplaceEmptyMain = pcs_replace_empty_main,
    BarnReplaceEmpty = barn_replace_empty_sheaf,
    BarnGetEmpty = barn_get_empty_sheaf,
    BarnReplaceFull = barn_replace_full_sheaf,
    BarnPutEmpty = barn_put_empty_sheaf,
    BarnPutFull = barn_put_full_sheaf,
    RefillSheaf = refill_sheaf,
    RefillObjects = refill_objects,
    RefillObjectsNode = refill_objects_node,
    GetPartialNodeBulk = get_partial_node_bulk,
    GetFreelistNofreeze = get_freelist_nofreeze,
    AllocateSlab = allocate_slab,
    AllocFromNewSlab = alloc_from_new_slab,
    SlabAllocV7 = slab_alloc_v7,
    GetFromPartialNode = get_from_partial_node,
    SlabFreeV7 = slab_free_v7,
    FreeToPcs = free_to_pcs,
    ReplaceFullMain = pcs_replace_full_main,
    InstallEmptySheaf = pcs_install_empty_sheaf,
    SheafFlushMain = sheaf_flush_main,
    SheafFlushUnused = sheaf_flush_unused,
    FreeBulk = kmem_cache_free_bulk,
    SlabFreeSlowV7 = slab_free_slow_v7,
    CpuDead = slub_cpu_dead,
    PcsFlushAll = pcs_flush_all,
}

/// The frame of every step machine that has its own locals: one arm per function carrying its
/// pc and its locals together (so a label is never paired with another function's locals),
/// with what the machine asks of any frame.
macro_rules! frames {
    ($($func:ident = $module:ident : $locals:ty,)+) => {
        /// One activation of a modelled function: its label and its locals.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Frame {
            $($func { pc: $module::Pc, l: $locals },)+
            /// Transitional: a function whose locals are still the shared superset.
            Shared(Shared),
        }

        impl Frame {
            /// The frame's program counter: its function and label.
            #[inline]
            pub fn pc(&self) -> Pc {
                match self {
                    $(Frame::$func { pc, .. } => Pc::$func(*pc),)+
                    Frame::Shared(f) => f.pc,
                }
            }

            /// The frame's locals, for the questions every frame answers (`Locals`).
            #[inline]
            pub fn locals(&self) -> &dyn Locals {
                match self {
                    $(Frame::$func { l, .. } => l,)+
                    Frame::Shared(f) => f,
                }
            }

            /// `locals`, to write.
            #[inline]
            pub fn locals_mut(&mut self) -> &mut dyn Locals {
                match self {
                    $(Frame::$func { l, .. } => l,)+
                    Frame::Shared(f) => f,
                }
            }
        }
    };
}

frames! {
    SlabAlloc = slab_alloc: super::slub::SlabAlloc,
    SlabAllocSlow = slab_alloc_slow: super::slub::SlabAllocSlow,
    SlabAllocSlowLl = slab_alloc_slow_ll: super::slub::SlabAllocSlowLl,
    GetFreelist = get_freelist: super::slub::GetFreelist,
    GetPartialNode = get_partial_node: super::slub::GetPartialNode,
    AcquireSlab = acquire_slab: super::slub::AcquireSlab,
    NewSlab = new_slab: super::slub::NewSlab,
    PutCpuPartial = put_cpu_partial: super::slub::PutCpuPartial,
    UnfreezePartials = unfreeze_partials: super::slub::UnfreezePartials,
    DeactivateSlab = deactivate_slab: super::slub::DeactivateSlab,
    FlushSlab = flush_slab: super::slub::FlushSlab,
    FlushCpuSlab = flush_cpu_slab: super::slub::FlushCpuSlab,
    SlabFree = slab_free: super::slub::SlabFree,
    SlabFreeSlow = slab_free_slow: super::slub::SlabFreeSlow,
    CmpxchgDoubleSlab = cmpxchg_double_slab: super::slub::CmpxchgDoubleSlab,
    Touch = touch: super::slub::Touch,
    CacheAlloc = cache_alloc: super::slab::CacheAlloc,
    CacheAllocRefill = cache_alloc_refill: super::slab::CacheAllocRefill,
    CacheGrowBegin = cache_grow_begin: super::slab::CacheGrowBegin,
    CacheGrowEnd = cache_grow_end: super::slab::CacheGrowEnd,
    CacheFree = cache_free: super::slab::CacheFree,
    CacheFlusharray = cache_flusharray: super::slab::CacheFlusharray,
    DoDrain = do_drain: super::slab::DoDrain,
}

// A pc stays a small `Copy` value: frames are cloned with every checkpoint and hashed by the
// explorer.
const _: () = assert!(std::mem::size_of::<Pc>() <= 2);
