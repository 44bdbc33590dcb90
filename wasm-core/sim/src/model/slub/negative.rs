//! The classic invariants (model.md §5): a negative control for each one that no
//! golden scenario or variant makes fire (INV-1, INV-2, INV-4 and INV-12 fire in
//! `tests/golden.rs`, INV-11 and INV-12 in `tests/fidelity.rs`): a state or a write built by
//! hand that breaks it, and the checker must name it. INV-8 is reported as INV-6 (a full
//! unfrozen slab on a list is a slab on the partial list with no free object). INV-2 also gets
//! a control per branch here, and INV-14 one per clause of `discard_slab`'s judgement.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]
#![allow(clippy::arithmetic_side_effects)]

use super::SlubState;
use crate::model::allocator::AllocState;
use crate::model::slab_page::SlubPage;
use crate::model::state::*;
use crate::model::{Driver, Machine, Stat};

/// The tests' reach into SLUB's own state.
impl Machine {
    fn slub_state(&self) -> &SlubState {
        match &self.alloc {
            AllocState::Slub(st) => st,
            _ => unreachable!("a SLUB test ran another allocator"),
        }
    }
    fn slub_state_mut(&mut self) -> Option<&mut SlubState> {
        match &mut self.alloc {
            AllocState::Slub(st) => Some(st),
            _ => None,
        }
    }
}

/// cpu0 allocated five objects of slabs of 4: slab 0 full, slab 1 its CPU slab (frozen).
fn machine() -> Machine {
    let sc = crate::scenario::parse(
        r#"{ "schemaVersion": 1, "name": "classic negative controls", "cpus": 2,
             "cache": { "objectsPerSlab": 4, "minPartial": 1, "cpuPartial": 2 },
             "setup": [
               { "cpu": 0, "op": "alloc", "var": "a" }, { "cpu": 0, "op": "alloc", "var": "b" },
               { "cpu": 0, "op": "alloc", "var": "c" }, { "cpu": 0, "op": "alloc", "var": "d" },
               { "cpu": 0, "op": "alloc", "var": "e" }
             ],
             "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "free", "var": "e" } ] },
                        { "id": "U", "cpu": 1, "ops": [ { "op": "free", "var": "a" } ] } ] }"#,
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

fn cpu_slab(m: &Machine) -> SlabId {
    m.slub_state()
        .cpu_slab(&m.core, 0)
        .page
        .expect("cpu0 has a CPU slab")
}

/// SLUB's fields of slab `s`, to break.
fn slab_mut(m: &mut Machine, s: SlabId) -> &mut SlubPage {
    let Machine { core, alloc } = m;
    let AllocState::Slub(st) = alloc else {
        panic!("not a SLUB machine")
    };
    st.slab_mut(core, s).expect("a slab")
}

/// `discard_slab(s)` with SLUB's CPU slabs, as `__slab_free` calls it.
fn discard_slab(m: &mut Machine, s: SlabId) {
    let Machine { core, alloc } = m;
    let AllocState::Slub(st) = alloc else {
        panic!("not a SLUB machine")
    };
    st.discard_slab(core, s);
}

#[test]
fn the_untouched_state_is_clean() {
    let mut m = machine();
    m.check_step_invariants();
    assert!(m.core.violations.is_empty(), "{:?}", m.core.violations);
}

#[test]
fn inv_3_inuse_that_does_not_match_the_freelist() {
    let mut m = machine();
    // Slab 0 is full (its freelist empty): one fewer in use than it has objects.
    slab_mut(&mut m, 0).counters.inuse -= 1;
    check(&mut m, "INV-3");
}

#[test]
fn inv_5_a_cpu_slab_that_is_not_frozen() {
    let mut m = machine();
    let s = cpu_slab(&m);
    slab_mut(&mut m, s).counters.frozen = false;
    check(&mut m, "INV-5");
}

#[test]
fn inv_6_a_frozen_cpu_slab_on_the_node_list() {
    let mut m = machine();
    let s = cpu_slab(&m);
    m.core.st.nodes[0].partial.push(s);
    m.core.st.nodes[0].nr_partial += 1;
    check(&mut m, "INV-6");
}

#[test]
fn inv_7_nr_partial_and_a_slab_listed_twice() {
    let mut m = machine();
    m.core.st.nodes[0].nr_partial += 1;
    check(&mut m, "INV-7");
    let mut m = machine();
    slab_mut(&mut m, 0).freelist = m.core.obj_addr(0, 0);
    m.core.st.nodes[0].partial.extend([0, 0]);
    m.core.st.nodes[0].nr_partial += 2;
    check(&mut m, "INV-7");
}

#[test]
fn inv_9_an_empty_unfrozen_slab_on_no_list() {
    let mut m = machine();
    let s = cpu_slab(&m);
    let c = &mut m.slub_state_mut().unwrap().cpu_slab[0];
    c.page = None;
    c.freelist = NULL;
    let sl = slab_mut(&mut m, s);
    sl.counters.frozen = false;
    sl.counters.inuse = 0;
    check(&mut m, "INV-9");
}

#[test]
fn inv_10_a_cpu_partial_list_that_loops() {
    let mut m = machine();
    m.slub_state_mut().unwrap().cpu_slab[1].partial = Some(0);
    slab_mut(&mut m, 0).next = Some(0);
    check(&mut m, "INV-10");
}

#[test]
fn inv_13_list_lock_held_with_interrupts_on() {
    let mut m = machine();
    m.core.st.nodes[0].list_lock = Some(1);
    check(&mut m, "INV-13");
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

/// Slab 0 (full, unfrozen, on no list) made empty, so that only what a test adds forbids
/// its discard.
fn emptied_slab_0(m: &mut Machine) {
    slab_mut(m, 0).counters.inuse = 0;
}

// INV-14 through the model's own `discard_slab` (slab_page/access.rs): it judges the slab
// as the kernel's `discard_slab` callers must have, and the checker reports its verdict.

#[test]
fn inv_14_discard_slab_of_a_slab_with_objects_in_use() {
    let mut m = machine();
    discard_slab(&mut m, 0);
    check_says(&mut m, "INV-14", "4 object(s) are in use");
}

#[test]
fn inv_14_discard_slab_of_a_frozen_slab() {
    let mut m = machine();
    emptied_slab_0(&mut m);
    slab_mut(&mut m, 0).counters.frozen = true;
    discard_slab(&mut m, 0);
    check_says(&mut m, "INV-14", "still frozen");
}

#[test]
fn inv_14_discard_slab_of_a_slab_on_the_node_partial_list() {
    let mut m = machine();
    emptied_slab_0(&mut m);
    m.core.st.nodes[0].partial.push(0);
    m.core.st.nodes[0].nr_partial += 1;
    discard_slab(&mut m, 0);
    check_says(&mut m, "INV-14", "still on a partial list");
}

#[test]
fn inv_14_discard_slab_of_a_slab_on_a_cpu_partial_list() {
    let mut m = machine();
    emptied_slab_0(&mut m);
    m.slub_state_mut().unwrap().cpu_slab[1].partial = Some(0);
    slab_mut(&mut m, 0).next = None;
    discard_slab(&mut m, 0);
    check_says(&mut m, "INV-14", "still on a CPU partial list");
}

#[test]
fn inv_14_discard_slab_twice() {
    let mut m = machine();
    emptied_slab_0(&mut m);
    // The first discard is allowed: no INV-14 (other invariants see the users' objects go).
    discard_slab(&mut m, 0);
    m.check_step_invariants();
    assert!(!fired(&m, "INV-14"), "{:?}", m.core.violations);
    discard_slab(&mut m, 0);
    check_says(&mut m, "INV-14", "already discarded");
}

#[test]
fn inv_14_discard_slab_of_a_cpu_slab() {
    let mut m = machine();
    let s = cpu_slab(&m);
    // Unfrozen and empty, so that only cpu0's `c.page` forbids it (the checker's clause).
    let sl = slab_mut(&mut m, s);
    sl.counters.frozen = false;
    sl.counters.inuse = 0;
    discard_slab(&mut m, s);
    check_says(&mut m, "INV-14", "cpu0 still uses it as its CPU slab");
}

// INV-2's branches, by hand-built freelists.

#[test]
fn inv_2_a_cpu_freelist_that_loops() {
    let mut m = machine();
    let head = m.slub_state().cpu_slab(&m.core, 0).freelist;
    let (s, i) = m.core.object_of(head).unwrap();
    m.core.st.slabs[s as usize].fp[i as usize] = head;
    check_says(&mut m, "INV-2", "cpu0's freelist loops back");
}

#[test]
fn inv_2_a_slab_freelist_that_loops() {
    let mut m = machine();
    let a = m.core.obj_addr(0, 0);
    slab_mut(&mut m, 0).freelist = a;
    m.core.st.slabs[0].fp[0] = a;
    check_says(&mut m, "INV-2", "'s freelist loops back");
    assert!(
        !m.core
            .violations
            .iter()
            .any(|v| v.message.contains("cpu0's freelist loops")),
        "{:?}",
        m.core.violations
    );
}

#[test]
fn inv_2_a_cpu_freelist_with_an_object_of_another_slab() {
    let mut m = machine();
    // Slab 0's first object (allocated) is pushed on cpu0's freelist, whose CPU slab is 1.
    let a = m.core.obj_addr(0, 0);
    let head = m.slub_state().cpu_slab(&m.core, 0).freelist;
    m.core.st.slabs[0].fp[0] = head;
    m.slub_state_mut().unwrap().cpu_slab[0].freelist = a;
    check_says(&mut m, "INV-2", "which is not in its CPU slab");
}

#[test]
fn inv_2_a_slab_freelist_with_an_object_of_another_slab() {
    let mut m = machine();
    // Slab 0's freelist is made cpu0's, a chain of slab 1's objects.
    let head = m.slub_state().cpu_slab(&m.core, 0).freelist;
    assert_ne!(head, NULL);
    slab_mut(&mut m, 0).freelist = head;
    check_says(&mut m, "INV-2", "an object of another slab");
}

#[test]
fn inv_15_counters_that_do_not_add_up() {
    let mut m = machine();
    while let Some(&mv) = Driver::enabled_moves(&m).first() {
        m.apply(mv, None);
    }
    assert!(m.core.violations.is_empty(), "{:?}", m.core.violations);
    m.core.st.stats[0][Stat::ALLOC_FASTPATH as usize] += 1;
    m.check_end_of_run();
    assert!(fired(&m, "INV-15"), "{:?}", m.core.violations);
}
