//! An internal error of the model is an outcome, never a panic (the executor's `Fault`
//! handling): the inconsistencies below, made in SLUB's state and frames, cannot arise from
//! any input (the lints of `lib.rs` and the fuzz harness say so), so they are made by hand.

use crate::model::allocator::AllocState;
use crate::model::pcs::labels::*;
use crate::model::state::*;
use crate::model::{Machine, Move};
use crate::scenario;

/// SC1 after setup: task T (context 0) about to allocate on cpu0.
fn machine() -> Machine {
    let text = include_str!("../../../tests/scenarios/sc01_alloc_fastpath_irq_free_retry.json");
    Machine::new(scenario::parse(text).unwrap(), true, true)
}

fn model_errors(m: &Machine) -> Vec<&str> {
    m.core
        .violations
        .iter()
        .filter(|v| v.invariant == "MODEL")
        .map(|v| v.message.as_str())
        .collect()
}

#[test]
fn an_id_with_nothing_behind_it_is_the_violation_model() {
    let mut m = machine();
    // A CPU slab that was never created.
    if let AllocState::Slub(s) = &mut m.alloc {
        s.cpu_slab[0].page = Some(999);
    }
    while model_errors(&m).is_empty() && m.move_enabled(Move::Step(0)) {
        m.apply_move(Move::Step(0), None);
        m.finish_if_done();
    }
    let errors = model_errors(&m);
    assert_eq!(errors.len(), 1, "{:?}", m.core.violations);
    assert!(errors[0].contains("there is no slab 999"), "{}", errors[0]);
    assert!(m.enabled_moves().is_empty());
}

#[test]
fn a_frame_local_that_is_unset_is_the_violation_model() {
    let mut m = machine();
    // `unfreeze_partials` walking a chain it was not given (`get_freelist` of no slab no
    // longer compiles: its slab is not an `Option`).
    m.core.st.ctxs[0].stack = vec![Frame::UnfreezePartials {
        pc: unfreeze_partials::V3,
        l: super::UnfreezePartials::default(),
    }];
    m.core.st.ctxs[0].settled = true;
    m.apply_move(Move::Step(0), None);
    m.finish_if_done();
    let errors = model_errors(&m);
    assert_eq!(errors.len(), 1, "{:?}", m.core.violations);
    assert!(errors[0].contains("`fr.p` found nothing"), "{}", errors[0]);
    // The machine stops there: no move is enabled, yet it is neither deadlocked nor done.
    assert!(m.enabled_moves().is_empty());
    assert!(!m.deadlocked() && !m.all_finished());
    assert!(m.move_blocked(Move::Step(1)).is_some());
}
