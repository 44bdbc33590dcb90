//! The scenario format of design.md §4 (`schemaVersion` 1): parsing, era bundles and validation.
//!
//! A scenario is parsed in two passes. The first is serde with `deny_unknown_fields`, wrapped in
//! `serde_path_to_error` so a syntax, type or unknown-field error names the JSON path
//! (`raw.rs`). The second resolves defaults and the era bundle (`parse.rs`), then
//! ([`validate`], `validate.rs`) checks what types cannot: ranges, ids, variables bound once
//! and freed once. Every error is a [`ScenarioError`] naming the path (`tasks[1].ops[0].var`)
//! and why.
//!
//! Where things are:
//! - `keys.rs`: the variant keys, one row each (docs/adding-a-variant-key.md); `variant.rs`
//!   turns the rows into [`Variant`], the raw form, the refusals and [`variant_toggles`];
//!   `values.rs` has the value types ([`Era`], [`Prefetch`], [`TidStep`]);
//! - `cache.rs`: [`CacheConfig`] and the tunables the kernel derives;
//! - `limits.rs`: every limit, and the words its refusal names it with;
//! - `error.rs`: [`ScenarioError`].

mod cache;
mod error;
mod exercise;
mod keys;
mod limits;
mod parse;
mod raw;
#[cfg(test)]
mod tests;
mod validate;
mod values;
mod variant;

pub use cache::{sheaf_capacity, slab_tunables, CacheConfig};
pub use error::ScenarioError;
pub use exercise::same_exercise;
// `Variant` and every key's own enum (`Fastpath`, `FreeRetryLock`, ...): whatever the table declares.
pub use keys::*;
pub use limits::{
    MAX_BARN_SHEAVES, MAX_CONTEXT_OPS, MAX_CPUS, MAX_CPU_PARTIAL, MAX_IRQS, MAX_MIN_PARTIAL,
    MAX_NAME_LEN, MAX_NODES, MAX_OBJECTS_PER_SLAB, MAX_OBJECT_SIZE, MAX_POLICY_MOVES,
    MAX_SCHEDULE_MOVES, MAX_SETUP_OPS, MAX_SHEAF_CAPACITY, MAX_SLAB_LIMIT, MAX_TASKS, MAX_TID_STEP,
    MIN_OBJECT_SIZE, OP_NAMES,
};
pub use parse::parse;
use parse::to_u32;
pub use validate::validate;
pub use values::{Era, Prefetch, TidStep};
pub use variant::variant_toggles;

use serde::{Deserialize, Serialize};

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

impl Allocator {
    /// Every allocator, in the order written here.
    pub const ALL: &'static [Self] = &[Allocator::Slub, Allocator::Slab, Allocator::Sheaves];
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
    /// SLAB only: write `/proc/slabinfo` (`do_tune_cpucache`), which replaces the node's shared
    /// array by `setup_kmem_cache_node(..., force_change = true)` (model.md Appendix A).
    Tune,
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
            variant: std::collections::BTreeMap<&'static str, serde_json::Value>,
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
            variant: {
                let mut keys = self
                    .variant
                    .keys_for(self.allocator)
                    .map_err(serde::ser::Error::custom)?;
                // The 7.0 design is selected by its era, which its file names.
                if self.allocator == Allocator::Sheaves {
                    keys.insert("era", serde_json::Value::from(Era::V7_0.as_str()));
                }
                keys
            },
            setup: &self.setup,
            tasks: &self.tasks,
            irqs: &self.irqs,
            schedule: &self.schedule,
        }
        .serialize(s)
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
            Op::Tune => "tune",
        }
    }

    /// The variable the op names, if any.
    pub fn var(&self) -> Option<&str> {
        match self {
            Op::Alloc { var, .. } | Op::Free { var } | Op::Touch { var } => Some(var),
            Op::Flush { .. } | Op::Tune => None,
        }
    }
}

impl Scenario {
    /// Some task replaces a shared array (`tune`): SLAB's lockless refill then reads the
    /// pointer and the array in two steps (model.md Appendix A).
    pub fn has_tune(&self) -> bool {
        (self.tasks.iter()).any(|c| c.ops.iter().any(|o| matches!(o, Op::Tune)))
    }

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
