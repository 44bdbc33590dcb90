//! Allocation under Linux 7.0 (model.md C.3.1–C.3.5): the sheaf fast path, the exchange with the
//! spare and the barn, the refill from slabs, and the one-object slab path that remains.
//!
//! Each function's locals are its own struct (below), named as the kernel function names them:
//! `pcs` the CPU whose sheaves are locked, `main`, `spare`, `empty`, `full` and `sheaf` the
//! sheaves it works on, `barn` the node of a barn, `p` a slot where an array of objects begins
//! in a sheaf, `slab`, `object`, `freelist`, `counters`; each struct's doc gives its kernel
//! function's signature.

use super::super::memory::Access;
use super::{call, sheaf_of_ret, sv, without_sheaves};
use crate::model::pcs::labels::*;
use crate::model::slab_page::{counters_text, Counters};
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

/// The locals of `get_freelist_nofreeze(s, slab)`: `freelist` and `counters` as read (`old`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GetFreelistNofreeze {
    pub freelist: Addr,
    pub slab: SlabId,
    pub counters: Counters,
}

impl Locals for GetFreelistNofreeze {
    fn holds_addr(&self, a: Addr) -> bool {
        self.freelist == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.slab));
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

/// The locals of `get_partial_node_bulk(s, n, pc, allow_spin)`: `max` the objects wanted
/// (`pc->max_objects`), `total` the free objects of the slabs isolated so far, `trylock` when
/// `allow_spin` is false.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GetPartialNodeBulk {
    pub n: u32,
    pub saved_irq: bool,
    pub trylock: bool,
    pub total: u32,
    pub max: u32,
}

impl Locals for GetPartialNodeBulk {}

/// The locals of `__pcs_replace_empty_main(s, pcs, gfp)`: `pcs` the CPU whose sheaves are
/// locked, `main` its empty main, `empty` the spare as read and then the empty sheaf to refill,
/// `barn` the node of the barn (`get_barn(s)`), `can_alloc` the gfp may block, `count` the CPU
/// locked again on return.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PcsReplaceEmptyMain {
    pub pcs: u32,
    pub can_alloc: bool,
    pub count: u32,
    pub barn: u32,
    pub ret: Ret,
    pub main: Option<u32>,
    pub empty: Option<u32>,
}

impl Locals for PcsReplaceEmptyMain {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.main, self.empty]
    }
}

/// The locals of `refill_objects(s, p, gfp, min, max)` with `min == max`: the array `p`
/// is `sheaf`'s slots from slot `p`; `refilled` the objects stored so far, `n` the other node
/// being tried.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RefillObjects {
    pub node: Option<u32>,
    pub n: Option<u32>,
    pub refilled: u32,
    pub p: u32,
    pub max: u32,
    pub ret: Ret,
    pub sheaf: Option<u32>,
}

impl Locals for RefillObjects {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.sheaf, None]
    }
}

/// The locals of `__refill_objects_node(s, p, gfp, min, max, n, allow_spin)`: the array
/// `p` is `sheaf`'s slots from slot `p`; `refilled` the objects stored so far, `slab` the
/// isolated slab being emptied, `object` the rest of its chain still to store (`tail` its
/// last when given back), `trylock` when `allow_spin` is false.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RefillObjectsNode {
    pub tail: Addr,
    pub object: Addr,
    pub slab: Option<SlabId>,
    pub n: u32,
    pub saved_irq: bool,
    pub trylock: bool,
    pub refilled: u32,
    pub p: u32,
    pub max: u32,
    pub ret: Ret,
    pub sheaf: Option<u32>,
}

impl Locals for RefillObjectsNode {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.tail == a || self.object == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.slab);
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.sheaf, None]
    }
}

/// The locals of `refill_sheaf(s, sheaf, gfp)`: `size` the sheaf's size before, `to_fill`
/// the slots to fill, `filled` what `refill_objects` stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RefillSheaf {
    pub filled: u32,
    pub size: u32,
    pub to_fill: u32,
    pub ret: Ret,
    pub sheaf: u32,
}

impl Locals for RefillSheaf {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [Some(self.sheaf), None]
    }
}

/// The locals of `slab_alloc_node(s, gfp, node)` with `alloc_from_pcs`: `pcs` the CPU
/// whose sheaves are locked, `main` its main sheaf and `size` its size as read, `object` the
/// object popped, `wrong_node` it is not of the node asked for (SA8), `slow` 1 once the slab
/// path (`___slab_alloc`) was taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabAllocNode {
    pub pcs: u32,
    pub object: Addr,
    pub node: Option<u32>,
    pub wrong_node: bool,
    pub slow: u8,
    pub size: u32,
    pub ret: Ret,
    pub main: Option<u32>,
}

impl Locals for SlabAllocNode {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.object == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.main, None]
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
    /// `slab_alloc_node` → `alloc_from_pcs` (SA1–SA12), falling back to `___slab_alloc`.
    pub(in crate::model) fn slab_alloc_node(
        &mut self,
        pc: &mut slab_alloc_node::Pc,
        fr: &mut SlabAllocNode,
    ) -> Flow {
        use slab_alloc_node::Pc::*;
        match *pc {
            SA1 => {
                let here = self.my_node();
                if fr.node.is_some_and(|n| n != here) {
                    self.stat(Stat::ALLOC_NODE_MISMATCH);
                    *pc = SAs;
                    return Flow::Go;
                }
                *pc = SA2;
                call(local_trylock::LT1, |_| {})
            }
            SA2 => {
                if fr.ret.value == 0 {
                    *pc = SAs;
                    return Flow::Go;
                }
                fr.pcs = fr.ret.count;
                *pc = SA5;
                Flow::Go
            }
            SA5 => {
                step!(self);
                let p = self.ld_pcs(fr.pcs);
                fr.main = Some(p.main);
                note!(
                    self,
                    Load,
                    format!("cpu_sheaves[{}].main", fr.pcs),
                    "main = pcs->main: sheaf {}.",
                    self.sheaf_name(p.main)
                );
                *pc = SA6;
                Flow::Step
            }
            SA6 => {
                step!(self);
                let h = need!(self, fr.main);
                let n = self.ld_size(h);
                fr.size = n;
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(h)),
                    "main->size is {n}{}",
                    if n == 0 {
                        ": the main sheaf is empty."
                    } else {
                        "."
                    }
                );
                *pc = if n == 0 { SAe } else { SA7 };
                Flow::Step
            }
            SAe => {
                *pc = SAr;
                let (c, h) = (fr.pcs, fr.main);
                call(pcs_replace_empty_main::SE1, |f| {
                    f.pcs = c;
                    f.main = h;
                })
            }
            SAr => {
                if fr.ret.value == 0 {
                    *pc = SAs;
                } else {
                    fr.pcs = fr.ret.count;
                    *pc = SA5;
                }
                Flow::Go
            }
            SA7 => {
                step!(self);
                let h = need!(self, fr.main);
                // The top of a sheaf that is not empty (SA5 checked `size`).
                let top = fr.size.saturating_sub(1);
                let x = self.ld_slot(h, top);
                fr.object = x;
                note!(
                    self,
                    Load,
                    format!("sheaf {}.objects[{}]", self.sheaf_name(h), top),
                    "object = main->objects[{}] = {}.",
                    top,
                    self.addr_name(x)
                );
                *pc = if fr.node.is_some() { SA8 } else { SA9 };
                Flow::Step
            }
            SA8 => {
                step!(self);
                let want = fr.node.unwrap_or(0);
                let node = self.slab_of(fr.object).map(|s| {
                    self.access(self.page(s).line, Access::Read);
                    self.node_of_slab(s)
                });
                let ok = node == Some(want);
                note!(
                    self,
                    Load,
                    format!("page of {}", self.addr_name(fr.object)),
                    "{} is on node {}; node {want} was asked for{}",
                    self.addr_name(fr.object),
                    node.map_or("?".into(), |n| n.to_string()),
                    if ok { "." } else { ": it stays in the sheaf." }
                );
                if ok {
                    *pc = SA9;
                } else {
                    self.stat(Stat::ALLOC_NODE_MISMATCH);
                    fr.wrong_node = true;
                    *pc = SAu;
                }
                Flow::Step
            }
            SA9 => {
                step!(self);
                let h = need!(self, fr.main);
                let top = fr.size.saturating_sub(1);
                self.st_size(h, top, false);
                self.hold(fr.object);
                note!(
                    self,
                    Store,
                    format!("sheaf {}.size", self.sheaf_name(h)),
                    "main->size := {}: {} is taken off the top of the sheaf.",
                    top,
                    self.addr_name(fr.object)
                );
                *pc = SAu;
                Flow::Step
            }
            SAu => {
                *pc = SA12;
                let c = fr.pcs;
                call(local_unlock_v7::LU1, |f| f.cpu = c)
            }
            SA12 => {
                if fr.slow == 1 {
                    if fr.ret.value != NULL {
                        self.unhold(fr.ret.value);
                        self.ghost.slow_allocs.bump();
                    }
                    return Flow::Ret(Ret::new(fr.ret.value, None).counted(fr.size));
                }
                if fr.wrong_node {
                    *pc = SAs;
                    return Flow::Go;
                }
                self.stat(Stat::ALLOC_FASTPATH);
                self.unhold(fr.object);
                Flow::Ret(Ret::new(fr.object, None).counted(fr.size))
            }
            SAs => {
                fr.slow = 1;
                *pc = SA12;
                let node = fr.node;
                call(slab_alloc_v7::SL1, |f| f.node = node)
            }
        }
    }

    /// `__pcs_replace_empty_main` (SE2–SE17): entered holding the lock with an empty main.
    /// Returns 1 with the lock held (and its CPU in `count`), or 0 with the lock released.
    pub(in crate::model) fn pcs_replace_empty_main(
        &mut self,
        pc: &mut pcs_replace_empty_main::Pc,
        fr: &mut PcsReplaceEmptyMain,
    ) -> Flow {
        use pcs_replace_empty_main::Pc::*;
        let k = fr.pcs;
        match *pc {
            SE1 => without_sheaves(self, pc, fr.pcs, SE2, SE1u),
            SE1u => Flow::Ret(Ret::new(0, None).counted(fr.count)),
            SE2 => {
                step!(self);
                let sp = self.ld_pcs(k).spare;
                fr.empty = sp;
                note!(
                    self,
                    Load,
                    format!("cpu_sheaves[{k}].spare"),
                    "__pcs_replace_empty_main: spare is {}.",
                    sp.map_or("NULL".into(), |s| self.sheaf_name(s))
                );
                *pc = if sp.is_some() { SE2b } else { SE4 };
                Flow::Step
            }
            SE2b => {
                step!(self);
                let sp = need!(self, fr.empty);
                let n = self.ld_size(sp);
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(sp)),
                    "spare->size is {n}{}",
                    if n > 0 {
                        ": swap main and spare."
                    } else {
                        ": empty too."
                    }
                );
                *pc = if n > 0 { SE3 } else { SE4 };
                Flow::Step
            }
            SE3 => {
                step!(self);
                let (m, sp) = (need!(self, fr.main), need!(self, fr.empty));
                self.swap_main_spare(k, m, sp, " (no statistic counts it)");
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            SE4 => {
                step!(self);
                let n = self.get_barn(k);
                fr.barn = n;
                note!(
                    self,
                    Load,
                    format!("node {n}.barn"),
                    "get_barn(s): this CPU's node is {n}; its barn holds {} full and {} empty sheaves.",
                    self.barn(n).full.len(),
                    self.barn(n).empty.len()
                );
                *pc = SE5;
                Flow::Step
            }
            SE5 => {
                *pc = SE6;
                let (n, m) = (fr.barn, fr.main);
                call(barn_replace_empty_sheaf::BRE1, |f| {
                    f.barn = n;
                    f.empty = m;
                })
            }
            SE6 => {
                let Some(full) = sheaf_of_ret(fr.ret.value) else {
                    *pc = SE7;
                    return Flow::Go;
                };
                step!(self);
                self.st_pcs(k, Some(full), None, false);
                self.stat(Stat::BARN_GET);
                note!(
                    self,
                    Store,
                    format!("cpu_sheaves[{k}].main"),
                    "main := {}, the full sheaf from the barn.",
                    self.sheaf_name(full)
                );
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            SE7 => {
                self.stat(Stat::BARN_GET_FAIL);
                fr.can_alloc = self.can_block();
                *pc = if !fr.can_alloc {
                    SE9
                } else if fr.empty.is_some() {
                    SE8
                } else {
                    *pc = SE8r;
                    let n = fr.barn;
                    return call(barn_get_empty_sheaf::BGE1, |f| f.barn = n);
                };
                Flow::Go
            }
            SE8 => {
                step!(self);
                // The spare is empty (SE2b): take it as the sheaf to refill.
                self.st_pcs(k, None, Some(None), false);
                note!(
                    self,
                    Store,
                    format!("cpu_sheaves[{k}].spare"),
                    "spare := NULL: the empty spare {} will be refilled.",
                    self.sheaf_name(need!(self, fr.empty))
                );
                *pc = SE9;
                Flow::Step
            }
            SE8r => {
                fr.empty = sheaf_of_ret(fr.ret.value);
                *pc = SE9;
                Flow::Go
            }
            SE9 => {
                *pc = SE10;
                call(local_unlock_v7::LU1, |f| f.cpu = k)
            }
            SE10 => {
                // GFP_ATOMIC (an interrupt handler) never refills a sheaf.
                *pc = if !fr.can_alloc {
                    return Flow::Ret(Ret::new(0, None).counted(fr.count));
                } else if fr.empty.is_some() {
                    SE11
                } else {
                    SE12
                };
                Flow::Go
            }
            SE11 => {
                *pc = SE11r;
                let e = need!(self, fr.empty);
                call(refill_sheaf::RS1, |f| f.sheaf = e)
            }
            SE11r => {
                if fr.ret.value == 1 {
                    *pc = SE13;
                    return Flow::Go;
                }
                // The refill fell short. The 7.0 code frees the sheaf as it is (its objects
                // stay counted in their slabs: model.md C.9 item 3); later code flushes it first.
                if self.variant().refill_fail_flush {
                    *pc = SE11f;
                    let e = need!(self, fr.empty);
                    return call(sheaf_flush_unused::FU1, |f| f.sheaf = e);
                }
                *pc = SE11f;
                Flow::Go
            }
            SE11f => {
                step!(self);
                self.sheaf_free(need!(self, fr.empty));
                Flow::Ret(Ret::new(0, None).counted(fr.count))
            }
            SE12 => {
                step!(self);
                // `alloc_full_sheaf`: a new sheaf, then the refill.
                fr.empty = self.sheaf_alloc();
                *pc = if fr.empty.is_some() { SE11 } else { SE12r };
                Flow::Step
            }
            SE12r => Flow::Ret(Ret::new(0, None).counted(fr.count)),
            SE13 => {
                *pc = SE13r;
                call(local_lock_v7::LL1, |_| {})
            }
            SE13r => {
                fr.pcs = fr.ret.count;
                *pc = SE14;
                Flow::Go
            }
            SE14 => {
                step!(self);
                let p = self.ld_pcs(k);
                let n = self.ld_size(p.main);
                fr.main = Some(p.main);
                fr.count = n;
                note!(
                    self,
                    Load,
                    format!("cpu_sheaves[{k}]"),
                    "Locked again on cpu{k}: main {} holds {n}, spare is {}.",
                    self.sheaf_name(p.main),
                    p.spare.map_or("NULL".into(), |s| self.sheaf_name(s))
                );
                *pc = if n == 0 { SE14b } else { SE15 };
                Flow::Step
            }
            SE14b => {
                let f_ = need!(self, fr.empty);
                let m = need!(self, fr.main);
                if self.pcs(k).spare.is_some() {
                    *pc = SE16r;
                    let n = fr.barn;
                    return call(barn_put_empty_sheaf::BP1, |f| {
                        f.barn = n;
                        f.sheaf = Some(m);
                    });
                }
                step!(self);
                self.st_pcs(k, Some(f_), Some(Some(m)), false);
                note!(
                    self,
                    Store,
                    format!("cpu_sheaves[{k}]"),
                    "spare := {} (empty) and main := {} (full).",
                    self.sheaf_name(m),
                    self.sheaf_name(f_)
                );
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            SE15 => {
                // Someone refilled main while the lock was dropped.
                let f_ = need!(self, fr.empty);
                let Some(sp) = self.pcs(k).spare else {
                    step!(self);
                    self.st_pcs(k, None, Some(Some(f_)), false);
                    note!(
                        self,
                        Store,
                        format!("cpu_sheaves[{k}].spare"),
                        "main was refilled meanwhile: spare := {}.",
                        self.sheaf_name(f_)
                    );
                    fr.count = k;
                    return Flow::Ret(Ret::new(1, None).counted(fr.count));
                };
                fr.main = Some(sp);
                *pc = SE16;
                Flow::Go
            }
            SE16 => {
                step!(self);
                let sp = need!(self, fr.main);
                let n = self.ld_size(sp);
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(sp)),
                    "spare->size is {n}."
                );
                *pc = if n == 0 { SE16b } else { SE17 };
                Flow::Step
            }
            SE16b => {
                *pc = SE16r;
                let (n, sp) = (fr.barn, fr.main);
                call(barn_put_empty_sheaf::BP1, |f| {
                    f.barn = n;
                    f.sheaf = sp;
                })
            }
            SE16r => {
                // After putting the old main (SE14) or the empty spare (SE16) in the barn.
                step!(self);
                let f_ = need!(self, fr.empty);
                let main_was_empty = fr.count == 0;
                if main_was_empty {
                    self.st_pcs(k, Some(f_), None, false);
                } else {
                    self.st_pcs(k, None, Some(Some(f_)), false);
                }
                note!(
                    self,
                    Store,
                    format!("cpu_sheaves[{k}]"),
                    "{} := {}.",
                    if main_was_empty { "main" } else { "spare" },
                    self.sheaf_name(f_)
                );
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            SE17 => {
                *pc = SE17r;
                let (n, f_) = (fr.barn, fr.empty);
                call(barn_put_full_sheaf::BP1, |f| {
                    f.barn = n;
                    f.sheaf = f_;
                })
            }
            SE17r => {
                self.stat(Stat::BARN_PUT);
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
        }
    }

    /// `refill_sheaf(sheaf)` (RS1–RS4): fill `sheaf` to capacity from slabs. Returns 1, or 0
    /// when it got fewer objects than it needed (the objects it did get stay in `sheaf`).
    pub(in crate::model) fn refill_sheaf(
        &mut self,
        pc: &mut refill_sheaf::Pc,
        fr: &mut RefillSheaf,
    ) -> Flow {
        use refill_sheaf::Pc::*;
        let h = fr.sheaf;
        match *pc {
            RS1 => {
                step!(self);
                let size = self.ld_size(h);
                fr.size = size;
                fr.to_fill = self.capacity().saturating_sub(size);
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(h)),
                    "refill_sheaf({}): size {size}, so {} to fill.",
                    self.sheaf_name(h),
                    fr.to_fill
                );
                if fr.to_fill == 0 {
                    return Flow::Ret(Ret::new(1, None).counted(fr.filled));
                }
                *pc = RS2;
                Flow::Step
            }
            RS2 => {
                *pc = RS3;
                let (base, want) = (fr.size, fr.to_fill);
                call(refill_objects::RO2, |f| {
                    f.sheaf = Some(h);
                    f.p = base;
                    f.max = want;
                })
            }
            RS3 => {
                step!(self);
                let filled = fr.ret.count;
                // Sizes within the capacity (`MAX_SHEAF_CAPACITY`).
                let size = fr.size.saturating_add(filled);
                self.st_size(h, size, false);
                let stored: Vec<Addr> = (self.sheaf(h).slots.iter())
                    .skip(fr.size as usize)
                    .take(filled as usize)
                    .copied()
                    .collect();
                for x in stored {
                    self.unhold(x);
                }
                self.stat_add(Stat::SHEAF_REFILL, filled);
                note!(
                    self,
                    Store,
                    format!("sheaf {}.size", self.sheaf_name(h)),
                    "size += {filled}: sheaf {} now holds {size} objects.",
                    self.sheaf_name(h)
                );
                fr.filled = filled;
                *pc = RS4;
                Flow::Step
            }
            RS4 => Flow::Ret(Ret::new((fr.filled >= fr.to_fill) as Addr, None).counted(fr.filled)),
        }
    }

    /// `refill_objects(p, min = max)` (RO2–RO7): from this node's partial slabs, then other
    /// nodes', then new slabs, into `sheaf` from slot `p` on. Returns the number of objects
    /// stored in `count`.
    /// The node after `after` in the zonelist of node `here` (`None`: the first), as the
    /// kernel's NUMA walks (`get_from_any_partial`, `__refill_objects_any`) visit them: the
    /// local node, then the others in order (the model's nodes are all at one distance). A
    /// machine of one node has no walk (a kernel without `CONFIG_NUMA`).
    fn zonelist_next(&self, here: u32, after: Option<u32>) -> Option<u32> {
        let nodes = self.cfg.sc.nodes;
        if nodes < 2 {
            return None;
        }
        match after {
            None => Some(here),
            Some(m) if m == here => (0..nodes).find(|&x| x != here),
            Some(m) => (m.saturating_add(1)..nodes).find(|&x| x != here),
        }
    }

    pub(in crate::model) fn refill_objects(
        &mut self,
        pc: &mut refill_objects::Pc,
        fr: &mut RefillObjects,
    ) -> Flow {
        use refill_objects::Pc::*;
        match *pc {
            RO2 => {
                *pc = RO3;
                let n = self.my_node();
                fr.node = Some(n);
                self.call_refill_node(fr, n, false)
            }
            RO3 => {
                fr.refilled.bump_by(fr.ret.count);
                if fr.refilled >= fr.max {
                    return Flow::Ret(Ret::new(1, None).counted(fr.refilled));
                }
                // NUMA: `__refill_objects_any` walks the zonelist of the local node with
                // `allow_spin = false`, the local node first (its partial list may have
                // grown since `__refill_objects_node` looked). The model does not draw the
                // `remote_node_defrag_ratio` lottery (`get_cycles() % 1024 > ratio` skips
                // the walk, 24 times in 1024 by default): it walks.
                let here = fr.node.unwrap_or(0);
                match self.zonelist_next(here, fr.n) {
                    Some(m) => {
                        fr.n = Some(m);
                        *pc = RO3r;
                    }
                    None => *pc = RO5,
                }
                Flow::Go
            }
            RO3r => {
                step!(self);
                let m = need!(self, fr.n);
                let nr = self.ld_nr_partial(m);
                let min = self.cfg.sc.cache.min_partial;
                note!(
                    self,
                    Load,
                    format!("node {m}.nr_partial"),
                    "__refill_objects_any: node {m} has {nr} partial slab(s){}",
                    if nr <= min {
                        format!(", not above min_partial ({min}): skip it.")
                    } else {
                        ": try it, without spinning on its list_lock.".into()
                    }
                );
                *pc = if nr <= min { RO3 } else { RO3n };
                fr.ret.count = 0;
                Flow::Step
            }
            RO3n => {
                *pc = RO3;
                let m = need!(self, fr.n);
                self.call_refill_node(fr, m, true)
            }
            RO5 => {
                *pc = RO7;
                let n = self.my_node();
                call(allocate_slab::NB1, |f| f.node = Some(n))
            }
            RO7 => {
                let Some(p) = fr.ret.slab else {
                    return Flow::Ret(Ret::new(0, None).counted(fr.refilled));
                };
                self.stat(Stat::ALLOC_SLAB);
                *pc = RO7r;
                let (h, base, want) = (
                    fr.sheaf,
                    fr.p.saturating_add(fr.refilled),
                    fr.max.saturating_sub(fr.refilled),
                );
                call(alloc_from_new_slab::NS3, |f| {
                    f.slab = p;
                    f.sheaf = h;
                    f.p = base;
                    f.count = want;
                })
            }
            RO7r => {
                fr.refilled.bump_by(fr.ret.count);
                *pc = if fr.refilled < fr.max {
                    RO5
                } else {
                    return Flow::Ret(Ret::new(1, None).counted(fr.refilled));
                };
                Flow::Go
            }
        }
    }

    fn call_refill_node(&self, fr: &RefillObjects, n: u32, trylock: bool) -> Flow {
        let (h, base, want) = (
            fr.sheaf,
            fr.p.saturating_add(fr.refilled),
            fr.max.saturating_sub(fr.refilled),
        );
        call(refill_objects_node::RN1, |f| {
            f.sheaf = h;
            f.p = base;
            f.max = want;
            f.n = n;
            f.trylock = trylock;
        })
    }

    /// `data_race(n->nr_partial)`: the quick look both partial-list takers begin with.
    fn racy_nr_partial(&mut self, n: u32, who: &str) -> u32 {
        let nr = self.ld_nr_partial(n);
        note!(
            self,
            Load,
            format!("node {n}.nr_partial"),
            "{who}: node {n} has {nr} partial slab(s) (racy read)."
        );
        nr
    }

    /// The slabs this context isolated (its private list `L`), in order.
    fn my_isolated(&self) -> Vec<SlabId> {
        sv!(self)
            .isolated
            .iter()
            .filter(|(c, _)| *c == self.cur)
            .map(|&(_, s)| s)
            .collect()
    }
    fn unisolate(&mut self, s: SlabId) {
        let Some(st) = self.sheaves_state_mut() else {
            return;
        };
        if let Some(i) = st.isolated.iter().position(|&(_, x)| x == s) {
            st.isolated.remove(i);
        }
    }

    /// `__refill_objects_node(n)` (RN1–RN8): isolate slabs in bulk, take each one's whole
    /// freelist, give back what does not fit (the next object goes to slot `p + refilled`).
    pub(in crate::model) fn refill_objects_node(
        &mut self,
        pc: &mut refill_objects_node::Pc,
        fr: &mut RefillObjectsNode,
    ) -> Flow {
        use refill_objects_node::Pc::*;
        let n = fr.n;
        match *pc {
            RN1 => {
                *pc = RN1r;
                let (want, trylock) = (fr.max, fr.trylock);
                call(get_partial_node_bulk::GB1, |f| {
                    f.n = n;
                    f.max = want;
                    f.trylock = trylock;
                })
            }
            RN1r => {
                if fr.ret.value == 0 {
                    return Flow::Ret(Ret::new(0, None).counted(fr.refilled));
                }
                *pc = RN2;
                Flow::Go
            }
            RN2 => {
                let Some(&p) = self.my_isolated().first() else {
                    *pc = RN7;
                    return Flow::Go;
                };
                if fr.refilled >= fr.max {
                    *pc = RN7;
                    return Flow::Go;
                }
                step!(self);
                self.access(self.page(p).line, Access::Write);
                fr.slab = Some(p);
                note!(
                    self,
                    Store,
                    format!("page {}.slab_list", self.slab_name(p)),
                    "Unlink slab {} from the private list of isolated slabs.",
                    self.slab_name(p)
                );
                *pc = RN3;
                Flow::Step
            }
            RN3 => {
                *pc = RN3r;
                let p = need!(self, fr.slab);
                call(get_freelist_nofreeze::GN1, |f| f.slab = p)
            }
            RN3r => {
                fr.object = fr.ret.value;
                *pc = RN4;
                Flow::Go
            }
            RN4 => {
                if fr.object == NULL {
                    *pc = RN2;
                    return Flow::Go;
                }
                if fr.refilled >= fr.max {
                    *pc = RN5;
                    return Flow::Go;
                }
                step!(self);
                let h = need!(self, fr.sheaf);
                let i = fr.p.saturating_add(fr.refilled);
                self.st_slot(h, i, fr.object, false);
                let next = self.load_fp(fr.object);
                note!(
                    self,
                    Store,
                    format!("sheaf {}.objects[{i}]", self.sheaf_name(h)),
                    "p[{}] := {}; its free pointer gives the next, {}.",
                    fr.refilled,
                    self.addr_name(fr.object),
                    self.addr_name(next)
                );
                fr.object = next;
                fr.refilled.bump();
                Flow::Step
            }
            RN5 => {
                step!(self);
                // The rest of the chain is this context's alone (taken off the slab at GN3):
                // walking it to find its tail changes nothing anyone else can see.
                let head = fr.object;
                let (mut tail, mut cnt, mut a) = (head, 0u32, head);
                while a != NULL && cnt <= self.cfg.objects {
                    tail = a;
                    cnt.bump();
                    a = self.load_fp(a);
                }
                fr.tail = tail;
                fr.ret.count = cnt;
                note!(
                    self,
                    Load,
                    format!("objects of {}", self.slab_name(need!(self, fr.slab))),
                    "{cnt} object(s) from {} on do not fit: give them back to their slab.",
                    self.addr_name(head)
                );
                *pc = RN5r;
                Flow::Step
            }
            RN5r => {
                *pc = RN2;
                let (p, head, tail, cnt) = (need!(self, fr.slab), fr.object, fr.tail, fr.ret.count);
                fr.object = NULL;
                call(slab_free_slow_v7::SS2, |f| {
                    f.slab = p;
                    f.head = head;
                    f.tail = tail;
                    f.cnt = cnt;
                })
            }
            RN7 => {
                if self.my_isolated().is_empty() {
                    return Flow::Ret(Ret::new(NULL, None).counted(fr.refilled));
                }
                step!(self);
                self.list_lock_irqsave(&mut fr.saved_irq, n);
                *pc = RN7u;
                Flow::Step
            }
            RN7u => {
                step!(self);
                // Under list_lock: each slab left is put back at the head, except empty ones
                // beyond min_partial, kept to be discarded (a free cannot empty a slab without
                // this lock, and nobody else allocates from an isolated slab).
                let mut kept = Vec::new();
                for p in self.my_isolated() {
                    let empty = self.slab(p).counters.inuse == 0;
                    if empty && self.discard_ok(self.node(n).nr_partial) {
                        kept.push(p);
                    } else {
                        self.add_partial(n, p, false);
                        self.unisolate(p);
                    }
                }
                self.list_unlock_irqrestore(fr.saved_irq, n);
                note!(
                    self,
                    ListAdd,
                    format!("node {n}.partial"),
                    "Put the slabs not used back on node {n}'s partial list{}; unlock.",
                    if kept.is_empty() {
                        String::new()
                    } else {
                        format!(", keeping {} empty one(s) to discard", kept.len())
                    }
                );
                *pc = RN8;
                Flow::Step
            }
            RN8 => {
                let Some(&p) = self.my_isolated().first() else {
                    return Flow::Ret(Ret::new(NULL, None).counted(fr.refilled));
                };
                step!(self);
                self.unisolate(p);
                self.discard_slab(p);
                note!(
                    self,
                    PageFree,
                    format!("page {}", self.slab_name(p)),
                    "discard_slab({}): the empty slab goes back to the page allocator.",
                    self.slab_name(p)
                );
                Flow::Step
            }
        }
    }

    /// `get_partial_node_bulk(n, {min, max})` (GB1–GB4): isolate slabs off the node's
    /// partial list until their free objects reach `max`. Returns 1 if it took any.
    pub(in crate::model) fn get_partial_node_bulk(
        &mut self,
        pc: &mut get_partial_node_bulk::Pc,
        fr: &mut GetPartialNodeBulk,
    ) -> Flow {
        use get_partial_node_bulk::Pc::*;
        let n = fr.n;
        match *pc {
            GB1 => {
                step!(self);
                if self.racy_nr_partial(n, "get_partial_node_bulk") == 0 {
                    return Flow::Ret(Ret::new(0, None).counted(fr.total));
                }
                *pc = GB2;
                Flow::Step
            }
            GB2 => {
                step!(self);
                if fr.trylock && !self.lock_free(n) {
                    note!(
                        self,
                        Lock,
                        format!("node {n}.list_lock"),
                        "spin_trylock_irqsave of node {n}'s list_lock fails: it is held. Skip the node."
                    );
                    return Flow::Ret(Ret::new(0, None).counted(fr.total));
                }
                self.list_lock_irqsave(&mut fr.saved_irq, n);
                *pc = GB3;
                Flow::Step
            }
            GB3 => {
                step!(self);
                // One step for the walk under list_lock: nobody allocates from a listed slab
                // meanwhile, and a lockless free touches one slab, so reading every slab's
                // counters at one instant reaches the same outcomes.
                let (min, max) = (fr.max, fr.max);
                let mut total = 0u32;
                let mut taken = Vec::new();
                for p in self.node(n).partial.clone() {
                    self.access(self.page(p).line, Access::Read);
                    let c = self.slab(p).counters;
                    let free = c.objects.saturating_sub(c.inuse);
                    if total >= min && total.saturating_add(free) > max {
                        break;
                    }
                    self.remove_partial(n, p);
                    let cur = self.cur;
                    if let Some(st) = self.sheaves_state_mut() {
                        st.isolated.push((cur, p));
                    }
                    taken.push(p);
                    total.bump_by(free);
                    if total >= max {
                        break;
                    }
                }
                fr.total = total;
                note!(
                    self,
                    ListDel,
                    format!("node {n}.partial"),
                    "Isolate {} with {total} free object(s) between them, off node {n}'s list.",
                    taken
                        .iter()
                        .map(|&p| self.slab_name(p))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                *pc = GB4;
                Flow::Step
            }
            GB4 => {
                step!(self);
                self.list_unlock_irqrestore(fr.saved_irq, n);
                Flow::Ret(Ret::new((fr.total > 0) as Addr, None).counted(fr.total))
            }
        }
    }

    /// `get_freelist_nofreeze(P)` (GN1–GN3): take the isolated slab's whole freelist with one
    /// double CAS (a concurrent free may make it fail: then read again).
    pub(in crate::model) fn get_freelist_nofreeze(
        &mut self,
        pc: &mut get_freelist_nofreeze::Pc,
        fr: &mut GetFreelistNofreeze,
    ) -> Flow {
        use get_freelist_nofreeze::Pc::*;
        let p = fr.slab;
        match *pc {
            GN1 => {
                step!(self);
                (fr.freelist, fr.counters) = self.read_slab_pair(p, |m, f, c| {
                    format!(
                        "get_freelist_nofreeze: freelist {}, {}.",
                        m.addr_name(f),
                        counters_text(c)
                    )
                });
                *pc = GN3;
                Flow::Step
            }
            GN3 => {
                step!(self);
                let new = Counters {
                    inuse: fr.counters.objects,
                    ..fr.counters
                };
                let ok = self.cas_slab_pair(
                    p,
                    (fr.freelist, fr.counters),
                    (NULL, new),
                    "succeeds: the whole freelist is this refill's.",
                    "fails: a free changed the slab. Read it again.",
                );
                if !ok {
                    *pc = GN1;
                    return Flow::Step;
                }
                let mut a = fr.freelist;
                let mut seen = 0;
                while a != NULL && seen <= self.cfg.objects {
                    self.hold(a);
                    seen.bump();
                    a = self.peek_fp(a).unwrap_or(NULL);
                }
                self.unisolate(p);
                Flow::Ret(Ret::new(fr.freelist, None))
            }
        }
    }

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
                step!(self);
                self.charge(crate::model::cost::Id::PageAlloc);
                if self.cfg.sc.cache.page_alloc_fail && !self.st.in_setup {
                    note!(
                        self,
                        PageAlloc,
                        "page allocator".into(),
                        "The page allocator fails (pageAllocFail): no new slab."
                    );
                    return Flow::Ret(Ret::new(NULL, None));
                }
                let node = fr.node.unwrap_or(self.my_node());
                let s = self.create_slab(node);
                fr.slab = Some(s);
                note!(
                    self,
                    PageAlloc,
                    format!("page {}", self.slab_name(s)),
                    "new_slab: the page allocator hands out slab {} on node {node}.",
                    self.slab_name(s)
                );
                *pc = NB2;
                Flow::Step
            }
            NB2 => {
                step!(self);
                let s = need!(self, fr.slab);
                let objects = self.cfg.objects;
                self.chain_objects(s);
                self.access(self.page(s).line, Access::Write);
                let first = self.obj_addr(s, 0);
                if let Some(sl) = self.slab_mut(s) {
                    sl.freelist = first;
                }
                note!(
                    self,
                    Store,
                    format!("objects of {}", self.slab_name(s)),
                    "Chain the {objects} objects of {} through their free pointers; inuse 0, not frozen.",
                    self.slab_name(s)
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
                step!(self);
                match fr.sheaf {
                    Some(h) => self.st_slot(h, fr.p.saturating_add(fr.allocated), f, false),
                    None => fr.object = f,
                }
                self.hold(f);
                let next = self.load_fp(f);
                let sl = need!(self, self.slab_mut(p));
                sl.freelist = next;
                sl.counters.inuse.bump();
                fr.allocated.bump();
                note!(
                    self,
                    Store,
                    format!("objects of {}", self.slab_name(p)),
                    "p[{}] := {} (plain stores: the slab is still private).",
                    fr.allocated.saturating_sub(1),
                    self.addr_name(f)
                );
                Flow::Step
            }
            NS4 => {
                step!(self);
                self.access(self.page(p).line, Access::Write);
                let needs_list = self.cfg.objects > fr.allocated;
                if !needs_list {
                    if let Some(pg) = self.page_mut(p) {
                        pg.life = Life::Live;
                    }
                }
                note!(
                    self,
                    Store,
                    format!("page {}.freelist", self.slab_name(p)),
                    "slab->freelist := {}{}",
                    self.addr_name(self.slab(p).freelist),
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
                step!(self);
                let n = self.node_of_slab(p);
                self.list_lock_irqsave(&mut fr.saved_irq, n);
                *pc = NS5a;
                Flow::Step
            }
            NS5a => {
                step!(self);
                let n = self.node_of_slab(p);
                if let Some(pg) = self.page_mut(p) {
                    pg.life = Life::Live;
                }
                self.add_partial(n, p, false);
                note!(
                    self,
                    ListAdd,
                    format!("node {n}.partial"),
                    "add_partial(n, {}, ADD_TO_HEAD): the new slab is public now.",
                    self.slab_name(p)
                );
                *pc = NS5u;
                Flow::Step
            }
            NS5u => {
                step!(self);
                let n = self.node_of_slab(p);
                self.list_unlock_irqrestore(fr.saved_irq, n);
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
                self.stat(Stat::ALLOC_SLOWPATH);
                *pc = SL3;
                let n = fr.node.unwrap_or(self.my_node());
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
                let here = self.my_node();
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
                step!(self);
                let m = fr.nid as u32;
                let nr = self.ld_nr_partial(m);
                let min = self.cfg.sc.cache.min_partial;
                note!(
                    self,
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
                self.stat(Stat::ALLOC_SLAB);
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
                step!(self);
                if self.racy_nr_partial(n, "get_from_partial_node") == 0 {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                *pc = GP2;
                Flow::Step
            }
            GP2 => {
                step!(self);
                self.list_lock_irqsave(&mut fr.saved_irq, n);
                fr.object = NULL;
                *pc = GP4;
                Flow::Step
            }
            GP4 => {
                let Some(&p) = self.node(n).partial.first() else {
                    *pc = GP7;
                    return Flow::Go;
                };
                step!(self);
                fr.slab = Some(p);
                (fr.freelist, fr.counters) = self
                    .read_slab_pair(p, |m, f, c| format!("Slab {}.", m.slab_pair_text(p, f, c)));
                *pc = GP4b;
                Flow::Step
            }
            GP4b => {
                step!(self);
                let nx = self.load_fp(fr.freelist);
                fr.next = nx;
                note!(
                    self,
                    Load,
                    format!("{}.fp", self.addr_name(fr.freelist)),
                    "next = get_freepointer({}) = {}.",
                    self.addr_name(fr.freelist),
                    self.addr_name(nx)
                );
                *pc = GP5;
                Flow::Step
            }
            GP5 => {
                step!(self);
                let p = need!(self, fr.slab);
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
                step!(self);
                let p = need!(self, fr.slab);
                self.remove_partial(n, p);
                note!(
                    self,
                    ListDel,
                    format!("node {n}.partial"),
                    "The slab {} is full now: remove_partial.",
                    self.slab_name(p)
                );
                *pc = GP7;
                Flow::Step
            }
            GP7 => {
                step!(self);
                self.list_unlock_irqrestore(fr.saved_irq, n);
                Flow::Ret(Ret::new(fr.object, None))
            }
        }
    }
}
