//! Flushing a CPU's slabs (model.md §2.11): `flush_slab`, which deactivates the CPU slab,
//! and `__flush_cpu_slab` (`flush_cpu_slab` here), the work `flush_all` and CPU hotplug run on
//! a CPU: its CPU slab, then its CPU partial list.

use super::memory::Access;
use super::state::*;
use super::UnfreezePartials;
use super::{Flow, SlubState, Stat};
use crate::model::locals::{FlushCpuSlab, FlushSlab};
use crate::model::pcs::labels::*;
use crate::model::Core;
use crate::scenario::{Fastpath, Slowpath};

impl Locals for FlushSlab {
    fn holds_addr(&self, a: Addr) -> bool {
        self.f == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.pg);
    }
}

impl Locals for FlushCpuSlab {
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.pg);
        mark(self.p);
    }
}

impl SlubState {
    /// `flush_slab(c)`: deactivate CPU c's slab and clear `c.page`/`c.freelist`, in the
    /// write order of the era (3.10: deactivate, tid, page, freelist; 3.1: tid and page
    /// first; 5.15+: detach under the local lock with tid last, deactivate after).
    pub(in crate::model) fn flush_slab(
        &mut self,
        core: &mut Core,
        pc: &mut flush_slab::Pc,
        fr: &mut FlushSlab,
    ) -> Flow {
        use flush_slab::Pc::*;
        let c = fr.c;
        let v = core.variant().clone();
        match *pc {
            W1 => {
                // 5.15+ count CPUSLAB_FLUSH after the deactivation (K8).
                if v.slowpath == Slowpath::LocalLock {
                    *pc = K1;
                    return Flow::Go;
                }
                core.stat(Stat::CPUSLAB_FLUSH);
                *pc = if v.fastpath == Fastpath::TidUnguarded {
                    T1
                } else {
                    W2
                };
                Flow::Go
            }
            W2 => {
                // c->page and c->freelist in one step: with this CPU's interrupts off nobody
                // else writes them (remote CPUs only read them; a dead CPU's survivor runs
                // only once the dead CPU's contexts have finished), so the two loads see the
                // same values whichever steps fall between them.
                step!(core);
                fr.pg = self.ld_page(core, c);
                fr.f = self.cpu_slab(core, c).freelist;
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{c}].(page,freelist)"),
                    "flush_slab: cpu{c}'s slab {} with freelist {}.",
                    core.slab_opt_name(fr.pg),
                    core.addr_name(fr.f)
                );
                *pc = W2c;
                Flow::Step
            }
            W2c => {
                *pc = W3;
                match fr.pg {
                    Some(p) => Flow::call(Self::deactivate_frame(core, p, fr.f, c)),
                    None => Flow::Go,
                }
            }
            W3 | T2 | K5 => {
                step!(core);
                self.bump_tid(core, c);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{c}].tid"),
                    "Bump cpu{c}'s tid to {}.",
                    self.cpu_slab(core, c).tid
                );
                *pc = match *pc {
                    W3 => W4,
                    T2 => T3,
                    _ => K6,
                };
                Flow::Step
            }
            W4 | T3 | K3 => {
                step!(core);
                self.st_page(core, c, None);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{c}].page"),
                    "c->page := NULL."
                );
                *pc = match *pc {
                    W4 => W4b,
                    T3 => T4,
                    _ => K4,
                };
                Flow::Step
            }
            W4b | K4 => {
                step!(core);
                self.st_freelist(core, c, NULL);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{c}].freelist"),
                    "c->freelist := NULL."
                );
                if *pc == W4b {
                    return {
                        *pc = W9;
                        Flow::Step
                    };
                }
                *pc = K5;
                Flow::Step
            }
            W9 => Flow::Ret(Ret::new(NULL, None)),
            // 3.1 order: tid first, then page, then freelist; deactivate last.
            T1 => {
                step!(core);
                fr.pg = self.ld_page(core, c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{c}].page"),
                    "3.1 flush: cpu{c}'s slab is {}.",
                    core.slab_opt_name(fr.pg)
                );
                *pc = T2;
                Flow::Step
            }
            T4 => {
                step!(core);
                fr.f = self.ld_freelist(core, c);
                core.access(core.cfg.line_cc(c), Access::Write);
                let cpu = need!(core, self.cpu_slab_mut(core, c));
                cpu.freelist = NULL;
                cpu.ghost_version.bump();
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{c}].freelist"),
                    "Take cpu{c}'s freelist {} and clear it.",
                    core.addr_name(fr.f)
                );
                *pc = K7;
                Flow::Step
            }
            // 5.15+: detach under the local lock.
            K1 => {
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                let cur = core.cur;
                if let Some(cpu) = self.cpu_slab_mut(core, c) {
                    cpu.local_lock = Some(cur);
                }
                note!(
                    core,
                    LocalLock,
                    format!("cpu_slab[{c}].lock"),
                    "flush_slab: local_lock_irqsave."
                );
                *pc = K2;
                Flow::Step
            }
            K2 => {
                step!(core);
                fr.pg = self.ld_page(core, c);
                fr.f = self.cpu_slab(core, c).freelist;
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{c}].(slab,freelist)"),
                    "Detach slab {} with freelist {}.",
                    core.slab_opt_name(fr.pg),
                    core.addr_name(fr.f)
                );
                *pc = K3;
                Flow::Step
            }
            K6 => {
                step!(core);
                if let Some(cpu) = self.cpu_slab_mut(core, c) {
                    cpu.local_lock = None;
                }
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    LocalUnlock,
                    format!("cpu_slab[{c}].lock"),
                    "local_unlock_irqrestore; deactivate outside the lock."
                );
                *pc = K7;
                Flow::Step
            }
            K7 => {
                *pc = K8;
                match fr.pg {
                    Some(p) => Flow::call(Self::deactivate_frame(core, p, fr.f, c)),
                    None => Flow::Go,
                }
            }
            K8 => {
                // (The 3.1 order, T1–T4, joins at K7 and counted at W1.)
                if fr.pg.is_some() && v.slowpath == Slowpath::LocalLock {
                    core.stat(Stat::CPUSLAB_FLUSH);
                }
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    /// The `flush` op: `__flush_cpu_slab(cpu)` with interrupts off (model.md §2.11).
    pub(in crate::model) fn flush_cpu_slab(
        &mut self,
        core: &mut Core,
        pc: &mut flush_cpu_slab::Pc,
        fr: &mut FlushCpuSlab,
    ) -> Flow {
        use flush_cpu_slab::Pc::*;
        match *pc {
            FC0 if core.variant().slowpath == Slowpath::LocalLock => {
                // 5.15+: flush_cpu_slab runs from a work item bound to its CPU (migration
                // off) with interrupts on; slub_cpu_dead (a survivor flushing a dead CPU)
                // needs no irq disabling either. Only the detaches take the local lock.
                step!(core);
                core.preempt_off();
                if fr.flag {
                    fr.c = core.me();
                }
                note!(
                    core,
                    PreemptOff,
                    "preempt_count".into(),
                    "flush_cpu_slab(cpu{}) from a work item: interrupts stay on.",
                    fr.c
                );
                *pc = FC2;
                Flow::Step
            }
            FC0 => {
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                if fr.flag {
                    fr.c = core.me();
                }
                note!(
                    core,
                    IrqOff,
                    "irqs".into(),
                    "__flush_cpu_slab(cpu{}) with interrupts off.",
                    fr.c
                );
                *pc = FC2;
                Flow::Step
            }
            FC2 => {
                step!(core);
                fr.pg = self.ld_page(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].page", fr.c),
                    "cpu{}'s slab is {}.",
                    fr.c,
                    core.slab_opt_name(fr.pg)
                );
                *pc = FC2c;
                Flow::Step
            }
            FC2c => {
                *pc = FC3;
                if fr.pg.is_some() {
                    return Flow::call(Frame::FlushSlab {
                        pc: flush_slab::W1,
                        l: FlushSlab {
                            c: fr.c,
                            ..FlushSlab::default()
                        },
                    });
                }
                Flow::Go
            }
            // 5.15+ unfreeze_partials / put_partials: detach c->partial under the local lock,
            // walk it after unlocking (a dead CPU's survivor detaches without the lock).
            FC3 if core.variant().slowpath == Slowpath::LocalLock
                && core.variant().cpu_partial
                && fr.flag =>
            {
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                let cur = core.cur;
                if let Some(cpu) = self.cpu_slab_mut(core, fr.c) {
                    cpu.local_lock = Some(cur);
                }
                note!(
                    core,
                    LocalLock,
                    format!("cpu_slab[{}].lock", fr.c),
                    "put_partials: local_lock_irqsave."
                );
                *pc = FC3p;
                Flow::Step
            }
            FC3p => {
                step!(core);
                fr.p = self.ld_partial(core, fr.c);
                self.st_partial(core, fr.c, None);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "Detach the CPU partial list {} (c->partial := NULL).",
                    core.slab_opt_name(fr.p)
                );
                *pc = FC3u;
                Flow::Step
            }
            FC3u => {
                step!(core);
                if let Some(cpu) = self.cpu_slab_mut(core, fr.c) {
                    cpu.local_lock = None;
                }
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    LocalUnlock,
                    format!("cpu_slab[{}].lock", fr.c),
                    "local_unlock_irqrestore; walk the list with interrupts on."
                );
                *pc = FC4;
                match fr.p {
                    Some(p) => Flow::call(Frame::UnfreezePartials {
                        pc: unfreeze_partials::V3z,
                        l: UnfreezePartials {
                            c: fr.c,
                            p: Some(p),
                            ..UnfreezePartials::default()
                        },
                    }),
                    None => Flow::Step,
                }
            }
            FC3 => {
                *pc = FC4;
                if core.variant().cpu_partial {
                    return Flow::call(Frame::UnfreezePartials {
                        pc: unfreeze_partials::V1,
                        l: UnfreezePartials {
                            c: fr.c,
                            ..UnfreezePartials::default()
                        },
                    });
                }
                Flow::Go
            }
            FC4 if core.variant().slowpath == Slowpath::LocalLock => {
                step!(core);
                core.preempt_on();
                note!(
                    core,
                    PreemptOn,
                    "preempt_count".into(),
                    "Flush of cpu{} done.",
                    fr.c
                );
                Flow::Ret(Ret::new(NULL, None))
            }
            FC4 => {
                step!(core);
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    IrqOn,
                    "irqs".into(),
                    "Flush of cpu{} done; interrupts restored.",
                    fr.c
                );
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }
}
