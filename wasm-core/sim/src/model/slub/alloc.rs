//! Allocation's fast path: `slab_alloc` / `slab_alloc_node` in every era of model.md §3.3, and
//! what it shares with the slow paths (`node_match`, the call of the slow path and its
//! ALLOC_SLOWPATH count). Each match arm is one label of the listing.

use super::cost;
use super::memory::Access;
use super::state::*;
use super::{Flow, SlubState, Stat};
use super::{SlabAllocSlow, SlabAllocSlowLl};
use crate::model::locals::SlabAlloc;
use crate::model::pcs::labels::*;
use crate::model::Core;
use crate::scenario::{Fastpath, Prefetch, Slowpath};

impl Locals for SlabAlloc {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
        if let Some(ok) = r.ok {
            self.ok = ok;
        }
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.obj == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.pg);
        mark(self.ret.slab);
    }
}

impl SlubState {
    pub(in crate::model) fn node_ok(core: &Core, pg: Option<SlabId>, node: Option<u32>) -> bool {
        match (pg, node) {
            (_, None) => true,
            (Some(p), Some(n)) => core.page(p).node == n,
            (None, Some(_)) => false,
        }
    }

    /// The fast path's `node_match(page, node)`. From v3.8 ("slub: Check for page NULL before
    /// doing the node_match check") a missing CPU slab never matches, even for NUMA_NO_NODE,
    /// and 5.15+ tests `!slab` explicitly; the pre-3.8 fast paths had no `!page` test.
    pub(super) fn fast_node_match(core: &Core, pg: Option<SlabId>, node: Option<u32>) -> bool {
        let pre_3_8 = matches!(
            core.fastpath(),
            Fastpath::TidUnguarded
                | Fastpath::IrqDisable
                | Fastpath::CmpxchgLocal
                | Fastpath::CmpxchgLocalEmulated
        );
        (pg.is_some() || pre_3_8) && Self::node_ok(core, pg, node)
    }

    /// The 3.1 slow path (model.md §2.15): `tid-unguarded` (the pre-3.8 fast path, whose slow path
    /// is 3.1's) without CPU partial lists (3.2+) is exactly v3.1.
    pub(super) fn v3_1_slow_path(core: &Core) -> bool {
        core.fastpath() == Fastpath::TidUnguarded && !core.variant().cpu_partial
    }

    /// Where the era counts `ALLOC_SLOWPATH`: 3.1–3.14 inside `__slab_alloc` (B6, after the
    /// re-read), 3.15–5.14 in `slab_alloc_node` after every slow-path call ("slub: fix
    /// ALLOC_SLOWPATH stat"; the 4.0 fast paths `tid-loop` and `no-tid`), 5.15+ at the entry of
    /// `___slab_alloc` (LL0, whatever the fast path).
    pub(super) fn alloc_slowpath_counted_by_caller(core: &Core) -> bool {
        core.variant().slowpath == Slowpath::IrqOff
            && matches!(core.fastpath(), Fastpath::TidLoop | Fastpath::NoTid)
    }

    fn count_slow_alloc(core: &mut Core, obj: Addr) {
        if obj != NULL {
            core.ghost.slow_allocs.bump();
        }
    }

    /// Call `__slab_alloc`: the step machine of the variant's slow path.
    fn call_slow(core: &Core, fr: &SlabAlloc) -> Flow {
        Flow::call(if core.variant().slowpath == Slowpath::LocalLock {
            Frame::SlabAllocSlowLl {
                pc: slab_alloc_slow_ll::LL0,
                l: SlabAllocSlowLl {
                    node: fr.node,
                    c: fr.c,
                    ..SlabAllocSlowLl::default()
                },
            }
        } else {
            Frame::SlabAllocSlow {
                pc: slab_alloc_slow::B1,
                l: SlabAllocSlow {
                    node: fr.node,
                    c: fr.c,
                    ..SlabAllocSlow::default()
                },
            }
        })
    }

    /// `slab_alloc` / `slab_alloc_node`. `fr.node` is the requested node; returns the object.
    pub(in crate::model) fn slab_alloc(
        &mut self,
        core: &mut Core,
        pc: &mut slab_alloc::Pc,
        fr: &mut SlabAlloc,
    ) -> Flow {
        use slab_alloc::Pc::*;
        let fp = core.fastpath();
        match *pc {
            AllocEntry => {
                *pc = match fp {
                    Fastpath::PreemptDisable => A1,
                    Fastpath::TidLoop | Fastpath::NoTid => E3a,
                    Fastpath::TidDirect | Fastpath::TidUnguarded => A2,
                    Fastpath::IrqDisable => E0a,
                    Fastpath::CmpxchgLocal | Fastpath::CmpxchgLocalEmulated => L0,
                };
                Flow::Go
            }
            // E2 (3.10–3.19; posted Jan 2013): preempt_disable around reading c and tid.
            A1 => Self::s_preempt_off(core, pc, A2, " to read this CPU's tid"),
            A2 => Self::s_pcpu(core, pc, &mut fr.c, A3),
            A3 => self.s_read_tid(
                core,
                pc,
                fr.c,
                &mut fr.tid,
                &mut fr.snap,
                if fp == Fastpath::PreemptDisable {
                    A4
                } else {
                    A5
                },
            ),
            A4 => Self::s_preempt_on(core, pc, A5),
            // E3 (4.0–5.14): do { tid = this_cpu_read(tid); c = raw_cpu_ptr } while (tid != c->tid).
            E3a => self.s_this_cpu_read_tid(core, pc, &mut fr.tid, &mut fr.snap, E3b),
            E3b => Self::s_raw_cpu_ptr(core, pc, &mut fr.c, E3c, A5),
            E3c => self.s_recheck_tid(core, pc, fr.c, fr.tid, A5, E3a),
            // Under `no-tid` the CAS compares only the head: INV-12's snapshot is taken here,
            // where the CAS gets its expected value, not at the tid read (model.md §5, INV-12).
            A5 => self.s_alloc_load_freelist(core, pc, fr, A6, fp == Fastpath::NoTid),
            A6 => self.s_alloc_load_page(core, pc, fr, A7, A7),
            A7 => {
                if fr.obj == NULL || !Self::fast_node_match(core, fr.pg, fr.node) {
                    *pc = A7r;
                    return Self::call_slow(core, fr);
                }
                *pc = A8;
                Flow::Go
            }
            A7r => {
                fr.obj = fr.ret.value;
                Self::count_slow_alloc(core, fr.obj);
                if Self::alloc_slowpath_counted_by_caller(core) {
                    core.stat(Stat::ALLOC_SLOWPATH);
                }
                Flow::Ret(Ret::new(fr.obj, None))
            }
            A8 => Self::s_alloc_load_next(core, pc, fr, A9),
            A9 => {
                step!(core);
                let k = core.me();
                let with_tid = fp != Fastpath::NoTid;
                let newtid = fr.tid.wrapping_add(core.tid_step());
                let ok = self.pcas2(core, fr.snap, (fr.obj, fr.tid), (fr.nxt, newtid), with_tid);
                self.note_pcas2(core, k, fr.obj, fr.tid, fr.nxt, newtid, with_tid, ok);
                if ok {
                    *pc = A10;
                } else {
                    core.stat(Stat::CMPXCHG_DOUBLE_CPU_FAIL);
                    *pc = AllocEntry;
                }
                Flow::Step
            }
            A10 => {
                let pf = core.variant().prefetch;
                if pf == Prefetch::Off {
                    *pc = A11;
                    return Flow::Go;
                }
                step!(core);
                if let Some((s, i)) = core.object_of(fr.nxt) {
                    let line = core.obj_line(s, i);
                    core.access(
                        line,
                        if pf == Prefetch::Write {
                            Access::PrefetchW
                        } else {
                            Access::Prefetch
                        },
                    );
                } else {
                    core.charge(cost::Id::Prefetch);
                }
                note!(
                    core,
                    Prefetch,
                    format!("{}.fp", core.addr_name(fr.nxt)),
                    "{} the next free pointer ({}) so the next allocation finds it in cache.",
                    if pf == Prefetch::Write {
                        "prefetchw"
                    } else {
                        "prefetch"
                    },
                    core.addr_name(fr.nxt)
                );
                *pc = A11;
                Flow::Step
            }
            A11 => {
                core.stat(Stat::ALLOC_FASTPATH);
                Flow::Ret(Ret::new(fr.obj, None))
            }
            // E0 (2.6.22–2.6.38): interrupts off around the whole fast path, no tid.
            E0a => Self::s_irq_save(
                core,
                pc,
                &mut fr.saved_irq,
                E0b,
                "no interrupt can run on this CPU now",
            ),
            E0b => Self::s_pcpu(core, pc, &mut fr.c, E0c),
            E0c => self.s_alloc_load_freelist(core, pc, fr, E0d, true),
            E0d => self.s_alloc_load_page(core, pc, fr, E0e, E0s),
            E0s => {
                *pc = E0t;
                Self::call_slow(core, fr)
            }
            E0t => {
                fr.obj = fr.ret.value;
                Self::count_slow_alloc(core, fr.obj);
                *pc = E0g;
                Flow::Go
            }
            E0e => Self::s_alloc_load_next(core, pc, fr, E0f),
            E0f => {
                step!(core);
                self.check_snapshot(core, fr.snap, core.me());
                self.st_freelist(core, fr.c, fr.nxt);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "freelist := {} (plain store, safe with interrupts off).",
                    core.addr_name(fr.nxt)
                );
                core.stat(Stat::ALLOC_FASTPATH);
                *pc = E0g;
                Flow::Step
            }
            E0g => {
                step!(core);
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    IrqOn,
                    "irqs".into(),
                    "local_irq_restore: the allocation of {} is complete.",
                    core.addr_name(fr.obj)
                );
                Flow::Ret(Ret::new(fr.obj, None))
            }
            // 2008 x86: cmpxchg_local on c->freelist with preemption off, no tid (model.md §4 (i)).
            L0 => Self::s_preempt_off(core, pc, L1, " (get_cpu), so c stays this CPU's"),
            L1 => Self::s_pcpu(core, pc, &mut fr.c, L2),
            L2 => self.s_alloc_load_freelist(core, pc, fr, L3, true),
            L3 => self.s_alloc_load_page(core, pc, fr, L4, Ls),
            Ls => {
                *pc = Lt;
                Self::call_slow(core, fr)
            }
            Lt => {
                fr.obj = fr.ret.value;
                Self::count_slow_alloc(core, fr.obj);
                *pc = L6;
                Flow::Go
            }
            L4 => Self::s_alloc_load_next(
                core,
                pc,
                fr,
                if fp == Fastpath::CmpxchgLocal {
                    L5
                } else {
                    L5a
                },
            ),
            L5 => {
                step!(core);
                let k = fr.c;
                core.atomic(core.cfg.line_cc(k), cost::Id::PercpuCmpxchg);
                let cur = self.cpu_slab(core, k).freelist;
                let ok = cur == fr.obj;
                core.set_ok(ok);
                if ok {
                    self.check_snapshot(core, fr.snap, k);
                    if let Some(cpu) = self.cpu_slab_mut(core, k) {
                        cpu.freelist = fr.nxt;
                        cpu.ghost_version.bump();
                    }
                    core.stat(Stat::ALLOC_FASTPATH);
                }
                note!(
                    core,
                    CasLocal,
                    format!("cpu_slab[{k}].freelist"),
                    "cmpxchg_local(freelist: {} -> {}) {}.",
                    core.addr_name(fr.obj),
                    core.addr_name(fr.nxt),
                    if ok {
                        "succeeds: only the head pointer was compared"
                    } else {
                        "fails: read the head again"
                    }
                );
                *pc = if ok { L6 } else { L2 };
                Flow::Step
            }
            L5a => Self::s_irq_save(
                core,
                pc,
                &mut fr.saved_irq,
                L5b,
                "the emulated cmpxchg_local starts",
            ),
            L5b => {
                step!(core);
                let cur = self.ld_freelist(core, fr.c);
                fr.ok = cur == fr.obj;
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Compare the head {} with {}: {}.",
                    core.addr_name(cur),
                    core.addr_name(fr.obj),
                    if fr.ok { "equal" } else { "changed" }
                );
                *pc = L5c;
                Flow::Step
            }
            L5c => {
                if !fr.ok {
                    *pc = L5d;
                    return Flow::Go;
                }
                step!(core);
                self.check_snapshot(core, fr.snap, fr.c);
                self.st_freelist(core, fr.c, fr.nxt);
                core.stat(Stat::ALLOC_FASTPATH);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Store the new head {}.",
                    core.addr_name(fr.nxt)
                );
                *pc = L5d;
                Flow::Step
            }
            L5d => Self::s_irq_restore(
                core,
                pc,
                fr.saved_irq,
                if fr.ok { L6 } else { L2 },
                "the emulated cmpxchg_local ends",
            ),
            L6 => {
                step!(core);
                core.preempt_on();
                note!(
                    core,
                    PreemptOn,
                    "preempt_count".into(),
                    "put_cpu: preemption back on; allocated {}.",
                    core.addr_name(fr.obj)
                );
                Flow::Ret(Ret::new(fr.obj, None))
            }
        }
    }
}
