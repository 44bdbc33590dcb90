//! Taking a slab off a node's partial list (model.md §2.6): `get_partial_node`, which walks
//! the list under `list_lock`, and `acquire_slab`, which freezes the slab it picked and takes
//! its whole freelist with the slab's double CAS.

use super::memory::Access;
use super::state::*;
use super::{Flow, SlubState, Stat};
use crate::model::locals::{AcquireSlab, GetPartialNode};
use crate::model::pcs::labels::*;
use crate::model::slab_page::counters_text;
use crate::model::Core;
use crate::scenario::Slowpath;

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

impl SlubState {
    pub(in crate::model) fn get_partial_frame(n: u32, c: u32, any: bool) -> Frame {
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
        core: &mut Core,
        pc: &mut get_partial_node::Pc,
        fr: &mut GetPartialNode,
    ) -> Flow {
        use get_partial_node::Pc::*;
        let n = fr.n;
        let v = core.variant().clone();
        match *pc {
            H1 => {
                step!(core);
                let nr = self.sp(core).ld_nr_partial(n);
                let min = core.cfg.sc.cache.min_partial;
                let skip = if fr.drain { nr <= min } else { nr == 0 };
                note!(
                    core,
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
                step!(core);
                fr.flag = core.cpu(core.me()).irqs_on;
                if fr.flag {
                    core.irq_save(&mut fr.saved_irq);
                }
                self.spin_lock(core, n);
                fr.p = core.node(n).partial.first().copied();
                fr.obj = NULL;
                fr.pg = None;
                fr.count = 0;
                fr.pages = 0;
                note!(
                    core,
                    Lock,
                    format!("node {n}.list_lock"),
                    "Take node {n}'s list_lock; the list head is {}.",
                    core.slab_opt_name(fr.p)
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
                let list = &core.node(n).partial;
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
                let p = need!(core, fr.p);
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
                        core.stat(Stat::ALLOC_FROM_PARTIAL);
                    }
                    return Flow::Go;
                }
                *pc = H4b;
                Flow::call(Self::put_cpu_partial_frame(core, p, false))
            }
            H4a => {
                step!(core);
                let p = need!(core, fr.p);
                self.st_page(core, fr.c, Some(p));
                core.stat(Stat::ALLOC_FROM_PARTIAL);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].page", fr.c),
                    "c->page := {}, frozen by acquire_slab.",
                    core.slab_name(p)
                );
                *pc = H4c;
                Flow::Step
            }
            H4b => {
                core.stat(Stat::CPU_PARTIAL_NODE);
                *pc = H4c;
                Flow::Go
            }
            H4c => {
                let enough = if v.cpu_partial_frozen {
                    fr.count > core.cfg.sc.cache.cpu_partial / 2
                } else {
                    fr.pages > Self::cpu_partial_slabs(core) / 2
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
                step!(core);
                let p = need!(core, fr.p);
                self.sp(core).remove_partial(n, p);
                note!(
                    core,
                    ListDel,
                    format!("node {n}.partial"),
                    "remove_partial({}) (6.8+: not frozen here).",
                    core.slab_name(p)
                );
                if fr.pg.is_none() {
                    fr.pg = Some(p);
                    core.stat(Stat::ALLOC_FROM_PARTIAL);
                    *pc = H4c;
                } else {
                    fr.pages.bump();
                    *pc = H6p;
                }
                Flow::Step
            }
            H6p => {
                let p = need!(core, fr.p);
                *pc = H4b;
                Flow::call(Self::put_cpu_partial_frame(core, p, false))
            }
            H5 => {
                step!(core);
                core.spin_unlock(n);
                if fr.flag {
                    core.irq_restore(fr.saved_irq);
                }
                note!(
                    core,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Release node {n}'s list_lock; got {}.",
                    core.slab_opt_name(fr.pg)
                );
                Flow::Ret(Ret::new(fr.obj, fr.pg))
            }
        }
    }

    /// `acquire_slab(n, P, mode)` (`fr.lock` = mode): freeze P with one CAS, unlink it.
    pub(in crate::model) fn acquire_slab(
        &mut self,
        core: &mut Core,
        pc: &mut acquire_slab::Pc,
        fr: &mut AcquireSlab,
    ) -> Flow {
        use acquire_slab::Pc::*;
        let p = fr.pg;
        match *pc {
            Q1 => {
                step!(core);
                core.access(core.page(p).line, Access::Read);
                fr.f = self.slab(core, p).freelist;
                note!(
                    core,
                    Load,
                    format!("page {}.freelist", core.slab_name(p)),
                    "acquire_slab({}): its freelist is {}.",
                    core.slab_name(p),
                    core.addr_name(fr.f)
                );
                *pc = Q2;
                Flow::Step
            }
            Q2 => {
                step!(core);
                core.access(core.page(p).line, Access::Read);
                fr.cnt = self.slab(core, p).counters;
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
                    core,
                    Load,
                    format!("page {}.counters", core.slab_name(p)),
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
                core,
                pc,
                &mut fr.ok,
                p,
                (fr.f, fr.cnt),
                (fr.nxt, fr.new),
                false,
                Q3r,
            ),
            Q3r => {
                if !fr.ok && Self::v3_1_slow_path(core) {
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
                step!(core);
                let n = need!(core, fr.n);
                self.sp(core).remove_partial(n, p);
                note!(
                    core,
                    ListDel,
                    format!("node {n}.partial"),
                    "remove_partial({}): it is frozen now.",
                    core.slab_name(p)
                );
                Flow::Ret(Ret {
                    count: fr.count,
                    ..Ret::new(fr.f, Some(p))
                })
            }
        }
    }
}
