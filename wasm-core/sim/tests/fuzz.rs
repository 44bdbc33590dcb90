//! A seeded fuzz harness. It mutates the shipped scenarios (the golden ones
//! and every lesson's) as JSON values and as text, feeds them to the parser, and runs every
//! mutant that validates under random schedules (moves, migrations, interrupts) and then the
//! bounded default policy. It asserts what any input must get:
//! - no panic (a panic fails this test; the release build aborts, so the CLI could not even
//!   report it), and no internal error of the model (the violation `MODEL`);
//! - a rejected scenario names where: a JSON path, or for text that is not JSON a line and
//!   column;
//! - a run ends within its move bound, finished, deadlocked or reported as `LIVELOCK`.
//!
//! `FUZZ_CASES` sets the number of cases (10,000 by default, inside `npm test`), `FUZZ_SEED`
//! the seed. `npm run fuzz` runs 1,000,000.

mod fuzz_gen;

use fuzz_gen::{as_text, corpus, mutate, Rng};
use serde_json::Value;
use slub_sim::{scenario, Simulator};
use std::path::PathBuf;

thread_local! {
    static LIVELOCKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Play `sim` by random enabled moves, then the bounded default policy.
fn play(sim: &mut Simulator, r: &mut Rng) {
    for _ in 0..r.below(200) {
        let moves = sim.enabled_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[r.below(moves.len())].clone();
        sim.apply(&mv).expect("an enabled move applies");
    }
    // A move that is not enabled is an error, never a panic.
    let _ = sim.apply("no-such-context");
    sim.run_to_end_within(20_000);
    let out = sim.outcome();
    // An internal error of the model (`model::Fault`) is a bug of the model, whatever input led
    // to it.
    let model = out.violations.iter().find(|v| v.invariant == "MODEL");
    assert!(model.is_none(), "an internal error of the model: {model:?}");
    let livelock = out.violations.iter().any(|v| v.invariant == "LIVELOCK");
    if livelock {
        LIVELOCKS.with(|n| n.set(n.get() + 1));
        // Keep one, with the moves that led there: a run that never ends is the input the
        // move ceiling (`run --max-moves`) is measured on.
        let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz-livelock.json");
        if !file.exists() {
            let mut v: Value = serde_json::to_value(sim.scenario()).unwrap_or(Value::Null);
            let played = sim.history().len().saturating_sub(20_000);
            v["schedule"] = Value::from(sim.history()[..played].to_vec());
            let _ = std::fs::write(&file, v.to_string());
        }
    }
    assert!(
        out.finished || out.deadlock || livelock,
        "a run stopped without finishing, a deadlock or a livelock: {:?}",
        out.violations
    );
}

#[test]
fn mutated_scenarios_never_panic_and_every_error_names_where() {
    let cases: u64 = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_51AB);
    let corpus: Vec<Value> = corpus()
        .iter()
        .map(|t| serde_json::from_str(t).expect("corpus is JSON"))
        .collect();
    let mut r = Rng(seed | 1);
    let (mut valid, mut rejected) = (0u64, 0u64);
    let t0 = std::time::Instant::now();
    for case in 0..cases {
        let mut v = corpus[r.below(corpus.len())].clone();
        for _ in 0..1 + r.below(3) {
            mutate(&mut v, &mut r);
        }
        let text = as_text(&v, &mut r);
        let play_seed = r.next();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            one_case(case, seed, &text, &mut Rng(play_seed | 1))
        }));
        match outcome {
            Ok(true) => valid += 1,
            Ok(false) => rejected += 1,
            Err(_) => {
                let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failure.json");
                let _ = std::fs::write(&file, &text);
                panic!(
                    "case {case} (seed {seed}) panicked (above); its scenario is in {}",
                    file.display()
                );
            }
        }
    }
    println!(
        "fuzz: {cases} cases (seed {seed}): {valid} valid and run ({} livelocked), {rejected} rejected with a place, in {:.1?}",
        LIVELOCKS.with(|n| n.get()),
        t0.elapsed()
    );
    assert_eq!(fuzz_gen::MAX_SCHEDULE_MOVES, scenario::MAX_SCHEDULE_MOVES);
}

/// One mutant: parse it, and run it if it validates. True if it was valid.
fn one_case(case: u64, seed: u64, text: &str, r: &mut Rng) -> bool {
    {
        match scenario::parse(text) {
            Err(e) => {
                let names_where = !e.path.is_empty()
                    || e.message.contains("line ")
                    || e.message.contains("column");
                assert!(
                    names_where,
                    "case {case} (seed {seed}): the error names no place: {e}\n{text}"
                );
                false
            }
            Ok(_) => {
                let mut sim = Simulator::from_json(text, r.below(4) == 0)
                    .unwrap_or_else(|e| panic!("case {case}: parsed but not built: {e}"));
                play(&mut sim, r);
                true
            }
        }
    }
}

/// Found by this harness (case 176,746 of the default seed): task F frees `g`, which task G's
/// allocation leaves NULL (`pageAllocFail`). `kfree(NULL)` has no step, so F's move found no
/// frame to run and the model panicked ("a frame to run"); now the move lets F finish.
#[test]
fn freeing_a_failed_allocation_finishes_without_a_step() {
    let text = r#"{ "schemaVersion": 1, "name": "kfree(NULL) after a failed allocation", "cpus": 2,
        "cache": { "objectsPerSlab": 4, "minPartial": 1, "cpuPartial": 2, "pageAllocFail": true },
        "setup": [ { "cpu": 0, "op": "alloc", "var": "a0" }, { "cpu": 0, "op": "alloc", "var": "a1" },
                   { "cpu": 0, "op": "alloc", "var": "a2" }, { "cpu": 0, "op": "alloc", "var": "a3" } ],
        "tasks": [ { "id": "F", "cpu": 0, "ops": [ { "op": "free", "var": "g" } ] },
                   { "id": "G", "cpu": 0, "ops": [ { "op": "alloc", "var": "g" } ] } ] }"#;
    for events in [false, true] {
        let mut sim = Simulator::from_json(text, events).expect("valid");
        sim.run_to_end();
        let out = sim.outcome();
        assert!(out.finished && out.violations.is_empty(), "{out:?}");
        assert_eq!(out.vars["g"].addr, None, "the allocation failed");
    }
}
