//! The slab's double CAS at its call sites (model.md §2.2): `cas2_site` takes the native
//! LOCK'd `cmpxchg16b` as one step, or calls `cmpxchg_double_slab` (X1–X6), the fallback under
//! the `slab_lock` bit spinlock when the machine has no double-word CAS.

use super::cost;
use super::memory::Access;
use super::state::*;
use super::{Flow, Machine, Stat};
use crate::model::pcs::labels::*;
use crate::model::slab_page::{counters_text, Counters};
use crate::scenario::CmpxchgDouble;

/// `cmpxchg_double_slab` under `slab_lock`: slab `pg`, expected (`f`, `cnt`), new (`nxt`, `new`); `drain` the irq-saving entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CmpxchgDoubleSlab {
    pub nxt: Addr,
    pub f: Addr,
    pub pg: SlabId,
    pub cnt: Counters,
    pub new: Counters,
    pub saved_irq: bool,
    pub ok: bool,
    pub flag: bool,
    pub drain: bool,
}

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

impl Machine {
    /// A slab double CAS at a call site: the native LOCK'd `cmpxchg16b` is one step here;
    /// the `slab-lock` fallback is a call of `cmpxchg_double_slab` (X1–X6). Either way the
    /// result lands in `fr.ok` (the call's return, `Ret::ok`) and execution resumes at
    /// `resume`. `irqsave` selects the entry point that disables interrupts itself (callers
    /// running with irqs on).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::model) fn cas2_site<P: Copy>(
        &mut self,
        pc: &mut P,
        result: &mut bool,
        s: SlabId,
        old: (Addr, Counters),
        new: (Addr, Counters),
        irqsave: bool,
        resume: P,
    ) -> Flow {
        if self.core.variant().cmpxchg_double == CmpxchgDouble::SlabLock {
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
                    drain: irqsave || self.core.cpu(self.core.me()).irqs_on,
                    ..CmpxchgDoubleSlab::default()
                },
            });
        }
        step!(self.core);
        let ok = self.cas2_native(s, old, new);
        *result = ok;
        note!(
            self.core,
            Cas2,
            self.slab_pair_name(s),
            "cmpxchg_double on {}: ({}, {}) -> ({}, {}) {}.",
            self.core.slab_name(s),
            self.core.addr_name(old.0),
            counters_text(old.1),
            self.core.addr_name(new.0),
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
        pc: &mut cmpxchg_double_slab::Pc,
        fr: &mut CmpxchgDoubleSlab,
    ) -> Flow {
        use cmpxchg_double_slab::Pc::*;
        let s = fr.pg;
        match *pc {
            X1 => {
                if !fr.drain || !self.core.cpu(self.core.me()).irqs_on {
                    fr.flag = false;
                    *pc = X2;
                    return Flow::Go;
                }
                step!(self.core);
                self.core.irq_save(&mut fr.saved_irq);
                fr.flag = true;
                note!(
                    self.core,
                    IrqOff,
                    "irqs".into(),
                    "cmpxchg_double_slab: interrupts off around the slab_lock fallback."
                );
                *pc = X2;
                Flow::Step
            }
            X2 => {
                step!(self.core);
                self.core.atomic(self.core.page(s).line, cost::Id::SpinLock);
                let cur = self.core.cur;
                if let Some(sl) = self.slab_mut(s) {
                    sl.slab_lock = Some(cur);
                }
                note!(
                    self.core,
                    BitLock,
                    format!("page {}.flags", self.core.slab_name(s)),
                    "slab_lock({}): take the page's bit spinlock.",
                    self.core.slab_name(s)
                );
                *pc = X3;
                Flow::Step
            }
            X3 => {
                step!(self.core);
                self.core.access(self.core.page(s).line, Access::Read);
                let (fl, cnt) = (self.slab(s).freelist, self.slab(s).counters);
                fr.ok = fl == fr.f && cnt == fr.cnt;
                note!(
                    self.core,
                    Load,
                    self.slab_pair_name(s),
                    "Under slab_lock: ({}, {}) {} the expected ({}, {}).",
                    self.core.addr_name(fl),
                    counters_text(cnt),
                    if fr.ok { "match" } else { "do not match" },
                    self.core.addr_name(fr.f),
                    counters_text(fr.cnt)
                );
                if !fr.ok {
                    if self.core.recording() {
                        let h = vec![
                            crate::event::CasHalf {
                                field: "freelist".into(),
                                expected: self.core.addr_name(fr.f),
                                actual: self.core.addr_name(fl),
                            },
                            crate::event::CasHalf {
                                field: "counters".into(),
                                expected: counters_text(fr.cnt),
                                actual: counters_text(cnt),
                            },
                        ];
                        self.core.ev_halves(h);
                    }
                    self.core.stat(Stat::CMPXCHG_DOUBLE_FAIL);
                }
                *pc = X4;
                Flow::Step
            }
            X4 => {
                if !fr.ok {
                    *pc = X5;
                    return Flow::Go;
                }
                step!(self.core);
                self.core.access(self.core.page(s).line, Access::Write);
                let sl = need!(self.core, self.slab_mut(s));
                sl.freelist = fr.nxt;
                sl.counters = fr.new;
                note!(
                    self.core,
                    Store,
                    self.slab_pair_name(s),
                    "Store freelist {} and {}.",
                    self.core.addr_name(fr.nxt),
                    counters_text(fr.new)
                );
                *pc = X5;
                Flow::Step
            }
            X5 => {
                step!(self.core);
                self.core.access(self.core.page(s).line, Access::Write);
                if let Some(sl) = self.slab_mut(s) {
                    sl.slab_lock = None;
                }
                note!(
                    self.core,
                    BitUnlock,
                    format!("page {}.flags", self.core.slab_name(s)),
                    "slab_unlock({}).",
                    self.core.slab_name(s)
                );
                *pc = X6;
                Flow::Step
            }
            X6 => {
                if !fr.flag {
                    return Flow::Ret(Ret::ok(fr.ok));
                }
                step!(self.core);
                self.core.irq_restore(fr.saved_irq);
                note!(self.core, IrqOn, "irqs".into(), "Interrupts restored.");
                Flow::Ret(Ret::ok(fr.ok))
            }
        }
    }
}
