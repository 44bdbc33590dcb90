//! The per-CPU lock (`local_trylock`, `local_lock`, `local_unlock` on the `local_trylock_t`
//! of `slub_percpu_sheaves`, model.md C.3.0) and the barn helpers (model.md C.3.3). Each is its own
//! step machine so the listing shows its lines; callers read the result from their return
//! register (`fr.ret.value`).
//!
//! Locals (each function's own struct, in `locals/sheaves.rs`, named as the kernel's): the
//! lock functions keep
//! the CPU in `cpu` and return it as their `Ret`'s count; the barn helpers keep the barn's node
//! in `barn` and the sheaf they were given (`empty`, `full`, `sheaf`), and return the sheaf
//! they took (`ret_sheaf`) with an error code as the count (`barn_replace_full_sheaf`: `E2BIG`
//! or `ENOMEM`).

use super::super::memory::Access;
use super::{ret_sheaf, sheaf_name, SheafId, SheavesState};
use crate::model::locals::{
    BarnGetEmptySheaf, BarnPutSheaf, BarnReplaceEmptySheaf, BarnReplaceFullSheaf, LocalLockV7,
    LocalTrylock, LocalUnlockV7,
};
use crate::model::pcs::labels::*;
use crate::model::state::*;
use crate::model::{Core, Flow};

/// `barn_replace_full_sheaf`'s errors, its `err`, returned as its `Ret`'s count.
pub const E2BIG: u32 = 1;
pub const ENOMEM: u32 = 2;

impl Locals for BarnGetEmptySheaf {
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.empty, None]
    }
}

impl Locals for BarnPutSheaf {
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.sheaf, None]
    }
}

impl Locals for BarnReplaceEmptySheaf {
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.empty, self.full]
    }
}

impl Locals for BarnReplaceFullSheaf {
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.full, self.empty]
    }
}

impl Locals for LocalLockV7 {}

impl Locals for LocalTrylock {}

impl Locals for LocalUnlockV7 {}

impl SheavesState {
    /// `local_trylock(&s->cpu_sheaves->lock)`: LT1 `preempt_disable` (the CPU is fixed from
    /// here), LT2 test `acquired`, LT3 set it. Returns 1 (and the CPU) or 0.
    pub(in crate::model) fn local_trylock(
        &mut self,
        core: &mut Core,
        pc: &mut local_trylock::Pc,
        fr: &mut LocalTrylock,
    ) -> Flow {
        use local_trylock::Pc::*;
        match *pc {
            LT1 => {
                step!(core);
                core.preempt_off();
                fr.cpu = core.me();
                fr.count = fr.cpu;
                note!(
                    core,
                    PreemptOff,
                    "preempt_count".into(),
                    "local_trylock: preempt_disable(); this CPU (cpu{}) is fixed until the unlock.",
                    fr.cpu
                );
                if !SheavesState::locked_pcs(core) {
                    // The negative control: nothing but preemption guards the sheaves.
                    return Flow::Ret(Ret::new(1, None).counted(fr.count));
                }
                *pc = LT2;
                Flow::Step
            }
            LT2 => {
                step!(core);
                core.access(SheavesState::line_pcs(core, fr.cpu), Access::Read);
                let holder = self.pcs(core, fr.cpu).holder;
                core.set_ok(holder.is_none());
                note!(
                    core,
                    Trylock,
                    format!("cpu_sheaves[{}].lock", fr.cpu),
                    "local_trylock: acquired is {}{}",
                    holder.is_some() as u8,
                    match holder {
                        Some(h) => format!(
                            ": {} holds cpu{}'s sheaves, so the trylock fails.",
                            core.ctx_name(h),
                            fr.cpu
                        ),
                        None => ", so the lock is free.".into(),
                    }
                );
                *pc = if holder.is_some() { LT2f } else { LT3 };
                Flow::Step
            }
            LT2f => {
                step!(core);
                core.preempt_on();
                note!(
                    core,
                    PreemptOn,
                    "preempt_count".into(),
                    "local_trylock failed: preempt_enable()."
                );
                Flow::Ret(Ret::new(0, None).counted(fr.count))
            }
            LT3 => {
                step!(core);
                core.access(SheavesState::line_pcs(core, fr.cpu), Access::Write);
                let cur = core.cur;
                if let Some(p) = self.pcs_mut(core, fr.cpu) {
                    p.holder = Some(cur);
                }
                note!(
                    core,
                    LocalLock,
                    format!("cpu_sheaves[{}].lock", fr.cpu),
                    "local_trylock: acquired := 1. {} holds cpu{}'s sheaves.",
                    core.ctx_name(cur),
                    fr.cpu
                );
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
        }
    }

    /// `local_lock` on the same lock: LL1 `preempt_disable`, LL2 `acquired := 1` without a
    /// test (only task contexts that may block use it: INV-S7 says why that is safe).
    pub(in crate::model) fn local_lock_v7(
        &mut self,
        core: &mut Core,
        pc: &mut local_lock_v7::Pc,
        fr: &mut LocalLockV7,
    ) -> Flow {
        use local_lock_v7::Pc::*;
        match *pc {
            LL1 => {
                step!(core);
                core.preempt_off();
                fr.cpu = core.me();
                fr.count = fr.cpu;
                note!(
                    core,
                    PreemptOff,
                    "preempt_count".into(),
                    "local_lock: preempt_disable() on cpu{}.",
                    fr.cpu
                );
                if !SheavesState::locked_pcs(core) {
                    return Flow::Ret(Ret::new(1, None).counted(fr.count));
                }
                *pc = LL2;
                Flow::Step
            }
            LL2 => {
                step!(core);
                core.access(SheavesState::line_pcs(core, fr.cpu), Access::Write);
                let cur = core.cur;
                if let Some(h) = self.pcs(core, fr.cpu).holder.filter(|&h| h != cur) {
                    let msg = format!(
                        "{} took cpu{}'s sheaves with local_lock (no test) while {} held them",
                        core.ctx_name(cur),
                        fr.cpu,
                        core.ctx_name(h)
                    );
                    core.violate("INV-S7", msg);
                }
                if let Some(p) = self.pcs_mut(core, fr.cpu) {
                    p.holder = Some(cur);
                }
                note!(
                    core,
                    LocalLock,
                    format!("cpu_sheaves[{}].lock", fr.cpu),
                    "local_lock: acquired := 1 without testing it."
                );
                Flow::Ret(Ret::new(1, None).counted(fr.count))
            }
        }
    }

    /// `local_unlock`: LU1 `acquired := 0`, LU2 `preempt_enable` (a preemption point).
    pub(in crate::model) fn local_unlock_v7(
        &mut self,
        core: &mut Core,
        pc: &mut local_unlock_v7::Pc,
        fr: &mut LocalUnlockV7,
    ) -> Flow {
        use local_unlock_v7::Pc::*;
        match *pc {
            LU1 => {
                if !SheavesState::locked_pcs(core) {
                    *pc = LU2;
                    return Flow::Go;
                }
                step!(core);
                core.access(SheavesState::line_pcs(core, fr.cpu), Access::Write);
                if let Some(p) = self.pcs_mut(core, fr.cpu) {
                    p.holder = None;
                }
                note!(
                    core,
                    LocalUnlock,
                    format!("cpu_sheaves[{}].lock", fr.cpu),
                    "local_unlock: acquired := 0."
                );
                *pc = LU2;
                Flow::Step
            }
            LU2 => {
                step!(core);
                core.preempt_on();
                note!(
                    core,
                    PreemptOn,
                    "preempt_count".into(),
                    "local_unlock: preempt_enable(). The task may be preempted or migrated from here."
                );
                Flow::Ret(Ret::new(1, None))
            }
        }
    }

    // ----- the barn (all under `barn->lock`, taken with irqsave) -----

    fn barn_lock(&mut self, core: &mut Core, n: u32, flags: &mut bool) {
        core.irq_save(flags);
        core.atomic(
            SheavesState::line_bn(core, n),
            crate::model::cost::Id::SpinLock,
        );
        let cur = core.cur;
        if let Some(b) = self.barn_mut(core, n) {
            b.lock = Some(cur);
        }
        note!(
            core,
            Lock,
            format!("barn {n}.lock"),
            "spin_lock_irqsave(&barn->lock) of node {n}'s barn."
        );
    }

    fn barn_unlock(&mut self, core: &mut Core, n: u32, flags: bool) {
        core.access(SheavesState::line_bn(core, n), Access::Write);
        core.charge(crate::model::cost::Id::SpinUnlock);
        if let Some(b) = self.barn_mut(core, n) {
            b.lock = None;
        }
        core.irq_restore(flags);
        note!(
            core,
            Unlock,
            format!("barn {n}.lock"),
            "spin_unlock_irqrestore(&barn->lock)."
        );
    }

    /// INV-S5: the barn's lists change only under its lock.
    fn check_barn_lock(&mut self, core: &mut Core, n: u32) {
        if self.barn(core, n).lock != Some(core.cur) {
            let msg = format!(
                "{} changed node {n}'s barn without holding its lock",
                core.ctx_name(core.cur)
            );
            core.violate("INV-S5", msg);
        }
    }

    /// A racy `data_race()` read of one of the barn's counts (`RLD` of model.md C.3.0).
    fn barn_count(&mut self, core: &mut Core, n: u32, full: bool) -> u32 {
        core.access(SheavesState::line_bn(core, n), Access::Read);
        let b = self.barn(core, n);
        (if full { b.full.len() } else { b.empty.len() }) as u32
    }

    /// Write the header lines of the sheaves a list operation links or unlinks.
    fn touch_sheaves(&mut self, core: &mut Core, hs: &[SheafId]) {
        for &h in hs {
            core.access(self.line_sh(core, h), Access::Write);
        }
    }

    /// `barn_replace_empty_sheaf(barn, empty)`: swap `empty` for a full sheaf.
    pub(in crate::model) fn barn_replace_empty_sheaf(
        &mut self,
        core: &mut Core,
        pc: &mut barn_replace_empty_sheaf::Pc,
        fr: &mut BarnReplaceEmptySheaf,
    ) -> Flow {
        use barn_replace_empty_sheaf::Pc::*;
        let n = fr.barn;
        match *pc {
            BRE1 => {
                step!(core);
                let nr = self.barn_count(core, n, true);
                note!(
                    core,
                    Load,
                    format!("barn {n}.nr_full"),
                    "barn_replace_empty_sheaf: nr_full reads {nr} (a racy read, not under the lock){}",
                    if nr == 0 { ": no full sheaf to take." } else { "." }
                );
                if nr == 0 {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                *pc = BRE2;
                Flow::Step
            }
            BRE2 => {
                step!(core);
                self.barn_lock(core, fr.barn, &mut fr.saved_irq);
                *pc = BRE3;
                Flow::Step
            }
            BRE3 => {
                step!(core);
                self.check_barn_lock(core, n);
                core.access(SheavesState::line_bn(core, n), Access::Write);
                let empty = need!(core, fr.empty);
                let b = need!(core, self.barn_mut(core, n));
                let full = (!b.full.is_empty()).then(|| b.full.remove(0));
                if let Some(f) = full {
                    // "the number of sheaves doesn't change": the empty limit is not checked.
                    b.empty.insert(0, empty);
                    self.touch_sheaves(core, &[f, empty]);
                }
                fr.full = full;
                note!(
                    core,
                    Store,
                    format!("barn {n}"),
                    "{}",
                    match full {
                        Some(f) => format!(
                            "Under the lock: take the full sheaf {} and leave the empty {} on the empty list.",
                            sheaf_name(f),
                            sheaf_name(empty)
                        ),
                        None => "Under the lock nr_full is 0: the racy read lost. Nothing taken.".into(),
                    }
                );
                *pc = BRE4;
                Flow::Step
            }
            BRE4 => {
                step!(core);
                self.barn_unlock(core, fr.barn, fr.saved_irq);
                Flow::Ret(Ret::new(ret_sheaf(fr.full), None))
            }
        }
    }

    /// `barn_get_empty_sheaf(barn)`: take an empty sheaf, if the barn has one.
    pub(in crate::model) fn barn_get_empty_sheaf(
        &mut self,
        core: &mut Core,
        pc: &mut barn_get_empty_sheaf::Pc,
        fr: &mut BarnGetEmptySheaf,
    ) -> Flow {
        use barn_get_empty_sheaf::Pc::*;
        let n = fr.barn;
        match *pc {
            BGE1 => {
                step!(core);
                let nr = self.barn_count(core, n, false);
                note!(
                    core,
                    Load,
                    format!("barn {n}.nr_empty"),
                    "barn_get_empty_sheaf: nr_empty reads {nr} (racy){}",
                    if nr == 0 { ": none." } else { "." }
                );
                if nr == 0 {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                *pc = BGE2;
                Flow::Step
            }
            BGE2 => {
                step!(core);
                self.barn_lock(core, fr.barn, &mut fr.saved_irq);
                *pc = BGE3;
                Flow::Step
            }
            BGE3 => {
                step!(core);
                self.check_barn_lock(core, n);
                core.access(SheavesState::line_bn(core, n), Access::Write);
                let b = need!(core, self.barn_mut(core, n));
                let e = (!b.empty.is_empty()).then(|| b.empty.remove(0));
                if let Some(e) = e {
                    self.touch_sheaves(core, &[e]);
                }
                fr.empty = e;
                note!(
                    core,
                    Store,
                    format!("barn {n}"),
                    "{}",
                    match e {
                        Some(e) =>
                            format!("Under the lock: take the empty sheaf {}.", sheaf_name(e)),
                        None => "Under the lock the empty list is empty: nothing taken.".into(),
                    }
                );
                *pc = BGE4;
                Flow::Step
            }
            BGE4 => {
                step!(core);
                self.barn_unlock(core, fr.barn, fr.saved_irq);
                Flow::Ret(Ret::new(ret_sheaf(fr.empty), None))
            }
        }
    }

    /// `barn_replace_full_sheaf(barn, full)`: swap `full` for an empty sheaf, unless the
    /// barn holds `MAX_FULL_SHEAVES` full ones (`-E2BIG`) or no empty one (`-ENOMEM`). Both
    /// limits are read without the lock and not checked again under it.
    pub(in crate::model) fn barn_replace_full_sheaf(
        &mut self,
        core: &mut Core,
        pc: &mut barn_replace_full_sheaf::Pc,
        fr: &mut BarnReplaceFullSheaf,
    ) -> Flow {
        use barn_replace_full_sheaf::Pc::*;
        let n = fr.barn;
        match *pc {
            BRF1 => {
                step!(core);
                let nr = self.barn_count(core, n, true);
                let max = Self::sheaf_layout(core).max_full;
                note!(
                    core,
                    Load,
                    format!("barn {n}.nr_full"),
                    "barn_replace_full_sheaf: nr_full reads {nr} (racy){}",
                    if nr >= max {
                        format!(", at MAX_FULL_SHEAVES ({max}): -E2BIG.")
                    } else {
                        ".".into()
                    }
                );
                if nr >= max {
                    fr.err = E2BIG;
                    return Flow::Ret(Ret::new(NULL, None).counted(fr.err));
                }
                *pc = BRF2;
                Flow::Step
            }
            BRF2 => {
                step!(core);
                let nr = self.barn_count(core, n, false);
                note!(
                    core,
                    Load,
                    format!("barn {n}.nr_empty"),
                    "nr_empty reads {nr} (racy){}",
                    if nr == 0 {
                        ": no empty sheaf, -ENOMEM."
                    } else {
                        "."
                    }
                );
                if nr == 0 {
                    fr.err = ENOMEM;
                    return Flow::Ret(Ret::new(NULL, None).counted(fr.err));
                }
                *pc = BRF3;
                Flow::Step
            }
            BRF3 => {
                step!(core);
                self.barn_lock(core, fr.barn, &mut fr.saved_irq);
                *pc = BRF4;
                Flow::Step
            }
            BRF4 => {
                step!(core);
                self.check_barn_lock(core, n);
                core.access(SheavesState::line_bn(core, n), Access::Write);
                let full = need!(core, fr.full);
                let b = need!(core, self.barn_mut(core, n));
                let e = (!b.empty.is_empty()).then(|| b.empty.remove(0));
                if let Some(e) = e {
                    b.full.insert(0, full);
                    self.touch_sheaves(core, &[e, full]);
                } else {
                    fr.err = ENOMEM;
                }
                fr.empty = e;
                note!(
                    core,
                    Store,
                    format!("barn {n}"),
                    "{}",
                    match e {
                        Some(e) => format!(
                            "Under the lock: park the full sheaf {} and take the empty {}.",
                            sheaf_name(full),
                            sheaf_name(e)
                        ),
                        None => "Under the lock no empty sheaf is left: -ENOMEM.".into(),
                    }
                );
                *pc = BRF5;
                Flow::Step
            }
            BRF5 => {
                step!(core);
                self.barn_unlock(core, fr.barn, fr.saved_irq);
                Flow::Ret(Ret::new(ret_sheaf(fr.empty), None).counted(fr.err))
            }
        }
    }

    /// `barn_put_empty_sheaf` / `barn_put_full_sheaf`: link `sheaf` at the head of a list with no
    /// limit check ("used mainly in cases where we have to undo an intended action").
    pub(in crate::model) fn barn_put_sheaf(
        &mut self,
        core: &mut Core,
        pc: &mut barn_put_empty_sheaf::Pc,
        fr: &mut BarnPutSheaf,
        full: bool,
    ) -> Flow {
        use barn_put_empty_sheaf::Pc::*;
        let n = fr.barn;
        match *pc {
            BP1 => {
                step!(core);
                self.barn_lock(core, fr.barn, &mut fr.saved_irq);
                *pc = BP2;
                Flow::Step
            }
            BP2 => {
                step!(core);
                self.check_barn_lock(core, n);
                core.access(SheavesState::line_bn(core, n), Access::Write);
                let h: SheafId = need!(core, fr.sheaf);
                let b = need!(core, self.barn_mut(core, n));
                if full {
                    b.full.insert(0, h);
                } else {
                    b.empty.insert(0, h);
                }
                self.touch_sheaves(core, &[h]);
                note!(
                    core,
                    Store,
                    format!("barn {n}"),
                    "Put the {} sheaf {} on the barn's {} list.",
                    if full { "full" } else { "empty" },
                    sheaf_name(h),
                    if full { "full" } else { "empty" }
                );
                *pc = BP3;
                Flow::Step
            }
            BP3 => {
                step!(core);
                self.barn_unlock(core, fr.barn, fr.saved_irq);
                Flow::Ret(Ret::new(1, None))
            }
        }
    }
}

/// `barn_put_full_sheaf` is `barn_put_empty_sheaf`'s body on the other list: its labels, one for
/// one, run by `barn_put_sheaf` (`full`).
impl From<barn_put_full_sheaf::Pc> for barn_put_empty_sheaf::Pc {
    fn from(pc: barn_put_full_sheaf::Pc) -> Self {
        match pc {
            barn_put_full_sheaf::BP1 => barn_put_empty_sheaf::BP1,
            barn_put_full_sheaf::BP2 => barn_put_empty_sheaf::BP2,
            barn_put_full_sheaf::BP3 => barn_put_empty_sheaf::BP3,
        }
    }
}

impl From<barn_put_empty_sheaf::Pc> for barn_put_full_sheaf::Pc {
    fn from(pc: barn_put_empty_sheaf::Pc) -> Self {
        match pc {
            barn_put_empty_sheaf::BP1 => barn_put_full_sheaf::BP1,
            barn_put_empty_sheaf::BP2 => barn_put_full_sheaf::BP2,
            barn_put_empty_sheaf::BP3 => barn_put_full_sheaf::BP3,
        }
    }
}
