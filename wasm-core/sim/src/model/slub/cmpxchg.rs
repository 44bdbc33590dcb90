//! The slab's double CAS at its call sites (model.md §2.2): `cas2_site` takes the native
//! LOCK'd `cmpxchg16b` as one step, or calls `cmpxchg_double_slab` (X1–X6), the fallback under
//! the `slab_lock` bit spinlock when the machine has no double-word CAS.

use super::cost;
use super::memory::Access;
use super::state::*;
use super::{Flow, SlubState, Stat};
use crate::model::locals::CmpxchgDoubleSlab;
use crate::model::pcs::labels::*;
use crate::model::slab_page::{counters_text, slab_pair_name, Counters};
use crate::model::Core;
use crate::scenario::CmpxchgDouble;

impl Locals for CmpxchgDoubleSlab {
    fn returned(&mut self, r: Ret) {
        if let Some(ok) = r.ok {
            self.ok = ok;
        }
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.f == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.pg));
    }
}

impl SlubState {
    /// A slab double CAS at a call site: the native LOCK'd `cmpxchg16b` is one step here;
    /// the `slab-lock` fallback is a call of `cmpxchg_double_slab` (X1–X6). Either way the
    /// result lands in `fr.ok` (the call's return, `Ret::ok`) and execution resumes at
    /// `resume`. `irqsave` selects the entry point that disables interrupts itself (callers
    /// running with irqs on).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::model) fn cas2_site<P: Copy>(
        &mut self,
        core: &mut Core,
        pc: &mut P,
        result: &mut bool,
        s: SlabId,
        old: (Addr, Counters),
        new: (Addr, Counters),
        irqsave: bool,
        resume: P,
    ) -> Flow {
        if core.variant().cmpxchg_double == CmpxchgDouble::SlabLock {
            *pc = resume;
            return Flow::call(Frame::CmpxchgDoubleSlab {
                pc: cmpxchg_double_slab::X1,
                l: CmpxchgDoubleSlab {
                    pg: s,
                    f: old.0,
                    cnt: old.1,
                    nxt: new.0,
                    new: new.1,
                    // A caller running with interrupts on (5.15+ deactivate_slab after the
                    // flush or the slow path unlocked) uses the irq-saving cmpxchg_double_slab,
                    // as the kernel's slab_update_freelist does: the slab_lock is never held
                    // with irqs on.
                    drain: irqsave || core.cpu(core.me()).irqs_on,
                    ..CmpxchgDoubleSlab::default()
                },
            });
        }
        step!(core);
        let ok = self.sp(core).cas2_native(s, old, new);
        *result = ok;
        note!(
            core,
            Cas2,
            slab_pair_name(core, s),
            "cmpxchg_double on {}: ({}, {}) -> ({}, {}) {}.",
            core.slab_name(s),
            core.addr_name(old.0),
            counters_text(old.1),
            core.addr_name(new.0),
            counters_text(new.1),
            if ok {
                "succeeds"
            } else {
                "fails: someone changed the slab; re-read and retry"
            }
        );
        *pc = resume;
        Flow::Step
    }

    /// `cmpxchg_double_slab` without a double-word CAS: the `slab_lock` bit spinlock.
    pub(in crate::model) fn cmpxchg_double_slab(
        &mut self,
        core: &mut Core,
        pc: &mut cmpxchg_double_slab::Pc,
        fr: &mut CmpxchgDoubleSlab,
    ) -> Flow {
        use cmpxchg_double_slab::Pc::*;
        let s = fr.pg;
        match *pc {
            X1 => {
                if !fr.drain || !core.cpu(core.me()).irqs_on {
                    fr.flag = false;
                    *pc = X2;
                    return Flow::Go;
                }
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                fr.flag = true;
                note!(
                    core,
                    IrqOff,
                    "irqs".into(),
                    "cmpxchg_double_slab: interrupts off around the slab_lock fallback."
                );
                *pc = X2;
                Flow::Step
            }
            X2 => {
                step!(core);
                core.atomic(core.page(s).line, cost::Id::SpinLock);
                let cur = core.cur;
                if let Some(sl) = self.slab_mut(core, s) {
                    sl.slab_lock = Some(cur);
                }
                note!(
                    core,
                    BitLock,
                    format!("page {}.flags", core.slab_name(s)),
                    "slab_lock({}): take the page's bit spinlock.",
                    core.slab_name(s)
                );
                *pc = X3;
                Flow::Step
            }
            X3 => {
                step!(core);
                core.access(core.page(s).line, Access::Read);
                let (fl, cnt) = (self.slab(core, s).freelist, self.slab(core, s).counters);
                fr.ok = fl == fr.f && cnt == fr.cnt;
                note!(
                    core,
                    Load,
                    slab_pair_name(core, s),
                    "Under slab_lock: ({}, {}) {} the expected ({}, {}).",
                    core.addr_name(fl),
                    counters_text(cnt),
                    if fr.ok { "match" } else { "do not match" },
                    core.addr_name(fr.f),
                    counters_text(fr.cnt)
                );
                if !fr.ok {
                    if core.recording() {
                        let h = vec![
                            crate::event::CasHalf {
                                field: "freelist".into(),
                                expected: core.addr_name(fr.f),
                                actual: core.addr_name(fl),
                            },
                            crate::event::CasHalf {
                                field: "counters".into(),
                                expected: counters_text(fr.cnt),
                                actual: counters_text(cnt),
                            },
                        ];
                        core.ev_halves(h);
                    }
                    core.stat(Stat::CMPXCHG_DOUBLE_FAIL);
                }
                *pc = X4;
                Flow::Step
            }
            X4 => {
                if !fr.ok {
                    *pc = X5;
                    return Flow::Go;
                }
                step!(core);
                core.access(core.page(s).line, Access::Write);
                let sl = need!(core, self.slab_mut(core, s));
                sl.freelist = fr.nxt;
                sl.counters = fr.new;
                note!(
                    core,
                    Store,
                    slab_pair_name(core, s),
                    "Store freelist {} and {}.",
                    core.addr_name(fr.nxt),
                    counters_text(fr.new)
                );
                *pc = X5;
                Flow::Step
            }
            X5 => {
                step!(core);
                core.access(core.page(s).line, Access::Write);
                if let Some(sl) = self.slab_mut(core, s) {
                    sl.slab_lock = None;
                }
                note!(
                    core,
                    BitUnlock,
                    format!("page {}.flags", core.slab_name(s)),
                    "slab_unlock({}).",
                    core.slab_name(s)
                );
                *pc = X6;
                Flow::Step
            }
            X6 => {
                if !fr.flag {
                    return Flow::Ret(Ret::ok(fr.ok));
                }
                step!(core);
                core.irq_restore(fr.saved_irq);
                note!(core, IrqOn, "irqs".into(), "Interrupts restored.");
                Flow::Ret(Ret::ok(fr.ok))
            }
        }
    }
}
