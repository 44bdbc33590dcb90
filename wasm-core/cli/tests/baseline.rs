//! Behaviour kept: `slub-lab run --events` on every golden scenario (and every lesson's
//! scenario) prints exactly what it printed when the fixture was written — the same events,
//! narration, stats, cycles and variables. A restructuring of the model must leave these files
//! unchanged; a change of behaviour (a fidelity fix) rewrites them on purpose, with
//! `INSTA_UPDATE=always cargo test --release -p slub-lab --test baseline`, and says why in its
//! commit. The files are insta snapshots (`tests/baseline/<scenario>.snap`: a two-line header,
//! then the output as printed); a run that differs leaves a `.snap.new` beside each to compare.
//!
//! The object and slab owners at every move are compared by `slub-sim`'s `tests/owners.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_slub-lab");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every scenario the baseline covers: (fixture name, path).
fn scenarios() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let golden = repo().join("wasm-core/sim/tests/scenarios");
    for entry in std::fs::read_dir(&golden).expect("golden scenarios") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            out.push((stem, path));
        }
    }
    for entry in std::fs::read_dir(repo().join("lessons")).expect("lessons") {
        let dir = entry.expect("dir entry").path();
        let path = dir.join("scenario.json");
        if path.is_file() {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            out.push((format!("lesson-{name}"), path));
        }
    }
    out.sort();
    out
}

#[test]
fn run_events_are_unchanged() {
    let all = scenarios();
    assert!(all.len() >= 18, "found only {} scenarios", all.len());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("baseline");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let _bound = settings.bind_to_scope();
    let mut differ = Vec::new();
    for (name, path) in all {
        let out = Command::new(BIN)
            .args(["run", "--events"])
            .arg(&path)
            .output()
            .expect("slub-lab runs");
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{name}: exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let got = String::from_utf8(out.stdout).expect("UTF-8 output");
        // Every scenario is compared, and all that differ are named at the end (insta prints
        // each one's diff as it goes).
        let same = std::panic::catch_unwind(|| insta::assert_snapshot!(name.as_str(), got));
        if same.is_err() {
            differ.push(name);
        }
    }
    assert!(
        differ.is_empty(),
        "`slub-lab run --events` changed for: {}",
        differ.join(", ")
    );
}
