//! Behaviour kept: the owner of every slab and every object, the CPU freelists and the
//! contexts' next labels, after every move of every golden scenario (its own schedule, then the
//! default policy), as the view reports them. A restructuring must leave
//! `tests/baseline/owners/*.txt` unchanged; a fidelity fix rewrites them on purpose with
//! `SLUB_BASELINE_UPDATE=1 cargo test -p slub-sim --test owners` and says why.
//! (`slub-lab`'s `tests/baseline.rs` compares the events, stats and cycles.)

mod common;

use slub_sim::Simulator;
use std::fmt::Write as _;
use std::path::PathBuf;

/// One line per move: the owners the view shows after it.
fn owners_text(sim: &mut Simulator) -> String {
    let mut out = String::new();
    let n = sim.history().len();
    for at in 0..=n {
        sim.seek(at).expect("seek within the history");
        let v = sim.view();
        let _ = write!(out, "@{at}");
        for s in &v.slabs {
            let _ = write!(out, " {}={}", s.name, s.owner);
            for o in &s.objects {
                let _ = write!(out, " {}:{}", o.name, o.owner);
            }
        }
        for c in &v.cpus {
            let _ = write!(out, " cpu{}.freelist=[{}]", c.cpu, c.freelist.join(","));
        }
        for c in &v.contexts {
            let _ = write!(out, " {}@{}", c.id, c.label.as_deref().unwrap_or("-"));
        }
        out.push('\n');
    }
    out
}

#[test]
fn owners_after_every_move_are_unchanged() {
    let update = std::env::var_os("SLUB_BASELINE_UPDATE").is_some();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/baseline/owners");
    if update {
        std::fs::create_dir_all(&dir).expect("fixture dir");
    }
    let mut differ = Vec::new();
    for file in common::scenario_files() {
        let text = std::fs::read_to_string(common::scenarios_dir().join(&file)).unwrap();
        let mut sim = Simulator::from_json(&text, false).expect("a valid golden scenario");
        let moves = sim.scenario().schedule.clone().unwrap_or_default();
        sim.apply_all(&moves).expect("the golden schedule replays");
        sim.run_to_end();
        let got = owners_text(&mut sim);
        let fixture = dir.join(file.replace(".json", ".txt"));
        if update {
            std::fs::write(&fixture, &got).expect("write fixture");
            continue;
        }
        let want = std::fs::read_to_string(&fixture)
            .unwrap_or_else(|e| panic!("{}: {e}", fixture.display()));
        if got != want {
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(g, w)| g != w)
                .map_or(0, |i| i + 1);
            differ.push(format!(
                "{file} (first difference after move {})",
                line.max(1) - 1
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "owners changed for: {}",
        differ.join(", ")
    );
}
