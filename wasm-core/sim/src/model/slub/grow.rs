//! `new_slab` (model.md §2.7), growing the cache by a slab: a slab from the page allocator, with
//! interrupts on around it when the caller may sleep, and its objects chained through their free
//! pointers.

use super::cost;
use super::memory::Access;
use super::state::*;
use super::{Flow, Machine};
use crate::model::pcs::labels::*;
use crate::model::slab_page::Counters;

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

impl Machine {
    /// `new_slab` (model.md §2.7): irqs on around the page allocator when the caller may sleep.
    pub(in crate::model) fn new_slab(&mut self, pc: &mut new_slab::Pc, fr: &mut NewSlab) -> Flow {
        use new_slab::Pc::*;
        let may_sleep = self.core.ctx(self.core.cur).kind == CtxKind::Task;
        match *pc {
            N1 => {
                if !may_sleep || self.core.cpu(self.core.me()).irqs_on {
                    *pc = N2;
                    return Flow::Go;
                }
                step!(self.core);
                self.core.irq_set(true);
                fr.flag = true;
                note!(
                    self.core,
                    IrqOn,
                    "irqs".into(),
                    "GFP_KERNEL may sleep: interrupts on around the page allocator."
                );
                *pc = N2;
                Flow::Step
            }
            N2 => {
                step!(self.core);
                self.core.charge(cost::Id::PageAlloc);
                let fail = self.core.cfg.sc.cache.page_alloc_fail && !self.core.st.in_setup;
                if fail {
                    fr.ret.slab = None;
                    note!(
                        self.core,
                        PageAlloc,
                        "page allocator".into(),
                        "The page allocator fails (pageAllocFail): no new slab."
                    );
                } else {
                    let node = fr.node.unwrap_or(self.core.my_node());
                    let s = self.create_slab(node);
                    fr.ret.slab = Some(s);
                    note!(
                        self.core,
                        PageAlloc,
                        format!("page {}", self.core.slab_name(s)),
                        "The page allocator hands out a page for slab {} on node {node}.",
                        self.core.slab_name(s)
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
                step!(self.core);
                self.core.irq_set(false);
                note!(
                    self.core,
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
                step!(self.core);
                let objects = self.core.cfg.objects;
                self.chain_objects(s);
                note!(
                    self.core,
                    Store,
                    format!("objects of {}", self.core.slab_name(s)),
                    "Chain the {objects} objects of {} through their free pointers.",
                    self.core.slab_name(s)
                );
                *pc = N5;
                Flow::Step
            }
            N5 => {
                step!(self.core);
                let s = need!(self.core, fr.ret.slab);
                self.core.access(self.core.page(s).line, Access::Write);
                let objects = self.core.cfg.objects;
                let first = self.core.obj_addr(s, 0);
                let sl = need!(self.core, self.slab_mut(s));
                sl.freelist = first;
                sl.counters = Counters {
                    inuse: objects,
                    objects,
                    frozen: true,
                };
                note!(self.core, Store, format!("page {}", self.core.slab_name(s)), "{}: freelist = first object, inuse = objects = {objects}, frozen = 1 (private to this CPU).", self.core.slab_name(s));
                Flow::Ret(Ret::new(NULL, Some(s)))
            }
        }
    }

    /// Link a new slab's objects through their free pointers, first to last (`new_slab`'s
    /// loop, the same in every era and in 7.0).
    pub(in crate::model) fn chain_objects(&mut self, s: SlabId) {
        let objects = self.core.cfg.objects;
        for i in 0..objects {
            // `i < objects`, so `i + 1` cannot wrap.
            let next = match i.checked_add(1) {
                Some(j) if j < objects => self.core.obj_addr(s, j),
                _ => NULL,
            };
            let line = self.core.obj_line(s, i);
            self.core.access(line, Access::Write);
            if let Some(w) = self.core.fp_slot(s, i) {
                *w = next;
            }
        }
    }
}
