//! Allocation: the fast path `slab_alloc` in every era of model.md §3.3, the slow path
//! `__slab_alloc` (v3.10, §2.4, and the 5.15+ local-lock form of §2.15), `get_freelist`
//! (§2.5) and `new_slab` (§2.7). Each match arm is one label of the listing.

use super::cost;
use super::memory::Access;
use super::state::*;
use super::{Flow, Machine, Stat};
use super::{FlushSlab, Snapshot, UnfreezePartials};
use crate::model::pcs::labels::*;
use crate::model::slab_page::Counters;
use crate::scenario::{Fastpath, Prefetch, Slowpath};

/// `slab_alloc` / `slab_alloc_node`: `node` requested; `c`, `tid` as read; `obj` (`object`), `nxt` (`next`), `pg` the CPU slab read; `snap` the INV-12 ghost snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabAlloc {
    pub c: u32,
    pub tid: u64,
    pub obj: Addr,
    pub nxt: Addr,
    pub pg: Option<SlabId>,
    pub node: Option<u32>,
    pub saved_irq: bool,
    pub ok: bool,
    pub ret: Ret,
    pub snap: Snapshot,
}

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

/// `__slab_alloc` of 3.x–5.14 (irqs off): `c` reloaded, `pg` the CPU slab, `f` the freelist taken, `p` a CPU partial or new slab, `n` the node tried, `count` the nodes `get_any_partial` tried.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabAllocSlow {
    pub c: u32,
    pub nxt: Addr,
    pub f: Addr,
    pub pg: Option<SlabId>,
    pub p: Option<SlabId>,
    pub old: Option<SlabId>,
    pub node: Option<u32>,
    pub n: Option<u32>,
    pub saved_irq: bool,
    pub flag: bool,
    pub count: u32,
    pub ret: Ret,
}

impl Locals for SlabAllocSlow {
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

/// The locals of `get_freelist(s, slab)`, with the kernel's names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GetFreelist {
    /// The CPU slab it takes the freelist of (`c->page`, 6.x `c->slab`).
    pub slab: SlabId,
    /// `freelist = slab->freelist`, `counters = slab->counters` as read.
    pub freelist: Addr,
    pub counters: Counters,
    /// `new.counters`: all objects in use; frozen while the freelist is not empty.
    pub new: Counters,
    /// The double CAS succeeded (`__cmpxchg_double_slab`'s return).
    pub ok: bool,
}

impl Locals for GetFreelist {
    fn returned(&mut self, r: Ret) {
        if let Some(ok) = r.ok {
            self.ok = ok;
        }
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.freelist == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.slab));
    }
}

/// `new_slab`: `node` requested; `flag` interrupts enabled for the page allocation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NewSlab {
    pub node: Option<u32>,
    pub flag: bool,
    pub ret: Ret,
}

impl Locals for NewSlab {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
}

/// `___slab_alloc` of 5.15+ (under the local lock): as `SlabAllocSlow`, with `prior` the freelist a lost race hands back.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabAllocSlowLl {
    pub c: u32,
    pub nxt: Addr,
    pub f: Addr,
    pub prior: Addr,
    pub pg: Option<SlabId>,
    pub p: Option<SlabId>,
    pub old: Option<SlabId>,
    pub node: Option<u32>,
    pub n: Option<u32>,
    pub saved_irq: bool,
    pub flag: bool,
    pub count: u32,
    pub ret: Ret,
}

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

impl Machine {
    pub(in crate::model) fn node_ok(&self, pg: Option<SlabId>, node: Option<u32>) -> bool {
        match (pg, node) {
            (_, None) => true,
            (Some(p), Some(n)) => self.page(p).node == n,
            (None, Some(_)) => false,
        }
    }

    /// The fast path's `node_match(page, node)`. From v3.8 ("slub: Check for page NULL before
    /// doing the node_match check") a missing CPU slab never matches, even for NUMA_NO_NODE,
    /// and 5.15+ tests `!slab` explicitly; the pre-3.8 fast paths had no `!page` test.
    pub(super) fn fast_node_match(&self, pg: Option<SlabId>, node: Option<u32>) -> bool {
        let pre_3_8 = matches!(
            self.fastpath(),
            Fastpath::TidUnguarded
                | Fastpath::IrqDisable
                | Fastpath::CmpxchgLocal
                | Fastpath::CmpxchgLocalEmulated
        );
        (pg.is_some() || pre_3_8) && self.node_ok(pg, node)
    }

    /// The 3.1 slow path (model.md §2.15): `tid-unguarded` (the pre-3.8 fast path, whose slow path
    /// is 3.1's) without CPU partial lists (3.2+) is exactly v3.1.
    pub(super) fn v3_1_slow_path(&self) -> bool {
        self.fastpath() == Fastpath::TidUnguarded && !self.variant().cpu_partial
    }

    /// Where the era counts `ALLOC_SLOWPATH`: 3.1–3.14 inside `__slab_alloc` (B6, after the
    /// re-read), 3.15–5.14 in `slab_alloc_node` after every slow-path call ("slub: fix
    /// ALLOC_SLOWPATH stat"; the 4.0 fast paths `tid-loop` and `no-tid`), 5.15+ at the entry of
    /// `___slab_alloc` (LL0, whatever the fast path).
    fn alloc_slowpath_counted_by_caller(&self) -> bool {
        self.variant().slowpath == Slowpath::IrqOff
            && matches!(self.fastpath(), Fastpath::TidLoop | Fastpath::NoTid)
    }

    fn count_slow_alloc(&mut self, obj: Addr) {
        if obj != NULL {
            self.ghost.slow_allocs.bump();
        }
    }

    /// Call `__slab_alloc`: the step machine of the variant's slow path.
    fn call_slow(&self, fr: &SlabAlloc) -> Flow {
        Flow::call(if self.variant().slowpath == Slowpath::LocalLock {
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
        pc: &mut slab_alloc::Pc,
        fr: &mut SlabAlloc,
    ) -> Flow {
        use slab_alloc::Pc::*;
        let fp = self.fastpath();
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
            A1 => self.s_preempt_off(pc, A2, " to read this CPU's tid"),
            A2 => self.s_pcpu(pc, &mut fr.c, A3),
            A3 => self.s_read_tid(
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
            A4 => self.s_preempt_on(pc, A5),
            // E3 (4.0–5.14): do { tid = this_cpu_read(tid); c = raw_cpu_ptr } while (tid != c->tid).
            E3a => self.s_this_cpu_read_tid(pc, &mut fr.tid, &mut fr.snap, E3b),
            E3b => self.s_raw_cpu_ptr(pc, &mut fr.c, E3c, A5),
            E3c => self.s_recheck_tid(pc, fr.c, fr.tid, A5, E3a),
            // Under `no-tid` the CAS compares only the head: INV-12's snapshot is taken here,
            // where the CAS gets its expected value, not at the tid read (model.md §5, INV-12).
            A5 => self.s_alloc_load_freelist(pc, fr, A6, fp == Fastpath::NoTid),
            A6 => self.s_alloc_load_page(pc, fr, A7, A7),
            A7 => {
                if fr.obj == NULL || !self.fast_node_match(fr.pg, fr.node) {
                    *pc = A7r;
                    return self.call_slow(fr);
                }
                *pc = A8;
                Flow::Go
            }
            A7r => {
                fr.obj = fr.ret.value;
                self.count_slow_alloc(fr.obj);
                if self.alloc_slowpath_counted_by_caller() {
                    self.stat(Stat::ALLOC_SLOWPATH);
                }
                Flow::Ret(Ret::new(fr.obj, None))
            }
            A8 => self.s_alloc_load_next(pc, fr, A9),
            A9 => {
                step!(self);
                let k = self.me();
                let with_tid = fp != Fastpath::NoTid;
                let newtid = fr.tid.wrapping_add(self.tid_step());
                let ok = self.pcas2(fr.snap, (fr.obj, fr.tid), (fr.nxt, newtid), with_tid);
                self.note_pcas2(k, fr.obj, fr.tid, fr.nxt, newtid, with_tid, ok);
                if ok {
                    *pc = A10;
                } else {
                    self.stat(Stat::CMPXCHG_DOUBLE_CPU_FAIL);
                    *pc = AllocEntry;
                }
                Flow::Step
            }
            A10 => {
                let pf = self.variant().prefetch;
                if pf == Prefetch::Off {
                    *pc = A11;
                    return Flow::Go;
                }
                step!(self);
                if let Some((s, i)) = self.object_of(fr.nxt) {
                    let line = self.obj_line(s, i);
                    self.access(
                        line,
                        if pf == Prefetch::Write {
                            Access::PrefetchW
                        } else {
                            Access::Prefetch
                        },
                    );
                } else {
                    self.charge(cost::Id::Prefetch);
                }
                note!(
                    self,
                    Prefetch,
                    format!("{}.fp", self.addr_name(fr.nxt)),
                    "{} the next free pointer ({}) so the next allocation finds it in cache.",
                    if pf == Prefetch::Write {
                        "prefetchw"
                    } else {
                        "prefetch"
                    },
                    self.addr_name(fr.nxt)
                );
                *pc = A11;
                Flow::Step
            }
            A11 => {
                self.stat(Stat::ALLOC_FASTPATH);
                Flow::Ret(Ret::new(fr.obj, None))
            }
            // E0 (2.6.22–2.6.38): interrupts off around the whole fast path, no tid.
            E0a => self.s_irq_save(
                pc,
                &mut fr.saved_irq,
                E0b,
                "no interrupt can run on this CPU now",
            ),
            E0b => self.s_pcpu(pc, &mut fr.c, E0c),
            E0c => self.s_alloc_load_freelist(pc, fr, E0d, true),
            E0d => self.s_alloc_load_page(pc, fr, E0e, E0s),
            E0s => {
                *pc = E0t;
                self.call_slow(fr)
            }
            E0t => {
                fr.obj = fr.ret.value;
                self.count_slow_alloc(fr.obj);
                *pc = E0g;
                Flow::Go
            }
            E0e => self.s_alloc_load_next(pc, fr, E0f),
            E0f => {
                step!(self);
                self.check_snapshot(fr.snap, self.me());
                self.st_freelist(fr.c, fr.nxt);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "freelist := {} (plain store, safe with interrupts off).",
                    self.addr_name(fr.nxt)
                );
                self.stat(Stat::ALLOC_FASTPATH);
                *pc = E0g;
                Flow::Step
            }
            E0g => {
                step!(self);
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
                    IrqOn,
                    "irqs".into(),
                    "local_irq_restore: the allocation of {} is complete.",
                    self.addr_name(fr.obj)
                );
                Flow::Ret(Ret::new(fr.obj, None))
            }
            // 2008 x86: cmpxchg_local on c->freelist with preemption off, no tid (model.md §4 (i)).
            L0 => self.s_preempt_off(pc, L1, " (get_cpu), so c stays this CPU's"),
            L1 => self.s_pcpu(pc, &mut fr.c, L2),
            L2 => self.s_alloc_load_freelist(pc, fr, L3, true),
            L3 => self.s_alloc_load_page(pc, fr, L4, Ls),
            Ls => {
                *pc = Lt;
                self.call_slow(fr)
            }
            Lt => {
                fr.obj = fr.ret.value;
                self.count_slow_alloc(fr.obj);
                *pc = L6;
                Flow::Go
            }
            L4 => self.s_alloc_load_next(
                pc,
                fr,
                if fp == Fastpath::CmpxchgLocal {
                    L5
                } else {
                    L5a
                },
            ),
            L5 => {
                step!(self);
                let k = fr.c;
                self.atomic(self.cfg.line_cc(k), cost::Id::PercpuCmpxchg);
                let cur = self.cpu_slab(k).freelist;
                let ok = cur == fr.obj;
                self.set_ok(ok);
                if ok {
                    self.check_snapshot(fr.snap, k);
                    if let Some(cpu) = self.cpu_slab_mut(k) {
                        cpu.freelist = fr.nxt;
                        cpu.ghost_version.bump();
                    }
                    self.stat(Stat::ALLOC_FASTPATH);
                }
                note!(
                    self,
                    CasLocal,
                    format!("cpu_slab[{k}].freelist"),
                    "cmpxchg_local(freelist: {} -> {}) {}.",
                    self.addr_name(fr.obj),
                    self.addr_name(fr.nxt),
                    if ok {
                        "succeeds: only the head pointer was compared"
                    } else {
                        "fails: read the head again"
                    }
                );
                *pc = if ok { L6 } else { L2 };
                Flow::Step
            }
            L5a => self.s_irq_save(
                pc,
                &mut fr.saved_irq,
                L5b,
                "the emulated cmpxchg_local starts",
            ),
            L5b => {
                step!(self);
                let cur = self.ld_freelist(fr.c);
                fr.ok = cur == fr.obj;
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Compare the head {} with {}: {}.",
                    self.addr_name(cur),
                    self.addr_name(fr.obj),
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
                step!(self);
                self.check_snapshot(fr.snap, fr.c);
                self.st_freelist(fr.c, fr.nxt);
                self.stat(Stat::ALLOC_FASTPATH);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Store the new head {}.",
                    self.addr_name(fr.nxt)
                );
                *pc = L5d;
                Flow::Step
            }
            L5d => self.s_irq_restore(
                pc,
                fr.saved_irq,
                if fr.ok { L6 } else { L2 },
                "the emulated cmpxchg_local ends",
            ),
            L6 => {
                step!(self);
                self.preempt_on();
                note!(
                    self,
                    PreemptOn,
                    "preempt_count".into(),
                    "put_cpu: preemption back on; allocated {}.",
                    self.addr_name(fr.obj)
                );
                Flow::Ret(Ret::new(fr.obj, None))
            }
        }
    }

    /// `__slab_alloc` of 3.x–5.14 (irqs off throughout; 5.15+'s, under the local lock, is the step
    /// machine `slab_alloc_slow_ll`).
    pub(in crate::model) fn slab_alloc_slow(
        &mut self,
        pc: &mut slab_alloc_slow::Pc,
        fr: &mut SlabAllocSlow,
    ) -> Flow {
        use slab_alloc_slow::Pc::*;
        let ll = self.variant().slowpath == Slowpath::LocalLock;
        match *pc {
            B1 => {
                if self.fastpath() == Fastpath::IrqDisable {
                    // E0: the fast path already disabled interrupts; the slow path of that era
                    // ran inside the same section instead of saving them again.
                    fr.saved_irq = false;
                    *pc = B2;
                    return Flow::Go;
                }
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                note!(
                    self,
                    IrqOff,
                    "irqs".into(),
                    "Slow path: local_irq_save; the rest runs with interrupts off."
                );
                *pc = B2;
                Flow::Step
            }
            B2 => {
                step!(self);
                fr.c = self.me();
                note!(
                    self,
                    Pcpu,
                    format!("cpu_slab[{}]", fr.c),
                    "Reload c: we may have migrated since the fast path (cpu{}).",
                    fr.c
                );
                *pc = B3;
                Flow::Step
            }
            B3 => {
                step!(self);
                fr.pg = self.ld_page(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].page", fr.c),
                    "Read the CPU slab: {}.",
                    self.slab_opt_name(fr.pg)
                );
                *pc = if fr.pg.is_none() { B14 } else { B4 };
                Flow::Step
            }
            B4 => {
                if !self.node_ok(fr.pg, fr.node) {
                    self.stat(Stat::ALLOC_NODE_MISMATCH);
                    if self.fastpath() == Fastpath::TidUnguarded {
                        // 3.1's deactivate_slab(s, c) bumps tid and clears c->page and
                        // c->freelist before stage one: flush_slab's 3.1 order (T1–T4), without
                        // its CPUSLAB_FLUSH.
                        *pc = B14;
                        return Flow::call(Frame::FlushSlab {
                            pc: flush_slab::T1,
                            l: FlushSlab {
                                c: fr.c,
                                ..FlushSlab::default()
                            },
                        });
                    }
                    *pc = B4a;
                } else if self.v3_1_slow_path() {
                    // 3.1 has no B5: the re-read of c->freelist came with "slub: fix a
                    // possible memleak in __slab_alloc()" (v3.2). An object an irq or a
                    // migration put on c->freelist meanwhile is overwritten and lost.
                    fr.flag = false;
                    *pc = B6;
                } else {
                    *pc = B5;
                }
                Flow::Go
            }
            B4a => {
                step!(self);
                fr.f = self.ld_freelist(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Slab {} is on the wrong node: deactivate it with its freelist {}.",
                    self.slab_opt_name(fr.pg),
                    self.addr_name(fr.f)
                );
                *pc = B4d;
                Flow::Step
            }
            B4d => {
                *pc = B4b;
                Flow::call(self.deactivate_frame(need!(self, fr.pg), fr.f, fr.c))
            }
            B4b => {
                step!(self);
                self.st_page(fr.c, None);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].page", fr.c),
                    "c->page := NULL."
                );
                *pc = B4c;
                Flow::Step
            }
            B4c => {
                step!(self);
                self.st_freelist(fr.c, NULL);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "c->freelist := NULL (no tid bump on this path in 3.10)."
                );
                *pc = B14;
                Flow::Step
            }
            B5 => {
                step!(self);
                fr.f = self.ld_freelist(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Re-read the CPU freelist: {}.",
                    self.addr_name(fr.f)
                );
                fr.flag = false;
                *pc = if fr.f != NULL { B10 } else { B6 };
                Flow::Step
            }
            B6 => {
                if !self.alloc_slowpath_counted_by_caller() {
                    self.stat(Stat::ALLOC_SLOWPATH);
                }
                *pc = B8;
                Flow::call(Frame::GetFreelist {
                    pc: get_freelist::G1,
                    l: GetFreelist {
                        slab: need!(self, fr.pg),
                        ..GetFreelist::default()
                    },
                })
            }
            B8 => {
                fr.f = fr.ret.value;
                *pc = if fr.f == NULL { B8a } else { B9 };
                Flow::Go
            }
            // `goto new_slab` is B8a's (B8b's); the refill goes on to load_freelist.
            B9 => {
                self.stat(Stat::ALLOC_REFILL);
                fr.flag = true;
                *pc = B10;
                Flow::Go
            }
            B8a => {
                step!(self);
                self.st_page(fr.c, None);
                self.stat(Stat::DEACTIVATE_BYPASS);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].page", fr.c),
                    "The slab had nothing left and was unfrozen by get_freelist: c->page := NULL."
                );
                *pc = if ll { B8b } else { B14 };
                Flow::Step
            }
            B8b => {
                step!(self);
                self.bump_tid(fr.c);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].tid", fr.c),
                    "5.19+ (Jann Horn's 2022 fix): the bypass exit bumps tid too."
                );
                *pc = B14;
                Flow::Step
            }
            B10 => self.s_load_freelist_next(pc, fr.f, &mut fr.nxt, B11),
            B11 => self.s_store_freelist_next(pc, fr.c, fr.nxt, &mut fr.flag, B12),
            B12 => {
                step!(self);
                self.bump_tid(fr.c);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].tid", fr.c),
                    "Bump tid to {}: any fast path suspended on this CPU will now fail its CAS.",
                    self.cpu_slab(fr.c).tid
                );
                *pc = B13;
                Flow::Step
            }
            B13 => {
                step!(self);
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
                    IrqOn,
                    "irqs".into(),
                    "local_irq_restore: slow path done, returning {}.",
                    self.addr_name(fr.f)
                );
                Flow::Ret(Ret::new(fr.f, None))
            }
            B14 => self.s_load_cpu_partial(
                pc,
                fr.c,
                &mut fr.p,
                B15,
                B17,
                "Look at the CPU partial list",
            ),
            B15 => self.s_install_cpu_partial(pc, fr.c, fr.p, B15b),
            B15b => {
                step!(self);
                let p = need!(self, fr.p);
                self.access(self.page(p).line, Access::Read);
                let next = self.slab(p).next;
                self.st_partial(fr.c, next);
                self.stat(Stat::CPU_PARTIAL_ALLOC);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "c->partial := {}.",
                    self.slab_opt_name(next)
                );
                *pc = B16;
                Flow::Step
            }
            B16 => {
                step!(self);
                self.st_freelist(fr.c, NULL);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "c->freelist := NULL; redo with {}.",
                    self.slab_opt_name(fr.p)
                );
                fr.pg = fr.p;
                *pc = B4;
                Flow::Step
            }
            B17 => {
                // get_partial: the requested node (or this CPU's), then any other node.
                let first = fr.node.unwrap_or(self.my_node());
                fr.count = 0;
                fr.n = Some(first);
                *pc = B17r;
                Flow::call(self.get_partial_frame(first, fr.c, false))
            }
            B17r => {
                if fr.ret.value != NULL {
                    fr.f = fr.ret.value;
                    fr.pg = self.cpu_slab(fr.c).page;
                    fr.flag = true;
                    *pc = B10;
                    return Flow::Go;
                }
                if let Some(p) = fr.ret.slab {
                    // 6.8+ partial slabs come off the list unfrozen: freeze the first now.
                    fr.p = Some(p);
                    *pc = B17f;
                    return Flow::call(Frame::GetFreelist {
                        pc: get_freelist::G1,
                        l: GetFreelist {
                            slab: p,
                            ..GetFreelist::default()
                        },
                    });
                }
                // get_any_partial: only for NUMA_NO_NODE requests.
                let next = fr.count.saturating_add(1);
                if let Some(n) = self.any_partial_node(fr.n, fr.node, next) {
                    fr.count = next;
                    return Flow::call(self.get_partial_frame(n, fr.c, true));
                }
                fr.n = None;
                *pc = B18r;
                Flow::call(Frame::NewSlab {
                    pc: new_slab::N1,
                    l: NewSlab {
                        node: fr.node,
                        ..NewSlab::default()
                    },
                })
            }
            B17f => {
                fr.f = fr.ret.value;
                fr.flag = true;
                *pc = B17g;
                Flow::Go
            }
            B17g => {
                step!(self);
                let p = need!(self, fr.p);
                self.st_page(fr.c, Some(p));
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].page", fr.c),
                    "c->page := {}, frozen by taking its freelist.",
                    self.slab_name(p)
                );
                fr.pg = Some(p);
                *pc = B10;
                Flow::Step
            }
            B18r => {
                match fr.ret.slab {
                    Some(p) => {
                        fr.p = Some(p);
                        *pc = B19;
                    }
                    None => *pc = B18f,
                }
                Flow::Go
            }
            B18f => {
                step!(self);
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
                    IrqOn,
                    "irqs".into(),
                    "Out of memory: the slow path returns NULL (no tid bump on this exit in 3.10)."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
            B19 => {
                step!(self);
                fr.c = self.me();
                note!(
                    self,
                    Pcpu,
                    format!("cpu_slab[{}]", fr.c),
                    "Reload c after new_slab: we may be on another CPU now (cpu{}).",
                    fr.c
                );
                *pc = B20;
                Flow::Step
            }
            B20 => {
                step!(self);
                fr.old = self.ld_page(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].page", fr.c),
                    "Is there a CPU slab already? {}.",
                    self.slab_opt_name(fr.old)
                );
                *pc = B20c;
                Flow::Step
            }
            B20c => {
                *pc = B21;
                if fr.old.is_some() {
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
            B21 => {
                step!(self);
                let p = need!(self, fr.p);
                self.access(self.page(p).line, Access::Write);
                fr.f = self.slab(p).freelist;
                if let Some(sl) = self.slab_mut(p) {
                    sl.freelist = NULL;
                }
                note!(
                    self,
                    Store,
                    format!("page {}.freelist", self.slab_name(p)),
                    "Take the new slab's whole freelist ({}...) and leave it empty.",
                    self.addr_name(fr.f)
                );
                *pc = B22;
                Flow::Step
            }
            B22 => {
                step!(self);
                let p = need!(self, fr.p);
                self.st_page(fr.c, Some(p));
                if let Some(pg) = self.page_mut(p) {
                    pg.life = Life::Live;
                }
                self.stat(Stat::ALLOC_SLAB);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].page", fr.c),
                    "Install {} as the CPU slab.",
                    self.slab_name(p)
                );
                fr.pg = Some(p);
                fr.flag = true;
                *pc = B10;
                Flow::Step
            }
        }
    }

    /// `get_any_partial`'s `i`th node after the first one tried (`fr.n`), round the nodes;
    /// `None` once every node was tried, or for a request of one node (`fr.node`).
    fn any_partial_node(&self, n: Option<u32>, node: Option<u32>, i: u32) -> Option<u32> {
        let nodes = self.cfg.sc.nodes;
        let first = n.unwrap_or(0);
        // Both below `nodes` (at most `MAX_NODES`): the sum cannot wrap.
        (node.is_none() && i < nodes).then(|| first.wrapping_add(i).checked_rem(nodes))?
    }

    /// `get_freelist` (model.md §2.5): take the CPU slab's freelist, unfreezing it if empty.
    pub(in crate::model) fn get_freelist(
        &mut self,
        pc: &mut get_freelist::Pc,
        fr: &mut GetFreelist,
    ) -> Flow {
        use get_freelist::Pc::*;
        let p = fr.slab;
        match *pc {
            G1 => {
                step!(self);
                self.access(self.page(p).line, Access::Read);
                fr.freelist = self.slab(p).freelist;
                note!(
                    self,
                    Load,
                    format!("page {}.freelist", self.slab_name(p)),
                    "get_freelist: read {}'s freelist: {}.",
                    self.slab_name(p),
                    self.addr_name(fr.freelist)
                );
                *pc = G2;
                Flow::Step
            }
            G2 => {
                step!(self);
                self.access(self.page(p).line, Access::Read);
                fr.counters = self.slab(p).counters;
                note!(
                    self,
                    Load,
                    format!("page {}.counters", self.slab_name(p)),
                    "Read {}'s counters: {}.",
                    self.slab_name(p),
                    crate::model::slab_page::counters_text(fr.counters)
                );
                fr.new = Counters {
                    inuse: fr.counters.objects,
                    objects: fr.counters.objects,
                    frozen: fr.freelist != NULL,
                };
                *pc = G3;
                Flow::Step
            }
            G3 => self.cas2_site(
                pc,
                &mut fr.ok,
                p,
                (fr.freelist, fr.counters),
                (NULL, fr.new),
                false,
                G3r,
            ),
            G3r => {
                if fr.ok {
                    Flow::Ret(Ret::new(fr.freelist, None))
                } else {
                    *pc = G1;
                    Flow::Go
                }
            }
        }
    }

    /// `new_slab` (model.md §2.7): irqs on around the page allocator when the caller may sleep.
    pub(in crate::model) fn new_slab(&mut self, pc: &mut new_slab::Pc, fr: &mut NewSlab) -> Flow {
        use new_slab::Pc::*;
        let may_sleep = self.ctx(self.cur).kind == CtxKind::Task;
        match *pc {
            N1 => {
                if !may_sleep || self.cpu(self.me()).irqs_on {
                    *pc = N2;
                    return Flow::Go;
                }
                step!(self);
                self.irq_set(true);
                fr.flag = true;
                note!(
                    self,
                    IrqOn,
                    "irqs".into(),
                    "GFP_KERNEL may sleep: interrupts on around the page allocator."
                );
                *pc = N2;
                Flow::Step
            }
            N2 => {
                step!(self);
                self.charge(cost::Id::PageAlloc);
                let fail = self.cfg.sc.cache.page_alloc_fail && !self.st.in_setup;
                if fail {
                    fr.ret.slab = None;
                    note!(
                        self,
                        PageAlloc,
                        "page allocator".into(),
                        "The page allocator fails (pageAllocFail): no new slab."
                    );
                } else {
                    let node = fr.node.unwrap_or(self.my_node());
                    let s = self.create_slab(node);
                    fr.ret.slab = Some(s);
                    note!(
                        self,
                        PageAlloc,
                        format!("page {}", self.slab_name(s)),
                        "The page allocator hands out a page for slab {} on node {node}.",
                        self.slab_name(s)
                    );
                }
                *pc = N3;
                Flow::Step
            }
            N3 => {
                if !fr.flag {
                    *pc = N4;
                    return Flow::Go;
                }
                step!(self);
                self.irq_set(false);
                note!(
                    self,
                    IrqOff,
                    "irqs".into(),
                    "Interrupts off again after the page allocator."
                );
                *pc = N4;
                Flow::Step
            }
            N4 => {
                let Some(s) = fr.ret.slab else {
                    return Flow::Ret(Ret::new(NULL, None));
                };
                step!(self);
                let objects = self.cfg.objects;
                self.chain_objects(s);
                note!(
                    self,
                    Store,
                    format!("objects of {}", self.slab_name(s)),
                    "Chain the {objects} objects of {} through their free pointers.",
                    self.slab_name(s)
                );
                *pc = N5;
                Flow::Step
            }
            N5 => {
                step!(self);
                let s = need!(self, fr.ret.slab);
                self.access(self.page(s).line, Access::Write);
                let objects = self.cfg.objects;
                let first = self.obj_addr(s, 0);
                let sl = need!(self, self.slab_mut(s));
                sl.freelist = first;
                sl.counters = Counters {
                    inuse: objects,
                    objects,
                    frozen: true,
                };
                note!(self, Store, format!("page {}", self.slab_name(s)), "{}: freelist = first object, inuse = objects = {objects}, frozen = 1 (private to this CPU).", self.slab_name(s));
                Flow::Ret(Ret::new(NULL, Some(s)))
            }
        }
    }

    /// Link a new slab's objects through their free pointers, first to last (`new_slab`'s
    /// loop, the same in every era and in 7.0).
    pub(in crate::model) fn chain_objects(&mut self, s: SlabId) {
        let objects = self.cfg.objects;
        for i in 0..objects {
            // `i < objects`, so `i + 1` cannot wrap.
            let next = match i.checked_add(1) {
                Some(j) if j < objects => self.obj_addr(s, j),
                _ => NULL,
            };
            let line = self.obj_line(s, i);
            self.access(line, Access::Write);
            if let Some(w) = self.fp_slot(s, i) {
                *w = next;
            }
        }
    }
}

impl Machine {
    /// 5.15+ `___slab_alloc` (model.md §2.15): `c.*` changes only under the local lock, `c.slab`
    /// re-checked after locking, tid bumped last in every locked section, deactivation after
    /// unlocking. With `cpuPartialFrozen = false` (6.8+) a CPU partial slab is frozen when it
    /// becomes the CPU slab (by `get_freelist`).
    pub(in crate::model) fn slab_alloc_slow_ll(
        &mut self,
        pc: &mut slab_alloc_slow_ll::Pc,
        fr: &mut SlabAllocSlowLl,
    ) -> Flow {
        use slab_alloc_slow_ll::Pc::*;
        match *pc {
            LL0 => {
                step!(self);
                self.preempt_off();
                self.stat(Stat::ALLOC_SLOWPATH);
                note!(self, PreemptOff, "preempt_count".into(), "5.15+ slow path: get_cpu_ptr (preemption off), ALLOC_SLOWPATH counted at entry.");
                *pc = LL1;
                Flow::Step
            }
            LL1 => {
                step!(self);
                fr.c = self.me();
                note!(
                    self,
                    Pcpu,
                    format!("cpu_slab[{}]", fr.c),
                    "c := this CPU's kmem_cache_cpu (cpu{}).",
                    fr.c
                );
                *pc = LL2;
                Flow::Step
            }
            LL2 => {
                step!(self);
                fr.pg = self.ld_page(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].slab", fr.c),
                    "reread_slab: c->slab is {} (read without the lock).",
                    self.slab_opt_name(fr.pg)
                );
                *pc = if fr.pg.is_some() { LL3 } else { LL20 };
                Flow::Step
            }
            LL3 => {
                if !self.node_ok(fr.pg, fr.node) {
                    self.stat(Stat::ALLOC_NODE_MISMATCH);
                    *pc = LL30;
                } else {
                    *pc = LL4;
                }
                Flow::Go
            }
            LL4 | LL21 | LL30 | LL50 => {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                let cur = self.cur;
                if let Some(cpu) = self.cpu_slab_mut(self.cur_cpu) {
                    cpu.local_lock = Some(cur);
                }
                note!(
                    self,
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
                step!(self);
                let cur = self.ld_page(fr.c);
                let same = cur == fr.pg;
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].slab", fr.c),
                    "Re-check c->slab under the lock: {} ({}).",
                    self.slab_opt_name(cur),
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
                step!(self);
                if let Some(cpu) = self.cpu_slab_mut(self.cur_cpu) {
                    cpu.local_lock = None;
                }
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
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
                        self.stat(Stat::CPU_PARTIAL_ALLOC);
                        LL3
                    }
                    LL8c => {
                        self.stat(Stat::DEACTIVATE_BYPASS);
                        LL20
                    }
                    _ => LL54,
                };
                Flow::Step
            }
            LL6 => {
                step!(self);
                fr.f = self.ld_freelist(fr.c);
                fr.flag = false;
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "c->freelist is {}.",
                    self.addr_name(fr.f)
                );
                *pc = if fr.f != NULL { LL10 } else { LL7 };
                Flow::Step
            }
            LL7 => {
                *pc = LL8;
                Flow::call(Frame::GetFreelist {
                    pc: get_freelist::G1,
                    l: GetFreelist {
                        slab: need!(self, fr.pg),
                        ..GetFreelist::default()
                    },
                })
            }
            LL8 => {
                fr.f = fr.ret.value;
                if fr.f == NULL {
                    *pc = LL8a;
                } else {
                    self.stat(Stat::ALLOC_REFILL);
                    fr.flag = true;
                    *pc = LL10;
                }
                Flow::Go
            }
            LL8a | LL33 | LL55 => {
                step!(self);
                self.st_page(fr.c, None);
                note!(
                    self,
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
                step!(self);
                self.st_freelist(fr.c, NULL);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "c->freelist := NULL."
                );
                *pc = if *pc == LL34 { LL35 } else { LL57 };
                Flow::Step
            }
            LL8b | LL35 | LL57 | LL12 => {
                step!(self);
                self.bump_tid(fr.c);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].tid", fr.c),
                    "Bump tid to {}: the last write of the locked section.",
                    self.cpu_slab(fr.c).tid
                );
                *pc = match *pc {
                    LL8b => LL8c,
                    LL35 => LLu37,
                    LL57 => LL53,
                    _ => LL13,
                };
                Flow::Step
            }
            LL10 => self.s_load_freelist_next(pc, fr.f, &mut fr.nxt, LL11),
            LL11 => self.s_store_freelist_next(pc, fr.c, fr.nxt, &mut fr.flag, LL12),
            LL9 => {
                step!(self);
                self.preempt_on();
                note!(
                    self,
                    PreemptOn,
                    "preempt_count".into(),
                    "put_cpu_ptr: preemption back on; returning {}.",
                    self.addr_name(fr.f)
                );
                Flow::Ret(Ret::new(fr.f, None))
            }
            // deactivate_slab: label of ___slab_alloc (node mismatch).
            LL32 => {
                step!(self);
                fr.f = self.ld_freelist(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Detach the CPU slab: its freelist is {}.",
                    self.addr_name(fr.f)
                );
                *pc = LL33;
                Flow::Step
            }
            LL37 => {
                *pc = LL20;
                Flow::call(self.deactivate_frame(need!(self, fr.pg), fr.f, fr.c))
            }
            // new_slab: label: try the CPU partial list.
            LL20 => self.s_load_cpu_partial(
                pc,
                fr.c,
                &mut fr.p,
                LL21,
                LL40,
                "Peek at the CPU partial list (unlocked)",
            ),
            LL22 => {
                step!(self);
                let cur = self.ld_page(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].slab", fr.c),
                    "Under the lock, c->slab is {}.",
                    self.slab_opt_name(cur)
                );
                *pc = if cur.is_some() { LLu2 } else { LL23 };
                Flow::Step
            }
            LL23 => self.s_load_cpu_partial(
                pc,
                fr.c,
                &mut fr.p,
                LL24,
                LLu40,
                "Under the lock, c->partial is",
            ),
            // 5.15–6.7 install the partial slab at once (`slab = c->slab = ...`) and check
            // its node at `redo`; 6.8+ pops it first and installs it only if it matches.
            LL24 if !self.variant().cpu_partial_frozen => {
                *pc = LL25;
                Flow::Go
            }
            LL24 => self.s_install_cpu_partial(pc, fr.c, fr.p, LL25),
            LL25 => {
                step!(self);
                let p = need!(self, fr.p);
                self.access(self.page(p).line, Access::Read);
                let next = self.slab(p).next;
                self.st_partial(fr.c, next);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "c->partial := {}.",
                    self.slab_opt_name(next)
                );
                fr.pg = fr.p;
                *pc = if self.variant().cpu_partial_frozen {
                    LL26
                } else {
                    LL25n
                };
                Flow::Step
            }
            // 6.8+ `___slab_alloc`: `if (likely(node_match(slab, node) && pfmemalloc_match()))`
            // install it; else unlock, `slab->next = NULL; __put_partials(s, slab)`, loop.
            LL25n => {
                if self.node_ok(fr.p, fr.node) {
                    *pc = LL25i;
                } else {
                    *pc = LLu25; // no stat on this path
                }
                Flow::Go
            }
            LL25i => self.s_install_cpu_partial(pc, fr.c, fr.p, LL27),
            LL25p => {
                step!(self);
                let p = need!(self, fr.p);
                self.access(self.page(p).line, Access::Write);
                if let Some(sl) = self.slab_mut(p) {
                    sl.next = None;
                }
                note!(
                    self,
                    Store,
                    format!("page {}.next", self.slab_name(p)),
                    "{} is on node {}, not the requested one: slab->next := NULL and \
                     __put_partials() gives it back to its node.",
                    self.slab_name(p),
                    self.page(p).node
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
                        slab: need!(self, fr.pg),
                        ..GetFreelist::default()
                    },
                })
            }
            LL28 => {
                fr.f = fr.ret.value;
                self.stat(Stat::CPU_PARTIAL_ALLOC);
                fr.flag = true;
                *pc = if fr.f == NULL { LL8a } else { LL10 };
                Flow::Go
            }
            // new_objects: get_partial, else new_slab with preemption back on.
            LL40 => {
                let first = fr.node.unwrap_or(self.my_node());
                fr.count = 0;
                fr.n = Some(first);
                *pc = LL41;
                Flow::call(self.get_partial_frame(first, fr.c, false))
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
                                slab: need!(self, fr.p),
                                ..GetFreelist::default()
                            },
                        });
                    }
                    *pc = LL50;
                    return Flow::Go;
                }
                let next = fr.count.saturating_add(1);
                if let Some(n) = self.any_partial_node(fr.n, fr.node, next) {
                    fr.count = next;
                    return Flow::call(self.get_partial_frame(n, fr.c, true));
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
                step!(self);
                self.preempt_on();
                note!(
                    self,
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
                step!(self);
                self.preempt_off();
                fr.c = self.me();
                fr.p = fr.ret.slab;
                note!(
                    self,
                    PreemptOff,
                    "preempt_count".into(),
                    "slub_get_cpu_ptr: preemption off again, c := cpu{}.",
                    fr.c
                );
                *pc = if fr.p.is_some() { LL45 } else { LL46 };
                Flow::Step
            }
            LL46 => {
                step!(self);
                self.preempt_on();
                note!(
                    self,
                    PreemptOn,
                    "preempt_count".into(),
                    "Out of memory: return NULL."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
            LL45 => {
                step!(self);
                let p = need!(self, fr.p);
                self.access(self.page(p).line, Access::Write);
                fr.f = self.slab(p).freelist;
                if let Some(sl) = self.slab_mut(p) {
                    sl.freelist = NULL;
                }
                self.stat(Stat::ALLOC_SLAB);
                note!(
                    self,
                    Store,
                    format!("page {}.freelist", self.slab_name(p)),
                    "Take the new slab's freelist ({}...).",
                    self.addr_name(fr.f)
                );
                fr.flag = true;
                *pc = LL50;
                Flow::Step
            }
            // retry_load_slab: install under the lock, flushing a slab installed meanwhile.
            LL51 => {
                step!(self);
                fr.old = self.ld_page(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].slab", fr.c),
                    "retry_load_slab: c->slab is {}.",
                    self.slab_opt_name(fr.old)
                );
                *pc = if fr.old.is_some() { LL52 } else { LL58 };
                Flow::Step
            }
            LL52 => {
                step!(self);
                fr.prior = self.ld_freelist(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Someone installed {} meanwhile: detach it (freelist {}).",
                    self.slab_opt_name(fr.old),
                    self.addr_name(fr.prior)
                );
                *pc = LL55;
                Flow::Step
            }
            LL54 => {
                *pc = LL54r;
                Flow::call(self.deactivate_frame(need!(self, fr.old), fr.prior, fr.c))
            }
            LL54r => {
                self.stat(Stat::CPUSLAB_FLUSH);
                *pc = LL50;
                Flow::Go
            }
            LL58 => {
                step!(self);
                let p = need!(self, fr.p);
                self.st_page(fr.c, Some(p));
                if let Some(pg) = self.page_mut(p) {
                    pg.life = Life::Live;
                }
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].slab", fr.c),
                    "c->slab := {}.",
                    self.slab_name(p)
                );
                fr.pg = Some(p);
                *pc = LL10;
                Flow::Step
            }
        }
    }
}
