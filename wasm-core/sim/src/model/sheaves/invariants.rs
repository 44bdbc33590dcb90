//! Linux 7.0's invariants (model.md C.5), checked after every step, and its end-of-run identities.
//! INV-S6 (who writes a CPU's sheaves), INV-S7 (`local_lock` without a test) and INV-S5's
//! "lists change only under the barn lock" are checked where the writes happen (`mod.rs`,
//! `barn.rs`); INV-S14 (NUMA locality) is advisory in the kernel and not reported.
//!
//! Each checked invariant has a negative control that makes it fire (`negative.rs`: a state
//! or a write built by hand). Three have none, and say so: INV-S4 (`pcs(k).main` never NULL)
//! holds by the type (`Pcs::main` is a sheaf id, not an option), INV-S8 (an in-flight sheaf is
//! touched only by its operation) is not checked, and INV-S14 is not reported. INV-S6 and
//! INV-S7 fire only on states no schedule reaches (the trylock and the scheduler keep them):
//! they check the model's own bookkeeping of the lock.

use super::{sheaf_name, SheafId, SheavesState};
use crate::model::pcs::labels::*;
use crate::model::state::*;
use crate::model::Fault;
use crate::model::{Core, Stat};

/// Where an object was found, for the message of a double or missing owner.
#[derive(Clone)]
enum Place {
    User(usize),
    Sheaf(SheafId, u32),
    Freelist(SlabId),
    Held(CtxId),
}

// The windows in which a CPU's pointer is stale: the core's frames alone tell.
impl SheavesState {
    /// Whether some context stands between parking CPU k's main or spare in a barn and
    /// storing its replacement (`barn_replace_empty_sheaf` then `pcs->main = full`, and the
    /// like): the kernel leaves the old pointer in place for those steps, under the CPU's lock,
    /// and never reads it again.
    pub(super) fn replacing(core: &Core, k: u32) -> bool {
        Self::replacing_ref(core, k).is_some()
    }

    /// Which of CPU k's pointers is stale in such a window: `Some(true)` its main, `Some(false)`
    /// its spare. SE6, FR6r and FI4r store a new main; SE16r a new main after parking the old
    /// one (SE14, `count` 0) or a new spare after parking the empty spare (SE16).
    pub(super) fn replacing_ref(core: &Core, k: u32) -> Option<bool> {
        core.st.ctxs.iter().find_map(|c| {
            c.stack.iter().find_map(|f| match f {
                Frame::ReplaceEmptyMain {
                    pc: pcs_replace_empty_main::SE6,
                    l,
                } if l.pcs == k => Some(true),
                Frame::ReplaceEmptyMain {
                    pc: pcs_replace_empty_main::SE16r,
                    l,
                } if l.pcs == k => Some(l.count == 0),
                Frame::ReplaceFullMain {
                    pc: pcs_replace_full_main::FR6r,
                    l,
                } if l.pcs == k => Some(true),
                Frame::InstallEmptySheaf {
                    pc: pcs_install_empty_sheaf::FI4r,
                    l,
                } if l.pcs == k => Some(true),
                _ => None,
            })
        })
    }
}

// The checks, on 7.0's state with the core they report to (`allocator.rs` lends both).
impl SheavesState {
    /// Whether a context's `__slab_free` of slab `s` has done its CAS and still has the slab in
    /// hand: it will list it, leave it to its isolator, or discard it.
    fn freeing_after_cas(core: &Core, s: SlabId) -> bool {
        use slab_free_slow_v7::Pc::*;
        core.st.ctxs.iter().any(|c| {
            c.stack.iter().any(|f| {
                matches!(f, Frame::SlabFreeSlowV7 {
                    pc: SS7 | SS8 | SS9 | SS10 | SS10u | SS11 | SS11u | SS11d,
                    l,
                } if l.slab == s)
            })
        })
    }

    fn sheaf_place_text(core: &Core, p: &Place) -> String {
        match p {
            Place::User(v) => format!("held by `{}`", core.var_name(*v)),
            Place::Sheaf(h, i) => format!("in sheaf {} (slot {i})", sheaf_name(*h)),
            Place::Freelist(s) => format!("on slab {}'s freelist", core.slab_name(*s)),
            Place::Held(c) => format!("in flight in {}", core.ctx_name(*c)),
        }
    }

    /// INV-S1, INV-S2, INV-S3, INV-S5, INV-S9–INV-S13 after a step.
    pub(in crate::model) fn check_sheaves_invariants(&self, core: &mut Core) {
        let objects = core.cfg.objects as usize;
        let nslabs = core.st.slabs.len();
        let mut places: Vec<Vec<Place>> = vec![Vec::new(); nslabs.saturating_mul(objects)];
        // Object i of slab s is entry `s * objects + i` of `places` (below its length).
        let slot = |s: SlabId, i: u32| {
            (s as usize)
                .saturating_mul(objects)
                .saturating_add(i as usize)
        };
        let idx = |core: &Core, a: Addr| core.object_of(a).map(|(s, i)| slot(s, i));
        let mut problems: Vec<(&'static str, String)> = Vec::new();
        let discards = std::mem::take(&mut core.pending_discards);
        for (vi, v) in core.st.vars.iter().enumerate() {
            if let Some(i) = v.addr.filter(|_| v.held()).and_then(|a| idx(core, a)) {
                if let Some(ps) = places.get_mut(i) {
                    ps.push(Place::User(vi));
                }
            }
        }
        let s = self;
        for (h, sh) in s.sheaves.iter().enumerate() {
            if sh.freed {
                continue;
            }
            for (slot, &a) in sh.slots.iter().take(sh.size as usize).enumerate() {
                if let Some(i) = idx(core, a) {
                    if let Some(ps) = places.get_mut(i) {
                        ps.push(Place::Sheaf(h as SheafId, slot as u32));
                    }
                }
            }
        }
        for &(c, a) in &s.held {
            if let Some(i) = idx(core, a) {
                if let Some(ps) = places.get_mut(i) {
                    ps.push(Place::Held(c));
                }
            }
        }
        // INV-S9: every published slab's freelist is a chain within it, acyclic, and with
        // `inuse` accounts for every object.
        for (sid, sl) in core.st.slabs.iter().enumerate() {
            if sl.life != Life::Live {
                continue;
            }
            let su = self.slab(core, sid as SlabId);
            let mut a = su.freelist;
            let mut len = 0u32;
            while a != NULL {
                match core.object_of(a) {
                    Some((s2, i)) if s2 as usize == sid && len < core.cfg.objects => {
                        if let Some(ps) = places.get_mut(slot(s2, i)) {
                            ps.push(Place::Freelist(sid as SlabId));
                        }
                        len.bump();
                        // `i < objects`, the length of every `fp`.
                        a = match sl.fp.get(i as usize) {
                            Some(&next) => next,
                            None => {
                                core.fault(Fault::NoSuch("object", a));
                                break;
                            }
                        };
                    }
                    _ => {
                        problems.push((
                            "INV-S9",
                            format!(
                                "slab {}'s freelist is not a chain of its own objects ending in NULL",
                                core.slab_name(sid as SlabId)
                            ),
                        ));
                        break;
                    }
                }
            }
            if su.counters.inuse.checked_add(len) != Some(su.counters.objects) {
                problems.push((
                    "INV-S9",
                    format!(
                        "slab {}: inuse {} + {len} on its freelist != {} objects",
                        core.slab_name(sid as SlabId),
                        su.counters.inuse,
                        su.counters.objects
                    ),
                ));
            }
            if su.counters.frozen {
                problems.push((
                    "INV-S11",
                    format!("slab {} is frozen", core.slab_name(sid as SlabId)),
                ));
            }
        }
        // INV-S1: one place per object of every published slab.
        for (i, ps) in places.iter().enumerate() {
            let (Some(sid), Some(oi)) = (i.checked_div(objects), i.checked_rem(objects)) else {
                continue;
            };
            let sid = sid as SlabId;
            if core.page(sid).life != Life::Live {
                continue;
            }
            let a = core.obj_addr(sid, oi as u32);
            match ps.len() {
                1 => {}
                0 => problems.push((
                    "INV-S1",
                    format!(
                        "{} is in no place: no user, sheaf, freelist or operation holds it (leaked)",
                        core.addr_name(a)
                    ),
                )),
                _ => problems.push((
                    "INV-S1",
                    format!(
                        "{} is in {} places at once: {}",
                        core.addr_name(a),
                        ps.len(),
                        ps.iter()
                            .map(|p| Self::sheaf_place_text(core, p))
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ),
                )),
            }
        }
        // INV-S3: one place per sheaf; INV-S5: barn lists hold empty / non-empty sheaves.
        let mut refs = vec![0u32; s.sheaves.len()];
        for (k, p) in s.pcs.iter().enumerate() {
            // A CPU between parking its sheaf in a barn and storing the replacement still
            // points to the old one, and never reads it again: another CPU may already have
            // taken it from the barn (found by the explorer in SH3). Only that one pointer
            // is exempt; the CPU's other one still counts (INV-S3, model.md C.5).
            let stale = SheavesState::replacing_ref(core, k as u32);
            if stale != Some(true) {
                if let Some(r) = refs.get_mut(p.main as usize) {
                    r.bump();
                }
            }
            if let Some(sp) = p.spare.filter(|_| stale != Some(false)) {
                if let Some(r) = refs.get_mut(sp as usize) {
                    r.bump();
                }
            }
        }
        for (n, b) in s.barns.iter().enumerate() {
            for &h in &b.full {
                if let Some(r) = refs.get_mut(h as usize) {
                    r.bump();
                }
                if self.sheaf(core, h).size == 0 {
                    problems.push((
                        "INV-S5",
                        format!(
                            "node {n}'s barn has the empty sheaf {} on its full list",
                            sheaf_name(h)
                        ),
                    ));
                }
            }
            for &h in &b.empty {
                if let Some(r) = refs.get_mut(h as usize) {
                    r.bump();
                }
                if self.sheaf(core, h).size != 0 {
                    problems.push((
                        "INV-S5",
                        format!(
                            "node {n}'s barn has sheaf {} with {} object(s) on its empty list",
                            sheaf_name(h),
                            self.sheaf(core, h).size
                        ),
                    ));
                }
            }
        }
        for (h, (&r, sh)) in refs.iter().zip(&s.sheaves).enumerate() {
            if r > 1 {
                problems.push((
                    "INV-S3",
                    format!(
                        "sheaf {} is in {r} places at once (main, spare or a barn list)",
                        sheaf_name(h as SheafId)
                    ),
                ));
            }
            if r > 0 && sh.freed {
                problems.push((
                    "INV-S3",
                    format!(
                        "sheaf {} was freed but a CPU or a barn still points to it",
                        sheaf_name(h as SheafId)
                    ),
                ));
            }
        }
        // INV-S10: the node list and its flag agree; INV-S12: a published slab with free
        // objects is on its node's list, isolated by a refill, or being put back by the
        // holder of that node's list_lock.
        for (n, node) in core.st.nodes.iter().enumerate() {
            if node.nr_partial as usize != node.partial.len() {
                problems.push((
                    "INV-S10",
                    format!(
                        "node {n}: nr_partial {} but {} slabs on the list",
                        node.nr_partial,
                        node.partial.len()
                    ),
                ));
            }
        }
        for (sid, sl) in core.st.slabs.iter().enumerate() {
            let sid = sid as SlabId;
            if sl.life != Life::Live {
                continue;
            }
            let su = self.slab(core, sid);
            let listed = core.node(sl.node).partial.contains(&sid);
            if listed != su.on_node_partial {
                problems.push((
                    "INV-S10",
                    format!(
                        "slab {}: SL_partial is {} but it is {}on node {}'s list",
                        core.slab_name(sid),
                        su.on_node_partial as u8,
                        if listed { "" } else { "not " },
                        sl.node
                    ),
                ));
            }
            let isolated = s.isolated.iter().any(|&(_, x)| x == sid);
            // RN7 puts isolated slabs back under the lock: they stay isolated until listed.
            let putting_back = Self::freeing_after_cas(core, sid);
            if su.freelist != NULL && !listed && !isolated && !putting_back {
                problems.push((
                    "INV-S12",
                    format!(
                        "slab {} has free objects but is on no list and no refill isolated it: they cannot be found",
                        core.slab_name(sid)
                    ),
                ));
            }
        }
        // INV-S13: the discards of this step.
        for (sid, why, _) in discards {
            let other = s
                .isolated
                .iter()
                .find(|&&(c, x)| x == sid && c != core.cur)
                .map(|&(c, _)| c);
            let why = why.or_else(|| other.map(|c| format!("{} isolated it", core.ctx_name(c))));
            if let Some(why) = why {
                problems.push((
                    "INV-S13",
                    format!("slab {} was discarded although {why}", core.slab_name(sid)),
                ));
            }
        }
        for (inv, msg) in problems {
            core.violate(inv, msg);
        }
    }

    /// INV-S15 at the end of a run: the counters account for every object, and nothing is
    /// left locked, in flight or isolated.
    pub(in crate::model) fn check_sheaves_end(&self, core: &mut Core) {
        let total = |core: &Core, s: Stat| {
            (core.st.stats.iter().filter_map(|c| c.get(s as usize)))
                .fold(0u64, |t, n| t.saturating_add(*n))
        };
        use Stat::*;
        let in_sheaves: u64 = self
            .sheaves
            .iter()
            .filter(|h| !h.freed)
            .map(|h| h.size as u64)
            .sum();
        // Counts of a bounded run: far below where the sums or the i64 could overflow.
        let flow = (total(core, SHEAF_REFILL).saturating_add(total(core, FREE_FASTPATH)) as i64)
            .saturating_sub(
                total(core, ALLOC_FASTPATH).saturating_add(total(core, SHEAF_FLUSH)) as i64,
            );
        // Sheaves freed with objects in them (model.md C.9 item 3) hold objects the counters
        // still count: INV-S1 reports those objects as leaked, this identity excludes them.
        let leaked: u64 = self
            .sheaves
            .iter()
            .filter(|h| h.freed)
            .map(|h| h.size as u64)
            .sum();
        if in_sheaves.saturating_add(leaked) as i64 != flow {
            let msg = format!(
                "the sheaves hold {in_sheaves} object(s), but SHEAF_REFILL + FREE_FASTPATH - ALLOC_FASTPATH - SHEAF_FLUSH = {flow}"
            );
            core.violate("INV-S15", msg);
        }
        let fast = total(core, ALLOC_FASTPATH);
        if fast.checked_add(core.ghost.slow_allocs) != Some(core.ghost.allocs) {
            let msg = format!(
                "ALLOC_FASTPATH ({fast}) + successful ___slab_alloc calls ({}) != successful allocations ({})",
                core.ghost.slow_allocs, core.ghost.allocs
            );
            core.violate("INV-S15", msg);
        }
        let frees = total(core, FREE_FASTPATH).saturating_add(total(core, FREE_SLOWPATH));
        if frees != core.ghost.frees {
            let msg = format!(
                "FREE_FASTPATH + FREE_SLOWPATH = {frees}, but {} objects were freed",
                core.ghost.frees
            );
            core.violate("INV-S15", msg);
        }
        if core.checks {
            self.check_sheaves_invariants(core);
        }
    }
}
