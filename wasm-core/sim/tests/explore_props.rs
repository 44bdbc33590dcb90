//! The explorer checked against itself and against the model:
//! - on random small scenarios, under broken and correct variants, the reduced search (sleep
//!   sets) and the plain search (`--no-reduction`) agree on whether an invariant can break and
//!   on the length of the shortest counterexample;
//! - every broken control's counterexample is a real fault: replayed and run to its end it
//!   breaks an invariant about ownership, a freelist or a list (INV-1…INV-10, INV-14, INV-15),
//!   not only INV-12's snapshot check.
//!
//! `SLUB_EXPLORE_PROPTEST_CASES` scales the property test (default 64 cases).

mod common;

use common::{load, with_variant};
use proptest::prelude::*;
use serde_json::{json, Value};
use slub_sim::explore::{explore, Bounds, Report};
use slub_sim::{scenario, Simulator};

fn cases() -> u32 {
    std::env::var("SLUB_EXPLORE_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

/// Broken controls first, then correct variants.
fn variants() -> Vec<Value> {
    vec![
        json!({"fastpath": "no-tid"}),
        json!({"fastpath": "cmpxchg-local"}),
        json!({"fastpath": "tid-unguarded"}),
        json!({"tidStep": 1}),
        json!({}),
        json!({"era": "v4.0"}),
        json!({"era": "v6.8"}),
        json!({"era": "v3.1", "fastpath": "preempt-disable"}),
    ]
}

/// One context's ops: (kind, pick): 0 alloc, 1 free (a setup object or its own), 2 flush.
type Ops = Vec<(u8, u8)>;

#[derive(Debug, Clone)]
struct Spec {
    cpus: u32,
    setup: Vec<u8>,
    tasks: Vec<(u8, Ops)>,
    irq: Option<(u8, Ops)>,
    variant: usize,
}

fn spec() -> impl Strategy<Value = Spec> {
    let ops = |n| prop::collection::vec((0u8..3, any::<u8>()), 1..=n);
    (
        1u32..=2,
        prop::collection::vec(any::<u8>(), 0..=3),
        prop::collection::vec((any::<u8>(), ops(2)), 1..=2),
        prop::option::of((any::<u8>(), ops(1))),
        0..variants().len(),
    )
        .prop_map(|(cpus, setup, tasks, irq, variant)| Spec {
            cpus,
            setup,
            tasks,
            irq,
            variant,
        })
}

/// A valid scenario: every free names a variable allocated before it (in setup or earlier in
/// the same context) and frees it once.
fn scenario_json(s: &Spec) -> Value {
    let mut setup = Vec::new();
    let mut free_pool: Vec<String> = Vec::new();
    for (i, c) in s.setup.iter().enumerate() {
        let var = format!("s{i}");
        setup.push(json!({ "cpu": u32::from(*c) % s.cpus, "op": "alloc", "var": var }));
        free_pool.push(var);
    }
    let ctx = |id: String, cpu: u8, ops: &Ops, pool: &mut Vec<String>| {
        let mut own: Vec<String> = Vec::new();
        let mut out = Vec::new();
        for (j, (kind, pick)) in ops.iter().enumerate() {
            match kind {
                1 if !own.is_empty() || !pool.is_empty() => {
                    let var = if !own.is_empty() && (pick % 2 == 0 || pool.is_empty()) {
                        own.remove(0)
                    } else {
                        pool.remove(usize::from(*pick) % pool.len())
                    };
                    out.push(json!({ "op": "free", "var": var }));
                }
                2 => out.push(json!({ "op": "flush" })),
                _ => {
                    let var = format!("{id}v{j}");
                    own.push(var.clone());
                    out.push(json!({ "op": "alloc", "var": var }));
                }
            }
        }
        json!({ "id": id, "cpu": u32::from(cpu) % s.cpus, "ops": out })
    };
    let tasks: Vec<Value> = s
        .tasks
        .iter()
        .enumerate()
        .map(|(i, (cpu, ops))| ctx(format!("T{i}"), *cpu, ops, &mut free_pool))
        .collect();
    let irqs: Vec<Value> = s
        .irq
        .iter()
        .map(|(cpu, ops)| ctx("I0".into(), *cpu, ops, &mut free_pool))
        .collect();
    json!({
        "schemaVersion": 1,
        "name": "explorer property",
        "cpus": s.cpus,
        "cache": { "objectsPerSlab": 2, "minPartial": 1, "cpuPartial": 2 },
        "variant": variants()[s.variant],
        "setup": setup,
        "tasks": tasks,
        "irqs": irqs
    })
}

fn run(sc: &Value, reduction: bool) -> Report {
    let parsed = scenario::parse(&sc.to_string()).unwrap();
    let bounds = Bounds {
        max_preemptions: Some(2),
        max_migrations: Some(1),
        max_states: 60_000,
        reduction,
        ..Bounds::default()
    };
    explore(&parsed, &bounds, &mut |_| true)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn reduced_and_plain_search_agree(s in spec()) {
        let sc = scenario_json(&s);
        let reduced = run(&sc, true);
        let plain = run(&sc, false);
        let shortest = |r: &Report| r.violations.first().map(|v| v.schedule.len());
        // A search cut short by its state limit without a violation proves nothing.
        let decided = |r: &Report| r.complete || !r.violations.is_empty();
        if decided(&reduced) && decided(&plain) {
            prop_assert_eq!(
                shortest(&reduced),
                shortest(&plain),
                "scenario {}\nreduced: {:?}\nplain: {:?}",
                sc,
                reduced.violations.first(),
                plain.violations.first()
            );
        }
        prop_assert!(reduced.states <= plain.states, "the reduction visited more states");
    }
}

/// Invariants that say an object or a list is actually wrong (not only a snapshot check).
const REAL_FAULTS: &[&str] = &[
    "INV-1", "INV-2", "INV-3", "INV-4", "INV-5", "INV-6", "INV-7", "INV-9", "INV-10", "INV-14",
    "INV-15",
];

#[test]
fn every_broken_controls_counterexample_is_a_real_fault() {
    let controls = [
        (
            "SC2 no-tid",
            with_variant(load("sc02"), json!({"fastpath": "no-tid"})),
        ),
        (
            "SC2 cmpxchg-local",
            with_variant(load("sc02"), json!({"fastpath": "cmpxchg-local"})),
        ),
        (
            "SC2 cmpxchg-local-emulated",
            with_variant(load("sc02"), json!({"fastpath": "cmpxchg-local-emulated"})),
        ),
        ("SC4 tidStep 1", load("sc04")),
        ("SC13 pageAllocFail", load("sc13")),
        ("SC17 tid-unguarded", load("sc17")),
    ];
    for (name, sc) in controls {
        let r = explore(
            &scenario::parse(&sc.to_string()).unwrap(),
            &Bounds::default(),
            &mut |_| true,
        );
        let v = r
            .violations
            .first()
            .unwrap_or_else(|| panic!("{name}: no counterexample found"));
        let mut sim = Simulator::from_json(&sc.to_string(), false).unwrap();
        sim.apply_all(&v.schedule).unwrap();
        sim.run_to_end();
        let out = sim.outcome();
        let found: Vec<&str> = out
            .violations
            .iter()
            .map(|v| v.invariant.as_str())
            .collect();
        assert!(
            found.iter().any(|i| REAL_FAULTS.contains(i)),
            "{name}: the counterexample {} ends in {:?} only: a snapshot mismatch, not a fault",
            v.schedule.join(","),
            found
        );
    }
}
