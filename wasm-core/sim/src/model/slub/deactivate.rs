//! `deactivate_slab` (model.md §2.10, §2.15): giving a CPU slab and its CPU freelist back to
//! the slab's node, in the two forms the `deactivate` variant key chooses: two-stage (D0–D10,
//! ending in the list mode `M_*` it chose) and splice (DS0–DS9).

use super::memory::Access;
use super::state::*;
use super::{Flow, SlubState, Stat};
use crate::model::locals::DeactivateSlab;
use crate::model::pcs::labels::*;
use crate::model::slab_page::{
    counters_text, discard_ok, slab_pair_name, slab_pair_text, Counters,
};
use crate::model::Core;
use crate::scenario::Deactivate;

pub const M_NONE: u8 = 0;
pub const M_PARTIAL: u8 = 1;
pub const M_FULL: u8 = 2;
pub const M_FREE: u8 = 3;

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

impl SlubState {
    pub(in crate::model) fn deactivate_frame(
        core: &Core,
        p: SlabId,
        freelist: Addr,
        c: u32,
    ) -> Frame {
        let start = match core.variant().deactivate {
            Deactivate::TwoStage => deactivate_slab::D0,
            Deactivate::Splice => deactivate_slab::DS0,
        };
        Frame::DeactivateSlab {
            pc: start,
            l: DeactivateSlab {
                pg: p,
                f: freelist,
                c,
                n: core.node_of_slab(p),
                m: M_NONE,
                l: M_NONE,
                ..DeactivateSlab::default()
            },
        }
    }

    /// `deactivate_slab(P, freelist)`: give a CPU slab and its CPU freelist back.
    pub(in crate::model) fn deactivate_slab(
        &mut self,
        core: &mut Core,
        pc: &mut deactivate_slab::Pc,
        fr: &mut DeactivateSlab,
    ) -> Flow {
        use deactivate_slab::Pc::*;
        let p = fr.pg;
        let n = fr.n;
        match *pc {
            D0 | DS0 => {
                step!(core);
                core.access(core.page(p).line, Access::Read);
                fr.flag = self.slab(core, p).freelist != NULL; // tail: remote frees arrived
                if fr.flag {
                    core.stat(Stat::DEACTIVATE_REMOTE_FREES);
                }
                note!(
                    core,
                    Load,
                    format!("page {}.freelist", core.slab_name(p)),
                    "deactivate_slab({}, {}): {}.",
                    core.slab_name(p),
                    core.addr_name(fr.f),
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
                step!(core);
                fr.nxt = core.load_fp(fr.f);
                note!(
                    core,
                    Load,
                    format!("{}.fp", core.addr_name(fr.f)),
                    "Stage 1: {} is followed by {}.",
                    core.addr_name(fr.f),
                    core.addr_name(fr.nxt)
                );
                *pc = if fr.nxt == NULL { D4 } else { D1 };
                Flow::Step
            }
            D1 => {
                step!(core);
                (fr.prior, fr.cnt) = self.sp(core).read_slab_pair(p, |core, f, cnt| {
                    format!("{}.", slab_pair_text(core, p, f, cnt))
                });
                *pc = D2;
                Flow::Step
            }
            D2 => {
                step!(core);
                core.store_fp(fr.f, fr.prior);
                note!(
                    core,
                    Store,
                    format!("{}.fp", core.addr_name(fr.f)),
                    "Link {} in front of {}.",
                    core.addr_name(fr.f),
                    core.addr_name(fr.prior)
                );
                fr.new = Counters {
                    inuse: fr.cnt.inuse.wrapping_sub(1) & 0xffff,
                    ..fr.cnt
                };
                *pc = D3;
                Flow::Step
            }
            D3 => self.cas2_site(
                core,
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
                step!(core);
                let (of, oc) = self.sp(core).ld_slab_pair(p);
                let nr = self.sp(core).ld_nr_partial(n);
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
                fr.m = if new.inuse == 0 && discard_ok(core, nr) {
                    M_FREE
                } else if nf != NULL {
                    M_PARTIAL
                } else {
                    M_FULL
                };
                note!(
                    core,
                    Load,
                    slab_pair_name(core, p),
                    "Stage 2: {} has freelist {}, {}; it will be {}.",
                    core.slab_name(p),
                    core.addr_name(of),
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
                step!(core);
                core.store_fp(fr.f, fr.prior);
                note!(
                    core,
                    Store,
                    format!("{}.fp", core.addr_name(fr.f)),
                    "Link the last CPU-freelist object {} in front of {}.",
                    core.addr_name(fr.f),
                    core.addr_name(fr.prior)
                );
                *pc = D6;
                Flow::Step
            }
            D6 => {
                if fr.m != M_PARTIAL || fr.lock {
                    *pc = D7;
                    return Flow::Go;
                }
                step!(core);
                // 5.15+ deactivates with interrupts on: spin_lock_irqsave there.
                fr.drain = core.cpu(core.me()).irqs_on;
                if fr.drain {
                    core.irq_save(&mut fr.saved_irq);
                }
                self.spin_lock(core, n);
                fr.lock = true;
                note!(
                    core,
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
                step!(core);
                self.sp(core).remove_partial(n, p);
                note!(
                    core,
                    ListDel,
                    format!("node {n}.partial"),
                    "The decision changed: take {} off the partial list again.",
                    core.slab_name(p)
                );
                *pc = D7a;
                Flow::Step
            }
            D7a => {
                let m = fr.m;
                fr.l = m;
                if m == M_FULL {
                    core.stat(Stat::DEACTIVATE_FULL);
                }
                if m != M_PARTIAL {
                    *pc = D8;
                    return Flow::Go;
                }
                step!(core);
                self.sp(core).add_partial(n, p, fr.flag);
                core.stat(if fr.flag {
                    Stat::DEACTIVATE_TO_TAIL
                } else {
                    Stat::DEACTIVATE_TO_HEAD
                });
                note!(
                    core,
                    ListAdd,
                    format!("node {n}.partial"),
                    "add_partial({}) at the {} (still frozen until the CAS).",
                    core.slab_name(p),
                    if fr.flag { "tail" } else { "head" }
                );
                *pc = D8;
                Flow::Step
            }
            D8 => self.cas2_site(
                core,
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
                step!(core);
                core.spin_unlock(n);
                if fr.drain {
                    core.irq_restore(fr.saved_irq);
                }
                note!(
                    core,
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
                step!(core);
                core.stat(Stat::DEACTIVATE_EMPTY);
                self.discard_slab(core, p);
                core.stat(Stat::FREE_SLAB);
                note!(
                    core,
                    PageFree,
                    format!("page {}", core.slab_name(p)),
                    "discard_slab({}): empty, and the node has enough partial slabs.",
                    core.slab_name(p)
                );
                Flow::Ret(Ret::new(NULL, None))
            }
            // Modern splice: count the CPU freelist, then one CAS, then list work.
            DS1 => {
                if fr.obj == NULL {
                    *pc = DS2;
                    return Flow::Go;
                }
                step!(core);
                let nxt = core.load_fp(fr.obj);
                fr.count.bump();
                fr.prior = fr.obj;
                note!(
                    core,
                    Load,
                    format!("{}.fp", core.addr_name(fr.obj)),
                    "Walk the CPU freelist: {} -> {} ({} so far).",
                    core.addr_name(fr.obj),
                    core.addr_name(nxt),
                    fr.count
                );
                fr.obj = if fr.count > core.cfg.objects {
                    NULL
                } else {
                    nxt
                };
                Flow::Step
            }
            DS2 => {
                step!(core);
                let (of, oc) = self.sp(core).read_slab_pair(p, |core, f, cnt| {
                    format!("{}.", slab_pair_text(core, p, f, cnt))
                });
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
                step!(core);
                core.store_fp(fr.prior, fr.x);
                note!(
                    core,
                    Store,
                    format!("{}.fp", core.addr_name(fr.prior)),
                    "Splice: the CPU freelist's tail {} now points to {}.",
                    core.addr_name(fr.prior),
                    core.addr_name(fr.x)
                );
                *pc = DS4;
                Flow::Step
            }
            DS4 => {
                // 5.17–6.7 (CPU partial slabs still frozen): choose the mode and take
                // list_lock *before* the CAS, so no free can see the slab unfrozen and off
                // the list. 6.8+ decides after the CAS (`__slab_free` checks list membership).
                if core.variant().cpu_partial_frozen && !fr.lock {
                    *pc = DSL;
                    return Flow::Go;
                }
                self.cas2_site(
                    core,
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
                step!(core);
                let nr = self.sp(core).ld_nr_partial(n);
                fr.m = if fr.new.inuse == 0 && discard_ok(core, nr) {
                    M_FREE
                } else if fr.nxt != NULL {
                    M_PARTIAL
                } else {
                    M_FULL
                };
                fr.lock = true;
                note!(core, Load, format!("node {n}.nr_partial"), "Decide before the CAS (5.17–6.7): node {n} has {nr} partial slab(s), so the slab will be {}.", match fr.m { M_FREE => "discarded", M_PARTIAL => "put on the partial list", _ => "left full" });
                *pc = if fr.m == M_PARTIAL { DSK } else { DS4 };
                Flow::Step
            }
            DSK => {
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                self.spin_lock(core, n);
                note!(core, Lock, format!("node {n}.list_lock"), "Take list_lock before the unfreezing CAS, so no free sees it unfrozen and off the list.");
                *pc = DS4;
                Flow::Step
            }
            DS4r => {
                if core.variant().cpu_partial_frozen {
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
                step!(core);
                core.spin_unlock(n);
                core.irq_restore(fr.saved_irq);
                fr.lock = false;
                note!(
                    core,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "The CAS failed: unlock and redo."
                );
                *pc = DS2;
                Flow::Step
            }
            DS5 => {
                step!(core);
                let nr = self.sp(core).ld_nr_partial(n);
                fr.m = if fr.new.inuse == 0 && discard_ok(core, nr) {
                    M_FREE
                } else if fr.nxt != NULL {
                    M_PARTIAL
                } else {
                    M_FULL
                };
                note!(
                    core,
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
                core.stat(Stat::DEACTIVATE_FULL);
                Flow::Ret(Ret::new(NULL, None))
            }
            DS6 => {
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                self.spin_lock(core, n);
                fr.lock = true;
                note!(
                    core,
                    Lock,
                    format!("node {n}.list_lock"),
                    "spin_lock_irqsave(list_lock)."
                );
                *pc = DS7;
                Flow::Step
            }
            DS7 => {
                step!(core);
                self.sp(core).add_partial(n, p, fr.flag);
                core.stat(if fr.flag {
                    Stat::DEACTIVATE_TO_TAIL
                } else {
                    Stat::DEACTIVATE_TO_HEAD
                });
                note!(
                    core,
                    ListAdd,
                    format!("node {n}.partial"),
                    "add_partial({}) at the {}.",
                    core.slab_name(p),
                    if fr.flag { "tail" } else { "head" }
                );
                *pc = DS8;
                Flow::Step
            }
            DS8 => {
                step!(core);
                core.spin_unlock(n);
                core.irq_restore(fr.saved_irq);
                fr.lock = false;
                note!(
                    core,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Release list_lock."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }
}
