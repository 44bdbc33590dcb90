//! The slab slow path that remains under Linux 7.0 (model.md C.3.5): `___slab_alloc` takes one
//! object, from a node's partial slab (`get_from_partial_node`) or from a new slab
//! (`allocate_slab`, then `alloc_from_new_slab`, which the refill uses too). Locals are named
//! as in `alloc`.

use super::super::memory::Access;
use super::call;
use super::SheavesState;
use crate::model::pcs::labels::*;
use crate::model::slab_page::{slab_pair_text, Counters};
use crate::model::state::*;
use crate::model::{Flow, Machine, Stat};

/// The locals of `alloc_from_new_slab(s, slab, p, count, allow_spin)`: `slab` the private
/// new slab, `p` the slot of `sheaf` where the array begins (no `sheaf`: one object into
/// `object`), `count` the objects wanted and `allocated` those taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AllocFromNewSlab {
    pub object: Addr,
    pub slab: SlabId,
    pub saved_irq: bool,
    pub allocated: u32,
    pub p: u32,
    pub count: u32,
    pub sheaf: Option<u32>,
}

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

/// The locals of `new_slab(s, gfp, node)` (its `allocate_slab`): `slab` the slab it made.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AllocateSlab {
    pub slab: Option<SlabId>,
    pub node: Option<u32>,
}

impl Locals for AllocateSlab {
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.slab);
    }
}

/// The locals of `get_from_partial_node(s, n)`: the `slab` tried, its `freelist` and
/// `counters` as read, `next` (`get_freepointer(freelist)`) and the `object` taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GetFromPartialNode {
    pub object: Addr,
    pub next: Addr,
    pub freelist: Addr,
    pub slab: Option<SlabId>,
    pub counters: Counters,
    pub n: u32,
    pub saved_irq: bool,
}

impl Locals for GetFromPartialNode {
    fn holds_addr(&self, a: Addr) -> bool {
        self.object == a || self.freelist == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.slab);
    }
}

/// The locals of `___slab_alloc(s, gfp, node)`: `walking` 1 while the NUMA walk of other
/// nodes runs, `nid` the node it tries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabAllocV7 {
    pub node: Option<u32>,
    pub n: Option<u32>,
    pub walking: u8,
    pub nid: u8,
    pub ret: Ret,
    /// A node-specific request whose first try (`__GFP_THISNODE`) found no slab: the retry
    /// without it (`try_thisnode = false`), which may take any node's partial slab.
    pub retry: bool,
}

impl Locals for SlabAllocV7 {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
}

impl Machine {
    /// `new_slab` under 7.0 (NB1 the pages, NB2 the freelist): a private slab with `inuse` 0,
    /// not frozen, on no list.
    pub(in crate::model) fn allocate_slab(
        &mut self,
        pc: &mut allocate_slab::Pc,
        fr: &mut AllocateSlab,
    ) -> Flow {
        use allocate_slab::Pc::*;
        match *pc {
            NB1 => {
                step!(self.core);
                self.core.charge(crate::model::cost::Id::PageAlloc);
                if self.core.cfg.sc.cache.page_alloc_fail && !self.core.st.in_setup {
                    note!(
                        self.core,
                        PageAlloc,
                        "page allocator".into(),
                        "The page allocator fails (pageAllocFail): no new slab."
                    );
                    return Flow::Ret(Ret::new(NULL, None));
                }
                let node = fr.node.unwrap_or(self.core.my_node());
                let s = self.create_slab(node);
                fr.slab = Some(s);
                note!(
                    self.core,
                    PageAlloc,
                    format!("page {}", self.core.slab_name(s)),
                    "new_slab: the page allocator hands out slab {} on node {node}.",
                    self.core.slab_name(s)
                );
                *pc = NB2;
                Flow::Step
            }
            NB2 => {
                step!(self.core);
                let s = need!(self.core, fr.slab);
                let objects = self.core.cfg.objects;
                self.chain_objects(s);
                self.core.access(self.core.page(s).line, Access::Write);
                let first = self.core.obj_addr(s, 0);
                if let Some(sl) = self.slab_mut(s) {
                    sl.freelist = first;
                }
                note!(
                    self.core,
                    Store,
                    format!("objects of {}", self.core.slab_name(s)),
                    "Chain the {objects} objects of {} through their free pointers; inuse 0, not frozen.",
                    self.core.slab_name(s)
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
        pc: &mut alloc_from_new_slab::Pc,
        fr: &mut AllocFromNewSlab,
    ) -> Flow {
        use alloc_from_new_slab::Pc::*;
        let p = fr.slab;
        match *pc {
            NS3 => {
                let f = self.slab(p).freelist;
                if f == NULL || fr.allocated >= fr.count {
                    *pc = NS4;
                    return Flow::Go;
                }
                step!(self.core);
                match fr.sheaf {
                    Some(h) => self.st_slot(h, fr.p.saturating_add(fr.allocated), f, false),
                    None => fr.object = f,
                }
                self.hold(f);
                let next = self.core.load_fp(f);
                let sl = need!(self.core, self.slab_mut(p));
                sl.freelist = next;
                sl.counters.inuse.bump();
                fr.allocated.bump();
                note!(
                    self.core,
                    Store,
                    format!("objects of {}", self.core.slab_name(p)),
                    "p[{}] := {} (plain stores: the slab is still private).",
                    fr.allocated.saturating_sub(1),
                    self.core.addr_name(f)
                );
                Flow::Step
            }
            NS4 => {
                step!(self.core);
                self.core.access(self.core.page(p).line, Access::Write);
                let needs_list = self.core.cfg.objects > fr.allocated;
                if !needs_list {
                    if let Some(pg) = self.core.page_mut(p) {
                        pg.life = Life::Live;
                    }
                }
                note!(
                    self.core,
                    Store,
                    format!("page {}.freelist", self.core.slab_name(p)),
                    "slab->freelist := {}{}",
                    self.core.addr_name(self.slab(p).freelist),
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
                step!(self.core);
                let n = self.core.node_of_slab(p);
                self.list_lock_irqsave(&mut fr.saved_irq, n);
                *pc = NS5a;
                Flow::Step
            }
            NS5a => {
                step!(self.core);
                let n = self.core.node_of_slab(p);
                if let Some(pg) = self.core.page_mut(p) {
                    pg.life = Life::Live;
                }
                self.add_partial(n, p, false);
                note!(
                    self.core,
                    ListAdd,
                    format!("node {n}.partial"),
                    "add_partial(n, {}, ADD_TO_HEAD): the new slab is public now.",
                    self.core.slab_name(p)
                );
                *pc = NS5u;
                Flow::Step
            }
            NS5u => {
                step!(self.core);
                let n = self.core.node_of_slab(p);
                SheavesState::list_unlock_irqrestore(&mut self.core, fr.saved_irq, n);
                Flow::Ret(Ret::new(fr.object, None).counted(fr.allocated))
            }
        }
    }

    /// `___slab_alloc` under 7.0 (SL1–SL8): one object, from a node's partial slab under its
    /// `list_lock`, or from a new slab. `n` = the other node being tried (NUMA).
    pub(in crate::model) fn slab_alloc_v7(
        &mut self,
        pc: &mut slab_alloc_v7::Pc,
        fr: &mut SlabAllocV7,
    ) -> Flow {
        use slab_alloc_v7::Pc::*;
        match *pc {
            SL1 => {
                self.core.stat(Stat::ALLOC_SLOWPATH);
                *pc = SL3;
                let n = fr.node.unwrap_or(self.core.my_node());
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
                let here = self.core.my_node();
                let after = (fr.walking != 0).then_some(u32::from(fr.nid));
                match self.zonelist_next(here, after) {
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
                step!(self.core);
                let m = fr.nid as u32;
                let nr = self.ld_nr_partial(m);
                let min = self.core.cfg.sc.cache.min_partial;
                note!(
                    self.core,
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
                self.core.stat(Stat::ALLOC_SLAB);
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
        pc: &mut get_from_partial_node::Pc,
        fr: &mut GetFromPartialNode,
    ) -> Flow {
        use get_from_partial_node::Pc::*;
        let n = fr.n;
        match *pc {
            GP1 => {
                step!(self.core);
                if self.racy_nr_partial(n, "get_from_partial_node") == 0 {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                *pc = GP2;
                Flow::Step
            }
            GP2 => {
                step!(self.core);
                self.list_lock_irqsave(&mut fr.saved_irq, n);
                fr.object = NULL;
                *pc = GP4;
                Flow::Step
            }
            GP4 => {
                let Some(&p) = self.core.node(n).partial.first() else {
                    *pc = GP7;
                    return Flow::Go;
                };
                step!(self.core);
                fr.slab = Some(p);
                (fr.freelist, fr.counters) = self.with_slab_pages(Default::default(), |sp| {
                    sp.read_slab_pair(p, |core, f, c| {
                        format!("Slab {}.", slab_pair_text(core, p, f, c))
                    })
                });
                *pc = GP4b;
                Flow::Step
            }
            GP4b => {
                step!(self.core);
                let nx = self.core.load_fp(fr.freelist);
                fr.next = nx;
                note!(
                    self.core,
                    Load,
                    format!("{}.fp", self.core.addr_name(fr.freelist)),
                    "next = get_freepointer({}) = {}.",
                    self.core.addr_name(fr.freelist),
                    self.core.addr_name(nx)
                );
                *pc = GP5;
                Flow::Step
            }
            GP5 => {
                step!(self.core);
                let p = need!(self.core, fr.slab);
                let new = Counters {
                    inuse: fr.counters.inuse.saturating_add(1),
                    ..fr.counters
                };
                let ok = self.cas_slab_pair(
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
                self.hold(fr.freelist);
                fr.object = fr.freelist;
                *pc = if fr.next == NULL { GP6 } else { GP7 };
                Flow::Step
            }
            GP6 => {
                step!(self.core);
                let p = need!(self.core, fr.slab);
                self.remove_partial(n, p);
                note!(
                    self.core,
                    ListDel,
                    format!("node {n}.partial"),
                    "The slab {} is full now: remove_partial.",
                    self.core.slab_name(p)
                );
                *pc = GP7;
                Flow::Step
            }
            GP7 => {
                step!(self.core);
                SheavesState::list_unlock_irqrestore(&mut self.core, fr.saved_irq, n);
                Flow::Ret(Ret::new(fr.object, None))
            }
        }
    }
}
