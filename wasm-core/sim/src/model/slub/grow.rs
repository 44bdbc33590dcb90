//! `new_slab` (model.md §2.7), growing the cache by a slab: a slab from the page allocator, with
//! interrupts on around it when the caller may sleep, and its objects chained through their free
//! pointers.

use super::cost;
use super::memory::Access;
use super::state::*;
use super::{Flow, SlubState};
use crate::model::locals::NewSlab;
use crate::model::pcs::labels::*;
use crate::model::slab_page::Counters;
use crate::model::Core;

impl Locals for NewSlab {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
}

impl SlubState {
    /// `new_slab` (model.md §2.7): irqs on around the page allocator when the caller may sleep.
    pub(in crate::model) fn new_slab(
        &mut self,
        core: &mut Core,
        pc: &mut new_slab::Pc,
        fr: &mut NewSlab,
    ) -> Flow {
        use new_slab::Pc::*;
        let may_sleep = core.ctx(core.cur).kind == CtxKind::Task;
        match *pc {
            N1 => {
                if !may_sleep || core.cpu(core.me()).irqs_on {
                    *pc = N2;
                    return Flow::Go;
                }
                step!(core);
                core.irq_set(true);
                fr.flag = true;
                note!(
                    core,
                    IrqOn,
                    "irqs".into(),
                    "GFP_KERNEL may sleep: interrupts on around the page allocator."
                );
                *pc = N2;
                Flow::Step
            }
            N2 => {
                step!(core);
                core.charge(cost::Id::PageAlloc);
                let fail = core.cfg.sc.cache.page_alloc_fail && !core.st.in_setup;
                if fail {
                    fr.ret.slab = None;
                    note!(
                        core,
                        PageAlloc,
                        "page allocator".into(),
                        "The page allocator fails (pageAllocFail): no new slab."
                    );
                } else {
                    let node = fr.node.unwrap_or(core.my_node());
                    let s = self.sp(core).create_slab(node);
                    fr.ret.slab = Some(s);
                    note!(
                        core,
                        PageAlloc,
                        format!("page {}", core.slab_name(s)),
                        "The page allocator hands out a page for slab {} on node {node}.",
                        core.slab_name(s)
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
                step!(core);
                core.irq_set(false);
                note!(
                    core,
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
                step!(core);
                let objects = core.cfg.objects;
                self.sp(core).chain_objects(s);
                note!(
                    core,
                    Store,
                    format!("objects of {}", core.slab_name(s)),
                    "Chain the {objects} objects of {} through their free pointers.",
                    core.slab_name(s)
                );
                *pc = N5;
                Flow::Step
            }
            N5 => {
                step!(core);
                let s = need!(core, fr.ret.slab);
                core.access(core.page(s).line, Access::Write);
                let objects = core.cfg.objects;
                let first = core.obj_addr(s, 0);
                let sl = need!(core, self.slab_mut(core, s));
                sl.freelist = first;
                sl.counters = Counters {
                    inuse: objects,
                    objects,
                    frozen: true,
                };
                note!(core, Store, format!("page {}", core.slab_name(s)), "{}: freelist = first object, inuse = objects = {objects}, frozen = 1 (private to this CPU).", core.slab_name(s));
                Flow::Ret(Ret::new(NULL, Some(s)))
            }
        }
    }
}
