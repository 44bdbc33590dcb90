//! Freeing: the fast path `slab_free` in every era (spec §2.12, §3.3) and the slow path
//! `__slab_free` (v3.10 §2.13, 3.1's lock-holding retry, and the 6.8+ form of §2.15).

use super::cost;
use super::counters_text;
use super::memory::Access;
use super::state::*;
use super::{Flow, Machine, Pc, Stat};
use crate::model::pcs::labels::*;
use crate::scenario::{Fastpath, FreeRetryLock};

impl Machine {
    fn call_free_slow(&self, fr: &Shared) -> Flow {
        let mut f = Shared::new(slab_free_slow::S0);
        f.x = fr.x;
        f.pg = fr.pg;
        Flow::Call(Box::new(f.into()))
    }

    /// `slab_free` of object `fr.x` (`fr.pg` = its slab, from `virt_to_head_page`).
    pub(in crate::model) fn slab_free(&mut self, fr: &mut Shared, pc: slab_free::Pc) -> Flow {
        use slab_free::Pc::*;
        let fp = self.fastpath();
        match pc {
            FreeEntry => {
                fr.pc = Pc::from(match fp {
                    Fastpath::PreemptDisable => F1,
                    Fastpath::TidLoop | Fastpath::NoTid => FE3a,
                    Fastpath::TidDirect | Fastpath::TidUnguarded => F2,
                    Fastpath::IrqDisable => FE0a,
                    Fastpath::CmpxchgLocal | Fastpath::CmpxchgLocalEmulated => FL0,
                });
                Flow::Go
            }
            F1 => self.s_preempt_off(fr, F2, " to read this CPU's tid"),
            F2 => self.s_pcpu(fr, F3),
            F3 => self.s_read_tid(
                fr,
                if fp == Fastpath::PreemptDisable {
                    F4
                } else {
                    F5
                },
            ),
            F4 => self.s_preempt_on(fr, F5),
            FE3a => self.s_this_cpu_read_tid(fr, FE3b),
            FE3b => self.s_raw_cpu_ptr(fr, FE3c, F5),
            FE3c => self.s_recheck_tid(fr, F5, FE3a),
            F5 => self.s_free_check_page(fr, F6, F5s),
            F5s => {
                fr.pc = F5r.into();
                self.call_free_slow(fr)
            }
            F5r => Flow::Ret(Ret::new(NULL, None)),
            F6 => self.s_free_load_freelist(fr, F7, false, false),
            F7 => self.s_free_link(fr, if fp == Fastpath::TidDirect { F8 } else { F7b }),
            // 3.x reads the head again for the CAS: under `no-tid` that read is the value the
            // CAS compares, so INV-12's snapshot is taken here (spec INV-12).
            F7b => self.s_free_load_freelist(fr, F8, fp == Fastpath::NoTid, true),
            F8 => {
                step!(self);
                let k = self.me();
                let with_tid = fp != Fastpath::NoTid;
                let newtid = fr.tid.wrapping_add(self.tid_step());
                let ok = self.pcas2(fr, (fr.f, fr.tid), (fr.x, newtid), with_tid);
                self.note_pcas2(k, fr.f, fr.tid, fr.x, newtid, with_tid, ok);
                if ok {
                    fr.pc = F9.into();
                } else {
                    self.stat(Stat::CMPXCHG_DOUBLE_CPU_FAIL);
                    fr.pc = FreeEntry.into();
                }
                Flow::Step
            }
            F9 => {
                self.stat(Stat::FREE_FASTPATH);
                Flow::Ret(Ret::new(NULL, None))
            }
            // E0: irqs off, plain stores.
            FE0a => self.s_irq_save(fr, FE0b, "the free runs with interrupts off"),
            FE0b => self.s_pcpu(fr, FE0c),
            FE0c => self.s_free_check_page(fr, FE0d, FE0s),
            FE0s => {
                fr.pc = FE0g.into();
                self.call_free_slow(fr)
            }
            FE0d => self.s_free_load_freelist(fr, FE0e, true, false),
            FE0e => self.s_free_link(fr, FE0f),
            FE0f => {
                step!(self);
                self.check_snapshot(fr, self.me());
                self.st_freelist(fr.c, fr.x);
                self.stat(Stat::FREE_FASTPATH);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "freelist := {}.",
                    self.addr_name(fr.x)
                );
                fr.pc = FE0g.into();
                Flow::Step
            }
            FE0g => {
                step!(self);
                self.irq_restore(fr.saved_irq);
                note!(self, IrqOn, "irqs".into(), "local_irq_restore: free done.");
                Flow::Ret(Ret::new(NULL, None))
            }
            // 2008: cmpxchg_local loop with preemption off, no tid.
            FL0 => self.s_preempt_off(fr, FL1, " (get_cpu), so c stays this CPU's"),
            FL1 => self.s_pcpu(fr, FL2),
            FL2 => self.s_free_load_freelist(fr, FL3, true, false),
            FL3 => self.s_free_check_page(fr, FL4, FLs),
            // The 2007 slow paths disabled interrupts themselves (spec §4 (i)).
            FLs => self.s_irq_save(fr, FLs2, "the 2007 slow path runs with interrupts off"),
            FLs2 => {
                fr.pc = FLr.into();
                self.call_free_slow(fr)
            }
            FLr => self.s_irq_restore(fr, FL6, "back from __slab_free"),
            FL4 => self.s_free_link(
                fr,
                if fp == Fastpath::CmpxchgLocal {
                    FL5
                } else {
                    FL5a
                },
            ),
            FL5 => {
                step!(self);
                let k = fr.c;
                self.atomic(self.cfg.line_cc(k), cost::Id::PercpuCmpxchg);
                let ok = self.cpu_slab(k).freelist == fr.f;
                self.set_ok(ok);
                if ok {
                    self.check_snapshot(fr, k);
                    if let Some(cpu) = self.cpu_slab_mut(k) {
                        cpu.freelist = fr.x;
                        cpu.ghost_version.bump();
                    }
                    self.stat(Stat::FREE_FASTPATH);
                }
                note!(
                    self,
                    CasLocal,
                    format!("cpu_slab[{k}].freelist"),
                    "cmpxchg_local(freelist: {} -> {}) {}.",
                    self.addr_name(fr.f),
                    self.addr_name(fr.x),
                    if ok { "succeeds" } else { "fails: retry" }
                );
                fr.pc = Pc::from(if ok { FL6 } else { FL2 });
                Flow::Step
            }
            FL5a => self.s_irq_save(fr, FL5b, "the emulated cmpxchg_local starts"),
            FL5b => {
                step!(self);
                let cur = self.ld_freelist(fr.c);
                fr.ok = cur == fr.f;
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Compare the head {} with {}.",
                    self.addr_name(cur),
                    self.addr_name(fr.f)
                );
                fr.pc = FL5c.into();
                Flow::Step
            }
            FL5c => {
                if !fr.ok {
                    fr.pc = FL5d.into();
                    return Flow::Go;
                }
                step!(self);
                self.check_snapshot(fr, fr.c);
                self.st_freelist(fr.c, fr.x);
                self.stat(Stat::FREE_FASTPATH);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Store the new head {}.",
                    self.addr_name(fr.x)
                );
                fr.pc = FL5d.into();
                Flow::Step
            }
            FL5d => self.s_irq_restore(
                fr,
                if fr.ok { FL6 } else { FL2 },
                "the emulated cmpxchg_local ends",
            ),
            FL6 => {
                step!(self);
                self.preempt_on();
                note!(
                    self,
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
        fr: &mut Shared,
        pc: slab_free_slow::Pc,
    ) -> Flow {
        use slab_free_slow::Pc::*;
        let p = need!(self, fr.pg);
        let v = self.variant().clone();
        let frozen_partials = v.cpu_partial_frozen;
        match pc {
            S0 => {
                self.stat(Stat::FREE_SLOWPATH);
                fr.n = None;
                fr.pc = S1.into();
                Flow::Go
            }
            S1 => {
                if fr.n.is_none() || v.free_retry_lock == FreeRetryLock::Hold {
                    fr.pc = S2.into();
                    return Flow::Go;
                }
                step!(self);
                let n = need!(self, fr.n.take());
                self.spin_unlock(n);
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Retry without holding list_lock (3.10+)."
                );
                fr.pc = S2.into();
                Flow::Step
            }
            S2 => {
                step!(self);
                let (prior, cnt) = self.ld_slab_pair(p);
                fr.prior = prior;
                fr.cnt = cnt;
                note!(
                    self,
                    Load,
                    format!("page {}.(freelist,counters)", self.slab_name(p)),
                    "__slab_free: {}'s freelist is {}, {}.",
                    self.slab_name(p),
                    self.addr_name(prior),
                    counters_text(cnt)
                );
                fr.pc = S3.into();
                Flow::Step
            }
            S3 => {
                step!(self);
                self.store_fp(fr.x, fr.prior);
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
                    self,
                    Store,
                    format!("{}.fp", self.addr_name(fr.x)),
                    "Link {} in front of {}'s freelist ({}){}.",
                    self.addr_name(fr.x),
                    self.slab_name(p),
                    self.addr_name(fr.prior),
                    if new.frozen && !fr.flag {
                        "; the slab was full: freeze it for this CPU's partial list"
                    } else if need_lock {
                        "; list work will be needed: take list_lock first"
                    } else {
                        ""
                    }
                );
                fr.pc = Pc::from(if need_lock && fr.n.is_none() { S4 } else { S5 });
                Flow::Step
            }
            S4 => {
                step!(self);
                let n = self.node_of_slab(p);
                self.irq_save(&mut fr.saved_irq);
                self.spin_lock(n);
                fr.n = Some(n);
                fr.lock = self.slab(p).on_node_partial;
                note!(self, Lock, format!("node {n}.list_lock"), "spin_lock_irqsave(list_lock) before the CAS, so the list change is atomic with it.");
                fr.pc = S5.into();
                Flow::Step
            }
            S5 => self.cas2_site(fr, p, (fr.prior, fr.cnt), (fr.x, fr.new), true, S5r),
            S5r => {
                if !fr.ok {
                    fr.pc = S1.into();
                    return Flow::Go;
                }
                if fr.n.is_some() {
                    fr.pc = S6.into();
                    return Flow::Go;
                }
                let was_frozen = fr.flag;
                if frozen_partials {
                    if fr.new.frozen && !was_frozen {
                        fr.pc = S5p.into();
                        return Flow::call(Frame::from(self.put_cpu_partial_frame(p, true)));
                    }
                    if was_frozen {
                        self.stat(Stat::FREE_FROZEN);
                    }
                } else if was_frozen {
                    self.stat(Stat::FREE_FROZEN);
                } else if v.cpu_partial && fr.prior == NULL {
                    fr.pc = S5p.into();
                    return Flow::call(Frame::from(self.put_cpu_partial_frame(p, true)));
                }
                Flow::Ret(Ret::new(NULL, None))
            }
            S5p => {
                self.stat(Stat::CPU_PARTIAL_FREE);
                Flow::Ret(Ret::new(NULL, None))
            }
            S6 => {
                // 3.1 (lock held across retries): the slab may have been frozen meanwhile.
                if fr.flag {
                    self.stat(Stat::FREE_FROZEN);
                    fr.pc = S8.into();
                    return Flow::Go;
                }
                // 6.8+: partially empty but not on the node list (it is on a CPU partial list).
                if !frozen_partials && fr.prior != NULL && !fr.lock {
                    fr.pc = S8.into();
                    return Flow::Go;
                }
                step!(self);
                let n = need!(self, fr.n);
                let nr = self.ld_nr_partial(n);
                let empty = fr.new.inuse == 0 && self.discard_ok(nr);
                note!(
                    self,
                    Load,
                    format!("node {n}.nr_partial"),
                    "nr_partial is {nr}; the slab now has {} object(s) in use{}.",
                    fr.new.inuse,
                    if empty { ": discard it" } else { "" }
                );
                fr.pc = Pc::from(match (empty, fr.prior != NULL) {
                    (true, true) => S6r,
                    (true, false) => S6u,
                    (false, _) => S7,
                });
                Flow::Step
            }
            S6r => {
                step!(self);
                let n = need!(self, fr.n);
                self.remove_partial(n, p);
                self.stat(Stat::FREE_REMOVE_PARTIAL);
                note!(
                    self,
                    ListDel,
                    format!("node {n}.partial"),
                    "remove_partial({}).",
                    self.slab_name(p)
                );
                fr.pc = S6u.into();
                Flow::Step
            }
            S6u => {
                step!(self);
                let n = need!(self, fr.n.take());
                self.spin_unlock(n);
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Unlock before giving the page back."
                );
                fr.pc = S6d.into();
                Flow::Step
            }
            S6d => {
                step!(self);
                self.discard_slab(p);
                self.stat(Stat::FREE_SLAB);
                note!(
                    self,
                    PageFree,
                    format!("page {}", self.slab_name(p)),
                    "discard_slab({}): the empty slab goes back to the page allocator.",
                    self.slab_name(p)
                );
                Flow::Ret(Ret::new(NULL, None))
            }
            S7 => {
                // The slab was full and on no list: it has a free object now. (With CPU
                // partial lists this is reached only when the lock was held across a retry.)
                if fr.prior != NULL {
                    fr.pc = S8.into();
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
                    "The full slab {} got a free object: add_partial at the tail.",
                    self.slab_name(p)
                );
                fr.pc = S8.into();
                Flow::Step
            }
            S8 => {
                step!(self);
                let n = need!(self, fr.n.take());
                self.spin_unlock(n);
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "spin_unlock_irqrestore(list_lock)."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    /// The `touch` op: the user writes the object's payload, free pointer word included.
    pub(in crate::model) fn touch(&mut self, fr: &mut Shared) -> Flow {
        step!(self);
        if let Some((s, i)) = self.object_of(fr.x) {
            let line = self.obj_line(s, i);
            self.access(line, Access::Write);
            if let Some(w) = self.fp_slot(s, i) {
                *w = DATA | fr.count as u64;
            }
        }
        note!(
            self,
            Store,
            format!("{}", self.addr_name(fr.x)),
            "The user writes into {}: its line is now this CPU's, and its first word is data.",
            self.addr_name(fr.x)
        );
        Flow::Ret(Ret::new(NULL, None))
    }
}
