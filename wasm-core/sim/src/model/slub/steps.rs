//! Steps the fast paths share: alloc and free read `c` and `tid` the same way in every era
//! (model.md §3.3), so each such step is written once here and named by both listings' labels.

use super::memory::Access;
use super::state::*;
use super::{Flow, SlubState};
use super::{SlabAlloc, SlabFree, Snapshot};
use crate::model::pcs::labels::*;
use crate::model::Core;

impl SlubState {
    /// `preempt_disable()` (or `get_cpu`), then go to `next`.
    pub(in crate::model) fn s_preempt_off<P: Copy>(
        core: &mut Core,
        pc: &mut P,
        next: P,
        why: &str,
    ) -> Flow {
        step!(core);
        core.preempt_off();
        note!(
            core,
            PreemptOff,
            "preempt_count".into(),
            "{} disables preemption{why}.",
            core.ctx_name(core.cur)
        );
        *pc = next;
        Flow::Step
    }

    /// `preempt_enable()`: a preemption (and migration) point from here on.
    pub(in crate::model) fn s_preempt_on<P: Copy>(core: &mut Core, pc: &mut P, next: P) -> Flow {
        step!(core);
        core.preempt_on();
        note!(
            core,
            PreemptOn,
            "preempt_count".into(),
            "Preemption back on: from here the task may be preempted or migrated."
        );
        *pc = next;
        Flow::Step
    }

    /// `c = this_cpu_ptr(s->cpu_slab)`: binds `c` to the CPU of this instant.
    pub(in crate::model) fn s_pcpu<P: Copy>(
        core: &mut Core,
        pc: &mut P,
        c: &mut u32,
        next: P,
    ) -> Flow {
        step!(core);
        *c = core.me();
        note!(
            core,
            Pcpu,
            format!("cpu_slab[{}]", *c),
            "c := this CPU's kmem_cache_cpu (cpu{}).",
            *c
        );
        *pc = next;
        Flow::Step
    }

    /// `tid = c->tid` (possibly a remote read if the task moved since computing `c`); the
    /// INV-12 snapshot is taken here.
    pub(in crate::model) fn s_read_tid<P: Copy>(
        &mut self,
        core: &mut Core,
        pc: &mut P,
        c: u32,
        tid: &mut u64,
        snap: &mut Snapshot,
        next: P,
    ) -> Flow {
        step!(core);
        *tid = self.ld_tid(core, c);
        *snap = self.snapshot(core, c);
        note!(
            core,
            Load,
            format!("cpu_slab[{}].tid", c),
            "Read tid {} (event {}, cpu residue {}).",
            *tid,
            // TID_STEP is at least 1 (`scenario::validate`).
            (*tid).checked_div(core.tid_step()).unwrap_or_default(),
            (*tid).checked_rem(core.tid_step()).unwrap_or_default()
        );
        rw!(core, read = tid.to_string());
        *pc = next;
        Flow::Step
    }

    /// E3: `tid = this_cpu_read(s->cpu_slab->tid)`, one instruction on the executing CPU.
    pub(in crate::model) fn s_this_cpu_read_tid<P: Copy>(
        &mut self,
        core: &mut Core,
        pc: &mut P,
        tid: &mut u64,
        snap: &mut Snapshot,
        next: P,
    ) -> Flow {
        step!(core);
        let k = core.me();
        core.access(core.cfg.line_cc(k), Access::Read);
        *tid = self.cpu_slab(core, k).tid;
        *snap = self.snapshot(core, k);
        note!(
            core,
            Pld,
            format!("cpu_slab[{k}].tid"),
            "this_cpu_read(tid) = {} on cpu{k}.",
            *tid
        );
        rw!(core, read = tid.to_string());
        *pc = next;
        Flow::Step
    }

    /// E3: `c = raw_cpu_ptr(s->cpu_slab)`; with preemption the loop re-checks the tid.
    pub(in crate::model) fn s_raw_cpu_ptr<P: Copy>(
        core: &mut Core,
        pc: &mut P,
        c: &mut u32,
        recheck: P,
        done: P,
    ) -> Flow {
        step!(core);
        *c = core.me();
        note!(
            core,
            Pcpu,
            format!("cpu_slab[{}]", *c),
            "c := raw_cpu_ptr (cpu{}).",
            *c
        );
        *pc = if core.variant().preempt == crate::scenario::Preempt::Full {
            recheck
        } else {
            done
        };
        Flow::Step
    }

    /// E3: `while (tid != READ_ONCE(c->tid))`: read again if the task moved in between.
    pub(in crate::model) fn s_recheck_tid<P: Copy>(
        &mut self,
        core: &mut Core,
        pc: &mut P,
        c: u32,
        tid: u64,
        same: P,
        again: P,
    ) -> Flow {
        step!(core);
        let t = self.ld_tid(core, c);
        let ok = t == tid;
        note!(
            core,
            Load,
            format!("cpu_slab[{}].tid", c),
            "Re-read c->tid = {t}: {}.",
            if ok {
                "same CPU, go on"
            } else {
                "migrated in between, read again"
            }
        );
        rw!(core, read = t.to_string());
        *pc = if ok { same } else { again };
        Flow::Step
    }

    /// `local_irq_save(flags)` at the start of an irq-off or emulated section.
    pub(in crate::model) fn s_irq_save<P: Copy>(
        core: &mut Core,
        pc: &mut P,
        flags: &mut bool,
        next: P,
        why: &str,
    ) -> Flow {
        step!(core);
        core.irq_save(flags);
        note!(core, IrqOff, "irqs".into(), "local_irq_save: {why}.");
        *pc = next;
        Flow::Step
    }

    /// `local_irq_restore(flags)`.
    pub(in crate::model) fn s_irq_restore<P: Copy>(
        core: &mut Core,
        pc: &mut P,
        flags: bool,
        next: P,
        why: &str,
    ) -> Flow {
        step!(core);
        core.irq_restore(flags);
        note!(core, IrqOn, "irqs".into(), "local_irq_restore: {why}.");
        *pc = next;
        Flow::Step
    }

    /// Narrate a fast-path `this_cpu_cmpxchg_double` (or, under `no-tid`, the freelist-only
    /// compare the broken control does).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::model) fn note_pcas2(
        &mut self,
        core: &mut Core,
        k: u32,
        old: Addr,
        tid: u64,
        new: Addr,
        newtid: u64,
        with_tid: bool,
        ok: bool,
    ) {
        if !core.recording() {
            return;
        }
        let what = if with_tid {
            format!(
                "this_cpu_cmpxchg_double on cpu{k}: ({}, {tid}) -> ({}, {newtid})",
                core.addr_name(old),
                core.addr_name(new)
            )
        } else {
            let now = self.cpu_slab(core, k).tid;
            format!(
                "no tid: the cmpxchg on cpu{k} compares and writes only the freelist, {} -> {} (tid stays {now})",
                core.addr_name(old),
                core.addr_name(new)
            )
        };
        let result = if ok {
            "succeeds"
        } else {
            "fails: retry from the start"
        };
        core.set_note(
            crate::event::EventKind::Pcas2,
            format!("cpu_slab[{k}].(freelist,tid)"),
            format!("{what} {result}."),
        );
    }

    /// Alloc: `object = c->freelist` (the INV-12 snapshot too, for the eras without a tid).
    pub(in crate::model) fn s_alloc_load_freelist(
        &mut self,
        core: &mut Core,
        pc: &mut slab_alloc::Pc,
        fr: &mut SlabAlloc,
        next: slab_alloc::Pc,
        snapshot: bool,
    ) -> Flow {
        step!(core);
        fr.obj = self.ld_freelist(core, fr.c);
        if snapshot {
            fr.snap = self.snapshot(core, fr.c);
        }
        note!(
            core,
            Load,
            format!("cpu_slab[{}].freelist", fr.c),
            "Read the per-CPU freelist head: {}.",
            core.addr_name(fr.obj)
        );
        rw!(core, read = core.addr_name(fr.obj));
        *pc = next;
        Flow::Step
    }

    /// Alloc: `page = c->page`; no object or the wrong node sends it to the slow path.
    pub(in crate::model) fn s_alloc_load_page(
        &mut self,
        core: &mut Core,
        pc: &mut slab_alloc::Pc,
        fr: &mut SlabAlloc,
        fast: slab_alloc::Pc,
        slow: slab_alloc::Pc,
    ) -> Flow {
        step!(core);
        fr.pg = self.ld_page(core, fr.c);
        note!(
            core,
            Load,
            format!("cpu_slab[{}].page", fr.c),
            "Read the CPU slab: {}.",
            core.slab_opt_name(fr.pg)
        );
        rw!(core, read = core.slab_opt_name(fr.pg));
        *pc = if fr.obj == NULL || !Self::fast_node_match(core, fr.pg, fr.node) {
            slow
        } else {
            fast
        };
        Flow::Step
    }

    /// Alloc: `next = get_freepointer(s, object)`, which may be stale: the CAS decides.
    pub(in crate::model) fn s_alloc_load_next(
        core: &mut Core,
        pc: &mut slab_alloc::Pc,
        fr: &mut SlabAlloc,
        next: slab_alloc::Pc,
    ) -> Flow {
        step!(core);
        fr.nxt = core.load_fp(fr.obj);
        note!(
            core,
            Load,
            format!("{}.fp", core.addr_name(fr.obj)),
            "Read the free pointer of {}: next is {} (may be stale; the CAS decides).",
            core.addr_name(fr.obj),
            core.addr_name(fr.nxt)
        );
        rw!(core, read = core.addr_name(fr.nxt));
        *pc = next;
        Flow::Step
    }

    /// Free: `page == c->page`? The object's slab must be the CPU slab for the fast path.
    pub(in crate::model) fn s_free_check_page(
        &mut self,
        core: &mut Core,
        pc: &mut slab_free::Pc,
        fr: &mut SlabFree,
        fast: slab_free::Pc,
        slow: slab_free::Pc,
    ) -> Flow {
        step!(core);
        let pg = self.ld_page(core, fr.c);
        let mine = pg == Some(fr.pg);
        note!(
            core,
            Load,
            format!("cpu_slab[{}].page", fr.c),
            "The CPU slab is {}; {} belongs to {}: {}.",
            core.slab_opt_name(pg),
            core.addr_name(fr.x),
            core.slab_name(fr.pg),
            if mine {
                "fast path"
            } else {
                "slow path (__slab_free)"
            }
        );
        *pc = if mine { fast } else { slow };
        Flow::Step
    }

    /// Free: `head = c->freelist` (the INV-12 snapshot too, for the eras without a tid).
    pub(in crate::model) fn s_free_load_freelist(
        &mut self,
        core: &mut Core,
        pc: &mut slab_free::Pc,
        fr: &mut SlabFree,
        next: slab_free::Pc,
        snapshot: bool,
        again: bool,
    ) -> Flow {
        step!(core);
        fr.f = self.ld_freelist(core, fr.c);
        if snapshot {
            fr.snap = self.snapshot(core, fr.c);
        }
        note!(
            core,
            Load,
            format!("cpu_slab[{}].freelist", fr.c),
            "{} the freelist head: {}.",
            if again {
                "Read again, for the CAS,"
            } else {
                "Read"
            },
            core.addr_name(fr.f)
        );
        *pc = next;
        Flow::Step
    }

    /// Free: `set_freepointer(s, x, head)`: link the object in front of the head.
    pub(in crate::model) fn s_free_link(
        core: &mut Core,
        pc: &mut slab_free::Pc,
        fr: &mut SlabFree,
        next: slab_free::Pc,
    ) -> Flow {
        step!(core);
        core.store_fp(fr.x, fr.f);
        note!(
            core,
            Store,
            format!("{}.fp", core.addr_name(fr.x)),
            "Link {} in front of {}.",
            core.addr_name(fr.x),
            core.addr_name(fr.f)
        );
        *pc = next;
        Flow::Step
    }

    /// Slow path: `c->partial` (unlocked peek or under the local lock, per `what`).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::model) fn s_load_cpu_partial<P: Copy>(
        &mut self,
        core: &mut Core,
        pc: &mut P,
        c: u32,
        p: &mut Option<SlabId>,
        some: P,
        none: P,
        what: &str,
    ) -> Flow {
        step!(core);
        *p = self.ld_partial(core, c);
        note!(
            core,
            Load,
            format!("cpu_slab[{}].partial", c),
            "{what}: {}.",
            core.slab_opt_name(*p)
        );
        *pc = if p.is_some() { some } else { none };
        Flow::Step
    }

    /// Slow path: the CPU partial list's head becomes the CPU slab (`c->page = c->partial`).
    pub(in crate::model) fn s_install_cpu_partial<P: Copy>(
        &mut self,
        core: &mut Core,
        pc: &mut P,
        c: u32,
        p: Option<SlabId>,
        next: P,
    ) -> Flow {
        step!(core);
        self.st_page(core, c, p);
        note!(
            core,
            Store,
            format!("cpu_slab[{}].page", c),
            "Take {} from the CPU partial list as the CPU slab.",
            core.slab_opt_name(p)
        );
        *pc = next;
        Flow::Step
    }

    /// Slow path, `load_freelist`: take `freelist` for the caller, read its free pointer.
    pub(in crate::model) fn s_load_freelist_next<P: Copy>(
        core: &mut Core,
        pc: &mut P,
        f: Addr,
        nxt: &mut Addr,
        next: P,
    ) -> Flow {
        step!(core);
        *nxt = core.load_fp(f);
        note!(
            core,
            Load,
            format!("{}.fp", core.addr_name(f)),
            "Take {} for the caller; its free pointer {} becomes the CPU freelist.",
            core.addr_name(f),
            core.addr_name(*nxt)
        );
        *pc = next;
        Flow::Step
    }

    /// Slow path, `load_freelist`: `c->freelist = next`; the taken chain is no longer in flight.
    pub(in crate::model) fn s_store_freelist_next<P: Copy>(
        &mut self,
        core: &mut Core,
        pc: &mut P,
        c: u32,
        nxt: Addr,
        flag: &mut bool,
        next: P,
    ) -> Flow {
        step!(core);
        self.st_freelist(core, c, nxt);
        note!(
            core,
            Store,
            format!("cpu_slab[{}].freelist", c),
            "c->freelist := {}.",
            core.addr_name(nxt)
        );
        *flag = false;
        *pc = next;
        Flow::Step
    }
}
