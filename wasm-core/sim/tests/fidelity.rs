//! Fidelity to the kernel at the edges of the model: one regression test per
//! divergence that was mended, each named after the kernel function and version it was
//! checked against. Each test drives the interleaving by the labels of the contexts' next
//! steps, like `golden.rs`.
//!
//! Run with `cargo test -p slub-sim --test fidelity`.

mod common;

use common::*;
use serde_json::{json, Value};

type R = Result<(), String>;

fn case(name: &str, json: Value) -> Case {
    Case {
        file: format!("{name}.json"),
        patch: String::new(),
        json,
    }
}

fn no_violation(r: &Run) -> R {
    if r.violations().is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}: unexpected violations {:?}\n  replay: {}",
            r.case.name(),
            r.violations(),
            r.replay()
        ))
    }
}

/// Item 1 (model.md §5, INV-12): under `no-tid` the CAS compares only the freelist head, so the
/// INV-12 snapshot is taken where the head is read, not at the tid read. An interrupt that
/// frees an object between the two reads changes the head before the task reads it; the task
/// then commits a fresh head correctly, and no ABA may be reported. (v4.0 `slab_alloc_node`'s
/// tid loop with the tid half of `this_cpu_cmpxchg_double` removed.)
#[test]
fn no_tid_snapshot_is_taken_at_the_head_read() -> R {
    let base = |fp: &str| {
        case(
            "no_tid_fresh_head",
            json!({
                "schemaVersion": 1,
                "name": "an irq frees between the tid read and the head read",
                "cpus": 1,
                "cache": { "objectsPerSlab": 4 },
                "variant": { "fastpath": fp },
                "setup": [
                    { "cpu": 0, "op": "alloc", "var": "s0" },
                    { "cpu": 0, "op": "alloc", "var": "s1" },
                    { "cpu": 0, "op": "alloc", "var": "h" },
                    { "cpu": 0, "op": "free", "var": "s1" },
                    { "cpu": 0, "op": "free", "var": "s0" }
                ],
                "tasks": [ { "id": "T", "cpu": 0, "ops": [
                    { "op": "alloc", "var": "x" },
                    { "op": "free", "var": "x" }
                ] } ],
                "irqs": [ { "id": "I", "cpu": 0, "ops": [ { "op": "free", "var": "h" } ] } ]
            }),
        )
    };
    // Alloc: the irq frees h after T read the tid, before T reads the head.
    let mut r = base("no-tid").run();
    r.until_label("T", "slab_alloc:A5")?;
    r.complete("I")?;
    r.complete("T")?;
    no_violation(&r)?;
    // Free (3.x reads the head twice; the CAS compares the second read): the irq frees h
    // between the tid read and the first head read.
    let mut r = base("no-tid").run();
    r.until_label("T", "slab_free:F5")?;
    r.complete("I")?;
    r.complete("T")?;
    no_violation(&r)?;
    Ok(())
}

/// The node of the slab that holds the object bound to `var`.
fn node_of_var(r: &Run, var: &str) -> Option<u32> {
    let obj = r.var(var)?;
    r.view()
        .slabs
        .iter()
        .find(|s| s.objects.iter().any(|o| o.name == obj))
        .map(|s| s.node)
}

/// Item 2: from 6.8 (`___slab_alloc`, "Delay freezing of partial slabs"), the loop over the CPU
/// partial list installs a slab only if `node_match()` holds; a mismatching slab goes back to
/// its node through `__put_partials` and the loop continues. Checked against `___slab_alloc`
/// of a v6.8+ mm/slub.c (model.md §0 S6 and the index's 6.x copies).
#[test]
fn v6_8_cpu_partial_slab_of_another_node_is_not_installed() -> R {
    let c = case(
        "v68_cpu_partial_node",
        json!({
            "schemaVersion": 1,
            "name": "cpu0's partial list holds a node-1 slab; a node-0 request",
            "cpus": 2,
            "nodes": 2,
            "cache": { "objectsPerSlab": 2, "minPartial": 1, "cpuPartial": 2 },
            "variant": { "era": "v6.8" },
            "setup": [
                { "cpu": 1, "op": "alloc", "var": "b0" },
                { "cpu": 1, "op": "alloc", "var": "b1" },
                { "cpu": 1, "op": "flush" },
                { "cpu": 0, "op": "free", "var": "b0" }
            ],
            "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "alloc", "var": "x", "node": 0 } ] } ]
        }),
    );
    let mut r = c.run();
    let b = r.view().slabs[0].clone();
    if b.node != 1 || b.owner != "cpu0-partial" {
        return Err(format!(
            "setup: want a node-1 slab on cpu0's partial list, got {b:?}"
        ));
    }
    r.complete("T")?;
    no_violation(&r)?;
    if node_of_var(&r, "x") != Some(0) {
        return Err(format!(
            "a node-0 request was served from node {:?}\n{}",
            node_of_var(&r, "x"),
            r.describe()
        ));
    }
    let b = r.view().slabs[0].clone();
    if b.owner != "node1-partial" {
        return Err(format!(
            "the mismatching slab must go back to node 1's partial list, it is {}",
            b.owner
        ));
    }
    // A NUMA_NO_NODE request still takes it.
    let c = case("v68_cpu_partial_any", {
        let mut j = c.json.clone();
        j["tasks"][0]["ops"][0] = json!({ "op": "alloc", "var": "x" });
        j
    });
    let mut r = c.run();
    r.complete("T")?;
    no_violation(&r)?;
    if node_of_var(&r, "x") != Some(1) {
        return Err(format!(
            "an any-node request must use the CPU partial slab\n{}",
            r.describe()
        ));
    }
    Ok(())
}

/// Item 8: with no CPU slab the fast path goes to the slow path even for a NUMA_NO_NODE
/// request: `node_match()` returns 0 for `!page` from v3.8 ("slub: Check for page NULL before
/// doing the node_match check", checked in v3.10 and v4.0 `slab_alloc_node`), and 5.15+ tests
/// `!slab` explicitly. Pre-3.8 fast paths (`tid-unguarded`) still had no `!page` test.
#[test]
fn fast_path_without_cpu_slab_takes_the_slow_path() -> R {
    for (fp, fast) in [
        ("preempt-disable", false),
        ("tid-loop", false),
        ("tid-unguarded", true),
    ] {
        // SC13's state: F's suspended free succeeds after G's bypass ran out of memory, so
        // cpu0 has a freelist and no slab; then H allocates on cpu0.
        let mut c = Case::load("sc13_bypass_oom_leaves_freelist_without_slab.json")
            .with_variant("fastpath", json!(fp));
        c.json["tasks"]
            .as_array_mut()
            .unwrap()
            .push(json!({ "id": "H", "cpu": 0, "ops": [ { "op": "alloc", "var": "h" } ] }));
        let mut r = c.run();
        r.until_label("F", "slab_free:F8")?;
        r.complete("G")?;
        r.complete("F")?;
        if r.cpu(0).page.is_some() || r.cpu(0).freelist.is_empty() {
            return Err(format!(
                "{fp}: setup did not leave a freelist without a slab\n{}",
                r.describe()
            ));
        }
        let before = r.stat("ALLOC_FASTPATH");
        r.complete("H")?;
        let took_fast = r.stat("ALLOC_FASTPATH") > before;
        if took_fast != fast {
            return Err(format!(
                "{fp}: with c->page NULL and c->freelist {:?}, the fast path was {}taken",
                r.cpu(0).freelist,
                if took_fast { "" } else { "not " }
            ));
        }
    }
    Ok(())
}

/// Item 4: from 5.15 ("mm, slub: protect put_cpu_partial() with disabled irqs instead of
/// cmpxchg") `put_cpu_partial` runs under `local_lock_irqsave` whether or not CPU partial slabs
/// are frozen, drains the old list after unlocking with `__unfreeze_partials`, and (5.16+)
/// counts the threshold in slabs (`oldslab->slabs >= s->cpu_partial_slabs`). Checked against
/// `put_cpu_partial`/`__unfreeze_partials` of a 6.x mm/slub.c before "Delay freezing" (model.md §0 S6
/// and the index's 6.5 copies).
#[test]
fn v5_15_put_cpu_partial_runs_under_the_local_lock_and_drains_by_slabs() -> R {
    let c = case(
        "v515_put_cpu_partial",
        json!({
            "schemaVersion": 1,
            "name": "two full slabs each get a first free on cpu0 (5.15-6.7: frozen CPU partial slabs)",
            "cpus": 2,
            "cache": { "objectsPerSlab": 4, "minPartial": 1, "cpuPartial": 2 },
            "variant": { "fastpath": "tid-direct", "slowpath": "local-lock",
                         "cpuPartialFrozen": true, "discard": "ge", "deactivate": "splice" },
            "setup": [
                { "cpu": 1, "op": "alloc", "var": "p0" },
                { "cpu": 1, "op": "alloc", "var": "p1" },
                { "cpu": 1, "op": "alloc", "var": "p2" },
                { "cpu": 1, "op": "alloc", "var": "p3" },
                { "cpu": 1, "op": "alloc", "var": "q0" },
                { "cpu": 1, "op": "alloc", "var": "q1" },
                { "cpu": 1, "op": "alloc", "var": "q2" },
                { "cpu": 1, "op": "alloc", "var": "q3" },
                { "cpu": 1, "op": "flush" }
            ],
            "tasks": [ { "id": "T", "cpu": 0, "ops": [
                { "op": "free", "var": "p0" },
                { "op": "free", "var": "q0" }
            ] } ]
        }),
    );
    let mut r = c.run_events();
    let before = r.stats();
    r.complete("T")?;
    no_violation(&r)?;
    let labels = r.labels_of("T");
    if !labels.iter().any(|l| l == "put_cpu_partial:U6")
        || labels.iter().any(|l| l == "put_cpu_partial:U5")
    {
        return Err(format!(
            "put_cpu_partial must take the local lock (U6), not the this_cpu_cmpxchg loop: {labels:?}"
        ));
    }
    let drains =
        r.stat("CPU_PARTIAL_DRAIN") - before.get("CPU_PARTIAL_DRAIN").copied().unwrap_or(0);
    let (p, q) = (r.slab("P"), r.slab("Q"));
    if drains != 1 || p.owner != "node0-partial" || q.owner != "cpu0-partial" || p.frozen {
        return Err(format!(
            "one slab on the list is the budget (cpu_partial_slabs = 1): P must be drained \
             (unfrozen) to node 0 when Q comes; drains {drains}, P {} frozen {}, Q {}\n{}",
            p.owner,
            p.frozen,
            q.owner,
            r.describe()
        ));
    }
    Ok(())
}

/// Item 3: v3.1's `__slab_alloc` has no re-read of `c->freelist` after `local_irq_save` (it
/// came with "slub: fix a possible memleak in __slab_alloc()", v3.2): an interrupt that frees
/// to the CPU freelist between the fast path and the slow path loses that object under v3.1,
/// and the invariants report the loss; v3.10 re-reads and hands it out. Checked against
/// `__slab_alloc` of v3.1 (303750856/linux-3.1) and v3.10 (AndreiLux/ref-3.10).
#[test]
fn v3_1_slow_path_does_not_reread_the_cpu_freelist() -> R {
    let c = |era: &str| {
        case(
            "v31_memleak",
            json!({
                "schemaVersion": 1,
                "name": "an irq frees to the CPU freelist while a task enters the slow path",
                "cpus": 1,
                "cache": { "objectsPerSlab": 2 },
                "variant": { "era": era },
                "setup": [
                    { "cpu": 0, "op": "alloc", "var": "a" },
                    { "cpu": 0, "op": "alloc", "var": "b" }
                ],
                "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" } ] } ],
                "irqs": [ { "id": "I", "cpu": 0, "ops": [ { "op": "free", "var": "a" } ] } ]
            }),
        )
    };
    // v3.10: the re-read finds the irq's object.
    let mut r = c("v3.10").run();
    r.until_label("T", "__slab_alloc:B1")?;
    r.complete("I")?;
    r.complete("T")?;
    no_violation(&r)?;
    if r.var("x")
        != r.view()
            .vars
            .iter()
            .find(|v| v.name == "a")
            .and_then(|v| v.object.clone())
    {
        return Err(format!(
            "v3.10: x must be the object the irq freed\n{}",
            r.describe()
        ));
    }
    // v3.1: no re-read; the slow path installs a new slab over the CPU freelist.
    let mut r = c("v3.1").run();
    r.until_label("T", "__slab_alloc:B1")?;
    r.complete("I")?;
    r.complete("T")?;
    let lost: Vec<String> = r
        .view()
        .slabs
        .iter()
        .flat_map(|s| s.objects.iter())
        .filter(|o| o.owner == "lost")
        .map(|o| o.name.clone())
        .collect();
    if lost.is_empty() || r.violations().is_empty() {
        return Err(format!(
            "v3.1: the irq's object must be lost and reported; lost {lost:?}, violations {:?}\n  replay: {}\n{}",
            r.violations(),
            r.replay(),
            r.describe()
        ));
    }
    Ok(())
}

/// Item 3, the other 3.1 deltas of model.md §2.15. (a) The node-mismatch exit calls 3.1's
/// `deactivate_slab(s, c)`, which bumps tid and clears `c->page`/`c->freelist` *before* stage
/// one (3.10 deactivates first and clears after). (b) 3.1's `acquire_slab` loops its CAS until
/// it freezes the slab; 3.10's single attempt gives up on a changed slab. Checked against
/// `__slab_alloc`, `deactivate_slab` and `acquire_slab` of v3.1 and v3.10.
#[test]
fn v3_1_node_mismatch_order_and_acquire_slab_loop() -> R {
    // (a) SC16 under v3.1: the tid bump (flush_slab:T2) precedes the deactivation.
    let mut r = Case::load("sc16_node_mismatch.json")
        .with_variant("era", json!("v3.1"))
        .run_events();
    r.complete("T")?;
    no_violation(&r)?;
    let labels = r.labels_of("T");
    let bump = labels.iter().position(|l| l == "flush_slab:T2");
    let deact = labels
        .iter()
        .position(|l| l.starts_with("deactivate_slab:"));
    match (bump, deact) {
        (Some(b), Some(d)) if b < d => {}
        _ => {
            return Err(format!(
                "v3.1 node mismatch: tid bump and clears must precede deactivate_slab: {labels:?}"
            ))
        }
    }
    if labels.iter().any(|l| l == "__slab_alloc:B4b") {
        return Err(format!(
            "v3.1 must not clear c->page after deactivating: {labels:?}"
        ));
    }
    // (b) a remote free changes the partial slab between acquire_slab's loads and its CAS.
    let c = |variant: Value| {
        case(
            "v31_acquire_loop",
            json!({
                "schemaVersion": 1,
                "name": "a remote free races acquire_slab",
                "cpus": 2,
                "cache": { "objectsPerSlab": 4, "minPartial": 1 },
                "variant": variant,
                "setup": [
                    { "cpu": 1, "op": "alloc", "var": "a" },
                    { "cpu": 1, "op": "alloc", "var": "b" },
                    { "cpu": 1, "op": "alloc", "var": "c" },
                    { "cpu": 1, "op": "alloc", "var": "d" },
                    { "cpu": 1, "op": "flush" },
                    { "cpu": 0, "op": "free", "var": "a" }
                ],
                "tasks": [
                    { "id": "T", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" } ] },
                    { "id": "U", "cpu": 1, "ops": [ { "op": "free", "var": "b" } ] }
                ]
            }),
        )
    };
    for (variant, new_slabs) in [
        (json!({ "era": "v3.1" }), 0),
        (json!({ "era": "v3.10", "cpuPartial": false }), 1),
    ] {
        let mut r = c(variant.clone()).run();
        if r.node(0).partial != vec!["P".to_string()] {
            return Err(format!(
                "setup: P must be on node 0's partial list\n{}",
                r.describe()
            ));
        }
        let before = r.stat("ALLOC_SLAB");
        r.until_label("T", "acquire_slab:Q3")?;
        r.complete("U")?;
        r.complete("T")?;
        no_violation(&r)?;
        if r.stat("ALLOC_SLAB") - before != new_slabs {
            return Err(format!(
                "{variant}: acquire_slab after a failed CAS: want {new_slabs} new slab(s), got {}\n  replay: {}\n{}",
                r.stat("ALLOC_SLAB") - before,
                r.replay(),
                r.describe()
            ));
        }
    }
    Ok(())
}

/// Item 11: `ALLOC_SLOWPATH` is counted where the era counts it: inside `__slab_alloc` after the
/// re-read (3.1–3.14), by the caller after every slow-path call (3.15–5.14, "slub: fix
/// ALLOC_SLOWPATH stat", checked in v4.0 `slab_alloc_node`), at the entry of `___slab_alloc`
/// (5.15+, a 6.x mm/slub.c). The broken `no-tid` control is a 4.0 fast path; a 4.0 fast path
/// with the local-lock slow path counts once.
#[test]
fn alloc_slowpath_is_counted_once_where_the_era_counts_it() -> R {
    let c = |variant: Value| {
        case(
            "slowpath_stat",
            json!({
                "schemaVersion": 1,
                "name": "an irq refills the CPU freelist while a task enters the slow path",
                "cpus": 1,
                "cache": { "objectsPerSlab": 2 },
                "variant": variant,
                "setup": [
                    { "cpu": 0, "op": "alloc", "var": "a" },
                    { "cpu": 0, "op": "alloc", "var": "b" }
                ],
                "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" } ] } ],
                "irqs": [ { "id": "I", "cpu": 0, "ops": [ { "op": "free", "var": "a" } ] } ]
            }),
        )
    };
    // The re-read finds the irq's object: 3.10 does not count, the 3.15+ caller does.
    for (variant, want, entry) in [
        (json!({ "era": "v3.10" }), 0, "__slab_alloc:B1"),
        (json!({ "era": "v4.0" }), 1, "__slab_alloc:B1"),
        (
            json!({ "era": "v4.0", "fastpath": "no-tid" }),
            1,
            "__slab_alloc:B1",
        ),
        (
            json!({ "era": "v4.0", "slowpath": "local-lock" }),
            1,
            "__slab_alloc:LL0",
        ),
        (json!({ "era": "v6.8" }), 1, "__slab_alloc:LL0"),
    ] {
        let mut r = c(variant.clone()).run();
        let before = r.stat("ALLOC_SLOWPATH");
        r.until_label("T", entry)?;
        r.complete("I")?;
        r.complete("T")?;
        no_violation(&r)?;
        let got = r.stat("ALLOC_SLOWPATH") - before;
        if got != want {
            return Err(format!(
                "{variant}: ALLOC_SLOWPATH counted {got} time(s), want {want}"
            ));
        }
    }
    Ok(())
}

/// Item 5: 6.x flushes from a work item (`flush_cpu_slab`): `flush_slab` detaches the CPU slab
/// under the local lock, then `deactivate_slab` and `__put_partials` run with interrupts on, and
/// `CPUSLAB_FLUSH` is counted after the deactivation. Checked against `flush_slab`,
/// `flush_cpu_slab` and `put_partials` of a 6.8+ mm/slub.c (model.md §0 S6).
#[test]
fn v6_flush_deactivates_with_interrupts_on() -> R {
    let c = case(
        "v68_flush",
        json!({
            "schemaVersion": 1,
            "name": "a flush on cpu0 while an irq allocates there",
            "cpus": 2,
            "cache": { "objectsPerSlab": 2, "minPartial": 1, "cpuPartial": 2 },
            "variant": { "era": "v6.8" },
            "setup": [
                { "cpu": 1, "op": "alloc", "var": "q0" },
                { "cpu": 1, "op": "alloc", "var": "q1" },
                { "cpu": 1, "op": "alloc", "var": "r0" },
                { "cpu": 1, "op": "alloc", "var": "r1" },
                { "cpu": 1, "op": "flush" },
                { "cpu": 0, "op": "free", "var": "q0" },
                { "cpu": 0, "op": "alloc", "var": "a" },
                { "cpu": 0, "op": "free", "var": "r0" }
            ],
            "tasks": [ { "id": "F", "cpu": 0, "ops": [ { "op": "flush" } ] } ],
            "irqs": [ { "id": "I", "cpu": 0, "ops": [ { "op": "alloc", "var": "i" } ] } ]
        }),
    );
    let mut r = c.run();
    if r.cpu(0).page.is_none() || r.cpu(0).partial.is_empty() {
        return Err(format!(
            "setup: cpu0 needs a CPU slab and a partial slab\n{}",
            r.describe()
        ));
    }
    let before = r.stat("CPUSLAB_FLUSH");
    r.until_label("F", "deactivate_slab:DS0")?;
    if !r.enabled("I") {
        return Err(format!(
            "6.x deactivates the detached CPU slab with interrupts on: the irq must be able to run\n{}",
            r.describe()
        ));
    }
    if r.stat("CPUSLAB_FLUSH") != before {
        return Err("CPUSLAB_FLUSH is counted after the deactivation, not before".into());
    }
    r.until_label("F", "unfreeze_partials:V3l")?;
    if !r.enabled("I") {
        return Err(format!(
            "__put_partials runs with interrupts on\n{}",
            r.describe()
        ));
    }
    r.complete("F")?;
    if r.stat("CPUSLAB_FLUSH") != before + 1 {
        return Err("CPUSLAB_FLUSH must be counted once".into());
    }
    // Interleave the irq at every step of the flush: never a violation.
    for n in 0..60 {
        let mut r = c.run();
        if !r.steps("F", n) {
            break;
        }
        r.while_enabled("I");
        r.complete("F")?;
        r.finish();
        no_violation(&r)?;
    }
    Ok(())
}

/// Item 6: a `flush` with `target` is CPU hotplug (`slub_cpu_dead` / SLAB's `cpuup_canceled`):
/// the target CPU is offline. Its contexts must have finished before the survivor flushes it
/// (the flush waits), nothing migrates onto it afterwards, and a context bound to the CPU it
/// flushes as dead is refused with an error naming the path. Under SLUB and SLAB.
#[test]
fn flushing_a_dead_cpu_waits_until_it_is_offline() -> R {
    for allocator in ["slub", "slab"] {
        let sc = json!({
            "schemaVersion": 1,
            "name": "cpu1 goes offline while a task still runs there",
            "allocator": allocator,
            "cpus": 2,
            "cache": { "objectsPerSlab": 4, "minPartial": 1, "cpuPartial": 2 },
            "setup": [ { "cpu": 1, "op": "alloc", "var": "a" } ],
            "tasks": [
                { "id": "T", "cpu": 0, "ops": [ { "op": "flush", "target": 1 } ] },
                { "id": "U", "cpu": 1, "ops": [ { "op": "alloc", "var": "b" }, { "op": "free", "var": "a" } ] },
                { "id": "V", "cpu": 0, "ops": [ { "op": "alloc", "var": "c" } ] }
            ]
        });
        let mut r = case("hotplug_busy", sc.clone()).run();
        if r.enabled("T") {
            return Err(format!(
                "{allocator}: the flush of cpu1 must wait while U still runs there\n{}",
                r.describe()
            ));
        }
        r.complete("U")?;
        if !r.enabled("T") {
            return Err(format!(
                "{allocator}: U finished: the flush may go\n{}",
                r.describe()
            ));
        }
        r.mv("T")?;
        if r.try_move("migrate:V:1") {
            return Err(format!(
                "{allocator}: cpu1 is offline: nothing migrates there"
            ));
        }
        r.complete("T")?;
        r.finish();
        no_violation(&r)?;
        // The explorer finds no fault in any schedule.
        let parsed = slub_sim::scenario::parse(&sc.to_string()).map_err(|e| e.to_string())?;
        let rep =
            slub_sim::explore::explore(&parsed, &slub_sim::explore::Bounds::default(), &mut |_| {
                true
            });
        if !rep.violations.is_empty() || !rep.complete {
            return Err(format!(
                "{allocator}: explored hotplug: {:?} (complete {})",
                rep.violations
                    .first()
                    .map(|v| (&v.invariant, &v.message, v.schedule.join(","))),
                rep.complete
            ));
        }
        // A context bound to the CPU it declares dead is refused.
        let mut bad = sc.clone();
        bad["tasks"][1]["ops"][0] = json!({ "op": "flush", "target": 1 });
        match slub_sim::scenario::parse(&bad.to_string()) {
            Err(e) if e.to_string().contains("tasks[1].ops[0].target") => {}
            other => {
                return Err(format!(
                    "{allocator}: a task on cpu1 flushing cpu1 as dead must be refused at tasks[1].ops[0].target: {:?}",
                    other.map(|_| ())
                ))
            }
        }
    }
    Ok(())
}

/// Item 7 (INV-11): tids only move by TID_STEP, so "tid ≡ cpu (mod TID_STEP)" could never
/// fire. INV-11 now checks what a broken variant can break: the tid a fast-path CAS commits
/// was read from the CPU whose tid it replaces. SC4's forced TID_STEP 1 lets a snapshot of
/// cpu0 commit on cpu1: INV-11 fires; with the derived TID_STEP the CAS fails.
#[test]
fn inv11_a_committed_tid_was_read_on_the_cpu_it_replaces() -> R {
    let base = Case::load("sc04_stale_tid_collision.json");
    let mut hit = None;
    for m in 0..80 {
        let mut r = base.run();
        r.until_label("T", "slab_alloc:A9")?;
        r.complete("U")?;
        if !r.steps("B", m) {
            break;
        }
        if !r.try_move("migrate:T:1") {
            continue;
        }
        while r.try_move("T") {}
        r.finish();
        if r.invariants().iter().any(|i| i == "INV-12") {
            hit = Some(r);
            break;
        }
    }
    let Some(r) = hit else {
        return Err("SC4: T's stale CAS never succeeded on cpu1".into());
    };
    if !r.invariants().iter().any(|i| i == "INV-11") {
        return Err(format!(
            "SC4: a tid read on cpu0 was committed on cpu1 without INV-11: {:?}\n  replay: {}",
            r.violations(),
            r.replay()
        ));
    }
    Ok(())
}

/// Item 5 follow-up: with the flush's deactivation running with interrupts on, the
/// `slab-lock` fallback of `cmpxchg_double_slab` must save interrupts itself (6.x
/// `slab_update_freelist`), or an irq spinning on the slab lock deadlocks its CPU.
#[test]
fn v6_flush_slab_lock_fallback_saves_interrupts() -> R {
    let c = case(
        "v6_flush_slab_lock",
        json!({
            "schemaVersion": 1, "name": "flush with the slab-lock fallback while an irq frees",
            "cpus": 1, "cache": { "objectsPerSlab": 4 },
            "variant": { "cmpxchgDouble": "slab-lock", "fastpath": "tid-loop", "slowpath": "local-lock" },
            "setup": [
                { "cpu": 0, "op": "alloc", "var": "s0" }, { "cpu": 0, "op": "alloc", "var": "s1" },
                { "cpu": 0, "op": "alloc", "var": "s2" }, { "cpu": 0, "op": "alloc", "var": "s3" }
            ],
            "tasks": [ { "id": "T0", "cpu": 0, "ops": [ { "op": "flush" } ] } ],
            "irqs": [ { "id": "I0", "cpu": 0, "ops": [ { "op": "free", "var": "s0" } ] } ]
        }),
    );
    for n in 0..60 {
        let mut r = c.run();
        if !r.steps("T0", n) {
            break;
        }
        r.while_enabled("I0");
        r.finish();
        no_violation(&r)?;
    }
    Ok(())
}

/// The slab that holds the object bound to `var`.
fn slab_of_var(r: &Run, var: &str) -> Option<String> {
    let obj = r.var(var)?;
    r.view()
        .slabs
        .iter()
        .find(|s| s.objects.iter().any(|o| o.name == obj))
        .map(|s| s.name.clone())
}

/// Item 7: a slab an operation holds is exempt from INV-5/6/9 only in the windows of model.md §5,
/// not for the operation's whole life. `__slab_free` changes its slab only with the CAS at S5
/// (v3.10 `__slab_free`'s `cmpxchg_double_slab` loop): before it the slab is exactly as other
/// contexts left it, so a fault they made must be reported at once, not once the free is done.
/// From the CAS that freezes a full slab it holds it until `put_cpu_partial` has it (U5).
#[test]
fn slab_free_holds_its_slab_only_from_its_cas() -> R {
    let c = case(
        "held_window",
        json!({
            "schemaVersion": 1,
            "name": "a remote free into a full slab",
            "cpus": 2,
            "cache": { "objectsPerSlab": 2, "minPartial": 1, "cpuPartial": 2 },
            "variant": { "era": "v3.10" },
            "setup": [
                { "cpu": 1, "op": "alloc", "var": "a" },
                { "cpu": 1, "op": "alloc", "var": "b" },
                { "cpu": 1, "op": "alloc", "var": "c" }
            ],
            "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "free", "var": "a" } ] } ]
        }),
    );
    let mut r = c.run();
    let p = slab_of_var(&r, "a").ok_or("setup: `a` must be allocated")?;
    let held = |r: &Run| r.sim.machine().slabs_held_by_ops().contains(&p);
    for label in ["__slab_free:S2", "__slab_free:S3", "__slab_free:S5"] {
        r.until_label("T", label)?;
        if held(&r) {
            return Err(format!(
                "before its CAS __slab_free must not exempt slab {p} (next step {label})\n{}",
                r.describe()
            ));
        }
    }
    r.mv("T")?; // the CAS at S5 freezes the full slab for cpu0's partial list
    if !held(&r) {
        return Err(format!(
            "between the freezing CAS and put_cpu_partial, slab {p} is held by the free\n{}",
            r.describe()
        ));
    }
    r.complete("T")?;
    r.finish();
    no_violation(&r)
}

/// Nothing after a dead-CPU flush is dropped. A flush with `target` is the
/// CPU's death (the model brings no CPU back online): in setup it runs at once (no context
/// has started on the dead CPU) and every op after it runs on a survivor; an op that would
/// run on the dead CPU is refused with its place (in setup: `setup[2]`). On the
/// task path the flush waits for the dead CPU's contexts, then every later op still runs.
/// Under SLUB, SLAB and Linux 7.0.
#[test]
fn nothing_after_a_dead_cpu_flush_is_dropped() -> R {
    for (allocator, era) in [("slub", None), ("slab", None), ("slub", Some("v7.0"))] {
        let mut sc = json!({
            "schemaVersion": 1,
            "name": "setup flushes cpu0 as dead",
            "allocator": allocator,
            "cpus": 2,
            "cache": { "objectsPerSlab": 4 },
            "setup": [
                { "cpu": 0, "op": "alloc", "var": "a" },
                { "cpu": 1, "op": "flush", "target": 0 },
                { "cpu": 1, "op": "alloc", "var": "b" },
                { "cpu": 1, "op": "free", "var": "a" }
            ],
            "tasks": [ { "id": "T", "cpu": 1, "ops": [ { "op": "alloc", "var": "c" } ] } ]
        });
        if let Some(e) = era {
            sc["variant"] = json!({ "era": e });
        }
        let tag = format!("{allocator} {}", era.unwrap_or(""));
        let mut sim = slub_sim::Simulator::from_json(&sc.to_string(), true)
            .map_err(|e| format!("{tag}: {e}"))?;
        // Setup ran to its end: the flush left events, `b` is held, `a` was freed.
        let flushed = sim.events().iter().any(|e| {
            e.ctx == "(setup)"
                && ["slub_cpu_dead", "flush_cpu_slab", "do_drain"]
                    .iter()
                    .any(|f| e.label.contains(f))
        });
        sim.run_to_end();
        let out = sim.outcome();
        let held = |v: &str| out.vars.get(v).is_some_and(|o| o.held);
        if !flushed
            || !out.finished
            || !held("b")
            || !held("c")
            || held("a")
            || !out.violations.is_empty()
        {
            return Err(format!(
                "{tag}: setup after a dead-CPU flush: flush events {flushed}, finished {}, vars {:?}, violations {:?}",
                out.finished, out.vars, out.violations
            ));
        }
        // Setup goes on on the dead CPU, and the task is bound to it.
        let mut bad = sc.clone();
        bad["setup"][2]["cpu"] = json!(0);
        match slub_sim::scenario::parse(&bad.to_string()) {
            Err(e) if e.path == "setup[2]" && e.message.contains("cpu0 is offline") => {}
            other => {
                return Err(format!(
                    "{tag}: setup[2] on the dead cpu0: {:?}",
                    other.map(|_| ())
                ))
            }
        }
        let mut bad = sc.clone();
        bad["tasks"][0]["cpu"] = json!(0);
        match slub_sim::scenario::parse(&bad.to_string()) {
            Err(e) if e.path == "tasks[0].cpu" && e.message.contains("cpu0 is offline") => {}
            other => {
                return Err(format!(
                    "{tag}: T on the dead cpu0: {:?}",
                    other.map(|_| ())
                ))
            }
        }
        // The task path: T flushes cpu0 as dead while U still runs there; the flush waits,
        // and every op after it (T's own, and V's on the survivor) runs.
        let mut tasks = sc.clone();
        tasks["setup"] = json!([{ "cpu": 0, "op": "alloc", "var": "a" }]);
        tasks["tasks"] = json!([
            { "id": "T", "cpu": 1, "ops": [ { "op": "flush", "target": 0 }, { "op": "alloc", "var": "b" }, { "op": "free", "var": "a" } ] },
            { "id": "U", "cpu": 0, "ops": [ { "op": "alloc", "var": "u" }, { "op": "free", "var": "u" } ] },
            { "id": "V", "cpu": 1, "ops": [ { "op": "alloc", "var": "c" } ] }
        ]);
        let mut sim = slub_sim::Simulator::from_json(&tasks.to_string(), false)
            .map_err(|e| format!("{tag}: {e}"))?;
        sim.run_to_end();
        let out = sim.outcome();
        let held = |v: &str| out.vars.get(v).is_some_and(|o| o.held);
        if !out.finished
            || out.deadlock
            || !held("b")
            || !held("c")
            || held("a")
            || held("u")
            || !out.violations.is_empty()
        {
            return Err(format!(
                "{tag}: the task path: finished {}, deadlock {}, vars {:?}, violations {:?}",
                out.finished, out.deadlock, out.vars, out.violations
            ));
        }
    }
    Ok(())
}

/// Three edges of Linux 7.0's `mm/slub.c`.
/// - `get_from_any_partial` and `__refill_objects_any` walk the zonelist from the local node
///   (SH4 on two nodes: the walk's first look is at the refilling CPU's own node);
/// - a node-specific `___slab_alloc` whose `new_slab` fails under `__GFP_THISNODE` retries
///   without it, and the retry may take another node's partial slab (before: NULL);
/// - `pageAllocFail` fails this cache's pages, not the sheaf's own `kzalloc`: under it
///   `alloc_full_sheaf` gets its sheaf (`SHEAF_ALLOC`) and frees it when the refill fails.
#[test]
fn linux_7_0_edges_match_the_kernel() -> R {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/scenarios/sh04_refill_isolated_slab_remote_free.json"),
    )
    .map_err(|e| e.to_string())?;
    let mut sim = slub_sim::Simulator::from_json(&text, true).map_err(|e| e.to_string())?;
    sim.run_to_end();
    let walk = sim
        .events()
        .iter()
        .find(|e| e.label == "refill_objects:RO3r")
        .ok_or("SH4 walks no zonelist")?;
    // cpu0 is on node 0 (two CPUs, two nodes).
    if !(walk.cpu == 0 && walk.narration.contains("node 0")) {
        return Err(format!(
            "the walk starts elsewhere: cpu{} {}",
            walk.cpu, walk.narration
        ));
    }

    let retry = json!({
        "schemaVersion": 1, "name": "a node-specific allocation retries without __GFP_THISNODE",
        "cpus": 2, "nodes": 2, "variant": { "era": "v7.0" },
        "cache": { "sheafCapacity": 0, "objectsPerSlab": 4, "minPartial": 0, "pageAllocFail": true },
        "setup": [ { "cpu": 1, "op": "alloc", "var": "x" } ],
        "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "alloc", "var": "v", "node": 0 } ] } ]
    });
    let mut sim =
        slub_sim::Simulator::from_json(&retry.to_string(), false).map_err(|e| e.to_string())?;
    sim.run_to_end();
    let out = sim.outcome();
    if !out.violations.is_empty() || out.vars.get("v").and_then(|v| v.addr).is_none() {
        return Err(format!(
            "the retry should take node 1's partial slab: {:?} {:?}",
            out.vars, out.violations
        ));
    }

    let kzalloc = json!({
        "schemaVersion": 1, "name": "alloc_full_sheaf under page allocation failure",
        "cpus": 1, "variant": { "era": "v7.0" },
        "cache": { "sheafCapacity": 4, "pageAllocFail": true },
        "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "alloc", "var": "a" } ] } ]
    });
    let mut sim =
        slub_sim::Simulator::from_json(&kzalloc.to_string(), false).map_err(|e| e.to_string())?;
    sim.run_to_end();
    let out = sim.outcome();
    let n = |s: &str| out.stats.total.get(s).copied().unwrap_or(0);
    if n("SHEAF_ALLOC") == 0 || n("SHEAF_FREE") == 0 || out.vars["a"].addr.is_some() {
        return Err(format!(
            "alloc_full_sheaf: SHEAF_ALLOC {}, SHEAF_FREE {}, a {:?}, {:?}",
            n("SHEAF_ALLOC"),
            n("SHEAF_FREE"),
            out.vars["a"],
            out.violations
        ));
    }
    Ok(())
}
