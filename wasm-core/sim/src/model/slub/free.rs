//! Freeing: the fast path `slab_free` in every era (model.md §2.12, §3.3) and the slow path
//! `__slab_free` (v3.10 §2.13, 3.1's lock-holding retry, and the 6.8+ form of §2.15).

use super::cost;
use super::state::*;
use super::{Flow, SlubState, Stat};
use crate::model::locals::{SlabFree, SlabFreeSlow};
use crate::model::pcs::labels::*;
use crate::model::slab_page::{counters_text, discard_ok};
use crate::model::Core;
use crate::scenario::{Fastpath, FreeRetryLock};

impl Locals for SlabFree {
    fn returned(&mut self, r: Ret) {
        if let Some(ok) = r.ok {
            self.ok = ok;
        }
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.x == a || self.f == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.pg));
    }
}

impl Locals for SlabFreeSlow {
    fn returned(&mut self, r: Ret) {
        if let Some(ok) = r.ok {
            self.ok = ok;
        }
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.x == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.pg));
    }
}

impl SlubState {
    fn call_free_slow(fr: &SlabFree) -> Flow {
        Flow::call(Frame::SlabFreeSlow {
            pc: slab_free_slow::S0,
            l: SlabFreeSlow {
                x: fr.x,
                pg: fr.pg,
                ..SlabFreeSlow::default()
            },
        })
    }

    /// `slab_free` of object `fr.x` (`fr.pg` = its slab, from `virt_to_head_page`).
    pub(in crate::model) fn slab_free(
        &mut self,
        core: &mut Core,
        pc: &mut slab_free::Pc,
        fr: &mut SlabFree,
    ) -> Flow {
        use slab_free::Pc::*;
        let fp = core.fastpath();
        match *pc {
            FreeEntry => {
                *pc = match fp {
                    Fastpath::PreemptDisable => F1,
                    Fastpath::TidLoop | Fastpath::NoTid => FE3a,
                    Fastpath::TidDirect | Fastpath::TidUnguarded => F2,
                    Fastpath::IrqDisable => FE0a,
                    Fastpath::CmpxchgLocal | Fastpath::CmpxchgLocalEmulated => FL0,
                };
                Flow::Go
            }
            F1 => SlubState::s_preempt_off(core, pc, F2, " to read this CPU's tid"),
            F2 => SlubState::s_pcpu(core, pc, &mut fr.c, F3),
            F3 => self.s_read_tid(
                core,
                pc,
                fr.c,
                &mut fr.tid,
                &mut fr.snap,
                if fp == Fastpath::PreemptDisable {
                    F4
                } else {
                    F5
                },
            ),
            F4 => SlubState::s_preempt_on(core, pc, F5),
            FE3a => self.s_this_cpu_read_tid(core, pc, &mut fr.tid, &mut fr.snap, FE3b),
            FE3b => SlubState::s_raw_cpu_ptr(core, pc, &mut fr.c, FE3c, F5),
            FE3c => self.s_recheck_tid(core, pc, fr.c, fr.tid, F5, FE3a),
            F5 => self.s_free_check_page(core, pc, fr, F6, F5s),
            F5s => {
                *pc = F5r;
                Self::call_free_slow(fr)
            }
            F5r => Flow::Ret(Ret::new(NULL, None)),
            F6 => self.s_free_load_freelist(core, pc, fr, F7, false, false),
            F7 => SlubState::s_free_link(
                core,
                pc,
                fr,
                if fp == Fastpath::TidDirect { F8 } else { F7b },
            ),
            // 3.x reads the head again for the CAS: under `no-tid` that read is the value the
            // CAS compares, so INV-12's snapshot is taken here (model.md §5, INV-12).
            F7b => self.s_free_load_freelist(core, pc, fr, F8, fp == Fastpath::NoTid, true),
            F8 => {
                step!(core);
                let k = core.me();
                let with_tid = fp != Fastpath::NoTid;
                let newtid = fr.tid.wrapping_add(core.tid_step());
                let ok = self.pcas2(core, fr.snap, (fr.f, fr.tid), (fr.x, newtid), with_tid);
                self.note_pcas2(core, k, fr.f, fr.tid, fr.x, newtid, with_tid, ok);
                if ok {
                    *pc = F9;
                } else {
                    core.stat(Stat::CMPXCHG_DOUBLE_CPU_FAIL);
                    *pc = FreeEntry;
                }
                Flow::Step
            }
            F9 => {
                core.stat(Stat::FREE_FASTPATH);
                Flow::Ret(Ret::new(NULL, None))
            }
            // E0: irqs off, plain stores.
            FE0a => SlubState::s_irq_save(
                core,
                pc,
                &mut fr.saved_irq,
                FE0b,
                "the free runs with interrupts off",
            ),
            FE0b => SlubState::s_pcpu(core, pc, &mut fr.c, FE0c),
            FE0c => self.s_free_check_page(core, pc, fr, FE0d, FE0s),
            FE0s => {
                *pc = FE0g;
                Self::call_free_slow(fr)
            }
            FE0d => self.s_free_load_freelist(core, pc, fr, FE0e, true, false),
            FE0e => SlubState::s_free_link(core, pc, fr, FE0f),
            FE0f => {
                step!(core);
                self.check_snapshot(core, fr.snap, core.me());
                self.st_freelist(core, fr.c, fr.x);
                core.stat(Stat::FREE_FASTPATH);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "freelist := {}.",
                    core.addr_name(fr.x)
                );
                *pc = FE0g;
                Flow::Step
            }
            FE0g => {
                step!(core);
                core.irq_restore(fr.saved_irq);
                note!(core, IrqOn, "irqs".into(), "local_irq_restore: free done.");
                Flow::Ret(Ret::new(NULL, None))
            }
            // 2008: cmpxchg_local loop with preemption off, no tid.
            FL0 => SlubState::s_preempt_off(core, pc, FL1, " (get_cpu), so c stays this CPU's"),
            FL1 => SlubState::s_pcpu(core, pc, &mut fr.c, FL2),
            FL2 => self.s_free_load_freelist(core, pc, fr, FL3, true, false),
            FL3 => self.s_free_check_page(core, pc, fr, FL4, FLs),
            // The 2007 slow paths disabled interrupts themselves (model.md §4 (i)).
            FLs => SlubState::s_irq_save(
                core,
                pc,
                &mut fr.saved_irq,
                FLs2,
                "the 2007 slow path runs with interrupts off",
            ),
            FLs2 => {
                *pc = FLr;
                Self::call_free_slow(fr)
            }
            FLr => SlubState::s_irq_restore(core, pc, fr.saved_irq, FL6, "back from __slab_free"),
            FL4 => SlubState::s_free_link(
                core,
                pc,
                fr,
                if fp == Fastpath::CmpxchgLocal {
                    FL5
                } else {
                    FL5a
                },
            ),
            FL5 => {
                step!(core);
                let k = fr.c;
                core.atomic(core.cfg.line_cc(k), cost::Id::PercpuCmpxchg);
                let ok = self.cpu_slab(core, k).freelist == fr.f;
                core.set_ok(ok);
                if ok {
                    self.check_snapshot(core, fr.snap, k);
                    if let Some(cpu) = self.cpu_slab_mut(core, k) {
                        cpu.freelist = fr.x;
                        cpu.ghost_version.bump();
                    }
                    core.stat(Stat::FREE_FASTPATH);
                }
                note!(
                    core,
                    CasLocal,
                    format!("cpu_slab[{k}].freelist"),
                    "cmpxchg_local(freelist: {} -> {}) {}.",
                    core.addr_name(fr.f),
                    core.addr_name(fr.x),
                    if ok { "succeeds" } else { "fails: retry" }
                );
                *pc = if ok { FL6 } else { FL2 };
                Flow::Step
            }
            FL5a => SlubState::s_irq_save(
                core,
                pc,
                &mut fr.saved_irq,
                FL5b,
                "the emulated cmpxchg_local starts",
            ),
            FL5b => {
                step!(core);
                let cur = self.ld_freelist(core, fr.c);
                fr.ok = cur == fr.f;
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Compare the head {} with {}.",
                    core.addr_name(cur),
                    core.addr_name(fr.f)
                );
                *pc = FL5c;
                Flow::Step
            }
            FL5c => {
                if !fr.ok {
                    *pc = FL5d;
                    return Flow::Go;
                }
                step!(core);
                self.check_snapshot(core, fr.snap, fr.c);
                self.st_freelist(core, fr.c, fr.x);
                core.stat(Stat::FREE_FASTPATH);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Store the new head {}.",
                    core.addr_name(fr.x)
                );
                *pc = FL5d;
                Flow::Step
            }
            FL5d => SlubState::s_irq_restore(
                core,
                pc,
                fr.saved_irq,
                if fr.ok { FL6 } else { FL2 },
                "the emulated cmpxchg_local ends",
            ),
            FL6 => {
                step!(core);
                core.preempt_on();
                note!(
                    core,
                    PreemptOn,
                    "preempt_count".into(),
                    "put_cpu: preemption back on."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    /// `__slab_free(P, x)`: one double CAS on the slab, `list_lock` only for list changes.
    pub(in crate::model) fn slab_free_slow(
        &mut self,
        core: &mut Core,
        pc: &mut slab_free_slow::Pc,
        fr: &mut SlabFreeSlow,
    ) -> Flow {
        use slab_free_slow::Pc::*;
        let p = fr.pg;
        let v = core.variant().clone();
        let frozen_partials = v.cpu_partial_frozen;
        match *pc {
            S0 => {
                core.stat(Stat::FREE_SLOWPATH);
                fr.n = None;
                *pc = S1;
                Flow::Go
            }
            S1 => {
                if fr.n.is_none() || v.free_retry_lock == FreeRetryLock::Hold {
                    *pc = S2;
                    return Flow::Go;
                }
                step!(core);
                let n = need!(core, fr.n.take());
                core.spin_unlock(n);
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Retry without holding list_lock (3.10+)."
                );
                *pc = S2;
                Flow::Step
            }
            S2 => {
                step!(core);
                (fr.prior, fr.cnt) = self.sp(core).read_slab_pair(p, |core, prior, cnt| {
                    format!(
                        "__slab_free: {}'s freelist is {}, {}.",
                        core.slab_name(p),
                        core.addr_name(prior),
                        counters_text(cnt)
                    )
                });
                *pc = S3;
                Flow::Step
            }
            S3 => {
                step!(core);
                core.store_fp(fr.x, fr.prior);
                let mut new = fr.cnt;
                new.inuse = new.inuse.wrapping_sub(1) & 0xffff;
                fr.flag = fr.cnt.frozen; // was_frozen
                let mut need_lock = false;
                // 3.1–3.9 keep list_lock across retries: with it held, neither freeze nor lock.
                if (new.inuse == 0 || fr.prior == NULL) && !fr.flag && fr.n.is_none() {
                    if frozen_partials && v.cpu_partial && fr.prior == NULL {
                        new.frozen = true;
                    } else if !frozen_partials && v.cpu_partial && fr.prior == NULL {
                        // 6.8+: a full slab's first free goes to the CPU partial list unfrozen.
                    } else {
                        need_lock = true;
                    }
                }
                fr.new = new;
                note!(
                    core,
                    Store,
                    format!("{}.fp", core.addr_name(fr.x)),
                    "Link {} in front of {}'s freelist ({}){}.",
                    core.addr_name(fr.x),
                    core.slab_name(p),
                    core.addr_name(fr.prior),
                    if new.frozen && !fr.flag {
                        "; the slab was full: freeze it for this CPU's partial list"
                    } else if need_lock {
                        "; list work will be needed: take list_lock first"
                    } else {
                        ""
                    }
                );
                *pc = if need_lock && fr.n.is_none() { S4 } else { S5 };
                Flow::Step
            }
            S4 => {
                step!(core);
                let n = core.node_of_slab(p);
                core.irq_save(&mut fr.saved_irq);
                self.spin_lock(core, n);
                fr.n = Some(n);
                fr.lock = self.slab(core, p).on_node_partial;
                note!(core, Lock, format!("node {n}.list_lock"), "spin_lock_irqsave(list_lock) before the CAS, so the list change is atomic with it.");
                *pc = S5;
                Flow::Step
            }
            S5 => self.cas2_site(
                core,
                pc,
                &mut fr.ok,
                p,
                (fr.prior, fr.cnt),
                (fr.x, fr.new),
                true,
                S5r,
            ),
            S5r => {
                if !fr.ok {
                    *pc = S1;
                    return Flow::Go;
                }
                if fr.n.is_some() {
                    *pc = S6;
                    return Flow::Go;
                }
                let was_frozen = fr.flag;
                if frozen_partials {
                    if fr.new.frozen && !was_frozen {
                        *pc = S5p;
                        return Flow::call(SlubState::put_cpu_partial_frame(core, p, true));
                    }
                    if was_frozen {
                        core.stat(Stat::FREE_FROZEN);
                    }
                } else if was_frozen {
                    core.stat(Stat::FREE_FROZEN);
                } else if v.cpu_partial && fr.prior == NULL {
                    *pc = S5p;
                    return Flow::call(SlubState::put_cpu_partial_frame(core, p, true));
                }
                Flow::Ret(Ret::new(NULL, None))
            }
            S5p => {
                core.stat(Stat::CPU_PARTIAL_FREE);
                Flow::Ret(Ret::new(NULL, None))
            }
            S6 => {
                // 3.1 (lock held across retries): the slab may have been frozen meanwhile.
                if fr.flag {
                    core.stat(Stat::FREE_FROZEN);
                    *pc = S8;
                    return Flow::Go;
                }
                // 6.8+: partially empty but not on the node list (it is on a CPU partial list).
                if !frozen_partials && fr.prior != NULL && !fr.lock {
                    *pc = S8;
                    return Flow::Go;
                }
                step!(core);
                let n = need!(core, fr.n);
                let nr = self.sp(core).ld_nr_partial(n);
                let empty = fr.new.inuse == 0 && discard_ok(core, nr);
                note!(
                    core,
                    Load,
                    format!("node {n}.nr_partial"),
                    "nr_partial is {nr}; the slab now has {} object(s) in use{}.",
                    fr.new.inuse,
                    if empty { ": discard it" } else { "" }
                );
                *pc = match (empty, fr.prior != NULL) {
                    (true, true) => S6r,
                    (true, false) => S6u,
                    (false, _) => S7,
                };
                Flow::Step
            }
            S6r => {
                step!(core);
                let n = need!(core, fr.n);
                self.sp(core).remove_partial(n, p);
                core.stat(Stat::FREE_REMOVE_PARTIAL);
                note!(
                    core,
                    ListDel,
                    format!("node {n}.partial"),
                    "remove_partial({}).",
                    core.slab_name(p)
                );
                *pc = S6u;
                Flow::Step
            }
            S6u => {
                step!(core);
                let n = need!(core, fr.n.take());
                core.spin_unlock(n);
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Unlock before giving the page back."
                );
                *pc = S6d;
                Flow::Step
            }
            S6d => {
                step!(core);
                self.discard_slab(core, p);
                core.stat(Stat::FREE_SLAB);
                note!(
                    core,
                    PageFree,
                    format!("page {}", core.slab_name(p)),
                    "discard_slab({}): the empty slab goes back to the page allocator.",
                    core.slab_name(p)
                );
                Flow::Ret(Ret::new(NULL, None))
            }
            S7 => {
                // The slab was full and on no list: it has a free object now. (With CPU
                // partial lists this is reached only when the lock was held across a retry.)
                if fr.prior != NULL {
                    *pc = S8;
                    return Flow::Go;
                }
                step!(core);
                let n = need!(core, fr.n);
                self.sp(core).add_partial(n, p, true);
                core.stat(Stat::FREE_ADD_PARTIAL);
                note!(
                    core,
                    ListAdd,
                    format!("node {n}.partial"),
                    "The full slab {} got a free object: add_partial at the tail.",
                    core.slab_name(p)
                );
                *pc = S8;
                Flow::Step
            }
            S8 => {
                step!(core);
                let n = need!(core, fr.n.take());
                core.spin_unlock(n);
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "spin_unlock_irqrestore(list_lock)."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }
}
