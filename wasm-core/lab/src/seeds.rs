//! The seeds' comparisons: `seeds.json` read as data, each case's two sides run and set
//! beside the published figures (`slub-lab bench seeds`, the Lab page).

use crate::{
    bench, linear_sensitivity, mechanism_rows, parse_flavour, round2, Api, MechanismRow, Mechs,
    ParamsOut, Report, Sensitivity, SensitivityMethod, Workload, WorkloadKind, ISSUE,
    PREFETCH_WAIT, STORE_DRAIN,
};
use serde::{Deserialize, Serialize};
use slub_sim::model::cost;
use slub_sim::scenario::{Scenario, Variant};
use std::collections::BTreeMap;

/// Which number of a report a comparison reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub enum Metric {
    Alloc,
    Free,
    Pair,
    Message,
}

impl Metric {
    pub fn of(self, r: &Report) -> f64 {
        let c = &r.cycles;
        match self {
            Metric::Alloc => c.alloc,
            Metric::Free => c.free,
            Metric::Pair => c.pair,
            Metric::Message => c.message,
        }
        .unwrap_or(f64::NAN)
    }
}

/// A published before/after measurement of a seed and how the lab reruns it: one entry of
/// `seeds.json`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedCase {
    /// `003`, `004b`, ...: the seed file's number, a letter for its further figures.
    pub id: String,
    pub file: String,
    pub what: String,
    /// The workload with the parameters that differ from its defaults
    /// (`{ "kind": "concurrent", "cpus": 8, "size": 16 }`).
    #[serde(deserialize_with = "workload_of_spec")]
    pub workload: Workload,
    pub metric: Metric,
    /// Variant keys of the "before" run; `change` is applied on top for "after".
    pub before: Vec<(String, String)>,
    pub change: Vec<(String, String)>,
    /// The seed's figures, in `unit`.
    pub published: (f64, f64),
    pub unit: String,
    /// Whether the lab asserts the sign (false: the seed's own change is within its noise).
    pub asserted: bool,
    /// Whether the lab asserts the size of the change too: the model's change between half
    /// and twice the seed's ([`EFFECT_RANGE`]). A case that cannot says why in its `note`.
    #[serde(default, rename = "effectAsserted")]
    pub effect_asserted: bool,
    #[serde(default)]
    pub note: String,
}

/// A workload as `seeds.json` writes it: its kind and the parameters it changes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkloadSpec {
    kind: String,
    cpus: Option<u32>,
    nodes: Option<u32>,
    size: Option<u32>,
    n: Option<u32>,
    rounds: Option<u32>,
    window: Option<u32>,
    pairs: Option<u32>,
    api: Option<Api>,
}

fn workload_of_spec<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Workload, D::Error> {
    use serde::de::Error;
    let spec = WorkloadSpec::deserialize(d)?;
    let kind = WorkloadKind::from_name(&spec.kind).ok_or_else(|| {
        let names: Vec<&str> = WorkloadKind::ALL.iter().map(|w| w.name()).collect();
        D::Error::custom(format!(
            "unknown workload `{}`; the workloads are {}",
            spec.kind,
            names.join(", ")
        ))
    })?;
    let mut w = kind.workload();
    let set = |field: &mut u32, v: Option<u32>| {
        if let Some(v) = v {
            *field = v;
        }
    };
    set(&mut w.cpus, spec.cpus);
    set(&mut w.nodes, spec.nodes);
    set(&mut w.size, spec.size);
    set(&mut w.n, spec.n);
    set(&mut w.rounds, spec.rounds);
    set(&mut w.window, spec.window);
    set(&mut w.pairs, spec.pairs);
    if let Some(api) = spec.api {
        w.api = api;
    }
    Ok(w)
}

/// `seeds.json`: the seed comparisons, as data.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedFile {
    cases: Vec<SeedCase>,
    pending: Vec<PendingSeed>,
}

/// Parse a seed file; the error names the JSON path (`cases[3].workload: ...`).
fn parse_seeds(json: &str) -> Result<SeedFile, String> {
    let de = &mut serde_json::Deserializer::from_str(json);
    serde_path_to_error::deserialize(de)
        .map_err(|e| format!("seeds.json at {}: {}", e.path(), e.inner()))
}

/// The crate's `seeds.json`, parsed once. It is part of the program, checked by the tests
/// (`seeds_json_parses`), so a bad file is a bug and panics with the path of the mistake.
fn seeds() -> &'static SeedFile {
    static SEEDS: std::sync::OnceLock<SeedFile> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        parse_seeds(include_str!("../seeds.json")).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// Every seed comparison, SLUB's and (seeds 001 and 002) SLAB's, from `seeds.json`.
pub fn seed_cases() -> &'static [SeedCase] {
    &seeds().cases
}

/// A seed comparison that needs what the model does not have yet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PendingSeed {
    pub id: String,
    pub file: String,
    pub what: String,
    pub needs: String,
}

/// The seed comparisons of `seeds.json` the model cannot run yet (none since the SLAB model
/// runs seeds 001 and 002).
pub fn pending_seeds() -> Vec<PendingSeed> {
    seeds().pending.clone()
}

/// One side (before or after) of a comparison as run.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    pub variant: BTreeMap<String, String>,
    pub published: f64,
    pub model: f64,
    /// Cycles and transfers per operation of this run, for the explanation.
    pub per_op: BTreeMap<&'static str, OpLine>,
    /// The metric's cycles by cost constant (and `waiting`, spinning on a held lock): the
    /// stacked bar of the Lab page.
    pub by_constant: BTreeMap<&'static str, f64>,
    /// The same cycles in four shares (`cost::Share`, plus waiting).
    pub shares: Shares,
    pub stats: BTreeMap<String, u64>,
}

/// A metric's cycles by what they were spent on: spinning on a lock another CPU held,
/// cache-line transfers, atomic instructions, and the rest (`cost::Share`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Shares {
    pub waiting: f64,
    pub transfers: f64,
    pub atomics: f64,
    pub work: f64,
}

impl Shares {
    fn of(by_constant: &BTreeMap<&'static str, f64>) -> Shares {
        let mut s = Shares::default();
        for (name, v) in by_constant {
            let slot = match cost::Id::ALL.iter().find(|id| id.cost().name == *name) {
                None if *name == PREFETCH_WAIT || *name == STORE_DRAIN => &mut s.transfers,
                None if *name == ISSUE => &mut s.work,
                None => &mut s.waiting,
                Some(id) => match id.share() {
                    cost::Share::Transfer => &mut s.transfers,
                    cost::Share::Atomic => &mut s.atomics,
                    cost::Share::Work => &mut s.work,
                },
            };
            *slot += v;
        }
        for v in [
            &mut s.waiting,
            &mut s.transfers,
            &mut s.atomics,
            &mut s.work,
        ] {
            *v = round2(*v);
        }
        s
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct OpLine {
    pub cycles: f64,
    pub list_locks: f64,
    pub transfers: f64,
    pub prefetched: f64,
    pub object_transfers: f64,
    pub slab_page_transfers: f64,
}

/// A seed comparison's result: both sides, the two ratios and whether they agree.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SeedResult {
    pub id: &'static str,
    pub file: &'static str,
    pub what: &'static str,
    pub workload: &'static str,
    pub params: ParamsOut,
    pub metric: Metric,
    pub unit: &'static str,
    pub before: Side,
    pub after: Side,
    /// after / before.
    pub seed_ratio: f64,
    pub model_ratio: f64,
    /// `model_ratio / seed_ratio - 1`.
    pub ratio_off: f64,
    /// `(model_ratio - 1) / (seed_ratio - 1)`: how much of the seed's change the model shows.
    pub change_fraction: f64,
    pub sign_ok: bool,
    /// `|ratio_off| <= 25 %`.
    pub within_tolerance: bool,
    /// The sign is right and `change_fraction` is within [`EFFECT_RANGE`]: the model shows
    /// between half and twice the seed's change.
    pub effect_ok: bool,
    pub asserted: bool,
    pub effect_asserted: bool,
    /// One row per cost constant either side charges.
    pub sensitivity: Vec<Sensitivity>,
    pub sensitivity_method: SensitivityMethod,
    #[serde(skip_serializing_if = "str::is_empty")]
    #[ts(as = "Option<String>", optional)]
    pub note: &'static str,
    /// The Lab's mechanisms outside the step model this comparison exercised (either side),
    /// each with what it did; empty when the model's own steps are all it ran.
    pub mechanisms: Vec<MechanismRow>,
}

/// The Lab's tolerance: the model's ratio within ±25 % of the seed's.
pub const TOLERANCE: f64 = 0.25;

/// The size of a change the lab accepts as the seed's: the model's change (its ratio minus
/// one) between half and twice the seed's.
pub const EFFECT_RANGE: (f64, f64) = (0.5, 2.0);

fn side(pairs: &[(String, String)], published: f64, r: &Report, metric: Metric) -> Side {
    let per_op = [
        (
            "alloc",
            &r.transfers.alloc,
            r.ops.alloc,
            r.cycles.alloc,
            r.list_locks.alloc,
        ),
        (
            "free",
            &r.transfers.free,
            r.ops.free,
            r.cycles.free,
            r.list_locks.free,
        ),
        ("touch", &r.transfers.touch, r.ops.touch, r.cycles.touch, 0),
    ]
    .into_iter()
    .filter(|(_, _, n, _, _)| *n > 0)
    .map(|(k, t, n, c, locks)| {
        let per = |x: u64| round2(x as f64 / n as f64);
        (
            k,
            OpLine {
                cycles: c.unwrap_or(0.0),
                list_locks: per(locks),
                transfers: per(t.total),
                prefetched: per(t.prefetched),
                object_transfers: per(t.object),
                slab_page_transfers: per(t.slab_page),
            },
        )
    })
    .collect();
    Side {
        variant: pairs.iter().cloned().collect(),
        published,
        model: metric.of(r),
        per_op,
        by_constant: metric_by_constant(r, metric),
        shares: Shares::of(&metric_by_constant(r, metric)),
        stats: r.stats.total.clone(),
    }
}

/// The metric's cycles by cost constant: an operation's own, the pair's sum, or every
/// operation's per message.
fn metric_by_constant(r: &Report, metric: Metric) -> BTreeMap<&'static str, f64> {
    let mut out = BTreeMap::new();
    let mut add = |op: &str, weight: f64| {
        for (k, v) in r.by_constant.get(op).into_iter().flatten() {
            *out.entry(*k).or_insert(0.0) += v * weight;
        }
    };
    match metric {
        Metric::Alloc => add("alloc", 1.0),
        Metric::Free => add("free", 1.0),
        Metric::Pair => {
            add("alloc", 1.0);
            add("free", 1.0);
        }
        Metric::Message => {
            let messages = f64::from(r.params.n * r.params.pairs.unwrap_or(1));
            add("alloc", r.ops.alloc as f64 / messages);
            add("free", r.ops.free as f64 / messages);
            add("touch", r.ops.touch as f64 / messages);
        }
    }
    out.values_mut().for_each(|v| *v = round2(*v));
    out
}

impl SeedCase {
    /// The variant pairs of one side: `before`, or `before` with `change` applied.
    pub fn pairs(&self, after: bool) -> Vec<(String, String)> {
        let mut p = self.before.clone();
        if after {
            p.extend(self.change.iter().cloned());
        }
        p
    }

    /// The workload (with its allocator) and variant of one side.
    pub fn side(&self, after: bool) -> Result<(Workload, Variant), String> {
        let (allocator, variant) = parse_flavour(&self.pairs(after), self.workload.cpus)?;
        let w = Workload {
            allocator,
            ..self.workload.clone()
        };
        Ok((w, variant))
    }

    /// A small instance of one side for the stepper: the same workload, allocator, variant and
    /// object size, with few enough operations and objects per slab for a scenario file
    /// (`MAX_CONTEXT_OPS`, `MAX_OBJECTS_PER_SLAB`). The driver's gates become a schedule-free
    /// program: the learner plays the scheduler.
    pub fn stepper_scenario(&self, after: bool) -> Result<Scenario, String> {
        let (mut w, variant) = self.side(after)?;
        let per_ctx_ops = slub_sim::scenario::MAX_CONTEXT_OPS as u32 / 2;
        w.n = w.n.min(match w.kind {
            WorkloadKind::Concurrent => 8,
            _ => per_ctx_ops.min(12),
        });
        w.rounds = 1;
        // The learner steps the n measured operations; the warm-up is the long run's.
        w.warmup = 0;
        w.size = w.size.min(slub_sim::scenario::MAX_OBJECT_SIZE);
        let (mut sc, _gates) = w.build(&variant);
        let cache = &mut sc.cache;
        cache.objects_per_slab = cache
            .objects_per_slab
            .min(slub_sim::scenario::MAX_OBJECTS_PER_SLAB);
        sc.name = format!(
            "seed {} ({}), {}: {} with n = {}",
            self.id,
            if after { "after" } else { "before" },
            self.file,
            w.kind.name(),
            w.n
        );
        // Round-trip through the validator: what the stepper loads must be a valid scenario.
        let json = serde_json::to_string(&sc).map_err(|e| e.to_string())?;
        slub_sim::scenario::parse(&json)
            .map_err(|e| format!("stepper scenario of seed {}: {e}", self.id))
    }
}

/// Run one seed comparison.
pub fn run_seed(case: &'static SeedCase) -> Result<SeedResult, String> {
    run_seed_with(case, Mechs::default())
}

/// [`run_seed`] with some of the mechanisms outside the step model turned off (a study of
/// what each moves: `examples/mechanisms.rs`).
pub fn run_seed_with(case: &'static SeedCase, mechs: Mechs) -> Result<SeedResult, String> {
    let (before, after) = (case.pairs(false), case.pairs(true));
    let (mut wb, vb) = case.side(false)?;
    let (mut wa, va) = case.side(true)?;
    wb.mechs = mechs;
    wa.mechs = mechs;
    let rb = bench(&wb, &vb)?;
    let ra = bench(&wa, &va)?;
    let (mb, ma) = (case.metric.of(&rb), case.metric.of(&ra));
    let seed_ratio = case.published.1 / case.published.0;
    let model_ratio = ma / mb;
    let ratio_off = model_ratio / seed_ratio - 1.0;
    let sign = |r: f64| (r - 1.0).signum();
    let r4 = |x: f64| (x * 10_000.0).round() / 10_000.0;
    let (side_b, side_a) = (
        side(&before, case.published.0, &rb, case.metric),
        side(&after, case.published.1, &ra, case.metric),
    );
    let sensitivity = linear_sensitivity(&side_b, &side_a);
    let change_fraction = (model_ratio - 1.0) / (seed_ratio - 1.0);
    Ok(SeedResult {
        id: &case.id,
        file: &case.file,
        what: &case.what,
        workload: case.workload.kind.name(),
        params: rb.params.clone(),
        metric: case.metric,
        unit: &case.unit,
        before: side_b,
        after: side_a,
        seed_ratio: r4(seed_ratio),
        model_ratio: r4(model_ratio),
        ratio_off: r4(ratio_off),
        change_fraction: r4(change_fraction),
        sign_ok: sign(model_ratio) == sign(seed_ratio),
        within_tolerance: ratio_off.abs() <= TOLERANCE,
        effect_ok: (EFFECT_RANGE.0..=EFFECT_RANGE.1).contains(&change_fraction),
        asserted: case.asserted,
        effect_asserted: case.effect_asserted,
        sensitivity,
        sensitivity_method: SensitivityMethod::Linear,
        note: &case.note,
        mechanisms: mechanism_rows(&rb, &ra, case.metric),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_json_parses() {
        let file = parse_seeds(include_str!("../seeds.json")).expect("seeds.json is valid");
        assert!(!file.cases.is_empty());
        let mut ids: Vec<&str> = file.cases.iter().map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "a seed id is used twice");
        for c in &file.cases {
            c.workload
                .check()
                .unwrap_or_else(|e| panic!("seed {}: {e}", c.id));
            c.side(false)
                .unwrap_or_else(|e| panic!("seed {}: {e}", c.id));
            c.side(true)
                .unwrap_or_else(|e| panic!("seed {}: {e}", c.id));
        }
    }

    #[test]
    fn a_bad_seed_file_names_the_path() {
        let bad = r#"{ "cases": [{ "id": "x", "file": "f", "what": "w",
            "workload": { "kind": "alloc-free", "sise": 8 }, "metric": "pair",
            "before": [], "change": [], "published": [1.0, 2.0], "unit": "u", "asserted": true }],
            "pending": [] }"#;
        let e = parse_seeds(bad).unwrap_err();
        assert!(e.contains("cases[0].workload") && e.contains("sise"), "{e}");
        let bad = bad
            .replace("\"sise\": 8", "\"size\": 8")
            .replace("alloc-free", "hackbench");
        let e = parse_seeds(&bad).unwrap_err();
        assert!(e.contains("unknown workload `hackbench`"), "{e}");
    }
}
