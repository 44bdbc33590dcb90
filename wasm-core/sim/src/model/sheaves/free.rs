//! Freeing under Linux 7.0 (model.md C.3.6–C.3.11): the push onto the main sheaf, the exchange
//! of a full main, the flushes back to slabs, `__slab_free` as 7.0 has it, and the CPU
//! hotplug and `flush_all` work.
//!
//! Each function's locals are its own struct (below), named as in `alloc` and as the kernel
//! function names them (`object`, `head`, `tail`, `cnt`...); `arr` is an on-stack batch.

use super::super::memory::Access;
use super::barn::E2BIG;
use super::{call, sheaf_of_ret, without_sheaves, PCS_BATCH_MAX};
use crate::model::pcs::labels::*;
use crate::model::slab_page::{counters_text, Counters};
use crate::model::state::*;
use crate::model::{Flow, Machine, Stat};

/// The locals of `free_to_pcs(s, object, allow_spin)`: `pcs` the CPU whose sheaves are
/// locked, `main` its main sheaf and `size` its size as read, `replaced` 1 while
/// `__pcs_replace_full_main` runs for it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FreeToPcs {
    pub pcs: u32,
    pub object: Addr,
    pub replaced: u8,
    pub size: u32,
    pub ret: Ret,
    pub main: Option<u32>,
}

impl Locals for FreeToPcs {
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

/// The locals of `__kmem_cache_free_bulk(s, size, p)` with its
/// `build_detached_freelist`: `arr` the batch `p` and `size` its entries left, the detached
/// freelist's `slab`, `freelist` (head) and `tail`, `same` the look-back cursor and
/// `lookahead` the other-slab objects it may still pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KmemCacheFreeBulk {
    pub tail: Addr,
    pub freelist: Addr,
    pub slab: Option<SlabId>,
    pub lookahead: u8,
    pub size: u32,
    pub same: u32,
    pub ret: Ret,
    pub arr: Vec<Addr>,
}

impl Locals for KmemCacheFreeBulk {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.tail == a || self.freelist == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.slab);
        mark(self.ret.slab);
    }
}

/// The locals of `pcs_flush_all(s)` on this CPU: `pcs` the CPU, `spare` the spare it detached.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PcsFlushAll {
    pub pcs: u32,
    pub ret: Ret,
    pub spare: Option<u32>,
}

impl Locals for PcsFlushAll {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.spare, None]
    }
}

/// The locals of `__pcs_install_empty_sheaf(s, pcs, empty, barn)`: `pcs` the locked CPU,
/// `main` its main sheaf, `empty` the sheaf to install, `barn` the barn's node,
/// `empty_to_barn` 1 when `empty` went to the barn instead.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PcsInstallEmptySheaf {
    pub pcs: u32,
    pub empty_to_barn: u8,
    pub barn: u32,
    pub main: Option<u32>,
    pub empty: u32,
}

impl Locals for PcsInstallEmptySheaf {
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.main, Some(self.empty)]
    }
}

/// The locals of `__pcs_replace_full_main(s, pcs, allow_spin)`: `pcs` the locked CPU,
/// `main` its full main, `empty` the spare as read and then the empty sheaf to install,
/// `barn` the barn's node, `put_fail` the barn refused the full sheaf (`-E2BIG`), `count` the
/// CPU locked again on return.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PcsReplaceFullMain {
    pub pcs: u32,
    pub put_fail: bool,
    pub count: u32,
    pub barn: u32,
    pub ret: Ret,
    pub main: Option<u32>,
    pub empty: Option<u32>,
}

impl Locals for PcsReplaceFullMain {
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

/// The locals of `sheaf_flush_main(s)`: `pcs` the locked CPU, `main` its main sheaf,
/// `batch` the objects taken off it into `arr`, `remaining` what is left on it, `flushed` it
/// flushed anything (its `ret`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SheafFlushMain {
    pub pcs: u32,
    pub flushed: bool,
    pub remaining: u32,
    pub batch: u32,
    pub ret: Ret,
    pub main: Option<u32>,
    pub arr: Vec<Addr>,
}

impl Locals for SheafFlushMain {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.main, None]
    }
}

/// The locals of `sheaf_flush_unused(s, sheaf)`: `arr` the batch taken off it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SheafFlushUnused {
    pub sheaf: u32,
    pub arr: Vec<Addr>,
}

impl Locals for SheafFlushUnused {
    fn sheaves(&self) -> [Option<u32>; 2] {
        [Some(self.sheaf), None]
    }
}

/// The locals of `__slab_free(s, slab, head, tail, cnt, addr)` as 7.0 has it: `prior`
/// and `counters` as read, `new` the counters to write, `n` the node whose `list_lock` is
/// held, `was_full` (`!prior`) and `on_node_partial` (`SL_partial` read under the lock).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabFreeSlowV7 {
    pub tail: Addr,
    pub head: Addr,
    pub prior: Addr,
    pub slab: SlabId,
    pub counters: Counters,
    pub new: Counters,
    pub n: Option<u32>,
    pub saved_irq: bool,
    pub was_full: bool,
    pub on_node_partial: bool,
    pub cnt: u32,
}

impl Locals for SlabFreeSlowV7 {
    fn holds_addr(&self, a: Addr) -> bool {
        self.tail == a || self.head == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.slab));
    }
}

/// The locals of `slab_free(s, slab, object, addr)`: `local` the slab is of this CPU's
/// node (the object may go to the sheaves).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabFreeV7 {
    pub object: Addr,
    pub slab: SlabId,
    pub local: bool,
    pub ret: Ret,
}

impl Locals for SlabFreeV7 {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.object == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.slab));
        mark(self.ret.slab);
    }
}

/// The locals of `slub_cpu_dead(cpu)` (its `__pcs_flush_all_cpu`): the dead `cpu`'s
/// `main` and `spare`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlubCpuDead {
    pub cpu: u32,
    pub main: Option<u32>,
    pub spare: Option<u32>,
}

impl Locals for SlubCpuDead {
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.main, self.spare]
    }
}

impl Machine {
    /// `slab_free` (SF2–SF4): a local object goes to the sheaves, a remote one (or one the
    /// sheaves refuse) straight to its slab.
    pub(in crate::model) fn slab_free_v7(
        &mut self,
        pc: &mut slab_free_v7::Pc,
        fr: &mut SlabFreeV7,
    ) -> Flow {
        use slab_free_v7::Pc::*;
        let p = fr.slab;
        match *pc {
            SF2 => {
                step!(self);
                self.access(self.page(p).line, Access::Read);
                self.hold(fr.object);
                let here = self.my_node();
                let node = self.node_of_slab(p);
                fr.local = node == here;
                note!(
                    self,
                    Load,
                    format!("page {}.flags", self.slab_name(p)),
                    "slab_free({}): its slab {} is on node {node}, this CPU on node {here}{}",
                    self.addr_name(fr.object),
                    self.slab_name(p),
                    if fr.local {
                        ": a local object, for the sheaves."
                    } else {
                        ": a remote object, straight back to its slab."
                    }
                );
                *pc = if fr.local { SF3 } else { SF4 };
                Flow::Step
            }
            SF3 => {
                *pc = SF3r;
                let x = fr.object;
                call(free_to_pcs::FP1, |f| f.object = x)
            }
            SF3r => {
                if fr.ret.value == 1 {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                *pc = SF4;
                Flow::Go
            }
            SF4 => {
                self.stat(Stat::FREE_SLOWPATH);
                *pc = SF4r;
                let x = fr.object;
                call(slab_free_slow_v7::SS2, |f| {
                    f.slab = p;
                    f.head = x;
                    f.tail = x;
                    f.cnt = 1;
                })
            }
            SF4r => Flow::Ret(Ret::new(NULL, None)),
        }
    }

    /// `free_to_pcs(object)` (FP1–FP10): push `object` on the main sheaf under the trylock. Returns 1,
    /// or 0 if the trylock failed or no room could be made (then `__slab_free`).
    pub(in crate::model) fn free_to_pcs(
        &mut self,
        pc: &mut free_to_pcs::Pc,
        fr: &mut FreeToPcs,
    ) -> Flow {
        use free_to_pcs::Pc::*;
        match *pc {
            FP1 => {
                *pc = FP2;
                call(local_trylock::LT1, |_| {})
            }
            FP2 => {
                if fr.ret.value == 0 {
                    return Flow::Ret(Ret::new(0, None).counted(fr.size));
                }
                fr.pcs = fr.ret.count;
                *pc = FP4;
                Flow::Go
            }
            FP4 => {
                step!(self);
                let m = self.ld_pcs(fr.pcs).main;
                fr.main = Some(m);
                note!(
                    self,
                    Load,
                    format!("cpu_sheaves[{}].main", fr.pcs),
                    "free_to_pcs: main is sheaf {}.",
                    self.sheaf_name(m)
                );
                *pc = FP5;
                Flow::Step
            }
            FP5 => {
                step!(self);
                let m = need!(self, fr.main);
                self.access(self.cfg.line_kc(), Access::Read);
                let n = self.ld_size(m);
                fr.size = n;
                let full = n >= self.capacity();
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(m)),
                    "main->size is {n} of {}{}",
                    self.capacity(),
                    if full {
                        ": the main sheaf is full."
                    } else {
                        "."
                    }
                );
                *pc = if full { FP5r } else { FP6 };
                Flow::Step
            }
            FP5r => {
                *pc = FP8;
                fr.replaced = 1;
                let (c, m) = (fr.pcs, fr.main);
                call(pcs_replace_full_main::FR1, |f| {
                    f.pcs = c;
                    f.main = m;
                })
            }
            FP6 => {
                step!(self);
                let m = need!(self, fr.main);
                self.st_slot(m, fr.size, fr.object, false);
                note!(
                    self,
                    Store,
                    format!("sheaf {}.objects[{}]", self.sheaf_name(m), fr.size),
                    "main->objects[{}] := {}.",
                    fr.size,
                    self.addr_name(fr.object)
                );
                *pc = FP7;
                Flow::Step
            }
            FP7 => {
                step!(self);
                let m = need!(self, fr.main);
                let size = fr.size.saturating_add(1);
                self.st_size(m, size, false);
                self.unhold(fr.object);
                note!(
                    self,
                    Store,
                    format!("sheaf {}.size", self.sheaf_name(m)),
                    "main->size := {}: {} is on top of the sheaf.",
                    size,
                    self.addr_name(fr.object)
                );
                *pc = FP8;
                Flow::Step
            }
            FP8 => {
                if fr.replaced == 1 {
                    // Back from `__pcs_replace_full_main`: locked (on the CPU its `Ret`'s count
                    // names) with room in main, or unlocked and refused.
                    fr.replaced = 0;
                    if fr.ret.value == 0 {
                        return Flow::Ret(Ret::new(0, None).counted(fr.size));
                    }
                    fr.pcs = fr.ret.count;
                    *pc = FP4;
                    return Flow::Go;
                }
                *pc = FP10;
                let c = fr.pcs;
                call(local_unlock_v7::LU1, |f| f.cpu = c)
            }
            FP10 => {
                self.stat(Stat::FREE_FASTPATH);
                Flow::Ret(Ret::new(1, None).counted(fr.size))
            }
        }
    }

    /// `__pcs_replace_full_main` (FR2–FR14): make room for a free when main is full. Returns
    /// 1 with the lock held (its CPU in `count`) or 0 with the lock released.
    pub(in crate::model) fn pcs_replace_full_main(
        &mut self,
        pc: &mut pcs_replace_full_main::Pc,
        fr: &mut PcsReplaceFullMain,
    ) -> Flow {
        use pcs_replace_full_main::Pc::*;
        let k = fr.pcs;
        match *pc {
            FR1 => without_sheaves(self, pc, fr.pcs, FR2, FR1u),
            FR1u => Flow::Ret(Ret::new(0, None).counted(fr.count)),
            FR2 => {
                step!(self);
                let n = self.get_barn(k);
                fr.barn = n;
                note!(
                    self,
                    Load,
                    format!("node {n}.barn"),
                    "__pcs_replace_full_main: get_barn(s) is node {n}'s barn."
                );
                *pc = FR3;
                Flow::Step
            }
            FR3 => {
                step!(self);
                let p = self.ld_pcs(k);
                fr.main = Some(p.main);
                fr.empty = p.spare;
                note!(
                    self,
                    Load,
                    format!("cpu_sheaves[{k}].spare"),
                    "spare is {}.",
                    p.spare.map_or("NULL".into(), |s| self.sheaf_name(s))
                );
                *pc = if p.spare.is_some() { FR5 } else { FR4 };
                Flow::Step
            }
            FR4 => {
                *pc = FR4r;
                let n = fr.barn;
                call(barn_get_empty_sheaf::BGE1, |f| f.barn = n)
            }
            FR4r => {
                let Some(e) = sheaf_of_ret(fr.ret.value) else {
                    *pc = FR10;
                    return Flow::Go;
                };
                step!(self);
                let m = need!(self, fr.main);
                self.st_pcs(k, Some(e), Some(Some(m)), false);
                note!(
                    self,
                    Store,
                    format!("cpu_sheaves[{k}]"),
                    "spare := {} (full) and main := {}, the empty sheaf from the barn.",
                    self.sheaf_name(m),
                    self.sheaf_name(e)
                );
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            FR5 => {
                step!(self);
                let sp = need!(self, fr.empty);
                let n = self.ld_size(sp);
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(sp)),
                    "spare->size is {n}{}",
                    if n < self.capacity() {
                        ": not full, swap main and spare."
                    } else {
                        ": full too."
                    }
                );
                *pc = if n < self.capacity() { FR5b } else { FR6 };
                Flow::Step
            }
            FR5b => {
                step!(self);
                let (m, sp) = (need!(self, fr.main), need!(self, fr.empty));
                self.swap_main_spare(k, m, sp, "");
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            FR6 => {
                *pc = FR6r;
                let (n, m) = (fr.barn, fr.main);
                call(barn_replace_full_sheaf::BRF1, |f| {
                    f.barn = n;
                    f.full = m;
                })
            }
            FR6r => {
                if let Some(e) = sheaf_of_ret(fr.ret.value) {
                    step!(self);
                    self.st_pcs(k, Some(e), None, false);
                    self.stat(Stat::BARN_PUT);
                    note!(
                        self,
                        Store,
                        format!("cpu_sheaves[{k}].main"),
                        "main := {}, the empty sheaf the barn gave for the full one.",
                        self.sheaf_name(e)
                    );
                    fr.count = k;
                    return Flow::Ret(Ret::new(1, None).counted(fr.count));
                }
                if fr.ret.count == E2BIG {
                    *pc = FR8;
                } else {
                    fr.put_fail = true; // put_fail
                    *pc = FR10;
                }
                Flow::Go
            }
            FR8 => {
                step!(self);
                // The barn has enough full sheaves: flush the full spare to slabs and use it.
                self.stat(Stat::BARN_PUT_FAIL);
                self.st_pcs(k, None, Some(None), false);
                note!(
                    self,
                    Store,
                    format!("cpu_sheaves[{k}].spare"),
                    "The barn is at MAX_FULL_SHEAVES: spare := NULL; its objects go back to their slabs."
                );
                *pc = FR8u;
                Flow::Step
            }
            FR8u => {
                *pc = FR8f;
                call(local_unlock_v7::LU1, |f| f.cpu = k)
            }
            FR8f => {
                *pc = FR13;
                let t = need!(self, fr.empty);
                call(sheaf_flush_unused::FU1, |f| f.sheaf = t)
            }
            FR10 => {
                *pc = FR11;
                call(local_unlock_v7::LU1, |f| f.cpu = k)
            }
            FR11 => {
                step!(self);
                // `GFP_NOWAIT`: no sleeping here.
                let e = self.sheaf_alloc();
                fr.empty = e;
                *pc = if e.is_some() { FR13 } else { FR12 };
                Flow::Step
            }
            FR12 => {
                if fr.put_fail {
                    self.stat(Stat::BARN_PUT_FAIL);
                }
                *pc = FR12a;
                call(sheaf_flush_main::FM1, |_| {})
            }
            FR12a => {
                if fr.ret.value == 0 {
                    return Flow::Ret(Ret::new(0, None).counted(fr.count));
                }
                *pc = FR12b;
                call(local_trylock::LT1, |_| {})
            }
            FR12b => {
                if fr.ret.value == 0 {
                    return Flow::Ret(Ret::new(0, None).counted(fr.count));
                }
                fr.pcs = fr.ret.count;
                *pc = FR12c;
                Flow::Go
            }
            FR12c => {
                step!(self);
                let m = self.ld_pcs(fr.pcs).main;
                let n = self.ld_size(m);
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(m)),
                    "After the flush main holds {n}{}",
                    if n >= self.capacity() {
                        ": still full, start again."
                    } else {
                        "."
                    }
                );
                if n >= self.capacity() {
                    fr.put_fail = false;
                    *pc = FR1;
                    return Flow::Step;
                }
                fr.count = fr.pcs;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            FR13 => {
                *pc = FR13r;
                call(local_trylock::LT1, |_| {})
            }
            FR13r => {
                if fr.ret.value == 0 {
                    *pc = FR13f;
                    let (n, e) = (fr.barn, fr.empty);
                    return call(barn_put_empty_sheaf::BP1, |f| {
                        f.barn = n;
                        f.sheaf = e;
                    });
                }
                fr.pcs = fr.ret.count;
                *pc = FR14r;
                let (c, e, n) = (fr.pcs, need!(self, fr.empty), fr.barn);
                call(pcs_install_empty_sheaf::FI1, |f| {
                    f.pcs = c;
                    f.empty = e;
                    f.barn = n;
                })
            }
            FR13f => Flow::Ret(Ret::new(0, None).counted(fr.count)),
            FR14r => {
                fr.count = fr.pcs;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
        }
    }

    /// `__pcs_install_empty_sheaf(pcs, e, barn)` (FI1–FI4), with the lock held: install the
    /// `empty` sheaf, reconciling with whatever changed while the lock was dropped.
    pub(in crate::model) fn pcs_install_empty_sheaf(
        &mut self,
        pc: &mut pcs_install_empty_sheaf::Pc,
        fr: &mut PcsInstallEmptySheaf,
    ) -> Flow {
        use pcs_install_empty_sheaf::Pc::*;
        let k = fr.pcs;
        let e = fr.empty;
        match *pc {
            FI1 => {
                step!(self);
                let p = self.ld_pcs(k);
                fr.main = Some(p.main);
                if p.spare.is_none() {
                    // "what we expect to find if nobody interrupted us"
                    self.st_pcs(k, Some(e), Some(Some(p.main)), false);
                    note!(
                        self,
                        Store,
                        format!("cpu_sheaves[{k}]"),
                        "__pcs_install_empty_sheaf: spare := {} (full), main := {} (empty).",
                        self.sheaf_name(p.main),
                        self.sheaf_name(e)
                    );
                    return Flow::Ret(Ret::new(1, None));
                }
                note!(
                    self,
                    Load,
                    format!("cpu_sheaves[{k}]"),
                    "__pcs_install_empty_sheaf: the spare slot is taken ({}): something changed meanwhile.",
                    p.spare.map_or("NULL".into(), |s| self.sheaf_name(s))
                );
                *pc = FI2;
                Flow::Step
            }
            FI2 => {
                step!(self);
                let m = need!(self, fr.main);
                let n = self.ld_size(m);
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(m)),
                    "main->size is {n}{}",
                    if n < self.capacity() {
                        ": room again, so the new empty sheaf goes to the barn."
                    } else {
                        "."
                    }
                );
                *pc = if n < self.capacity() { FI2r } else { FI3 };
                Flow::Step
            }
            FI2r => {
                *pc = FI4r;
                fr.empty_to_barn = 1;
                let n = fr.barn;
                call(barn_put_empty_sheaf::BP1, |f| {
                    f.barn = n;
                    f.sheaf = Some(e);
                })
            }
            FI3 => {
                step!(self);
                let sp = need!(self, self.pcs(k).spare);
                let m = need!(self, fr.main);
                let n = self.ld_size(sp);
                if n < self.capacity() {
                    self.st_pcs(k, Some(sp), Some(Some(m)), false);
                    *pc = FI2r;
                } else {
                    *pc = FI4;
                }
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(sp)),
                    "spare->size is {n}{}",
                    if n < self.capacity() {
                        ": swap main and spare; the new empty sheaf goes to the barn."
                    } else {
                        ": both full, so main goes to the barn as a full sheaf."
                    }
                );
                Flow::Step
            }
            FI4 => {
                *pc = FI4r;
                let (n, m) = (fr.barn, fr.main);
                call(barn_put_full_sheaf::BP1, |f| {
                    f.barn = n;
                    f.sheaf = m;
                })
            }
            FI4r => {
                if fr.empty_to_barn == 1 {
                    return Flow::Ret(Ret::new(1, None));
                }
                step!(self);
                self.st_pcs(k, Some(e), None, false);
                self.stat(Stat::BARN_PUT);
                note!(
                    self,
                    Store,
                    format!("cpu_sheaves[{k}].main"),
                    "main := {}.",
                    self.sheaf_name(e)
                );
                Flow::Ret(Ret::new(1, None))
            }
        }
    }

    /// `sheaf_flush_main` (FM1–FM7): take up to `PCS_BATCH_MAX` objects off the main sheaf
    /// under the trylock and free them to their slabs without it, until main is empty.
    /// Returns 1 if it flushed anything.
    pub(in crate::model) fn sheaf_flush_main(
        &mut self,
        pc: &mut sheaf_flush_main::Pc,
        fr: &mut SheafFlushMain,
    ) -> Flow {
        use sheaf_flush_main::Pc::*;
        match *pc {
            FM1 => {
                *pc = FM1r;
                call(local_trylock::LT1, |_| {})
            }
            FM1r => {
                if fr.ret.value == 0 {
                    return Flow::Ret(Ret::new(fr.flushed as Addr, None).counted(fr.remaining));
                }
                fr.pcs = fr.ret.count;
                *pc = FM2;
                Flow::Go
            }
            FM2 => {
                step!(self);
                let m = self.ld_pcs(fr.pcs).main;
                let size = self.ld_size(m);
                fr.main = Some(m);
                fr.batch = size.min(PCS_BATCH_MAX);
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(m)),
                    "sheaf_flush_main: main {} holds {size}; take {}.",
                    self.sheaf_name(m),
                    fr.batch
                );
                *pc = FM3;
                Flow::Step
            }
            FM3 => {
                step!(self);
                let m = need!(self, fr.main);
                let size = self.sheaf(m).size;
                let b = fr.batch.min(size);
                let rest = size.saturating_sub(b);
                self.st_size(m, rest, false);
                let mut batch = Vec::new();
                for i in rest..size {
                    let x = self.ld_slot(m, i);
                    batch.push(x);
                    self.hold(x);
                }
                fr.arr = batch;
                fr.remaining = rest;
                note!(
                    self,
                    Store,
                    format!("sheaf {}.size", self.sheaf_name(m)),
                    "main->size := {rest}; copy the {b} pointer(s) above it to an on-stack batch."
                );
                *pc = FM4;
                Flow::Step
            }
            FM4 => {
                *pc = FM5;
                let c = fr.pcs;
                call(local_unlock_v7::LU1, |f| f.cpu = c)
            }
            FM5 => {
                *pc = FM5r;
                let batch = std::mem::take(&mut fr.arr);
                call(kmem_cache_free_bulk::KB1, |f| f.arr = batch)
            }
            FM5r => {
                self.stat_add(Stat::SHEAF_FLUSH, fr.batch);
                fr.flushed = true;
                if fr.remaining > 0 {
                    *pc = FM1;
                    return Flow::Go;
                }
                Flow::Ret(Ret::new(1, None).counted(fr.remaining))
            }
        }
    }

    /// `sheaf_flush_unused(h)` (FU1–FU4) for a sheaf on no CPU (or a dead CPU's), hence with
    /// no lock: free all of its objects to their slabs.
    pub(in crate::model) fn sheaf_flush_unused(
        &mut self,
        pc: &mut sheaf_flush_unused::Pc,
        fr: &mut SheafFlushUnused,
    ) -> Flow {
        use sheaf_flush_unused::Pc::*;
        let h = fr.sheaf;
        match *pc {
            FU1 => {
                step!(self);
                let n = self.ld_size(h);
                note!(
                    self,
                    Load,
                    format!("sheaf {}.size", self.sheaf_name(h)),
                    "sheaf_flush_unused({}): {n} object(s).",
                    self.sheaf_name(h)
                );
                if n == 0 {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                *pc = FU3;
                Flow::Step
            }
            FU3 => {
                step!(self);
                // The sheaf is this context's alone (or a dead CPU's): emptying it before
                // handing its pointers to the bulk free, rather than after as the kernel
                // does, is invisible to everyone else and keeps each object in one place.
                let n = self.sheaf(h).size;
                self.stat_add(Stat::SHEAF_FLUSH, n);
                let mut batch = Vec::new();
                for i in 0..n {
                    let x = self.ld_slot(h, i);
                    batch.push(x);
                    self.hold(x);
                }
                self.st_size(h, 0, true);
                fr.arr = batch;
                note!(
                    self,
                    Store,
                    format!("sheaf {}", self.sheaf_name(h)),
                    "Hand the {n} object(s) of {} to __kmem_cache_free_bulk; size := 0.",
                    self.sheaf_name(h)
                );
                *pc = FU3r;
                Flow::Step
            }
            FU3r => {
                *pc = FU4;
                let batch = std::mem::take(&mut fr.arr);
                call(kmem_cache_free_bulk::KB1, |f| f.arr = batch)
            }
            FU4 => Flow::Ret(Ret::new(NULL, None)),
        }
    }

    /// `__kmem_cache_free_bulk(p)` (KB1–KB3): group the batch by slab with
    /// `build_detached_freelist` (the last object, then same-slab objects looking back, up to
    /// three others) and free each group with one `__slab_free`.
    pub(in crate::model) fn kmem_cache_free_bulk(
        &mut self,
        pc: &mut kmem_cache_free_bulk::Pc,
        fr: &mut KmemCacheFreeBulk,
    ) -> Flow {
        use kmem_cache_free_bulk::Pc::*;
        match *pc {
            KB1 => {
                let Some(&x) = fr.arr.last() else {
                    return Flow::Ret(Ret::new(NULL, None).counted(fr.size));
                };
                step!(self);
                fr.arr.pop();
                let p = need!(self, self.slab_of(x));
                self.access(self.page(p).line, Access::Read);
                self.store_fp(x, NULL);
                fr.slab = Some(p);
                fr.freelist = x;
                fr.tail = x;
                fr.ret.count = 1;
                fr.size = fr.arr.len() as u32;
                fr.same = fr.size;
                fr.lookahead = 3;
                note!(
                    self,
                    Store,
                    format!("{}.fp", self.addr_name(x)),
                    "build_detached_freelist: a new group for slab {} from {} (its free pointer := NULL).",
                    self.slab_name(p),
                    self.addr_name(x)
                );
                *pc = KB2;
                Flow::Step
            }
            KB2 => {
                if fr.size == 0 || fr.lookahead == 0 {
                    fr.arr.truncate(fr.same as usize);
                    *pc = KB3;
                    return Flow::Go;
                }
                step!(self);
                fr.size = fr.size.saturating_sub(1);
                let i = fr.size as usize;
                let y = need!(self, fr.arr.get(i).copied());
                let p = need!(self, fr.slab);
                let py = self.slab_of(y);
                if let Some(s) = py {
                    self.access(self.page(s).line, Access::Read);
                }
                if py == Some(p) {
                    self.store_fp(y, fr.freelist);
                    note!(
                        self,
                        Store,
                        format!("{}.fp", self.addr_name(y)),
                        "{} is of slab {} too: link it in front ({} -> {}).",
                        self.addr_name(y),
                        self.slab_name(p),
                        self.addr_name(y),
                        self.addr_name(fr.freelist)
                    );
                    fr.freelist = y;
                    fr.ret.count.bump();
                    fr.same = fr.same.saturating_sub(1);
                    let same = fr.same as usize;
                    if i != same {
                        // Both within the batch (`same` counts its entries).
                        need!(self, fr.arr.get(same));
                        fr.arr.swap(i, same);
                    }
                } else {
                    fr.lookahead = fr.lookahead.saturating_sub(1);
                    note!(
                        self,
                        Load,
                        format!("page of {}", self.addr_name(y)),
                        "{} is of another slab ({} more look(s) back).",
                        self.addr_name(y),
                        fr.lookahead
                    );
                }
                Flow::Step
            }
            KB3 => {
                *pc = KB1;
                let (p, head, tail, cnt) =
                    (need!(self, fr.slab), fr.freelist, fr.tail, fr.ret.count);
                call(slab_free_slow_v7::SS2, |f| {
                    f.slab = p;
                    f.head = head;
                    f.tail = tail;
                    f.cnt = cnt;
                })
            }
        }
    }

    /// `__slab_free(P, head, tail, cnt)` as Linux 7.0 has it (SS1–SS11): push the chain with
    /// the slab's double CAS, taking `list_lock` first only when the slab was full or becomes
    /// empty. No frozen slabs, no CPU partial list.
    pub(in crate::model) fn slab_free_slow_v7(
        &mut self,
        pc: &mut slab_free_slow_v7::Pc,
        fr: &mut SlabFreeSlowV7,
    ) -> Flow {
        use slab_free_slow_v7::Pc::*;
        let p = fr.slab;
        match *pc {
            SS1 => {
                let Some(n) = fr.n else {
                    *pc = SS2;
                    return Flow::Go;
                };
                step!(self);
                self.list_unlock_irqrestore(fr.saved_irq, n);
                fr.n = None;
                *pc = SS2;
                Flow::Step
            }
            SS2 => {
                step!(self);
                (fr.prior, fr.counters) = self.read_slab_pair(p, |m, prior, c| {
                    format!(
                        "__slab_free: slab {} has freelist {}, {}.",
                        m.slab_name(p),
                        m.addr_name(prior),
                        counters_text(c)
                    )
                });
                *pc = SS4;
                Flow::Step
            }
            SS4 => {
                step!(self);
                fr.was_full = fr.prior == NULL;
                self.store_fp(fr.tail, fr.prior);
                fr.new = Counters {
                    inuse: fr.counters.inuse.saturating_sub(fr.cnt),
                    ..fr.counters
                };
                note!(
                    self,
                    Store,
                    format!("{}.fp", self.addr_name(fr.tail)),
                    "set_freepointer({}, {}): the chain will end in the old freelist; inuse {} -> {}{}.",
                    self.addr_name(fr.tail),
                    self.addr_name(fr.prior),
                    fr.counters.inuse,
                    fr.new.inuse,
                    if fr.was_full { " (the slab was full)" } else { "" }
                );
                *pc = SS5;
                Flow::Step
            }
            SS5 => {
                if fr.new.inuse != 0 && !fr.was_full {
                    *pc = SS6;
                    return Flow::Go;
                }
                step!(self);
                let n = self.node_of_slab(p);
                self.list_lock_irqsave(&mut fr.saved_irq, n);
                self.access(self.page(p).line, Access::Read);
                fr.n = Some(n);
                fr.on_node_partial = self.slab(p).on_node_partial;
                *pc = SS6;
                Flow::Step
            }
            SS6 => {
                step!(self);
                let ok = self.cas_slab_pair(
                    p,
                    (fr.prior, fr.counters),
                    (fr.head, fr.new),
                    "succeeds: the object(s) are back in their slab.",
                    "fails: the slab changed meanwhile. Retry.",
                );
                if ok {
                    self.unhold_chain(fr.head, fr.cnt);
                    *pc = SS7;
                } else {
                    *pc = SS1;
                }
                Flow::Step
            }
            SS7 => {
                if fr.n.is_none() {
                    return Flow::Ret(Ret::new(NULL, None).counted(fr.cnt));
                }
                // Isolated by a refill: its isolator handles it (SS8).
                *pc = if !fr.was_full && !fr.on_node_partial {
                    SS8
                } else {
                    SS9
                };
                Flow::Go
            }
            SS9 => {
                let n = need!(self, fr.n);
                let empty = fr.new.inuse == 0;
                let nr = self.node(n).nr_partial;
                *pc = if empty && self.discard_ok(nr) {
                    SS11
                } else {
                    SS10
                };
                Flow::Go
            }
            SS8 => {
                step!(self);
                let n = need!(self, fr.n);
                self.list_unlock_irqrestore(fr.saved_irq, n);
                note!(
                    self,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Slab {} is on no list and was not full: a refill isolated it and will deal with it. Unlock.",
                    self.slab_name(p)
                );
                Flow::Ret(Ret::new(NULL, None).counted(fr.cnt))
            }
            SS10 => {
                if !fr.was_full {
                    *pc = SS10u;
                    return Flow::Go;
                }
                step!(self);
                let n = need!(self, fr.n);
                self.add_partial(n, p, true);
                self.stat(Stat::FREE_ADD_PARTIAL);
                note!(
                    self,
                    ListAdd,
                    format!("node {n}.partial"),
                    "The slab {} was full: add_partial at the tail of node {n}'s list.",
                    self.slab_name(p)
                );
                *pc = SS10u;
                Flow::Step
            }
            SS10u => {
                step!(self);
                let n = need!(self, fr.n);
                self.list_unlock_irqrestore(fr.saved_irq, n);
                Flow::Ret(Ret::new(NULL, None).counted(fr.cnt))
            }
            SS11 => {
                if fr.was_full {
                    *pc = SS11u;
                    return Flow::Go;
                }
                step!(self);
                let n = need!(self, fr.n);
                self.remove_partial(n, p);
                self.stat(Stat::FREE_REMOVE_PARTIAL);
                note!(
                    self,
                    ListDel,
                    format!("node {n}.partial"),
                    "The slab {} is empty and node {n} keeps enough: remove_partial.",
                    self.slab_name(p)
                );
                *pc = SS11u;
                Flow::Step
            }
            SS11u => {
                step!(self);
                let n = need!(self, fr.n);
                self.list_unlock_irqrestore(fr.saved_irq, n);
                fr.n = None;
                *pc = SS11d;
                Flow::Step
            }
            SS11d => {
                step!(self);
                self.stat(Stat::FREE_SLAB);
                self.discard_slab(p);
                note!(
                    self,
                    PageFree,
                    format!("page {}", self.slab_name(p)),
                    "discard_slab({}): the empty slab goes back to the page allocator.",
                    self.slab_name(p)
                );
                Flow::Ret(Ret::new(NULL, None).counted(fr.cnt))
            }
        }
    }

    /// `slub_cpu_dead(d)` on a survivor (HP2–HP4): empty the dead CPU's sheaves without its
    /// lock ("the cpu is not executing anymore"); main stays installed, spare is freed.
    pub(in crate::model) fn slub_cpu_dead(
        &mut self,
        pc: &mut slub_cpu_dead::Pc,
        fr: &mut SlubCpuDead,
    ) -> Flow {
        use slub_cpu_dead::Pc::*;
        let d = fr.cpu;
        match *pc {
            HP2 => {
                step!(self);
                let p = self.ld_pcs(d);
                fr.main = Some(p.main);
                fr.spare = p.spare;
                note!(
                    self,
                    Load,
                    format!("cpu_sheaves[{d}]"),
                    "slub_cpu_dead(cpu{d}): main {}, spare {}.",
                    self.sheaf_name(p.main),
                    p.spare.map_or("NULL".into(), |s| self.sheaf_name(s))
                );
                *pc = HP3;
                Flow::Step
            }
            HP3 => {
                *pc = HP4;
                let m = need!(self, fr.main);
                call(sheaf_flush_unused::FU1, |f| f.sheaf = m)
            }
            HP4 => {
                let Some(sp) = fr.spare else {
                    return Flow::Ret(Ret::new(NULL, None));
                };
                *pc = HP4r;
                call(sheaf_flush_unused::FU1, |f| f.sheaf = sp)
            }
            HP4r => {
                step!(self);
                let sp = need!(self, fr.spare);
                self.st_pcs(d, None, Some(None), true);
                self.sheaf_free(sp);
                *pc = HP4f;
                Flow::Step
            }
            HP4f => Flow::Ret(Ret::new(NULL, None)),
        }
    }

    /// `pcs_flush_all` on this CPU (the work `flush_all` queues): detach the spare under the
    /// lock, flush and free it, then flush main in batches.
    pub(in crate::model) fn pcs_flush_all(
        &mut self,
        pc: &mut pcs_flush_all::Pc,
        fr: &mut PcsFlushAll,
    ) -> Flow {
        use pcs_flush_all::Pc::*;
        match *pc {
            LL1 => {
                *pc = FA1a;
                call(local_lock_v7::LL1, |_| {})
            }
            FA1a => {
                fr.pcs = fr.ret.count;
                *pc = FA1b;
                Flow::Go
            }
            FA1b => {
                step!(self);
                let k = fr.pcs;
                let sp = self.ld_pcs(k).spare;
                fr.spare = sp;
                if sp.is_some() {
                    self.st_pcs(k, None, Some(None), false);
                }
                note!(
                    self,
                    Store,
                    format!("cpu_sheaves[{k}].spare"),
                    "pcs_flush_all: {}",
                    match sp {
                        Some(s) =>
                            format!("detach the spare {} (spare := NULL).", self.sheaf_name(s)),
                        None => "no spare to detach.".into(),
                    }
                );
                *pc = FA1u;
                Flow::Step
            }
            FA1u => {
                *pc = FA2r;
                let k = fr.pcs;
                call(local_unlock_v7::LU1, |f| f.cpu = k)
            }
            FA2r => {
                let Some(sp) = fr.spare else {
                    *pc = FA4r;
                    return call(sheaf_flush_main::FM1, |_| {});
                };
                *pc = FA2f;
                call(sheaf_flush_unused::FU1, |f| f.sheaf = sp)
            }
            FA2f => {
                step!(self);
                let sp = need!(self, fr.spare.take());
                self.sheaf_free(sp);
                *pc = FA2r;
                Flow::Step
            }
            FA4r => Flow::Ret(Ret::new(NULL, None)),
        }
    }
}
