//! The playground's "run to the end" (`Simulator::moves_to_end`): a task runs to the end of its
//! operation, an interrupt through its handler, and nothing changes until the moves are applied.

use slub_sim::view::ContextState;
use slub_sim::Simulator;

fn sc01() -> Simulator {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/scenarios/sc01_alloc_fastpath_irq_free_retry.json"
    ))
    .unwrap();
    Simulator::from_json(&text, true).unwrap()
}

fn ctx(sim: &Simulator, id: &str) -> slub_sim::view::ContextView {
    sim.view()
        .contexts
        .into_iter()
        .find(|c| c.id == id)
        .unwrap()
}

#[test]
fn a_task_runs_to_the_end_of_its_operation_and_no_further() {
    let mut sim = sc01();
    let before = sim.view();
    let moves = sim.moves_to_end("T").unwrap();
    assert!(
        moves.len() > 5 && moves.iter().all(|m| m == "T"),
        "{moves:?}"
    );
    assert_eq!(
        sim.view(),
        before,
        "working the moves out changed the simulator"
    );
    // One move short, T is still inside its allocation; all of them, and it has returned.
    sim.apply_all(&moves[..moves.len() - 1]).unwrap();
    assert!(ctx(&sim, "T").op.is_some(), "T left its operation early");
    sim.apply(&moves[moves.len() - 1]).unwrap();
    let t = ctx(&sim, "T");
    assert!(
        t.op.is_none() || t.state == ContextState::Finished,
        "T is still in {:?}",
        t.op
    );
}

#[test]
fn an_interrupt_fires_and_runs_its_handler_to_the_end() {
    let mut sim = sc01();
    let moves = sim.moves_to_end("I").unwrap();
    assert!(!moves.is_empty());
    sim.apply_all(&moves).unwrap();
    assert_eq!(ctx(&sim, "I").state, ContextState::Finished);
    assert!(sim.moves_to_end("nobody").is_err());
    assert_eq!(sim.moves_to_end("I").unwrap(), Vec::<String>::new());
}
