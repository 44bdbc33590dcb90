//! Fidelity to the kernel at the edges of the model (issue 11): one regression test per
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

/// Item 1 (spec INV-12 errata): under `no-tid` the CAS compares only the freelist head, so the
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
