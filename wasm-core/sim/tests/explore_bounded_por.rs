//! The reduced search is exact within its bounds: on every golden scenario under
//! a set of variant keys, and on random small scenarios, at preemption bounds 0–3, the
//! reduced search (`reduction: true`) and the plain one find a violation in the same cases,
//! of the same invariant-finding length (the shortest). Before this fix the sleep sets ran
//! under the preemption bound and the two disagreed (SH4 with `pageAllocFail`: the fixture).
//!
//! `SLUB_BOUNDED_POR_CASES` sets the random cases (default 64; `npm run fuzz` runs many);
//! `SLUB_BOUNDED_POR_STATES` the state limit of each search (default 20,000: a search cut by
//! it without a violation decides nothing, and is counted, not compared).

mod common;

use common::{load, Case};
use proptest::prelude::*;
use serde_json::{json, Value};
use slub_sim::explore::{explore, Bounds, Report};
use slub_sim::scenario;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn search(sc: &Value, preemptions: u32, reduction: bool) -> Option<Report> {
    let mut parsed = scenario::parse(&sc.to_string()).ok()?;
    parsed.schedule = None;
    let bounds = Bounds {
        max_preemptions: Some(preemptions),
        max_migrations: Some(1),
        max_states: env("SLUB_BOUNDED_POR_STATES", 20_000),
        reduction,
        ..Bounds::default()
    };
    Some(explore(&parsed, &bounds, &mut |_| true))
}

/// What a search says: `Some(Some(len))` a violation of `len` moves, `Some(None)` complete
/// with none, `None` undecided (a limit cut it first).
fn verdict(r: &Report) -> Option<Option<usize>> {
    if let Some(v) = r.violations.first() {
        Some(Some(v.schedule.len()))
    } else if r.complete {
        Some(None)
    } else {
        None
    }
}

/// Compare the two searches; `Err` describes a disagreement. `Ok(false)`: undecided.
fn agree(sc: &Value, bound: u32) -> Result<bool, String> {
    let (Some(reduced), Some(plain)) = (search(sc, bound, true), search(sc, bound, false)) else {
        return Ok(false);
    };
    match (verdict(&reduced), verdict(&plain)) {
        (Some(a), Some(b)) if a != b => Err(format!(
            "bound {bound}: reduced says {a:?}, plain says {b:?}\nreduced: {:?}\nplain: {:?}",
            reduced.violations.first(),
            plain.violations.first()
        )),
        (Some(_), Some(_)) => {
            if reduced.states > plain.states {
                return Err(format!(
                    "bound {bound}: the reduction visited more states ({} > {})",
                    reduced.states, plain.states
                ));
            }
            Ok(true)
        }
        // One search decided and the other hit its state limit: the reduced one never
        // visits more states than the plain one, so only "plain undecided" can happen.
        (None, Some(_)) => Err(format!(
            "bound {bound}: the reduced search hit a limit the plain one did not"
        )),
        _ => Ok(false),
    }
}

#[test]
fn sh4_page_alloc_fail_is_found_at_every_bound_with_the_shortest_schedule() {
    let mut sc = load("sh04");
    sc["cache"]["pageAllocFail"] = json!(true);
    // (bound, shortest): at bound 0 only `B`×8 then `T`×26 breaks INV-S1; from bound 1 a
    // 33-move schedule (a preemption inside B) does.
    for (bound, shortest) in [(0, 34), (1, 33), (2, 33), (3, 33)] {
        for reduction in [true, false] {
            let r = search(&sc, bound, reduction).unwrap();
            let v = r.violations.first().unwrap_or_else(|| {
                panic!("bound {bound}, reduction {reduction}: no violation ({r:?})")
            });
            assert_eq!(
                v.invariant, "INV-S1",
                "bound {bound}, reduction {reduction}"
            );
            assert_eq!(
                v.schedule.len(),
                shortest,
                "bound {bound}, reduction {reduction}: {}",
                v.schedule.join(",")
            );
        }
    }
}

/// Variant keys laid over each golden scenario's own (broken controls and fixes of every
/// era; a combination the scenario format refuses is skipped).
fn overlays() -> Vec<(&'static str, Value)> {
    vec![
        ("as is", json!({})),
        ("no-tid", json!({"variant": {"fastpath": "no-tid"}})),
        ("tidStep 1", json!({"variant": {"tidStep": 1}})),
        (
            "tid-unguarded",
            json!({"variant": {"fastpath": "tid-unguarded"}}),
        ),
        ("pageAllocFail", json!({"cache": {"pageAllocFail": true}})),
        (
            "refillFailFlush + pageAllocFail",
            json!({"variant": {"refillFailFlush": true}, "cache": {"pageAllocFail": true}}),
        ),
    ]
}

fn overlay(base: &Value, patch: &Value) -> Value {
    let mut out = base.clone();
    for key in ["variant", "cache"] {
        if let Some(p) = patch.get(key).and_then(Value::as_object) {
            let slot = out
                .as_object_mut()
                .unwrap()
                .entry(key)
                .or_insert_with(|| json!({}));
            for (k, v) in p {
                slot[k] = v.clone();
            }
        }
    }
    out
}

#[test]
fn reduced_and_plain_agree_on_every_golden_scenario_and_variant_at_bounds_0_to_3() {
    let (mut compared, mut undecided, mut refused) = (0, 0, 0);
    let mut wrong = Vec::new();
    for file in common::scenario_files() {
        let base = Case::load(&file).json;
        for (name, patch) in overlays() {
            let sc = overlay(&base, &patch);
            if scenario::parse(&sc.to_string()).is_err() {
                refused += 1;
                continue;
            }
            for bound in 0..=3 {
                match agree(&sc, bound) {
                    Ok(true) => compared += 1,
                    Ok(false) => undecided += 1,
                    Err(e) => wrong.push(format!("{file} ({name}): {e}")),
                }
            }
        }
    }
    println!(
        "{compared} compared, {undecided} undecided (state limit), {refused} combinations refused"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    assert!(
        compared >= 300,
        "only {compared} pairs decided: the test lost its reach"
    );
}

/// Random small scenarios: 1–2 CPUs, 1–2 tasks of 1–2 ops and maybe an irq, under SLUB's
/// eras and Linux 7.0's sheaves, with and without the broken controls.
fn random_variants() -> Vec<Value> {
    vec![
        json!({}),
        json!({"fastpath": "no-tid"}),
        json!({"tidStep": 1}),
        json!({"era": "v6.8"}),
        json!({"era": "v3.1", "fastpath": "preempt-disable"}),
        json!({"era": "v7.0"}),
        json!({"era": "v7.0", "refillFailFlush": true}),
    ]
}

type Ops = Vec<(u8, u8)>;

fn random_scenario(
    cpus: u32,
    setup: &[u8],
    tasks: &[(u8, Ops)],
    irq: &Option<(u8, Ops)>,
    variant: usize,
    fail: bool,
) -> Value {
    let mut free_pool: Vec<String> = Vec::new();
    let setup: Vec<Value> = setup
        .iter()
        .enumerate()
        .map(|(i, c)| {
            free_pool.push(format!("s{i}"));
            json!({ "cpu": u32::from(*c) % cpus, "op": "alloc", "var": format!("s{i}") })
        })
        .collect();
    let ctx = |id: String, cpu: u8, ops: &Ops, pool: &mut Vec<String>| {
        let mut own: Vec<String> = Vec::new();
        let mut out = Vec::new();
        for (j, (kind, pick)) in ops.iter().enumerate() {
            if *kind == 1 && (!own.is_empty() || !pool.is_empty()) {
                let var = if !own.is_empty() && (pick % 2 == 0 || pool.is_empty()) {
                    own.remove(0)
                } else {
                    pool.remove(usize::from(*pick) % pool.len())
                };
                out.push(json!({ "op": "free", "var": var }));
            } else {
                let var = format!("{id}v{j}");
                own.push(var.clone());
                out.push(json!({ "op": "alloc", "var": var }));
            }
        }
        json!({ "id": id, "cpu": u32::from(cpu) % cpus, "ops": out })
    };
    let tasks: Vec<Value> = tasks
        .iter()
        .enumerate()
        .map(|(i, (cpu, ops))| ctx(format!("T{i}"), *cpu, ops, &mut free_pool))
        .collect();
    let irqs: Vec<Value> = irq
        .iter()
        .map(|(cpu, ops)| ctx("I0".into(), *cpu, ops, &mut free_pool))
        .collect();
    json!({
        "schemaVersion": 1,
        "name": "bounded POR property",
        "cpus": cpus,
        "cache": { "objectsPerSlab": 2, "minPartial": 1, "cpuPartial": 2, "sheafCapacity": 2,
                   "pageAllocFail": fail },
        "variant": random_variants()[variant],
        "setup": setup,
        "tasks": tasks,
        "irqs": irqs
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: env("SLUB_BOUNDED_POR_CASES", 64) as u32,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn reduced_and_plain_agree_on_random_scenarios(
        cpus in 1u32..=2,
        setup in prop::collection::vec(any::<u8>(), 0..=3),
        tasks in prop::collection::vec((any::<u8>(), prop::collection::vec((0u8..2, any::<u8>()), 1..=2)), 1..=2),
        irq in prop::option::of((any::<u8>(), prop::collection::vec((0u8..2, any::<u8>()), 1..=1))),
        variant in 0..random_variants().len(),
        fail in any::<bool>(),
        bound in 0u32..=3,
    ) {
        let sc = random_scenario(cpus, &setup, &tasks, &irq, variant, fail);
        if let Err(e) = agree(&sc, bound) {
            prop_assert!(false, "{}\nscenario {}", e, sc);
        }
    }
}
