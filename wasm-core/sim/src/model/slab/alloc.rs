//! SLAB's allocation: `slab_alloc` → `____cache_alloc` (`cache_alloc`), `cache_alloc_refill`,
//! and the growth of a cache, `cache_grow_begin` / `cache_grow_end` (with the lockless
//! decision of model.md §4 (v)).

use super::*;

impl Machine {
    // ---------------------------------------------------------------------------------------
    // Allocation: slab_alloc → ____cache_alloc
    // ---------------------------------------------------------------------------------------

    pub(super) fn cache_alloc(&mut self, pc: &mut cache_alloc::Pc, fr: &mut CacheAlloc) -> Flow {
        use cache_alloc::Pc::*;
        match *pc {
            CA0 => {
                step!(self.core);
                self.core.irq_save(&mut fr.saved_irq);
                fr.c = self.core.me();
                self.core.ghost.slab_allocs.bump();
                note!(self.core, IrqOff, "irqs".into(), "slab_alloc: local_irq_save. SLAB's per-CPU array is only ever touched with interrupts off.");
                *pc = CA1;
                Flow::Step
            }
            CA1 => {
                step!(self.core);
                let k = fr.c;
                self.core.access(self.arr_hdr(Arr::Cpu(k)), Access::Read);
                let avail = self.ac(k).avail();
                note!(
                    self.core,
                    Load,
                    format!("ac[{k}].avail"),
                    "Read cpu{k}'s array_cache: {avail} object(s) available."
                );
                rw!(self.core, read = avail.to_string());
                *pc = if avail > 0 { CA2 } else { CA1r };
                Flow::Step
            }
            CA2 => {
                step!(self.core);
                let k = fr.c;
                self.check_ac_owner(k, false);
                let ac = need!(self.core, self.ac_mut(k));
                ac.touched = true;
                let obj = ac.entry.pop().unwrap_or(NULL);
                let avail = ac.avail();
                self.touch_arr(Arr::Cpu(k), avail, avail.saturating_add(1), Access::Write);
                self.core.stat(Stat::ALLOCHIT);
                fr.obj = obj;
                note!(self.core, Store, format!("ac[{k}]"), "Pop {} off the top of cpu{k}'s array (touched = 1): no atomic instruction, no lock.", self.core.addr_name(obj));
                rw!(self.core, read = self.core.addr_name(obj));
                *pc = CA3;
                Flow::Step
            }
            CA1r => {
                self.core.stat(Stat::ALLOCMISS);
                *pc = CA1s;
                Flow::call(Frame::CacheAllocRefill {
                    pc: cache_alloc_refill::RF1,
                    l: CacheAllocRefill::default(),
                })
            }
            CA1s => {
                fr.obj = fr.ret.value;
                *pc = CA3;
                Flow::Go
            }
            CA3 => {
                step!(self.core);
                self.core.irq_restore(fr.saved_irq);
                note!(
                    self.core,
                    IrqOn,
                    "irqs".into(),
                    "local_irq_restore: the allocation returns {}.",
                    self.core.addr_name(fr.obj)
                );
                Flow::Ret(Ret::new(fr.obj, None))
            }
        }
    }

    /// `cache_alloc_refill` (v4.7, model.md Appendix A), irqs off on entry.
    pub(super) fn cache_alloc_refill(
        &mut self,
        pc: &mut cache_alloc_refill::Pc,
        fr: &mut CacheAllocRefill,
    ) -> Flow {
        use cache_alloc_refill::Pc::*;
        match *pc {
            RF1 => {
                let k = self.core.me();
                fr.c = k;
                fr.n = self.core.node_of_cpu(k);
                let ac = self.ac(k);
                let mut batch = ac.batchcount;
                // BATCHREFILL_LIMIT: an array not used since the reaper looked refills less.
                if !ac.touched && batch > 16 {
                    batch = 16;
                }
                fr.count = batch;
                *pc = match self.core.variant().slab_grow {
                    crate::scenario::SlabGrow::Lockless => RF2,
                    crate::scenario::SlabGrow::Locked => RF3,
                };
                Flow::Go
            }
            RF2 => {
                step!(self.core);
                let n = fr.n;
                self.core.access(self.core.cfg.line_nd(n), Access::Read);
                let free = self.snode(n).free_objects;
                let shared = if self.snode(n).shared.is_some() {
                    self.core.access(self.arr_hdr(Arr::Shared(n)), Access::Read);
                    Some(self.arr(Arr::Shared(n)).avail())
                } else {
                    None
                };
                let empty = free == 0 && shared.unwrap_or(0) == 0;
                note!(
                    self.core,
                    Load,
                    format!("node {n}"),
                    "Lockless check (v4.7): node {n} has free_objects = {free} and {}: {}",
                    match shared {
                        Some(a) => format!("{a} object(s) in its shared array"),
                        None => "no shared array".into(),
                    },
                    if empty {
                        "nothing to take, so grow at once without list_lock."
                    } else {
                        "something may be there, so take list_lock."
                    }
                );
                *pc = if empty { RF8 } else { RF3 };
                Flow::Step
            }
            RF3 => {
                step!(self.core);
                let n = fr.n;
                self.core.spin_lock(n, false);
                note!(
                    self.core,
                    Lock,
                    format!("node {n} list_lock"),
                    "Take node {n}'s list_lock to refill from the node."
                );
                *pc = RF4;
                Flow::Step
            }
            RF4 => {
                step!(self.core);
                let n = fr.n;
                let k = fr.c;
                self.core.access(self.core.cfg.line_nd(n), Access::Read);
                let sh_avail = match self.snode(n).shared {
                    Some(_) => {
                        self.core.access(self.arr_hdr(Arr::Shared(n)), Access::Read);
                        self.arr(Arr::Shared(n)).avail()
                    }
                    None => 0,
                };
                let room = {
                    let ac = self.ac(k);
                    ac.limit.saturating_sub(ac.avail())
                };
                let nr = fr.count.min(sh_avail).min(room);
                if nr > 0 {
                    // transfer_objects: the top `nr` entries of the shared array, in order.
                    self.check_node_lock(n, "shared array");
                    self.check_ac_owner(k, false);
                    // `nr` is at most `sh_avail`, the shared array's length.
                    let rest = sh_avail.saturating_sub(nr);
                    self.touch_arr(Arr::Shared(n), rest, sh_avail, Access::Write);
                    let from = self.ac(k).avail();
                    let sh = need!(self.core, self.arr_mut(Arr::Shared(n)));
                    let moved: Vec<Addr> = sh.entry.split_off((rest as usize).min(sh.entry.len()));
                    sh.touched = true;
                    if let Some(ac) = self.ac_mut(k) {
                        ac.entry.extend(moved);
                    }
                    self.touch_arr(Arr::Cpu(k), from, from.saturating_add(nr), Access::Write);
                    note!(self.core, Store, format!("ac[{k}]"), "transfer_objects: {nr} object(s) from node {n}'s shared array to cpu{k}'s array.");
                    *pc = RF7;
                } else {
                    note!(
                        self.core,
                        Load,
                        format!("node {n} shared"),
                        "The shared array has nothing to give: take objects from the slab lists."
                    );
                    *pc = RF5;
                }
                Flow::Step
            }
            RF5 => {
                step!(self.core);
                let n = fr.n;
                let k = fr.c;
                self.core.access(self.core.cfg.line_nd(n), Access::Read);
                let node = &self.core.node(n);
                let from_free = node.partial.is_empty();
                let page = node
                    .partial
                    .first()
                    .or_else(|| self.snode(n).slabs_free.first())
                    .copied();
                let Some(s) = page else {
                    note!(
                        self.core,
                        Load,
                        format!("node {n}"),
                        "get_first_slab: node {n} has no partial and no free slab: must grow."
                    );
                    *pc = RF6;
                    return Flow::Step;
                };
                self.check_node_lock(n, "slab lists");
                self.check_ac_owner(k, false);
                if from_free {
                    let ns = need!(self.core, self.snode_mut(n));
                    ns.free_slabs = ns.free_slabs.saturating_sub(1);
                }
                let before = fr.count;
                fr.count = self.alloc_block(k, s, fr.count);
                self.core.access(self.core.cfg.line_nd(n), Access::Write);
                self.slab_list_fixup(n, s);
                note!(
                    self.core,
                    Store,
                    format!("slab {}", self.core.slab_name(s)),
                    "alloc_block: {} object(s) of {} slab {} onto cpu{k}'s array; the slab moves to {}.",
                    before.saturating_sub(fr.count),
                    if from_free { "free" } else { "partial" },
                    self.core.slab_name(s),
                    if sb!(self).active(s) == self.core.cfg.objects { "slabs_full" } else { "slabs_partial" }
                );
                *pc = if fr.count > 0 { RF5 } else { RF6 };
                Flow::Step
            }
            RF6 => {
                step!(self.core);
                let n = fr.n;
                let k = fr.c;
                self.check_node_lock(n, "free_objects");
                self.core.access(self.core.cfg.line_nd(n), Access::Write);
                let avail = self.ac(k).avail();
                let ns = need!(self.core, self.snode_mut(n));
                if ns.free_objects < avail {
                    let msg = format!("node {n}'s free_objects ({}) is less than the {avail} object(s) just taken", ns.free_objects);
                    ns.free_objects = 0;
                    self.core.violate("SLAB-3", msg);
                } else {
                    ns.free_objects = ns.free_objects.saturating_sub(avail);
                }
                note!(self.core, Store, format!("node {n}"), "n->free_objects -= {avail}: the objects now in cpu{k}'s array are no longer the node's.");
                *pc = RF7;
                Flow::Step
            }
            RF7 => {
                step!(self.core);
                let n = fr.n;
                self.unlock_node(n);
                *pc = RF8;
                Flow::Step
            }
            RF8 => {
                if self.peek_arr(Arr::Cpu(fr.c)) > 0 {
                    *pc = RF10;
                    return Flow::Go;
                }
                *pc = RF8r;
                Flow::call(Frame::CacheGrowBegin {
                    pc: cache_grow_begin::GB1,
                    l: CacheGrowBegin {
                        n: fr.n,
                        ..CacheGrowBegin::default()
                    },
                })
            }
            RF8r => {
                // cache_grow_begin may have enabled interrupts (and slept): this task may be
                // on another CPU now, so `ac = cpu_cache_get(cachep)` again.
                fr.p = fr.ret.slab;
                fr.c = self.core.me();
                *pc = RF9;
                Flow::Go
            }
            RF9 => {
                let Some(s) = fr.p else {
                    *pc = RF9c;
                    return Flow::Go;
                };
                if self.peek_arr(Arr::Cpu(fr.c)) > 0 {
                    *pc = RF9c;
                    return Flow::Go;
                }
                step!(self.core);
                let k = fr.c;
                self.check_ac_owner(k, false);
                let before = fr.count;
                fr.count = self.alloc_block(k, s, fr.count);
                note!(self.core, Store, format!("slab {}", self.core.slab_name(s)), "alloc_block from the new slab {} (still private, no lock): {} object(s) onto cpu{k}'s array.", self.core.slab_name(s), before.saturating_sub(fr.count));
                *pc = RF9c;
                Flow::Step
            }
            RF9c => {
                *pc = RF9r;
                match fr.p {
                    Some(s) => Flow::call(Frame::CacheGrowEnd {
                        pc: cache_grow_end::GE1,
                        l: CacheGrowEnd {
                            p: s,
                            n: self.core.page(s).node,
                        },
                    }),
                    None => Flow::Go,
                }
            }
            RF9r => {
                if self.peek_arr(Arr::Cpu(fr.c)) == 0 {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                *pc = RF10;
                Flow::Go
            }
            RF10 => {
                step!(self.core);
                let k = fr.c;
                self.check_ac_owner(k, false);
                let ac = need!(self.core, self.ac_mut(k));
                ac.touched = true;
                let obj = ac.entry.pop().unwrap_or(NULL);
                let avail = ac.avail();
                self.touch_arr(Arr::Cpu(k), avail, avail.saturating_add(1), Access::Write);
                note!(
                    self.core,
                    Store,
                    format!("ac[{k}]"),
                    "Refilled: pop {} off cpu{k}'s array ({avail} left).",
                    self.core.addr_name(obj)
                );
                Flow::Ret(Ret::new(obj, None))
            }
        }
    }

    /// `cache_grow_begin`: a new slab, private to this context until `cache_grow_end`.
    pub(super) fn cache_grow_begin(
        &mut self,
        pc: &mut cache_grow_begin::Pc,
        fr: &mut CacheGrowBegin,
    ) -> Flow {
        use cache_grow_begin::Pc::*;
        let may_sleep = self.core.ctx(self.core.cur).kind == CtxKind::Task;
        match *pc {
            GB1 => {
                if !may_sleep || self.core.cpu(self.core.me()).irqs_on {
                    *pc = GB2;
                    return Flow::Go;
                }
                step!(self.core);
                self.core.irq_set(true);
                fr.flag = true;
                note!(self.core, IrqOn, "irqs".into(), "GFP_KERNEL may sleep: interrupts on around the page allocator (cache_grow_begin).");
                *pc = GB2;
                Flow::Step
            }
            GB2 => {
                step!(self.core);
                self.core.charge(cost::Id::PageAlloc);
                let fail = self.core.cfg.sc.cache.page_alloc_fail && !self.core.st.in_setup;
                if fail {
                    fr.p = None;
                    note!(
                        self.core,
                        PageAlloc,
                        "page allocator".into(),
                        "The page allocator fails (pageAllocFail): no new slab."
                    );
                } else {
                    let node = fr.n;
                    let s = self.core.new_page(node);
                    if let Some(sb) = self.slab_state_mut() {
                        sb.pages.push(SlabPage::default());
                    }
                    fr.p = Some(s);
                    note!(
                        self.core,
                        PageAlloc,
                        format!("page {}", self.core.slab_name(s)),
                        "kmem_getpages: a page for the new slab {} on node {node}.",
                        self.core.slab_name(s)
                    );
                }
                *pc = GB3;
                Flow::Step
            }
            GB3 => {
                let Some(s) = fr.p else {
                    *pc = GB4;
                    return Flow::Go;
                };
                step!(self.core);
                self.core.access(self.core.page(s).line, Access::Write);
                let objects = self.core.cfg.objects as u16;
                let sp = need!(self.core, self.slab_page_mut(s));
                sp.active = 0;
                sp.bufctl = (0..objects).collect();
                note!(self.core, Store, format!("slab {}", self.core.slab_name(s)), "cache_init_objs: slab {}'s freelist is the index array 0..{} (SLAB writes no pointer into free objects).", self.core.slab_name(s), self.core.cfg.objects);
                *pc = GB4;
                Flow::Step
            }
            GB4 => {
                if !fr.flag {
                    return Flow::Ret(Ret::new(NULL, fr.p));
                }
                step!(self.core);
                self.core.irq_set(false);
                note!(
                    self.core,
                    IrqOff,
                    "irqs".into(),
                    "Interrupts off again after the page allocator."
                );
                Flow::Ret(Ret::new(NULL, fr.p))
            }
        }
    }

    /// `cache_grow_end`: link the new slab into its node under `list_lock`.
    pub(super) fn cache_grow_end(
        &mut self,
        pc: &mut cache_grow_end::Pc,
        fr: &mut CacheGrowEnd,
    ) -> Flow {
        use cache_grow_end::Pc::*;
        let (n, s) = (fr.n, fr.p);
        match *pc {
            GE1 => {
                step!(self.core);
                self.core.spin_lock(n, false);
                note!(
                    self.core,
                    Lock,
                    format!("node {n} list_lock"),
                    "cache_grow_end: take node {n}'s list_lock to link slab {}.",
                    self.core.slab_name(s)
                );
                *pc = GE2;
                Flow::Step
            }
            GE2 => {
                step!(self.core);
                self.check_node_lock(n, "slab lists");
                self.core.access(self.core.cfg.line_nd(n), Access::Write);
                self.core.access(self.core.page(s).line, Access::Write);
                if let Some(pg) = self.core.page_mut(s) {
                    pg.life = Life::Live;
                }
                let (active, num) = (sb!(self).active(s), self.core.cfg.objects);
                let free = num.saturating_sub(active);
                let ns = need!(self.core, self.snode_mut(n));
                ns.total_slabs.bump();
                ns.free_objects.bump_by(free);
                if active == 0 {
                    ns.slabs_free.push(s);
                    ns.free_slabs.bump();
                } else {
                    self.slab_list_fixup(n, s);
                }
                self.core.stat(Stat::GROWN);
                note!(self.core, Store, format!("node {n}"), "Link slab {} ({active} of {num} in use) and add its {} free object(s) to free_objects.", self.core.slab_name(s), free);
                *pc = GE3;
                Flow::Step
            }
            GE3 => {
                step!(self.core);
                self.unlock_node(n);
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }
}
