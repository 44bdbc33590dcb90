//! The fuzz harness drives the binary too. The library's harness
//! (`slub-sim`'s `tests/fuzz.rs`) parses and runs mutants in-process; this one writes each
//! mutant to a file and runs `slub-lab run`, `slub-lab explore` or `slub-lab grade` (the file
//! as a student's answer) on it with hostile flags
//! (moves and memory past their ceilings, garbage numbers, schedules of every length), plus
//! files that are missing, directories, not UTF-8 or past the size ceiling. It asserts the
//! command-line contract: the exit status is 0, 1 or 2 (never a panic's 101 or an abort's
//! signal), exit 2 says why on stderr naming the file, the flag or the JSON path, and exit 0 or
//! 1 prints one JSON object.
//!
//! `FUZZ_CLI_CASES` sets the number of cases (300 by default, inside `npm test`; `npm run
//! fuzz` runs 10,000), `FUZZ_SEED` the seed.

#[path = "../../sim/tests/fuzz_gen/mod.rs"]
mod fuzz_gen;

use fuzz_gen::{as_text, corpus, mutate, Rng};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_slub-lab");

fn dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("slub-lab-fuzz-cli");
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// Flags a careless or hostile user types, for `run` and for `explore`.
fn run_flags(r: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    if r.below(3) == 0 {
        out.push("--events".into());
    }
    if r.below(3) == 0 {
        let n = [
            "0",
            "1",
            "5",
            "100000",
            "1000000",
            "1000001",
            "1e7",
            "-1",
            "lots",
            "",
            "18446744073709551616",
        ][r.below(11)];
        out.push("--max-moves".into());
        out.push(n.into());
    }
    if r.below(3) == 0 {
        let s = match r.below(5) {
            0 => String::new(),
            1 => "A,B,I,T,U".into(),
            2 => vec!["A"; 60_000].join(","),
            3 => "migrate:A:9,,".into(),
            _ => "T,T,T,migrate:T:1,T".into(),
        };
        out.push("--schedule".into());
        out.push(s);
    }
    out
}

fn explore_flags(r: &mut Rng) -> Vec<String> {
    let mut out = vec!["--timeout-ms".to_string(), "300".into()];
    out.push("--max-states".into());
    out.push(["2000", "0", "1"][r.below(3)].into());
    if r.below(2) == 0 {
        out.push("--max-memory-mb".into());
        out.push(["0", "1", "64", "4096", "4097", "18446744073709551615", "x"][r.below(7)].into());
    }
    if r.below(4) == 0 {
        out.push("--max-preemptions".into());
        out.push(["0", "1", "-3", "99999999999"][r.below(4)].into());
    }
    out
}

/// Exercises `grade` is fuzzed against: model-checked ones, a written one, a step's try-it
/// goal, and ones that do not exist (the instructor's error: exit 2).
const GRADE_EXERCISES: [&str; 5] = [
    "aba-without-tid/e1",
    "aba-without-tid/e2",
    "aba-without-tid/3",
    "no-such-lesson/e1",
    "aba-without-tid",
];

/// The repository's lessons, which `grade` reads.
fn lessons_dir() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../lessons")
        .display()
        .to_string()
}

/// An answer to grade: the mutant's file (mostly), or a schedule or a link as typed.
fn grade_answer(r: &mut Rng, file: &std::path::Path) -> String {
    match r.below(6) {
        0 => "T*4, I*24, T*12".into(),
        1 => vec!["T*500"; 200].join(","),
        2 => "#/play?s=v1.%%%&m=T,,,&at=99999999999999999999".into(),
        3 => String::new(),
        _ => file.display().to_string(),
    }
}

/// Run the binary and check the contract; `what` says which case, for the failure message.
fn check(args: &[String], what: &str) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("the slub-lab binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    let short: Vec<&str> = args.iter().map(|a| &a[..a.len().min(60)]).collect();
    match code {
        Some(0 | 1) => {
            let v: Result<Value, _> = serde_json::from_slice(&out.stdout);
            assert!(
                v.is_ok_and(|v| v.is_object()),
                "{what}: exit {code:?} without one JSON object on stdout: {short:?}\n{stderr}"
            );
        }
        Some(2) => {
            // A usage error names the flag (clap: `--max-moves <N>`); a bad file its path.
            let names =
                stderr.contains("slub-lab: ") || stderr.contains("--") || stderr.contains("error:");
            assert!(
                names && !stderr.trim().is_empty(),
                "{what}: exit 2 without a located message: {short:?}\n{stderr}"
            );
            assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        }
        _ => panic!(
            "{what}: exit {:?} (a panic or a signal) for {short:?}\n{stderr}",
            out.status
        ),
    }
}

#[test]
fn the_binary_keeps_its_contract_on_hostile_files_and_flags() {
    let cases: u64 = std::env::var("FUZZ_CLI_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_51AB);
    let corpus: Vec<Value> = corpus()
        .iter()
        .map(|t| serde_json::from_str(t).expect("corpus is JSON"))
        .collect();
    let d = dir();
    // Files that are not scenarios at all.
    let missing = d.join("missing.json");
    let _ = std::fs::remove_file(&missing);
    let latin1 = d.join("latin1.json");
    std::fs::write(&latin1, b"{\"name\": \"caf\xe9\"}").expect("write");
    let huge = d.join("huge.json");
    // One byte past the 16 MiB ceiling: refused before it is parsed.
    std::fs::write(&huge, vec![b' '; (16 << 20) + 1]).expect("write");
    for (f, sub) in [
        (&missing, "run"),
        (&latin1, "explore"),
        (&huge, "run"),
        (&d, "run"),
    ] {
        check(
            &[sub.into(), f.display().to_string()],
            "a file that is no scenario",
        );
    }
    // The same files as answers to grade (scored 0 with a message, past the ceiling unread).
    for f in [&missing, &latin1, &huge, &d] {
        check(
            &[
                "grade".into(),
                GRADE_EXERCISES[0].into(),
                f.display().to_string(),
                "--lessons".into(),
                lessons_dir(),
            ],
            "an answer file that is no scenario",
        );
    }

    let mut r = Rng(seed | 1);
    let t0 = std::time::Instant::now();
    let file = d.join("case.json");
    for case in 0..cases {
        let mut v = corpus[r.below(corpus.len())].clone();
        for _ in 0..r.below(3) {
            mutate(&mut v, &mut r);
        }
        let text = as_text(&v, &mut r);
        std::fs::write(&file, &text).expect("write the case");
        let mut args: Vec<String> = Vec::new();
        if r.below(8) == 0 {
            // The mutant as a student's answer (a scenario file with or without a schedule),
            // or a hostile schedule or link typed in its place.
            args.push("grade".into());
            args.push(GRADE_EXERCISES[r.below(GRADE_EXERCISES.len())].into());
            args.push(grade_answer(&mut r, &file));
            args.push("--lessons".into());
            args.push(lessons_dir());
        } else if r.below(4) == 0 {
            args.push("explore".into());
            args.push(file.display().to_string());
            args.extend(explore_flags(&mut r));
        } else {
            args.push("run".into());
            args.push(file.display().to_string());
            args.extend(run_flags(&mut r));
        }
        let what = format!("case {case} (seed {seed})");
        let kept = d.join(format!("failure-{case}.json"));
        let outcome = std::panic::catch_unwind(|| check(&args, &what));
        if let Err(e) = outcome {
            let _ = std::fs::write(&kept, &text);
            std::panic::resume_unwind(e);
        }
    }
    println!(
        "fuzz-cli: {cases} cases (seed {seed}) through the binary in {:.1?}",
        t0.elapsed()
    );
}
