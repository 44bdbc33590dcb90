//! Slab-level work: `get_partial_node`/`acquire_slab` (§2.6), `put_cpu_partial` (§2.8),
//! `unfreeze_partials` (§2.9), `deactivate_slab` two-stage and splice (§2.10, §2.15),
//! `flush_slab` and `__flush_cpu_slab` (§2.11), and `cmpxchg_double_slab` with its
//! `slab_lock` fallback (§2.2).

use super::cost;
use super::memory::Access;
use super::state::*;
use super::{Flow, Machine, Stat};
use crate::model::pcs::labels::*;
use crate::model::slab_page::{counters_text, Counters};
use crate::scenario::{CmpxchgDouble, Deactivate, Fastpath, Slowpath};

pub const M_NONE: u8 = 0;
pub const M_PARTIAL: u8 = 1;
pub const M_FULL: u8 = 2;
pub const M_FREE: u8 = 3;

/// `flush_slab(s, c)`: CPU `c`, its slab `pg` and freelist `f` taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlushSlab {
    pub c: u32,
    pub f: Addr,
    pub pg: Option<SlabId>,
    pub saved_irq: bool,
}

impl Locals for FlushSlab {
    fn holds_addr(&self, a: Addr) -> bool {
        self.f == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.pg);
    }
}

/// `unfreeze_partials` / `__put_partials`: CPU `c`, the chain `p` (detached or walked), `f`/`cnt`/`new` the slab's pair, `n` the node locked, `queue` the slabs to discard.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct UnfreezePartials {
    pub c: u32,
    pub f: Addr,
    pub p: Option<SlabId>,
    pub cnt: Counters,
    pub new: Counters,
    pub n: Option<u32>,
    pub saved_irq: bool,
    pub ok: bool,
    pub flag: bool,
    pub queue: Vec<SlabId>,
}

impl Locals for UnfreezePartials {
    fn returned(&mut self, r: Ret) {
        if let Some(ok) = r.ok {
            self.ok = ok;
        }
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.f == a
    }
    fn queued(&self, s: SlabId) -> bool {
        self.queue.contains(&s)
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.p);
        for &q in &self.queue {
            mark(Some(q));
        }
    }
}

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

/// `get_partial_node(n)` for CPU `c` (`drain`: `get_any_partial`'s): `pg` the slab taken as CPU slab, `obj` its freelist, `p` the slab at hand, `count`/`pages` objects and slabs taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GetPartialNode {
    pub c: u32,
    pub obj: Addr,
    pub pg: Option<SlabId>,
    pub p: Option<SlabId>,
    pub old: Option<SlabId>,
    pub n: u32,
    pub saved_irq: bool,
    pub flag: bool,
    pub drain: bool,
    pub count: u32,
    pub pages: u32,
    pub ret: Ret,
}

impl Locals for GetPartialNode {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.obj == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.pg);
        mark(self.p);
        mark(self.old);
        mark(self.ret.slab);
    }
}

/// `acquire_slab(slab pg)` of node `n`: `f`/`cnt` the pair read, `new` the frozen counters; `lock` whether it takes the freelist (`mode`); `count` the free objects it took.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AcquireSlab {
    pub nxt: Addr,
    pub f: Addr,
    pub pg: SlabId,
    pub cnt: Counters,
    pub new: Counters,
    pub n: Option<u32>,
    pub ok: bool,
    pub lock: bool,
    pub count: u32,
}

impl Locals for AcquireSlab {
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

/// `put_cpu_partial(slab pg, drain)`: `old` the list head read, `pages`/`pobj` its counts, `p` a list detached to drain.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PutCpuPartial {
    pub c: u32,
    pub pg: SlabId,
    pub p: Option<SlabId>,
    pub old: Option<SlabId>,
    pub saved_irq: bool,
    pub drain: bool,
    pub pages: u32,
    pub pobj: u32,
}

impl Locals for PutCpuPartial {
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.pg));
        mark(self.p);
        mark(self.old);
    }
}

/// `deactivate_slab(slab pg, freelist f)` of CPU `c` on node `n`: stage one's `nxt`/`x`/`prior`/`count`, the modes `m` and `l` (`M_*`), the pair `cnt`/`new`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DeactivateSlab {
    pub c: u32,
    pub obj: Addr,
    pub nxt: Addr,
    pub x: Addr,
    pub f: Addr,
    pub prior: Addr,
    pub pg: SlabId,
    pub cnt: Counters,
    pub new: Counters,
    pub n: u32,
    pub saved_irq: bool,
    pub ok: bool,
    pub flag: bool,
    pub drain: bool,
    pub lock: bool,
    pub m: u8,
    pub l: u8,
    pub count: u32,
}

impl Locals for DeactivateSlab {
    fn returned(&mut self, r: Ret) {
        if let Some(ok) = r.ok {
            self.ok = ok;
        }
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.x == a || self.obj == a || self.f == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.pg));
    }
}

/// `__flush_cpu_slab` of CPU `c` (this CPU if `flag`): `pg` its slab, `p` its partial list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlushCpuSlab {
    pub c: u32,
    pub pg: Option<SlabId>,
    pub p: Option<SlabId>,
    pub saved_irq: bool,
    pub flag: bool,
}

impl Locals for FlushCpuSlab {
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.pg);
        mark(self.p);
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
        if self.variant().cmpxchg_double == CmpxchgDouble::SlabLock {
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
                    drain: irqsave || self.cpu(self.me()).irqs_on,
                    ..CmpxchgDoubleSlab::default()
                },
            });
        }
        step!(self);
        let ok = self.cas2_native(s, old, new);
        *result = ok;
        note!(
            self,
            Cas2,
            self.slab_pair_name(s),
            "cmpxchg_double on {}: ({}, {}) -> ({}, {}) {}.",
            self.slab_name(s),
            self.addr_name(old.0),
            counters_text(old.1),
            self.addr_name(new.0),
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
                if !fr.drain || !self.cpu(self.me()).irqs_on {
                    fr.flag = false;
                    *pc = X2;
                    return Flow::Go;
                }
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                fr.flag = true;
                note!(
                    self,
                    IrqOff,
                    "irqs".into(),
                    "cmpxchg_double_slab: interrupts off around the slab_lock fallback."
                );
                *pc = X2;
                Flow::Step
            }
            X2 => {
                step!(self);
                self.atomic(self.page(s).line, cost::Id::SpinLock);
                let cur = self.cur;
                if let Some(sl) = self.slab_mut(s) {
                    sl.slab_lock = Some(cur);
                }
                note!(
                    self,
                    BitLock,
                    format!("page {}.flags", self.slab_name(s)),
                    "slab_lock({}): take the page's bit spinlock.",
                    self.slab_name(s)
                );
                *pc = X3;
                Flow::Step
            }
            X3 => {
                step!(self);
                self.access(self.page(s).line, Access::Read);
                let (fl, cnt) = (self.slab(s).freelist, self.slab(s).counters);
                fr.ok = fl == fr.f && cnt == fr.cnt;
                note!(
                    self,
                    Load,
                    self.slab_pair_name(s),
                    "Under slab_lock: ({}, {}) {} the expected ({}, {}).",
                    self.addr_name(fl),
                    counters_text(cnt),
                    if fr.ok { "match" } else { "do not match" },
                    self.addr_name(fr.f),
                    counters_text(fr.cnt)
                );
                if !fr.ok {
                    if self.recording() {
                        let h = vec![
                            crate::event::CasHalf {
                                field: "freelist".into(),
                                expected: self.addr_name(fr.f),
                                actual: self.addr_name(fl),
                            },
                            crate::event::CasHalf {
                                field: "counters".into(),
                                expected: counters_text(fr.cnt),
                                actual: counters_text(cnt),
                            },
                        ];
                        self.ev_halves(h);
                    }
                    self.stat(Stat::CMPXCHG_DOUBLE_FAIL);
                }
                *pc = X4;
                Flow::Step
            }
            X4 => {
                if !fr.ok {
                    *pc = X5;
                    return Flow::Go;
                }
                step!(self);
                self.access(self.page(s).line, Access::Write);
                let sl = need!(self, self.slab_mut(s));
                sl.freelist = fr.nxt;
                sl.counters = fr.new;
                note!(
                    self,
                    Store,
                    self.slab_pair_name(s),
                    "Store freelist {} and {}.",
                    self.addr_name(fr.nxt),
                    counters_text(fr.new)
                );
                *pc = X5;
                Flow::Step
            }
            X5 => {
                step!(self);
                self.access(self.page(s).line, Access::Write);
                if let Some(sl) = self.slab_mut(s) {
                    sl.slab_lock = None;
                }
                note!(
                    self,
                    BitUnlock,
                    format!("page {}.flags", self.slab_name(s)),
                    "slab_unlock({}).",
                    self.slab_name(s)
                );
                *pc = X6;
                Flow::Step
            }
            X6 => {
                if !fr.flag {
                    return Flow::Ret(Ret::ok(fr.ok));
                }
                step!(self);
                self.irq_restore(fr.saved_irq);
                note!(self, IrqOn, "irqs".into(), "Interrupts restored.");
                Flow::Ret(Ret::ok(fr.ok))
            }
        }
    }

    pub(in crate::model) fn get_partial_frame(&self, n: u32, c: u32, any: bool) -> Frame {
        Frame::GetPartialNode {
            pc: get_partial_node::H1,
            l: GetPartialNode {
                n,
                c,
                drain: any,
                ..GetPartialNode::default()
            },
        }
    }

    /// `get_partial_node`: under `list_lock`, freeze the first slab as the CPU slab and move
    /// more to the CPU partial list. Returns the freelist and the slab.
    pub(in crate::model) fn get_partial_node(
        &mut self,
        pc: &mut get_partial_node::Pc,
        fr: &mut GetPartialNode,
    ) -> Flow {
        use get_partial_node::Pc::*;
        let n = fr.n;
        let v = self.variant().clone();
        match *pc {
            H1 => {
                step!(self);
                let nr = self.ld_nr_partial(n);
                let min = self.cfg.sc.cache.min_partial;
                let skip = if fr.drain { nr <= min } else { nr == 0 };
                note!(
                    self,
                    Load,
                    format!("node {n}.nr_partial"),
                    "get_partial_node: node {n} has {nr} partial slab(s) (racy hint){}.",
                    if skip { ": nothing to take" } else { "" }
                );
                if skip {
                    return {
                        *pc = H9;
                        Flow::Step
                    };
                }
                *pc = H2;
                Flow::Step
            }
            H9 => Flow::Ret(Ret::new(NULL, None)),
            H2 => {
                step!(self);
                fr.flag = self.cpu(self.me()).irqs_on;
                if fr.flag {
                    self.irq_save(&mut fr.saved_irq);
                }
                self.spin_lock(n);
                fr.p = self.node(n).partial.first().copied();
                fr.obj = NULL;
                fr.pg = None;
                fr.count = 0;
                fr.pages = 0;
                note!(
                    self,
                    Lock,
                    format!("node {n}.list_lock"),
                    "Take node {n}'s list_lock; the list head is {}.",
                    self.slab_opt_name(fr.p)
                );
                *pc = H3;
                Flow::Step
            }
            H3 => {
                let Some(p) = fr.p else {
                    *pc = H5;
                    return Flow::Go;
                };
                // list_for_each_entry_safe: remember the successor before P leaves the list.
                let list = &self.node(n).partial;
                fr.old = list.iter().skip_while(|&&x| x != p).nth(1).copied();
                if !v.cpu_partial_frozen {
                    *pc = H6;
                    return Flow::Go;
                }
                *pc = H4r;
                Flow::call(Frame::AcquireSlab {
                    pc: acquire_slab::Q1,
                    l: AcquireSlab {
                        pg: p,
                        n: Some(n),
                        lock: fr.obj == NULL && fr.pg.is_none(),
                        ..AcquireSlab::default()
                    },
                })
            }
            H4r => {
                let p = need!(self, fr.p);
                let t = fr.ret.value;
                if t == NULL {
                    *pc = H5;
                    return Flow::Go;
                }
                fr.count.bump_by(fr.ret.count);
                if fr.pg.is_none() {
                    fr.pg = Some(p);
                    fr.obj = t;
                    *pc = if v.slowpath == Slowpath::LocalLock {
                        H4c
                    } else {
                        H4a
                    };
                    if v.slowpath == Slowpath::LocalLock {
                        self.stat(Stat::ALLOC_FROM_PARTIAL);
                    }
                    return Flow::Go;
                }
                *pc = H4b;
                Flow::call(self.put_cpu_partial_frame(p, false))
            }
            H4a => {
                step!(self);
                let p = need!(self, fr.p);
                self.st_page(fr.c, Some(p));
                self.stat(Stat::ALLOC_FROM_PARTIAL);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].page", fr.c),
                    "c->page := {}, frozen by acquire_slab.",
                    self.slab_name(p)
                );
                *pc = H4c;
                Flow::Step
            }
            H4b => {
                self.stat(Stat::CPU_PARTIAL_NODE);
                *pc = H4c;
                Flow::Go
            }
            H4c => {
                let enough = if v.cpu_partial_frozen {
                    fr.count > self.cfg.sc.cache.cpu_partial / 2
                } else {
                    fr.pages > self.cpu_partial_slabs() / 2
                };
                if !v.cpu_partial || enough {
                    *pc = H5;
                } else {
                    fr.p = fr.old;
                    *pc = H3;
                }
                Flow::Go
            }
            // 6.8+: take slabs off the list unfrozen; the caller freezes the first.
            H6 => {
                step!(self);
                let p = need!(self, fr.p);
                self.remove_partial(n, p);
                note!(
                    self,
                    ListDel,
                    format!("node {n}.partial"),
                    "remove_partial({}) (6.8+: not frozen here).",
                    self.slab_name(p)
                );
                if fr.pg.is_none() {
                    fr.pg = Some(p);
                    self.stat(Stat::ALLOC_FROM_PARTIAL);
                    *pc = H4c;
                } else {
                    fr.pages.bump();
                    *pc = H6p;
                }
                Flow::Step
            }
            H6p => {
                let p = need!(self, fr.p);
                *pc = H4b;
                Flow::call(self.put_cpu_partial_frame(p, false))
            }
            H5 => {
                step!(self);
                self.spin_unlock(n);
                if fr.flag {
                    self.irq_restore(fr.saved_irq);
                }
                note!(
                    self,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Release node {n}'s list_lock; got {}.",
                    self.slab_opt_name(fr.pg)
                );
                Flow::Ret(Ret::new(fr.obj, fr.pg))
            }
        }
    }

    /// 6.8+ `cpu_partial_slabs`: ceil(2 * cpu_partial / objects), the slab budget.
    fn cpu_partial_slabs(&self) -> u32 {
        // `objects` is at least 1 (`scenario::validate_cache`).
        let objects = self.cfg.objects.max(1);
        (self.cfg.sc.cache.cpu_partial.saturating_mul(2)).div_ceil(objects)
    }

    /// `acquire_slab(n, P, mode)` (`fr.lock` = mode): freeze P with one CAS, unlink it.
    pub(in crate::model) fn acquire_slab(
        &mut self,
        pc: &mut acquire_slab::Pc,
        fr: &mut AcquireSlab,
    ) -> Flow {
        use acquire_slab::Pc::*;
        let p = fr.pg;
        match *pc {
            Q1 => {
                step!(self);
                self.access(self.page(p).line, Access::Read);
                fr.f = self.slab(p).freelist;
                note!(
                    self,
                    Load,
                    format!("page {}.freelist", self.slab_name(p)),
                    "acquire_slab({}): its freelist is {}.",
                    self.slab_name(p),
                    self.addr_name(fr.f)
                );
                *pc = Q2;
                Flow::Step
            }
            Q2 => {
                step!(self);
                self.access(self.page(p).line, Access::Read);
                fr.cnt = self.slab(p).counters;
                fr.count = fr.cnt.objects.saturating_sub(fr.cnt.inuse);
                let mut new = fr.cnt;
                new.frozen = true;
                fr.nxt = fr.f;
                if fr.lock {
                    new.inuse = new.objects;
                    fr.nxt = NULL;
                }
                fr.new = new;
                note!(
                    self,
                    Load,
                    format!("page {}.counters", self.slab_name(p)),
                    "{}: {} free; {}.",
                    counters_text(fr.cnt),
                    fr.count,
                    if fr.lock {
                        "take all its objects"
                    } else {
                        "keep its freelist (for the CPU partial list)"
                    }
                );
                *pc = Q3;
                Flow::Step
            }
            Q3 => self.cas2_site(
                pc,
                &mut fr.ok,
                p,
                (fr.f, fr.cnt),
                (fr.nxt, fr.new),
                false,
                Q3r,
            ),
            Q3r => {
                if !fr.ok && self.v3_1_slow_path() {
                    // 3.1's acquire_slab loops its CAS until the slab is frozen; 3.10's
                    // single attempt (mode) lets get_partial_node give up.
                    *pc = Q1;
                    return Flow::Go;
                }
                if !fr.ok {
                    return Flow::Ret(Ret {
                        count: fr.count,
                        ..Ret::new(NULL, None)
                    });
                }
                *pc = Q4;
                Flow::Go
            }
            Q4 => {
                step!(self);
                let n = need!(self, fr.n);
                self.remove_partial(n, p);
                note!(
                    self,
                    ListDel,
                    format!("node {n}.partial"),
                    "remove_partial({}): it is frozen now.",
                    self.slab_name(p)
                );
                Flow::Ret(Ret {
                    count: fr.count,
                    ..Ret::new(fr.f, Some(p))
                })
            }
        }
    }

    /// 3.x–5.14 push with `this_cpu_cmpxchg` (U1); from 5.15 ("mm, slub: protect
    /// put_cpu_partial() with disabled irqs instead of cmpxchg") the local-lock slow path's
    /// era pushes under `local_lock_irqsave` (U6), frozen CPU partial slabs or not.
    pub(in crate::model) fn put_cpu_partial_frame(&self, p: SlabId, drain: bool) -> Frame {
        let start = if self.variant().slowpath == Slowpath::LocalLock {
            put_cpu_partial::U6
        } else {
            put_cpu_partial::U1
        };
        Frame::PutCpuPartial {
            pc: start,
            l: PutCpuPartial {
                pg: p,
                drain,
                ..PutCpuPartial::default()
            },
        }
    }

    /// `put_cpu_partial(P, drain)`: 3.x pushes with `this_cpu_cmpxchg` (irqs and preemption
    /// on, so U1 and U5 may run on different CPUs); 5.15+ pushes under the local lock and
    /// drains by slab count (5.16+ `cpu_partial_slabs`) after unlocking.
    pub(in crate::model) fn put_cpu_partial(
        &mut self,
        pc: &mut put_cpu_partial::Pc,
        fr: &mut PutCpuPartial,
    ) -> Flow {
        use put_cpu_partial::Pc::*;
        let p = fr.pg;
        let budget = self.cfg.sc.cache.cpu_partial;
        match *pc {
            U1 => {
                step!(self);
                let k = self.me();
                self.access(self.cfg.line_cc(k), Access::Read);
                fr.old = self.cpu_slab(k).partial;
                fr.c = k;
                note!(
                    self,
                    Pld,
                    format!("cpu_slab[{k}].partial"),
                    "put_cpu_partial({}): this CPU's partial list head is {}.",
                    self.slab_name(p),
                    self.slab_opt_name(fr.old)
                );
                fr.pages = 0;
                fr.pobj = 0;
                *pc = U2;
                Flow::Step
            }
            U2 => {
                let Some(old) = fr.old else {
                    *pc = U4;
                    return Flow::Go;
                };
                step!(self);
                self.access(self.page(old).line, Access::Read);
                fr.pages = self.slab(old).pages;
                fr.pobj = self.slab(old).pobjects;
                let drain = fr.drain && fr.pobj > budget;
                note!(
                    self,
                    Load,
                    format!("page {}.(pages,pobjects)", self.slab_name(old)),
                    "The list holds {} slab(s), about {} free object(s){}.",
                    fr.pages,
                    fr.pobj,
                    if drain {
                        ": over the budget, drain it to the node first"
                    } else {
                        ""
                    }
                );
                *pc = if drain { U3 } else { U4 };
                Flow::Step
            }
            U3 => {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                note!(
                    self,
                    IrqOff,
                    "irqs".into(),
                    "Interrupts off to unfreeze this CPU's partial list."
                );
                *pc = U3b;
                Flow::Step
            }
            U3b => {
                *pc = U3c;
                Flow::call(Frame::UnfreezePartials {
                    pc: unfreeze_partials::V1,
                    l: UnfreezePartials {
                        c: self.me(),
                        ..UnfreezePartials::default()
                    },
                })
            }
            U3c => {
                step!(self);
                self.irq_restore(fr.saved_irq);
                self.stat(Stat::CPU_PARTIAL_DRAIN);
                note!(self, IrqOn, "irqs".into(), "Drained; interrupts restored.");
                fr.old = None;
                fr.pages = 0;
                fr.pobj = 0;
                *pc = U4;
                Flow::Step
            }
            U4 => {
                step!(self);
                self.access(self.page(p).line, Access::Write);
                let free = {
                    let c = self.slab(p).counters;
                    c.objects.saturating_sub(c.inuse)
                };
                // Counts of the CPU partial list, bounded by its budget (`cpu_partial`).
                let (pages, pobjects) = (fr.pages.saturating_add(1), fr.pobj.saturating_add(free));
                let sl = need!(self, self.slab_mut(p));
                sl.pages = pages;
                sl.pobjects = pobjects;
                sl.next = fr.old;
                note!(
                    self,
                    Store,
                    format!("page {}.(next,pages,pobjects)", self.slab_name(p)),
                    "{}.next := {}, pages {}, pobjects {}.",
                    self.slab_name(p),
                    self.slab_opt_name(fr.old),
                    pages,
                    pobjects
                );
                *pc = U5;
                Flow::Step
            }
            U5 => {
                step!(self);
                let k = self.me();
                self.atomic(self.cfg.line_cc(k), cost::Id::PercpuCmpxchg);
                let ok = self.cpu_slab(k).partial == fr.old;
                self.set_ok(ok);
                if ok {
                    if let Some(cpu) = self.cpu_slab_mut(k) {
                        cpu.partial = Some(p);
                    }
                }
                note!(
                    self,
                    Pcas,
                    format!("cpu_slab[{k}].partial"),
                    "this_cpu_cmpxchg(partial: {} -> {}) on cpu{k} {}.",
                    self.slab_opt_name(fr.old),
                    self.slab_name(p),
                    if ok { "succeeds" } else { "fails: retry" }
                );
                if ok {
                    return {
                        *pc = U9;
                        Flow::Step
                    };
                }
                *pc = U1;
                Flow::Step
            }
            U9 => Flow::Ret(Ret::new(NULL, None)),
            // 6.8+: under local_lock_irqsave with plain stores; drain after unlocking.
            U6 => {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                fr.c = self.me();
                let cur = self.cur;
                if let Some(cpu) = self.cpu_slab_mut(fr.c) {
                    cpu.local_lock = Some(cur);
                }
                note!(
                    self,
                    LocalLock,
                    format!("cpu_slab[{}].lock", fr.c),
                    "put_cpu_partial({}): local_lock_irqsave.",
                    self.slab_name(p)
                );
                *pc = U7;
                Flow::Step
            }
            U7 => {
                step!(self);
                fr.old = self.ld_partial(fr.c);
                fr.pages = 0;
                fr.p = None;
                if let Some(old) = fr.old {
                    self.access(self.page(old).line, Access::Read);
                    let slabs = self.slab(old).pages;
                    if fr.drain && slabs >= self.cpu_partial_slabs() {
                        fr.p = Some(old);
                        fr.old = None;
                    } else {
                        fr.pages = slabs;
                    }
                }
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].partial", fr.c),
                    "The CPU partial list is {}{}.",
                    self.slab_opt_name(fr.old.or(fr.p)),
                    if fr.p.is_some() {
                        ": full, it will be drained"
                    } else {
                        ""
                    }
                );
                *pc = U8;
                Flow::Step
            }
            U8 => {
                step!(self);
                self.access(self.page(p).line, Access::Write);
                let pages = fr.pages.saturating_add(1);
                let sl = need!(self, self.slab_mut(p));
                sl.pages = pages;
                sl.next = fr.old;
                note!(
                    self,
                    Store,
                    format!("page {}.(next,slabs)", self.slab_name(p)),
                    "{}.next := {}, slabs {}.",
                    self.slab_name(p),
                    self.slab_opt_name(fr.old),
                    pages
                );
                *pc = U10;
                Flow::Step
            }
            U10 => {
                step!(self);
                self.st_partial(fr.c, Some(p));
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "c->partial := {}.",
                    self.slab_name(p)
                );
                *pc = U11;
                Flow::Step
            }
            U11 => {
                step!(self);
                if let Some(cpu) = self.cpu_slab_mut(fr.c) {
                    cpu.local_lock = None;
                }
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
                    LocalUnlock,
                    format!("cpu_slab[{}].lock", fr.c),
                    "local_unlock_irqrestore."
                );
                *pc = U12;
                Flow::Step
            }
            U12 => {
                let Some(chain) = fr.p else {
                    return Flow::Ret(Ret::new(NULL, None));
                };
                *pc = U13;
                Flow::call(Frame::UnfreezePartials {
                    pc: unfreeze_partials::V3z,
                    l: UnfreezePartials {
                        c: fr.c,
                        p: Some(chain),
                        ..UnfreezePartials::default()
                    },
                })
            }
            U13 => {
                self.stat(Stat::CPU_PARTIAL_DRAIN);
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    /// `unfreeze_partials(c)` (3.x) / `__put_partials` (6.8+): move a CPU partial list to the
    /// node lists, discarding empty slabs when the node has enough.
    pub(in crate::model) fn unfreeze_partials(
        &mut self,
        pc: &mut unfreeze_partials::Pc,
        fr: &mut UnfreezePartials,
    ) -> Flow {
        use unfreeze_partials::Pc::*;
        let frozen = self.variant().cpu_partial_frozen;
        // Whether the list is walked as a detached chain (5.15+) rather than popped from c.
        let chain = !frozen || self.variant().slowpath == Slowpath::LocalLock;
        match *pc {
            V1 => {
                step!(self);
                fr.p = self.ld_partial(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].partial", fr.c),
                    "unfreeze_partials: next on cpu{}'s partial list is {}.",
                    fr.c,
                    self.slab_opt_name(fr.p)
                );
                // 3.x pops one slab at a time (V2); 5.15+ `unfreeze_partials` detaches the
                // whole list and `__unfreeze_partials` / `__put_partials` walk it (VZ2).
                *pc = match (fr.p.is_some(), frozen && !chain) {
                    (false, _) => V7,
                    (true, true) => V2,
                    (true, false) => VZ2,
                };
                Flow::Step
            }
            V2 => {
                step!(self);
                let p = need!(self, fr.p);
                self.access(self.page(p).line, Access::Read);
                let next = self.slab(p).next;
                self.st_partial(fr.c, next);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "Pop {}: c->partial := {}.",
                    self.slab_name(p),
                    self.slab_opt_name(next)
                );
                *pc = V3;
                Flow::Step
            }
            VZ2 => {
                step!(self);
                self.st_partial(fr.c, None);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "Detach the whole CPU partial list."
                );
                *pc = V3z;
                Flow::Step
            }
            V3z => {
                if fr.p.is_none() {
                    *pc = V7;
                    return Flow::Go;
                }
                *pc = V3;
                Flow::Go
            }
            V3 => {
                let n2 = self.node_of_slab(need!(self, fr.p));
                if fr.n == Some(n2) {
                    *pc = if frozen { V4 } else { VZ6 };
                    return Flow::Go;
                }
                if fr.n.is_some() {
                    *pc = V3u;
                } else {
                    *pc = V3l;
                }
                Flow::Go
            }
            V3u => {
                step!(self);
                let n = need!(self, fr.n.take());
                self.spin_unlock(n);
                note!(
                    self,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Next slab is on another node: unlock node {n}."
                );
                *pc = V3l;
                Flow::Step
            }
            V3l => {
                step!(self);
                let n2 = self.node_of_slab(need!(self, fr.p));
                if self.cpu(self.me()).irqs_on {
                    self.irq_save(&mut fr.saved_irq);
                    fr.flag = true;
                }
                self.spin_lock(n2);
                fr.n = Some(n2);
                note!(
                    self,
                    Lock,
                    format!("node {n2}.list_lock"),
                    "Take node {n2}'s list_lock."
                );
                *pc = if frozen { V4 } else { VZ6 };
                Flow::Step
            }
            V4 => {
                step!(self);
                let p = need!(self, fr.p);
                (fr.f, fr.cnt) =
                    self.read_slab_pair(p, |m, f, cnt| format!("{}.", m.slab_pair_text(p, f, cnt)));
                fr.new = Counters {
                    frozen: false,
                    ..fr.cnt
                };
                *pc = V5;
                Flow::Step
            }
            V5 => {
                let p = need!(self, fr.p);
                self.cas2_site(
                    pc,
                    &mut fr.ok,
                    p,
                    (fr.f, fr.cnt),
                    (fr.f, fr.new),
                    false,
                    V5r,
                )
            }
            V5r => {
                *pc = if fr.ok { V6 } else { V4 };
                Flow::Go
            }
            V6 | VZ6 => {
                step!(self);
                let p = need!(self, fr.p);
                let n = need!(self, fr.n);
                let nr = self.ld_nr_partial(n);
                let inuse = self.slab(p).counters.inuse;
                let next = if chain {
                    self.access(self.page(p).line, Access::Read);
                    self.slab(p).next
                } else {
                    None
                };
                let discard =
                    (if *pc == V6 { fr.new.inuse } else { inuse }) == 0 && self.discard_ok(nr);
                if discard {
                    fr.queue.push(p);
                } else {
                    self.add_partial(n, p, true);
                    self.stat(Stat::FREE_ADD_PARTIAL);
                }
                note!(
                    self,
                    ListAdd,
                    format!("node {n}.partial"),
                    "{}",
                    if discard {
                        format!("{} is empty and node {n} has {nr} partial slab(s): queue it for discard.", self.slab_name(p))
                    } else {
                        format!(
                            "add_partial({}) at the tail of node {n}.",
                            self.slab_name(p)
                        )
                    }
                );
                if chain {
                    fr.p = next;
                    *pc = V3z;
                } else {
                    *pc = V1;
                }
                Flow::Step
            }
            V7 => {
                let Some(n) = fr.n else {
                    *pc = V8;
                    return Flow::Go;
                };
                step!(self);
                self.spin_unlock(n);
                if fr.flag {
                    self.irq_restore(fr.saved_irq);
                }
                fr.n = None;
                note!(
                    self,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Release node {n}'s list_lock."
                );
                *pc = V8;
                Flow::Step
            }
            V8 => {
                if fr.queue.is_empty() {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                step!(self);
                let p = fr.queue.remove(0);
                self.stat(Stat::DEACTIVATE_EMPTY);
                self.discard_slab(p);
                self.stat(Stat::FREE_SLAB);
                note!(
                    self,
                    PageFree,
                    format!("page {}", self.slab_name(p)),
                    "discard_slab({}).",
                    self.slab_name(p)
                );
                Flow::Step
            }
        }
    }

    pub(in crate::model) fn deactivate_frame(&self, p: SlabId, freelist: Addr, c: u32) -> Frame {
        let start = match self.variant().deactivate {
            Deactivate::TwoStage => deactivate_slab::D0,
            Deactivate::Splice => deactivate_slab::DS0,
        };
        Frame::DeactivateSlab {
            pc: start,
            l: DeactivateSlab {
                pg: p,
                f: freelist,
                c,
                n: self.node_of_slab(p),
                m: M_NONE,
                l: M_NONE,
                ..DeactivateSlab::default()
            },
        }
    }

    /// `deactivate_slab(P, freelist)`: give a CPU slab and its CPU freelist back.
    pub(in crate::model) fn deactivate_slab(
        &mut self,
        pc: &mut deactivate_slab::Pc,
        fr: &mut DeactivateSlab,
    ) -> Flow {
        use deactivate_slab::Pc::*;
        let p = fr.pg;
        let n = fr.n;
        match *pc {
            D0 | DS0 => {
                step!(self);
                self.access(self.page(p).line, Access::Read);
                fr.flag = self.slab(p).freelist != NULL; // tail: remote frees arrived
                if fr.flag {
                    self.stat(Stat::DEACTIVATE_REMOTE_FREES);
                }
                note!(
                    self,
                    Load,
                    format!("page {}.freelist", self.slab_name(p)),
                    "deactivate_slab({}, {}): {}.",
                    self.slab_name(p),
                    self.addr_name(fr.f),
                    if fr.flag {
                        "other CPUs freed objects into it meanwhile"
                    } else {
                        "no remote frees"
                    }
                );
                if *pc == DS0 {
                    fr.obj = fr.f;
                    fr.prior = NULL;
                    fr.count = 0;
                    *pc = DS1;
                } else {
                    *pc = D0b;
                }
                Flow::Step
            }
            // Stage 1: hand back all but the last CPU-freelist object, one CAS each.
            D0b => {
                if fr.f == NULL {
                    *pc = D4;
                    return Flow::Go;
                }
                step!(self);
                fr.nxt = self.load_fp(fr.f);
                note!(
                    self,
                    Load,
                    format!("{}.fp", self.addr_name(fr.f)),
                    "Stage 1: {} is followed by {}.",
                    self.addr_name(fr.f),
                    self.addr_name(fr.nxt)
                );
                *pc = if fr.nxt == NULL { D4 } else { D1 };
                Flow::Step
            }
            D1 => {
                step!(self);
                (fr.prior, fr.cnt) =
                    self.read_slab_pair(p, |m, f, cnt| format!("{}.", m.slab_pair_text(p, f, cnt)));
                *pc = D2;
                Flow::Step
            }
            D2 => {
                step!(self);
                self.store_fp(fr.f, fr.prior);
                note!(
                    self,
                    Store,
                    format!("{}.fp", self.addr_name(fr.f)),
                    "Link {} in front of {}.",
                    self.addr_name(fr.f),
                    self.addr_name(fr.prior)
                );
                fr.new = Counters {
                    inuse: fr.cnt.inuse.wrapping_sub(1) & 0xffff,
                    ..fr.cnt
                };
                *pc = D3;
                Flow::Step
            }
            D3 => self.cas2_site(
                pc,
                &mut fr.ok,
                p,
                (fr.prior, fr.cnt),
                (fr.f, fr.new),
                false,
                D3r,
            ),
            D3r => {
                if fr.ok {
                    fr.f = fr.nxt;
                    *pc = D0b;
                } else {
                    *pc = D1;
                }
                Flow::Go
            }
            // Stage 2: choose the list first, then unfreeze with one CAS.
            D4 => {
                step!(self);
                let (of, oc) = self.ld_slab_pair(p);
                let nr = self.ld_nr_partial(n);
                fr.prior = of;
                fr.cnt = oc;
                let mut new = Counters {
                    frozen: false,
                    ..oc
                };
                if fr.f != NULL {
                    new.inuse = new.inuse.wrapping_sub(1) & 0xffff;
                }
                fr.new = new;
                let nf = if fr.f != NULL { fr.f } else { of };
                fr.nxt = nf;
                fr.m = if new.inuse == 0 && self.discard_ok(nr) {
                    M_FREE
                } else if nf != NULL {
                    M_PARTIAL
                } else {
                    M_FULL
                };
                note!(
                    self,
                    Load,
                    self.slab_pair_name(p),
                    "Stage 2: {} has freelist {}, {}; it will be {}.",
                    self.slab_name(p),
                    self.addr_name(of),
                    counters_text(oc),
                    match fr.m {
                        M_FREE => "discarded (empty)",
                        M_PARTIAL => "put on the node partial list",
                        _ => "full, on no list",
                    }
                );
                *pc = if fr.f != NULL { D5 } else { D6 };
                Flow::Step
            }
            D5 => {
                step!(self);
                self.store_fp(fr.f, fr.prior);
                note!(
                    self,
                    Store,
                    format!("{}.fp", self.addr_name(fr.f)),
                    "Link the last CPU-freelist object {} in front of {}.",
                    self.addr_name(fr.f),
                    self.addr_name(fr.prior)
                );
                *pc = D6;
                Flow::Step
            }
            D6 => {
                if fr.m != M_PARTIAL || fr.lock {
                    *pc = D7;
                    return Flow::Go;
                }
                step!(self);
                // 5.15+ deactivates with interrupts on: spin_lock_irqsave there.
                fr.drain = self.cpu(self.me()).irqs_on;
                if fr.drain {
                    self.irq_save(&mut fr.saved_irq);
                }
                self.spin_lock(n);
                fr.lock = true;
                note!(
                    self,
                    Lock,
                    format!("node {n}.list_lock"),
                    "Take list_lock: the slab goes on the partial list before it is unfrozen."
                );
                *pc = D7;
                Flow::Step
            }
            D7 => {
                *pc = if fr.l == fr.m {
                    D8
                } else if fr.l == M_PARTIAL {
                    D7r
                } else {
                    D7a
                };
                Flow::Go
            }
            D7r => {
                step!(self);
                self.remove_partial(n, p);
                note!(
                    self,
                    ListDel,
                    format!("node {n}.partial"),
                    "The decision changed: take {} off the partial list again.",
                    self.slab_name(p)
                );
                *pc = D7a;
                Flow::Step
            }
            D7a => {
                let m = fr.m;
                fr.l = m;
                if m == M_FULL {
                    self.stat(Stat::DEACTIVATE_FULL);
                }
                if m != M_PARTIAL {
                    *pc = D8;
                    return Flow::Go;
                }
                step!(self);
                self.add_partial(n, p, fr.flag);
                self.stat(if fr.flag {
                    Stat::DEACTIVATE_TO_TAIL
                } else {
                    Stat::DEACTIVATE_TO_HEAD
                });
                note!(
                    self,
                    ListAdd,
                    format!("node {n}.partial"),
                    "add_partial({}) at the {} (still frozen until the CAS).",
                    self.slab_name(p),
                    if fr.flag { "tail" } else { "head" }
                );
                *pc = D8;
                Flow::Step
            }
            D8 => self.cas2_site(
                pc,
                &mut fr.ok,
                p,
                (fr.prior, fr.cnt),
                (fr.nxt, fr.new),
                false,
                D8r,
            ),
            D8r => {
                *pc = if fr.ok { D9 } else { D4 };
                Flow::Go
            }
            D9 => {
                if !fr.lock {
                    *pc = D10;
                    return Flow::Go;
                }
                step!(self);
                self.spin_unlock(n);
                if fr.drain {
                    self.irq_restore(fr.saved_irq);
                }
                note!(
                    self,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Release list_lock."
                );
                *pc = D10;
                Flow::Step
            }
            D10 => {
                if fr.m != M_FREE {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                step!(self);
                self.stat(Stat::DEACTIVATE_EMPTY);
                self.discard_slab(p);
                self.stat(Stat::FREE_SLAB);
                note!(
                    self,
                    PageFree,
                    format!("page {}", self.slab_name(p)),
                    "discard_slab({}): empty, and the node has enough partial slabs.",
                    self.slab_name(p)
                );
                Flow::Ret(Ret::new(NULL, None))
            }
            // Modern splice: count the CPU freelist, then one CAS, then list work.
            DS1 => {
                if fr.obj == NULL {
                    *pc = DS2;
                    return Flow::Go;
                }
                step!(self);
                let nxt = self.load_fp(fr.obj);
                fr.count.bump();
                fr.prior = fr.obj;
                note!(
                    self,
                    Load,
                    format!("{}.fp", self.addr_name(fr.obj)),
                    "Walk the CPU freelist: {} -> {} ({} so far).",
                    self.addr_name(fr.obj),
                    self.addr_name(nxt),
                    fr.count
                );
                fr.obj = if fr.count > self.cfg.objects {
                    NULL
                } else {
                    nxt
                };
                Flow::Step
            }
            DS2 => {
                step!(self);
                let (of, oc) =
                    self.read_slab_pair(p, |m, f, cnt| format!("{}.", m.slab_pair_text(p, f, cnt)));
                fr.cnt = oc;
                fr.x = of;
                fr.new = Counters {
                    frozen: false,
                    inuse: oc.inuse.wrapping_sub(fr.count) & 0xffff,
                    ..oc
                };
                fr.nxt = if fr.f != NULL { fr.f } else { of };
                *pc = if fr.f != NULL { DS3 } else { DS4 };
                Flow::Step
            }
            DS3 => {
                step!(self);
                self.store_fp(fr.prior, fr.x);
                note!(
                    self,
                    Store,
                    format!("{}.fp", self.addr_name(fr.prior)),
                    "Splice: the CPU freelist's tail {} now points to {}.",
                    self.addr_name(fr.prior),
                    self.addr_name(fr.x)
                );
                *pc = DS4;
                Flow::Step
            }
            DS4 => {
                // 5.17–6.7 (CPU partial slabs still frozen): choose the mode and take
                // list_lock *before* the CAS, so no free can see the slab unfrozen and off
                // the list. 6.8+ decides after the CAS (`__slab_free` checks list membership).
                if self.variant().cpu_partial_frozen && !fr.lock {
                    *pc = DSL;
                    return Flow::Go;
                }
                self.cas2_site(
                    pc,
                    &mut fr.ok,
                    p,
                    (fr.x, fr.cnt),
                    (fr.nxt, fr.new),
                    true,
                    DS4r,
                )
            }
            DSL => {
                step!(self);
                let nr = self.ld_nr_partial(n);
                fr.m = if fr.new.inuse == 0 && self.discard_ok(nr) {
                    M_FREE
                } else if fr.nxt != NULL {
                    M_PARTIAL
                } else {
                    M_FULL
                };
                fr.lock = true;
                note!(self, Load, format!("node {n}.nr_partial"), "Decide before the CAS (5.17–6.7): node {n} has {nr} partial slab(s), so the slab will be {}.", match fr.m { M_FREE => "discarded", M_PARTIAL => "put on the partial list", _ => "left full" });
                *pc = if fr.m == M_PARTIAL { DSK } else { DS4 };
                Flow::Step
            }
            DSK => {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                self.spin_lock(n);
                note!(self, Lock, format!("node {n}.list_lock"), "Take list_lock before the unfreezing CAS, so no free sees it unfrozen and off the list.");
                *pc = DS4;
                Flow::Step
            }
            DS4r => {
                if self.variant().cpu_partial_frozen {
                    *pc = if fr.ok {
                        match fr.m {
                            M_FREE => D10,
                            M_PARTIAL => DS7,
                            _ => DS9,
                        }
                    } else if fr.m == M_PARTIAL {
                        DSU
                    } else {
                        fr.lock = false;
                        DS2
                    };
                    return Flow::Go;
                }
                *pc = if fr.ok { DS5 } else { DS2 };
                Flow::Go
            }
            DSU => {
                step!(self);
                self.spin_unlock(n);
                self.irq_restore(fr.saved_irq);
                fr.lock = false;
                note!(
                    self,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "The CAS failed: unlock and redo."
                );
                *pc = DS2;
                Flow::Step
            }
            DS5 => {
                step!(self);
                let nr = self.ld_nr_partial(n);
                fr.m = if fr.new.inuse == 0 && self.discard_ok(nr) {
                    M_FREE
                } else if fr.nxt != NULL {
                    M_PARTIAL
                } else {
                    M_FULL
                };
                note!(
                    self,
                    Load,
                    format!("node {n}.nr_partial"),
                    "Unfrozen; node {n} has {nr} partial slab(s): {}.",
                    match fr.m {
                        M_FREE => "discard it",
                        M_PARTIAL => "add it to the partial list",
                        _ => "full, leave it on no list",
                    }
                );
                *pc = match fr.m {
                    M_FREE => D10,
                    M_PARTIAL => DS6,
                    _ => DS9,
                };
                Flow::Step
            }
            DS9 => {
                self.stat(Stat::DEACTIVATE_FULL);
                Flow::Ret(Ret::new(NULL, None))
            }
            DS6 => {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                self.spin_lock(n);
                fr.lock = true;
                note!(
                    self,
                    Lock,
                    format!("node {n}.list_lock"),
                    "spin_lock_irqsave(list_lock)."
                );
                *pc = DS7;
                Flow::Step
            }
            DS7 => {
                step!(self);
                self.add_partial(n, p, fr.flag);
                self.stat(if fr.flag {
                    Stat::DEACTIVATE_TO_TAIL
                } else {
                    Stat::DEACTIVATE_TO_HEAD
                });
                note!(
                    self,
                    ListAdd,
                    format!("node {n}.partial"),
                    "add_partial({}) at the {}.",
                    self.slab_name(p),
                    if fr.flag { "tail" } else { "head" }
                );
                *pc = DS8;
                Flow::Step
            }
            DS8 => {
                step!(self);
                self.spin_unlock(n);
                self.irq_restore(fr.saved_irq);
                fr.lock = false;
                note!(
                    self,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Release list_lock."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    /// `flush_slab(c)`: deactivate CPU c's slab and clear `c.page`/`c.freelist`, in the
    /// write order of the era (3.10: deactivate, tid, page, freelist; 3.1: tid and page
    /// first; 5.15+: detach under the local lock with tid last, deactivate after).
    pub(in crate::model) fn flush_slab(
        &mut self,
        pc: &mut flush_slab::Pc,
        fr: &mut FlushSlab,
    ) -> Flow {
        use flush_slab::Pc::*;
        let c = fr.c;
        let v = self.variant().clone();
        match *pc {
            W1 => {
                // 5.15+ count CPUSLAB_FLUSH after the deactivation (K8).
                if v.slowpath == Slowpath::LocalLock {
                    *pc = K1;
                    return Flow::Go;
                }
                self.stat(Stat::CPUSLAB_FLUSH);
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
                step!(self);
                fr.pg = self.ld_page(c);
                fr.f = self.cpu_slab(c).freelist;
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{c}].(page,freelist)"),
                    "flush_slab: cpu{c}'s slab {} with freelist {}.",
                    self.slab_opt_name(fr.pg),
                    self.addr_name(fr.f)
                );
                *pc = W2c;
                Flow::Step
            }
            W2c => {
                *pc = W3;
                match fr.pg {
                    Some(p) => Flow::call(self.deactivate_frame(p, fr.f, c)),
                    None => Flow::Go,
                }
            }
            W3 | T2 | K5 => {
                step!(self);
                self.bump_tid(c);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{c}].tid"),
                    "Bump cpu{c}'s tid to {}.",
                    self.cpu_slab(c).tid
                );
                *pc = match *pc {
                    W3 => W4,
                    T2 => T3,
                    _ => K6,
                };
                Flow::Step
            }
            W4 | T3 | K3 => {
                step!(self);
                self.st_page(c, None);
                note!(
                    self,
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
                step!(self);
                self.st_freelist(c, NULL);
                note!(
                    self,
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
                step!(self);
                fr.pg = self.ld_page(c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{c}].page"),
                    "3.1 flush: cpu{c}'s slab is {}.",
                    self.slab_opt_name(fr.pg)
                );
                *pc = T2;
                Flow::Step
            }
            T4 => {
                step!(self);
                fr.f = self.ld_freelist(c);
                self.access(self.cfg.line_cc(c), Access::Write);
                let cpu = need!(self, self.cpu_slab_mut(c));
                cpu.freelist = NULL;
                cpu.ghost_version.bump();
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{c}].freelist"),
                    "Take cpu{c}'s freelist {} and clear it.",
                    self.addr_name(fr.f)
                );
                *pc = K7;
                Flow::Step
            }
            // 5.15+: detach under the local lock.
            K1 => {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                let cur = self.cur;
                if let Some(cpu) = self.cpu_slab_mut(c) {
                    cpu.local_lock = Some(cur);
                }
                note!(
                    self,
                    LocalLock,
                    format!("cpu_slab[{c}].lock"),
                    "flush_slab: local_lock_irqsave."
                );
                *pc = K2;
                Flow::Step
            }
            K2 => {
                step!(self);
                fr.pg = self.ld_page(c);
                fr.f = self.cpu_slab(c).freelist;
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{c}].(slab,freelist)"),
                    "Detach slab {} with freelist {}.",
                    self.slab_opt_name(fr.pg),
                    self.addr_name(fr.f)
                );
                *pc = K3;
                Flow::Step
            }
            K6 => {
                step!(self);
                if let Some(cpu) = self.cpu_slab_mut(c) {
                    cpu.local_lock = None;
                }
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
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
                    Some(p) => Flow::call(self.deactivate_frame(p, fr.f, c)),
                    None => Flow::Go,
                }
            }
            K8 => {
                // (The 3.1 order, T1–T4, joins at K7 and counted at W1.)
                if fr.pg.is_some() && v.slowpath == Slowpath::LocalLock {
                    self.stat(Stat::CPUSLAB_FLUSH);
                }
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    /// The `flush` op: `__flush_cpu_slab(cpu)` with interrupts off (model.md §2.11).
    pub(in crate::model) fn flush_cpu_slab(
        &mut self,
        pc: &mut flush_cpu_slab::Pc,
        fr: &mut FlushCpuSlab,
    ) -> Flow {
        use flush_cpu_slab::Pc::*;
        match *pc {
            FC0 if self.variant().slowpath == Slowpath::LocalLock => {
                // 5.15+: flush_cpu_slab runs from a work item bound to its CPU (migration
                // off) with interrupts on; slub_cpu_dead (a survivor flushing a dead CPU)
                // needs no irq disabling either. Only the detaches take the local lock.
                step!(self);
                self.preempt_off();
                if fr.flag {
                    fr.c = self.me();
                }
                note!(
                    self,
                    PreemptOff,
                    "preempt_count".into(),
                    "flush_cpu_slab(cpu{}) from a work item: interrupts stay on.",
                    fr.c
                );
                *pc = FC2;
                Flow::Step
            }
            FC0 => {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                if fr.flag {
                    fr.c = self.me();
                }
                note!(
                    self,
                    IrqOff,
                    "irqs".into(),
                    "__flush_cpu_slab(cpu{}) with interrupts off.",
                    fr.c
                );
                *pc = FC2;
                Flow::Step
            }
            FC2 => {
                step!(self);
                fr.pg = self.ld_page(fr.c);
                note!(
                    self,
                    Load,
                    format!("cpu_slab[{}].page", fr.c),
                    "cpu{}'s slab is {}.",
                    fr.c,
                    self.slab_opt_name(fr.pg)
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
            FC3 if self.variant().slowpath == Slowpath::LocalLock
                && self.variant().cpu_partial
                && fr.flag =>
            {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                let cur = self.cur;
                if let Some(cpu) = self.cpu_slab_mut(fr.c) {
                    cpu.local_lock = Some(cur);
                }
                note!(
                    self,
                    LocalLock,
                    format!("cpu_slab[{}].lock", fr.c),
                    "put_partials: local_lock_irqsave."
                );
                *pc = FC3p;
                Flow::Step
            }
            FC3p => {
                step!(self);
                fr.p = self.ld_partial(fr.c);
                self.st_partial(fr.c, None);
                note!(
                    self,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "Detach the CPU partial list {} (c->partial := NULL).",
                    self.slab_opt_name(fr.p)
                );
                *pc = FC3u;
                Flow::Step
            }
            FC3u => {
                step!(self);
                if let Some(cpu) = self.cpu_slab_mut(fr.c) {
                    cpu.local_lock = None;
                }
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
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
                if self.variant().cpu_partial {
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
            FC4 if self.variant().slowpath == Slowpath::LocalLock => {
                step!(self);
                self.preempt_on();
                note!(
                    self,
                    PreemptOn,
                    "preempt_count".into(),
                    "Flush of cpu{} done.",
                    fr.c
                );
                Flow::Ret(Ret::new(NULL, None))
            }
            FC4 => {
                step!(self);
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
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
