//! Issue 12 item 9: a seeded fuzz harness. It mutates the shipped scenarios (the golden ones
//! and every lesson's) as JSON values and as text, feeds them to the parser, and runs every
//! mutant that validates under random schedules (moves, migrations, interrupts) and then the
//! bounded default policy. It asserts what the issue asks of any input:
//! - no panic (a panic fails this test; the release build aborts, so the CLI could not even
//!   report it), and no internal error of the model (the violation `MODEL`);
//! - a rejected scenario names where: a JSON path, or for text that is not JSON a line and
//!   column;
//! - a run ends within its move bound, finished, deadlocked or reported as `LIVELOCK`.
//!
//! `FUZZ_CASES` sets the number of cases (10,000 by default, inside `npm test`), `FUZZ_SEED`
//! the seed. `npm run fuzz` runs 1,000,000.

use serde_json::Value;
use slub_sim::{scenario, Simulator};
use std::path::PathBuf;

/// xorshift64*: small, seeded, reproducible; no crate needed for a test's dice.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn corpus() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["wasm-core/sim/tests/scenarios", "lessons"] {
        let mut todo = vec![root.join(dir)];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).expect("corpus dir").flatten() {
                let p = e.path();
                if p.is_dir() {
                    todo.push(p);
                } else if p.extension().is_some_and(|x| x == "json")
                    && p.file_name().is_some_and(|n| n != "vocabulary.json")
                {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("corpus file"))
        .collect();
    assert!(texts.len() >= 20, "only {} corpus scenarios", texts.len());
    texts
}

/// Every place in a JSON value, as a path of keys and indices.
fn places(v: &Value, here: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                here.push(Value::from(k.as_str()));
                places(x, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(Value::from(i));
                places(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    let mut cur = v;
    for p in path {
        cur = match p {
            Value::String(k) => cur.get_mut(k.as_str())?,
            Value::Number(i) => cur.get_mut(i.as_u64()? as usize)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Values a careless or hostile author writes.
fn odd_value(r: &mut Rng) -> Value {
    let pick = [
        Value::from(0),
        Value::from(-1),
        Value::from(1),
        Value::from(2),
        Value::from(7),
        Value::from(64),
        Value::from(65),
        Value::from(4096),
        Value::from(u64::MAX),
        Value::from(1.5),
        Value::from(""),
        Value::from("A"),
        Value::from("x"),
        Value::from("migrate:A:1"),
        Value::from("v6.8"),
        Value::from("no-tid"),
        Value::from("__proto__"),
        Value::from("a".repeat(40)),
        Value::Null,
        Value::Bool(true),
        Value::Array(vec![]),
        serde_json::json!({}),
    ];
    pick[r.below(pick.len())].clone()
}

fn mutate(v: &mut Value, r: &mut Rng) {
    let mut all = Vec::new();
    places(v, &mut Vec::new(), &mut all);
    let path = all[r.below(all.len())].clone();
    let donor_path = all[r.below(all.len())].clone();
    let donor = at(&mut v.clone(), &donor_path)
        .cloned()
        .unwrap_or(Value::Null);
    let Some(target) = at(v, &path) else { return };
    match r.below(6) {
        0 => *target = odd_value(r),
        1 => *target = donor,
        2 => {
            if let Value::Array(a) = target {
                if !a.is_empty() {
                    let i = r.below(a.len());
                    let x = a[i].clone();
                    a.insert(i, x);
                }
            }
        }
        3 => {
            if let Value::Array(a) = target {
                if !a.is_empty() {
                    a.remove(r.below(a.len()));
                }
            } else if let Value::Object(m) = target {
                let keys: Vec<String> = m.keys().cloned().collect();
                if !keys.is_empty() {
                    m.remove(&keys[r.below(keys.len())]);
                }
            }
        }
        4 => {
            if let Value::Object(m) = target {
                let keys = [
                    "variant", "era", "fastpath", "cpu", "var", "target", "node", "extra",
                ];
                m.insert(keys[r.below(keys.len())].to_string(), odd_value(r));
            }
        }
        _ => {
            if let Value::Number(n) = target {
                let x = n.as_i64().unwrap_or(0);
                *target = Value::from(x + [-1, 1, 8, 1000][r.below(4)]);
            }
        }
    }
}

/// A mutant as text: mostly the value's JSON, sometimes cut or with a byte changed.
fn as_text(v: &Value, r: &mut Rng) -> String {
    let mut s = v.to_string();
    match r.below(10) {
        0 if !s.is_empty() => s.truncate(r.below(s.len())),
        1 if !s.is_empty() => {
            let i = r.below(s.len());
            if s.is_char_boundary(i) && s.is_char_boundary(i + 1) {
                let c = ['{', '}', '"', ',', '9', ':', '[', ' '][r.below(8)];
                s.replace_range(i..i + 1, &c.to_string());
            }
        }
        _ => {}
    }
    s
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
        "fuzz: {cases} cases (seed {seed}): {valid} valid and run, {rejected} rejected with a place, in {:.1?}",
        t0.elapsed()
    );
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
