//! The scenario format of design.md §4 (`schemaVersion` 1): parsing, era bundles and validation.
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default, ts_rs::TS)]
#[serde(rename_all = "kebab-case")]
pub enum Allocator {
    #[default]
    Slub,
    Slab,
    /// SLUB as Linux 7.0 rebuilt it (model.md Appendix C): per-CPU sheaves and per-node barns
    /// instead of `kmem_cache_cpu`. A file selects it with `"era": "v7.0"` (and `allocator`
    /// `slub` or absent); views name it `sheaves`.
    Sheaves,
}

/// `allocator` as a file writes it: the 7.0 design is an era of SLUB, not an allocator name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum RawAllocator {
    Slub,
    Slab,
}

/// `cache` of the scenario (design.md §4). Defaults: kmalloc-64, 64-byte objects, 4 per slab,
/// offset 0, minPartial 1, cpuPartial 2, pageAllocFail false.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct CacheConfig {
    pub name: String,
    pub object_size: u32,
    pub objects_per_slab: u32,
    pub offset: u32,
    pub min_partial: u32,
    /// The object budget of a per-CPU partial list (`s->cpu_partial`).
    pub cpu_partial: u32,
    /// When true, every page allocation *after setup* fails (SC13): setup still builds
    /// its slabs, the interleaved part then runs out of memory.
    pub page_alloc_fail: bool,
    /// SLAB's tunables (`/proc/slabinfo`'s `limit batchcount sharedfactor`), `allocator: slab`
    /// only; unset, `enable_cpucache`'s choice for the object size (see `slab_tunables`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub limit: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub batchcount: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub shared: Option<u32>,
    /// Linux 7.0 (`"era": "v7.0"`) only: objects per sheaf (`s->sheaf_capacity`); unset, the
    /// kernel's `calculate_sheaf_capacity` for the object size (see `sheaf_capacity`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sheaf_capacity: Option<u32>,
    /// Linux 7.0 only: the barn's soft limits `MAX_FULL_SHEAVES` / `MAX_EMPTY_SHEAVES`
    /// (kernel: 10 each).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_full_sheaves: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_empty_sheaves: Option<u32>,
}

/// Linux 7.0's `calculate_sheaf_capacity` on a 64-bit kernel with 4 KiB pages (model.md C.2.7):
/// a base of 4, 12, 26 or 60 by object size, raised so the sheaf (a 32-byte header and 8
/// bytes per pointer) fills its kmalloc bucket.
pub fn sheaf_capacity(size: u32) -> u32 {
    let base: u32 = if size >= 4096 {
        4
    } else if size >= 1024 {
        12
    } else if size >= 256 {
        26
    } else {
        60
    };
    let bytes = base
        .saturating_mul(8)
        .saturating_add(32)
        .next_power_of_two();
    bytes.saturating_sub(32) / 8
}

/// v4.7 `enable_cpucache` for a cache of `size`-byte objects on `cpus` CPUs:
/// (limit, batchcount, shared factor). The shared array holds `shared * batchcount` objects.
pub fn slab_tunables(size: u32, cpus: u32) -> (u32, u32, u32) {
    let limit = if size > 4096 {
        8
    } else if size > 1024 {
        24
    } else if size > 256 {
        54
    } else {
        120
    };
    let shared = if size <= 4096 && cpus > 1 { 8 } else { 0 };
    (limit, limit.div_ceil(2), shared)
}

macro_rules! kebab_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
        pub enum $name { $(#[serde(rename = $text)] $variant),+ }
        impl $name {
            /// Every value, in the order written here.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];
            pub fn as_str(self) -> &'static str { match self { $(Self::$variant => $text),+ } }
        }
    };
}

kebab_enum!(
    /// How the fast path reads `c` and `tid` (model.md §2.16 `fastpath`, §3.3 eras).
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
kebab_enum!(Era {
    V3_1 = "v3.1",
    V3_10 = "v3.10",
    V4_0 = "v4.0",
    V6_8 = "v6.8",
    V7_0 = "v7.0"
});
kebab_enum!(
    /// Linux 7.0: how `alloc_from_pcs`/`free_to_pcs` guard the per-CPU sheaves (model.md C.3.0).
    /// `trylock` is the kernel's `local_trylock`; `none` only disables preemption, so an
    /// interrupt can touch a sheaf mid-operation (the negative control of SH5).
    PcsLock { Trylock = "trylock", None = "none" }
);
kebab_enum!(
    /// SLAB's refill when the node looks empty (model.md §4 (v)): `lockless` reads `free_objects`
    /// and `shared` without `list_lock` and grows at once (v4.7); `locked` takes the lock to
    /// find nothing first (before the patch).
    SlabGrow { Lockless = "lockless", Locked = "locked" }
);

/// `prefetch`: `true` (prefetch, 3.4+), `false` (none), `"w"` (prefetchw, 5.16+).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ts_rs::TS)]
#[ts(type = "boolean | \"w\"")]
pub enum Prefetch {
    On,
    Off,
    Write,
}

/// The resolved variant: era bundle first, explicit keys over it, defaults = v3.10 (model.md §2.16).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Variant {
    pub fastpath: Fastpath,
    pub slowpath: Slowpath,
    pub cpu_partial: bool,
    pub cpu_partial_frozen: bool,
    pub cmpxchg_double: CmpxchgDouble,
    pub preempt: Preempt,
    pub prefetch: Prefetch,
    pub discard: Discard,
    pub deactivate: Deactivate,
    pub free_retry_lock: FreeRetryLock,
    /// `None` = derived (model.md §3.1); `Some(n)` forces TID_STEP (negative control SC4).
    pub tid_step: Option<u64>,
    /// SLAB only (`allocator: slab`); the only key besides `preempt` SLAB reads.
    pub slab_grow: SlabGrow,
    /// Linux 7.0 only: the per-CPU sheaves' lock, and whether a refill that fell short
    /// flushes the sheaf before freeing it (model.md C.9 item 3: `false` leaks its objects).
    pub pcs_lock: PcsLock,
    pub refill_fail_flush: bool,
}

/// Written as the scenario writes it: `true`, `false` or `"w"`.
impl Serialize for Prefetch {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Prefetch::On => s.serialize_bool(true),
            Prefetch::Off => s.serialize_bool(false),
            Prefetch::Write => s.serialize_str("w"),
        }
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

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
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

/// The variant keys SLUB reads, as a scenario file writes them (model.md §2.16).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlubVariantKeys {
    // In the order of their JSON names, as scenario files have always been written.
    pub cmpxchg_double: CmpxchgDouble,
    pub cpu_partial: bool,
    pub cpu_partial_frozen: bool,
    pub deactivate: Deactivate,
    pub discard: Discard,
    pub fastpath: Fastpath,
    pub free_retry_lock: FreeRetryLock,
    pub preempt: Preempt,
    pub prefetch: Prefetch,
    pub slowpath: Slowpath,
    pub tid_step: Option<u64>,
}

/// The variant keys SLAB reads (model.md Appendix A, §4 (v)).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlabVariantKeys {
    pub preempt: Preempt,
    pub slab_grow: SlabGrow,
}

/// The variant keys Linux 7.0's sheaves read (model.md Appendix C): `era` is always `"v7.0"`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SheavesVariantKeys {
    pub era: Era,
    pub pcs_lock: PcsLock,
    pub preempt: Preempt,
    pub refill_fail_flush: bool,
}

/// The variant toggles the page offers for `allocator`, each key with every value as a scenario
/// spells it (model.md §2.16; model.md Appendix A for SLAB). The page's variant panel is generated from this
/// (`web/src/sim/generated/variantKeys.ts`, by the contract test), so it cannot drift from the
/// parser. `tidStep`, a number, is set in the scenario text only.
pub fn variant_toggles(allocator: Allocator) -> Vec<(&'static str, Vec<serde_json::Value>)> {
    use serde_json::Value;
    fn texts<T: Copy>(all: &[T], as_str: fn(T) -> &'static str) -> Vec<Value> {
        all.iter().map(|&v| Value::from(as_str(v))).collect()
    }
    let bools = || vec![Value::from(true), Value::from(false)];
    let preempt = ("preempt", texts(Preempt::ALL, Preempt::as_str));
    match allocator {
        Allocator::Slub => vec![
            ("fastpath", texts(Fastpath::ALL, Fastpath::as_str)),
            ("slowpath", texts(Slowpath::ALL, Slowpath::as_str)),
            ("cpuPartial", bools()),
            ("cpuPartialFrozen", bools()),
            (
                "cmpxchgDouble",
                texts(CmpxchgDouble::ALL, CmpxchgDouble::as_str),
            ),
            preempt,
            (
                "prefetch",
                vec![Value::from(true), Value::from(false), Value::from("w")],
            ),
            ("discard", texts(Discard::ALL, Discard::as_str)),
            ("deactivate", texts(Deactivate::ALL, Deactivate::as_str)),
            (
                "freeRetryLock",
                texts(FreeRetryLock::ALL, FreeRetryLock::as_str),
            ),
        ],
        Allocator::Slab => vec![
            preempt,
            ("slabGrow", texts(SlabGrow::ALL, SlabGrow::as_str)),
        ],
        Allocator::Sheaves => vec![
            ("pcsLock", texts(PcsLock::ALL, PcsLock::as_str)),
            preempt,
            ("refillFailFlush", bools()),
        ],
    }
}

/// A variant as the file of one allocator writes it: each allocator's keys are its own type,
/// so a scenario written out carries exactly the keys its allocator reads and parses back.
/// A third allocator adds an arm and its key type.
#[derive(Serialize)]
#[serde(untagged)]
pub enum AllocatorVariant {
    Slub(SlubVariantKeys),
    Slab(SlabVariantKeys),
    Sheaves(SheavesVariantKeys),
}

impl Variant {
    /// The keys of this variant that `allocator` reads.
    pub fn keys_for(&self, allocator: Allocator) -> AllocatorVariant {
        match allocator {
            Allocator::Slub => AllocatorVariant::Slub(SlubVariantKeys {
                fastpath: self.fastpath,
                slowpath: self.slowpath,
                cpu_partial: self.cpu_partial,
                cpu_partial_frozen: self.cpu_partial_frozen,
                cmpxchg_double: self.cmpxchg_double,
                preempt: self.preempt,
                prefetch: self.prefetch,
                discard: self.discard,
                deactivate: self.deactivate,
                free_retry_lock: self.free_retry_lock,
                tid_step: self.tid_step,
            }),
            Allocator::Slab => AllocatorVariant::Slab(SlabVariantKeys {
                preempt: self.preempt,
                slab_grow: self.slab_grow,
            }),
            Allocator::Sheaves => AllocatorVariant::Sheaves(SheavesVariantKeys {
                era: Era::V7_0,
                pcs_lock: self.pcs_lock,
                preempt: self.preempt,
                refill_fail_flush: self.refill_fail_flush,
            }),
        }
    }
}

/// A scenario serialises as the file it could have been read from: its variant carries only
/// the keys of its allocator ([`Variant::keys_for`]), so what is written parses back.
impl Serialize for Scenario {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Out<'a> {
            schema_version: u32,
            name: &'a str,
            allocator: Allocator,
            cpus: u32,
            nodes: u32,
            cache: serde_json::Value,
            variant: AllocatorVariant,
            setup: &'a [SetupOp],
            tasks: &'a [ContextSpec],
            irqs: &'a [ContextSpec],
            schedule: &'a Option<Vec<String>>,
        }
        Out {
            schema_version: self.schema_version,
            name: &self.name,
            // The 7.0 design is written as SLUB with `"era": "v7.0"` (its variant keys).
            allocator: match self.allocator {
                Allocator::Sheaves => Allocator::Slub,
                a => a,
            },
            cpus: self.cpus,
            nodes: self.nodes,
            cache: {
                let mut c = serde_json::to_value(&self.cache).map_err(serde::ser::Error::custom)?;
                // Linux 7.0 has no CPU partial list: its file has no `cpuPartial` (refused there).
                if self.allocator == Allocator::Sheaves {
                    if let Some(o) = c.as_object_mut() {
                        o.remove("cpuPartial");
                    }
                }
                c
            },
            variant: self.variant.keys_for(self.allocator),
            setup: &self.setup,
            tasks: &self.tasks,
            irqs: &self.irqs,
            schedule: &self.schedule,
        }
        .serialize(s)
    }
}

// ---------------------------------------------------------------------------------------------
// Defaults and era bundles (model.md §2.16)
// ---------------------------------------------------------------------------------------------

impl Default for CacheConfig {
    fn default() -> Self {
        CacheConfig {
            name: "kmalloc-64".to_string(),
            object_size: 64,
            objects_per_slab: 4,
            offset: 0,
            min_partial: 1,
            cpu_partial: 2,
            page_alloc_fail: false,
            limit: None,
            batchcount: None,
            shared: None,
            sheaf_capacity: None,
            max_full_sheaves: None,
            max_empty_sheaves: None,
        }
    }
}

/// The defaults are exactly the v3.10 kernel (model.md §2.16).
impl Default for Variant {
    fn default() -> Self {
        Variant {
            fastpath: Fastpath::PreemptDisable,
            slowpath: Slowpath::IrqOff,
            cpu_partial: true,
            cpu_partial_frozen: true,
            cmpxchg_double: CmpxchgDouble::Native,
            preempt: Preempt::Full,
            prefetch: Prefetch::On,
            discard: Discard::Gt,
            deactivate: Deactivate::TwoStage,
            free_retry_lock: FreeRetryLock::Release,
            tid_step: None,
            slab_grow: SlabGrow::Lockless,
            pcs_lock: PcsLock::Trylock,
            refill_fail_flush: false,
        }
    }
}

impl Variant {
    /// The historically consistent bundle of an era (model.md §2.16); keys it does not name keep
    /// the v3.10 defaults.
    pub fn for_era(era: Era) -> Variant {
        let d = Variant::default();
        match era {
            Era::V3_1 => Variant {
                fastpath: Fastpath::TidUnguarded,
                cpu_partial: false,
                prefetch: Prefetch::Off,
                free_retry_lock: FreeRetryLock::Hold,
                ..d
            },
            Era::V3_10 => d,
            Era::V4_0 => Variant {
                fastpath: Fastpath::TidLoop,
                discard: Discard::Ge,
                ..d
            },
            Era::V6_8 => Variant {
                fastpath: Fastpath::TidDirect,
                slowpath: Slowpath::LocalLock,
                cpu_partial_frozen: false,
                deactivate: Deactivate::Splice,
                discard: Discard::Ge,
                prefetch: Prefetch::Write,
                ..d
            },
            // Sheaves read only `pcsLock`, `preempt` and `refillFailFlush`; the slab-level
            // code they share with 6.8 discards at `>=` (model.md C.3.10 SS9).
            Era::V7_0 => Variant {
                discard: Discard::Ge,
                ..d
            },
        }
    }
}

impl Prefetch {
    /// The JSON spelling: `true`, `false` or `"w"`.
    pub fn as_json(self) -> serde_json::Value {
        match self {
            Prefetch::On => serde_json::Value::Bool(true),
            Prefetch::Off => serde_json::Value::Bool(false),
            Prefetch::Write => serde_json::Value::String("w".to_string()),
        }
    }
}

impl Op {
    /// The op's name as written in JSON.
    pub fn name(&self) -> &'static str {
        match self {
            Op::Alloc { .. } => "alloc",
            Op::Free { .. } => "free",
            Op::Flush { .. } => "flush",
            Op::Touch { .. } => "touch",
        }
    }

    /// The variable the op names, if any.
    pub fn var(&self) -> Option<&str> {
        match self {
            Op::Alloc { var, .. } | Op::Free { var } | Op::Touch { var } => Some(var),
            Op::Flush { .. } => None,
        }
    }
}

impl ScenarioError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl Scenario {
    /// `TID_STEP` (model.md §3.1): forced by `variant.tidStep`, else `roundup_pow_of_two(cpus)` when
    /// the kernel is preemptible, else 1.
    pub fn tid_step(&self) -> u64 {
        match (self.variant.tid_step, self.variant.preempt) {
            (Some(n), _) => n,
            (None, Preempt::Full) => u64::from(self.cpus.max(1)).next_power_of_two(),
            (None, Preempt::None) => 1,
        }
    }

    /// Linux 7.0: `sheaf_capacity`, `MAX_FULL_SHEAVES`, `MAX_EMPTY_SHEAVES` (the cache's, else
    /// the kernel's).
    pub fn sheaf_tunables(&self) -> (u32, u32, u32) {
        (
            self.cache
                .sheaf_capacity
                .unwrap_or_else(|| sheaf_capacity(self.cache.object_size)),
            self.cache.max_full_sheaves.unwrap_or(10),
            self.cache.max_empty_sheaves.unwrap_or(10),
        )
    }

    /// SLAB's (limit, batchcount, shared factor): the cache's, else `enable_cpucache`'s.
    pub fn slab_tunables(&self) -> (u32, u32, u32) {
        let (limit, batch, shared) = slab_tunables(self.cache.object_size, self.cpus);
        let limit = self.cache.limit.unwrap_or(limit);
        let batch = self
            .cache
            .batchcount
            .unwrap_or(if self.cache.limit.is_some() {
                limit.div_ceil(2)
            } else {
                batch
            });
        (limit, batch, self.cache.shared.unwrap_or(shared))
    }

    /// The NUMA node of a CPU: CPUs are split into `nodes` equal consecutive groups.
    pub fn node_of_cpu(&self, cpu: u32) -> u32 {
        if self.cpus == 0 {
            return 0;
        }
        // Two u32 factors fit a u64; `cpus` is not 0 (above).
        let spread = u64::from(cpu).saturating_mul(u64::from(self.nodes));
        spread.checked_div(u64::from(self.cpus)).unwrap_or(0) as u32
    }

    /// Every context id in scenario order: tasks, then interrupt handlers.
    pub fn context_ids(&self) -> impl Iterator<Item = &str> {
        self.tasks
            .iter()
            .chain(self.irqs.iter())
            .map(|c| c.id.as_str())
    }
}

// ---------------------------------------------------------------------------------------------
// Limits (validate names them in its messages)
// ---------------------------------------------------------------------------------------------

pub const MAX_CPUS: u32 = 8;
pub const MAX_NODES: u32 = 4;
pub const MIN_OBJECT_SIZE: u32 = 8;
pub const MAX_OBJECT_SIZE: u32 = 4096;
pub const MAX_OBJECTS_PER_SLAB: u32 = 64;
pub const MAX_MIN_PARTIAL: u32 = 64;
pub const MAX_CPU_PARTIAL: u32 = 256;
pub const MAX_SETUP_OPS: usize = 256;
/// The most moves a scenario's `schedule` (and `run --schedule`) may name: as many as the
/// default policy adds to a run (`MAX_POLICY_MOVES`), far more than any run of a correct
/// variant takes.
pub const MAX_SCHEDULE_MOVES: usize = 100_000;
pub const MAX_TASKS: usize = 8;
pub const MAX_IRQS: usize = 8;
pub const MAX_CONTEXT_OPS: usize = 64;
/// The longest context id or variable name: they are labels on the stage and in moves.
pub const MAX_NAME_LEN: usize = 32;
pub const MAX_TID_STEP: u64 = 64;
/// SLAB's array sizes at most (`limit`, and `shared * batchcount` for the shared array).
pub const MAX_SLAB_LIMIT: u32 = 512;
/// Linux 7.0: objects per sheaf at most (the kernel's largest default is 60), and sheaves a
/// barn keeps of each kind before its soft limit refuses more.
pub const MAX_SHEAF_CAPACITY: u32 = 64;
pub const MAX_BARN_SHEAVES: u32 = 64;
pub const OP_NAMES: [&str; 4] = ["alloc", "free", "flush", "touch"];

// ---------------------------------------------------------------------------------------------
// The file as written: raw structs for the first (serde) pass
// ---------------------------------------------------------------------------------------------

/// A JSON integer of any size or sign (and an integral float such as `2.0`, as JavaScript
/// writes numbers), so a negative or absurd value reaches the range checks and gets a message
/// that says the limit instead of "expected u32".
#[derive(Clone, Copy, Debug)]
struct Int(i64);

impl<'de> Deserialize<'de> for Int {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Int;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Int, E> {
                Ok(Int(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Int, E> {
                Ok(Int(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Int, E> {
                if v.is_finite() && v.fract() == 0.0 {
                    // `as` saturates: 1e30 becomes i64::MAX, still out of every range.
                    Ok(Int(v as i64))
                } else {
                    Err(E::invalid_type(serde::de::Unexpected::Float(v), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// `prefetch`: exactly `true`, `false` or `"w"`.
struct RawPrefetch(Prefetch);

impl<'de> Deserialize<'de> for RawPrefetch {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = RawPrefetch;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("true, false or \"w\"")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<RawPrefetch, E> {
                Ok(RawPrefetch(if v { Prefetch::On } else { Prefetch::Off }))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawPrefetch, E> {
                if v == "w" {
                    Ok(RawPrefetch(Prefetch::Write))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A JSON object and nothing else. serde's derived structs also accept an array of the field
/// values in order, a second syntax the format does not have; this wrapper takes only `{...}`
/// (and keeps the path tracking, which lives in the map access it passes on).
struct Obj<T>(T);

trait RawObject {
    /// What the error says was expected, e.g. "a cache object".
    const WHAT: &'static str;
}

impl<'de, T: RawObject + Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: RawObject + Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
            type Value = Obj<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(T::WHAT)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Obj<T>, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Obj)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

macro_rules! raw_object {
    ($($t:ty => $what:literal),+ $(,)?) => {
        $(impl RawObject for $t { const WHAT: &'static str = $what; })+
    };
}

raw_object!(
    RawScenario => "a scenario object",
    RawCache => "a cache object",
    RawVariant => "a variant object",
    RawContext => "a context object (`id`, `cpu`, `ops`)",
    RawOp => "an op object (`op` and its keys)",
    RawSetupOp => "a setup op object (`cpu`, `op` and its keys)",
);

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawScenario {
    schema_version: Int,
    name: Option<String>,
    allocator: Option<RawAllocator>,
    cpus: Int,
    nodes: Option<Int>,
    cache: Option<Obj<RawCache>>,
    variant: Option<Obj<RawVariant>>,
    setup: Option<Vec<Obj<RawSetupOp>>>,
    tasks: Vec<Obj<RawContext>>,
    irqs: Option<Vec<Obj<RawContext>>>,
    schedule: Option<RawSchedule>,
}

/// A scenario's `schedule`, refused as soon as it is longer than [`MAX_SCHEDULE_MOVES`]: the
/// moves are counted while they are read, so a file of millions of moves costs no more memory
/// than its own text before the error.
struct RawSchedule(Vec<String>);

impl<'de> Deserialize<'de> for RawSchedule {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Moves;
        impl<'de> serde::de::Visitor<'de> for Moves {
            type Value = RawSchedule;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of moves")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RawSchedule, A::Error> {
                let mut out = Vec::new();
                while let Some(mv) = seq.next_element::<String>()? {
                    if out.len() == MAX_SCHEDULE_MOVES {
                        return Err(serde::de::Error::custom(format!(
                            "more than {MAX_SCHEDULE_MOVES} moves: a schedule has at most \
                             {MAX_SCHEDULE_MOVES} (MAX_SCHEDULE_MOVES)"
                        )));
                    }
                    out.push(mv);
                }
                Ok(RawSchedule(out))
            }
        }
        d.deserialize_seq(Moves)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawCache {
    name: Option<String>,
    object_size: Option<Int>,
    objects_per_slab: Option<Int>,
    offset: Option<Int>,
    min_partial: Option<Int>,
    cpu_partial: Option<Int>,
    page_alloc_fail: Option<bool>,
    limit: Option<Int>,
    batchcount: Option<Int>,
    shared: Option<Int>,
    sheaf_capacity: Option<Int>,
    max_full_sheaves: Option<Int>,
    max_empty_sheaves: Option<Int>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RawVariant {
    era: Option<Era>,
    fastpath: Option<Fastpath>,
    slowpath: Option<Slowpath>,
    cpu_partial: Option<bool>,
    cpu_partial_frozen: Option<bool>,
    cmpxchg_double: Option<CmpxchgDouble>,
    preempt: Option<Preempt>,
    prefetch: Option<RawPrefetch>,
    discard: Option<Discard>,
    deactivate: Option<Deactivate>,
    free_retry_lock: Option<FreeRetryLock>,
    tid_step: Option<Int>,
    slab_grow: Option<SlabGrow>,
    pcs_lock: Option<PcsLock>,
    refill_fail_flush: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawContext {
    id: String,
    cpu: Int,
    ops: Vec<Obj<RawOp>>,
}

/// An op of a task or an irq. Every key any op may take is a field here; which ones the named
/// op accepts is checked when resolving, so an error names the key and the op.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOp {
    op: String,
    var: Option<String>,
    node: Option<Int>,
    target: Option<Int>,
}

/// A setup op: an op plus the CPU it runs on, flat in one object.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetupOp {
    cpu: Int,
    op: String,
    var: Option<String>,
    node: Option<Int>,
    target: Option<Int>,
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/// Parse a scenario file (design.md §4): syntax, types and unknown fields, then defaults and the
/// variant bundle, then [`validate`]. Every error names the JSON path and why.
pub fn parse(json: &str) -> Result<Scenario, ScenarioError> {
    let raw = parse_raw(json)?;
    let scenario = resolve(raw)?;
    validate(&scenario)?;
    Ok(scenario)
}

fn parse_raw(json: &str) -> Result<RawScenario, ScenarioError> {
    let mut de = serde_json::Deserializer::from_str(json);
    let Obj(raw): Obj<RawScenario> = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = path_string(e.path());
        json_error(path, e.inner())
    })?;
    de.end().map_err(|e| json_error(String::new(), &e))?;
    Ok(raw)
}

/// `tasks[1].ops[0].var` (the root is the empty path).
fn path_string(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            // A key that could not be read (a syntax error inside an object): the line and
            // column say where, a `?` would say nothing.
            Segment::Unknown => {}
        }
    }
    out
}

fn json_error(path: String, e: &serde_json::Error) -> ScenarioError {
    use serde_json::error::Category;
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let bare = full.strip_suffix(&suffix).unwrap_or(&full);
    let message = match e.classify() {
        Category::Syntax | Category::Eof => {
            format!(
                "invalid JSON: {bare} at line {} column {}",
                e.line(),
                e.column()
            )
        }
        Category::Data | Category::Io if e.line() > 0 => {
            format!("{bare} (line {}, column {})", e.line(), e.column())
        }
        Category::Data | Category::Io => bare.to_string(),
    };
    ScenarioError { path, message }
}

fn out_of_range(value: i64, expected: &str) -> String {
    format!("{value} is out of range: {expected}")
}

/// A raw integer as u32; values no u32 holds (negative, absurd) fail here with `expected`, the
/// same limit text `validate` would give.
fn to_u32(path: &str, v: Int, expected: impl FnOnce() -> String) -> Result<u32, ScenarioError> {
    u32::try_from(v.0).map_err(|_| ScenarioError::new(path, out_of_range(v.0, &expected())))
}

fn resolve(raw: RawScenario) -> Result<Scenario, ScenarioError> {
    let schema_version = to_u32("schemaVersion", raw.schema_version, || "expected 1".into())?;
    let cpus = to_u32("cpus", raw.cpus, cpus_expected)?;
    let nodes = match raw.nodes {
        Some(n) => to_u32("nodes", n, || nodes_expected(cpus))?,
        None => 1,
    };
    let era = raw.variant.as_ref().and_then(|Obj(v)| v.era);
    let allocator = match (raw.allocator, era) {
        (Some(RawAllocator::Slab), _) => Allocator::Slab,
        (_, Some(Era::V7_0)) => Allocator::Sheaves,
        _ => Allocator::Slub,
    };
    if let Some(Obj(c)) = &raw.cache {
        check_cache_keys(allocator, c)?;
    }
    if allocator == Allocator::Slub {
        if let Some(Obj(c)) = &raw.cache {
            for (key, set) in [
                ("limit", c.limit.is_some()),
                ("batchcount", c.batchcount.is_some()),
                ("shared", c.shared.is_some()),
            ] {
                if set {
                    return Err(ScenarioError::new(
                        format!("cache.{key}"),
                        format!("`{key}` is a SLAB tunable: it needs \"allocator\": \"slab\""),
                    ));
                }
            }
        }
    }
    let mut cache = CacheConfig::default();
    if let Some(Obj(c)) = raw.cache {
        if let Some(name) = c.name {
            cache.name = name;
        }
        if let Some(v) = c.object_size {
            cache.object_size = to_u32("cache.objectSize", v, object_size_expected)?;
        }
        if let Some(v) = c.objects_per_slab {
            cache.objects_per_slab = to_u32("cache.objectsPerSlab", v, objects_expected)?;
        }
        if let Some(v) = c.offset {
            let size = cache.object_size;
            cache.offset = to_u32("cache.offset", v, || offset_expected(size))?;
        }
        if let Some(v) = c.min_partial {
            cache.min_partial = to_u32("cache.minPartial", v, || upto(MAX_MIN_PARTIAL))?;
        }
        if let Some(v) = c.cpu_partial {
            cache.cpu_partial = to_u32("cache.cpuPartial", v, || upto(MAX_CPU_PARTIAL))?;
        }
        if let Some(v) = c.page_alloc_fail {
            cache.page_alloc_fail = v;
        }
        let tunable = |path: &str, v: Int| to_u32(path, v, || upto(MAX_SLAB_LIMIT)).map(Some);
        if let Some(v) = c.limit {
            cache.limit = tunable("cache.limit", v)?;
        }
        if let Some(v) = c.batchcount {
            cache.batchcount = tunable("cache.batchcount", v)?;
        }
        if let Some(v) = c.shared {
            cache.shared = tunable("cache.shared", v)?;
        }
        if let Some(v) = c.sheaf_capacity {
            cache.sheaf_capacity = Some(to_u32("cache.sheafCapacity", v, || {
                upto(MAX_SHEAF_CAPACITY)
            })?);
        }
        let barn = |path: &str, v: Int| to_u32(path, v, || upto(MAX_BARN_SHEAVES)).map(Some);
        if let Some(v) = c.max_full_sheaves {
            cache.max_full_sheaves = barn("cache.maxFullSheaves", v)?;
        }
        if let Some(v) = c.max_empty_sheaves {
            cache.max_empty_sheaves = barn("cache.maxEmptySheaves", v)?;
        }
    }
    if let Some(Obj(v)) = &raw.variant {
        check_allocator_keys(allocator, v)?;
    }
    let variant = match raw.variant {
        Some(Obj(v)) => resolve_variant(v)?,
        None => Variant::default(),
    };
    let mut setup = Vec::new();
    for (i, Obj(s)) in raw.setup.unwrap_or_default().into_iter().enumerate() {
        let path = format!("setup[{i}]");
        let cpu = to_u32(&format!("{path}.cpu"), s.cpu, || cpu_expected(cpus))?;
        let op = resolve_op(&path, s.op, s.var, s.node, s.target, cpus, nodes)?;
        setup.push(SetupOp { cpu, op });
    }
    let tasks = resolve_contexts("tasks", raw.tasks, cpus, nodes)?;
    let irqs = resolve_contexts("irqs", raw.irqs.unwrap_or_default(), cpus, nodes)?;
    let name = match raw.name {
        Some(n) if !n.is_empty() => n,
        _ => "untitled".to_string(),
    };
    Ok(Scenario {
        schema_version,
        name,
        allocator,
        cpus,
        nodes,
        cache,
        variant,
        setup,
        tasks,
        irqs,
        schedule: raw.schedule.map(|RawSchedule(m)| m),
    })
}

/// The cache keys of one design mean nothing to another: Linux 7.0 has no CPU partial list,
/// only 7.0 has sheaves and barns.
fn check_cache_keys(allocator: Allocator, c: &RawCache) -> Result<(), ScenarioError> {
    let sheaf_keys = [
        ("sheafCapacity", c.sheaf_capacity.is_some()),
        ("maxFullSheaves", c.max_full_sheaves.is_some()),
        ("maxEmptySheaves", c.max_empty_sheaves.is_some()),
    ];
    match allocator {
        Allocator::Sheaves => {
            if c.cpu_partial.is_some() {
                return Err(ScenarioError::new(
                    "cache.cpuPartial",
                    "Linux 7.0 has no CPU partial list (its per-CPU sheaves replaced it): `cpuPartial` does not apply with \"era\": \"v7.0\"",
                ));
            }
        }
        Allocator::Slub | Allocator::Slab => {
            if let Some((key, _)) = sheaf_keys.iter().find(|(_, set)| *set) {
                return Err(ScenarioError::new(
                    format!("cache.{key}"),
                    format!("`{key}` sizes Linux 7.0's sheaves: it needs \"era\": \"v7.0\""),
                ));
            }
        }
    }
    Ok(())
}

/// SLUB's variant keys mean nothing to SLAB and `slabGrow` nothing to SLUB: naming one for the
/// other allocator is an error, not a silently ignored key. Linux 7.0's sheaves read only
/// `pcsLock`, `preempt` and `refillFailFlush`; the tid and CPU-slab keys are refused there.
fn check_allocator_keys(allocator: Allocator, v: &RawVariant) -> Result<(), ScenarioError> {
    let sheaf_keys = [
        ("pcsLock", v.pcs_lock.is_some()),
        ("refillFailFlush", v.refill_fail_flush.is_some()),
    ];
    let slub_keys = [
        ("era", v.era.is_some()),
        ("fastpath", v.fastpath.is_some()),
        ("slowpath", v.slowpath.is_some()),
        ("cpuPartial", v.cpu_partial.is_some()),
        ("cpuPartialFrozen", v.cpu_partial_frozen.is_some()),
        ("cmpxchgDouble", v.cmpxchg_double.is_some()),
        ("prefetch", v.prefetch.is_some()),
        ("discard", v.discard.is_some()),
        ("deactivate", v.deactivate.is_some()),
        ("freeRetryLock", v.free_retry_lock.is_some()),
        ("tidStep", v.tid_step.is_some()),
    ];
    if allocator != Allocator::Sheaves {
        if let Some((key, _)) = sheaf_keys.iter().find(|(_, set)| *set) {
            return Err(ScenarioError::new(
                format!("variant.{key}"),
                format!("`{key}` is a key of Linux 7.0's sheaves: it needs \"era\": \"v7.0\""),
            ));
        }
    }
    match allocator {
        Allocator::Sheaves => {
            let classic = slub_keys.iter().skip(1).find(|(_, set)| *set);
            if let Some((key, _)) = classic {
                return Err(ScenarioError::new(
                    format!("variant.{key}"),
                    format!("`{key}` is a key of the classic SLUB (kmem_cache_cpu, the tid, CPU slabs), which Linux 7.0 removed; with \"era\": \"v7.0\" only `preempt`, `pcsLock` and `refillFailFlush` apply"),
                ));
            }
            if v.slab_grow.is_some() {
                return Err(ScenarioError::new(
                    "variant.slabGrow",
                    "`slabGrow` is a SLAB variant key: it needs \"allocator\": \"slab\"",
                ));
            }
        }
        Allocator::Slab => {
            if let Some((key, _)) = slub_keys.iter().find(|(_, set)| *set) {
                return Err(ScenarioError::new(
                    format!("variant.{key}"),
                    format!("`{key}` is a SLUB variant key; with \"allocator\": \"slab\" only `preempt` and `slabGrow` apply"),
                ));
            }
        }
        Allocator::Slub => {
            if v.slab_grow.is_some() {
                return Err(ScenarioError::new(
                    "variant.slabGrow",
                    "`slabGrow` is a SLAB variant key: it needs \"allocator\": \"slab\"",
                ));
            }
        }
    }
    Ok(())
}

fn resolve_variant(v: RawVariant) -> Result<Variant, ScenarioError> {
    let mut out = v.era.map(Variant::for_era).unwrap_or_default();
    if let Some(x) = v.fastpath {
        out.fastpath = x;
    }
    if let Some(x) = v.slowpath {
        out.slowpath = x;
    }
    if let Some(x) = v.cpu_partial {
        out.cpu_partial = x;
    }
    if let Some(x) = v.cpu_partial_frozen {
        out.cpu_partial_frozen = x;
    }
    if let Some(x) = v.cmpxchg_double {
        out.cmpxchg_double = x;
    }
    if let Some(x) = v.preempt {
        out.preempt = x;
    }
    if let Some(x) = v.prefetch {
        out.prefetch = x.0;
    }
    if let Some(x) = v.discard {
        out.discard = x;
    }
    if let Some(x) = v.deactivate {
        out.deactivate = x;
    }
    if let Some(x) = v.free_retry_lock {
        out.free_retry_lock = x;
    }
    if let Some(x) = v.slab_grow {
        out.slab_grow = x;
    }
    if let Some(x) = v.pcs_lock {
        out.pcs_lock = x;
    }
    if let Some(x) = v.refill_fail_flush {
        out.refill_fail_flush = x;
    }
    if let Some(x) = v.tid_step {
        let n = u64::try_from(x.0)
            .map_err(|_| ScenarioError::new("variant.tidStep", tid_step_message(x.0)))?;
        out.tid_step = Some(n);
    }
    Ok(out)
}

fn resolve_contexts(
    list: &str,
    raw: Vec<Obj<RawContext>>,
    cpus: u32,
    nodes: u32,
) -> Result<Vec<ContextSpec>, ScenarioError> {
    let mut out = Vec::with_capacity(raw.len());
    for (i, Obj(c)) in raw.into_iter().enumerate() {
        let path = format!("{list}[{i}]");
        let cpu = to_u32(&format!("{path}.cpu"), c.cpu, || cpu_expected(cpus))?;
        let mut ops = Vec::with_capacity(c.ops.len());
        for (j, Obj(o)) in c.ops.into_iter().enumerate() {
            let op_path = format!("{path}.ops[{j}]");
            ops.push(resolve_op(
                &op_path, o.op, o.var, o.node, o.target, cpus, nodes,
            )?);
        }
        out.push(ContextSpec { id: c.id, cpu, ops });
    }
    Ok(out)
}

fn resolve_op(
    path: &str,
    op: String,
    var: Option<String>,
    node: Option<Int>,
    target: Option<Int>,
    cpus: u32,
    nodes: u32,
) -> Result<Op, ScenarioError> {
    // Which keys the op takes besides `op` (and `cpu` in setup).
    let allowed: &[&str] = match op.as_str() {
        "alloc" => &["var", "node"],
        "free" | "touch" => &["var"],
        "flush" => &["target"],
        _ => {
            return Err(ScenarioError::new(
                format!("{path}.op"),
                format!(
                    "unknown op `{op}`: expected one of {}",
                    quoted_list(&OP_NAMES)
                ),
            ))
        }
    };
    let present = [
        ("var", var.is_some()),
        ("node", node.is_some()),
        ("target", target.is_some()),
    ];
    for (key, is_present) in present {
        if is_present && !allowed.contains(&key) {
            return Err(ScenarioError::new(
                format!("{path}.{key}"),
                format!(
                    "op `{op}` takes no `{key}` (its keys: {})",
                    quoted_list(allowed)
                ),
            ));
        }
    }
    let need_var = |var: Option<String>| {
        var.ok_or_else(|| {
            ScenarioError::new(
                path,
                format!("missing field `var` (op `{op}` needs a variable)"),
            )
        })
    };
    Ok(match op.as_str() {
        "alloc" => {
            let node = match node {
                Some(n) => Some(to_u32(&format!("{path}.node"), n, || node_expected(nodes))?),
                None => None,
            };
            Op::Alloc {
                var: need_var(var)?,
                node,
            }
        }
        "free" => Op::Free {
            var: need_var(var)?,
        },
        "touch" => Op::Touch {
            var: need_var(var)?,
        },
        _ => {
            let target = match target {
                Some(t) => Some(to_u32(&format!("{path}.target"), t, || cpu_expected(cpus))?),
                None => None,
            };
            Op::Flush { target }
        }
    })
}

fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn cpus_expected() -> String {
    format!("expected 1 to {MAX_CPUS}")
}
fn nodes_expected(cpus: u32) -> String {
    format!(
        "expected 1 to {} (at most `cpus` and at most {MAX_NODES})",
        cpus.clamp(1, MAX_NODES)
    )
}
fn object_size_expected() -> String {
    format!("expected a multiple of 8 from {MIN_OBJECT_SIZE} to {MAX_OBJECT_SIZE}")
}
fn objects_expected() -> String {
    format!("expected 1 to {MAX_OBJECTS_PER_SLAB}")
}
fn offset_expected(size: u32) -> String {
    format!("expected a multiple of 8 below objectSize ({size})")
}
fn upto(max: u32) -> String {
    format!("expected 0 to {max}")
}
fn cpu_expected(cpus: u32) -> String {
    if cpus == 1 {
        "expected 0 (the scenario has 1 CPU)".to_string()
    } else {
        format!(
            "expected a CPU number 0 to {} (the scenario has {cpus} CPUs)",
            cpus.saturating_sub(1)
        )
    }
}
fn node_expected(nodes: u32) -> String {
    if nodes == 1 {
        "expected 0 (the scenario has 1 node)".to_string()
    } else {
        format!(
            "expected a node number 0 to {} (the scenario has {nodes} nodes)",
            nodes.saturating_sub(1)
        )
    }
}
fn tid_step_message(v: i64) -> String {
    format!("{v} is not a valid TID_STEP: expected a power of two from 1 to {MAX_TID_STEP}, or null to derive it from `cpus` and `preempt`")
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

fn check_range(
    path: &str,
    v: u32,
    min: u32,
    max: u32,
    expected: impl FnOnce() -> String,
) -> Result<(), ScenarioError> {
    if v < min || v > max {
        Err(ScenarioError::new(
            path,
            out_of_range(i64::from(v), &expected()),
        ))
    } else {
        Ok(())
    }
}

fn is_context_id(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_var_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Which op list an op is in: setup (runs first, in order), or a task's or an irq's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    Setup,
    Task(usize),
    Irq(usize),
}

#[derive(Clone, Copy, Debug)]
struct Loc {
    list: List,
    index: usize,
}

impl Loc {
    fn path(self) -> String {
        match self.list {
            List::Setup => format!("setup[{}]", self.index),
            List::Task(t) => format!("tasks[{t}].ops[{}]", self.index),
            List::Irq(t) => format!("irqs[{t}].ops[{}]", self.index),
        }
    }
}

/// Every op of the scenario in document order (setup, tasks, irqs) with its location.
fn all_ops(s: &Scenario) -> Vec<(Loc, &Op)> {
    let mut out = Vec::new();
    for (i, op) in s.setup.iter().enumerate() {
        out.push((
            Loc {
                list: List::Setup,
                index: i,
            },
            &op.op,
        ));
    }
    for (t, c) in s.tasks.iter().enumerate() {
        for (j, op) in c.ops.iter().enumerate() {
            out.push((
                Loc {
                    list: List::Task(t),
                    index: j,
                },
                op,
            ));
        }
    }
    for (t, c) in s.irqs.iter().enumerate() {
        for (j, op) in c.ops.iter().enumerate() {
            out.push((
                Loc {
                    list: List::Irq(t),
                    index: j,
                },
                op,
            ));
        }
    }
    out
}

/// The semantic checks types cannot express: ranges, ids, CPUs and nodes that exist,
/// variables bound by exactly one alloc and freed at most once, schedule moves that name
/// existing contexts. (Whether a move is *enabled* is the model's business at run time.)
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    if s.schema_version != 1 {
        return Err(ScenarioError::new(
            "schemaVersion",
            format!(
                "unsupported schema version {}: this build reads version 1",
                s.schema_version
            ),
        ));
    }
    check_range("cpus", s.cpus, 1, MAX_CPUS, cpus_expected)?;
    check_range("nodes", s.nodes, 1, s.cpus.min(MAX_NODES), || {
        nodes_expected(s.cpus)
    })?;
    validate_cache(&s.cache)?;
    if let Some(c) = s.cache.sheaf_capacity {
        // 0 is the kernel's "no sheaves" (`cache_has_sheaves()` false): every operation
        // takes the slab paths.
        check_range("cache.sheafCapacity", c, 0, MAX_SHEAF_CAPACITY, || {
            upto(MAX_SHEAF_CAPACITY)
        })?;
    }
    for (path, v) in [
        ("cache.maxFullSheaves", s.cache.max_full_sheaves),
        ("cache.maxEmptySheaves", s.cache.max_empty_sheaves),
    ] {
        if let Some(v) = v {
            check_range(path, v, 0, MAX_BARN_SHEAVES, || upto(MAX_BARN_SHEAVES))?;
        }
    }
    if s.allocator == Allocator::Slab {
        let (limit, batch, shared) = s.slab_tunables();
        check_range("cache.limit", limit, 1, MAX_SLAB_LIMIT, || {
            upto(MAX_SLAB_LIMIT)
        })?;
        if batch == 0 || batch > limit {
            return Err(ScenarioError::new(
                "cache.batchcount",
                format!("{batch} is out of range: expected 1 to the limit ({limit})"),
            ));
        }
        if shared.checked_mul(batch).is_none_or(|n| n > MAX_SLAB_LIMIT) {
            return Err(ScenarioError::new(
                "cache.shared",
                format!(
                    "a shared array of {shared} x {batch} objects is more than {MAX_SLAB_LIMIT}"
                ),
            ));
        }
    }
    if let Some(n) = s.variant.tid_step {
        if n == 0 || n > MAX_TID_STEP || !n.is_power_of_two() {
            return Err(ScenarioError::new(
                "variant.tidStep",
                tid_step_message(i64::try_from(n).unwrap_or(i64::MAX)),
            ));
        }
    }

    // Sizes of the op lists and contexts.
    if s.setup.len() > MAX_SETUP_OPS {
        return Err(ScenarioError::new(
            "setup",
            format!(
                "{} setup ops: at most {MAX_SETUP_OPS} are allowed",
                s.setup.len()
            ),
        ));
    }
    if s.tasks.is_empty() {
        return Err(ScenarioError::new(
            "tasks",
            "a scenario needs at least one task",
        ));
    }
    if s.tasks.len() > MAX_TASKS {
        return Err(ScenarioError::new(
            "tasks",
            format!("{} tasks: at most {MAX_TASKS} are allowed", s.tasks.len()),
        ));
    }
    if s.irqs.len() > MAX_IRQS {
        return Err(ScenarioError::new(
            "irqs",
            format!(
                "{} interrupt handlers: at most {MAX_IRQS} are allowed",
                s.irqs.len()
            ),
        ));
    }

    // CPUs of setup ops.
    for (i, op) in s.setup.iter().enumerate() {
        check_cpu(&format!("setup[{i}].cpu"), op.cpu, s.cpus)?;
    }

    // Contexts: ids, CPUs, op counts.
    let mut seen: Vec<(&str, String)> = Vec::new();
    for (list, contexts) in [("tasks", &s.tasks), ("irqs", &s.irqs)] {
        for (i, c) in contexts.iter().enumerate() {
            let path = format!("{list}[{i}]");
            let id_path = format!("{path}.id");
            if c.id.is_empty() {
                return Err(ScenarioError::new(
                    id_path,
                    "a context id must not be empty",
                ));
            }
            if c.id.chars().count() > MAX_NAME_LEN {
                return Err(ScenarioError::new(
                    id_path,
                    format!(
                        "context id of {} characters: at most {MAX_NAME_LEN}",
                        c.id.chars().count()
                    ),
                ));
            }
            if !is_context_id(&c.id) {
                return Err(ScenarioError::new(
                    id_path,
                    format!(
                        "bad context id `{}`: it must start with a letter and contain only letters, digits and `_`",
                        c.id
                    ),
                ));
            }
            if c.id == "migrate" {
                return Err(ScenarioError::new(
                    id_path,
                    "`migrate` is reserved for migration moves (`migrate:<task>:<cpu>`)",
                ));
            }
            if let Some((_, first)) = seen.iter().find(|(id, _)| *id == c.id) {
                return Err(ScenarioError::new(
                    id_path,
                    format!(
                        "duplicate context id `{}` (first used at {first}); ids are unique across tasks and irqs",
                        c.id
                    ),
                ));
            }
            seen.push((&c.id, id_path));
            check_cpu(&format!("{path}.cpu"), c.cpu, s.cpus)?;
            if c.ops.len() > MAX_CONTEXT_OPS {
                return Err(ScenarioError::new(
                    format!("{path}.ops"),
                    format!(
                        "{} ops: a context has at most {MAX_CONTEXT_OPS}",
                        c.ops.len()
                    ),
                ));
            }
        }
    }

    let ops = all_ops(s);

    // Per-op checks: names, nodes, flush targets.
    for (loc, op) in &ops {
        let path = loc.path();
        match op {
            Op::Alloc { var, node } => {
                check_var_name(&path, var)?;
                if let Some(n) = node {
                    if *n >= s.nodes {
                        return Err(ScenarioError::new(
                            format!("{path}.node"),
                            out_of_range(i64::from(*n), &node_expected(s.nodes)),
                        ));
                    }
                }
            }
            Op::Free { var } | Op::Touch { var } => check_var_name(&path, var)?,
            Op::Flush { target } => {
                if let Some(t) = target {
                    check_cpu(&format!("{path}.target"), *t, s.cpus)?;
                    // Hotplug: the target CPU is dead; the context flushing it cannot be one
                    // of its own (it would wait for itself to finish).
                    let own = match loc.list {
                        List::Setup => s.setup.get(loc.index).map(|o| o.cpu),
                        List::Task(i) => s.tasks.get(i).map(|c| c.cpu),
                        List::Irq(i) => s.irqs.get(i).map(|c| c.cpu),
                    };
                    if own == Some(*t) {
                        return Err(ScenarioError::new(
                            format!("{path}.target"),
                            format!(
                                "cpu{t} is this context's own CPU: a flush with `target` is a \
                                 survivor flushing a dead CPU; use `flush` without `target` \
                                 to flush the own CPU"
                            ),
                        ));
                    }
                }
            }
        }
    }

    validate_offline(s, &ops)?;
    validate_variables(&ops)?;
    validate_schedule(s)?;
    Ok(())
}

/// What a flush with `target` means for later operations. It models CPU hotplug
/// (`slub_cpu_dead`, SLAB's `cpuup_canceled`): the target CPU went down and a survivor drains
/// what it left. The model does not bring a CPU back online, so nothing may run on the
/// target afterwards, and every operation that would is refused here with its place
/// instead of waiting forever at run time:
/// - a setup op on a CPU an earlier setup op flushed as dead;
/// - a task or interrupt handler on a CPU that setup flushed as dead (they run after setup);
/// - two contexts that flush each other's CPUs as dead (each flush waits until the other
///   CPU's contexts have finished, so neither ever runs).
///
/// Contexts of the tasks and irqs cannot reach a dead CPU either: the flush waits until every
/// context on the target has finished, and the executor refuses a migration onto it.
fn validate_offline(s: &Scenario, ops: &[(Loc, &Op)]) -> Result<(), ScenarioError> {
    let target = |op: &Op| match op {
        Op::Flush { target } => *target,
        _ => None,
    };
    // Setup runs in order: each op sees the CPUs flushed as dead before it.
    let mut dead: Vec<(u32, usize)> = Vec::new();
    for (i, op) in s.setup.iter().enumerate() {
        if let Some(&(_, j)) = dead.iter().find(|(k, _)| *k == op.cpu) {
            return Err(ScenarioError::new(
                format!("setup[{i}]"),
                format!(
                    "cpu{} is offline: setup[{j}] flushed it as dead, and a dead CPU runs \
                     nothing more (the model does not bring a CPU back online)",
                    op.cpu
                ),
            ));
        }
        if let Some(t) = target(&op.op) {
            dead.push((t, i));
        }
    }
    for (list, contexts) in [("tasks", &s.tasks), ("irqs", &s.irqs)] {
        for (i, c) in contexts.iter().enumerate() {
            if let Some(&(_, j)) = dead.iter().find(|(k, _)| *k == c.cpu) {
                return Err(ScenarioError::new(
                    format!("{list}[{i}].cpu"),
                    format!(
                        "cpu{} is offline: setup[{j}] flushed it as dead before `{}` could \
                         run there (a dead CPU runs nothing more)",
                        c.cpu, c.id
                    ),
                ));
            }
        }
    }
    // A context on CPU a flushing b, while a context on b flushes a: a deadlock by
    // construction, whatever the schedule.
    let cpu_of = |loc: &Loc| match loc.list {
        List::Setup => None,
        List::Task(t) => s.tasks.get(t).map(|c| c.cpu),
        List::Irq(t) => s.irqs.get(t).map(|c| c.cpu),
    };
    for (la, a) in ops {
        let (Some(ca), Some(ta)) = (cpu_of(la), target(a)) else {
            continue;
        };
        for (lb, b) in ops {
            if cpu_of(lb) == Some(ta) && target(b) == Some(ca) {
                return Err(ScenarioError::new(
                    format!("{}.target", lb.path()),
                    format!(
                        "cpu{ca} is flushed as dead here while {} (on cpu{ca}) flushes \
                         cpu{ta}: each flush waits until the other CPU's contexts have \
                         finished, so neither could ever run",
                        la.path()
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn validate_cache(c: &CacheConfig) -> Result<(), ScenarioError> {
    let size = c.object_size;
    if !(MIN_OBJECT_SIZE..=MAX_OBJECT_SIZE).contains(&size) || !size.is_multiple_of(8) {
        return Err(ScenarioError::new(
            "cache.objectSize",
            format!(
                "{size} is not a valid object size: {}",
                object_size_expected()
            ),
        ));
    }
    check_range(
        "cache.objectsPerSlab",
        c.objects_per_slab,
        1,
        MAX_OBJECTS_PER_SLAB,
        objects_expected,
    )?;
    if c.offset >= size || !c.offset.is_multiple_of(8) {
        return Err(ScenarioError::new(
            "cache.offset",
            format!(
                "{} is not a valid free-pointer offset: {}",
                c.offset,
                offset_expected(size)
            ),
        ));
    }
    check_range(
        "cache.minPartial",
        c.min_partial,
        0,
        MAX_MIN_PARTIAL,
        || upto(MAX_MIN_PARTIAL),
    )?;
    check_range(
        "cache.cpuPartial",
        c.cpu_partial,
        0,
        MAX_CPU_PARTIAL,
        || upto(MAX_CPU_PARTIAL),
    )?;
    Ok(())
}

fn check_cpu(path: &str, cpu: u32, cpus: u32) -> Result<(), ScenarioError> {
    if cpu >= cpus {
        Err(ScenarioError::new(
            path,
            out_of_range(i64::from(cpu), &cpu_expected(cpus)),
        ))
    } else {
        Ok(())
    }
}

fn check_var_name(op_path: &str, var: &str) -> Result<(), ScenarioError> {
    if var.chars().count() > MAX_NAME_LEN {
        return Err(ScenarioError::new(
            format!("{op_path}.var"),
            format!(
                "variable name of {} characters: at most {MAX_NAME_LEN}",
                var.chars().count()
            ),
        ));
    }
    if is_var_name(var) {
        Ok(())
    } else {
        Err(ScenarioError::new(
            format!("{op_path}.var"),
            format!(
                "bad variable name `{var}`: it must start with a letter or `_` and contain only letters, digits and `_`"
            ),
        ))
    }
}

/// Every variable is bound by exactly one alloc; frees and touches name a bound variable; a
/// variable is freed at most once; what runs in a known order (setup, then each op list on its
/// own) never uses a variable before its alloc or touches it after its free.
fn validate_variables(ops: &[(Loc, &Op)]) -> Result<(), ScenarioError> {
    use std::collections::HashMap;
    let mut bound: HashMap<&str, Loc> = HashMap::new();
    for (loc, op) in ops {
        if let Op::Alloc { var, .. } = op {
            if let Some(first) = bound.get(var.as_str()) {
                return Err(ScenarioError::new(
                    format!("{}.var", loc.path()),
                    format!(
                        "variable `{var}` is bound twice (first by the alloc at {}): each variable is bound by exactly one alloc",
                        first.path()
                    ),
                ));
            }
            bound.insert(var, *loc);
        }
    }
    let mut freed: HashMap<&str, Loc> = HashMap::new();
    for (loc, op) in ops {
        let (var, what) = match op {
            Op::Free { var } => (var.as_str(), "free"),
            Op::Touch { var } => (var.as_str(), "touch"),
            _ => continue,
        };
        let path = format!("{}.var", loc.path());
        let Some(alloc) = bound.get(var) else {
            return Err(ScenarioError::new(
                path,
                format!("unbound variable `{var}`: no alloc in the scenario binds it"),
            ));
        };
        // Setup runs to completion, in order, before anything else: its ops may only use
        // what setup has already allocated. Within one op list, order is program order.
        let before_alloc = if loc.list == List::Setup {
            alloc.list != List::Setup || alloc.index > loc.index
        } else {
            alloc.list == loc.list && alloc.index > loc.index
        };
        if before_alloc {
            let why = if loc.list == List::Setup && alloc.list != List::Setup {
                "setup runs before every task and irq"
            } else {
                "ops of one list run in order"
            };
            return Err(ScenarioError::new(
                path,
                format!(
                    "`{what}` of variable `{var}` before its alloc at {} ({why})",
                    alloc.path()
                ),
            ));
        }
        // Used after its free, where the order is certain: the same list, or freed in setup.
        let after_free = |free: &Loc| {
            (free.list == loc.list && free.index < loc.index)
                || (free.list == List::Setup && loc.list != List::Setup)
        };
        match what {
            "free" => {
                if let Some(first) = freed.get(var) {
                    return Err(ScenarioError::new(
                        path,
                        format!(
                            "variable `{var}` is freed twice (first at {})",
                            first.path()
                        ),
                    ));
                }
                freed.insert(var, *loc);
            }
            _ => {
                if let Some(free) = freed.get(var).filter(|f| after_free(f)) {
                    return Err(ScenarioError::new(
                        path,
                        format!(
                            "use after free: `touch` of variable `{var}` after its free at {}",
                            free.path()
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn validate_schedule(s: &Scenario) -> Result<(), ScenarioError> {
    let Some(schedule) = &s.schedule else {
        return Ok(());
    };
    for (i, mv) in schedule.iter().enumerate() {
        let path = format!("schedule[{i}]");
        if let Some(rest) = mv.strip_prefix("migrate:") {
            let mut parts = rest.split(':');
            let (Some(task), Some(cpu), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(ScenarioError::new(
                    path,
                    format!("bad move `{mv}`: a migration is written `migrate:<task>:<cpu>`"),
                ));
            };
            if !s.tasks.iter().any(|t| t.id == task) {
                let why = if s.irqs.iter().any(|c| c.id == task) {
                    format!("`{task}` is an interrupt handler; only tasks migrate")
                } else {
                    format!("no task is called `{task}` (tasks: {})", id_list(&s.tasks))
                };
                return Err(ScenarioError::new(path, format!("bad move `{mv}`: {why}")));
            }
            let cpu_ok = !cpu.is_empty() && cpu.bytes().all(|b| b.is_ascii_digit());
            match cpu.parse::<u32>() {
                Ok(c) if cpu_ok && c < s.cpus => {}
                _ => {
                    return Err(ScenarioError::new(
                        path,
                        format!(
                            "bad move `{mv}`: CPU `{cpu}` is not valid: {}",
                            cpu_expected(s.cpus)
                        ),
                    ))
                }
            }
        } else if !s.context_ids().any(|id| id == mv) {
            let all: Vec<&str> = s.context_ids().collect();
            return Err(ScenarioError::new(
                path,
                format!(
                    "bad move `{mv}`: no context is called that (contexts: {}; or `migrate:<task>:<cpu>`)",
                    quoted_list(&all)
                ),
            ));
        }
    }
    Ok(())
}

fn id_list(contexts: &[ContextSpec]) -> String {
    let ids: Vec<&str> = contexts.iter().map(|c| c.id.as_str()).collect();
    quoted_list(&ids)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// A small valid scenario in the shape of design.md §4.
    fn base() -> Value {
        json!({
            "schemaVersion": 1,
            "name": "remote free",
            "cpus": 2,
            "setup": [ { "cpu": 0, "op": "alloc", "var": "a" } ],
            "tasks": [
                { "id": "A", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" } ] },
                { "id": "B", "cpu": 1, "ops": [ { "op": "free", "var": "a" } ] }
            ],
            "irqs": [ { "id": "I", "cpu": 0, "ops": [ { "op": "alloc", "var": "y" },
                                                       { "op": "free", "var": "y" } ] } ],
            "schedule": [ "A", "A", "I", "I", "B", "migrate:A:1", "A" ]
        })
    }

    fn parse_value(v: &Value) -> Result<Scenario, ScenarioError> {
        parse(&v.to_string())
    }

    /// Apply `edit` to the base scenario and expect an error at `path` whose message contains
    /// `needle`.
    #[track_caller]
    fn rejects(edit: impl FnOnce(&mut Value), path: &str, needle: &str) -> ScenarioError {
        let mut v = base();
        edit(&mut v);
        let e = parse_value(&v).expect_err("scenario should be rejected");
        assert_eq!(e.path, path, "wrong path for {e}");
        assert!(
            e.message.contains(needle),
            "message `{}` lacks `{needle}`",
            e.message
        );
        e
    }

    #[test]
    fn design_example_parses_with_defaults() {
        let s = parse_value(&base()).unwrap();
        assert_eq!(s.schema_version, 1);
        assert_eq!(s.name, "remote free");
        assert_eq!(s.allocator, Allocator::Slub);
        assert_eq!(s.nodes, 1);
        assert_eq!(s.cache, CacheConfig::default());
        assert_eq!(s.cache.name, "kmalloc-64");
        assert_eq!(s.variant, Variant::default());
        assert_eq!(
            s.setup,
            vec![SetupOp {
                cpu: 0,
                op: Op::Alloc {
                    var: "a".into(),
                    node: None
                }
            }]
        );
        assert_eq!(s.tasks.len(), 2);
        assert_eq!(s.irqs[0].ops[1], Op::Free { var: "y".into() });
        assert_eq!(s.schedule.as_ref().unwrap().len(), 7);
    }

    #[test]
    fn design_section4_example_verbatim() {
        let text = r#"{
          "schemaVersion": 1,
          "name": "remote free into a frozen slab",
          "allocator": "slub",
          "cpus": 2,
          "nodes": 1,
          "cache": { "name": "kmalloc-64", "objectSize": 64, "objectsPerSlab": 4,
                     "offset": 0, "minPartial": 1, "cpuPartial": 2, "pageAllocFail": false },
          "variant": { "fastpath": "tid-loop", "prefetch": true, "cpuPartial": true,
                       "cmpxchgDouble": "native", "preempt": "full" },
          "setup":  [ { "cpu": 0, "op": "alloc", "var": "a" } ],
          "tasks":  [ { "id": "A", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" } ] },
                      { "id": "B", "cpu": 1, "ops": [ { "op": "free", "var": "a" } ] } ],
          "irqs":   [ { "id": "I", "cpu": 0, "ops": [ { "op": "alloc", "var": "y" },
                                                      { "op": "free",  "var": "y" } ] } ],
          "schedule": [ "A", "A", "I", "I", "B", "migrate:A:1", "A" ]
        }"#;
        let s = parse(text).unwrap();
        assert_eq!(s.variant.fastpath, Fastpath::TidLoop);
        assert_eq!(s.variant.discard, Discard::Gt);
    }

    #[test]
    fn minimal_scenario_gets_every_default() {
        let s =
            parse(r#"{"schemaVersion":1,"cpus":1,"tasks":[{"id":"A","cpu":0,"ops":[]}]}"#).unwrap();
        assert_eq!(s.name, "untitled");
        assert_eq!(s.nodes, 1);
        assert!(s.setup.is_empty() && s.irqs.is_empty());
        assert_eq!(s.schedule, None);
        assert_eq!(s.variant.tid_step, None);
        assert_eq!(s.tid_step(), 1);
        let s = parse(
            r#"{"schemaVersion":1,"name":"","cpus":1,"tasks":[{"id":"A","cpu":0,"ops":[]}]}"#,
        )
        .unwrap();
        assert_eq!(s.name, "untitled");
    }

    #[test]
    fn cache_keys_are_individually_optional() {
        let mut v = base();
        v["cache"] = json!({ "objectSize": 128, "pageAllocFail": true });
        let s = parse_value(&v).unwrap();
        assert_eq!(s.cache.object_size, 128);
        assert!(s.cache.page_alloc_fail);
        assert_eq!(s.cache.objects_per_slab, 4);
        assert_eq!(s.cache.name, "kmalloc-64");
        assert_eq!(s.cache.cpu_partial, 2);
    }

    #[test]
    fn allocator_slab_parses() {
        let mut v = base();
        v["allocator"] = json!("slab");
        assert_eq!(parse_value(&v).unwrap().allocator, Allocator::Slab);
        rejects(
            |v| v["allocator"] = json!("slob"),
            "allocator",
            "unknown variant `slob`",
        );
    }

    #[test]
    fn era_bundles() {
        let era = |e: &str| {
            let mut v = base();
            v["variant"] = json!({ "era": e });
            parse_value(&v).unwrap().variant
        };
        assert_eq!(era("v3.10"), Variant::default());
        let v31 = era("v3.1");
        assert_eq!(v31.fastpath, Fastpath::TidUnguarded);
        assert!(!v31.cpu_partial);
        assert_eq!(v31.prefetch, Prefetch::Off);
        assert_eq!(v31.free_retry_lock, FreeRetryLock::Hold);
        assert_eq!(v31.slowpath, Slowpath::IrqOff);
        assert_eq!(v31.discard, Discard::Gt);
        let v40 = era("v4.0");
        assert_eq!(
            v40,
            Variant {
                fastpath: Fastpath::TidLoop,
                discard: Discard::Ge,
                ..Variant::default()
            }
        );
        let v68 = era("v6.8");
        assert_eq!(
            v68,
            Variant {
                fastpath: Fastpath::TidDirect,
                slowpath: Slowpath::LocalLock,
                cpu_partial_frozen: false,
                deactivate: Deactivate::Splice,
                discard: Discard::Ge,
                prefetch: Prefetch::Write,
                ..Variant::default()
            }
        );
        for e in [Era::V3_1, Era::V3_10, Era::V4_0, Era::V6_8] {
            assert_eq!(era(e.as_str()), Variant::for_era(e));
        }
    }

    #[test]
    fn explicit_keys_override_the_era() {
        let mut v = base();
        v["variant"] = json!({ "era": "v6.8", "prefetch": false, "discard": "gt", "tidStep": 8,
                               "preempt": "none", "cmpxchgDouble": "slab-lock" });
        let var = parse_value(&v).unwrap().variant;
        assert_eq!(var.fastpath, Fastpath::TidDirect);
        assert_eq!(var.prefetch, Prefetch::Off);
        assert_eq!(var.discard, Discard::Gt);
        assert_eq!(var.tid_step, Some(8));
        assert_eq!(var.preempt, Preempt::None);
        assert_eq!(var.cmpxchg_double, CmpxchgDouble::SlabLock);
        // Order of keys does not matter: the era is applied first.
        let mut v = base();
        v["variant"] = json!({ "fastpath": "no-tid", "era": "v4.0" });
        assert_eq!(parse_value(&v).unwrap().variant.fastpath, Fastpath::NoTid);
    }

    #[test]
    fn variant_errors() {
        rejects(
            |v| v["variant"] = json!({ "era": "v5.0" }),
            "variant.era",
            "unknown variant `v5.0`",
        );
        rejects(
            |v| v["variant"] = json!({ "prefetch": "r" }),
            "variant.prefetch",
            "true, false or \"w\"",
        );
        rejects(
            |v| v["variant"] = json!({ "prefetch": 1 }),
            "variant.prefetch",
            "true, false or \"w\"",
        );
        rejects(
            |v| v["variant"] = json!({ "fastpath": "fast" }),
            "variant.fastpath",
            "unknown variant",
        );
        rejects(
            |v| v["variant"] = json!({ "fastPath": "tid-loop" }),
            "variant.fastPath",
            "unknown field",
        );
        rejects(
            |v| v["variant"] = json!({ "cpuPartial": "yes" }),
            "variant.cpuPartial",
            "invalid type",
        );
        for bad in [0, 3, 128, -2] {
            rejects(
                |v| v["variant"] = json!({ "tidStep": bad }),
                "variant.tidStep",
                "power of two",
            );
        }
        for good in [1u64, 2, 4, 64] {
            let mut v = base();
            v["variant"] = json!({ "tidStep": good });
            assert_eq!(parse_value(&v).unwrap().tid_step(), good);
        }
        let mut v = base();
        v["variant"] = json!({ "tidStep": null });
        assert_eq!(parse_value(&v).unwrap().variant.tid_step, None);
        let mut v = base();
        v["variant"] = json!({ "prefetch": "w" });
        assert_eq!(parse_value(&v).unwrap().variant.prefetch, Prefetch::Write);
    }

    #[test]
    fn syntax_errors_give_line_and_column() {
        let e = parse("{\n  \"schemaVersion\": 1,\n  \"cpus\": 2,,\n}").unwrap_err();
        assert!(e.message.contains("invalid JSON"), "{e}");
        assert!(e.message.contains("line 3"), "{e}");
        assert!(e.message.contains("column"), "{e}");
        let e = parse("").unwrap_err();
        assert!(e.message.contains("invalid JSON"), "{e}");
        let e = parse(&format!("{} x", base())).unwrap_err();
        assert!(e.message.contains("trailing"), "{e}");
        let e = parse("[1, 2]").unwrap_err();
        assert_eq!(e.path, "");
        assert!(e.message.contains("a scenario object"), "{e}");
        // serde's positional-array form of a struct is not part of the format.
        let positional = json!([1, "x", "slub", 1, 1, null, null, [], [["A", 0, []]]]);
        assert!(parse_value(&positional).is_err());
        rejects(
            |v| v["cache"] = json!(["kmalloc-64", 64]),
            "cache",
            "a cache object",
        );
        rejects(
            |v| v["tasks"][0] = json!(["A", 0, []]),
            "tasks[0]",
            "a context object",
        );
        rejects(
            |v| v["tasks"][0]["ops"][0] = json!(["alloc", "x"]),
            "tasks[0].ops[0]",
            "an op object",
        );
        rejects(
            |v| v["variant"] = json!("v3.1"),
            "variant",
            "a variant object",
        );
    }

    #[test]
    fn unknown_fields_name_their_path() {
        rejects(
            |v| v["colour"] = json!("red"),
            "colour",
            "unknown field `colour`",
        );
        rejects(
            |v| v["cache"] = json!({ "objSize": 64 }),
            "cache.objSize",
            "unknown field",
        );
        rejects(
            |v| v["tasks"][1]["prio"] = json!(1),
            "tasks[1].prio",
            "unknown field",
        );
        rejects(
            |v| v["tasks"][1]["ops"][0]["size"] = json!(1),
            "tasks[1].ops[0].size",
            "unknown field",
        );
        rejects(
            |v| v["setup"][0]["foo"] = json!(1),
            "setup[0].foo",
            "unknown field",
        );
        // A key another op takes is still not this op's.
        rejects(
            |v| v["tasks"][1]["ops"][0]["node"] = json!(0),
            "tasks[1].ops[0].node",
            "takes no `node`",
        );
        rejects(
            |v| v["tasks"][0]["ops"][0]["target"] = json!(0),
            "tasks[0].ops[0].target",
            "takes no `target`",
        );
        rejects(
            |v| v["irqs"][0]["ops"][0] = json!({ "op": "flush", "var": "y" }),
            "irqs[0].ops[0].var",
            "takes no `var`",
        );
    }

    #[test]
    fn ops() {
        rejects(
            |v| v["tasks"][0]["ops"][0]["op"] = json!("malloc"),
            "tasks[0].ops[0].op",
            "`alloc`, `free`, `flush`, `touch`",
        );
        rejects(
            |v| v["tasks"][0]["ops"][0] = json!({ "var": "x" }),
            "tasks[0].ops[0]",
            "missing field `op`",
        );
        rejects(
            |v| v["tasks"][0]["ops"][0] = json!({ "op": "alloc" }),
            "tasks[0].ops[0]",
            "missing field `var`",
        );
        rejects(
            |v| v["tasks"][0]["ops"][0]["var"] = json!(5),
            "tasks[0].ops[0].var",
            "invalid type",
        );
        let mut v = base();
        v["tasks"][0]["ops"] = json!([ { "op": "alloc", "var": "x", "node": 0 }, { "op": "touch", "var": "x" },
                                       { "op": "flush" }, { "op": "flush", "target": 1 }, { "op": "free", "var": "x" } ]);
        let s = parse_value(&v).unwrap();
        assert_eq!(
            s.tasks[0].ops,
            vec![
                Op::Alloc {
                    var: "x".into(),
                    node: Some(0)
                },
                Op::Touch { var: "x".into() },
                Op::Flush { target: None },
                Op::Flush { target: Some(1) },
                Op::Free { var: "x".into() },
            ]
        );
    }

    #[test]
    fn wrong_types_and_required_fields() {
        rejects(|v| v["cpus"] = json!("2"), "cpus", "invalid type: string");
        rejects(|v| v["cpus"] = json!(1.5), "cpus", "expected an integer");
        rejects(|v| v["tasks"] = json!({}), "tasks", "invalid type");
        rejects(
            |v| v["cache"] = json!({ "pageAllocFail": 1 }),
            "cache.pageAllocFail",
            "invalid type",
        );
        rejects(
            |v| v["schedule"] = json!(["A", 3]),
            "schedule[1]",
            "invalid type",
        );
        rejects(
            |v| {
                v.as_object_mut().unwrap().remove("cpus");
            },
            "",
            "missing field `cpus`",
        );
        rejects(
            |v| {
                v.as_object_mut().unwrap().remove("tasks");
            },
            "",
            "missing field `tasks`",
        );
        rejects(
            |v| {
                v.as_object_mut().unwrap().remove("schemaVersion");
            },
            "",
            "missing field `schemaVersion`",
        );
        rejects(
            |v| v["schemaVersion"] = json!(2),
            "schemaVersion",
            "version 1",
        );
        // An integral float is an integer, as JavaScript writes them.
        let mut v = base();
        v["cpus"] = json!(2.0);
        assert_eq!(parse_value(&v).unwrap().cpus, 2);
    }

    #[test]
    fn ranges_say_the_limit() {
        rejects(|v| v["cpus"] = json!(0), "cpus", "1 to 8");
        rejects(|v| v["cpus"] = json!(9), "cpus", "1 to 8");
        rejects(|v| v["cpus"] = json!(1000), "cpus", "1 to 8");
        rejects(|v| v["cpus"] = json!(-1), "cpus", "1 to 8");
        rejects(|v| v["cpus"] = json!(1e30), "cpus", "1 to 8");
        rejects(|v| v["cpus"] = json!(u64::MAX), "cpus", "1 to 8");
        rejects(|v| v["nodes"] = json!(0), "nodes", "1 to 2");
        rejects(|v| v["nodes"] = json!(3), "nodes", "1 to 2");
        rejects(
            |v| {
                v["cpus"] = json!(8);
                v["nodes"] = json!(5)
            },
            "nodes",
            "1 to 4",
        );
        rejects(
            |v| v["cache"] = json!({ "objectSize": 4 }),
            "cache.objectSize",
            "multiple of 8 from 8 to 4096",
        );
        rejects(
            |v| v["cache"] = json!({ "objectSize": 60 }),
            "cache.objectSize",
            "multiple of 8",
        );
        rejects(
            |v| v["cache"] = json!({ "objectSize": 8192 }),
            "cache.objectSize",
            "4096",
        );
        rejects(
            |v| v["cache"] = json!({ "objectSize": -64 }),
            "cache.objectSize",
            "4096",
        );
        rejects(
            |v| v["cache"] = json!({ "objectsPerSlab": 0 }),
            "cache.objectsPerSlab",
            "1 to 64",
        );
        rejects(
            |v| v["cache"] = json!({ "objectsPerSlab": 100000 }),
            "cache.objectsPerSlab",
            "1 to 64",
        );
        rejects(
            |v| v["cache"] = json!({ "offset": 64 }),
            "cache.offset",
            "below objectSize (64)",
        );
        rejects(
            |v| v["cache"] = json!({ "offset": 4 }),
            "cache.offset",
            "multiple of 8",
        );
        rejects(
            |v| v["cache"] = json!({ "offset": -8 }),
            "cache.offset",
            "below objectSize",
        );
        rejects(
            |v| v["cache"] = json!({ "minPartial": 65 }),
            "cache.minPartial",
            "0 to 64",
        );
        rejects(
            |v| v["cache"] = json!({ "cpuPartial": 257 }),
            "cache.cpuPartial",
            "0 to 256",
        );
        rejects(
            |v| v["cache"] = json!({ "cpuPartial": -1 }),
            "cache.cpuPartial",
            "0 to 256",
        );
        let mut v = base();
        v["cache"] = json!({ "objectSize": 4096, "offset": 4088, "objectsPerSlab": 64, "minPartial": 64, "cpuPartial": 256 });
        parse_value(&v).unwrap();
    }

    #[test]
    fn list_sizes() {
        let many = |n: usize| Value::Array((0..n).map(|_| json!({ "op": "flush" })).collect());
        let many_setup =
            |n: usize| Value::Array((0..n).map(|_| json!({ "cpu": 0, "op": "flush" })).collect());
        rejects(|v| v["setup"] = many_setup(257), "setup", "at most 256");
        rejects(
            |v| v["tasks"][0]["ops"] = many(65),
            "tasks[0].ops",
            "at most 64",
        );
        rejects(
            |v| v["irqs"][0]["ops"] = many(1000),
            "irqs[0].ops",
            "at most 64",
        );
        rejects(|v| v["tasks"] = json!([]), "tasks", "at least one task");
        let ctxs = |prefix: &str, n: usize| {
            Value::Array(
                (0..n)
                    .map(|i| json!({ "id": format!("{prefix}{i}"), "cpu": 0, "ops": [] }))
                    .collect(),
            )
        };
        rejects(
            |v| {
                v["tasks"] = ctxs("T", 9);
                v.as_object_mut().unwrap().remove("schedule");
            },
            "tasks",
            "at most 8",
        );
        rejects(|v| v["irqs"] = ctxs("I", 9), "irqs", "at most 8");
        let mut v = base();
        v["setup"] = many_setup(255);
        v["setup"]
            .as_array_mut()
            .unwrap()
            .insert(0, json!({ "cpu": 0, "op": "alloc", "var": "a" }));
        v["tasks"][0]["ops"] = many(63);
        v["tasks"][0]["ops"]
            .as_array_mut()
            .unwrap()
            .push(json!({ "op": "alloc", "var": "x" }));
        parse_value(&v).unwrap();
    }

    #[test]
    fn context_ids() {
        rejects(
            |v| v["tasks"][0]["id"] = json!(""),
            "tasks[0].id",
            "must not be empty",
        );
        rejects(
            |v| v["tasks"][0]["id"] = json!("1A"),
            "tasks[0].id",
            "bad context id `1A`",
        );
        rejects(
            |v| v["tasks"][0]["id"] = json!("_A"),
            "tasks[0].id",
            "bad context id",
        );
        rejects(
            |v| v["tasks"][0]["id"] = json!("A:B"),
            "tasks[0].id",
            "bad context id",
        );
        rejects(
            |v| v["tasks"][0]["id"] = json!("migrate"),
            "tasks[0].id",
            "reserved",
        );
        rejects(
            |v| v["tasks"][1]["id"] = json!("A"),
            "tasks[1].id",
            "duplicate context id `A` (first used at tasks[0].id)",
        );
        rejects(
            |v| v["irqs"][0]["id"] = json!("B"),
            "irqs[0].id",
            "duplicate context id `B`",
        );
    }

    #[test]
    fn cpus_and_nodes_exist() {
        rejects(
            |v| v["setup"][0]["cpu"] = json!(2),
            "setup[0].cpu",
            "0 to 1",
        );
        rejects(
            |v| v["tasks"][1]["cpu"] = json!(2),
            "tasks[1].cpu",
            "0 to 1",
        );
        rejects(|v| v["irqs"][0]["cpu"] = json!(7), "irqs[0].cpu", "0 to 1");
        rejects(|v| v["irqs"][0]["cpu"] = json!(-1), "irqs[0].cpu", "0 to 1");
        rejects(
            |v| v["tasks"][0]["ops"][0]["node"] = json!(1),
            "tasks[0].ops[0].node",
            "expected 0",
        );
        rejects(
            |v| v["tasks"][0]["ops"][0] = json!({ "op": "flush", "target": 2 }),
            "tasks[0].ops[0].target",
            "0 to 1",
        );
        let mut v = base();
        v["cpus"] = json!(4);
        v["nodes"] = json!(2);
        v["tasks"][0]["ops"][0]["node"] = json!(1);
        let s = parse_value(&v).unwrap();
        assert_eq!(
            (0..4).map(|c| s.node_of_cpu(c)).collect::<Vec<_>>(),
            vec![0, 0, 1, 1]
        );
    }

    #[test]
    fn variables() {
        rejects(
            |v| v["tasks"][1]["ops"][0]["var"] = json!("zz"),
            "tasks[1].ops[0].var",
            "unbound variable `zz`",
        );
        rejects(
            |v| v["tasks"][0]["ops"][0]["var"] = json!("a"),
            "tasks[0].ops[0].var",
            "variable `a` is bound twice (first by the alloc at setup[0])",
        );
        rejects(
            |v| v["tasks"][0]["ops"][0]["var"] = json!("9x"),
            "tasks[0].ops[0].var",
            "bad variable name `9x`",
        );
        rejects(
            |v| v["tasks"][1]["ops"][0]["var"] = json!("a-b"),
            "tasks[1].ops[0].var",
            "bad variable name",
        );
        rejects(
            |v| {
                v["tasks"][0]["ops"] =
                    json!([{ "op": "alloc", "var": "x" }, { "op": "free", "var": "a" }])
            },
            "tasks[1].ops[0].var",
            "variable `a` is freed twice (first at tasks[0].ops[1])",
        );
        // Setup runs in order, before everything else.
        rejects(
            |v| v["setup"] = json!([{ "cpu": 0, "op": "free", "var": "a" }, { "cpu": 0, "op": "alloc", "var": "a" }]),
            "setup[0].var",
            "before its alloc at setup[1]",
        );
        rejects(
            |v| {
                v["setup"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({ "cpu": 0, "op": "touch", "var": "x" }))
            },
            "setup[1].var",
            "before its alloc at tasks[0].ops[0]",
        );
        // Program order within one list.
        rejects(
            |v| {
                v["tasks"][0]["ops"] =
                    json!([{ "op": "touch", "var": "x" }, { "op": "alloc", "var": "x" }])
            },
            "tasks[0].ops[0].var",
            "before its alloc at tasks[0].ops[1]",
        );
        rejects(
            |v| {
                v["irqs"][0]["ops"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({ "op": "touch", "var": "y" }))
            },
            "irqs[0].ops[2].var",
            "use after free",
        );
        rejects(
            |v| {
                v["setup"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({ "cpu": 0, "op": "free", "var": "a" }));
                v["tasks"][1]["ops"] = json!([{ "op": "touch", "var": "a" }]);
            },
            "tasks[1].ops[0].var",
            "use after free",
        );
        // Across contexts the order is the schedule's business: a free in one task of what
        // another allocates is fine, and so is a touch in one of what another frees.
        let mut v = base();
        v["tasks"][1]["ops"] = json!([{ "op": "touch", "var": "x" }, { "op": "free", "var": "x" }, { "op": "touch", "var": "a" }]);
        parse_value(&v).unwrap();
    }

    #[test]
    fn schedule_moves_name_contexts() {
        rejects(
            |v| v["schedule"][2] = json!("Z"),
            "schedule[2]",
            "no context is called that",
        );
        rejects(
            |v| v["schedule"][2] = json!(""),
            "schedule[2]",
            "no context",
        );
        rejects(
            |v| v["schedule"][5] = json!("migrate:Z:1"),
            "schedule[5]",
            "no task is called `Z`",
        );
        rejects(
            |v| v["schedule"][5] = json!("migrate:I:1"),
            "schedule[5]",
            "only tasks migrate",
        );
        rejects(
            |v| v["schedule"][5] = json!("migrate:A:2"),
            "schedule[5]",
            "0 to 1",
        );
        rejects(
            |v| v["schedule"][5] = json!("migrate:A:+1"),
            "schedule[5]",
            "not valid",
        );
        rejects(
            |v| v["schedule"][5] = json!("migrate:A"),
            "schedule[5]",
            "migrate:<task>:<cpu>",
        );
        rejects(
            |v| v["schedule"][5] = json!("migrate:A:1:2"),
            "schedule[5]",
            "migrate:<task>:<cpu>",
        );
        let mut v = base();
        v["schedule"] = json!([]);
        assert_eq!(parse_value(&v).unwrap().schedule, Some(vec![]));
        // Enabledness is the model's business: migrating a current task parses.
        v["schedule"] = json!(["migrate:A:0", "I", "I", "I"]);
        parse_value(&v).unwrap();
    }

    #[test]
    fn tid_step_derivation() {
        let tid = |cpus: u32, preempt: &str| {
            let mut v = base();
            v["cpus"] = json!(cpus);
            v["variant"] = json!({ "preempt": preempt });
            parse_value(&v).unwrap().tid_step()
        };
        let mut v = base();
        v["cpus"] = json!(1);
        v["tasks"][1]["cpu"] = json!(0);
        v["schedule"][5] = json!("B");
        let mut s = parse_value(&v).unwrap();
        assert_eq!(s.tid_step(), 1);
        s.variant.preempt = Preempt::None;
        assert_eq!(s.tid_step(), 1);
        assert_eq!(tid(2, "full"), 2);
        assert_eq!(tid(3, "full"), 4);
        assert_eq!(tid(6, "full"), 8);
        assert_eq!(tid(8, "full"), 8);
        assert_eq!(tid(6, "none"), 1);
    }

    #[test]
    fn validate_checks_built_scenarios_too() {
        let mut s = parse_value(&base()).unwrap();
        s.cpus = 0;
        assert_eq!(validate(&s).unwrap_err().path, "cpus");
        let mut s = parse_value(&base()).unwrap();
        s.variant.tid_step = Some(6);
        assert_eq!(validate(&s).unwrap_err().path, "variant.tidStep");
    }

    /// Issue 12 item 8: ids and variable names are labels on the stage: bounded, and the
    /// error names the path.
    #[test]
    fn long_ids_and_variable_names_are_refused_by_path() {
        let long = "a".repeat(MAX_NAME_LEN + 1);
        let mut v = base();
        v["tasks"][0]["id"] = json!(long);
        let e = parse_value(&v).unwrap_err();
        assert_eq!(e.path, "tasks[0].id", "{e}");
        assert!(e.to_string().contains("at most 32"), "{e}");
        let mut v = base();
        v["tasks"][0]["ops"][0]["var"] = json!(long);
        let e = parse_value(&v).unwrap_err();
        assert_eq!(e.path, "tasks[0].ops[0].var", "{e}");
        let mut v = base();
        v["tasks"][0]["id"] = json!("a".repeat(MAX_NAME_LEN));
        v["schedule"] = json!([]);
        assert!(parse_value(&v).is_ok());
    }

    #[test]
    fn errors_display_path_then_message() {
        let e = ScenarioError::new("tasks[1].ops[0].var", "unbound variable `z`");
        assert_eq!(e.to_string(), "tasks[1].ops[0].var: unbound variable `z`");
        assert_eq!(ScenarioError::new("", "x").to_string(), "x");
    }
}
