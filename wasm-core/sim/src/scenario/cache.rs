//! The scenario's `cache` (design.md §4): its parameters and defaults, the tunables the kernel
//! derives when a file leaves them out, and the keys one allocator's cache has and another's
//! refuses.

use super::limits::*;
use super::raw::{Int, Obj, RawCache};
use super::{to_u32, Allocator, ScenarioError};
use serde::Serialize;

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

/// The file's `cache` with every default filled. Which keys the allocator refuses is checked
/// first, then each value's range as it is read (`validate_cache` checks the rest).
pub(super) fn resolve_cache(
    allocator: Allocator,
    raw: Option<Obj<RawCache>>,
) -> Result<CacheConfig, ScenarioError> {
    if let Some(Obj(c)) = &raw {
        check_cache_keys(allocator, c)?;
    }
    if allocator == Allocator::Slub {
        if let Some(Obj(c)) = &raw {
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
    if let Some(Obj(c)) = raw {
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
    Ok(cache)
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

pub(super) fn validate_cache(c: &CacheConfig) -> Result<(), ScenarioError> {
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
