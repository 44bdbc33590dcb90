//! THE VARIANT KEYS (model.md §2.16): one row per key, and nothing else to edit to add one
//! (docs/adding-a-variant-key.md).
//!
//! A row is the key's Rust field and JSON name, its value type, and:
//! - `values` (optional): the key's own enum, declared here (kebab case, `ALL`, `as_str`);
//! - `default`: the value of the v3.10 kernel, which a file without `era` gets;
//! - `eras`: the era bundles that set another value (model.md §2.16);
//! - `read_by`: the allocators that read the key. The first is its home: naming the key for
//!   another allocator is refused in the home's words (`variant::refusal`);
//! - `broken` (optional): the negative controls, values that break the allocator on purpose,
//!   each with what it lets through. The page's `NEGATIVE_CONTROLS` (generated into
//!   `variantKeys.ts`) says so beside a scenario that sets one.
//!
//! From the rows, `variant_keys!` (`variant.rs`) makes [`Variant`], its `Default` and
//! `Variant::for_era`, the file's raw `RawVariant` and `resolve_variant`, the table `KEYS` that
//! the refusals, `variant_toggles` (and through it the page's generated `variantKeys.ts`) and
//! `Variant::keys_for` read. `/// ` lines on a row document the field (and its TypeScript).
//!
//! The order of the rows is the order of `Variant`'s fields (the view's JSON), of the keys the
//! parser names in "expected one of", and of the page's toggles.

use super::variant::variant_keys;
use super::{Prefetch, TidStep};

variant_keys! {
    fastpath "fastpath": Fastpath {
        values: {
            /// How the fast path reads `c` and `tid` (model.md §2.16 `fastpath`, §3.3 eras).
            PreemptDisable = "preempt-disable",
            TidLoop = "tid-loop",
            TidDirect = "tid-direct",
            TidUnguarded = "tid-unguarded",
            IrqDisable = "irq-disable",
            CmpxchgLocal = "cmpxchg-local",
            CmpxchgLocalEmulated = "cmpxchg-local-emulated",
            NoTid = "no-tid",
        },
        default: Fastpath::PreemptDisable,
        eras: { V3_1: Fastpath::TidUnguarded, V4_0: Fastpath::TidLoop, V6_8: Fastpath::TidDirect },
        read_by: [Slub],
        broken: {
            Fastpath::NoTid => "the fast path without its transaction id: a CAS that finds the same freelist head succeeds even when the list changed under it: the ABA problem of the lesson \"Break it: without the tid\"",
            Fastpath::CmpxchgLocal => "cmpxchg_local on the freelist alone, no tid: the same ABA goes through",
            Fastpath::CmpxchgLocalEmulated => "cmpxchg_local emulated by disabling interrupts, still no tid: the same ABA goes through",
            Fastpath::TidUnguarded => "3.1's fast path, which read the tid and the CPU slab unguarded: a migrated task can pair one CPU's tid with the other's slab (fixed in 3.10)",
        },
    }
    slowpath "slowpath": Slowpath {
        values: { IrqOff = "irq-off", LocalLock = "local-lock" },
        default: Slowpath::IrqOff,
        eras: { V6_8: Slowpath::LocalLock },
        read_by: [Slub],
    }
    cpu_partial "cpuPartial": bool {
        default: true,
        eras: { V3_1: false },
        read_by: [Slub],
    }
    cpu_partial_frozen "cpuPartialFrozen": bool {
        default: true,
        eras: { V6_8: false },
        read_by: [Slub],
    }
    cmpxchg_double "cmpxchgDouble": CmpxchgDouble {
        values: { Native = "native", SlabLock = "slab-lock" },
        default: CmpxchgDouble::Native,
        eras: {},
        read_by: [Slub],
    }
    preempt "preempt": Preempt {
        values: { Full = "full", None = "none" },
        default: Preempt::Full,
        eras: {},
        read_by: [Slub, Slab, Sheaves],
    }
    prefetch "prefetch": Prefetch {
        default: Prefetch::On,
        eras: { V3_1: Prefetch::Off, V6_8: Prefetch::Write },
        read_by: [Slub],
    }
    discard "discard": Discard {
        values: { Gt = "gt", Ge = "ge" },
        default: Discard::Gt,
        // 7.0's sheaves do not read it, but the slab-level code they share with 6.8 discards
        // at `>=` (model.md C.3.10 SS9).
        eras: { V4_0: Discard::Ge, V6_8: Discard::Ge, V7_0: Discard::Ge },
        read_by: [Slub],
    }
    deactivate "deactivate": Deactivate {
        values: { TwoStage = "two-stage", Splice = "splice" },
        default: Deactivate::TwoStage,
        eras: { V6_8: Deactivate::Splice },
        read_by: [Slub],
    }
    free_retry_lock "freeRetryLock": FreeRetryLock {
        values: { Release = "release", Hold = "hold" },
        default: FreeRetryLock::Release,
        eras: { V3_1: FreeRetryLock::Hold },
        read_by: [Slub],
    }
    /// `None` = derived (model.md §3.1); `Some(n)` forces TID_STEP (negative control SC4).
    tid_step "tidStep": TidStep {
        default: None,
        eras: {},
        read_by: [Slub],
        broken: { Some(1) => "a tid step of 1: one CPU's tid can equal a stale snapshot of another's" },
    }
    /// SLAB only (`allocator: slab`).
    slab_grow "slabGrow": SlabGrow {
        values: {
            /// SLAB's refill when the node looks empty (model.md §4 (v)): `lockless` reads `free_objects`
            /// and `shared` without `list_lock` and grows at once (v4.7); `locked` takes the lock to
            /// find nothing first (before the patch).
            Lockless = "lockless",
            Locked = "locked",
        },
        default: SlabGrow::Lockless,
        eras: {},
        read_by: [Slab],
    }
    /// SLAB only: when `setup_kmem_cache_node` (the `tune` op) frees the node's old shared
    /// array, which a lockless refill (`slabGrow: lockless`) may still be reading.
    slab_shared_free "slabSharedFree": SlabSharedFree {
        values: {
            /// `after-grace-period`: `kfree(old_shared)` after `synchronize_sched()`, once every
            /// CPU has left the interrupts-off section it was in at the swap (v4.7, 801faf0db894);
            /// `at-once`: right after `spin_unlock_irq`, the broken order (a read of freed memory,
            /// SLAB-7).
            AfterGracePeriod = "after-grace-period",
            AtOnce = "at-once",
        },
        default: SlabSharedFree::AfterGracePeriod,
        eras: {},
        read_by: [Slab],
        broken: { SlabSharedFree::AtOnce => "SLAB's tune frees the old shared array right after the unlock, with no grace period: a lockless refill that loaded the pointer reads freed memory" },
    }
    /// Linux 7.0 only: the per-CPU sheaves' lock, and whether a refill that fell short
    /// flushes the sheaf before freeing it (model.md C.9 item 3: `false` leaks its objects).
    pcs_lock "pcsLock": PcsLock {
        values: {
            /// Linux 7.0: how `alloc_from_pcs`/`free_to_pcs` guard the per-CPU sheaves (model.md C.3.0).
            /// `trylock` is the kernel's `local_trylock`; `none` only disables preemption, so an
            /// interrupt can touch a sheaf mid-operation (the negative control of SH5).
            Trylock = "trylock",
            None = "none",
        },
        default: PcsLock::Trylock,
        eras: {},
        read_by: [Sheaves],
        broken: { PcsLock::None => "7.0's sheaves without their local lock: an interrupt can touch a sheaf mid-operation" },
    }
    refill_fail_flush "refillFailFlush": bool {
        default: false,
        eras: {},
        read_by: [Sheaves],
        broken: { false => "a refill that falls short frees its sheaf without flushing it: the objects leak" },
    }
}
