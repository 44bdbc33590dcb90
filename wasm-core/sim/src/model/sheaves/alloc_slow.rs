//! The slab slow path that remains under Linux 7.0 (model.md C.3.5): `___slab_alloc` takes one
//! object, from a node's partial slab (`get_from_partial_node`) or from a new slab
//! (`allocate_slab`, then `alloc_from_new_slab`, which the refill uses too). Locals are named
//! as in `alloc`.

use super::super::memory::Access;
use super::call;
use super::SheavesState;
use crate::model::locals::{AllocFromNewSlab, AllocateSlab, GetFromPartialNode, SlabAllocV7};
use crate::model::pcs::labels::*;
use crate::model::slab_page::{slab_pair_text, Counters};
use crate::model::state::*;
use crate::model::{Core, Flow, Stat};

impl Locals for AllocFromNewSlab {
    fn holds_addr(&self, a: Addr) -> bool {
        self.object == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.slab));
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.sheaf, None]
    }
}

impl Locals for AllocateSlab {
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.slab);
    }
}

impl Locals for GetFromPartialNode {
    fn holds_addr(&self, a: Addr) -> bool {
        self.object == a || self.freelist == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.slab);
    }
}

impl Locals for SlabAllocV7 {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
}

impl SheavesState {
    /// `new_slab` under 7.0 (NB1 the pages, NB2 the freelist): a private slab with `inuse` 0,
    /// not frozen, on no list.
    pub(in crate::model) fn allocate_slab(
        &mut self,
        core: &mut Core,
        pc: &mut allocate_slab::Pc,
        fr: &mut AllocateSlab,
    ) -> Flow {
        use allocate_slab::Pc::*;
        match *pc {
            NB1 => {
                step!(core);
                core.charge(crate::model::cost::Id::PageAlloc);
                if core.cfg.sc.cache.page_alloc_fail && !core.st.in_setup {
                    note!(
                        core,
                        PageAlloc,
                        "page allocator".into(),
                        "The page allocator fails (pageAllocFail): no new slab."
                    );
                    return Flow::Ret(Ret::new(NULL, None));
                }
                let node = fr.node.unwrap_or(core.my_node());
                let s = self.slabs(core).create_slab(node);
                fr.slab = Some(s);
                note!(
                    core,
                    PageAlloc,
                    format!("page {}", core.slab_name(s)),
                    "new_slab: the page allocator hands out slab {} on node {node}.",
                    core.slab_name(s)
                );
                *pc = NB2;
                Flow::Step
            }
            NB2 => {
                step!(core);
                let s = need!(core, fr.slab);
                let objects = core.cfg.objects;
                self.slabs(core).chain_objects(s);
                core.access(core.page(s).line, Access::Write);
                let first = core.obj_addr(s, 0);
                if let Some(sl) = self.slab_mut(core, s) {
                    sl.freelist = first;
                }
                note!(
                    core,
                    Store,
                    format!("objects of {}", core.slab_name(s)),
                    "Chain the {objects} objects of {} through their free pointers; inuse 0, not frozen.",
                    core.slab_name(s)
                );
                Flow::Ret(Ret::new(NULL, Some(s)))
            }
        }
    }

    /// `alloc_from_new_slab(P, p, count)` (NS3–NS5): take objects off the private slab into
    /// `sheaf` from slot `p` (or, without a sheaf, one object into `object`), then
    /// publish the slab: on the node's partial list if objects remain, else as a full slab.
    pub(in crate::model) fn alloc_from_new_slab(
        &mut self,
        core: &mut Core,
        pc: &mut alloc_from_new_slab::Pc,
        fr: &mut AllocFromNewSlab,
    ) -> Flow {
        use alloc_from_new_slab::Pc::*;
        let p = fr.slab;
        match *pc {
            NS3 => {
                let f = self.slab(core, p).freelist;
                if f == NULL || fr.allocated >= fr.count {
                    *pc = NS4;
                    return Flow::Go;
                }
                step!(core);
                match fr.sheaf {
                    Some(h) => self.st_slot(core, h, fr.p.saturating_add(fr.allocated), f, false),
                    None => fr.object = f,
                }
                self.hold(core, f);
                let next = core.load_fp(f);
                let sl = need!(core, self.slab_mut(core, p));
                sl.freelist = next;
                sl.counters.inuse.bump();
                fr.allocated.bump();
                note!(
                    core,
                    Store,
                    format!("objects of {}", core.slab_name(p)),
                    "p[{}] := {} (plain stores: the slab is still private).",
                    fr.allocated.saturating_sub(1),
                    core.addr_name(f)
                );
                Flow::Step
            }
            NS4 => {
                step!(core);
                core.access(core.page(p).line, Access::Write);
                let needs_list = core.cfg.objects > fr.allocated;
                if !needs_list {
                    if let Some(pg) = core.page_mut(p) {
                        pg.life = Life::Live;
                    }
                }
                note!(
                    core,
                    Store,
                    format!("page {}.freelist", core.slab_name(p)),
                    "slab->freelist := {}{}",
                    core.addr_name(self.slab(core, p).freelist),
                    if needs_list {
                        "; objects remain, so the slab goes on the partial list."
                    } else {
                        ": the slab is full and on no list."
                    }
                );
                if !needs_list {
                    return Flow::Ret(Ret::new(fr.object, None).counted(fr.allocated));
                }
                *pc = NS5;
                Flow::Step
            }
            NS5 => {
                step!(core);
                let n = core.node_of_slab(p);
                self.list_lock_irqsave(core, &mut fr.saved_irq, n);
                *pc = NS5a;
                Flow::Step
            }
            NS5a => {
                step!(core);
                let n = core.node_of_slab(p);
                if let Some(pg) = core.page_mut(p) {
                    pg.life = Life::Live;
                }
                self.slabs(core).add_partial(n, p, false);
                note!(
                    core,
                    ListAdd,
                    format!("node {n}.partial"),
                    "add_partial(n, {}, ADD_TO_HEAD): the new slab is public now.",
                    core.slab_name(p)
                );
                *pc = NS5u;
                Flow::Step
            }
            NS5u => {
                step!(core);
                let n = core.node_of_slab(p);
                SheavesState::list_unlock_irqrestore(core, fr.saved_irq, n);
                Flow::Ret(Ret::new(fr.object, None).counted(fr.allocated))
            }
        }
    }

    /// `___slab_alloc` under 7.0 (SL1–SL8): one object, from a node's partial slab under its
    /// `list_lock`, or from a new slab. `n` = the other node being tried (NUMA).
    pub(in crate::model) fn slab_alloc_v7(
        &mut self,
        core: &mut Core,
        pc: &mut slab_alloc_v7::Pc,
        fr: &mut SlabAllocV7,
    ) -> Flow {
        use slab_alloc_v7::Pc::*;
        match *pc {
            SL1 => {
                core.stat(Stat::ALLOC_SLOWPATH);
                *pc = SL3;
                let n = fr.node.unwrap_or(core.my_node());
                fr.n = Some(n);
                call(get_from_partial_node::GP1, |f| f.n = n)
            }
            SL3 => {
                if fr.ret.value != NULL {
                    return Flow::Ret(Ret::new(fr.ret.value, None));
                }
                // `get_from_any_partial`: when no node was asked for, or on the retry of a
                // node-specific request without `__GFP_THISNODE`.
                if fr.node.is_some() && !fr.retry {
                    *pc = SL5;
                    return Flow::Go;
                }
                // Its zonelist walk starts at the local node, as `__refill_objects_any`'s
                // (see there; no `remote_node_defrag_ratio` lottery either).
                let here = core.my_node();
                let after = (fr.walking != 0).then_some(u32::from(fr.nid));
                match Self::zonelist_next(core, here, after) {
                    Some(m) => {
                        fr.walking = 1;
                        fr.nid = m as u8;
                        *pc = SL3a;
                    }
                    None => *pc = SL5,
                }
                Flow::Go
            }
            SL3a => {
                step!(core);
                let m = fr.nid as u32;
                let nr = self.slabs(core).ld_nr_partial(m);
                let min = core.cfg.sc.cache.min_partial;
                note!(
                    core,
                    Load,
                    format!("node {m}.nr_partial"),
                    "get_from_any_partial: node {m} has {nr} partial slab(s){}",
                    if nr > min {
                        ": try it."
                    } else {
                        ", not above min_partial: skip it."
                    }
                );
                *pc = if nr > min { SL3r } else { SL3 };
                fr.ret.value = NULL;
                Flow::Step
            }
            SL3r => {
                *pc = SL3;
                let m = fr.nid as u32;
                call(get_from_partial_node::GP1, |f| f.n = m)
            }
            SL5 => {
                *pc = SL5r;
                let node = fr.node;
                call(allocate_slab::NB1, |f| f.node = node)
            }
            SL5r => {
                let Some(p) = fr.ret.slab else {
                    // A node-specific request tried its node with `__GFP_THISNODE` (no other
                    // node's slabs, no fallback in the page allocator); it fails only after a
                    // second try without it (`try_thisnode = false; goto new_objects`).
                    if fr.node.is_some() && !fr.retry {
                        fr.retry = true;
                        fr.walking = 0;
                        fr.ret.value = NULL;
                        *pc = SL3;
                        return Flow::Go;
                    }
                    return Flow::Ret(Ret::new(NULL, None));
                };
                core.stat(Stat::ALLOC_SLAB);
                *pc = SL7r;
                call(alloc_from_new_slab::NS3, |f| {
                    f.slab = p;
                    f.count = 1;
                })
            }
            SL7r => Flow::Ret(Ret::new(fr.ret.value, None)),
        }
    }

    /// `get_from_partial_node(n)` (GP1–GP7): one object off the first partial slab, under the
    /// node's `list_lock` and with the slab's double CAS (lockless frees may push meanwhile).
    pub(in crate::model) fn get_from_partial_node(
        &mut self,
        core: &mut Core,
        pc: &mut get_from_partial_node::Pc,
        fr: &mut GetFromPartialNode,
    ) -> Flow {
        use get_from_partial_node::Pc::*;
        let n = fr.n;
        match *pc {
            GP1 => {
                step!(core);
                if self.racy_nr_partial(core, n, "get_from_partial_node") == 0 {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                *pc = GP2;
                Flow::Step
            }
            GP2 => {
                step!(core);
                self.list_lock_irqsave(core, &mut fr.saved_irq, n);
                fr.object = NULL;
                *pc = GP4;
                Flow::Step
            }
            GP4 => {
                let Some(&p) = core.node(n).partial.first() else {
                    *pc = GP7;
                    return Flow::Go;
                };
                step!(core);
                fr.slab = Some(p);
                (fr.freelist, fr.counters) = self.slabs(core).read_slab_pair(p, |core, f, c| {
                    format!("Slab {}.", slab_pair_text(core, p, f, c))
                });
                *pc = GP4b;
                Flow::Step
            }
            GP4b => {
                step!(core);
                let nx = core.load_fp(fr.freelist);
                fr.next = nx;
                note!(
                    core,
                    Load,
                    format!("{}.fp", core.addr_name(fr.freelist)),
                    "next = get_freepointer({}) = {}.",
                    core.addr_name(fr.freelist),
                    core.addr_name(nx)
                );
                *pc = GP5;
                Flow::Step
            }
            GP5 => {
                step!(core);
                let p = need!(core, fr.slab);
                let new = Counters {
                    inuse: fr.counters.inuse.saturating_add(1),
                    ..fr.counters
                };
                let ok = self.slabs(core).cas_slab_pair(
                    p,
                    (fr.freelist, fr.counters),
                    (fr.next, new),
                    "succeeds.",
                    "fails: a lockless free pushed meanwhile. Read again.",
                );
                if !ok {
                    *pc = GP4;
                    return Flow::Step;
                }
                self.hold(core, fr.freelist);
                fr.object = fr.freelist;
                *pc = if fr.next == NULL { GP6 } else { GP7 };
                Flow::Step
            }
            GP6 => {
                step!(core);
                let p = need!(core, fr.slab);
                self.slabs(core).remove_partial(n, p);
                note!(
                    core,
                    ListDel,
                    format!("node {n}.partial"),
                    "The slab {} is full now: remove_partial.",
                    core.slab_name(p)
                );
                *pc = GP7;
                Flow::Step
            }
            GP7 => {
                step!(core);
                SheavesState::list_unlock_irqrestore(core, fr.saved_irq, n);
                Flow::Ret(Ret::new(fr.object, None))
            }
        }
    }
}
