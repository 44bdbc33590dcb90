//! Program counters and frames: each modelled kernel function is a step machine whose pc is
//! the enum of its own labels, declared with its lines of the listing by `kernel_fn!`
//! (`crate::listing`, `crate::listing_slab`, `crate::listing_v7`), and whose locals are its
//! own struct, defined in `locals` (what they answer the machine, `impl Locals`, is in the
//! allocator's module).
//! `Frame` holds them, so they are below this table: nothing it reaches may reach up to the
//! state, the core or an allocator (it names only `locals` and `ids`). `kernel_fns!` lists
//! every function once, with its label module and its locals, and makes:
//! - [`Func`], the functions;
//! - [`Pc`], a frame's program counter: one arm per function carrying that function's label,
//!   so the function follows from the pc ([`Pc::func`]) and each step machine's `match` is
//!   exhaustive over its own labels: a label of another function cannot be written there, and
//!   no fallback arm is needed. Labels shared by name between functions (7.0 reuses `BP1`,
//!   `LL1`...) are variants of different enums: a label is read with its function;
//! - [`Frame`], one arm per function carrying its label and its locals together
//!   (`Frame::GetFreelist { pc, l }`), so a label is never paired with another function's
//!   locals; each allocator's `exec` (`SlubState::exec`…), called by `AllocState::exec`,
//!   dispatches `match fr { Frame::F { pc, l } => self.f(core, pc, l), .. }`;
//!   the questions asked of any frame (`returned`, `holds_addr`, `queued`, `slabs`,
//!   `sheaves`) are matches over the arms that the locals answer (`locals::Locals`);
//! - [`FnPc`]: a label type knows its function's locals, so `pc.frame(l)` (and 7.0's
//!   `call(pc, |l| ..)`) builds a callee's frame from its entry label.
//!
//! A pc is two one-byte `Copy` enums, so it stays two bytes and a dispatch is two jumps, as
//! when `Frame` held a function and one global label enum.

use super::ids::{Addr, SlabId};
use super::locals::{Locals, Ret};
pub(crate) use crate::listing::*;
pub(crate) use crate::listing_slab::*;
pub(crate) use crate::listing_v7::*;

/// Every step machine, as the variant of [`Func`] and the arms of [`Pc`] and [`Frame`] it is,
/// with the module `kernel_fn!` made for its labels and the struct of its locals.
macro_rules! kernel_fns {
    ($($func:ident = $module:ident : $locals:ty,)+) => {
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

        /// One activation of a modelled function: its label and its own locals, together in
        /// the function's arm (so a label is never paired with another function's locals).
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Frame {
            $($func { pc: $module::Pc, l: $locals },)+
        }

        impl Frame {
            /// The frame's program counter: its function and label.
            #[inline]
            pub fn pc(&self) -> Pc {
                match self {
                    $(Frame::$func { pc, .. } => Pc::$func(*pc),)+
                }
            }

            // What the machine asks of any frame, answered by its function's locals
            // (`Locals`; a match, not a virtual call: the invariants ask after every step).

            /// A callee returned `r`: the frame's locals take what they need of it.
            #[inline]
            pub fn returned(&mut self, r: Ret) {
                match self {
                    $(Frame::$func { l, .. } => l.returned(r),)+
                }
            }

            /// Whether the frame holds object `a` in a local (an object in flight).
            #[inline]
            pub fn holds_addr(&self, a: Addr) -> bool {
                match self {
                    $(Frame::$func { l, .. } => l.holds_addr(a),)+
                }
            }

            /// Whether the frame has slab `s` queued (for discard, for `slab_destroy`).
            #[inline]
            pub fn queued(&self, s: SlabId) -> bool {
                match self {
                    $(Frame::$func { l, .. } => l.queued(s),)+
                }
            }

            /// Each slab the frame names in a local.
            #[inline]
            pub fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
                match self {
                    $(Frame::$func { l, .. } => l.slabs(mark),)+
                }
            }

            /// Linux 7.0: the sheaves the frame works on.
            #[inline]
            pub fn sheaves(&self) -> [Option<u32>; 2] {
                match self {
                    $(Frame::$func { l, .. } => l.sheaves(),)+
                }
            }
        }

        $(
            impl FnPc for $module::Pc {
                type Locals = $locals;
                #[inline]
                fn frame(self, l: $locals) -> Frame {
                    Frame::$func { pc: self, l }
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
    SlabAlloc = slab_alloc: super::locals::SlabAlloc,
    SlabAllocSlow = slab_alloc_slow: super::locals::SlabAllocSlow,
    SlabAllocSlowLl = slab_alloc_slow_ll: super::locals::SlabAllocSlowLl,
    GetFreelist = get_freelist: super::locals::GetFreelist,
    GetPartialNode = get_partial_node: super::locals::GetPartialNode,
    AcquireSlab = acquire_slab: super::locals::AcquireSlab,
    NewSlab = new_slab: super::locals::NewSlab,
    PutCpuPartial = put_cpu_partial: super::locals::PutCpuPartial,
    UnfreezePartials = unfreeze_partials: super::locals::UnfreezePartials,
    DeactivateSlab = deactivate_slab: super::locals::DeactivateSlab,
    FlushSlab = flush_slab: super::locals::FlushSlab,
    FlushCpuSlab = flush_cpu_slab: super::locals::FlushCpuSlab,
    SlabFree = slab_free: super::locals::SlabFree,
    SlabFreeSlow = slab_free_slow: super::locals::SlabFreeSlow,
    CmpxchgDoubleSlab = cmpxchg_double_slab: super::locals::CmpxchgDoubleSlab,
    CacheAlloc = cache_alloc: super::locals::CacheAlloc,
    CacheAllocRefill = cache_alloc_refill: super::locals::CacheAllocRefill,
    CacheGrowBegin = cache_grow_begin: super::locals::CacheGrowBegin,
    CacheGrowEnd = cache_grow_end: super::locals::CacheGrowEnd,
    CacheFree = cache_free: super::locals::CacheFree,
    CacheFlusharray = cache_flusharray: super::locals::CacheFlusharray,
    DoDrain = do_drain: super::locals::DoDrain,
    SetupKmemCacheNode = setup_kmem_cache_node: super::locals::SetupKmemCacheNode,
    Touch = touch: super::locals::Touch,
    SlabAllocNode = slab_alloc_node: super::locals::SlabAllocNode,
    LocalTrylock = local_trylock: super::locals::LocalTrylock,
    LocalLockV7 = local_lock_v7: super::locals::LocalLockV7,
    LocalUnlockV7 = local_unlock_v7: super::locals::LocalUnlockV7,
    ReplaceEmptyMain = pcs_replace_empty_main: super::locals::PcsReplaceEmptyMain,
    BarnReplaceEmpty = barn_replace_empty_sheaf: super::locals::BarnReplaceEmptySheaf,
    BarnGetEmpty = barn_get_empty_sheaf: super::locals::BarnGetEmptySheaf,
    BarnReplaceFull = barn_replace_full_sheaf: super::locals::BarnReplaceFullSheaf,
    BarnPutEmpty = barn_put_empty_sheaf: super::locals::BarnPutSheaf,
    BarnPutFull = barn_put_full_sheaf: super::locals::BarnPutSheaf,
    RefillSheaf = refill_sheaf: super::locals::RefillSheaf,
    RefillObjects = refill_objects: super::locals::RefillObjects,
    RefillObjectsNode = refill_objects_node: super::locals::RefillObjectsNode,
    GetPartialNodeBulk = get_partial_node_bulk: super::locals::GetPartialNodeBulk,
    GetFreelistNofreeze = get_freelist_nofreeze: super::locals::GetFreelistNofreeze,
    AllocateSlab = allocate_slab: super::locals::AllocateSlab,
    AllocFromNewSlab = alloc_from_new_slab: super::locals::AllocFromNewSlab,
    SlabAllocV7 = slab_alloc_v7: super::locals::SlabAllocV7,
    GetFromPartialNode = get_from_partial_node: super::locals::GetFromPartialNode,
    SlabFreeV7 = slab_free_v7: super::locals::SlabFreeV7,
    FreeToPcs = free_to_pcs: super::locals::FreeToPcs,
    ReplaceFullMain = pcs_replace_full_main: super::locals::PcsReplaceFullMain,
    InstallEmptySheaf = pcs_install_empty_sheaf: super::locals::PcsInstallEmptySheaf,
    SheafFlushMain = sheaf_flush_main: super::locals::SheafFlushMain,
    SheafFlushUnused = sheaf_flush_unused: super::locals::SheafFlushUnused,
    FreeBulk = kmem_cache_free_bulk: super::locals::KmemCacheFreeBulk,
    SlabFreeSlowV7 = slab_free_slow_v7: super::locals::SlabFreeSlowV7,
    CpuDead = slub_cpu_dead: super::locals::SlubCpuDead,
    PcsFlushAll = pcs_flush_all: super::locals::PcsFlushAll,
}

impl Frame {
    /// The function this frame runs.
    #[inline]
    pub fn func(&self) -> Func {
        self.pc().func()
    }

    /// Linux 7.0: whether the frame works on sheaf `h`.
    pub fn holds_sheaf(&self, h: u32) -> bool {
        self.sheaves().contains(&Some(h))
    }
}

/// A function's label type, which knows its function's locals: the frame of a callee is its
/// entry label with the locals its caller gives it (`pc.frame(l)`, `sheaves::call`).
pub trait FnPc: Copy {
    type Locals: Default;
    fn frame(self, l: Self::Locals) -> Frame;
}

// A pc stays a small `Copy` value: frames are cloned with every checkpoint and hashed by the
// explorer.
const _: () = assert!(std::mem::size_of::<Pc>() <= 2);
