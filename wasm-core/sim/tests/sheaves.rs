//! Golden scenarios SH1–SH8 (design.md §4.1, fixture model.md C.7): Linux 7.0's per-CPU sheaves
//! and per-node barns. Each test reaches its state through the file's `setup`, drives the
//! interleaving by the labels of the contexts' next steps, and asserts the outcome: stat
//! deltas, sheaves, barns, slabs and violations. The negative control (`pcsLock: "none"`)
//! must break INV-S1 for some schedule; the kernel's trylock for none.
//!
//! Run with `cargo test --release -p slub-sim --test sheaves`.

mod common;

use common::*;

/// Print a scenario's state after setup and after its default run:
/// `SLUB_PROBE=sh01_....json cargo test --release -p slub-sim --test sheaves probe -- --ignored --nocapture`.
#[test]
#[ignore]
fn probe() {
    let file = std::env::var("SLUB_PROBE").expect("SLUB_PROBE=<scenario file>");
    let case = Case::load(&file);
    let mut r = case.run();
    println!("after setup:\n{}", r.describe());
    r.finish();
    println!(
        "at the end:\n{}\n{:?}\n{:?}",
        r.describe(),
        r.violations(),
        r.stats()
            .into_iter()
            .filter(|(_, v)| *v > 0)
            .collect::<Vec<_>>()
    );
}

use serde_json::json;
use std::collections::BTreeMap;

type R = Result<(), String>;

const SH1: &str = "sh01_sheaf_fastpath_alloc_free.json";
const SH2: &str = "sh02_spare_swap_both_ways.json";
const SH3: &str = "sh03_barn_exchange_and_racy_count.json";
const SH4: &str = "sh04_refill_isolated_slab_remote_free.json";
const SH5: &str = "sh05_irq_trylock_fails_fallback.json";
const SH6: &str = "sh06_remote_node_free_to_slab.json";
const SH7: &str = "sh07_flush_races_remote_free.json";
const SH8: &str = "sh08_free_main_full_barn_full_flush_spare.json";

/// Linux 7.0's counters (model.md C.6, those the model counts): tests compare their deltas exactly.
const PATH_STATS: &[&str] = &[
    "ALLOC_FASTPATH",
    "ALLOC_SLOWPATH",
    "FREE_FASTPATH",
    "FREE_SLOWPATH",
    "FREE_ADD_PARTIAL",
    "FREE_REMOVE_PARTIAL",
    "ALLOC_SLAB",
    "FREE_SLAB",
    "CMPXCHG_DOUBLE_FAIL",
    "SHEAF_FLUSH",
    "SHEAF_REFILL",
    "SHEAF_ALLOC",
    "SHEAF_FREE",
    "BARN_GET",
    "BARN_GET_FAIL",
    "BARN_PUT",
    "BARN_PUT_FAIL",
];

fn expect_deltas(f: &mut Failures, r: &Run, before: &BTreeMap<String, u64>, want: &[(&str, i64)]) {
    let d = stat_delta(before, &r.stats());
    let got: BTreeMap<String, i64> = PATH_STATS
        .iter()
        .filter_map(|k| d.get(*k).map(|v| (k.to_string(), *v)))
        .collect();
    let want: BTreeMap<String, i64> = want.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    f.eq(r, "stat deltas", got, want);
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn main_objects(r: &Run, cpu: usize) -> Vec<String> {
    r.cpu(cpu).sheaves.expect("sheaves").main.objects
}

fn spare_objects(r: &Run, cpu: usize) -> Option<Vec<String>> {
    r.cpu(cpu)
        .sheaves
        .expect("sheaves")
        .spare
        .map(|s| s.objects)
}

/// How many objects a CPU's main and spare sheaves hold together.
fn objects_in_sheaves(r: &Run, cpu: usize) -> usize {
    main_objects(r, cpu).len() + spare_objects(r, cpu).map_or(0, |s| s.len())
}

/// The event kinds a context's steps had (`load`, `cas2`, `lock`...).
fn kinds_of(r: &Run, ctx: &str) -> Vec<String> {
    r.events_of(ctx)
        .iter()
        .map(|e| e.kind.to_string())
        .collect()
}

#[test]
fn sh01_sheaf_fastpath_alloc_free() -> R {
    let case = Case::load(SH1);
    let mut f = Failures::default();
    let mut r = case.run_events();
    f.eq(
        &r,
        "main after setup",
        main_objects(&r, 0),
        names(&["p0", "p1"]),
    );
    let p = r.slab("P");
    f.eq(
        &r,
        "P after setup (fl, inuse)",
        (p.freelist, p.inuse),
        (vec![], 4),
    );
    let before = r.stats();
    r.finish();
    f.eq(&r, "x", r.var("x"), Some("p1".into()));
    f.eq(
        &r,
        "main at the end",
        main_objects(&r, 0),
        names(&["p0", "p1"]),
    );
    // Objects in sheaves count as in use: the slab never notices.
    let p = r.slab("P");
    f.eq(
        &r,
        "P at the end (fl, inuse)",
        (p.freelist, p.inuse),
        (vec![], 4),
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[("ALLOC_FASTPATH", 1), ("FREE_FASTPATH", 1)],
    );
    let kinds = kinds_of(&r, "T");
    f.check(
        !kinds
            .iter()
            .any(|k| k == "cas2" || k == "lock" || k == "pcas2"),
        || format!("SH1: T took a lock or a CAS: {kinds:?}"),
    );
    // The slab's descriptor is read once, by slab_free's node test; no object line at all.
    let pages = r
        .events_of("T")
        .iter()
        .filter(|e| e.target.starts_with("page"))
        .count();
    f.eq(&r, "T's reads of a slab descriptor", pages, 1);
    f.no_violation(&r);
    f.done();
    Ok(())
}

#[test]
fn sh02_spare_swap_both_ways() -> R {
    let case = Case::load(SH2);
    let mut f = Failures::default();
    let mut r = case.run_events();
    f.eq(&r, "main after setup", main_objects(&r, 0), vec![]);
    f.eq(
        &r,
        "spare after setup",
        spare_objects(&r, 0).map(|s| s.len()),
        Some(4),
    );
    let before = r.stats();
    r.finish();
    let labels = r.labels_of("T");
    for want in [
        "__pcs_replace_empty_main:SE3",
        "__pcs_replace_full_main:FR5b",
    ] {
        f.check(labels.iter().any(|l| l == want), || {
            format!("SH2: T never ran {want}")
        });
    }
    f.eq(&r, "x (the spare's top)", r.var("x"), Some("p3".into()));
    f.eq(
        &r,
        "main at the end (g after the swap)",
        main_objects(&r, 0),
        names(&["p0"]),
    );
    f.eq(
        &r,
        "spare at the end",
        spare_objects(&r, 0).map(|s| s.len()),
        Some(4),
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[("ALLOC_FASTPATH", 1), ("FREE_FASTPATH", 2)],
    );
    f.check(!kinds_of(&r, "T").iter().any(|k| k == "lock"), || {
        "SH2: the barn was locked".into()
    });
    f.no_violation(&r);
    f.done();
    Ok(())
}

#[test]
fn sh03_barn_exchange_and_racy_count() -> R {
    let case = Case::load(SH3);
    let mut f = Failures::default();
    // (a) T alone takes the barn's full sheaf and parks its empty main there.
    let mut r = case.run_events();
    let barn = r.node(0).barn.expect("barn");
    f.eq(
        &r,
        "barn after setup (full, empty)",
        (barn.full.len(), barn.empty.len()),
        (1, 0),
    );
    let full = barn.full[0].name.clone();
    let main = r.cpu(0).sheaves.unwrap().main.name;
    let before = r.stats();
    r.complete("T")?;
    f.eq(
        &r,
        "cpu0's main is the barn's sheaf",
        r.cpu(0).sheaves.unwrap().main.name,
        full,
    );
    let barn = r.node(0).barn.unwrap();
    f.eq(
        &r,
        "barn after (a)",
        (
            barn.full.len(),
            barn.empty
                .iter()
                .map(|h| h.name.clone())
                .collect::<Vec<_>>(),
        ),
        (0, vec![main]),
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[("ALLOC_FASTPATH", 1), ("BARN_GET", 1)],
    );
    f.no_violation(&r);

    // (b) T reads nr_full 1 and stops before the lock; U takes that sheaf; T finds none
    // under the lock, takes U's parked empty sheaf and refills it from the partial slabs.
    let mut r = case.run_events();
    let before = r.stats();
    r.until_label("T", "barn_replace_empty_sheaf:BRE2")?;
    r.complete("U")?;
    r.complete("T")?;
    let t = r.labels_of("T");
    for want in [
        "barn_replace_empty_sheaf:BRE3",
        "barn_get_empty_sheaf:BGE3",
        "get_freelist_nofreeze:GN3",
    ] {
        f.check(t.iter().any(|l| l == want), || {
            format!("SH3 (b): T never ran {want}")
        });
    }
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("ALLOC_FASTPATH", 2),
            ("BARN_GET", 1),
            ("BARN_GET_FAIL", 1),
            ("SHEAF_REFILL", 4),
        ],
    );
    let barn = r.node(0).barn.unwrap();
    f.eq(
        &r,
        "barn after (b)",
        (barn.full.len(), barn.empty.len()),
        (0, 0),
    );
    f.no_violation(&r);
    f.done();
    Ok(())
}

#[test]
fn sh04_refill_isolated_slab_remote_free() -> R {
    let case = Case::load(SH4);
    let mut f = Failures::default();
    let r = case.run();
    f.eq(
        &r,
        "node 0's partial list after setup",
        r.node(0).partial,
        names(&["Q", "P"]),
    );
    // T isolates Q and P, then B's remote free empties Q: Q is on no list, so B leaves it to
    // its isolator (SS8) instead of discarding it.
    let mut r = case.run_events();
    let before = r.stats();
    r.until_label("T", "get_freelist_nofreeze:GN1")?;
    f.eq(
        &r,
        "node 0's list while T holds Q and P",
        r.node(0).partial,
        vec![],
    );
    r.complete("B")?;
    f.check(
        r.labels_of("B").iter().any(|l| l == "__slab_free:SS8"),
        || "SH4: B did not leave the isolated slab alone (SS8)".into(),
    );
    f.eq(
        &r,
        "Q after B's free (inuse, owner)",
        (r.slab("Q").inuse, r.slab("Q").owner.to_string()),
        (0, "isolated:T".into()),
    );
    r.finish();
    // B's free pushed q3 back on Q's freelist: T takes all four, q3 first.
    f.eq(&r, "x", r.var("x"), Some("q2".into()));
    f.eq(&r, "main", main_objects(&r, 0), names(&["q3", "q0", "q1"]));
    f.eq(
        &r,
        "P put back on the list",
        r.node(0).partial,
        names(&["P"]),
    );
    f.eq(
        &r,
        "Q full, on no list",
        (r.slab("Q").inuse, r.slab("Q").owner.to_string()),
        (4, "full".into()),
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("ALLOC_FASTPATH", 1),
            ("BARN_GET_FAIL", 1),
            ("SHEAF_ALLOC", 1),
            ("SHEAF_REFILL", 4),
            ("FREE_SLOWPATH", 1),
        ],
    );
    f.no_violation(&r);

    // (a) B's free between T's read of Q and its CAS: the CAS fails and T reads again.
    let mut r = case.run_events();
    let before = r.stats();
    r.until_label("T", "get_freelist_nofreeze:GN3")?;
    r.complete("B")?;
    r.finish();
    f.eq(&r, "(a) x", r.var("x"), Some("q2".into()));
    f.eq(
        &r,
        "(a) CMPXCHG_DOUBLE_FAIL",
        stat_delta(&before, &r.stats())
            .get("CMPXCHG_DOUBLE_FAIL")
            .copied(),
        Some(1),
    );
    f.no_violation(&r);

    // Every point of T's at which B can free: never a violation.
    let sweep = Sweep::new_logged(&case, prefix_plans("T", 80, &[Seg::ToEnd("B")]));
    for v in sweep.violating(3) {
        f.push(format!("SH4 sweep: {v}"));
    }
    f.done();
    Ok(())
}

#[test]
fn sh05_irq_trylock_fails_fallback() -> R {
    let case = Case::load(SH5);
    let mut f = Failures::default();
    let mut r = case.run_events();
    let before = r.stats();
    r.until_label("T", "slab_alloc_node:SA9")?;
    r.complete("I")?;
    let i = r.labels_of("I");
    for want in [
        "local_trylock:LT2f",
        "get_from_partial_node:GP5",
        "__slab_free:SS6",
    ] {
        f.check(i.iter().any(|l| l == want), || {
            format!("SH5: I never ran {want}")
        });
    }
    r.finish();
    f.eq(&r, "x (T's pop)", r.var("x"), Some("p1".into()));
    f.eq(
        &r,
        "y (from the partial slab)",
        r.var("y"),
        Some("q2".into()),
    );
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("ALLOC_FASTPATH", 1),
            ("ALLOC_SLOWPATH", 1),
            ("FREE_SLOWPATH", 1),
        ],
    );
    f.no_violation(&r);

    // The interrupt at every point of T's allocation: never a violation.
    let sweep = Sweep::new_logged(&case, prefix_plans("T", 12, &[Seg::ToEnd("I")]));
    for v in sweep.violating(3) {
        f.push(format!("SH5 sweep: {v}"));
    }
    // Negative control: without the lock the irq pops the object T is about to pop.
    let broken = case.clone().with_variant("pcsLock", json!("none"));
    let sweep = Sweep::new_logged(&broken, prefix_plans("T", 12, &[Seg::ToEnd("I")]));
    f.check(sweep.find_violation(Some("INV-S1")).is_some(), || {
        format!(
            "SH5 pcsLock none: no schedule broke INV-S1 ({})",
            sweep.summary()
        )
    });
    f.done();
    Ok(())
}

#[test]
fn sh06_remote_node_free_to_slab() -> R {
    let case = Case::load(SH6);
    let mut f = Failures::default();
    let mut r = case.run_events();
    let before = r.stats();
    r.finish();
    let targets: Vec<String> = r.events_of("B").iter().map(|e| e.target.clone()).collect();
    f.check(
        !targets
            .iter()
            .any(|t| t.contains("cpu_sheaves") || t.contains("sheaf")),
        || format!("SH6: a remote free touched the sheaves: {targets:?}"),
    );
    f.eq(&r, "P's freelist", r.slab("P").freelist, names(&["p3"]));
    f.eq(
        &r,
        "node 0's partial list",
        r.node(0).partial,
        names(&["P"]),
    );
    f.eq(&r, "cpu1's main", main_objects(&r, 1), vec![]);
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[("FREE_SLOWPATH", 1), ("FREE_ADD_PARTIAL", 1)],
    );
    f.no_violation(&r);
    f.done();
    Ok(())
}

#[test]
fn sh07_flush_races_remote_free() -> R {
    let case = Case::load(SH7);
    let mut f = Failures::default();
    let mut r = case.run_events();
    f.eq(
        &r,
        "main after setup",
        main_objects(&r, 0),
        names(&["p2", "p1"]),
    );
    let before = r.stats();
    r.until_label("W", "__slab_free:SS6")?;
    r.complete("B")?;
    r.finish();
    f.eq(
        &r,
        "P discarded",
        r.slab("P").owner.to_string(),
        "discarded".to_string(),
    );
    f.eq(&r, "node 0's partial list", r.node(0).partial, vec![]);
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("SHEAF_FLUSH", 2),
            ("SHEAF_FREE", 1),
            ("CMPXCHG_DOUBLE_FAIL", 1),
            ("FREE_SLOWPATH", 1),
            ("FREE_REMOVE_PARTIAL", 1),
            ("FREE_SLAB", 1),
        ],
    );
    f.no_violation(&r);
    // min_partial 2: the node keeps the empty slab.
    let keep = case.clone().with_cache("minPartial", json!(2));
    let mut r = keep.run_events();
    r.until_label("W", "__slab_free:SS6")?;
    r.complete("B")?;
    r.finish();
    f.eq(
        &r,
        "min_partial 2: P kept, empty",
        (r.node(0).partial, r.slab("P").inuse),
        (names(&["P"]), 0),
    );
    f.no_violation(&r);
    let sweep = Sweep::new_logged(&case, prefix_plans("W", 60, &[Seg::ToEnd("B")]));
    for v in sweep.violating(3) {
        f.push(format!("SH7 sweep: {v}"));
    }
    f.done();
    Ok(())
}

#[test]
fn sh08_free_main_full_barn_full_flush_spare() -> R {
    let case = Case::load(SH8);
    let mut f = Failures::default();
    let mut r = case.run_events();
    f.eq(
        &r,
        "cpu0 after setup (main, spare)",
        (
            main_objects(&r, 0).len(),
            spare_objects(&r, 0).map(|s| s.len()),
        ),
        (4, Some(4)),
    );
    f.eq(
        &r,
        "barn full sheaves after setup",
        r.node(0).barn.unwrap().full.len(),
        2,
    );
    let old_main = main_objects(&r, 0);
    let before = r.stats();
    r.finish();
    f.check(
        r.labels_of("T")
            .iter()
            .any(|l| l == "__pcs_replace_full_main:FR8"),
        || "SH8: T did not flush the spare (FR8)".into(),
    );
    f.eq(
        &r,
        "main holds the freed object",
        main_objects(&r, 0),
        names(&["v2"]),
    );
    f.eq(
        &r,
        "spare is the old main",
        spare_objects(&r, 0),
        Some(old_main),
    );
    f.eq(&r, "barn unchanged", r.node(0).barn.unwrap().full.len(), 2);
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("FREE_FASTPATH", 1),
            ("BARN_PUT_FAIL", 1),
            ("SHEAF_FLUSH", 4),
            ("FREE_ADD_PARTIAL", 2),
        ],
    );
    f.no_violation(&r);
    f.done();
    Ok(())
}

const SH9: &str = "sh09_hotplug_flush_dead_cpu.json";

/// CPU hotplug (model.md C.3.11): once CPU 1's last context has finished, a survivor empties its
/// sheaves without their lock (`slub_cpu_dead`): main stays installed, empty; the spare's objects
/// go back to their slabs and the sheaf is freed.
#[test]
fn sh09_hotplug_flush_dead_cpu() -> R {
    let case = Case::load(SH9);
    let mut f = Failures::default();
    let mut r = case.run_events();
    f.check(objects_in_sheaves(&r, 1) > 0, || {
        "SH9: CPU 1 has no object in its sheaves after setup".into()
    });
    f.eq(&r, "T waits for CPU 1's contexts", r.enabled("T"), false);
    r.complete("B")?;
    let before = r.stats();
    let in_sheaves = objects_in_sheaves(&r, 1);
    r.complete("T")?;
    f.eq(
        &r,
        "CPU 1's main, emptied and kept",
        main_objects(&r, 1),
        vec![],
    );
    f.eq(&r, "CPU 1's spare, freed", spare_objects(&r, 1), None);
    let d = stat_delta(&before, &r.stats());
    f.eq(
        &r,
        "SHEAF_FLUSH",
        d.get("SHEAF_FLUSH").copied(),
        Some(in_sheaves as i64),
    );
    f.eq(&r, "SHEAF_FREE", d.get("SHEAF_FREE").copied(), Some(1));
    f.check(
        r.events_of("T")
            .iter()
            .all(|e| e.kind.to_string() != "trylock" && e.kind.to_string() != "local-lock"),
        || "SH9: the survivor took the dead CPU's lock".into(),
    );
    f.no_violation(&r);
    // Migrating a task onto the dead CPU is refused once the flush has begun.
    f.eq(
        &r,
        "migrate onto the dead CPU",
        r.enabled("migrate:B:1"),
        false,
    );
    f.done();
    Ok(())
}

const SH10: &str = "sh10_barn_takes_a_full_main.json";

/// Main and spare full, room in the barn and an empty sheaf there: `barn_replace_full_sheaf`
/// parks the full main and hands back the empty one (FR6, `BARN_PUT`), with no flush and no
/// sheaf allocated. T's allocations took both of the barn's full sheaves first (parking two
/// empty ones), and its frees filled main, swapped in an empty sheaf, and filled main again.
#[test]
fn sh10_barn_takes_a_full_main() -> R {
    let case = Case::load(SH10);
    let mut f = Failures::default();
    let mut r = case.run_events();
    f.eq(
        &r,
        "barn after setup (full, empty)",
        {
            let b = r.node(0).barn.unwrap();
            (b.full.len(), b.empty.len())
        },
        (2, 0),
    );
    let before = r.stats();
    r.finish();
    let t = r.labels_of("T");
    for want in [
        "barn_replace_empty_sheaf:BRE3",
        "barn_get_empty_sheaf:BGE3",
        "barn_replace_full_sheaf:BRF4",
    ] {
        f.check(t.iter().any(|l| l == want), || {
            format!("SH10: T never ran {want}")
        });
    }
    expect_deltas(
        &mut f,
        &r,
        &before,
        &[
            ("ALLOC_FASTPATH", 5),
            ("FREE_FASTPATH", 6),
            ("BARN_GET", 2),
            ("BARN_PUT", 1),
        ],
    );
    let b = r.node(0).barn.unwrap();
    f.eq(
        &r,
        "barn at the end (full, empty)",
        (b.full.len(), b.empty.len()),
        (1, 0),
    );
    f.eq(&r, "main holds the last free", main_objects(&r, 0).len(), 1);
    f.no_violation(&r);
    f.done();
    Ok(())
}

/// The classic golden scenarios' programs under Linux 7.0 (model.md C.4.1: their races are gone)
/// and every sheaf scenario: the explorer finds no violation and completes.
#[test]
fn the_explorer_proves_the_classic_scenarios_and_the_sheaf_scenarios_safe_under_7_0() {
    use slub_sim::explore::{explore, Bounds};
    let mut files: Vec<String> = ["sc01", "sc03", "sc05", "sc08"]
        .iter()
        .map(|p| {
            scenario_files()
                .into_iter()
                .find(|f| f.starts_with(p))
                .expect("the classic scenario")
        })
        .collect();
    files.extend(scenario_files().into_iter().filter(|f| f.starts_with("sh")));
    for file in files {
        let mut case = Case::load(&file);
        let root = case.json.as_object_mut().unwrap();
        root.insert("variant".into(), json!({"era": "v7.0"}));
        if let Some(c) = root.get_mut("cache").and_then(|c| c.as_object_mut()) {
            c.remove("cpuPartial");
        }
        let sc = slub_sim::scenario::parse(&case.text()).unwrap_or_else(|e| panic!("{file}: {e}"));
        let r = explore(&sc, &Bounds::default(), &mut |_| true);
        assert!(
            r.violations.is_empty(),
            "{file} under v7.0: {:?}",
            r.violations
        );
        assert!(
            r.complete,
            "{file} under v7.0: incomplete ({:?})",
            r.incomplete
        );
    }
}

/// The negative control explored: without the per-CPU lock an interrupt corrupts a sheaf.
#[test]
fn the_explorer_finds_a_sheaf_touched_without_its_lock() {
    use slub_sim::explore::{explore, Bounds};
    let case = Case::load(SH5).with_variant("pcsLock", json!("none"));
    let sc = slub_sim::scenario::parse(&case.text()).unwrap();
    let r = explore(&sc, &Bounds::default(), &mut |_| true);
    let v = r.violations.first().expect("a violation");
    assert_eq!(v.invariant, "INV-S1", "{v:?}");
    let mut sim = slub_sim::Simulator::from_json(&case.text(), false).unwrap();
    sim.apply_all(&v.schedule).unwrap();
    assert_eq!(
        sim.outcome()
            .violations
            .first()
            .map(|x| x.invariant.clone()),
        Some("INV-S1".into())
    );
}

/// `sheafCapacity: 0` is the kernel's cache without sheaves (`cache_has_sheaves()` false:
/// SLUB_TINY, debug and boot caches): every allocation and free takes the slab paths. Found by
/// the fuzz harness, which hung on it when the model ignored the check.
#[test]
fn a_cache_without_sheaves_takes_the_slab_paths() {
    let case = Case::load(SH2).with_cache("sheafCapacity", json!(0));
    let mut r = case.run_events();
    let before = r.stats();
    r.finish();
    let d = stat_delta(&before, &r.stats());
    assert_eq!(d.get("ALLOC_FASTPATH"), None, "{d:?}");
    assert_eq!(d.get("FREE_FASTPATH"), None, "{d:?}");
    assert_eq!(d.get("ALLOC_SLOWPATH"), Some(&1), "{d:?}");
    assert_eq!(d.get("FREE_SLOWPATH"), Some(&2), "{d:?}");
    assert!(r.violations().is_empty(), "{:?}", r.violations());
    assert!(r.labels_of("T").iter().any(|l| l == "local_unlock:LU1"));
}
