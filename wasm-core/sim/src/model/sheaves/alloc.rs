//! Allocation under Linux 7.0 (model.md C.3.1–C.3.2): the sheaf fast path `slab_alloc_node` →
//! `alloc_from_pcs`, and `__pcs_replace_empty_main`, the exchange of an empty main with the
//! spare or the barn (or a sheaf refilled from slabs: `refill`). The one-object slab path that
//! remains is `alloc_slow`.
//!
//! Each function's locals are its own struct (`locals/sheaves.rs`, below the frame table; what
//! it answers the machine, `impl Locals`, is here), named as the kernel function names them:
//! `pcs` the CPU whose sheaves are locked, `main`, `spare`, `empty`, `full` and `sheaf` the
//! sheaves it works on, `barn` the node of a barn, `p` a slot where an array of objects begins
//! in a sheaf, `slab`, `object`, `freelist`, `counters`; each struct's doc gives its kernel
//! function's signature.

use super::super::memory::Access;
use super::{call, sheaf_name, sheaf_of_ret, without_sheaves, SheavesState};
use crate::model::locals::{PcsReplaceEmptyMain, SlabAllocNode};
use crate::model::pcs::labels::*;
use crate::model::state::*;
use crate::model::{Core, Flow, Stat};

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

impl SheavesState {
    /// `slab_alloc_node` → `alloc_from_pcs` (SA1–SA12), falling back to `___slab_alloc`.
    pub(in crate::model) fn slab_alloc_node(
        &mut self,
        core: &mut Core,
        pc: &mut slab_alloc_node::Pc,
        fr: &mut SlabAllocNode,
    ) -> Flow {
        use slab_alloc_node::Pc::*;
        match *pc {
            SA1 => {
                let here = core.my_node();
                if fr.node.is_some_and(|n| n != here) {
                    core.stat(Stat::ALLOC_NODE_MISMATCH);
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
                step!(core);
                let p = self.ld_pcs(core, fr.pcs);
                fr.main = Some(p.main);
                note!(
                    core,
                    Load,
                    format!("cpu_sheaves[{}].main", fr.pcs),
                    "main = pcs->main: sheaf {}.",
                    sheaf_name(p.main)
                );
                *pc = SA6;
                Flow::Step
            }
            SA6 => {
                step!(core);
                let h = need!(core, fr.main);
                let n = self.ld_size(core, h);
                fr.size = n;
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(h)),
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
                step!(core);
                let h = need!(core, fr.main);
                // The top of a sheaf that is not empty (SA5 checked `size`).
                let top = fr.size.saturating_sub(1);
                let x = self.ld_slot(core, h, top);
                fr.object = x;
                note!(
                    core,
                    Load,
                    format!("sheaf {}.objects[{}]", sheaf_name(h), top),
                    "object = main->objects[{}] = {}.",
                    top,
                    core.addr_name(x)
                );
                *pc = if fr.node.is_some() { SA8 } else { SA9 };
                Flow::Step
            }
            SA8 => {
                step!(core);
                let want = fr.node.unwrap_or(0);
                let node = core.slab_of(fr.object).map(|s| {
                    core.access(core.page(s).line, Access::Read);
                    core.node_of_slab(s)
                });
                let ok = node == Some(want);
                note!(
                    core,
                    Load,
                    format!("page of {}", core.addr_name(fr.object)),
                    "{} is on node {}; node {want} was asked for{}",
                    core.addr_name(fr.object),
                    node.map_or("?".into(), |n| n.to_string()),
                    if ok { "." } else { ": it stays in the sheaf." }
                );
                if ok {
                    *pc = SA9;
                } else {
                    core.stat(Stat::ALLOC_NODE_MISMATCH);
                    fr.wrong_node = true;
                    *pc = SAu;
                }
                Flow::Step
            }
            SA9 => {
                step!(core);
                let h = need!(core, fr.main);
                let top = fr.size.saturating_sub(1);
                self.st_size(core, h, top, false);
                self.hold(core, fr.object);
                note!(
                    core,
                    Store,
                    format!("sheaf {}.size", sheaf_name(h)),
                    "main->size := {}: {} is taken off the top of the sheaf.",
                    top,
                    core.addr_name(fr.object)
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
                        self.unhold(core, fr.ret.value);
                        core.ghost.slow_allocs.bump();
                    }
                    return Flow::Ret(Ret::new(fr.ret.value, None).counted(fr.size));
                }
                if fr.wrong_node {
                    *pc = SAs;
                    return Flow::Go;
                }
                core.stat(Stat::ALLOC_FASTPATH);
                self.unhold(core, fr.object);
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
        core: &mut Core,
        pc: &mut pcs_replace_empty_main::Pc,
        fr: &mut PcsReplaceEmptyMain,
    ) -> Flow {
        use pcs_replace_empty_main::Pc::*;
        let k = fr.pcs;
        match *pc {
            SE1 => without_sheaves(core, pc, fr.pcs, SE2, SE1u),
            SE1u => Flow::Ret(Ret::new(0, None).counted(fr.count)),
            SE2 => {
                step!(core);
                let sp = self.ld_pcs(core, k).spare;
                fr.empty = sp;
                note!(
                    core,
                    Load,
                    format!("cpu_sheaves[{k}].spare"),
                    "__pcs_replace_empty_main: spare is {}.",
                    sp.map_or("NULL".into(), sheaf_name)
                );
                *pc = if sp.is_some() { SE2b } else { SE4 };
                Flow::Step
            }
            SE2b => {
                step!(core);
                let sp = need!(core, fr.empty);
                let n = self.ld_size(core, sp);
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(sp)),
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
                step!(core);
                let (m, sp) = (need!(core, fr.main), need!(core, fr.empty));
                self.swap_main_spare(core, k, m, sp, " (no statistic counts it)");
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            SE4 => {
                step!(core);
                let n = SheavesState::get_barn(core, k);
                fr.barn = n;
                note!(
                    core,
                    Load,
                    format!("node {n}.barn"),
                    "get_barn(s): this CPU's node is {n}; its barn holds {} full and {} empty sheaves.",
                    self.barn(core, n).full.len(),
                    self.barn(core, n).empty.len()
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
                step!(core);
                self.st_pcs(core, k, Some(full), None, false);
                core.stat(Stat::BARN_GET);
                note!(
                    core,
                    Store,
                    format!("cpu_sheaves[{k}].main"),
                    "main := {}, the full sheaf from the barn.",
                    sheaf_name(full)
                );
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            SE7 => {
                core.stat(Stat::BARN_GET_FAIL);
                fr.can_alloc = SheavesState::can_block(core);
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
                step!(core);
                // The spare is empty (SE2b): take it as the sheaf to refill.
                self.st_pcs(core, k, None, Some(None), false);
                note!(
                    core,
                    Store,
                    format!("cpu_sheaves[{k}].spare"),
                    "spare := NULL: the empty spare {} will be refilled.",
                    sheaf_name(need!(core, fr.empty))
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
                let e = need!(core, fr.empty);
                call(refill_sheaf::RS1, |f| f.sheaf = e)
            }
            SE11r => {
                if fr.ret.value == 1 {
                    *pc = SE13;
                    return Flow::Go;
                }
                // The refill fell short. The 7.0 code frees the sheaf as it is (its objects
                // stay counted in their slabs: model.md C.9 item 3); later code flushes it first.
                if core.variant().refill_fail_flush {
                    *pc = SE11f;
                    let e = need!(core, fr.empty);
                    return call(sheaf_flush_unused::FU1, |f| f.sheaf = e);
                }
                *pc = SE11f;
                Flow::Go
            }
            SE11f => {
                step!(core);
                self.sheaf_free(core, need!(core, fr.empty));
                Flow::Ret(Ret::new(0, None).counted(fr.count))
            }
            SE12 => {
                step!(core);
                // `alloc_full_sheaf`: a new sheaf, then the refill.
                fr.empty = self.sheaf_alloc(core);
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
                step!(core);
                let p = self.ld_pcs(core, k);
                let n = self.ld_size(core, p.main);
                fr.main = Some(p.main);
                fr.count = n;
                note!(
                    core,
                    Load,
                    format!("cpu_sheaves[{k}]"),
                    "Locked again on cpu{k}: main {} holds {n}, spare is {}.",
                    sheaf_name(p.main),
                    p.spare.map_or("NULL".into(), sheaf_name)
                );
                *pc = if n == 0 { SE14b } else { SE15 };
                Flow::Step
            }
            SE14b => {
                let f_ = need!(core, fr.empty);
                let m = need!(core, fr.main);
                if self.pcs(core, k).spare.is_some() {
                    *pc = SE16r;
                    let n = fr.barn;
                    return call(barn_put_empty_sheaf::BP1, |f| {
                        f.barn = n;
                        f.sheaf = Some(m);
                    });
                }
                step!(core);
                self.st_pcs(core, k, Some(f_), Some(Some(m)), false);
                note!(
                    core,
                    Store,
                    format!("cpu_sheaves[{k}]"),
                    "spare := {} (empty) and main := {} (full).",
                    sheaf_name(m),
                    sheaf_name(f_)
                );
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
            SE15 => {
                // Someone refilled main while the lock was dropped.
                let f_ = need!(core, fr.empty);
                let Some(sp) = self.pcs(core, k).spare else {
                    step!(core);
                    self.st_pcs(core, k, None, Some(Some(f_)), false);
                    note!(
                        core,
                        Store,
                        format!("cpu_sheaves[{k}].spare"),
                        "main was refilled meanwhile: spare := {}.",
                        sheaf_name(f_)
                    );
                    fr.count = k;
                    return Flow::Ret(Ret::new(1, None).counted(fr.count));
                };
                fr.main = Some(sp);
                *pc = SE16;
                Flow::Go
            }
            SE16 => {
                step!(core);
                let sp = need!(core, fr.main);
                let n = self.ld_size(core, sp);
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(sp)),
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
                step!(core);
                let f_ = need!(core, fr.empty);
                let main_was_empty = fr.count == 0;
                if main_was_empty {
                    self.st_pcs(core, k, Some(f_), None, false);
                } else {
                    self.st_pcs(core, k, None, Some(Some(f_)), false);
                }
                note!(
                    core,
                    Store,
                    format!("cpu_sheaves[{k}]"),
                    "{} := {}.",
                    if main_was_empty { "main" } else { "spare" },
                    sheaf_name(f_)
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
                core.stat(Stat::BARN_PUT);
                fr.count = k;
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
        }
    }
}
