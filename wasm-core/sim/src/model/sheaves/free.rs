//! Freeing under Linux 7.0 (model.md C.3.6–C.3.8): `slab_free`, the push onto the main sheaf
//! (`free_to_pcs`) and the exchange of a full main (`__pcs_replace_full_main`,
//! `__pcs_install_empty_sheaf`). The flushes back to slabs are `flush`, `__slab_free` is
//! `free_slow`.
//!
//! Each function's locals are its own struct (`locals/sheaves.rs`; its `impl Locals` is here),
//! named as in `alloc` and as the kernel
//! function names them (`object`, `head`, `tail`, `cnt`...); `arr` is an on-stack batch.

use super::super::memory::Access;
use super::barn::E2BIG;
use super::{call, sheaf_name, sheaf_of_ret, without_sheaves, SheavesState};
use crate::model::locals::{FreeToPcs, PcsInstallEmptySheaf, PcsReplaceFullMain, SlabFreeV7};
use crate::model::pcs::labels::*;
use crate::model::state::*;
use crate::model::{Core, Flow, Stat};

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

impl Locals for PcsInstallEmptySheaf {
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.main, Some(self.empty)]
    }
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

impl SheavesState {
    /// `slab_free` (SF2–SF4): a local object goes to the sheaves, a remote one (or one the
    /// sheaves refuse) straight to its slab.
    pub(in crate::model) fn slab_free_v7(
        &mut self,
        core: &mut Core,
        pc: &mut slab_free_v7::Pc,
        fr: &mut SlabFreeV7,
    ) -> Flow {
        use slab_free_v7::Pc::*;
        let p = fr.slab;
        match *pc {
            SF2 => {
                step!(core);
                core.access(core.page(p).line, Access::Read);
                self.hold(core, fr.object);
                let here = core.my_node();
                let node = core.node_of_slab(p);
                fr.local = node == here;
                note!(
                    core,
                    Load,
                    format!("page {}.flags", core.slab_name(p)),
                    "slab_free({}): its slab {} is on node {node}, this CPU on node {here}{}",
                    core.addr_name(fr.object),
                    core.slab_name(p),
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
                core.stat(Stat::FREE_SLOWPATH);
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
        core: &mut Core,
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
                step!(core);
                let m = self.ld_pcs(core, fr.pcs).main;
                fr.main = Some(m);
                note!(
                    core,
                    Load,
                    format!("cpu_sheaves[{}].main", fr.pcs),
                    "free_to_pcs: main is sheaf {}.",
                    sheaf_name(m)
                );
                *pc = FP5;
                Flow::Step
            }
            FP5 => {
                step!(core);
                let m = need!(core, fr.main);
                core.access(core.cfg.line_kc(), Access::Read);
                let n = self.ld_size(core, m);
                fr.size = n;
                let full = n >= SheavesState::capacity(core);
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(m)),
                    "main->size is {n} of {}{}",
                    SheavesState::capacity(core),
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
                step!(core);
                let m = need!(core, fr.main);
                self.st_slot(core, m, fr.size, fr.object, false);
                note!(
                    core,
                    Store,
                    format!("sheaf {}.objects[{}]", sheaf_name(m), fr.size),
                    "main->objects[{}] := {}.",
                    fr.size,
                    core.addr_name(fr.object)
                );
                *pc = FP7;
                Flow::Step
            }
            FP7 => {
                step!(core);
                let m = need!(core, fr.main);
                let size = fr.size.saturating_add(1);
                self.st_size(core, m, size, false);
                self.unhold(core, fr.object);
                note!(
                    core,
                    Store,
                    format!("sheaf {}.size", sheaf_name(m)),
                    "main->size := {}: {} is on top of the sheaf.",
                    size,
                    core.addr_name(fr.object)
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
                core.stat(Stat::FREE_FASTPATH);
                Flow::Ret(Ret::new(1, None).counted(fr.size))
            }
        }
    }

    /// `__pcs_replace_full_main` (FR2–FR14): make room for a free when main is full. Returns
    /// 1 with the lock held (its CPU in `count`) or 0 with the lock released.
    pub(in crate::model) fn pcs_replace_full_main(
        &mut self,
        core: &mut Core,
        pc: &mut pcs_replace_full_main::Pc,
        fr: &mut PcsReplaceFullMain,
    ) -> Flow {
        use pcs_replace_full_main::Pc::*;
        let k = fr.pcs;
        match *pc {
            FR1 => without_sheaves(core, pc, fr.pcs, FR2, FR1u),
            FR1u => Flow::Ret(Ret::new(0, None).counted(fr.count)),
            FR2 => {
                step!(core);
                let n = SheavesState::get_barn(core, k);
                fr.barn = n;
                note!(
                    core,
                    Load,
                    format!("node {n}.barn"),
                    "__pcs_replace_full_main: get_barn(s) is node {n}'s barn."
                );
                *pc = FR3;
                Flow::Step
            }
            FR3 => {
                step!(core);
                let p = self.ld_pcs(core, k);
                fr.main = Some(p.main);
                fr.empty = p.spare;
                note!(
                    core,
                    Load,
                    format!("cpu_sheaves[{k}].spare"),
                    "spare is {}.",
                    p.spare.map_or("NULL".into(), sheaf_name)
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
                step!(core);
                let m = need!(core, fr.main);
                self.st_pcs(core, k, Some(e), Some(Some(m)), false);
                note!(
                    core,
                    Store,
                    format!("cpu_sheaves[{k}]"),
                    "spare := {} (full) and main := {}, the empty sheaf from the barn.",
                    sheaf_name(m),
                    sheaf_name(e)
                );
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            FR5 => {
                step!(core);
                let sp = need!(core, fr.empty);
                let n = self.ld_size(core, sp);
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(sp)),
                    "spare->size is {n}{}",
                    if n < SheavesState::capacity(core) {
                        ": not full, swap main and spare."
                    } else {
                        ": full too."
                    }
                );
                *pc = if n < SheavesState::capacity(core) {
                    FR5b
                } else {
                    FR6
                };
                Flow::Step
            }
            FR5b => {
                step!(core);
                let (m, sp) = (need!(core, fr.main), need!(core, fr.empty));
                self.swap_main_spare(core, k, m, sp, "");
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
                    step!(core);
                    self.st_pcs(core, k, Some(e), None, false);
                    core.stat(Stat::BARN_PUT);
                    note!(
                        core,
                        Store,
                        format!("cpu_sheaves[{k}].main"),
                        "main := {}, the empty sheaf the barn gave for the full one.",
                        sheaf_name(e)
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
                step!(core);
                // The barn has enough full sheaves: flush the full spare to slabs and use it.
                core.stat(Stat::BARN_PUT_FAIL);
                self.st_pcs(core, k, None, Some(None), false);
                note!(
                    core,
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
                let t = need!(core, fr.empty);
                call(sheaf_flush_unused::FU1, |f| f.sheaf = t)
            }
            FR10 => {
                *pc = FR11;
                call(local_unlock_v7::LU1, |f| f.cpu = k)
            }
            FR11 => {
                step!(core);
                // `GFP_NOWAIT`: no sleeping here.
                let e = self.sheaf_alloc(core);
                fr.empty = e;
                *pc = if e.is_some() { FR13 } else { FR12 };
                Flow::Step
            }
            FR12 => {
                if fr.put_fail {
                    core.stat(Stat::BARN_PUT_FAIL);
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
                step!(core);
                let m = self.ld_pcs(core, fr.pcs).main;
                let n = self.ld_size(core, m);
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(m)),
                    "After the flush main holds {n}{}",
                    if n >= SheavesState::capacity(core) {
                        ": still full, start again."
                    } else {
                        "."
                    }
                );
                if n >= SheavesState::capacity(core) {
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
                let (c, e, n) = (fr.pcs, need!(core, fr.empty), fr.barn);
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
        core: &mut Core,
        pc: &mut pcs_install_empty_sheaf::Pc,
        fr: &mut PcsInstallEmptySheaf,
    ) -> Flow {
        use pcs_install_empty_sheaf::Pc::*;
        let k = fr.pcs;
        let e = fr.empty;
        match *pc {
            FI1 => {
                step!(core);
                let p = self.ld_pcs(core, k);
                fr.main = Some(p.main);
                if p.spare.is_none() {
                    // "what we expect to find if nobody interrupted us"
                    self.st_pcs(core, k, Some(e), Some(Some(p.main)), false);
                    note!(
                        core,
                        Store,
                        format!("cpu_sheaves[{k}]"),
                        "__pcs_install_empty_sheaf: spare := {} (full), main := {} (empty).",
                        sheaf_name(p.main),
                        sheaf_name(e)
                    );
                    return Flow::Ret(Ret::new(1, None));
                }
                note!(
                    core,
                    Load,
                    format!("cpu_sheaves[{k}]"),
                    "__pcs_install_empty_sheaf: the spare slot is taken ({}): something changed meanwhile.",
                    p.spare.map_or("NULL".into(), sheaf_name)
                );
                *pc = FI2;
                Flow::Step
            }
            FI2 => {
                step!(core);
                let m = need!(core, fr.main);
                let n = self.ld_size(core, m);
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(m)),
                    "main->size is {n}{}",
                    if n < SheavesState::capacity(core) {
                        ": room again, so the new empty sheaf goes to the barn."
                    } else {
                        "."
                    }
                );
                *pc = if n < SheavesState::capacity(core) {
                    FI2r
                } else {
                    FI3
                };
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
                step!(core);
                let sp = need!(core, self.pcs(core, k).spare);
                let m = need!(core, fr.main);
                let n = self.ld_size(core, sp);
                if n < SheavesState::capacity(core) {
                    self.st_pcs(core, k, Some(sp), Some(Some(m)), false);
                    *pc = FI2r;
                } else {
                    *pc = FI4;
                }
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(sp)),
                    "spare->size is {n}{}",
                    if n < SheavesState::capacity(core) {
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
                step!(core);
                self.st_pcs(core, k, Some(e), None, false);
                core.stat(Stat::BARN_PUT);
                note!(
                    core,
                    Store,
                    format!("cpu_sheaves[{k}].main"),
                    "main := {}.",
                    sheaf_name(e)
                );
                Flow::Ret(Ret::new(1, None))
            }
        }
    }
}
