//! Behaviour kept: the owner of every slab and every object, the CPU freelists and the
//! contexts' next labels, after every move of every golden scenario (its own schedule, then the
//! default policy), as the view reports them. A restructuring must leave
//! `tests/baseline/owners/*.snap` unchanged (insta snapshots: a two-line header, then the
//! text); a fidelity fix rewrites them on purpose with
//! `INSTA_UPDATE=always cargo test --release -p slub-sim --test owners` and says why.
//! (`slub-lab`'s `tests/baseline.rs` compares the events, stats and cycles.)

mod common;

use slub_sim::Simulator;
use std::fmt::Write as _;

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
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("baseline/owners");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let _bound = settings.bind_to_scope();
    let mut differ = Vec::new();
    for file in common::scenario_files() {
        let text = std::fs::read_to_string(common::scenarios_dir().join(&file)).unwrap();
        let mut sim = Simulator::from_json(&text, false).expect("a valid golden scenario");
        let moves = sim.scenario().schedule.clone().unwrap_or_default();
        sim.apply_all(&moves).expect("the golden schedule replays");
        sim.run_to_end();
        let got = owners_text(&mut sim);
        let name = file.trim_end_matches(".json");
        // Every scenario is compared, and all that differ are named at the end (insta prints
        // each one's diff, which starts at the first move whose owners changed).
        let same = std::panic::catch_unwind(|| insta::assert_snapshot!(name, got));
        if same.is_err() {
            differ.push(file);
        }
    }
    assert!(
        differ.is_empty(),
        "owners changed for: {}",
        differ.join(", ")
    );
}
