//! The scenario format of DESIGN §4 (`schemaVersion` 1): parsing, era bundles and validation.
//!
//! A scenario is parsed in two passes. The first is serde with `deny_unknown_fields`, wrapped in
//! `serde_path_to_error` so a syntax, type or unknown-field error names the JSON path. The second
//! ([`validate`]) checks what types cannot: ranges, ids, variables bound once and freed once.
//! Every error is a [`ScenarioError`] naming the path (`tasks[1].ops[0].var`) and why.

use serde::{Deserialize, Serialize};

/// A bad scenario: where (a JSON path such as `tasks[1].ops[0].var`) and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Allocator {
    #[default]
    Slub,
    Slab,
}

/// `cache` of the scenario (DESIGN §4). Defaults: kmalloc-64, 64-byte objects, 4 per slab,
/// offset 0, minPartial 1, cpuPartial 2, pageAllocFail false.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheConfig {
    pub name: String,
    pub object_size: u32,
    pub objects_per_slab: u32,
    pub offset: u32,
    pub min_partial: u32,
    /// The object budget of a per-CPU partial list (`s->cpu_partial`).
    pub cpu_partial: u32,
    /// When true, every page allocation *after setup* fails (spec SC13): setup still builds
    /// its slabs, the interleaved part then runs out of memory.
    pub page_alloc_fail: bool,
}

macro_rules! kebab_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name { $(#[serde(rename = $text)] $variant),+ }
        impl $name {
            pub fn as_str(self) -> &'static str { match self { $(Self::$variant => $text),+ } }
        }
    };
}

kebab_enum!(
    /// How the fast path reads `c` and `tid` (spec §2.16 `fastpath`, §3.3 eras).
    Fastpath {
        PreemptDisable = "preempt-disable",
        TidLoop = "tid-loop",
        TidDirect = "tid-direct",
        TidUnguarded = "tid-unguarded",
        IrqDisable = "irq-disable",
        CmpxchgLocal = "cmpxchg-local",
        CmpxchgLocalEmulated = "cmpxchg-local-emulated",
        NoTid = "no-tid",
    }
);
kebab_enum!(Slowpath { IrqOff = "irq-off", LocalLock = "local-lock" });
kebab_enum!(CmpxchgDouble { Native = "native", SlabLock = "slab-lock" });
kebab_enum!(Preempt { Full = "full", None = "none" });
kebab_enum!(Discard { Gt = "gt", Ge = "ge" });
kebab_enum!(Deactivate { TwoStage = "two-stage", Splice = "splice" });
kebab_enum!(FreeRetryLock { Release = "release", Hold = "hold" });
kebab_enum!(Era { V3_1 = "v3.1", V3_10 = "v3.10", V4_0 = "v4.0", V6_8 = "v6.8" });

/// `prefetch`: `true` (prefetch, 3.3+), `false` (none), `"w"` (prefetchw, ≈5.16+).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prefetch {
    On,
    Off,
    Write,
}

/// The resolved variant: era bundle first, explicit keys over it, defaults = v3.10 (spec §2.16).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Variant {
    pub fastpath: Fastpath,
    pub slowpath: Slowpath,
    pub cpu_partial: bool,
    pub cpu_partial_frozen: bool,
    pub cmpxchg_double: CmpxchgDouble,
    pub preempt: Preempt,
    #[serde(serialize_with = "ser_prefetch")]
    pub prefetch: Prefetch,
    pub discard: Discard,
    pub deactivate: Deactivate,
    pub free_retry_lock: FreeRetryLock,
    /// `None` = derived (spec §3.1); `Some(n)` forces TID_STEP (negative control SC4).
    pub tid_step: Option<u64>,
}

fn ser_prefetch<S: serde::Serializer>(p: &Prefetch, s: S) -> Result<S::Ok, S::Error> {
    match p {
        Prefetch::On => s.serialize_bool(true),
        Prefetch::Off => s.serialize_bool(false),
        Prefetch::Write => s.serialize_str("w"),
    }
}

/// One operation of setup, a task or an interrupt handler.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Op {
    /// `kmem_cache_alloc` (or `kmem_cache_alloc_node` when `node` is given); binds `var`.
    Alloc { var: String, node: Option<u32> },
    /// `kmem_cache_free` of a bound variable.
    Free { var: String },
    /// `__flush_cpu_slab` of this CPU, or of CPU `target` (a survivor flushing a dead CPU).
    Flush { target: Option<u32> },
    /// Write the object's payload (the user using it): its line becomes this CPU's.
    Touch { var: String },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SetupOp {
    pub cpu: u32,
    pub op: Op,
}

/// A task or an interrupt handler: an id, the CPU it starts on (irqs: is bound to), its ops.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ContextSpec {
    pub id: String,
    pub cpu: u32,
    pub ops: Vec<Op>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    pub schema_version: u32,
    pub name: String,
    pub allocator: Allocator,
    pub cpus: u32,
    pub nodes: u32,
    pub cache: CacheConfig,
    pub variant: Variant,
    pub setup: Vec<SetupOp>,
    pub tasks: Vec<ContextSpec>,
    pub irqs: Vec<ContextSpec>,
    /// The scripted moves, if the file has any.
    pub schedule: Option<Vec<String>>,
}
