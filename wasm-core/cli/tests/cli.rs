//! The command-line contract of design.md §5, run against the built `slub-lab` binary.
//!
//! Exit codes: 0 no violation, 1 a violation, 2 bad input or a move that is not enabled —
//! never a panic (101) or a signal.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_slub-lab");

/// Write `text` to a file of its own under cargo's scratch directory for tests.
fn scenario_file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("slub-lab-cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, text).unwrap();
    path
}

fn slub_lab(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the slub-lab binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[track_caller]
fn assert_exit(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "expected exit {code}, got {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status,
        stdout(o),
        stderr(o)
    );
}

/// A valid scenario: CPU 0 allocates `a` in setup; task A allocates `x` on CPU 0, task B frees
/// `a` on CPU 1 (a remote free), an irq on CPU 0 allocates and frees `y`.
fn valid() -> Value {
    json!({
        "schemaVersion": 1,
        "name": "cli test",
        "cpus": 2,
        "setup": [ { "cpu": 0, "op": "alloc", "var": "a" } ],
        "tasks": [ { "id": "A", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" } ] },
                   { "id": "B", "cpu": 1, "ops": [ { "op": "free", "var": "a" } ] } ],
        "irqs":  [ { "id": "I", "cpu": 0, "ops": [ { "op": "alloc", "var": "y" },
                                                   { "op": "free", "var": "y" } ] } ]
    })
}

// --- Input errors: these do not need the model -------------------------------------------------

#[test]
fn bad_scenarios_exit_2_naming_the_file_and_the_path() {
    let cases: Vec<(&str, String, &[&str])> = vec![
        (
            "absurd-cpus",
            valid().to_string().replace("\"cpus\":2", "\"cpus\":1000"),
            &["cpus", "1 to 8"],
        ),
        (
            "syntax",
            "{\n \"schemaVersion\": 1,,\n}".to_string(),
            &["invalid JSON", "line 2"],
        ),
        (
            "unknown-op-key",
            {
                let mut v = valid();
                v["tasks"][1]["ops"][0]["size"] = json!(8);
                v.to_string()
            },
            &["tasks[1].ops[0].size", "unknown field"],
        ),
        (
            "unbound",
            {
                let mut v = valid();
                v["tasks"][1]["ops"][0]["var"] = json!("nope");
                v.to_string()
            },
            &["tasks[1].ops[0].var", "unbound variable `nope`"],
        ),
        (
            "bad-schedule",
            {
                let mut v = valid();
                v["schedule"] = json!(["A", "Q"]);
                v.to_string()
            },
            &["schedule[1]", "`Q`"],
        ),
        (
            "negative",
            {
                let mut v = valid();
                v["cache"] = json!({ "objectsPerSlab": -1 });
                v.to_string()
            },
            &["cache.objectsPerSlab", "1 to 64"],
        ),
        ("empty", String::new(), &["invalid JSON"]),
    ];
    for (name, text, needles) in cases {
        let path = scenario_file(name, &text);
        let o = slub_lab(&["run", path.to_str().unwrap()]);
        assert_exit(&o, 2);
        let err = stderr(&o);
        assert!(err.starts_with("slub-lab: "), "{name}: {err}");
        assert!(
            err.contains(&format!("{name}.json")),
            "{name}: stderr does not name the file: {err}"
        );
        for n in needles {
            assert!(err.contains(n), "{name}: stderr lacks `{n}`: {err}");
        }
        assert!(
            stdout(&o).is_empty(),
            "{name}: printed output for a bad scenario"
        );
        // explore validates the same way.
        let o = slub_lab(&["explore", path.to_str().unwrap()]);
        assert_exit(&o, 2);
        assert!(
            stderr(&o).contains(&format!("{name}.json")),
            "{name}: explore: {}",
            stderr(&o)
        );
    }
}

#[test]
fn missing_or_unreadable_file_exits_2() {
    let o = slub_lab(&["run", "/nonexistent/slub-lab/scenario.json"]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("/nonexistent/slub-lab/scenario.json"),
        "{}",
        stderr(&o)
    );

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let o = slub_lab(&["run", dir.to_str().unwrap()]);
    assert_exit(&o, 2);

    let path = scenario_file("not-utf8", "");
    std::fs::write(&path, [0xff, 0xfe, b'{', 0x80]).unwrap();
    let o = slub_lab(&["run", path.to_str().unwrap()]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("not-utf8.json"), "{}", stderr(&o));
}

/// `bench WORKLOAD` prints design.md §5's cycles per operation and stat counters as JSON, with
/// the workload's parameters and the variant as run.
#[test]
fn bench_prints_cycles_per_operation_and_stats() {
    let o = slub_lab(&[
        "bench",
        "fastpath-reuse",
        "--variant",
        "fastpath=tid-loop",
        "--variant",
        "prefetch=w",
        "--cpus",
        "2",
        "--param",
        "n=500",
    ]);
    assert_exit(&o, 0);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in [
        "schemaVersion",
        "workload",
        "params",
        "variant",
        "cycles",
        "ops",
        "stats",
        "transfers",
        "listLocks",
    ] {
        assert!(r.get(key).is_some(), "bench output lacks `{key}`: {r}");
    }
    for key in ["alloc", "free", "pair"] {
        assert!(
            r["cycles"][key].as_f64().is_some_and(|c| c > 0.0),
            "cycles.{key}: {}",
            r["cycles"]
        );
    }
    assert_eq!(r["workload"], "fastpath-reuse");
    assert_eq!(r["params"]["cpus"], 2);
    assert_eq!(r["params"]["n"], 500);
    assert_eq!(r["variant"]["fastpath"], "tid-loop");
    assert_eq!(r["variant"]["prefetch"], "w");
    assert_eq!(r["ops"]["alloc"], 500);
    // The stat counters are the machine's: the 500 measured pairs and the warm-up pair.
    assert_eq!(r["stats"]["total"]["FREE_FASTPATH"], 501, "{}", r["stats"]);
    assert_eq!(r["mechanisms"]["warmupOps"], 2, "{}", r["mechanisms"]);
    assert!(r["stats"]["perCpu"].as_array().unwrap().len() == 2);
}

/// `bench seeds --seed ID` prints the comparison beside the seed's published figures.
#[test]
fn bench_seeds_prints_the_model_ratio_beside_the_seeds() {
    let o = slub_lab(&["bench", "seeds", "--seed", "004"]);
    assert_exit(&o, 0);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let c = &r["comparisons"][0];
    assert_eq!(c["id"], "004");
    assert_eq!(c["before"]["published"], 46.0);
    assert_eq!(c["after"]["published"], 43.0);
    for key in ["seedRatio", "modelRatio", "ratioOff"] {
        assert!(c[key].as_f64().is_some(), "{key}: {c}");
    }
    assert_eq!(c["signOk"], true, "{c}");
    assert_eq!(r["pending"], serde_json::json!([]), "every seed runs");
    // A SLAB comparison: seed 001 at 1 KiB, the allocation cycles and the list_lock count.
    let o = slub_lab(&["bench", "seeds", "--seed", "001c"]);
    assert_exit(&o, 0);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let c = &r["comparisons"][0];
    assert_eq!(c["before"]["variant"]["allocator"], "slab", "{c}");
    assert_eq!(c["signOk"], true, "{c}");
    let locks = |side: &str| c[side]["perOp"]["alloc"]["listLocks"].as_f64().unwrap();
    assert!(locks("after") < locks("before"), "{c}");
}

/// `--variant allocator=slab` runs a workload on SLAB; SLUB-only keys with it are exit 2.
#[test]
fn bench_runs_slab_and_rejects_slub_keys_with_it() {
    let o = slub_lab(&[
        "bench",
        "alloc-free",
        "--variant",
        "allocator=slab",
        "--param",
        "n=200",
    ]);
    assert_exit(&o, 0);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["allocator"], "slab");
    assert!(r["stats"]["total"]["ALLOCHIT"].as_u64().unwrap() > 0, "{r}");
    let o = slub_lab(&[
        "bench",
        "alloc-free",
        "--variant",
        "allocator=slab",
        "--variant",
        "fastpath=tid-loop",
    ]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("fastpath"), "{}", stderr(&o));
}

/// An unknown workload, variant key or value, or parameter is exit 2 with a message that
/// lists the valid ones, and nothing on stdout.
#[test]
fn bench_bad_input_exits_2_listing_the_valid_ones() {
    for (args, expect) in [
        (
            vec!["bench", "alloc-free-please"],
            vec!["alloc-then-free", "producer-consumer", "seeds"],
        ),
        (
            vec!["bench", "alloc-free", "--variant", "fastpath=quick"],
            vec!["fastpath=quick", "tid-loop", "irq-disable"],
        ),
        (
            vec!["bench", "alloc-free", "--variant", "colour=red"],
            vec!["colour", "prefetch", "cpuPartial"],
        ),
        (
            vec!["bench", "alloc-free", "--variant", "prefetch=maybe"],
            vec!["prefetch=maybe", "\"w\""],
        ),
        (
            vec!["bench", "alloc-free", "--param", "window=3"],
            vec!["window", "size"],
        ),
        (
            vec!["bench", "alloc-free", "--param", "size=16384"],
            vec!["8192"],
        ),
        (
            vec!["bench", "producer-consumer", "--cpus", "1"],
            vec!["cpus"],
        ),
        (vec!["bench", "alloc-free", "--cpus", "9"], vec!["cpus"]),
        (vec!["bench", "seeds", "--cpus", "2"], vec!["seeds"]),
        (vec!["bench", "seeds", "--seed", "042"], vec!["003", "004"]),
        (vec!["bench", "alloc-free", "--seed", "003"], vec!["seeds"]),
    ] {
        let o = slub_lab(&args);
        assert_exit(&o, 2);
        for e in expect {
            assert!(
                stderr(&o).contains(e),
                "{args:?}: `{e}` not in {}",
                stderr(&o)
            );
        }
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
}

/// `explore` prints design.md §5's object; a found counterexample replays with `run --schedule`.
#[test]
fn explore_finds_the_aba_and_its_schedule_replays() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../sim/tests/scenarios/sc02_aba_without_tid.json"
    );
    let mut sc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir).unwrap()).unwrap();
    let path = scenario_file("explore-sc02-default", &sc.to_string());
    let o = slub_lab(&[
        "explore",
        path.to_str().unwrap(),
        "--max-preemptions",
        "2",
        "--max-executions",
        "1000",
    ]);
    assert_exit(&o, 0);
    let clean: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in [
        "schemaVersion",
        "executions",
        "complete",
        "elapsedMs",
        "violations",
    ] {
        assert!(
            clean.get(key).is_some(),
            "explore output lacks `{key}`: {clean}"
        );
    }
    assert_eq!(clean["complete"], true);

    sc["variant"] = serde_json::json!({"fastpath": "no-tid"});
    let path = scenario_file("explore-sc02-no-tid", &sc.to_string());
    let o = slub_lab(&["explore", path.to_str().unwrap()]);
    assert_exit(&o, 1);
    let found: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let v = &found["violations"][0];
    let schedule: Vec<&str> = v["schedule"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let o = slub_lab(&[
        "run",
        path.to_str().unwrap(),
        "--schedule",
        &schedule.join(","),
    ]);
    assert_exit(&o, 1);
    let run: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(run["violations"][0]["invariant"], v["invariant"]);
    assert_eq!(run["violations"][0]["message"], v["message"]);
}

#[test]
fn explore_rejects_bad_bounds_with_exit_2() {
    let path = scenario_file("explore-bounds", &valid().to_string());
    let p = path.to_str().unwrap();
    for args in [
        vec!["explore", p, "--max-preemptions", "-3"],
        vec!["explore", p, "--max-executions", "lots"],
        vec!["explore", p, "--timeout-ms", "soon"],
        vec!["explore", p, "--max-migrations", "99999999999999999999"],
    ] {
        let o = slub_lab(&args);
        assert_exit(&o, 2);
        assert!(!stderr(&o).is_empty(), "{args:?}: no message");
    }
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    for args in [
        vec![],
        vec!["frobnicate"],
        vec!["run"],
        vec!["run", "a.json", "--bogus"],
        vec!["run", "a.json", "b.json"],
        vec!["run", "a.json", "--schedule"],
        vec!["explore", "a.json", "--max-preemptions", "many"],
        vec!["explore", "a.json", "--max-executions", "-1"],
        vec!["bench", "w", "--variant", "no-equals-sign"],
        vec!["bench", "w", "--cpus", "99999999999999"],
    ] {
        let o = slub_lab(&args);
        assert_exit(&o, 2);
        assert!(!stderr(&o).is_empty(), "{args:?}: no message");
    }
    for args in [vec!["--help"], vec!["run", "--help"], vec!["--version"]] {
        let o = slub_lab(&args);
        assert_exit(&o, 0);
        assert!(!stdout(&o).is_empty(), "{args:?}");
    }
}

// --- Runs: these need the model ---------------------------------------------------------------

#[test]
fn valid_scenario_runs_to_the_end_and_prints_the_outcome() {
    let path = scenario_file("valid", &valid().to_string());
    let o = slub_lab(&["run", path.to_str().unwrap()]);
    assert_exit(&o, 0);
    let out: Value = serde_json::from_str(&stdout(&o)).expect("stdout is one JSON object");
    assert_eq!(out["schemaVersion"], json!(1));
    assert_eq!(out["finished"], json!(true));
    assert_eq!(out["violations"], json!([]));
    assert!(out["stats"]["total"].is_object(), "{out}");
    assert_eq!(
        out["stats"]["perCpu"].as_array().map(Vec::len),
        Some(2),
        "{out}"
    );
    assert_eq!(
        out["cycles"]["perCpu"].as_array().map(Vec::len),
        Some(2),
        "{out}"
    );
    assert!(
        out["cycles"]["perCpu"]
            .as_array()
            .unwrap()
            .iter()
            .all(Value::is_u64),
        "{out}"
    );
    assert!(out.get("events").is_none(), "events without --events");
    // Stats count from the start, setup included, under the kernel's names: setup's first
    // allocation takes a slab from the page allocator (3.10 does not count ALLOC_SLOWPATH
    // there, model.md §8), A's allocation then hits the fast path, B's free on CPU 1 of CPU 0's
    // object is a slow-path (remote) free.
    let total = &out["stats"]["total"];
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    assert!(n(&total["ALLOC_SLAB"]) >= 1, "{total}");
    assert!(n(&total["ALLOC_FASTPATH"]) >= 1, "{total}");
    assert!(n(&total["FREE_SLOWPATH"]) >= 1, "remote free: {total}");
    assert!(n(&out["stats"]["perCpu"][1]["FREE_SLOWPATH"]) >= 1, "{out}");
    // Every variable: the object it was bound to and whether it is still allocated.
    let vars = &out["vars"];
    for (var, held) in [("a", false), ("x", true), ("y", false)] {
        assert!(vars[var]["addr"].is_u64(), "{var}: {vars}");
        assert_eq!(vars[var]["held"], json!(held), "{var}: {vars}");
    }
}

#[test]
fn events_flag_adds_the_events() {
    let path = scenario_file("events", &valid().to_string());
    let o = slub_lab(&["run", path.to_str().unwrap(), "--events"]);
    assert_exit(&o, 0);
    let out: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let events = out["events"].as_array().expect("an events array");
    assert!(!events.is_empty());
    for (i, e) in events.iter().enumerate() {
        for key in ["step", "ctx", "cpu", "label", "kind", "narration"] {
            assert!(e.get(key).is_some(), "event {i} lacks {key}: {e}");
        }
    }
    // Same run, same outcome (determinism), events aside.
    let o2 = slub_lab(&["run", path.to_str().unwrap()]);
    let mut out2: Value = serde_json::from_str(&stdout(&o2)).unwrap();
    out2["events"] = out["events"].clone();
    assert_eq!(out, out2);
}

#[test]
fn a_move_that_is_not_enabled_exits_2_naming_its_index() {
    // A is the only task of CPU 0, hence current there: it cannot migrate.
    let path = scenario_file("not-enabled", &valid().to_string());
    let p = path.to_str().unwrap();
    let o = slub_lab(&["run", p, "--schedule", "A, migrate:A:1"]);
    assert_exit(&o, 2);
    let err = stderr(&o);
    assert!(err.contains("move 1"), "{err}");
    assert!(err.contains("migrate:A:1"), "{err}");
    assert!(err.contains("not-enabled.json"), "{err}");
    assert!(stdout(&o).is_empty());

    // A flag's move is not checked against the scenario: an unknown context is not enabled.
    let o = slub_lab(&["run", p, "--schedule", "Zed"]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("move 0"), "{}", stderr(&o));
    assert!(stderr(&o).contains("Zed"), "{}", stderr(&o));
}

#[test]
fn the_schedule_comes_from_the_flag_else_from_the_file() {
    let mut v = valid();
    v["schedule"] = json!(["A", "migrate:A:1"]);
    let path = scenario_file("file-schedule", &v.to_string());
    let p = path.to_str().unwrap();
    // The file's schedule is used when there is no flag.
    let o = slub_lab(&["run", p]);
    assert_exit(&o, 2);
    assert!(stderr(&o).contains("move 1"), "{}", stderr(&o));
    // The flag overrides it; an empty flag is an empty schedule (the default policy runs).
    let o = slub_lab(&["run", p, "--schedule", ""]);
    assert_exit(&o, 0);
    // (Not "B,I,A": once I has entered, nothing else of CPU 0 steps until I finishes.)
    let o = slub_lab(&["run", p, "--schedule", "B,A,B"]);
    assert_exit(&o, 0);
    let out: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(out["finished"], json!(true));
}

/// The default policy adds a bounded number of moves (`MAX_POLICY_MOVES`,
/// `--max-moves`); a run still going then is an outcome, `LIVELOCK`, never `finished`, and its
/// events stop with it. Here the bound is made tiny on a run that needs more.
#[test]
fn a_run_that_outlasts_its_move_bound_is_a_livelock() {
    let path = scenario_file("livelock", &valid().to_string());
    let p = path.to_str().unwrap();
    let whole = slub_lab(&["run", p, "--schedule", "", "--events"]);
    assert_exit(&whole, 0);
    let whole: Value = serde_json::from_str(&stdout(&whole)).unwrap();
    let all_events = whole["events"].as_array().unwrap().len();
    assert!(all_events > 6, "the run takes {all_events} steps");

    let cut = slub_lab(&["run", p, "--schedule", "", "--events", "--max-moves", "5"]);
    assert_exit(&cut, 1);
    let cut: Value = serde_json::from_str(&stdout(&cut)).unwrap();
    assert_eq!(cut["finished"], json!(false));
    let v = &cut["violations"][0];
    assert_eq!(v["invariant"], json!("LIVELOCK"), "{cut}");
    let msg = v["message"].as_str().unwrap();
    assert!(
        msg.contains("after 5 moves") && msg.contains("A kept running"),
        "{msg}"
    );
    assert!(cut["events"].as_array().unwrap().len() < all_events);

    // With no move allowed at all, the context that was next is named (the message
    // once read " kept running in its last 0 moves", with no name).
    let none = slub_lab(&["run", p, "--schedule", "", "--max-moves", "0"]);
    assert_exit(&none, 1);
    let none: Value = serde_json::from_str(&stdout(&none)).unwrap();
    let msg = none["violations"][0]["message"].as_str().unwrap();
    assert!(
        msg.contains("after 0 moves")
            && msg.contains(": A was next to move, and no move was allowed"),
        "{msg}"
    );

    let bad = slub_lab(&["run", p, "--max-moves", "lots"]);
    assert_exit(&bad, 2);
}

/// A file that is not UTF-8 is named with the byte offset where it stops.
#[test]
fn invalid_utf8_names_the_byte_offset() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("slub-lab-cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("latin1.json");
    let mut bytes = br#"{"schemaVersion": 1, "name": "caf"#.to_vec();
    let at = bytes.len();
    bytes.extend_from_slice(b"\xe9\"}");
    std::fs::write(&path, &bytes).unwrap();
    let o = slub_lab(&["run", path.to_str().unwrap()]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains(&format!("byte offset {at}")),
        "{}",
        stderr(&o)
    );
}

/// With `--max-irq-entries 0` an irq that must run can never run, so no
/// schedule ends; the search must not claim to be complete with 0 executions.
#[test]
fn a_search_whose_every_schedule_is_cut_is_not_complete() {
    let path = scenario_file("irq_cut", &valid().to_string());
    let o = slub_lab(&["explore", path.to_str().unwrap(), "--max-irq-entries", "0"]);
    assert_exit(&o, 0);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["executions"], json!(0));
    assert_eq!(r["complete"], json!(false), "{r}");
    assert!(
        r["incomplete"].as_str().unwrap().contains("irq entries"),
        "{r}"
    );
    let o = slub_lab(&["explore", path.to_str().unwrap()]);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(
        r["executions"].as_u64().unwrap() > 0 && r.get("incomplete").is_none(),
        "{r}"
    );
}

/// The search holds a bounded amount of memory (`--max-memory-mb`); reached,
/// it stops with `complete: false` and says so, with its estimate per state.
#[test]
fn explore_stops_at_its_memory_budget_and_says_so() {
    let sc = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../sim/tests/scenarios/sc15_asymmetric_producer_consumer.json");
    let p = sc.to_str().unwrap();
    let o = slub_lab(&["explore", p, "--max-memory-mb", "1"]);
    assert_exit(&o, 0);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["complete"], json!(false), "{r}");
    let why = r["incomplete"].as_str().unwrap();
    assert!(
        why.contains("memory budget (1 MB)") && why.contains("bytes per queued state"),
        "{why}"
    );
    let o = slub_lab(&["explore", p]);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["complete"], json!(true), "{r}");
}

/// Every size a user gives has a ceiling, and the refusal names it: the
/// moves the default policy may add, a schedule's length (in the file and on the command
/// line), the explorer's memory budget and the file itself. A run at the move ceiling is
/// accepted.
#[test]
fn every_size_has_a_ceiling_that_its_error_names() {
    let path = scenario_file("ceilings", &valid().to_string());
    let p = path.to_str().unwrap();

    let o = slub_lab(&["run", p, "--max-moves", "1000001"]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("--max-moves") && stderr(&o).contains("ceiling of 1000000"),
        "{}",
        stderr(&o)
    );
    let o = slub_lab(&["run", p, "--max-moves", "1000000", "--events"]);
    assert_exit(&o, 0);

    let mut long = valid();
    long["schedule"] = json!(vec!["A"; 100_001]);
    let lp = scenario_file("long_schedule", &long.to_string());
    for sub in ["run", "explore"] {
        let o = slub_lab(&[sub, lp.to_str().unwrap()]);
        assert_exit(&o, 2);
        let e = stderr(&o);
        assert!(
            e.contains("schedule: more than 100000 moves") && e.contains("MAX_SCHEDULE_MOVES"),
            "{sub}: {e}"
        );
    }
    // (`--schedule` has the same ceiling, tested in main.rs: Linux refuses one argument of
    // more than 128 KiB, about 65,000 moves, before the binary could see it.)
    // At the ceiling the schedule is read and played up to its first move that is not enabled.
    long["schedule"] = json!(vec!["A"; 100_000]);
    let lp = scenario_file("long_schedule_ok", &long.to_string());
    let o = slub_lab(&["run", lp.to_str().unwrap()]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("(\"A\") is not enabled: A has finished"),
        "{}",
        stderr(&o)
    );

    for mb in ["0", "4097", "18446744073709551615"] {
        let o = slub_lab(&["explore", p, "--max-memory-mb", mb]);
        assert_exit(&o, 2);
        assert!(
            stderr(&o).contains("--max-memory-mb") && stderr(&o).contains("1 to 4096"),
            "{mb}: {}",
            stderr(&o)
        );
    }
    let o = slub_lab(&["explore", p, "--max-memory-mb", "4096"]);
    assert_exit(&o, 0);

    let huge = scenario_file("huge", &" ".repeat((16 << 20) + 1));
    let o = slub_lab(&["run", huge.to_str().unwrap()]);
    assert_exit(&o, 2);
    assert!(
        stderr(&o).contains("larger than 16777216 bytes"),
        "{}",
        stderr(&o)
    );
}

/// `explore` has a wall-clock limit by default, as the page's explorer has
/// (10 s), and says when it stopped for it; `--timeout-ms` sets it.
#[test]
fn explore_stops_at_its_time_limit_and_says_so() {
    let ops = |p: &str| {
        let mut o: Vec<Value> = (0..16)
            .map(|i| json!({ "op": "alloc", "var": format!("{p}{i}") }))
            .collect();
        o.extend((0..16).map(|i| json!({ "op": "free", "var": format!("{p}{i}") })));
        o
    };
    let sc = json!({
        "schemaVersion": 1, "name": "a search of minutes", "cpus": 2,
        "tasks": [ { "id": "A", "cpu": 0, "ops": ops("a") }, { "id": "B", "cpu": 1, "ops": ops("b") } ]
    });
    let path = scenario_file("slow_search", &sc.to_string());
    let o = slub_lab(&["explore", path.to_str().unwrap(), "--timeout-ms", "200"]);
    assert_exit(&o, 0);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["complete"], json!(false), "{r}");
    assert!(
        r["incomplete"]
            .as_str()
            .unwrap()
            .contains("the time limit (200 ms) ran out"),
        "{r}"
    );
    let help = slub_lab(&["explore", "--help"]);
    assert!(
        stdout(&help).contains("[default: 10000]"),
        "{}",
        stdout(&help)
    );
}

/// The budget is clamped to what the process can get, the result names the
/// clamp, and a search that reaches it stops cleanly (exit 0 or 2; before, 134: "memory
/// allocation failed" under a 2 GiB address-space limit).
#[test]
fn explore_clamps_its_budget_to_the_address_space_limit_and_stops_there() {
    let under = |gib_bytes: &str, args: &[&str]| {
        Command::new("prlimit")
            .arg(format!("--as={gib_bytes}"))
            .arg(BIN)
            .args(args)
            .output()
            .expect("prlimit (util-linux) runs")
    };
    let sc = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../sim/tests/scenarios/sc08_concurrent_remote_frees_same_slab.json");
    let o = under(
        "2147483648",
        &["explore", sc.to_str().unwrap(), "--max-memory-mb", "3000"],
    );
    assert!(
        matches!(o.status.code(), Some(0 | 2)),
        "{:?}\n{}",
        o.status,
        stderr(&o)
    );
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let clamp = r["memoryClamp"]
        .as_str()
        .unwrap_or_else(|| panic!("no clamp named: {r}"));
    assert!(
        clamp.contains("from 3000 MB") && clamp.contains("RLIMIT_AS") && clamp.contains("2048 MB"),
        "{clamp}"
    );
    assert!(r["memoryBudgetMb"].as_u64().unwrap() < 700, "{r}");
    // A search that fills its clamped budget: three CPUs under 7.0 and an irq, no time limit,
    // in 384 MB of address space (a budget of about 125 MB).
    let ops = |p: &str| json!([{ "op": "alloc", "var": format!("{p}0") }, { "op": "free", "var": format!("{p}0") }]);
    let tasks: Vec<Value> = (0..3)
        .map(|k| json!({ "id": format!("T{k}"), "cpu": k, "ops": ops(&format!("t{k}_")) }))
        .collect();
    let wide = json!({
        "schemaVersion": 1, "name": "wide", "cpus": 3, "variant": { "era": "v7.0" },
        "cache": { "sheafCapacity": 4 },
        "tasks": tasks,
        "irqs": [{ "id": "I", "cpu": 0, "ops": ops("i") }]
    });
    let p = scenario_file("wide-under-prlimit", &wide.to_string());
    let o = under(
        "402653184",
        &[
            "explore",
            p.to_str().unwrap(),
            "--max-memory-mb",
            "3000",
            "--timeout-ms",
            "0",
            "--max-states",
            "100000000",
        ],
    );
    assert_exit(&o, 0);
    let r: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["complete"], json!(false), "{r}");
    assert!(
        r["memoryClamp"]
            .as_str()
            .is_some_and(|c| c.contains("384 MB")),
        "{r}"
    );
    let why = r["incomplete"].as_str().unwrap();
    assert!(
        why.contains("memory budget") || why.contains("memory ran out"),
        "{why}"
    );
}
