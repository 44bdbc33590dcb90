//! SLAB's invariants and the SLAB parts of the views (model.md Appendix A and §4 (v)).
//!
//! - **SLAB-1** ownership: every object of a slab that is not destroyed is in exactly one
//!   place: held by a variable, in a CPU's array (its live part), in a node's shared array,
//!   free in its slab (`bufctl[active..num]`), or in flight inside one operation.
//! - **SLAB-2** slabs: `0 <= active <= num`; a linked slab is on exactly one list of its node,
//!   the one its `active` calls for (free: 0, full: num, partial otherwise); a slab being
//!   grown is on none, a slab being destroyed is on none.
//! - **SLAB-3** `free_objects` = the free objects of the node's linked slabs, whenever
//!   `list_lock` is free (the kernel updates it in several steps under the lock).
//! - **SLAB-4** every array holds at most `limit` entries.
//! - **SLAB-5** discipline, checked where the state changes (`access.rs`: `check_node_lock`,
//!   `check_ac_owner`): node state under
//!   `list_lock`, a CPU's array by that CPU with interrupts off.
//! - **SLAB-6** at the end of a run: ALLOCHIT + ALLOCMISS = allocations, FREEHIT + FREEMISS +
//!   frees of objects of another node = frees.
//! - **SLAB-7** no read of freed memory, checked where a lockless refill reads `shared->avail`
//!   through the pointer it loaded (`alloc.rs`, RF2S): that array must not have been freed by
//!   a `tune`'s `kfree(old_shared)` (`tune.rs`, SN7).

use super::state::*;
use super::{Core, SlabState, Stat};
use crate::model::pcs::labels::*;

/// Where an object was found (for the messages).
#[derive(Clone, Debug)]
pub(super) enum Place {
    User(usize),
    Cpu(usize),
    Shared(usize),
    Slab,
    Inflight(CtxId),
}

impl SlabState {
    fn place_text(&self, core: &Core, p: &Place) -> String {
        match p {
            Place::User(v) => format!("held by `{}`", core.var_name(*v)),
            Place::Cpu(k) => format!("in cpu{k}'s array"),
            Place::Shared(n) => format!("in node {n}'s shared array"),
            Place::Slab => "free in its slab".into(),
            Place::Inflight(c) => format!("in flight in {}", core.ctx_name(*c)),
        }
    }

    /// Every place an object is, by object index (`slab * objects + i`).
    pub(super) fn slab_places(&self, core: &Core) -> Vec<Vec<Place>> {
        let objects = core.cfg.objects as usize;
        let mut at: Vec<Vec<Place>> = vec![Vec::new(); core.st.slabs.len().saturating_mul(objects)];
        let mut put = |a: Addr, p: Place| {
            // An object's index is below `at`'s length (s < slabs, i < objects).
            let slot = core.object_of(a).map(|(s, i)| {
                (s as usize)
                    .saturating_mul(objects)
                    .saturating_add(i as usize)
            });
            if let Some(places) = slot.and_then(|slot| at.get_mut(slot)) {
                places.push(p);
            }
        };
        for (vi, v) in core.st.vars.iter().enumerate() {
            if let (true, Some(a)) = (v.held(), v.addr) {
                put(a, Place::User(vi));
            }
        }
        for (k, ac) in self.ac.iter().enumerate() {
            for &a in ac.live() {
                put(a, Place::Cpu(k));
            }
        }
        for (n, node) in self.nodes.iter().enumerate() {
            if let Some(sh) = &node.shared {
                for &a in &sh.entry {
                    put(a, Place::Shared(n));
                }
            }
        }
        for (s, sl) in core.st.slabs.iter().enumerate() {
            if sl.life == Life::Discarded {
                continue;
            }
            for &i in self
                .bufctl(s as SlabId)
                .iter()
                .skip(self.active(s as SlabId) as usize)
            {
                put(core.obj_addr(s as SlabId, u32::from(i)), Place::Slab);
            }
        }
        for (ci, c) in core.st.ctxs.iter().enumerate() {
            for f in &c.stack {
                // The object `cache_alloc` returns (after its pop or refill) and the one
                // `cache_free` frees (from its first step until its array or slab has it).
                let held = match f {
                    Frame::CacheAlloc {
                        pc: cache_alloc::CA3,
                        l,
                    } if l.obj != NULL => Some(l.obj),
                    Frame::CacheFree { l, .. } if c.begun && !l.flag => Some(l.x),
                    _ => None,
                };
                if let Some(a) = held {
                    put(a, Place::Inflight(ci as CtxId));
                }
            }
        }
        at
    }

    /// Slabs queued on some context's destroy list (on no list until `slab_destroy`).
    pub(super) fn destroying(&self, core: &Core, s: SlabId) -> bool {
        core.st
            .ctxs
            .iter()
            .any(|c| c.stack.iter().any(|f| f.queued(s)))
    }

    pub(in crate::model) fn check_slab_invariants(&self, core: &mut Core) {
        let mut problems: Vec<(&'static str, String)> = Vec::new();
        let objects = core.cfg.objects;

        // SLAB-1.
        // Slab by slab, each slab's objects in order.
        let mut at = self.slab_places(core).into_iter();
        for (s, sl) in core.st.slabs.iter().enumerate() {
            let s = s as SlabId;
            for i in 0..objects {
                let places = at.next().unwrap_or_default();
                let a = core.obj_addr(s, i);
                if self.bufctl(s).is_empty() {
                    // A page `cache_grow_begin` just got: its objects exist from
                    // `cache_init_objs` on.
                    continue;
                }
                if sl.life == Life::Discarded {
                    if let Some(p) = places.first() {
                        problems.push((
                            "SLAB-1",
                            format!(
                                "{} is {} but its slab {} was destroyed",
                                core.addr_name(a),
                                self.place_text(core, p),
                                core.slab_name(s)
                            ),
                        ));
                    }
                    continue;
                }
                match places.len() {
                    1 => {}
                    0 => problems.push((
                        "SLAB-1",
                        format!(
                            "{} is lost: no variable, array or slab holds it",
                            core.addr_name(a)
                        ),
                    )),
                    _ => {
                        let texts: Vec<String> =
                            places.iter().map(|p| self.place_text(core, p)).collect();
                        problems.push((
                            "SLAB-1",
                            format!(
                                "{} is in two places at once ({}): it will be handed out twice",
                                core.addr_name(a),
                                texts.join(" and ")
                            ),
                        ));
                    }
                }
            }
        }

        // SLAB-2 and SLAB-3.
        for (n, node) in core.st.nodes.iter().enumerate() {
            let lists = [
                ("slabs_partial", &node.partial),
                ("slabs_full", &self.snode(core, n as u32).slabs_full),
                ("slabs_free", &self.snode(core, n as u32).slabs_free),
            ];
            let mut free_in_slabs = 0;
            for (s, sl) in core.st.slabs.iter().enumerate() {
                let s = s as SlabId;
                if sl.node as usize != n {
                    continue;
                }
                let on: Vec<&str> = lists
                    .iter()
                    .filter(|(_, l)| l.contains(&s))
                    .map(|(name, _)| *name)
                    .collect();
                let (active, num) = (self.active(s), core.cfg.objects);
                if active > num {
                    problems.push((
                        "SLAB-2",
                        format!(
                            "slab {} has {active} objects active of {num}",
                            core.slab_name(s)
                        ),
                    ));
                }
                let linked = sl.life == Life::Live && !self.destroying(core, s);
                if !linked {
                    if let Some(l) = on.first() {
                        problems.push((
                            "SLAB-2",
                            format!(
                                "slab {} is on node {n}'s {l} but is {}",
                                core.slab_name(s),
                                if sl.life == Life::Discarded {
                                    "destroyed"
                                } else {
                                    "not linked"
                                }
                            ),
                        ));
                    }
                    continue;
                }
                free_in_slabs.bump_by(num.saturating_sub(active));
                let want = if active == 0 {
                    "slabs_free"
                } else if active == num {
                    "slabs_full"
                } else {
                    "slabs_partial"
                };
                if on != [want] {
                    problems.push((
                        "SLAB-2",
                        format!(
                            "slab {} ({active} of {num} active) should be on node {n}'s {want} alone, but is on {}",
                            core.slab_name(s),
                            if on.is_empty() { "no list".to_string() } else { on.join(" and ") }
                        ),
                    ));
                }
            }
            let sn = self.snode(core, n as u32);
            if node.list_lock.is_none() && sn.free_objects != free_in_slabs {
                problems.push((
                    "SLAB-3",
                    format!(
                        "node {n}'s free_objects is {}, but its slabs hold {free_in_slabs} free object(s)",
                        sn.free_objects
                    ),
                ));
            }
            // SLAB-4 (shared).
            if let Some(sh) = &sn.shared {
                if sh.avail() > sh.limit {
                    problems.push((
                        "SLAB-4",
                        format!(
                            "node {n}'s shared array holds {} of at most {}",
                            sh.avail(),
                            sh.limit
                        ),
                    ));
                }
            }
        }
        for (k, ac) in self.ac.iter().enumerate() {
            if ac.avail() > ac.limit {
                problems.push((
                    "SLAB-4",
                    format!(
                        "cpu{k}'s array holds {} of at most {}",
                        ac.avail(),
                        ac.limit
                    ),
                ));
            }
        }
        for (inv, msg) in problems {
            core.violate(inv, msg);
        }
    }

    /// The end-of-run identities of SLAB's counters.
    pub(in crate::model) fn check_slab_end(&self, core: &mut Core) {
        let stat = |core: &Core, s: Stat| {
            (core.st.stats.iter().filter_map(|c| c.get(s as usize)))
                .fold(0u64, |t, n| t.saturating_add(*n))
        };
        let allocs = stat(core, Stat::ALLOCHIT).saturating_add(stat(core, Stat::ALLOCMISS));
        let started = core.ghost.slab_allocs;
        if allocs != started {
            let msg = format!("ALLOCHIT + ALLOCMISS = {allocs}, but {started} allocations ran");
            core.violate("SLAB-6", msg);
        }
        let frees = (stat(core, Stat::FREEHIT).saturating_add(stat(core, Stat::FREEMISS)))
            .saturating_add(core.ghost.alien_frees);
        if frees != core.ghost.frees {
            let msg = format!(
                "FREEHIT + FREEMISS + frees to another node = {frees}, but {} objects were freed",
                core.ghost.frees
            );
            core.violate("SLAB-6", msg);
        }
        if core.checks {
            self.check_slab_invariants(core);
        }
    }
}

#[cfg(test)]
mod tests {
    //! The checker can fail: each SLAB invariant is broken by hand in a real state (the
    //! model itself never breaks them: the property tests say so) and must be reported.
    use crate::model::allocator::AllocState;
    use crate::model::slab::SlabState;
    use crate::model::{Machine, Move};
    use crate::scenario;

    /// The tests' reach into SLAB's own state.
    impl Machine {
        fn slab_state(&self) -> &SlabState {
            match &self.alloc {
                AllocState::Slab(sb) => sb,
                _ => unreachable!("a SLAB test ran another allocator"),
            }
        }
        fn slab_state_mut(&mut self) -> Option<&mut SlabState> {
            match &mut self.alloc {
                AllocState::Slab(sb) => Some(sb),
                _ => None,
            }
        }
    }

    /// SC18 after task A's first allocation: a slab on node 0, one object in cpu0's array.
    fn machine() -> Machine {
        let text = include_str!("../../../tests/scenarios/sc18_slab_lockless_grow_decision.json");
        let mut m = Machine::new(scenario::parse(text).unwrap(), false, true);
        while !m.core.st.vars[0].bound {
            m.apply_move(Move::Step(0), None);
        }
        assert!(m.core.violations.is_empty(), "{:?}", m.core.violations);
        m
    }

    fn invariants_after(edit: impl FnOnce(&mut Machine)) -> Vec<String> {
        let mut m = machine();
        edit(&mut m);
        m.check_step_invariants();
        m.core
            .violations
            .iter()
            .map(|v| v.invariant.clone())
            .collect()
    }

    #[test]
    fn an_object_in_two_arrays_is_slab_1() {
        let v = invariants_after(|m| {
            let a = m.slab_state().ac[0].entry[0];
            m.slab_state_mut().unwrap().ac[1].entry.push(a);
        });
        assert_eq!(v, ["SLAB-1"]);
    }

    #[test]
    fn a_lost_object_is_slab_1() {
        let v = invariants_after(|m| {
            m.slab_state_mut().unwrap().ac[0].entry.clear();
        });
        assert_eq!(v, ["SLAB-1"]);
    }

    #[test]
    fn a_slab_on_the_wrong_list_is_slab_2() {
        let v = invariants_after(|m| {
            let s = m.core.st.nodes[0].partial.remove(0);
            m.slab_state_mut().unwrap().nodes[0].slabs_full.push(s);
        });
        assert_eq!(v, ["SLAB-2"]);
    }

    #[test]
    fn a_wrong_free_objects_is_slab_3() {
        let v = invariants_after(|m| m.slab_state_mut().unwrap().nodes[0].free_objects += 1);
        assert_eq!(v, ["SLAB-3"]);
    }

    #[test]
    fn an_overfull_array_is_slab_4() {
        let v = invariants_after(|m| m.slab_state_mut().unwrap().ac[0].limit = 0);
        assert_eq!(v, ["SLAB-4"]);
    }

    /// Negative controls: SLAB-5 and SLAB-6 can fire too (a checker that cannot fire proves
    /// nothing).
    #[test]
    fn a_foreign_array_or_a_node_without_its_lock_is_slab_5() {
        let mut m = machine();
        // A context on cpu0, interrupts on, writes cpu1's array.
        SlabState::check_ac_owner(&mut m.core, 1, false);
        assert!(
            m.core.violations.iter().any(|v| v.invariant == "SLAB-5"),
            "{:?}",
            m.core.violations
        );
        let mut m = machine();
        SlabState::check_node_lock(&mut m.core, 0, "free_objects");
        assert!(
            m.core.violations.iter().any(|v| v.invariant == "SLAB-5"),
            "{:?}",
            m.core.violations
        );
    }

    #[test]
    fn counters_that_do_not_add_up_are_slab_6() {
        let mut m = machine();
        m.core.st.stats[0][crate::model::Stat::ALLOCHIT as usize] += 1;
        m.check_end_of_run();
        assert!(
            m.core.violations.iter().any(|v| v.invariant == "SLAB-6"),
            "{:?}",
            m.core.violations
        );
    }
}
