//! `__slab_free` as Linux 7.0 has it (model.md C.3.10): push a chain of objects onto their
//! slab's freelist with the slab's double CAS, taking `list_lock` only when the slab was full or
//! becomes empty. Locals are named as in `free`.

use super::super::memory::Access;
use super::SheavesState;
use crate::model::pcs::labels::*;
use crate::model::slab_page::{counters_text, Counters};
use crate::model::state::*;
use crate::model::{Flow, Machine, Stat};

/// The locals of `__slab_free(s, slab, head, tail, cnt, addr)` as 7.0 has it: `prior`
/// and `counters` as read, `new` the counters to write, `n` the node whose `list_lock` is
/// held, `was_full` (`!prior`) and `on_node_partial` (`SL_partial` read under the lock).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabFreeSlowV7 {
    pub tail: Addr,
    pub head: Addr,
    pub prior: Addr,
    pub slab: SlabId,
    pub counters: Counters,
    pub new: Counters,
    pub n: Option<u32>,
    pub saved_irq: bool,
    pub was_full: bool,
    pub on_node_partial: bool,
    pub cnt: u32,
}

impl Locals for SlabFreeSlowV7 {
    fn holds_addr(&self, a: Addr) -> bool {
        self.tail == a || self.head == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.slab));
    }
}

impl Machine {
    /// `__slab_free(P, head, tail, cnt)` as Linux 7.0 has it (SS1–SS11): push the chain with
    /// the slab's double CAS, taking `list_lock` first only when the slab was full or becomes
    /// empty. No frozen slabs, no CPU partial list.
    pub(in crate::model) fn slab_free_slow_v7(
        &mut self,
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
                step!(self.core);
                SheavesState::list_unlock_irqrestore(&mut self.core, fr.saved_irq, n);
                fr.n = None;
                *pc = SS2;
                Flow::Step
            }
            SS2 => {
                step!(self.core);
                (fr.prior, fr.counters) = self.with_slab_pages(Default::default(), |sp| {
                    sp.read_slab_pair(p, |core, prior, c| {
                        format!(
                            "__slab_free: slab {} has freelist {}, {}.",
                            core.slab_name(p),
                            core.addr_name(prior),
                            counters_text(c)
                        )
                    })
                });
                *pc = SS4;
                Flow::Step
            }
            SS4 => {
                step!(self.core);
                fr.was_full = fr.prior == NULL;
                self.core.store_fp(fr.tail, fr.prior);
                fr.new = Counters {
                    inuse: fr.counters.inuse.saturating_sub(fr.cnt),
                    ..fr.counters
                };
                note!(
                    self.core,
                    Store,
                    format!("{}.fp", self.core.addr_name(fr.tail)),
                    "set_freepointer({}, {}): the chain will end in the old freelist; inuse {} -> {}{}.",
                    self.core.addr_name(fr.tail),
                    self.core.addr_name(fr.prior),
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
                step!(self.core);
                let n = self.core.node_of_slab(p);
                self.list_lock_irqsave(&mut fr.saved_irq, n);
                self.core.access(self.core.page(p).line, Access::Read);
                fr.n = Some(n);
                fr.on_node_partial = self.slab(p).on_node_partial;
                *pc = SS6;
                Flow::Step
            }
            SS6 => {
                step!(self.core);
                let ok = self.cas_slab_pair(
                    p,
                    (fr.prior, fr.counters),
                    (fr.head, fr.new),
                    "succeeds: the object(s) are back in their slab.",
                    "fails: the slab changed meanwhile. Retry.",
                );
                if ok {
                    self.unhold_chain(fr.head, fr.cnt);
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
                let n = need!(self.core, fr.n);
                let empty = fr.new.inuse == 0;
                let nr = self.core.node(n).nr_partial;
                *pc = if empty && self.discard_ok(nr) {
                    SS11
                } else {
                    SS10
                };
                Flow::Go
            }
            SS8 => {
                step!(self.core);
                let n = need!(self.core, fr.n);
                SheavesState::list_unlock_irqrestore(&mut self.core, fr.saved_irq, n);
                note!(
                    self.core,
                    Unlock,
                    format!("node {n}.list_lock"),
                    "Slab {} is on no list and was not full: a refill isolated it and will deal with it. Unlock.",
                    self.core.slab_name(p)
                );
                Flow::Ret(Ret::new(NULL, None).counted(fr.cnt))
            }
            SS10 => {
                if !fr.was_full {
                    *pc = SS10u;
                    return Flow::Go;
                }
                step!(self.core);
                let n = need!(self.core, fr.n);
                self.add_partial(n, p, true);
                self.core.stat(Stat::FREE_ADD_PARTIAL);
                note!(
                    self.core,
                    ListAdd,
                    format!("node {n}.partial"),
                    "The slab {} was full: add_partial at the tail of node {n}'s list.",
                    self.core.slab_name(p)
                );
                *pc = SS10u;
                Flow::Step
            }
            SS10u => {
                step!(self.core);
                let n = need!(self.core, fr.n);
                SheavesState::list_unlock_irqrestore(&mut self.core, fr.saved_irq, n);
                Flow::Ret(Ret::new(NULL, None).counted(fr.cnt))
            }
            SS11 => {
                if fr.was_full {
                    *pc = SS11u;
                    return Flow::Go;
                }
                step!(self.core);
                let n = need!(self.core, fr.n);
                self.remove_partial(n, p);
                self.core.stat(Stat::FREE_REMOVE_PARTIAL);
                note!(
                    self.core,
                    ListDel,
                    format!("node {n}.partial"),
                    "The slab {} is empty and node {n} keeps enough: remove_partial.",
                    self.core.slab_name(p)
                );
                *pc = SS11u;
                Flow::Step
            }
            SS11u => {
                step!(self.core);
                let n = need!(self.core, fr.n);
                SheavesState::list_unlock_irqrestore(&mut self.core, fr.saved_irq, n);
                fr.n = None;
                *pc = SS11d;
                Flow::Step
            }
            SS11d => {
                step!(self.core);
                self.core.stat(Stat::FREE_SLAB);
                self.discard_slab(p);
                note!(
                    self.core,
                    PageFree,
                    format!("page {}", self.core.slab_name(p)),
                    "discard_slab({}): the empty slab goes back to the page allocator.",
                    self.core.slab_name(p)
                );
                Flow::Ret(Ret::new(NULL, None).counted(fr.cnt))
            }
        }
    }
}
