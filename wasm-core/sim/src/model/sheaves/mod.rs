//! Linux 7.0's SLUB (model.md Appendix C): per-CPU sheaves and per-node barns in place of
//! `kmem_cache_cpu`, its tid and its CPU (partial) slabs. The slab level is SLUB's
//! (`slab_page`: each `SlubPage`'s `freelist` + `counters` and their double CAS, kept in
//! `SheavesState::pages`), with the shared `Node`'s partial list under `list_lock`, as in the
//! classic design.
//!
//! Files: `access` (the lookups of its own state and of the core, `impl SheavesState`; the
//! helpers its functions share are `impl SheavesState` here), `alloc`
//! (`slab_alloc_node`/`alloc_from_pcs`, `__pcs_replace_empty_main`), `refill` (the refill
//! from slabs: `refill_sheaf`, `refill_objects`, `__refill_objects_node`),
//! `alloc_slow` (`___slab_alloc`, `get_from_partial_node`, `allocate_slab`,
//! `alloc_from_new_slab`), `free` (`slab_free`, `free_to_pcs`, `__pcs_replace_full_main`),
//! `flush` (the flushes, `__kmem_cache_free_bulk`, hotplug), `free_slow` (`__slab_free`),
//! `barn` (the barn helpers and the per-CPU lock), `invariants` (INV-S1…INV-S15 of model.md C.5),
//! `view` (its part of the views).
//!
//! Where a kernel statement becomes one step although it is several accesses, the comment at
//! the step says why no other context can tell the difference (a private sheaf, a lock held).

use super::memory::Access;
use super::state::OpCall;
use super::state::*;
use super::Block;
use super::{cost, Core, Fault, Flow, Pc, Stat};
use crate::model::pcs::labels::*;
use crate::scenario::PcsLock;

mod access;
mod alloc;
mod alloc_slow;
mod barn;
mod flush;
mod free;
mod free_slow;
mod invariants;
#[cfg(test)]
mod negative;
mod refill;
mod view;

use super::locals::{PcsFlushAll, SlabAllocNode, SlabFreeV7, SlubCpuDead};
use super::pcs::FnPc;

pub type SheafId = u32;

/// `PCS_BATCH_MAX`: objects `sheaf_flush_main` takes off the main sheaf per locked section.
pub const PCS_BATCH_MAX: u32 = 32;

/// `struct slab_sheaf`: a LIFO stack of object pointers. Slots at and above `size` are stale
/// (whatever was written there last), as in the kernel; only `slots[..size]` hold objects.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sheaf {
    pub slots: Vec<Addr>,
    pub size: u32,
    /// The header's cache line `SH(h)`; further slot lines follow it.
    pub line: u32,
    /// Given back to `kfree` (`free_empty_sheaf`).
    pub freed: bool,
}

impl Sheaf {
    /// `objects[0..size]`, bottom first (a size past the slots holds only the slots).
    pub fn objects(&self) -> &[Addr] {
        let n = (self.size as usize).min(self.slots.len());
        self.slots.get(..n).unwrap_or_default()
    }
}

/// `struct slub_percpu_sheaves`: the `local_trylock_t` (who set `acquired`), `main`, `spare`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pcs {
    pub holder: Option<CtxId>,
    pub main: SheafId,
    pub spare: Option<SheafId>,
}

/// `struct node_barn`: its spinlock and its two LIFO lists, head first (the counts
/// `nr_full`/`nr_empty` are the lists' lengths).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Barn {
    pub lock: Option<CtxId>,
    pub full: Vec<SheafId>,
    pub empty: Vec<SheafId>,
}

/// Everything Linux 7.0 keeps beyond the shared slabs and nodes, with the ghost state of
/// model.md C.2.9 the checker needs: objects an operation holds privately (`INFLIGHT(op)`) and the
/// slabs `get_partial_node_bulk` isolated, with the context that isolated each.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SheavesState {
    pub pcs: Vec<Pcs>,
    pub sheaves: Vec<Sheaf>,
    pub barns: Vec<Barn>,
    pub held: Vec<(CtxId, Addr)>,
    pub isolated: Vec<(CtxId, SlabId)>,
    /// SLUB's fields of every slab, by `SlabId` (7.0 keeps SLUB's slab level).
    pub pages: Vec<super::slab_page::SlubPage>,
}

/// The entry frame of an op under Linux 7.0.
pub(super) fn op_frame(call: OpCall) -> Frame {
    match call {
        OpCall::Alloc { node } => slab_alloc_node::SA1.frame(SlabAllocNode {
            node,
            ..SlabAllocNode::default()
        }),
        OpCall::Free { addr, slab } => slab_free_v7::SF2.frame(SlabFreeV7 {
            object: addr,
            slab,
            ..SlabFreeV7::default()
        }),
        // `flush` of this CPU: the work item `flush_all` queues on it (`pcs_flush_all`); of
        // CPU `target`: `slub_cpu_dead` on a survivor.
        OpCall::Flush { target: None } => pcs_flush_all::LL1.frame(PcsFlushAll::default()),
        OpCall::Flush { target: Some(t) } => slub_cpu_dead::HP2.frame(SlubCpuDead {
            cpu: t,
            ..SlubCpuDead::default()
        }),
    }
}

/// Where a task may sleep: the page allocator and the sheaf's `kzalloc` with `GFP_KERNEL`.
pub(super) fn at_sleep_point(fr: &Frame) -> bool {
    matches!(
        fr.pc(),
        Pc::AllocateSlab(allocate_slab::NB1) | Pc::ReplaceEmptyMain(pcs_replace_empty_main::SE12)
    )
}

impl SheavesState {
    /// `init_percpu_sheaves` at cache creation: every CPU's `main` is an empty sheaf of its
    /// own, `spare` is NULL, every barn is empty.
    pub(in crate::model) fn init(&mut self, core: &mut Core) {
        let mut pcs = Vec::new();
        for _ in 0..core.cfg.cpus {
            let h = self.create_sheaf(core);
            pcs.push(Pcs {
                holder: None,
                main: h,
                spare: None,
            });
        }
        self.pcs = pcs;
    }

    /// A new, empty sheaf with its cache lines (the `kzalloc` of `__alloc_empty_sheaf`).
    fn create_sheaf(&mut self, core: &mut Core) -> SheafId {
        let layout = Self::sheaf_layout(core);
        let (cap, lines) = (layout.capacity, layout.lines);
        let line = core.st.lines.len() as u32;
        for _ in 0..lines {
            core.st.lines.push([Mesi::I; MAX_CPUS]);
        }
        let h = self.sheaves.len() as SheafId;
        self.sheaves.push(Sheaf {
            slots: vec![NULL; cap as usize],
            size: 0,
            line,
            freed: false,
        });
        h
    }

    // ----- lines -----

    pub(super) fn line_sh(&self, core: &Core, h: SheafId) -> u32 {
        self.sheaf(core, h).line
    }
    /// `SO(h, i)`: the line of `h.objects[i]` (`SH(h)` for the first four).
    // A sheaf's lines follow its header line: at most `MAX_SHEAF_CAPACITY` slots, eight a
    // line, and `lines` is at least 1 (`SheafLayout::new`).
    #[allow(clippy::arithmetic_side_effects)]
    pub(super) fn line_slot(&self, core: &Core, h: SheafId, i: u32) -> u32 {
        let base = self.line_sh(core, h);
        if i < 4 {
            base
        } else {
            (base + 1 + (i - 4) / 8).min(base + Self::sheaf_layout(core).lines - 1)
        }
    }

    // ----- accessors -----

    pub(super) fn capacity(core: &Core) -> u32 {
        Self::sheaf_layout(core).capacity
    }
    // ----- the ghost owner of objects in flight -----

    pub(super) fn hold(&mut self, core: &Core, a: Addr) {
        self.held.push((core.cur, a));
    }
    pub(super) fn unhold(&mut self, core: &Core, a: Addr) {
        let cur = core.cur;
        if let Some(i) = self.held.iter().position(|&(c, x)| c == cur && x == a) {
            self.held.remove(i);
        }
    }
    /// Release the `cnt` objects of a detached chain from `head` (they reached their slab).
    pub(super) fn unhold_chain(&mut self, core: &Core, head: Addr, cnt: u32) {
        let mut a = head;
        for _ in 0..cnt {
            if a == NULL {
                break;
            }
            self.unhold(core, a);
            a = core.peek_fp(a).unwrap_or(NULL);
        }
    }

    // ----- per-CPU sheaves: every write checks the lock discipline (INV-S6) -----

    /// A load of CPU k's `slub_percpu_sheaves`.
    pub(super) fn ld_pcs(&self, core: &mut Core, k: u32) -> Pcs {
        core.access(Self::line_pcs(core, k), Access::Read);
        self.pcs(core, k).clone()
    }

    /// INV-S6: CPU k's sheaves change only under its lock, by the context that holds it (or,
    /// for a dead CPU, by `slub_cpu_dead`: `dead`).
    fn check_pcs_writer(&self, core: &mut Core, k: u32, what: &str, dead: bool) {
        if !Self::locked_pcs(core) || dead {
            return;
        }
        let holder = self.pcs(core, k).holder;
        if holder != Some(core.cur) {
            let who = holder.map_or("nobody".to_string(), |h| core.ctx_name(h).to_string());
            let msg = format!(
                "{} changed cpu{k}'s sheaves ({what}) while the lock was held by {who}",
                core.ctx_name(core.cur)
            );
            core.violate("INV-S6", msg);
        }
    }

    /// Store `main` and/or `spare` of CPU k (one step writes the `PCS(k)` line).
    pub(super) fn st_pcs(
        &mut self,
        core: &mut Core,
        k: u32,
        main: Option<SheafId>,
        spare: Option<Option<SheafId>>,
        dead: bool,
    ) {
        core.access(Self::line_pcs(core, k), Access::Write);
        self.check_pcs_writer(core, k, "main/spare", dead);
        let p = need!(core, self.pcs_mut(core, k), ());
        if let Some(m) = main {
            p.main = m;
        }
        if let Some(s) = spare {
            p.spare = s;
        }
    }

    /// The lock rule for a sheaf's `size` and slots: if it is a CPU's main or spare, only the
    /// holder of that CPU's lock writes them.
    fn check_sheaf_writer(&self, core: &mut Core, h: SheafId, dead: bool) {
        let Some(k) = self.sheaf_cpu(h) else {
            return;
        };
        // The holder writing its own sheaf is every fast path's case: settle it before the
        // scan of every context's frames that `replacing` is.
        if !Self::locked_pcs(core) || dead || self.pcs(core, k).holder == Some(core.cur) {
            return;
        }
        // A main just parked in a barn is still `pcs->main` until its CPU stores the
        // replacement (`replacing`): another CPU that takes it from the barn may fill it.
        if !Self::replacing(core, k) {
            let what = format!("sheaf {}", sheaf_name(h));
            self.check_pcs_writer(core, k, &what, dead);
        }
    }

    /// The spare swap of both replace functions: `main` and `spare` exchanged, two stores to
    /// the one `PCS(k)` line under the lock (no context on this CPU can run between them: an
    /// irq's trylock fails; none elsewhere reads them). `why` ends the narration.
    pub(super) fn swap_main_spare(
        &mut self,
        core: &mut Core,
        k: u32,
        main: SheafId,
        spare: SheafId,
        why: &str,
    ) {
        self.st_pcs(core, k, Some(spare), Some(Some(main)), false);
        note!(
            core,
            Store,
            format!("cpu_sheaves[{k}]"),
            "main := {} and spare := {}: the spare swap{why}.",
            sheaf_name(spare),
            sheaf_name(main)
        );
    }

    pub(super) fn ld_size(&self, core: &mut Core, h: SheafId) -> u32 {
        core.access(self.line_sh(core, h), Access::Read);
        self.sheaf(core, h).size
    }
    pub(super) fn st_size(&mut self, core: &mut Core, h: SheafId, size: u32, dead: bool) {
        core.access(self.line_sh(core, h), Access::Write);
        self.check_sheaf_writer(core, h, dead);
        if let Some(sh) = self.sheaf_mut(core, h) {
            sh.size = size;
        }
        if size > Self::capacity(core) {
            let msg = format!(
                "sheaf {} holds {size} objects, above its capacity {}",
                sheaf_name(h),
                Self::capacity(core)
            );
            core.violate("INV-S2", msg);
        }
    }
    pub(super) fn ld_slot(&self, core: &mut Core, h: SheafId, i: u32) -> Addr {
        core.access(self.line_slot(core, h, i), Access::Read);
        self.sheaf(core, h)
            .slots
            .get(i as usize)
            .copied()
            .unwrap_or(NULL)
    }
    pub(super) fn st_slot(&mut self, core: &mut Core, h: SheafId, i: u32, v: Addr, dead: bool) {
        core.access(self.line_slot(core, h, i), Access::Write);
        self.check_sheaf_writer(core, h, dead);
        // A slot beyond the capacity is not written (INV-S2 reports the size that led there).
        if let Some(s) = self
            .sheaf_mut(core, h)
            .and_then(|sh| sh.slots.get_mut(i as usize))
        {
            *s = v;
        }
    }

    /// `SHALLOC`: `__alloc_empty_sheaf`'s `kzalloc`, a kmalloc cache's object, not a page of
    /// this cache: `cache.pageAllocFail` (this cache's `new_slab` fails) leaves it alone, so
    /// `alloc_full_sheaf` gets its sheaf and fails at the refill.
    pub(super) fn sheaf_alloc(&mut self, core: &mut Core) -> Option<SheafId> {
        core.charge(cost::Id::PageAlloc);
        let h = self.create_sheaf(core);
        core.access(self.line_sh(core, h), Access::Write);
        core.stat(Stat::SHEAF_ALLOC);
        note!(
            core,
            SheafAlloc,
            format!("sheaf {}", sheaf_name(h)),
            "__alloc_empty_sheaf: kzalloc gives the empty sheaf {}.",
            sheaf_name(h)
        );
        Some(h)
    }

    /// `SHFREE`: `free_empty_sheaf`. A sheaf freed with objects in it leaks them (INV-S1
    /// reports them as lost): model.md C.9 item 3.
    pub(super) fn sheaf_free(&mut self, core: &mut Core, h: SheafId) {
        core.charge(cost::Id::PageFree);
        core.stat(Stat::SHEAF_FREE);
        let size = self.sheaf(core, h).size;
        if let Some(sh) = self.sheaf_mut(core, h) {
            sh.freed = true;
        }
        let first = self.line_sh(core, h);
        for l in first..first.saturating_add(Self::sheaf_layout(core).lines) {
            core.invalidate_line(l);
        }
        note!(
            core,
            SheafFree,
            format!("sheaf {}", sheaf_name(h)),
            "free_empty_sheaf({}): kfree the sheaf{}.",
            sheaf_name(h),
            if size > 0 {
                format!(" with {size} object(s) still in it: they are lost to their slabs")
            } else {
                String::new()
            }
        );
    }

    // ----- spinlocks taken with irqsave (`LOCKI`/`UNLOCKI` of model.md C.3.0) -----

    /// `spin_lock(&n->list_lock)`, with INV-13's answer from 7.0's own slabs
    /// (`slab_page::spin_lock`).
    pub(super) fn spin_lock(&self, core: &mut Core, n: u32) {
        crate::model::slab_page::spin_lock(&self.pages, core, n);
    }

    /// `spin_lock_irqsave(&n->list_lock)` as one step: the interrupt flag is this CPU's alone,
    /// so saving it and then taking the lock is the same to every other context as doing both
    /// at the instant the lock is free (the step waits until it is).
    pub(super) fn list_lock_irqsave(&self, core: &mut Core, flags: &mut bool, n: u32) {
        core.irq_save(flags);
        self.spin_lock(core, n);
        note!(
            core,
            Lock,
            format!("node {n}.list_lock"),
            "spin_lock_irqsave(&n->list_lock) of node {n}."
        );
    }
    pub(super) fn list_unlock_irqrestore(core: &mut Core, flags: bool, n: u32) {
        core.spin_unlock(n);
        core.irq_restore(flags);
        note!(
            core,
            Unlock,
            format!("node {n}.list_lock"),
            "spin_unlock_irqrestore(&n->list_lock) of node {n}."
        );
    }
}

impl SheavesState {
    /// The locks of `cx`'s next step, if another context holds one.
    pub(super) fn sheaves_lock_wait(&self, core: &Core, cx: CtxId, fr: &Frame) -> Option<Block> {
        let held_by = |who: Option<CtxId>| who.filter(|&h| h != cx);
        let node_lock = |n: u32| held_by(core.node(n).list_lock).map(|h| Block::ListLock(n, h));
        let barn_lock = |n: u32| held_by(self.barn(core, n).lock).map(|h| Block::BarnLock(n, h));
        match fr {
            Frame::SlabFreeSlowV7 {
                pc: slab_free_slow_v7::SS5,
                l,
            } => {
                let n = core.node_of_slab(l.slab);
                let locks = l.new.inuse == 0 || l.prior == NULL;
                if locks {
                    node_lock(n)
                } else {
                    None
                }
            }
            Frame::AllocFromNewSlab {
                pc: alloc_from_new_slab::NS5,
                l,
            } => node_lock(core.node_of_slab(l.slab)),
            Frame::GetFromPartialNode {
                pc: get_from_partial_node::GP2,
                l,
            } => node_lock(l.n),
            Frame::RefillObjectsNode {
                pc: refill_objects_node::RN7,
                l,
            } => node_lock(l.n),
            // `allow_spin = false` takes the lock by trylock: it never waits.
            Frame::GetPartialNodeBulk {
                pc: get_partial_node_bulk::GB2,
                l,
            } if !l.trylock => node_lock(l.n),
            Frame::BarnReplaceEmpty {
                pc: barn_replace_empty_sheaf::BRE2,
                l,
            } => barn_lock(l.barn),
            Frame::BarnGetEmpty {
                pc: barn_get_empty_sheaf::BGE2,
                l,
            } => barn_lock(l.barn),
            Frame::BarnReplaceFull {
                pc: barn_replace_full_sheaf::BRF3,
                l,
            } => barn_lock(l.barn),
            Frame::BarnPutEmpty {
                pc: barn_put_empty_sheaf::BP1,
                l,
            }
            | Frame::BarnPutFull {
                pc: barn_put_full_sheaf::BP1,
                l,
            } => barn_lock(l.barn),
            _ => None,
        }
    }
}

/// `!cache_has_sheaves(s)` at the top of `__pcs_replace_empty_main` and
/// `__pcs_replace_full_main`: with a capacity of 0 (SLUB_TINY, debug and boot caches) no object
/// stays on a CPU, so the function unlocks and returns NULL (the caller takes the slab path);
/// otherwise it goes on at `next`.
pub(super) fn without_sheaves<P: Copy>(
    core: &Core,
    pc: &mut P,
    c: u32,
    next: P,
    unlocked: P,
) -> Flow {
    if SheavesState::capacity(core) > 0 {
        *pc = next;
        return Flow::Go;
    }
    *pc = unlocked;
    call(local_unlock_v7::LU1, |f| f.cpu = c)
}

/// Sheaves are named `h0`, `h1`… in the order they were allocated.
pub(super) fn sheaf_name(h: SheafId) -> String {
    format!("h{h}")
}

/// A sheaf id as a callee's return value (`Flow::Ret` carries an address): 0 is NULL.
pub(super) fn ret_sheaf(h: Option<SheafId>) -> Addr {
    // A u32 id plus one fits an address.
    h.map_or(NULL, |h| u64::from(h).saturating_add(1))
}
pub(super) fn sheaf_of_ret(v: Addr) -> Option<SheafId> {
    v.checked_sub(1).map(|h| h as SheafId)
}

/// A callee frame starting at `pc` (a label of the callee's function), with the locals
/// `set` gives it (the others as `Default` makes them).
pub(super) fn call<P: FnPc>(pc: P, set: impl FnOnce(&mut P::Locals)) -> Flow {
    let mut l = P::Locals::default();
    set(&mut l);
    Flow::call(pc.frame(l))
}

impl SheavesState {
    /// Run one label of one of its functions: the frame's arm names the function, its label
    /// and its locals (`allocator.rs` lends the state and the core, borrowed apart).
    pub(in crate::model) fn exec(&mut self, core: &mut Core, fr: &mut Frame) -> Flow {
        match fr {
            Frame::SlabAllocNode { pc, l } => self.slab_alloc_node(core, pc, l),
            Frame::ReplaceEmptyMain { pc, l } => self.pcs_replace_empty_main(core, pc, l),
            Frame::SlabFreeV7 { pc, l } => self.slab_free_v7(core, pc, l),
            Frame::FreeToPcs { pc, l } => self.free_to_pcs(core, pc, l),
            Frame::ReplaceFullMain { pc, l } => self.pcs_replace_full_main(core, pc, l),
            Frame::InstallEmptySheaf { pc, l } => self.pcs_install_empty_sheaf(core, pc, l),
            Frame::SheafFlushMain { pc, l } => self.sheaf_flush_main(core, pc, l),
            Frame::SheafFlushUnused { pc, l } => self.sheaf_flush_unused(core, pc, l),
            Frame::FreeBulk { pc, l } => self.kmem_cache_free_bulk(core, pc, l),
            Frame::CpuDead { pc, l } => self.slub_cpu_dead(core, pc, l),
            Frame::PcsFlushAll { pc, l } => self.pcs_flush_all(core, pc, l),
            Frame::BarnReplaceEmpty { pc, l } => self.barn_replace_empty_sheaf(core, pc, l),
            Frame::BarnGetEmpty { pc, l } => self.barn_get_empty_sheaf(core, pc, l),
            Frame::BarnReplaceFull { pc, l } => self.barn_replace_full_sheaf(core, pc, l),
            Frame::BarnPutEmpty { pc, l } => self.barn_put_sheaf(core, pc, l, false),
            // `barn_put_full_sheaf` runs `barn_put_empty_sheaf`'s body on the other list.
            Frame::BarnPutFull { pc, l } => {
                let mut at = barn_put_empty_sheaf::Pc::from(*pc);
                let flow = self.barn_put_sheaf(core, &mut at, l, true);
                *pc = at.into();
                flow
            }
            Frame::LocalTrylock { pc, l } => self.local_trylock(core, pc, l),
            Frame::LocalLockV7 { pc, l } => self.local_lock_v7(core, pc, l),
            Frame::LocalUnlockV7 { pc, l } => self.local_unlock_v7(core, pc, l),
            Frame::RefillSheaf { pc, l } => self.refill_sheaf(core, pc, l),
            Frame::RefillObjects { pc, l } => self.refill_objects(core, pc, l),
            Frame::RefillObjectsNode { pc, l } => self.refill_objects_node(core, pc, l),
            Frame::GetPartialNodeBulk { pc, l } => self.get_partial_node_bulk(core, pc, l),
            Frame::GetFreelistNofreeze { pc, l } => self.get_freelist_nofreeze(core, pc, l),
            Frame::AllocFromNewSlab { pc, l } => self.alloc_from_new_slab(core, pc, l),
            Frame::AllocateSlab { pc, l } => self.allocate_slab(core, pc, l),
            Frame::SlabAllocV7 { pc, l } => self.slab_alloc_v7(core, pc, l),
            Frame::GetFromPartialNode { pc, l } => self.get_from_partial_node(core, pc, l),
            Frame::SlabFreeSlowV7 { pc, l } => self.slab_free_slow_v7(core, pc, l),
            _ => core.fault(Fault::Broken("a function of another allocator")),
        }
    }
}
