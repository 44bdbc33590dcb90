//! Allocation's slow path of 5.15+: `___slab_alloc` under the local lock (model.md §2.15),
//! `c.*` changed only while it is held.

use super::memory::Access;
use super::state::*;
use super::UnfreezePartials;
use super::{Flow, SlubState, Stat};
use super::{GetFreelist, NewSlab};
use crate::model::locals::SlabAllocSlowLl;
use crate::model::pcs::labels::*;
use crate::model::Core;

impl Locals for SlabAllocSlowLl {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.f == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.pg);
        mark(self.p);
        mark(self.old);
        mark(self.ret.slab);
    }
}

impl SlubState {
    /// 5.15+ `___slab_alloc` (model.md §2.15): `c.*` changes only under the local lock, `c.slab`
    /// re-checked after locking, tid bumped last in every locked section, deactivation after
    /// unlocking. With `cpuPartialFrozen = false` (6.8+) a CPU partial slab is frozen when it
    /// becomes the CPU slab (by `get_freelist`).
    pub(in crate::model) fn slab_alloc_slow_ll(
        &mut self,
        core: &mut Core,
        pc: &mut slab_alloc_slow_ll::Pc,
        fr: &mut SlabAllocSlowLl,
    ) -> Flow {
        use slab_alloc_slow_ll::Pc::*;
        match *pc {
            LL0 => {
                step!(core);
                core.preempt_off();
                core.stat(Stat::ALLOC_SLOWPATH);
                note!(core, PreemptOff, "preempt_count".into(), "5.15+ slow path: get_cpu_ptr (preemption off), ALLOC_SLOWPATH counted at entry.");
                *pc = LL1;
                Flow::Step
            }
            LL1 => {
                step!(core);
                fr.c = core.me();
                note!(
                    core,
                    Pcpu,
                    format!("cpu_slab[{}]", fr.c),
                    "c := this CPU's kmem_cache_cpu (cpu{}).",
                    fr.c
                );
                *pc = LL2;
                Flow::Step
            }
            LL2 => {
                step!(core);
                fr.pg = self.ld_page(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].slab", fr.c),
                    "reread_slab: c->slab is {} (read without the lock).",
                    core.slab_opt_name(fr.pg)
                );
                *pc = if fr.pg.is_some() { LL3 } else { LL20 };
                Flow::Step
            }
            LL3 => {
                if !SlubState::node_ok(core, fr.pg, fr.node) {
                    core.stat(Stat::ALLOC_NODE_MISMATCH);
                    *pc = LL30;
                } else {
                    *pc = LL4;
                }
                Flow::Go
            }
            LL4 | LL21 | LL30 | LL50 => {
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                let cur = core.cur;
                if let Some(cpu) = self.cpu_slab_mut(core, core.cur_cpu) {
                    cpu.local_lock = Some(cur);
                }
                note!(
                    core,
                    LocalLock,
                    format!("cpu_slab[{}].lock", fr.c),
                    "local_lock_irqsave(&c->lock)."
                );
                *pc = match *pc {
                    LL4 => LL5,
                    LL21 => LL22,
                    LL30 => LL31,
                    _ => LL51,
                };
                Flow::Step
            }
            LL5 | LL31 => {
                step!(core);
                let cur = self.ld_page(core, fr.c);
                let same = cur == fr.pg;
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].slab", fr.c),
                    "Re-check c->slab under the lock: {} ({}).",
                    core.slab_opt_name(cur),
                    if same {
                        "unchanged"
                    } else {
                        "changed: unlock and reread"
                    }
                );
                *pc = match (same, *pc) {
                    (false, _) => LLu2,
                    (true, LL5) => LL6,
                    _ => LL32,
                };
                Flow::Step
            }
            LLu2 | LLu20 | LLu25 | LLu40 | LLu37 | LL13 | LL26 | LL8c | LL53 => {
                step!(core);
                if let Some(cpu) = self.cpu_slab_mut(core, core.cur_cpu) {
                    cpu.local_lock = None;
                }
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    LocalUnlock,
                    format!("cpu_slab[{}].lock", fr.c),
                    "local_unlock_irqrestore(&c->lock)."
                );
                *pc = match *pc {
                    LLu2 => LL2,
                    LLu20 => LL20,
                    LLu25 => LL25p,
                    LLu40 => LL40,
                    LLu37 => LL37,
                    LL13 => LL9,
                    LL26 => {
                        core.stat(Stat::CPU_PARTIAL_ALLOC);
                        LL3
                    }
                    LL8c => {
                        core.stat(Stat::DEACTIVATE_BYPASS);
                        LL20
                    }
                    _ => LL54,
                };
                Flow::Step
            }
            LL6 => {
                step!(core);
                fr.f = self.ld_freelist(core, fr.c);
                fr.flag = false;
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "c->freelist is {}.",
                    core.addr_name(fr.f)
                );
                *pc = if fr.f != NULL { LL10 } else { LL7 };
                Flow::Step
            }
            LL7 => {
                *pc = LL8;
                Flow::call(Frame::GetFreelist {
                    pc: get_freelist::G1,
                    l: GetFreelist {
                        slab: need!(core, fr.pg),
                        ..GetFreelist::default()
                    },
                })
            }
            LL8 => {
                fr.f = fr.ret.value;
                if fr.f == NULL {
                    *pc = LL8a;
                } else {
                    core.stat(Stat::ALLOC_REFILL);
                    fr.flag = true;
                    *pc = LL10;
                }
                Flow::Go
            }
            LL8a | LL33 | LL55 => {
                step!(core);
                self.st_page(core, fr.c, None);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].slab", fr.c),
                    "c->slab := NULL."
                );
                *pc = match *pc {
                    LL8a => LL8b,
                    LL33 => LL34,
                    _ => LL56,
                };
                Flow::Step
            }
            LL34 | LL56 => {
                step!(core);
                self.st_freelist(core, fr.c, NULL);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "c->freelist := NULL."
                );
                *pc = if *pc == LL34 { LL35 } else { LL57 };
                Flow::Step
            }
            LL8b | LL35 | LL57 | LL12 => {
                step!(core);
                self.bump_tid(core, fr.c);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].tid", fr.c),
                    "Bump tid to {}: the last write of the locked section.",
                    self.cpu_slab(core, fr.c).tid
                );
                *pc = match *pc {
                    LL8b => LL8c,
                    LL35 => LLu37,
                    LL57 => LL53,
                    _ => LL13,
                };
                Flow::Step
            }
            LL10 => SlubState::s_load_freelist_next(core, pc, fr.f, &mut fr.nxt, LL11),
            LL11 => self.s_store_freelist_next(core, pc, fr.c, fr.nxt, &mut fr.flag, LL12),
            LL9 => {
                step!(core);
                core.preempt_on();
                note!(
                    core,
                    PreemptOn,
                    "preempt_count".into(),
                    "put_cpu_ptr: preemption back on; returning {}.",
                    core.addr_name(fr.f)
                );
                Flow::Ret(Ret::new(fr.f, None))
            }
            // deactivate_slab: label of ___slab_alloc (node mismatch).
            LL32 => {
                step!(core);
                fr.f = self.ld_freelist(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Detach the CPU slab: its freelist is {}.",
                    core.addr_name(fr.f)
                );
                *pc = LL33;
                Flow::Step
            }
            LL37 => {
                *pc = LL20;
                Flow::call(SlubState::deactivate_frame(
                    core,
                    need!(core, fr.pg),
                    fr.f,
                    fr.c,
                ))
            }
            // new_slab: label: try the CPU partial list.
            LL20 => self.s_load_cpu_partial(
                core,
                pc,
                fr.c,
                &mut fr.p,
                LL21,
                LL40,
                "Peek at the CPU partial list (unlocked)",
            ),
            LL22 => {
                step!(core);
                let cur = self.ld_page(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].slab", fr.c),
                    "Under the lock, c->slab is {}.",
                    core.slab_opt_name(cur)
                );
                *pc = if cur.is_some() { LLu2 } else { LL23 };
                Flow::Step
            }
            LL23 => self.s_load_cpu_partial(
                core,
                pc,
                fr.c,
                &mut fr.p,
                LL24,
                LLu40,
                "Under the lock, c->partial is",
            ),
            // 5.15–6.7 install the partial slab at once (`slab = c->slab = ...`) and check
            // its node at `redo`; 6.8+ pops it first and installs it only if it matches.
            LL24 if !core.variant().cpu_partial_frozen => {
                *pc = LL25;
                Flow::Go
            }
            LL24 => self.s_install_cpu_partial(core, pc, fr.c, fr.p, LL25),
            LL25 => {
                step!(core);
                let p = need!(core, fr.p);
                core.access(core.page(p).line, Access::Read);
                let next = self.slab(core, p).next;
                self.st_partial(core, fr.c, next);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "c->partial := {}.",
                    core.slab_opt_name(next)
                );
                fr.pg = fr.p;
                *pc = if core.variant().cpu_partial_frozen {
                    LL26
                } else {
                    LL25n
                };
                Flow::Step
            }
            // 6.8+ `___slab_alloc`: `if (likely(node_match(slab, node) && pfmemalloc_match()))`
            // install it; else unlock, `slab->next = NULL; __put_partials(s, slab)`, loop.
            LL25n => {
                if SlubState::node_ok(core, fr.p, fr.node) {
                    *pc = LL25i;
                } else {
                    *pc = LLu25; // no stat on this path
                }
                Flow::Go
            }
            LL25i => self.s_install_cpu_partial(core, pc, fr.c, fr.p, LL27),
            LL25p => {
                step!(core);
                let p = need!(core, fr.p);
                core.access(core.page(p).line, Access::Write);
                if let Some(sl) = self.slab_mut(core, p) {
                    sl.next = None;
                }
                note!(
                    core,
                    Store,
                    format!("page {}.next", core.slab_name(p)),
                    "{} is on node {}, not the requested one: slab->next := NULL and \
                     __put_partials() gives it back to its node.",
                    core.slab_name(p),
                    core.page(p).node
                );
                *pc = LL20;
                Flow::call(Frame::UnfreezePartials {
                    pc: unfreeze_partials::V3z,
                    l: UnfreezePartials {
                        c: fr.c,
                        p: Some(p),
                        ..UnfreezePartials::default()
                    },
                })
            }
            LL27 => {
                // 6.8+: the CPU partial slab is not frozen; get_freelist freezes it.
                *pc = LL28;
                Flow::call(Frame::GetFreelist {
                    pc: get_freelist::G1,
                    l: GetFreelist {
                        slab: need!(core, fr.pg),
                        ..GetFreelist::default()
                    },
                })
            }
            LL28 => {
                fr.f = fr.ret.value;
                core.stat(Stat::CPU_PARTIAL_ALLOC);
                fr.flag = true;
                *pc = if fr.f == NULL { LL8a } else { LL10 };
                Flow::Go
            }
            // new_objects: get_partial, else new_slab with preemption back on.
            LL40 => {
                let first = fr.node.unwrap_or(core.my_node());
                fr.count = 0;
                fr.n = Some(first);
                *pc = LL41;
                Flow::call(SlubState::get_partial_frame(first, fr.c, false))
            }
            LL41 => {
                if fr.ret.slab.is_some() {
                    fr.f = fr.ret.value;
                    fr.p = fr.ret.slab;
                    fr.flag = true;
                    if fr.f == NULL {
                        // 6.8+: freeze_slab() the unfrozen partial slab.
                        *pc = LL41f;
                        return Flow::call(Frame::GetFreelist {
                            pc: get_freelist::G1,
                            l: GetFreelist {
                                slab: need!(core, fr.p),
                                ..GetFreelist::default()
                            },
                        });
                    }
                    *pc = LL50;
                    return Flow::Go;
                }
                let next = fr.count.saturating_add(1);
                if let Some(n) = Self::any_partial_node(core, fr.n, fr.node, next) {
                    fr.count = next;
                    return Flow::call(SlubState::get_partial_frame(n, fr.c, true));
                }
                fr.n = None;
                *pc = LL42;
                Flow::Go
            }
            LL41f => {
                fr.f = fr.ret.value;
                *pc = LL50;
                Flow::Go
            }
            LL42 => {
                step!(core);
                core.preempt_on();
                note!(
                    core,
                    PreemptOn,
                    "preempt_count".into(),
                    "slub_put_cpu_ptr: new_slab runs with preemption on."
                );
                *pc = LL43;
                Flow::Step
            }
            LL43 => {
                *pc = LL44;
                Flow::call(Frame::NewSlab {
                    pc: new_slab::N1,
                    l: NewSlab {
                        node: fr.node,
                        ..NewSlab::default()
                    },
                })
            }
            LL44 => {
                step!(core);
                core.preempt_off();
                fr.c = core.me();
                fr.p = fr.ret.slab;
                note!(
                    core,
                    PreemptOff,
                    "preempt_count".into(),
                    "slub_get_cpu_ptr: preemption off again, c := cpu{}.",
                    fr.c
                );
                *pc = if fr.p.is_some() { LL45 } else { LL46 };
                Flow::Step
            }
            LL46 => {
                step!(core);
                core.preempt_on();
                note!(
                    core,
                    PreemptOn,
                    "preempt_count".into(),
                    "Out of memory: return NULL."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
            LL45 => {
                step!(core);
                let p = need!(core, fr.p);
                core.access(core.page(p).line, Access::Write);
                fr.f = self.slab(core, p).freelist;
                if let Some(sl) = self.slab_mut(core, p) {
                    sl.freelist = NULL;
                }
                core.stat(Stat::ALLOC_SLAB);
                note!(
                    core,
                    Store,
                    format!("page {}.freelist", core.slab_name(p)),
                    "Take the new slab's freelist ({}...).",
                    core.addr_name(fr.f)
                );
                fr.flag = true;
                *pc = LL50;
                Flow::Step
            }
            // retry_load_slab: install under the lock, flushing a slab installed meanwhile.
            LL51 => {
                step!(core);
                fr.old = self.ld_page(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].slab", fr.c),
                    "retry_load_slab: c->slab is {}.",
                    core.slab_opt_name(fr.old)
                );
                *pc = if fr.old.is_some() { LL52 } else { LL58 };
                Flow::Step
            }
            LL52 => {
                step!(core);
                fr.prior = self.ld_freelist(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Someone installed {} meanwhile: detach it (freelist {}).",
                    core.slab_opt_name(fr.old),
                    core.addr_name(fr.prior)
                );
                *pc = LL55;
                Flow::Step
            }
            LL54 => {
                *pc = LL54r;
                Flow::call(SlubState::deactivate_frame(
                    core,
                    need!(core, fr.old),
                    fr.prior,
                    fr.c,
                ))
            }
            LL54r => {
                core.stat(Stat::CPUSLAB_FLUSH);
                *pc = LL50;
                Flow::Go
            }
            LL58 => {
                step!(core);
                let p = need!(core, fr.p);
                self.st_page(core, fr.c, Some(p));
                if let Some(pg) = core.page_mut(p) {
                    pg.life = Life::Live;
                }
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].slab", fr.c),
                    "c->slab := {}.",
                    core.slab_name(p)
                );
                fr.pg = Some(p);
                *pc = LL10;
                Flow::Step
            }
        }
    }
}
