//! Golden scenarios SC1–SC17 (design.md §4.1, fixture model.md §9), one file each in `tests/scenarios`.
//! Each test reaches the described initial state through the file's `setup`, finds the
//! interleaving the scenario describes by the labels of the contexts' next steps (never by
//! counting steps), and asserts the expected outcome: stat deltas, final ownership and slab
//! states, violations or none. The negative controls and their correct counterparts are
//! swept over schedule prefixes: the broken variant must violate for some schedule, the
//! correct one for none. Every failure prints `slub-lab run FILE --schedule ...` to replay it
//! (a patched variant is written to a file under the target directory first).
//!
//! Run with `cargo test --release -p slub-sim --test golden`.

mod common;

use common::*;
use serde_json::json;
use std::collections::BTreeMap;

const SC1: &str = "sc01_alloc_fastpath_irq_free_retry.json";
const SC2: &str = "sc02_aba_without_tid.json";
const SC3: &str = "sc03_migration_between_tid_and_cas.json";
const SC4: &str = "sc04_stale_tid_collision.json";
const SC5: &str = "sc05_remote_free_into_frozen_slab.json";
const SC6: &str = "sc06_remote_free_makes_full_slab_partial.json";
const SC7: &str = "sc07_free_empties_partial_slab.json";
const SC8: &str = "sc08_concurrent_remote_frees_same_slab.json";
const SC9: &str = "sc09_free_to_empty_races_acquire.json";
const SC10: &str = "sc10_deactivate_races_remote_free.json";
const SC11: &str = "sc11_cpu_partial_drain.json";
const SC12: &str = "sc12_hotplug_flush_dead_cpu.json";
const SC13: &str = "sc13_bypass_oom_leaves_freelist_without_slab.json";
const SC14: &str = "sc14_slab_lock_fallback_contention.json";
const SC15: &str = "sc15_asymmetric_producer_consumer.json";
const SC16: &str = "sc16_node_mismatch.json";
const SC17: &str = "sc17_torn_remote_read_3_1.json";

type R = Result<(), String>;

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn some(s: &str) -> Option<String> {
    Some(s.to_string())
}

fn delta(want: &[(&str, i64)]) -> BTreeMap<String, i64> {
    want.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// The stat counters that changed between `before` and the run's end, restricted to `keys`.
fn delta_of(r: &Run, before: &BTreeMap<String, u64>, keys: &[&str]) -> BTreeMap<String, i64> {
    let d = stat_delta(before, &r.stats());
    keys.iter()
        .filter_map(|k| d.get(*k).map(|v| (k.to_string(), *v)))
        .collect()
}

/// The counters of the allocator's paths; tests compare their deltas exactly.
const PATH_STATS: &[&str] = &[
    "ALLOC_FASTPATH",
    "ALLOC_SLOWPATH",
    "FREE_FASTPATH",
    "FREE_SLOWPATH",
    "FREE_FROZEN",
    "FREE_ADD_PARTIAL",
    "FREE_REMOVE_PARTIAL",
    "ALLOC_FROM_PARTIAL",
    "ALLOC_SLAB",
    "ALLOC_REFILL",
    "ALLOC_NODE_MISMATCH",
    "FREE_SLAB",
    "CPUSLAB_FLUSH",
    "DEACTIVATE_FULL",
    "DEACTIVATE_EMPTY",
    "DEACTIVATE_TO_HEAD",
    "DEACTIVATE_TO_TAIL",
    "DEACTIVATE_REMOTE_FREES",
    "DEACTIVATE_BYPASS",
    "CMPXCHG_DOUBLE_FAIL",
    "CMPXCHG_DOUBLE_CPU_FAIL",
    "CPU_PARTIAL_ALLOC",
    "CPU_PARTIAL_FREE",
    "CPU_PARTIAL_NODE",
    "CPU_PARTIAL_DRAIN",
];

/// Expect exactly these path-stat deltas (every other path counter unchanged).
fn expect_deltas(f: &mut Failures, r: &Run, before: &BTreeMap<String, u64>, want: &[(&str, i64)]) {
    f.eq(
        r,
        "stat deltas",
        delta_of(r, before, PATH_STATS),
        delta(want),
    );
}

// ---------------------------------------------------------------------------------------------
// SC1
// ---------------------------------------------------------------------------------------------

#[test]
fn sc01_alloc_fastpath_irq_free_retry() -> R {
    let case = Case::load(SC1);
    let mut f = Failures::default();

    // The spec's initial state: c0 = {fl [p1,p2], page P}, P frozen, fl NULL, inuse 4.
    let r = case.run();
    f.eq(
        &r,
        "c0 freelist after setup",
        r.cpu(0).freelist,
        names(&["p1", "p2"]),
    );
    f.eq(&r, "c0 page after setup", r.cpu(0).page, some("P"));
    let p = r.slab("P");
    f.eq(
        &r,
        "P after setup (fl, inuse, frozen)",
        (p.freelist, p.inuse, p.frozen),
        (vec![], 4, true),
    );
    f.eq(
        &r,
        "a, y after setup",
        (r.var("a"), r.var("y")),
        (some("p0"), some("p3")),
    );

    // T through A8 (its next step is the A9 CAS), then the irq frees y, then T retries.
    let mut r = case.run_events();
    let before = r.stats();
    let (tid0, step) = (r.cpu(0).tid, r.view().tid_step);
    r.until_label("T", "slab_alloc:A9")?;
    let a8: Vec<Option<String>> = r
        .events_at("T", "slab_alloc:A8")
        .into_iter()
        .map(|e| e.read)
        .collect();
    f.eq(&r, "T's A8 read (nxt)", a8, vec![some("p2")]);
    r.complete("I")?;
    f.eq(
        &r,
        "c0 after the irq's free",
        (r.cpu(0).freelist, r.cpu(0).tid),
        (names(&["p3", "p1", "p2"]), tid0 + step),
    );
    r.finish();
    f.eq(&r, "x", r.var("x"), some("p3"));
    f.eq(
        &r,
        "c0 freelist at the end",
        r.cpu(0).freelist,
        names(&["p1", "p2"]),
    );
    f.eq(&r, "c0 tid at the end", r.cpu(0).tid, tid0 + 2 * step);
    // The first CAS failed: expected (p1, t), found (p3, t + TID_STEP).
    let halves: Vec<Vec<(String, String, String)>> = r
        .events_at("T", "slab_alloc:A9")
        .into_iter()
        .map(|e| {
            e.halves
                .into_iter()
                .map(|h| (h.field, h.expected, h.actual))
                .collect()
        })
        .collect();
    let want_fail = vec![
        ("freelist".to_string(), "p1".to_string(), "p3".to_string()),
        (
            "tid".to_string(),
            tid0.to_string(),
            (tid0 + step).to_string(),
        ),
    ];
    f.eq(
        &r,
        "T's A9 CAS halves (fail, then success)",
        halves,
        vec![want_fail, vec![]],
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("CMPXCHG_DOUBLE_CPU_FAIL", 1),
            ("ALLOC_FASTPATH", 1),
            ("FREE_FASTPATH", 1),
        ],
    );
    f.no_violation(&r);

    // Every point at which the irq can come: never a violation; T's CAS fails at least once.
    let sweep = Sweep::new_logged(&case, prefix_plans("T", 40, &[Seg::ToEnd("I")]));
    for v in sweep.violating(3) {
        f.push(format!("SC1 sweep: {v}"));
    }
    f.check(
        sweep
            .runs
            .iter()
            .any(|r| r.stat("CMPXCHG_DOUBLE_CPU_FAIL") > before["CMPXCHG_DOUBLE_CPU_FAIL"]),
        || {
            format!(
                "SC1 sweep: no schedule made T's CAS fail ({})",
                sweep.summary()
            )
        },
    );
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC2 (negative control)
// ---------------------------------------------------------------------------------------------

/// The label of T's fast-path CAS in each fast-path flavour.
fn cas_label(fastpath: &str) -> &'static str {
    match fastpath {
        "cmpxchg-local" => "slab_alloc:L5",
        _ => "slab_alloc:A9",
    }
}

#[test]
fn sc02_aba_without_tid() -> R {
    let base = Case::load(SC2);
    let mut f = Failures::default();

    let r = base.run();
    f.eq(
        &r,
        "c0 freelist after setup",
        r.cpu(0).freelist,
        names(&["p0", "p1", "p2"]),
    );
    f.eq(&r, "h3 after setup", r.var("h3"), some("p3"));

    // Directed: T reads (p0, nxt p1) and stops in front of its CAS; the irq allocates p0 and
    // p1 and frees p0; T's CAS.
    for fp in ["no-tid", "cmpxchg-local"] {
        let case = base.clone().with_variant("fastpath", json!(fp));
        let mut r = case.run();
        r.until_label("T", cas_label(fp))?;
        r.complete("I")?;
        f.eq(
            &r,
            "irq's objects",
            (r.var("i1"), r.var("i2")),
            (some("p0"), some("p1")),
        );
        r.finish();
        let inv = r.invariants();
        f.check(inv.iter().any(|i| i == "INV-12") && inv.iter().any(|i| i == "INV-1"), || {
            format!("SC2 {}: the CAS must succeed wrongly (INV-12, then INV-1); violations {:?}\n  replay: {}\n{}", case.name(), r.violations(), r.replay(), r.describe())
        });
        f.eq(&r, "x (the stale head)", r.var("x"), some("p0"));
        f.eq(
            &r,
            "x2 (handed out twice: i2 holds it)",
            r.var("x2"),
            some("p1"),
        );
    }
    {
        let mut r = base.run();
        let before = r.stats();
        r.until_label("T", "slab_alloc:A9")?;
        r.complete("I")?;
        r.finish();
        f.no_violation(&r);
        f.eq(&r, "x", r.var("x"), some("p0"));
        f.eq(
            &r,
            "CPU_FAIL delta",
            r.stat("CMPXCHG_DOUBLE_CPU_FAIL") - before["CMPXCHG_DOUBLE_CPU_FAIL"],
            1,
        );
    }

    // Sweep: the irq enters after every prefix of T's steps.
    let plans = || prefix_plans("T", 80, &[Seg::ToEnd("I")]);
    for fp in ["no-tid", "cmpxchg-local"] {
        let case = base.clone().with_variant("fastpath", json!(fp));
        let sweep = Sweep::new_logged(&case, plans());
        f.check(sweep.find_violation(Some("INV-12")).is_some(), || {
            format!(
                "SC2: the broken variant never violated INV-12 ({})",
                sweep.summary()
            )
        });
        f.check(sweep.find_violation(Some("INV-1")).is_some(), || {
            format!(
                "SC2: the broken variant never violated INV-1 ({})",
                sweep.summary()
            )
        });
    }
    for case in [
        base.clone(),
        base.clone().with_variant("fastpath", json!("tid-loop")),
        base.clone().with_variant("era", json!("v6.8")),
    ] {
        let sweep = Sweep::new_logged(&case, plans());
        f.check(sweep.runs.len() > 10, || {
            format!("SC2: too few feasible schedules ({})", sweep.summary())
        });
        for v in sweep.violating(3) {
            f.push(format!("SC2 correct variant violated: {v}"));
        }
    }
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC3
// ---------------------------------------------------------------------------------------------

#[test]
fn sc03_migration_between_tid_and_cas() -> R {
    let case = Case::load(SC3);
    let mut f = Failures::default();

    let r = case.run();
    f.eq(
        &r,
        "c0 after setup",
        (r.cpu(0).freelist, r.cpu(0).page),
        (names(&["p1", "p2", "p3"]), some("P")),
    );
    f.eq(
        &r,
        "c1 after setup",
        (r.cpu(1).freelist, r.cpu(1).page),
        (names(&["q1", "q2", "q3"]), some("Q")),
    );

    // T reads cpu0's tid, obj p1 and nxt p2; U preempts it; T migrates; its CAS acts on c1.
    let mut r = case.run_events();
    let before = r.stats();
    r.until_label("T", "slab_alloc:A9")?;
    r.mv("U")?;
    r.mv("migrate:T:1")?;
    r.mv("T")?;
    let cas: Vec<(u32, Option<bool>)> = r
        .events_at("T", "slab_alloc:A9")
        .into_iter()
        .map(|e| (e.cpu, e.ok))
        .collect();
    f.eq(&r, "T's CAS (cpu, ok)", cas, vec![(1, Some(false))]);
    f.eq(
        &r,
        "T's CAS on cpu1 failed (CPU_FAIL delta)",
        r.stat("CMPXCHG_DOUBLE_CPU_FAIL") - before["CMPXCHG_DOUBLE_CPU_FAIL"],
        1,
    );
    r.finish();
    f.eq(&r, "x (retried on cpu1)", r.var("x"), some("q1"));
    f.eq(
        &r,
        "u (cpu0's head, untouched by T)",
        r.var("u"),
        some("p1"),
    );
    f.eq(&r, "c1 freelist", r.cpu(1).freelist, names(&["q2", "q3"]));
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[("CMPXCHG_DOUBLE_CPU_FAIL", 1), ("ALLOC_FASTPATH", 2)],
    );
    f.no_violation(&r);

    // Sweep: U preempts T after every prefix, T migrates: never a violation.
    let sweep = Sweep::new_logged(
        &case,
        prefix_plans("T", 40, &[Seg::Move("U"), Seg::Move("migrate:T:1")]),
    );
    f.check(sweep.runs.len() > 3, || {
        format!("SC3: too few feasible schedules ({})", sweep.summary())
    });
    for v in sweep.violating(3) {
        f.push(format!("SC3 sweep: {v}"));
    }

    // preempt = none: no point of T's run lets U preempt it or T migrate.
    let none = case.clone().with_variant("preempt", json!("none"));
    let mut r = none.run();
    let mut points = 0;
    while !r.finished("T") {
        for mv in ["migrate:T:1", "U"] {
            f.check(!r.enabled(mv), || {
                format!(
                    "SC3 {}: `{mv}` is enabled at {:?}\n  replay: {}",
                    none.name(),
                    r.label("T"),
                    r.replay()
                )
            });
            f.check(!r.try_move(mv), || {
                format!("SC3 {}: `{mv}` was applied", none.name())
            });
        }
        r.mv("T")?;
        points += 1;
    }
    f.check(points > 8, || {
        format!("SC3 {}: T took only {points} steps", none.name())
    });
    r.finish();
    f.no_violation(&r);
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC4 (negative control)
// ---------------------------------------------------------------------------------------------

/// T stalls after `n` steps; U flushes cpu0; B takes P on cpu1 and runs `m` steps; T
/// migrates to cpu1 and runs to the end.
fn sc4_plans() -> Vec<Plan> {
    let mut plans = Vec::new();
    for n in 0..16 {
        for m in 0..70 {
            plans.push(vec![
                Seg::Steps("T", n),
                Seg::ToEnd("U"),
                Seg::Steps("B", m),
                Seg::Move("migrate:T:1"),
                Seg::ToEnd("T"),
            ]);
        }
    }
    plans
}

#[test]
fn sc04_stale_tid_collision() -> R {
    let broken = Case::load(SC4);
    let good = broken.clone().without_variant("tidStep");
    let mut f = Failures::default();

    let r = broken.run();
    f.eq(&r, "TID_STEP forced", r.view().tid_step, 1);
    f.eq(
        &r,
        "c0 after setup",
        (r.cpu(0).freelist, r.cpu(0).page),
        (names(&["p1", "p2", "p3"]), some("P")),
    );
    f.eq(
        &good.run(),
        "derived TID_STEP",
        good.run().view().tid_step,
        2,
    );

    // Directed: T snapshots (p1, t) and nxt p2 in front of its CAS; cpu0 flushes P; B takes P
    // on cpu1 and allocates until c1's head is p1 (p1.fp now NULL) with c1.tid = t; T
    // migrates and its CAS succeeds with the stale nxt.
    let t = broken.run().cpu(0).tid;
    let directed: Vec<Plan> = (0..80)
        .map(|m| {
            vec![
                Seg::Until("T", "slab_alloc:A9"),
                Seg::ToEnd("U"),
                Seg::Steps("B", m),
                Seg::Move("migrate:T:1"),
                Seg::ToEnd("T"),
            ]
        })
        .collect();
    let sweep = Sweep::new_logged(&broken, directed);
    match sweep.find_violation(Some("INV-12")) {
        Some(r) => {
            f.eq(
                r,
                "x (T's stale head, taken on cpu1)",
                r.var("x"),
                some("p1"),
            );
            f.check(
                r.invariants().iter().any(|i| i == "INV-1" || i == "INV-2"),
                || {
                    format!(
                        "SC4: INV-12 without INV-1/INV-2: {:?}\n  replay: {}",
                        r.violations(),
                        r.replay()
                    )
                },
            );
        }
        None => f.push(format!(
            "SC4 directed: T's stale CAS (snapshot tid {t}) never succeeded on cpu1 ({})",
            sweep.summary()
        )),
    }

    // Sweep.
    let sweep = Sweep::new_logged(&broken, sc4_plans());
    f.check(sweep.find_violation(Some("INV-12")).is_some(), || {
        format!("SC4: TID_STEP 1 never gave INV-12 ({})", sweep.summary())
    });
    let sweep = Sweep::new_logged(&good, sc4_plans());
    f.check(sweep.runs.len() > 20, || {
        format!("SC4: too few feasible schedules ({})", sweep.summary())
    });
    for v in sweep.violating(3) {
        f.push(format!("SC4 derived TID_STEP violated: {v}"));
    }
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC5
// ---------------------------------------------------------------------------------------------

#[test]
fn sc05_remote_free_into_frozen_slab() -> R {
    let case = Case::load(SC5);
    let mut f = Failures::default();

    let r = case.run();
    f.eq(
        &r,
        "c0 after setup",
        (r.cpu(0).freelist, r.cpu(0).page),
        (names(&["p2", "p3"]), some("P")),
    );
    let p = r.slab("P");
    f.eq(
        &r,
        "P after setup (fl, inuse, frozen)",
        (p.freelist, p.inuse, p.frozen),
        (vec![], 4, true),
    );

    let mut r = case.run_events();
    let before = r.stats();
    r.complete("B")?;
    let p = r.slab("P");
    f.eq(
        &r,
        "P after B's free (fl, inuse, frozen)",
        (p.freelist, p.inuse, p.frozen),
        (names(&["p0"]), 3, true),
    );
    f.eq(&r, "B took list_lock", r.list_locks("B"), 0);
    r.complete("T")?;
    r.finish();
    f.eq(
        &r,
        "x1, x2, x3",
        (r.var("x1"), r.var("x2"), r.var("x3")),
        (some("p2"), some("p3"), some("p0")),
    );
    let p = r.slab("P");
    f.eq(
        &r,
        "P at the end (fl, inuse, frozen, owner)",
        (p.freelist, p.inuse, p.frozen, p.owner.to_string()),
        (vec![], 4, true, "cpu0".to_string()),
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("FREE_SLOWPATH", 1),
            ("FREE_FROZEN", 1),
            ("ALLOC_FASTPATH", 2),
            ("ALLOC_SLOWPATH", 1),
            ("ALLOC_REFILL", 1),
        ],
    );
    f.no_violation(&r);

    let sweep = Sweep::new_logged(&case, prefix_plans("T", 60, &[Seg::ToEnd("B")]));
    for v in sweep.violating(3) {
        f.push(format!("SC5 sweep: {v}"));
    }
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC6
// ---------------------------------------------------------------------------------------------

#[test]
fn sc06_remote_free_makes_full_slab_partial() -> R {
    let base = Case::load(SC6);
    let mut f = Failures::default();

    let r = base.run();
    let q = r.slab("Q");
    f.eq(
        &r,
        "Q after setup (fl, inuse, frozen, owner)",
        (q.freelist, q.inuse, q.frozen, q.owner.to_string()),
        (vec![], 4, false, "full".to_string()),
    );
    f.eq(&r, "c1's slab after setup", r.cpu(1).page, some("P"));
    f.eq(&r, "q1", r.var("q1"), some("q1"));
    f.check(r.stat("DEACTIVATE_FULL") == 1, || {
        format!("SC6 setup: DEACTIVATE_FULL = {}", r.stat("DEACTIVATE_FULL"))
    });

    // (a) default: B freezes Q and puts it on c1's partial list without list_lock.
    let mut r = base.run_events();
    let before = r.stats();
    r.complete("B")?;
    r.finish();
    let q = r.slab("Q");
    f.eq(
        &r,
        "(a) Q (fl, inuse, frozen, owner)",
        (q.freelist, q.inuse, q.frozen, q.owner.to_string()),
        (names(&["q1"]), 3, true, "cpu1-partial".to_string()),
    );
    f.eq(&r, "(a) c1.partial", r.cpu(1).partial, names(&["Q"]));
    f.eq(&r, "(a) list_lock taken by B", r.list_locks("B"), 0);
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[("FREE_SLOWPATH", 1), ("CPU_PARTIAL_FREE", 1)],
    );
    f.no_violation(&r);

    // (b) no CPU partial lists: list_lock, add_partial at the tail.
    let case = base.clone().with_variant("cpuPartial", json!(false));
    let mut r = case.run_events();
    let before = r.stats();
    r.complete("B")?;
    r.finish();
    let q = r.slab("Q");
    f.eq(
        &r,
        "(b) Q (fl, inuse, frozen, owner)",
        (q.freelist, q.inuse, q.frozen, q.owner.to_string()),
        (names(&["q1"]), 3, false, "node0-partial".to_string()),
    );
    f.eq(&r, "(b) list_lock taken by B", r.list_locks("B"), 1);
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[("FREE_SLOWPATH", 1), ("FREE_ADD_PARTIAL", 1)],
    );
    f.no_violation(&r);

    // (c) 6.8+ unfrozen CPU partial slabs.
    let case = base.clone().with_variant("cpuPartialFrozen", json!(false));
    let mut r = case.run_events();
    let before = r.stats();
    r.complete("B")?;
    r.finish();
    let q = r.slab("Q");
    f.eq(
        &r,
        "(c) Q (fl, inuse, frozen, owner)",
        (q.freelist, q.inuse, q.frozen, q.owner.to_string()),
        (names(&["q1"]), 3, false, "cpu1-partial".to_string()),
    );
    f.eq(&r, "(c) c1.partial", r.cpu(1).partial, names(&["Q"]));
    f.eq(&r, "(c) list_lock taken by B", r.list_locks("B"), 0);
    f.check(
        r.labels_of("B")
            .iter()
            .any(|l| l.starts_with("put_cpu_partial:")),
        || {
            format!(
                "SC6 (c): B never ran put_cpu_partial: {:?}",
                r.labels_of("B")
            )
        },
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[("FREE_SLOWPATH", 1), ("CPU_PARTIAL_FREE", 1)],
    );
    f.no_violation(&r);
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC7
// ---------------------------------------------------------------------------------------------

#[test]
fn sc07_free_empties_partial_slab() -> R {
    let base = Case::load(SC7);
    let mut f = Failures::default();

    let r = base.run();
    let rs = r.slab("R");
    f.eq(
        &r,
        "R after setup (fl len, inuse, frozen, owner)",
        (rs.freelist.len(), rs.inuse, rs.frozen, rs.owner.to_string()),
        (3, 1, false, "node0-partial".to_string()),
    );
    f.eq(&r, "nr_partial after setup", r.node(0).nr_partial, 2);
    f.eq(&r, "r0", r.var("r0"), some("r0"));

    // nr_partial 2 > min_partial 1: R is removed and discarded.
    let mut r = base.run_events();
    let before = r.stats();
    r.complete("B")?;
    r.finish();
    f.eq(
        &r,
        "R owner",
        r.slab("R").owner.to_string(),
        "discarded".to_string(),
    );
    f.eq(
        &r,
        "node partial",
        (r.node(0).partial, r.node(0).nr_partial),
        (names(&["P"]), 1),
    );
    f.eq(&r, "list_lock taken by B", r.list_locks("B"), 1);
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("FREE_SLOWPATH", 1),
            ("FREE_REMOVE_PARTIAL", 1),
            ("FREE_SLAB", 1),
        ],
    );
    f.no_violation(&r);

    // nr_partial 1 (the other partial slab never made), discard = gt: R stays, empty.
    let one = base.clone().drop_last_setup(2);
    let r0 = one.run();
    f.eq(
        &r0,
        "nr_partial without the other slab",
        r0.node(0).nr_partial,
        1,
    );
    let mut r = one.run();
    let before = r.stats();
    r.complete("B")?;
    r.finish();
    let rs = r.slab("R");
    f.eq(
        &r,
        "(gt) R (fl len, inuse, frozen, owner)",
        (rs.freelist.len(), rs.inuse, rs.frozen, rs.owner.to_string()),
        (4, 0, false, "node0-partial".to_string()),
    );
    expect_deltas(&mut f, &r, &before, &[("FREE_SLOWPATH", 1)]);
    f.no_violation(&r);

    // nr_partial 1 with discard = ge (4.0+): 1 >= 1, discarded.
    let ge = one.clone().with_variant("discard", json!("ge"));
    let mut r = ge.run();
    let before = r.stats();
    r.complete("B")?;
    r.finish();
    f.eq(
        &r,
        "(ge) R owner",
        r.slab("R").owner.to_string(),
        "discarded".to_string(),
    );
    f.eq(&r, "(ge) nr_partial", r.node(0).nr_partial, 0);
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("FREE_SLOWPATH", 1),
            ("FREE_REMOVE_PARTIAL", 1),
            ("FREE_SLAB", 1),
        ],
    );
    f.no_violation(&r);
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC8 and SC14
// ---------------------------------------------------------------------------------------------

fn check_sc8_setup(f: &mut Failures, r: &Run) {
    let rs = r.slab("R");
    f.eq(
        r,
        "R after setup (fl, inuse, frozen, owner)",
        (rs.freelist, rs.inuse, rs.frozen, rs.owner.to_string()),
        (names(&["r2"]), 3, false, "node0-partial".to_string()),
    );
    f.eq(r, "c0's slab after setup", r.cpu(0).page, some("P"));
    f.eq(
        r,
        "r0, r1, r3",
        (r.var("r0"), r.var("r1"), r.var("r3")),
        (some("r0"), some("r1"), some("r3")),
    );
}

fn check_sc8_end(f: &mut Failures, r: &Run, before: &BTreeMap<String, u64>) {
    let rs = r.slab("R");
    // The spec writes the final list as [r1, r0, r2, r3] with inuse 1; with r3 still held
    // (inuse 3 at the start) the list is [r1, r0, r2].
    f.eq(
        r,
        "R at the end (fl, inuse, frozen, owner)",
        (rs.freelist, rs.inuse, rs.frozen, rs.owner.to_string()),
        (
            names(&["r1", "r0", "r2"]),
            1,
            false,
            "node0-partial".to_string(),
        ),
    );
    expect_deltas(
        f,
        r,
        before,
        &[("FREE_SLOWPATH", 2), ("CMPXCHG_DOUBLE_FAIL", 1)],
    );
    f.no_violation(r);
}

#[test]
fn sc08_concurrent_remote_frees_same_slab() -> R {
    let case = Case::load(SC8);
    let mut f = Failures::default();
    check_sc8_setup(&mut f, &case.run());

    // Both read (prior r2, inuse 3); B's CAS first; C's fails and is redone.
    let mut r = case.run();
    let before = r.stats();
    r.until_label("C", "__slab_free:S5")?;
    r.until_label("B", "__slab_free:S5")?;
    r.complete("B")?;
    r.complete("C")?;
    r.finish();
    check_sc8_end(&mut f, &r, &before);

    // Every point at which B runs: no violation, R ends with inuse 1 and three free objects.
    let sweep = Sweep::new_logged(&case, prefix_plans("C", 40, &[Seg::ToEnd("B")]));
    for v in sweep.violating(3) {
        f.push(format!("SC8 sweep: {v}"));
    }
    for r in &sweep.runs {
        let rs = r.slab("R");
        let mut fl = rs.freelist.clone();
        fl.sort();
        f.eq(
            r,
            "R (sorted fl, inuse)",
            (fl, rs.inuse),
            (names(&["r0", "r1", "r2"]), 1),
        );
    }
    f.done();
    Ok(())
}

#[test]
fn sc14_slab_lock_fallback_contention() -> R {
    let case = Case::load(SC14);
    let mut f = Failures::default();
    check_sc8_setup(&mut f, &case.run());

    // C about to take R's slab_lock; B takes it (its next step is the compare); C spins.
    let mut r = case.run();
    let before = r.stats();
    r.until_label("C", "cmpxchg_double_slab:X2")?;
    r.until_label("B", "cmpxchg_double_slab:X3")?;
    f.check(r.slab("R").slab_locked, || {
        format!(
            "SC14: R's slab_lock is not held by B\n  replay: {}",
            r.replay()
        )
    });
    f.check(!r.enabled("C"), || {
        format!(
            "SC14: C can take R's slab_lock while B holds it\n  replay: {}",
            r.replay()
        )
    });
    f.eq(
        &r,
        "C's state while B holds the lock",
        r.state("C"),
        "blocked".to_string(),
    );
    r.complete("B")?;
    r.complete("C")?;
    r.finish();
    check_sc8_end(&mut f, &r, &before);

    let sweep = Sweep::new_logged(&case, prefix_plans("C", 60, &[Seg::WhileEnabled("B")]));
    for v in sweep.violating(3) {
        f.push(format!("SC14 sweep: {v}"));
    }
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC9
// ---------------------------------------------------------------------------------------------

#[test]
fn sc09_free_to_empty_races_acquire() -> R {
    let case = Case::load(SC9);
    let mut f = Failures::default();

    let r = case.run();
    let rs = r.slab("R");
    f.eq(
        &r,
        "R after setup (fl len, inuse, owner)",
        (rs.freelist.len(), rs.inuse, rs.owner.to_string()),
        (3, 1, "node0-partial".to_string()),
    );
    f.eq(
        &r,
        "node partial after setup",
        (r.node(0).partial, r.node(0).nr_partial),
        (names(&["R", "P"]), 2),
    );

    // T holds list_lock and is about to acquire R; B must wait at S4.
    let mut r = case.run_events();
    let before = r.stats();
    r.until_label("T", "acquire_slab:Q1")?;
    f.eq(&r, "list_lock holder", r.node(0).list_lock, some("T"));
    r.while_enabled("B");
    f.eq(
        &r,
        "B waits for list_lock at",
        (r.label("B"), r.state("B")),
        (some("__slab_free:S4"), "blocked".to_string()),
    );
    r.complete("T")?;
    r.complete("B")?;
    // B took list_lock once (S4, for nothing: its CAS failed); its retry needs no lock.
    f.eq(&r, "list_lock acquisitions by B", r.list_locks("B"), 1);
    r.finish();
    let rs = r.slab("R");
    f.eq(
        &r,
        "R at the end (fl, frozen, owner)",
        (rs.freelist, rs.frozen, rs.owner.to_string()),
        (names(&["r0"]), true, "cpu0".to_string()),
    );
    f.eq(&r, "c0's slab", r.cpu(0).page, some("R"));
    f.eq(
        &r,
        "x",
        r.var("x"),
        r.slab("R")
            .objects
            .iter()
            .find(|o| o.owner == "user:x")
            .map(|o| o.name.clone()),
    );
    // No ALLOC_SLOWPATH: with c.page NULL the 3.10 slow path goes to new_slab before B6.
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("CMPXCHG_DOUBLE_FAIL", 1),
            ("FREE_SLOWPATH", 1),
            ("FREE_FROZEN", 1),
            ("ALLOC_FROM_PARTIAL", 1),
        ],
    );
    f.no_violation(&r);

    // Both orders, every prefix: no violation.
    let mut plans = prefix_plans("T", 60, &[Seg::WhileEnabled("B")]);
    plans.extend(prefix_plans("B", 30, &[Seg::WhileEnabled("T")]));
    let sweep = Sweep::new_logged(&case, plans);
    for v in sweep.violating(3) {
        f.push(format!("SC9 sweep: {v}"));
    }
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC10
// ---------------------------------------------------------------------------------------------

#[test]
fn sc10_deactivate_races_remote_free() -> R {
    let case = Case::load(SC10);
    let mut f = Failures::default();

    let r = case.run();
    f.eq(
        &r,
        "c0 after setup",
        (r.cpu(0).freelist, r.cpu(0).page),
        (names(&["p3"]), some("P")),
    );

    // T chose PARTIAL, holds list_lock and put P on the list while frozen; B's free; T's D8.
    let mut r = case.run();
    let before = r.stats();
    r.until_label("T", "deactivate_slab:D8")?;
    f.eq(
        &r,
        "P before D8 (frozen, on the list)",
        (r.slab("P").frozen, r.node(0).partial),
        (true, names(&["P"])),
    );
    f.no_violation(&r);
    r.complete("B")?;
    r.complete("T")?;
    r.finish();
    let p = r.slab("P");
    f.eq(
        &r,
        "P at the end (fl, inuse, frozen, owner)",
        (p.freelist, p.inuse, p.frozen, p.owner.to_string()),
        (names(&["p3", "p0"]), 2, false, "node0-partial".to_string()),
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("CPUSLAB_FLUSH", 1),
            ("DEACTIVATE_TO_HEAD", 1),
            ("CMPXCHG_DOUBLE_FAIL", 1),
            ("FREE_SLOWPATH", 1),
            ("FREE_FROZEN", 1),
        ],
    );
    f.no_violation(&r);

    let sweep = Sweep::new_logged(&case, prefix_plans("T", 40, &[Seg::ToEnd("B")]));
    for v in sweep.violating(3) {
        f.push(format!("SC10 sweep: {v}"));
    }
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC11
// ---------------------------------------------------------------------------------------------

#[test]
fn sc11_cpu_partial_drain() -> R {
    let case = Case::load(SC11);
    let mut f = Failures::default();

    // With 4 objects per slab each free into a full slab adds 1 to pobjects, so the chain that
    // exceeds cpu_partial 2 holds three slabs: [Q, P, S] (the spec's [Q, S] with pobjects 3).
    let r = case.run();
    f.eq(
        &r,
        "c1.partial after setup",
        r.cpu(1).partial,
        names(&["Q", "P", "S"]),
    );
    let rs = r.slab("R");
    f.eq(
        &r,
        "R after setup (frozen, owner)",
        (rs.frozen, rs.owner.to_string()),
        (false, "full".to_string()),
    );

    let mut r = case.run_events();
    let before = r.stats();
    r.complete("B")?;
    r.finish();
    f.eq(&r, "c1.partial at the end", r.cpu(1).partial, names(&["R"]));
    f.eq(&r, "R frozen", r.slab("R").frozen, true);
    for s in ["Q", "P", "S"] {
        let sl = r.slab(s);
        f.eq(
            &r,
            &format!("{s} (frozen, owner)"),
            (sl.frozen, sl.owner.to_string()),
            (false, "node0-partial".to_string()),
        );
    }
    f.eq(
        &r,
        "list_lock acquisitions by B (one for the whole drain)",
        r.list_locks("B"),
        1,
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("FREE_SLOWPATH", 1),
            ("CPU_PARTIAL_DRAIN", 1),
            ("FREE_ADD_PARTIAL", 3),
            ("CPU_PARTIAL_FREE", 1),
        ],
    );
    f.no_violation(&r);
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC12
// ---------------------------------------------------------------------------------------------

#[test]
fn sc12_hotplug_flush_dead_cpu() -> R {
    let case = Case::load(SC12);
    let mut f = Failures::default();

    let r = case.run();
    let c1 = r.cpu(1);
    f.eq(
        &r,
        "c1 after setup",
        (c1.freelist, c1.page, c1.partial),
        (names(&["q2"]), some("Q"), names(&["S"])),
    );

    let mut r = case.run();
    let before = r.stats();
    let tid1 = r.cpu(1).tid;
    r.complete("T")?;
    r.finish();
    let c1 = r.cpu(1);
    f.eq(
        &r,
        "c1 at the end",
        (c1.freelist, c1.page, c1.partial),
        (vec![], None, vec![]),
    );
    f.eq(
        &r,
        "c1.tid advanced by TID_STEP",
        c1.tid,
        tid1 + r.view().tid_step,
    );
    for s in ["Q", "S"] {
        let sl = r.slab(s);
        f.eq(
            &r,
            &format!("{s} (frozen, owner)"),
            (sl.frozen, sl.owner.to_string()),
            (false, "node0-partial".to_string()),
        );
    }
    // Q by deactivate_slab (no remote frees: to the head), S by unfreeze_partials.
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("CPUSLAB_FLUSH", 1),
            ("DEACTIVATE_TO_HEAD", 1),
            ("FREE_ADD_PARTIAL", 1),
        ],
    );
    f.no_violation(&r);
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC13 (negative control)
// ---------------------------------------------------------------------------------------------

#[test]
fn sc13_bypass_oom_leaves_freelist_without_slab() -> R {
    let broken = Case::load(SC13);
    let good = broken.clone().with_variant("slowpath", json!("local-lock"));
    let mut f = Failures::default();

    let r = broken.run();
    f.eq(
        &r,
        "c0 after setup",
        (r.cpu(0).freelist, r.cpu(0).page),
        (vec![], some("P")),
    );

    // F snapshots (page P, freelist NULL, tid t) and stops in front of its CAS; G's slow path
    // bypasses P and fails to get a page; F's CAS.
    let mut r = broken.run();
    r.until_label("F", "slab_free:F8")?;
    r.complete("G")?;
    f.eq(&r, "g (page allocation failed)", r.var("g"), None);
    f.eq(
        &r,
        "c0 after G",
        (r.cpu(0).freelist, r.cpu(0).page),
        (vec![], None),
    );
    r.complete("F")?;
    r.finish();
    let inv = r.invariants();
    f.check(inv.iter().any(|i| i == "INV-4" || i == "INV-2"), || {
        format!(
            "SC13 canonical 3.10: no INV-4/INV-2 ({:?})\n  replay: {}\n{}",
            r.violations(),
            r.replay(),
            r.describe()
        )
    });

    // Sweep: F stops after n steps, G runs m steps (or to its end), F finishes.
    let plans = || {
        let mut p = prefix_plans("F", 14, &[Seg::ToEnd("G")]);
        for n in 0..14 {
            for m in 0..40 {
                p.push(vec![
                    Seg::Steps("F", n),
                    Seg::Steps("G", m),
                    Seg::ToEnd("F"),
                ]);
            }
        }
        p
    };
    let sweep = Sweep::new_logged(&broken, plans());
    f.check(
        sweep.find_violation(Some("INV-4")).is_some()
            || sweep.find_violation(Some("INV-2")).is_some(),
        || {
            format!(
                "SC13: canonical 3.10 never violated INV-4/INV-2 ({})",
                sweep.summary()
            )
        },
    );
    // The 5.15+ slow path bumps tid on the bypass exit: no schedule breaks it, whether the
    // page allocator fails or F runs while G sleeps in it.
    for case in [
        good.clone(),
        good.clone().with_cache("pageAllocFail", json!(false)),
    ] {
        let sweep = Sweep::new_logged(&case, plans());
        f.check(sweep.runs.len() > 20, || {
            format!("SC13: too few feasible schedules ({})", sweep.summary())
        });
        for v in sweep.violating(3) {
            f.push(format!("SC13 local-lock violated: {v}"));
        }
    }
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC15
// ---------------------------------------------------------------------------------------------

/// Producer/consumer: T allocates one object, then U touches and frees what it can.
fn sc15_run(case: &Case) -> Result<Run, String> {
    let mut r = case.run_events();
    while !r.finished("T") {
        let before = r.view().vars.iter().filter(|v| v.object.is_some()).count();
        while r.view().vars.iter().filter(|v| v.object.is_some()).count() == before
            && !r.finished("T")
        {
            r.mv("T")?;
        }
        r.while_enabled("U");
    }
    r.finish();
    Ok(r)
}

#[test]
fn sc15_asymmetric_producer_consumer() -> R {
    let base = Case::load(SC15);
    let mut f = Failures::default();
    let mut stats = Vec::new();
    let mut a8 = Vec::new();
    for pf in [json!(false), json!(true), json!("w")] {
        let case = base.clone().with_variant("prefetch", pf.clone());
        let r = sc15_run(&case)?;
        f.no_violation(&r);
        f.check(r.outcome().finished, || {
            format!("SC15 {}: did not finish", case.name())
        });
        let allocs = 8u64;
        let cycles0 = r.outcome().cycles.per_cpu[0];
        let stall: u64 = r
            .sim
            .events()
            .iter()
            .filter(|e| e.label == "slab_alloc:A8")
            .map(|e| e.cycles)
            .sum();
        println!(
            "SC15 prefetch={pf}: cpu0 {} cycles per alloc, A8 stalls {stall} cycles",
            cycles0 / allocs
        );
        stats.push((pf, delta_of(&r, &BTreeMap::new(), PATH_STATS)));
        a8.push(stall);
    }
    for (pf, s) in &stats[1..] {
        f.check(*s == stats[0].1, || {
            format!(
                "SC15: stats with prefetch={pf} differ from prefetch=false: {s:?} vs {:?}",
                stats[0].1
            )
        });
    }
    f.check(a8[1] < a8[0], || {
        format!(
            "SC15: prefetch did not reduce the A8 stalls: {} (on) vs {} (off)",
            a8[1], a8[0]
        )
    });
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC16
// ---------------------------------------------------------------------------------------------

#[test]
fn sc16_node_mismatch() -> R {
    let base = Case::load(SC16);
    let mut f = Failures::default();

    let r = base.run();
    f.eq(&r, "c0's slab after setup", r.cpu(0).page, some("P"));
    f.eq(&r, "cpu1's node", r.cpu(1).node, 1);
    f.eq(
        &r,
        "node1 partial after setup",
        r.node(1).partial,
        names(&["Q"]),
    );

    // Node 1 has a partial slab: get_partial(node 1).
    let mut r = base.run();
    let before = r.stats();
    r.complete("T")?;
    r.finish();
    f.eq(
        &r,
        "x's slab",
        r.var("x").map(|x| x[..1].to_string()),
        some("q"),
    );
    f.eq(&r, "c0's slab", r.cpu(0).page, some("Q"));
    f.eq(
        &r,
        "P (frozen, owner)",
        (r.slab("P").frozen, r.slab("P").owner.to_string()),
        (false, "node0-partial".to_string()),
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("ALLOC_NODE_MISMATCH", 1),
            ("DEACTIVATE_TO_HEAD", 1),
            ("ALLOC_FROM_PARTIAL", 1),
        ],
    );
    f.no_violation(&r);

    // Node 1 has nothing: a new slab on node 1.
    let empty = base.clone().drop_setup(&[1, 2]);
    let mut r = empty.run();
    let before = r.stats();
    r.complete("T")?;
    r.finish();
    let x = r.var("x").unwrap_or_default();
    let slab = r
        .view()
        .slabs
        .into_iter()
        .find(|s| s.objects.iter().any(|o| o.name == x));
    f.eq(&r, "x's slab node", slab.map(|s| s.node), Some(1));
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("ALLOC_NODE_MISMATCH", 1),
            ("DEACTIVATE_TO_HEAD", 1),
            ("ALLOC_SLAB", 1),
        ],
    );
    f.no_violation(&r);
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SC17 (negative control)
// ---------------------------------------------------------------------------------------------

/// F computes c (cpu0) in `a` steps; U starts cpu0's flush (`b` steps); F migrates to cpu1
/// and reads cpu0's fields remotely (`c` steps); U completes the flush; V preempts F on
/// cpu1; F migrates back and finishes.
fn sc17_plans() -> Vec<Plan> {
    let mut plans = Vec::new();
    for a in 0..6 {
        for b in 0..14 {
            for c in 0..10 {
                plans.push(vec![
                    Seg::Steps("F", a),
                    Seg::Steps("U", b),
                    Seg::Move("migrate:F:1"),
                    Seg::Steps("F", c),
                    Seg::ToEnd("U"),
                    Seg::Steps("V", 1),
                    Seg::Move("migrate:F:0"),
                    Seg::ToEnd("F"),
                ]);
            }
        }
    }
    plans
}

#[test]
fn sc17_torn_remote_read_3_1() -> R {
    let broken = Case::load(SC17);
    let mut f = Failures::default();

    // Directed: F computed c0; U's 3.1 flush bumps tid (next: clear c0.page); F, on cpu1,
    // reads the new tid, page P and freelist NULL; U finishes; F migrates back; its CAS.
    let mut r = broken.run();
    r.until_label("F", "slab_free:F3")?;
    r.until_label("U", "flush_slab:T3")?;
    r.mv("migrate:F:1")?;
    r.until_label("F", "slab_free:F8")?;
    r.complete("U")?;
    r.mv("V")?;
    r.mv("migrate:F:0")?;
    r.complete("F")?;
    r.finish();
    f.check(r.invariants().iter().any(|i| i == "INV-12"), || {
        format!(
            "SC17 directed: no INV-12 ({:?})\n  replay: {}\n{}",
            r.violations(),
            r.replay(),
            r.describe()
        )
    });

    let sweep = Sweep::new_logged(&broken, sc17_plans());
    f.check(sweep.find_violation(Some("INV-12")).is_some(), || {
        format!(
            "SC17: tid-unguarded never violated INV-12 ({})",
            sweep.summary()
        )
    });
    for fp in ["preempt-disable", "tid-loop"] {
        let case = broken.clone().with_variant("fastpath", json!(fp));
        let sweep = Sweep::new_logged(&case, sc17_plans());
        f.check(sweep.runs.len() > 20, || {
            format!("SC17: too few feasible schedules ({})", sweep.summary())
        });
        for v in sweep.violating(3) {
            f.push(format!("SC17 {fp} violated: {v}"));
        }
    }
    f.done();
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Every scenario under every era bundle
// ---------------------------------------------------------------------------------------------

#[test]
fn every_scenario_runs_to_the_end_under_every_era() {
    let mut f = Failures::default();
    let mut count = 0;
    for file in scenario_files() {
        if Case::load(&file).json["allocator"] == "slab" {
            continue; // SLAB has no eras (SC18 below runs both of its variants)
        }
        for era in ["v3.1", "v3.10", "v4.0", "v6.8", "v7.0"] {
            for lock in [false, true] {
                // Linux 7.0 has no slab_lock fallback key of its own in the model.
                if era == "v7.0" && lock {
                    continue;
                }
                // The era bundle replaces the file's variant (negative controls included), and
                // the cache keys one design has and the other refuses are dropped.
                let mut case = Case::load(&file);
                case.json["variant"] = json!({ "era": era });
                case = case.with_variant("era", json!(era));
                if let Some(c) = case.json["cache"].as_object_mut() {
                    let other: &[&str] = if era == "v7.0" {
                        &["cpuPartial"]
                    } else {
                        &["sheafCapacity", "maxFullSheaves", "maxEmptySheaves"]
                    };
                    for k in other {
                        c.remove(*k);
                    }
                }
                if lock {
                    case = case.with_variant("cmpxchgDouble", json!("slab-lock"));
                }
                let mut r = case.run();
                r.finish();
                count += 1;
                let o = r.outcome();
                f.check(o.finished && !o.deadlock, || {
                    format!(
                        "{}: did not finish by the default policy\n{}",
                        case.name(),
                        r.describe()
                    )
                });
                if !o.violations.is_empty() {
                    f.push(format!(
                        "{}: violations by the default policy: {:?}\n  replay: {}",
                        case.name(),
                        r.violations(),
                        r.replay()
                    ));
                }
            }
        }
    }
    assert!(count >= 17 * 9);
    f.done();
}

// ---------------------------------------------------------------------------------------------
// SC18: SLAB's lockless decision to grow (model.md §4 (v), Appendix A)
// ---------------------------------------------------------------------------------------------

/// Step `ctx` until variable `var` is bound (its allocation returned).
fn until_bound(r: &mut Run, ctx: &str, var: &str) -> Result<(), String> {
    for _ in 0..200 {
        if r.var(var).is_some() {
            return Ok(());
        }
        r.mv(ctx)?;
    }
    Err(format!(
        "{ctx} did not bind `{var}` in 200 steps\n{}",
        r.describe()
    ))
}

#[test]
fn sc18_slab_lockless_grow_decision() -> R {
    let mut f = Failures::default();
    for (grow, locks_before_grow) in [("lockless", 0), ("locked", 1)] {
        let case = Case::load("sc18_slab_lockless_grow_decision.json")
            .with_variant("slabGrow", json!(grow));
        let mut r = case.run_events();
        // The node is empty: free_objects 0, nothing in the shared array.
        let n = r.node(0).slab.expect("a SLAB node");
        f.check(
            n.free_objects == 0 && n.shared.as_ref().is_some_and(|s| s.avail == 0),
            || format!("{grow}: the node should start empty: {n:?}"),
        );
        until_bound(&mut r, "A", "a")?;
        let refill_locks = r.events_at("A", "cache_alloc_refill:RF3").len();
        f.check(refill_locks == locks_before_grow, || {
            format!("{grow}: {refill_locks} list_lock acquisitions before growing, want {locks_before_grow}")
        });
        f.check(r.events_at("A", "cache_grow_end:GE1").len() == 1, || {
            format!("{grow}: cache_grow_end should take list_lock once")
        });
        f.check(r.list_locks("A") == 1 + locks_before_grow, || {
            format!(
                "{grow}: {} list_lock acquisitions in all",
                r.list_locks("A")
            )
        });
        f.check(r.stat("GROWN") == 1 && r.stat("ALLOCMISS") == 1, || {
            format!("{grow}: want GROWN 1, ALLOCMISS 1: {:?}", r.stats())
        });
        // The refill took a batch of 2 from the new slab: the next allocation hits the array.
        until_bound(&mut r, "A", "b")?;
        f.check(
            r.stat("ALLOCHIT") == 1 && r.list_locks("A") == 1 + locks_before_grow,
            || {
                format!(
                    "{grow}: `b` should come from cpu0's array with no lock: {:?}",
                    r.stats()
                )
            },
        );
        // Now the node has free objects: both forms take the lock and grow nothing.
        until_bound(&mut r, "A", "c")?;
        f.check(
            r.events_at("A", "cache_alloc_refill:RF3").len() == 1 + locks_before_grow,
            || format!("{grow}: the refill of `c` should take list_lock"),
        );
        f.check(r.stat("GROWN") == 1, || {
            format!("{grow}: `c` must not grow a slab")
        });
        r.finish();
        f.check(r.violations().is_empty(), || {
            format!(
                "{grow}: violations {:?}\n  replay: {}",
                r.violations(),
                r.replay()
            )
        });
    }
    f.done();
    Ok(())
}
