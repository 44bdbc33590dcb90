//! A negative control for every invariant of Linux 7.0 the model checks (model.md C.5): a
//! state built by hand, or a write done by hand, that breaks it, and the checker must name it.
//! A checker that cannot fire proves nothing; these show each one can.
//!
//! What no state of the model can break, and so has no control here, is said where it is
//! checked: INV-S4 (`pcs(k).main` is never NULL) holds by the type (`Pcs::main` is a sheaf id,
//! not an option); INV-S8 (a sheaf in flight is touched only by its operation) and INV-S14
//! (NUMA locality, advisory in the kernel) are not checked.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]
#![allow(clippy::arithmetic_side_effects)]

use super::{SheafId, SheavesState};
use crate::model::allocator::AllocState;
use crate::model::slab_page::SlubPage;
use crate::model::state::*;
use crate::model::{Core, Driver, Machine, Move};

/// The tests' reach into 7.0's own state.
impl Machine {
    fn sheaves_state(&self) -> &SheavesState {
        match &self.alloc {
            AllocState::Sheaves(st) => st,
            _ => unreachable!("a Linux 7.0 test ran another allocator"),
        }
    }
}

/// 7.0's state of the machine, to build a state by hand.
fn st(m: &mut Machine) -> &mut SheavesState {
    parts(m).0
}

/// The same with the core beside it, for 7.0's helpers that take both.
fn parts(m: &mut Machine) -> (&mut SheavesState, &mut Core) {
    let Machine { core, alloc } = m;
    match alloc {
        AllocState::Sheaves(s) => (s, core),
        _ => panic!("not a Linux 7.0 machine"),
    }
}

/// SLUB's fields of slab `s`, to break.
fn slab_mut(m: &mut Machine, s: SlabId) -> &mut SlubPage {
    let (st, core) = parts(m);
    st.slab_mut(core, s).expect("a slab")
}

/// `discard_slab(s)` on 7.0's slabs (no CPU slabs).
fn discard_slab(m: &mut Machine, s: SlabId) {
    let (st, core) = parts(m);
    st.slabs(core).discard_slab(s, std::iter::empty());
}

/// cpu0 refilled its main from a slab of 8 and keeps the other 4 objects on the node's partial
/// list; T flushes cpu0 (the local_lock path), U allocates on cpu1.
fn machine() -> Machine {
    let sc = crate::scenario::parse(
        r#"{ "schemaVersion": 1, "name": "negative controls", "cpus": 2,
             "cache": { "sheafCapacity": 4, "objectsPerSlab": 8 },
             "variant": { "era": "v7.0" },
             "setup": [
               { "cpu": 0, "op": "alloc", "var": "a1" }, { "cpu": 0, "op": "alloc", "var": "a2" },
               { "cpu": 0, "op": "alloc", "var": "a3" }, { "cpu": 0, "op": "free", "var": "a1" }
             ],
             "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "flush" } ] },
                        { "id": "U", "cpu": 1, "ops": [ { "op": "alloc", "var": "u" } ] } ] }"#,
    )
    .expect("a valid scenario");
    let m = Machine::new(sc, false, true);
    assert!(m.core.violations.is_empty(), "{:?}", m.core.violations);
    m
}

fn fired(m: &Machine, inv: &str) -> bool {
    m.core.violations.iter().any(|v| v.invariant == inv)
}

#[track_caller]
fn check(m: &mut Machine, inv: &str) {
    m.check_step_invariants();
    assert!(fired(m, inv), "{inv} did not fire: {:?}", m.core.violations);
}

fn main_of(m: &Machine, k: u32) -> SheafId {
    m.sheaves_state().pcs(&m.core, k).main
}

#[test]
fn the_untouched_state_is_clean() {
    let mut m = machine();
    m.check_step_invariants();
    assert!(m.core.violations.is_empty(), "{:?}", m.core.violations);
}

#[test]
fn inv_s1_an_object_in_two_places() {
    let mut m = machine();
    let h = main_of(&m, 0);
    let a3 = m.core.st.vars[2].addr.unwrap();
    let sh = st(&mut m).sheaves.get_mut(h as usize).unwrap();
    let n = sh.size as usize;
    sh.slots[n] = a3;
    sh.size += 1;
    check(&mut m, "INV-S1");
}

#[test]
fn inv_s2_a_sheaf_above_its_capacity() {
    let mut m = machine();
    let h = main_of(&m, 0);
    let cap = SheavesState::capacity(&m.core);
    let (s, core) = parts(&mut m);
    s.st_size(core, h, cap + 1, true);
    assert!(fired(&m, "INV-S2"), "{:?}", m.core.violations);
}

#[test]
fn inv_s3_a_sheaf_in_two_places_and_a_freed_one_in_use() {
    let mut m = machine();
    let h = main_of(&m, 0);
    st(&mut m).pcs[1].main = h;
    check(&mut m, "INV-S3");
    let mut m = machine();
    let h = main_of(&m, 1);
    st(&mut m).sheaves.get_mut(h as usize).unwrap().freed = true;
    check(&mut m, "INV-S3");
}

#[test]
fn inv_s5_an_empty_sheaf_on_the_full_list_and_a_full_one_on_the_empty_list() {
    let mut m = machine();
    let spare = m.sheaves_state().sheaves.len() as SheafId;
    st(&mut m).sheaves.push(super::Sheaf {
        slots: vec![NULL; 4],
        size: 0,
        line: 0,
        freed: false,
    });
    st(&mut m).barns[0].full.push(spare);
    check(&mut m, "INV-S5");
    let mut m = machine();
    let h = main_of(&m, 0);
    assert!(m.sheaves_state().sheaf(&m.core, h).size > 0);
    st(&mut m).pcs[0].main = main_of(&m, 1);
    st(&mut m).pcs[1].main = h;
    let other = main_of(&m, 0);
    st(&mut m).pcs[0].main = other;
    // cpu1's main (with objects) also on node 0's empty list: both INV-S3 and INV-S5.
    st(&mut m).barns[0].empty.push(h);
    check(&mut m, "INV-S5");
}

#[test]
fn inv_s6_a_cpus_sheaves_written_without_its_lock() {
    let mut m = machine();
    // U (on cpu1) stores cpu0's main while T holds cpu0's lock.
    st(&mut m).pcs[0].holder = Some(0);
    m.core.cur = 1;
    let h = main_of(&m, 0);
    let (s, core) = parts(&mut m);
    s.st_pcs(core, 0, Some(h), None, false);
    assert!(fired(&m, "INV-S6"), "{:?}", m.core.violations);
}

#[test]
fn inv_s7_local_lock_taken_while_another_context_holds_it() {
    let mut m = machine();
    // U is made the holder of cpu0's lock; T's flush takes it with local_lock (no test).
    st(&mut m).pcs[0].holder = Some(1);
    for _ in 0..50 {
        if fired(&m, "INV-S7") || Driver::move_blocked(&m, Move::Step(0)).is_some() {
            break;
        }
        m.apply(Move::Step(0), None);
    }
    assert!(fired(&m, "INV-S7"), "{:?}", m.core.violations);
}

/// The first published slab with free objects on its freelist.
fn slab_with_free(m: &Machine) -> SlabId {
    (0..m.core.st.slabs.len() as SlabId)
        .find(|&s| {
            m.core.page(s).life == Life::Live && m.sheaves_state().slab(&m.core, s).freelist != NULL
        })
        .expect("a slab with free objects")
}

#[test]
fn inv_s9_inuse_that_does_not_account_for_the_freelist() {
    let mut m = machine();
    let s = slab_with_free(&m);
    slab_mut(&mut m, s).counters.inuse += 1;
    check(&mut m, "INV-S9");
    let mut m = machine();
    let s = slab_with_free(&m);
    let head = m.sheaves_state().slab(&m.core, s).freelist;
    let (_, i) = m.core.object_of(head).unwrap();
    // The head's free pointer points to itself: a cycle.
    m.core.st.slabs[s as usize].fp[i as usize] = head;
    check(&mut m, "INV-S9");
}

#[test]
fn inv_s10_nr_partial_and_the_flag_disagree_with_the_list() {
    let mut m = machine();
    m.core.st.nodes[0].nr_partial += 1;
    check(&mut m, "INV-S10");
    let mut m = machine();
    let s = slab_with_free(&m);
    let on = m.sheaves_state().slab(&m.core, s).on_node_partial;
    slab_mut(&mut m, s).on_node_partial = !on;
    check(&mut m, "INV-S10");
}

#[test]
fn inv_s11_a_frozen_slab() {
    let mut m = machine();
    let s = slab_with_free(&m);
    slab_mut(&mut m, s).counters.frozen = true;
    check(&mut m, "INV-S11");
}

#[test]
fn inv_s12_free_objects_nobody_can_find() {
    let mut m = machine();
    let s = slab_with_free(&m);
    assert!(
        m.core.st.nodes[0].partial.contains(&s),
        "the slab is listed"
    );
    m.core.st.nodes[0].partial.retain(|&x| x != s);
    m.core.st.nodes[0].nr_partial -= 1;
    slab_mut(&mut m, s).on_node_partial = false;
    check(&mut m, "INV-S12");
}

/// `check`, and the report of `inv` also says `why` (the clause that judged it).
#[track_caller]
fn check_says(m: &mut Machine, inv: &str, why: &str) {
    m.check_step_invariants();
    assert!(
        m.core
            .violations
            .iter()
            .any(|v| v.invariant == inv && v.message.contains(why)),
        "{inv} did not say {why:?}: {:?}",
        m.core.violations
    );
}

/// The listed slab with free objects, taken off the node's list and made empty, so that only
/// what a test adds forbids its discard.
fn discardable_slab(m: &mut Machine) -> SlabId {
    let s = slab_with_free(m);
    m.core.st.nodes[0].partial.retain(|&x| x != s);
    m.core.st.nodes[0].nr_partial -= 1;
    let sl = slab_mut(m, s);
    sl.on_node_partial = false;
    sl.counters.inuse = 0;
    s
}

// INV-S13 through the model's own `discard_slab` (slab_page/access.rs), which 7.0's
// `__slab_free` and `__refill_objects` call: it judges the slab, the checker reports its verdict.

#[test]
fn inv_s13_discard_slab_of_a_slab_with_objects_in_use() {
    let mut m = machine();
    let s = slab_with_free(&m);
    m.core.st.nodes[0].partial.retain(|&x| x != s);
    m.core.st.nodes[0].nr_partial -= 1;
    slab_mut(&mut m, s).on_node_partial = false;
    discard_slab(&mut m, s);
    check_says(&mut m, "INV-S13", "object(s) are in use");
}

#[test]
fn inv_s13_discard_slab_of_a_frozen_slab() {
    let mut m = machine();
    let s = discardable_slab(&mut m);
    slab_mut(&mut m, s).counters.frozen = true;
    discard_slab(&mut m, s);
    check_says(&mut m, "INV-S13", "still frozen");
}

#[test]
fn inv_s13_discard_slab_of_a_slab_on_the_node_partial_list() {
    let mut m = machine();
    let s = slab_with_free(&m);
    slab_mut(&mut m, s).counters.inuse = 0;
    discard_slab(&mut m, s);
    check_says(&mut m, "INV-S13", "still on a partial list");
}

#[test]
fn inv_s13_discard_slab_twice() {
    let mut m = machine();
    let s = discardable_slab(&mut m);
    // The first discard is allowed: no INV-S13.
    discard_slab(&mut m, s);
    m.check_step_invariants();
    assert!(!fired(&m, "INV-S13"), "{:?}", m.core.violations);
    discard_slab(&mut m, s);
    check_says(&mut m, "INV-S13", "already discarded");
}

#[test]
fn inv_s13_discard_slab_of_a_slab_another_context_isolated() {
    let mut m = machine();
    let s = discardable_slab(&mut m);
    let other = (0..m.core.st.ctxs.len() as CtxId)
        .find(|&c| c != m.core.cur)
        .expect("a second context");
    st(&mut m).isolated.push((other, s));
    discard_slab(&mut m, s);
    check_says(&mut m, "INV-S13", "isolated it");
    // The context that isolated it may discard it (`__refill_objects` does).
    let mut m = machine();
    let s = discardable_slab(&mut m);
    let cur = m.core.cur;
    st(&mut m).isolated.push((cur, s));
    discard_slab(&mut m, s);
    m.check_step_invariants();
    assert!(!fired(&m, "INV-S13"), "{:?}", m.core.violations);
}

#[test]
fn inv_s15_counters_that_do_not_account_for_the_sheaves() {
    let mut m = machine();
    // Run to the end cleanly, then lose one refill from the counters.
    while let Some(&mv) = Driver::enabled_moves(&m).first() {
        m.apply(mv, None);
    }
    assert!(m.core.violations.is_empty(), "{:?}", m.core.violations);
    m.core.st.stats[0][crate::model::Stat::SHEAF_REFILL as usize] += 1;
    m.check_end_of_run();
    assert!(fired(&m, "INV-S15"), "{:?}", m.core.violations);
}

/// INV-S3's exemption covers only the pointer a CPU is replacing: with cpu0 between parking
/// its main and storing the new one (FR6r), cpu0's stale main may name a sheaf another CPU
/// took, but its spare naming cpu1's main is still two places at once.
#[test]
fn inv_s3_exempts_only_the_pointer_being_replaced() {
    let mut m = machine();
    m.core.st.ctxs[0].stack.push(Frame::ReplaceFullMain {
        pc: crate::model::pcs::labels::pcs_replace_full_main::FR6r,
        l: crate::model::locals::PcsReplaceFullMain {
            pcs: 0,
            ..Default::default()
        },
    });
    // The stale main: exempt.
    let h0 = main_of(&m, 0);
    st(&mut m).pcs[1].spare = Some(h0);
    m.check_step_invariants();
    assert!(!fired(&m, "INV-S3"), "{:?}", m.core.violations);
    // The spare: not exempt.
    st(&mut m).pcs[1].spare = None;
    let h1 = main_of(&m, 1);
    st(&mut m).pcs[0].spare = Some(h1);
    check(&mut m, "INV-S3");
}
