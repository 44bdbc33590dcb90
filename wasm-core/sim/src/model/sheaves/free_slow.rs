//! `__slab_free` as Linux 7.0 has it (model.md C.3.10): push a chain of objects onto their
//! slab's freelist with the slab's double CAS, taking `list_lock` only when the slab was full or
//! becomes empty. Locals are named as in `free`.

use super::super::memory::Access;
use super::SheavesState;
use crate::model::locals::SlabFreeSlowV7;
use crate::model::pcs::labels::*;
use crate::model::slab_page::{counters_text, discard_ok, Counters};
use crate::model::state::*;
use crate::model::{Core, Flow, Stat};

impl Locals for SlabFreeSlowV7 {
    fn holds_addr(&self, a: Addr) -> bool {
        self.tail == a || self.head == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.slab));
    }
}

impl SheavesState {
    /// `__slab_free(P, head, tail, cnt)` as Linux 7.0 has it (SS1–SS11): push the chain with
    /// the slab's double CAS, taking `list_lock` first only when the slab was full or becomes
    /// empty. No frozen slabs, no CPU partial list.
    pub(in crate::model) fn slab_free_slow_v7(
        &mut self,
        core: &mut Core,
        pc: &mut slab_free_slow_v7::Pc,
        fr: &mut SlabFreeSlowV7,
    ) -> Flow {
        use slab_free_slow_v7::Pc::*;
        let p = fr.slab;
        match *pc {
            SS1 => {
                let Some(n) = fr.n else {
                    *pc = SS2;
                    return Flow::Go;
                };
                step!(core);
                SheavesState::list_unlock_irqrestore(core, fr.saved_irq, n);
                fr.n = None;
                *pc = SS2;
                Flow::Step
            }
            SS2 => {
                step!(core);
                (fr.prior, fr.counters) = self.slabs(core).read_slab_pair(p, |core, prior, c| {
                    format!(
                        "__slab_free: slab {} has freelist {}, {}.",
                        core.slab_name(p),
                        core.addr_name(prior),
                        counters_text(c)
                    )
                });
                *pc = SS4;
                Flow::Step
            }
            SS4 => {
                step!(core);
                fr.was_full = fr.prior == NULL;
                core.store_fp(fr.tail, fr.prior);
                fr.new = Counters {
                    inuse: fr.counters.inuse.saturating_sub(fr.cnt),
                    ..fr.counters
                };
                note!(
                    core,
                    Store,
                    format!("{}.fp", core.addr_name(fr.tail)),
                    "set_freepointer({}, {}): the chain will end in the old freelist; inuse {} -> {}{}.",
                    core.addr_name(fr.tail),
                    core.addr_name(fr.prior),
                    fr.counters.inuse,
                    fr.new.inuse,
                    if fr.was_full { " (the slab was full)" } else { "" }
                );
                *pc = SS5;
                Flow::Step
            }
            SS5 => {
                if fr.new.inuse != 0 && !fr.was_full {
                    *pc = SS6;
                    return Flow::Go;
                }
                step!(core);
                let n = core.node_of_slab(p);
                self.list_lock_irqsave(core, &mut fr.saved_irq, n);
                core.access(core.page(p).line, Access::Read);
                fr.n = Some(n);
                fr.on_node_partial = self.slab(core, p).on_node_partial;
                *pc = SS6;
                Flow::Step
            }
            SS6 => {
                step!(core);
                let ok = self.slabs(core).cas_slab_pair(
                    p,
                    (fr.prior, fr.counters),
                    (fr.head, fr.new),
                    "succeeds: the object(s) are back in their slab.",
                    "fails: the slab changed meanwhile. Retry.",
                );
                if ok {
                    self.unhold_chain(core, fr.head, fr.cnt);
                    *pc = SS7;
                } else {
                    *pc = SS1;
                }
                Flow::Step
            }
            SS7 => {
                if fr.n.is_none() {
                    return Flow::Ret(Ret::new(NULL, None).counted(fr.cnt));
                }
                // Isolated by a refill: its isolator handles it (SS8).
                *pc = if !fr.was_full && !fr.on_node_partial {
                    SS8
                } else {
                    SS9
                };
                Flow::Go
            }
            SS9 => {
                let n = need!(core, fr.n);
                let empty = fr.new.inuse == 0;
                let nr = core.node(n).nr_partial;
                *pc = if empty && discard_ok(core, nr) {
                    SS11
                } else {
                    SS10
                };
                Flow::Go
            }
            SS8 => {
                step!(core);
                let n = need!(core, fr.n);
                SheavesState::list_unlock_irqrestore(core, fr.saved_irq, n);
                note!(
                    core,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Slab {} is on no list and was not full: a refill isolated it and will deal with it. Unlock.",
                    core.slab_name(p)
                );
                Flow::Ret(Ret::new(NULL, None).counted(fr.cnt))
            }
            SS10 => {
                if !fr.was_full {
                    *pc = SS10u;
                    return Flow::Go;
                }
                step!(core);
                let n = need!(core, fr.n);
                self.slabs(core).add_partial(n, p, true);
                core.stat(Stat::FREE_ADD_PARTIAL);
                note!(
                    core,
                    ListAdd,
                    format!("node {n}.partial"),
                    "The slab {} was full: add_partial at the tail of node {n}'s list.",
                    core.slab_name(p)
                );
                *pc = SS10u;
                Flow::Step
            }
            SS10u => {
                step!(core);
                let n = need!(core, fr.n);
                SheavesState::list_unlock_irqrestore(core, fr.saved_irq, n);
                Flow::Ret(Ret::new(NULL, None).counted(fr.cnt))
            }
            SS11 => {
                if fr.was_full {
                    *pc = SS11u;
                    return Flow::Go;
                }
                step!(core);
                let n = need!(core, fr.n);
                self.slabs(core).remove_partial(n, p);
                core.stat(Stat::FREE_REMOVE_PARTIAL);
                note!(
                    core,
                    ListDel,
                    format!("node {n}.partial"),
                    "The slab {} is empty and node {n} keeps enough: remove_partial.",
                    core.slab_name(p)
                );
                *pc = SS11u;
                Flow::Step
            }
            SS11u => {
                step!(core);
                let n = need!(core, fr.n);
                SheavesState::list_unlock_irqrestore(core, fr.saved_irq, n);
                fr.n = None;
                *pc = SS11d;
                Flow::Step
            }
            SS11d => {
                step!(core);
                core.stat(Stat::FREE_SLAB);
                self.slabs(core).discard_slab(p, std::iter::empty());
                note!(
                    core,
                    PageFree,
                    format!("page {}", core.slab_name(p)),
                    "discard_slab({}): the empty slab goes back to the page allocator.",
                    core.slab_name(p)
                );
                Flow::Ret(Ret::new(NULL, None).counted(fr.cnt))
            }
        }
    }
}
