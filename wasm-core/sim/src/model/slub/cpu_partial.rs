//! The per-CPU partial list: `put_cpu_partial` (model.md §2.8), which pushes a frozen slab
//! with a CAS on `c->partial` and drains the list when it is full, and `unfreeze_partials`
//! (§2.9), which moves the list's slabs back to their nodes' partial lists (or frees them).

use super::cost;
use super::memory::Access;
use super::state::*;
use super::{Flow, SlubState, Stat};
use crate::model::locals::{PutCpuPartial, UnfreezePartials};
use crate::model::pcs::labels::*;
use crate::model::slab_page::{discard_ok, slab_pair_text, Counters};
use crate::model::Core;
use crate::scenario::Slowpath;

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

impl Locals for PutCpuPartial {
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.pg));
        mark(self.p);
        mark(self.old);
    }
}

impl SlubState {
    /// 6.8+ `cpu_partial_slabs`: ceil(2 * cpu_partial / objects), the slab budget.
    pub(super) fn cpu_partial_slabs(core: &Core) -> u32 {
        // `objects` is at least 1 (`scenario::validate_cache`).
        let objects = core.cfg.objects.max(1);
        (core.cfg.sc.cache.cpu_partial.saturating_mul(2)).div_ceil(objects)
    }

    /// 3.x–5.14 push with `this_cpu_cmpxchg` (U1); from 5.15 ("mm, slub: protect
    /// put_cpu_partial() with disabled irqs instead of cmpxchg") the local-lock slow path's
    /// era pushes under `local_lock_irqsave` (U6), frozen CPU partial slabs or not.
    pub(in crate::model) fn put_cpu_partial_frame(core: &Core, p: SlabId, drain: bool) -> Frame {
        let start = if core.variant().slowpath == Slowpath::LocalLock {
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
        core: &mut Core,
        pc: &mut put_cpu_partial::Pc,
        fr: &mut PutCpuPartial,
    ) -> Flow {
        use put_cpu_partial::Pc::*;
        let p = fr.pg;
        let budget = core.cfg.sc.cache.cpu_partial;
        match *pc {
            U1 => {
                step!(core);
                let k = core.me();
                core.access(core.cfg.line_cc(k), Access::Read);
                fr.old = self.cpu_slab(core, k).partial;
                fr.c = k;
                note!(
                    core,
                    Pld,
                    format!("cpu_slab[{k}].partial"),
                    "put_cpu_partial({}): this CPU's partial list head is {}.",
                    core.slab_name(p),
                    core.slab_opt_name(fr.old)
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
                step!(core);
                core.access(core.page(old).line, Access::Read);
                fr.pages = self.slab(core, old).pages;
                fr.pobj = self.slab(core, old).pobjects;
                let drain = fr.drain && fr.pobj > budget;
                note!(
                    core,
                    Load,
                    format!("page {}.(pages,pobjects)", core.slab_name(old)),
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
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                note!(
                    core,
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
                        c: core.me(),
                        ..UnfreezePartials::default()
                    },
                })
            }
            U3c => {
                step!(core);
                core.irq_restore(fr.saved_irq);
                core.stat(Stat::CPU_PARTIAL_DRAIN);
                note!(core, IrqOn, "irqs".into(), "Drained; interrupts restored.");
                fr.old = None;
                fr.pages = 0;
                fr.pobj = 0;
                *pc = U4;
                Flow::Step
            }
            U4 => {
                step!(core);
                core.access(core.page(p).line, Access::Write);
                let free = {
                    let c = self.slab(core, p).counters;
                    c.objects.saturating_sub(c.inuse)
                };
                // Counts of the CPU partial list, bounded by its budget (`cpu_partial`).
                let (pages, pobjects) = (fr.pages.saturating_add(1), fr.pobj.saturating_add(free));
                let sl = need!(core, self.slab_mut(core, p));
                sl.pages = pages;
                sl.pobjects = pobjects;
                sl.next = fr.old;
                note!(
                    core,
                    Store,
                    format!("page {}.(next,pages,pobjects)", core.slab_name(p)),
                    "{}.next := {}, pages {}, pobjects {}.",
                    core.slab_name(p),
                    core.slab_opt_name(fr.old),
                    pages,
                    pobjects
                );
                *pc = U5;
                Flow::Step
            }
            U5 => {
                step!(core);
                let k = core.me();
                core.atomic(core.cfg.line_cc(k), cost::Id::PercpuCmpxchg);
                let ok = self.cpu_slab(core, k).partial == fr.old;
                core.set_ok(ok);
                if ok {
                    if let Some(cpu) = self.cpu_slab_mut(core, k) {
                        cpu.partial = Some(p);
                    }
                }
                note!(
                    core,
                    Pcas,
                    format!("cpu_slab[{k}].partial"),
                    "this_cpu_cmpxchg(partial: {} -> {}) on cpu{k} {}.",
                    core.slab_opt_name(fr.old),
                    core.slab_name(p),
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
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                fr.c = core.me();
                let cur = core.cur;
                if let Some(cpu) = self.cpu_slab_mut(core, fr.c) {
                    cpu.local_lock = Some(cur);
                }
                note!(
                    core,
                    LocalLock,
                    format!("cpu_slab[{}].lock", fr.c),
                    "put_cpu_partial({}): local_lock_irqsave.",
                    core.slab_name(p)
                );
                *pc = U7;
                Flow::Step
            }
            U7 => {
                step!(core);
                fr.old = self.ld_partial(core, fr.c);
                fr.pages = 0;
                fr.p = None;
                if let Some(old) = fr.old {
                    core.access(core.page(old).line, Access::Read);
                    let slabs = self.slab(core, old).pages;
                    if fr.drain && slabs >= Self::cpu_partial_slabs(core) {
                        fr.p = Some(old);
                        fr.old = None;
                    } else {
                        fr.pages = slabs;
                    }
                }
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].partial", fr.c),
                    "The CPU partial list is {}{}.",
                    core.slab_opt_name(fr.old.or(fr.p)),
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
                step!(core);
                core.access(core.page(p).line, Access::Write);
                let pages = fr.pages.saturating_add(1);
                let sl = need!(core, self.slab_mut(core, p));
                sl.pages = pages;
                sl.next = fr.old;
                note!(
                    core,
                    Store,
                    format!("page {}.(next,slabs)", core.slab_name(p)),
                    "{}.next := {}, slabs {}.",
                    core.slab_name(p),
                    core.slab_opt_name(fr.old),
                    pages
                );
                *pc = U10;
                Flow::Step
            }
            U10 => {
                step!(core);
                self.st_partial(core, fr.c, Some(p));
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "c->partial := {}.",
                    core.slab_name(p)
                );
                *pc = U11;
                Flow::Step
            }
            U11 => {
                step!(core);
                if let Some(cpu) = self.cpu_slab_mut(core, fr.c) {
                    cpu.local_lock = None;
                }
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
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
                core.stat(Stat::CPU_PARTIAL_DRAIN);
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    /// `unfreeze_partials(c)` (3.x) / `__put_partials` (6.8+): move a CPU partial list to the
    /// node lists, discarding empty slabs when the node has enough.
    pub(in crate::model) fn unfreeze_partials(
        &mut self,
        core: &mut Core,
        pc: &mut unfreeze_partials::Pc,
        fr: &mut UnfreezePartials,
    ) -> Flow {
        use unfreeze_partials::Pc::*;
        let frozen = core.variant().cpu_partial_frozen;
        // Whether the list is walked as a detached chain (5.15+) rather than popped from c.
        let chain = !frozen || core.variant().slowpath == Slowpath::LocalLock;
        match *pc {
            V1 => {
                step!(core);
                fr.p = self.ld_partial(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].partial", fr.c),
                    "unfreeze_partials: next on cpu{}'s partial list is {}.",
                    fr.c,
                    core.slab_opt_name(fr.p)
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
                step!(core);
                let p = need!(core, fr.p);
                core.access(core.page(p).line, Access::Read);
                let next = self.slab(core, p).next;
                self.st_partial(core, fr.c, next);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "Pop {}: c->partial := {}.",
                    core.slab_name(p),
                    core.slab_opt_name(next)
                );
                *pc = V3;
                Flow::Step
            }
            VZ2 => {
                step!(core);
                self.st_partial(core, fr.c, None);
                note!(
                    core,
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
                let n2 = core.node_of_slab(need!(core, fr.p));
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
                step!(core);
                let n = need!(core, fr.n.take());
                core.spin_unlock(n);
                note!(
                    core,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Next slab is on another node: unlock node {n}."
                );
                *pc = V3l;
                Flow::Step
            }
            V3l => {
                step!(core);
                let n2 = core.node_of_slab(need!(core, fr.p));
                if core.cpu(core.me()).irqs_on {
                    core.irq_save(&mut fr.saved_irq);
                    fr.flag = true;
                }
                self.spin_lock(core, n2);
                fr.n = Some(n2);
                note!(
                    core,
                    Lock,
                    format!("node {n2}.list_lock"),
                    "Take node {n2}'s list_lock."
                );
                *pc = if frozen { V4 } else { VZ6 };
                Flow::Step
            }
            V4 => {
                step!(core);
                let p = need!(core, fr.p);
                (fr.f, fr.cnt) = self.sp(core).read_slab_pair(p, |core, f, cnt| {
                    format!("{}.", slab_pair_text(core, p, f, cnt))
                });
                fr.new = Counters {
                    frozen: false,
                    ..fr.cnt
                };
                *pc = V5;
                Flow::Step
            }
            V5 => {
                let p = need!(core, fr.p);
                self.cas2_site(
                    core,
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
                step!(core);
                let p = need!(core, fr.p);
                let n = need!(core, fr.n);
                let nr = self.sp(core).ld_nr_partial(n);
                let inuse = self.slab(core, p).counters.inuse;
                let next = if chain {
                    core.access(core.page(p).line, Access::Read);
                    self.slab(core, p).next
                } else {
                    None
                };
                let discard =
                    (if *pc == V6 { fr.new.inuse } else { inuse }) == 0 && discard_ok(core, nr);
                if discard {
                    fr.queue.push(p);
                } else {
                    self.sp(core).add_partial(n, p, true);
                    core.stat(Stat::FREE_ADD_PARTIAL);
                }
                note!(
                    core,
                    ListAdd,
                    format!("node {n}.partial"),
                    "{}",
                    if discard {
                        format!("{} is empty and node {n} has {nr} partial slab(s): queue it for discard.", core.slab_name(p))
                    } else {
                        format!(
                            "add_partial({}) at the tail of node {n}.",
                            core.slab_name(p)
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
                step!(core);
                core.spin_unlock(n);
                if fr.flag {
                    core.irq_restore(fr.saved_irq);
                }
                fr.n = None;
                note!(
                    core,
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
                step!(core);
                let p = fr.queue.remove(0);
                core.stat(Stat::DEACTIVATE_EMPTY);
                self.discard_slab(core, p);
                core.stat(Stat::FREE_SLAB);
                note!(
                    core,
                    PageFree,
                    format!("page {}", core.slab_name(p)),
                    "discard_slab({}).",
                    core.slab_name(p)
                );
                Flow::Step
            }
        }
    }
}
