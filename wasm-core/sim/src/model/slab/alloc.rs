//! SLAB's allocation: `slab_alloc` → `____cache_alloc` (`cache_alloc`), `cache_alloc_refill`,
//! and the growth of a cache, `cache_grow_begin` / `cache_grow_end` (with the lockless
//! decision of model.md §4 (v)).

use super::*;

impl SlabState {
    // ---------------------------------------------------------------------------------------
    // Allocation: slab_alloc → ____cache_alloc
    // ---------------------------------------------------------------------------------------

    pub(super) fn cache_alloc(
        &mut self,
        core: &mut Core,
        pc: &mut cache_alloc::Pc,
        fr: &mut CacheAlloc,
    ) -> Flow {
        use cache_alloc::Pc::*;
        match *pc {
            CA0 => {
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                fr.c = core.me();
                core.ghost.slab_allocs.bump();
                note!(core, IrqOff, "irqs".into(), "slab_alloc: local_irq_save. SLAB's per-CPU array is only ever touched with interrupts off.");
                *pc = CA1;
                Flow::Step
            }
            CA1 => {
                step!(core);
                let k = fr.c;
                core.access(self.arr_hdr(core, Arr::Cpu(k)), Access::Read);
                let avail = self.ac(core, k).avail();
                note!(
                    core,
                    Load,
                    format!("ac[{k}].avail"),
                    "Read cpu{k}'s array_cache: {avail} object(s) available."
                );
                rw!(core, read = avail.to_string());
                *pc = if avail > 0 { CA2 } else { CA1r };
                Flow::Step
            }
            CA2 => {
                step!(core);
                let k = fr.c;
                let (obj, _) = need!(core, self.ac_pop(core, k));
                core.stat(Stat::ALLOCHIT);
                fr.obj = obj;
                note!(core, Store, format!("ac[{k}]"), "Pop {} off the top of cpu{k}'s array (touched = 1): no atomic instruction, no lock.", core.addr_name(obj));
                rw!(core, read = core.addr_name(obj));
                *pc = CA3;
                Flow::Step
            }
            CA1r => {
                core.stat(Stat::ALLOCMISS);
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
                step!(core);
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    IrqOn,
                    "irqs".into(),
                    "local_irq_restore: the allocation returns {}.",
                    core.addr_name(fr.obj)
                );
                Flow::Ret(Ret::new(fr.obj, None))
            }
        }
    }

    /// `ac->touched = 1; objp = ac->entry[--ac->avail];`, as `____cache_alloc` and the end of
    /// `cache_alloc_refill` both write it: the top of CPU k's array (its owner checked, the
    /// slot's line written), and the entries left.
    fn ac_pop(&mut self, core: &mut Core, k: u32) -> Option<(Addr, u32)> {
        Self::check_ac_owner(core, k, false);
        let ac = self.ac_mut(core, k)?;
        ac.touched = true;
        let obj = ac.entry.pop().unwrap_or(NULL);
        let avail = ac.avail();
        self.touch_arr(
            core,
            Arr::Cpu(k),
            avail,
            avail.saturating_add(1),
            Access::Write,
        );
        Some((obj, avail))
    }

    /// `cache_alloc_refill` (v4.7, model.md Appendix A), irqs off on entry.
    pub(super) fn cache_alloc_refill(
        &mut self,
        core: &mut Core,
        pc: &mut cache_alloc_refill::Pc,
        fr: &mut CacheAllocRefill,
    ) -> Flow {
        use cache_alloc_refill::Pc::*;
        match *pc {
            RF1 => {
                let k = core.me();
                fr.c = k;
                fr.n = core.node_of_cpu(k);
                let ac = self.ac(core, k);
                let mut batch = ac.batchcount;
                // BATCHREFILL_LIMIT: an array not used since the reaper looked refills less.
                if !ac.touched && batch > 16 {
                    batch = 16;
                }
                fr.count = batch;
                *pc = match core.variant().slab_grow {
                    crate::scenario::SlabGrow::Lockless => RF2,
                    crate::scenario::SlabGrow::Locked => RF3,
                };
                Flow::Go
            }
            // The lockless check as one step (RF2) when no context tunes: then nothing ever
            // writes n->shared after the cache is set up, so loading the pointer and reading
            // shared->avail through it in one step is exactly loading it just before (the
            // pointer cannot change in between). When a context tunes, RF2 loads the pointer
            // and RF2S reads avail through it: a swap and a kfree can fall between the two.
            RF2 if core.cfg.tunes => {
                step!(core);
                let n = fr.n;
                core.access(core.cfg.line_nd(n), Access::Read);
                let free = self.snode(core, n).free_objects;
                let shared = self.snode(core, n).shared.as_ref().map(|a| a.id);
                fr.free = free;
                fr.shared = shared;
                let name = shared.map_or("NULL".to_string(), |i| format!("A{i}"));
                // `!n->free_objects && (...)`: the kernel reads shared->avail only when
                // free_objects is 0 and the pointer is not NULL.
                *pc = match (free, shared) {
                    (0, Some(_)) => RF2S,
                    (0, None) => RF8,
                    _ => RF3,
                };
                note!(
                    core,
                    Load,
                    format!("node {n}"),
                    "Lockless check (v4.7), interrupts off: node {n} has free_objects = {free}; shared = READ_ONCE(n->shared) = {name}{}",
                    match (free, shared) {
                        (0, Some(_)) => ": next, read its avail through this pointer.".to_string(),
                        (0, None) => ": no shared array, so grow at once without list_lock.".to_string(),
                        _ => ": something may be there, so take list_lock.".to_string(),
                    }
                );
                Flow::Step
            }
            RF2S => {
                step!(core);
                let n = fr.n;
                let id = need!(core, fr.shared);
                core.access(self.arr_hdr(core, Arr::Shared(n)), Access::Read);
                let (avail, freed_by) = {
                    let (a, f) = self.array_by_id(core, n, id);
                    (a.avail(), f)
                };
                if let Some(w) = freed_by {
                    let msg = format!(
                        "{} on cpu{} read shared->avail of array A{id}, node {n}'s old shared array, which {} freed at setup_kmem_cache_node:SN7 (kfree(old_shared)): a read of freed memory",
                        core.ctx_name(core.cur),
                        core.me(),
                        core.ctx_name(w)
                    );
                    core.violate("SLAB-7", msg);
                }
                let current = self.snode(core, n).shared.as_ref().map(|a| a.id) == Some(id);
                let empty = fr.free == 0 && avail == 0;
                note!(
                    core,
                    Load,
                    format!("array A{id}"),
                    "shared->avail through the pointer loaded before: A{id}{} has {avail} object(s): {}",
                    match (current, freed_by) {
                        (true, _) => " (still node's shared array)".to_string(),
                        (false, None) => " (swapped out, not yet freed)".to_string(),
                        (false, Some(_)) => " (swapped out AND FREED: this reads freed memory)".to_string(),
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
            RF2 => {
                step!(core);
                let n = fr.n;
                core.access(core.cfg.line_nd(n), Access::Read);
                let free = self.snode(core, n).free_objects;
                let shared = if self.snode(core, n).shared.is_some() {
                    core.access(self.arr_hdr(core, Arr::Shared(n)), Access::Read);
                    Some(self.arr(core, Arr::Shared(n)).avail())
                } else {
                    None
                };
                let empty = free == 0 && shared.unwrap_or(0) == 0;
                note!(
                    core,
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
                step!(core);
                let n = fr.n;
                core.spin_lock(n, false);
                note!(
                    core,
                    Lock,
                    format!("node {n} list_lock"),
                    "Take node {n}'s list_lock to refill from the node."
                );
                *pc = RF4;
                Flow::Step
            }
            RF4 => {
                step!(core);
                let n = fr.n;
                let k = fr.c;
                core.access(core.cfg.line_nd(n), Access::Read);
                let sh_avail = match self.snode(core, n).shared {
                    Some(_) => {
                        core.access(self.arr_hdr(core, Arr::Shared(n)), Access::Read);
                        self.arr(core, Arr::Shared(n)).avail()
                    }
                    None => 0,
                };
                let room = {
                    let ac = self.ac(core, k);
                    ac.limit.saturating_sub(ac.avail())
                };
                let nr = fr.count.min(sh_avail).min(room);
                if nr > 0 {
                    // transfer_objects: the top `nr` entries of the shared array, in order.
                    Self::check_node_lock(core, n, "shared array");
                    Self::check_ac_owner(core, k, false);
                    // `nr` is at most `sh_avail`, the shared array's length.
                    let rest = sh_avail.saturating_sub(nr);
                    self.touch_arr(core, Arr::Shared(n), rest, sh_avail, Access::Write);
                    let from = self.ac(core, k).avail();
                    let sh = need!(core, self.arr_mut(core, Arr::Shared(n)));
                    let moved: Vec<Addr> = sh.entry.split_off((rest as usize).min(sh.entry.len()));
                    sh.touched = true;
                    if let Some(ac) = self.ac_mut(core, k) {
                        ac.entry.extend(moved);
                    }
                    self.touch_arr(
                        core,
                        Arr::Cpu(k),
                        from,
                        from.saturating_add(nr),
                        Access::Write,
                    );
                    note!(core, Store, format!("ac[{k}]"), "transfer_objects: {nr} object(s) from node {n}'s shared array to cpu{k}'s array.");
                    *pc = RF7;
                } else {
                    note!(
                        core,
                        Load,
                        format!("node {n} shared"),
                        "The shared array has nothing to give: take objects from the slab lists."
                    );
                    *pc = RF5;
                }
                Flow::Step
            }
            RF5 => {
                step!(core);
                let n = fr.n;
                let k = fr.c;
                core.access(core.cfg.line_nd(n), Access::Read);
                let node = &core.node(n);
                let from_free = node.partial.is_empty();
                let page = node
                    .partial
                    .first()
                    .or_else(|| self.snode(core, n).slabs_free.first())
                    .copied();
                let Some(s) = page else {
                    note!(
                        core,
                        Load,
                        format!("node {n}"),
                        "get_first_slab: node {n} has no partial and no free slab: must grow."
                    );
                    *pc = RF6;
                    return Flow::Step;
                };
                Self::check_node_lock(core, n, "slab lists");
                Self::check_ac_owner(core, k, false);
                if from_free {
                    let ns = need!(core, self.snode_mut(core, n));
                    ns.free_slabs = ns.free_slabs.saturating_sub(1);
                }
                let before = fr.count;
                fr.count = self.alloc_block(core, k, s, fr.count);
                core.access(core.cfg.line_nd(n), Access::Write);
                self.slab_list_fixup(core, n, s);
                note!(
                    core,
                    Store,
                    format!("slab {}", core.slab_name(s)),
                    "alloc_block: {} object(s) of {} slab {} onto cpu{k}'s array; the slab moves to {}.",
                    before.saturating_sub(fr.count),
                    if from_free { "free" } else { "partial" },
                    core.slab_name(s),
                    if self.active(s) == core.cfg.objects { "slabs_full" } else { "slabs_partial" }
                );
                *pc = if fr.count > 0 { RF5 } else { RF6 };
                Flow::Step
            }
            RF6 => {
                step!(core);
                let n = fr.n;
                let k = fr.c;
                Self::check_node_lock(core, n, "free_objects");
                core.access(core.cfg.line_nd(n), Access::Write);
                let avail = self.ac(core, k).avail();
                let ns = need!(core, self.snode_mut(core, n));
                if ns.free_objects < avail {
                    let msg = format!("node {n}'s free_objects ({}) is less than the {avail} object(s) just taken", ns.free_objects);
                    ns.free_objects = 0;
                    core.violate("SLAB-3", msg);
                } else {
                    ns.free_objects = ns.free_objects.saturating_sub(avail);
                }
                note!(core, Store, format!("node {n}"), "n->free_objects -= {avail}: the objects now in cpu{k}'s array are no longer the node's.");
                *pc = RF7;
                Flow::Step
            }
            RF7 => {
                step!(core);
                let n = fr.n;
                self.unlock_node(core, n);
                *pc = RF8;
                Flow::Step
            }
            RF8 => {
                if self.peek_arr(core, Arr::Cpu(fr.c)) > 0 {
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
                fr.c = core.me();
                *pc = RF9;
                Flow::Go
            }
            RF9 => {
                let Some(s) = fr.p else {
                    *pc = RF9c;
                    return Flow::Go;
                };
                if self.peek_arr(core, Arr::Cpu(fr.c)) > 0 {
                    *pc = RF9c;
                    return Flow::Go;
                }
                step!(core);
                let k = fr.c;
                Self::check_ac_owner(core, k, false);
                let before = fr.count;
                fr.count = self.alloc_block(core, k, s, fr.count);
                note!(core, Store, format!("slab {}", core.slab_name(s)), "alloc_block from the new slab {} (still private, no lock): {} object(s) onto cpu{k}'s array.", core.slab_name(s), before.saturating_sub(fr.count));
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
                            n: core.page(s).node,
                        },
                    }),
                    None => Flow::Go,
                }
            }
            RF9r => {
                if self.peek_arr(core, Arr::Cpu(fr.c)) == 0 {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                *pc = RF10;
                Flow::Go
            }
            RF10 => {
                step!(core);
                let k = fr.c;
                let (obj, avail) = need!(core, self.ac_pop(core, k));
                note!(
                    core,
                    Store,
                    format!("ac[{k}]"),
                    "Refilled: pop {} off cpu{k}'s array ({avail} left).",
                    core.addr_name(obj)
                );
                Flow::Ret(Ret::new(obj, None))
            }
        }
    }

    /// `cache_grow_begin`: a new slab, private to this context until `cache_grow_end`.
    pub(super) fn cache_grow_begin(
        &mut self,
        core: &mut Core,
        pc: &mut cache_grow_begin::Pc,
        fr: &mut CacheGrowBegin,
    ) -> Flow {
        use cache_grow_begin::Pc::*;
        let may_sleep = core.ctx(core.cur).kind == CtxKind::Task;
        match *pc {
            GB1 => {
                if !may_sleep || core.cpu(core.me()).irqs_on {
                    *pc = GB2;
                    return Flow::Go;
                }
                step!(core);
                core.irq_set(true);
                fr.flag = true;
                note!(core, IrqOn, "irqs".into(), "GFP_KERNEL may sleep: interrupts on around the page allocator (cache_grow_begin).");
                *pc = GB2;
                Flow::Step
            }
            GB2 => {
                step!(core);
                core.charge(cost::Id::PageAlloc);
                let fail = core.cfg.sc.cache.page_alloc_fail && !core.st.in_setup;
                if fail {
                    fr.p = None;
                    note!(
                        core,
                        PageAlloc,
                        "page allocator".into(),
                        "The page allocator fails (pageAllocFail): no new slab."
                    );
                } else {
                    let node = fr.n;
                    let s = core.new_page(node);
                    self.pages.push(SlabPage::default());
                    fr.p = Some(s);
                    note!(
                        core,
                        PageAlloc,
                        format!("page {}", core.slab_name(s)),
                        "kmem_getpages: a page for the new slab {} on node {node}.",
                        core.slab_name(s)
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
                step!(core);
                core.access(core.page(s).line, Access::Write);
                let objects = core.cfg.objects as u16;
                let sp = need!(core, self.slab_page_mut(core, s));
                sp.active = 0;
                sp.bufctl = (0..objects).collect();
                note!(core, Store, format!("slab {}", core.slab_name(s)), "cache_init_objs: slab {}'s freelist is the index array 0..{} (SLAB writes no pointer into free objects).", core.slab_name(s), core.cfg.objects);
                *pc = GB4;
                Flow::Step
            }
            GB4 => {
                if !fr.flag {
                    return Flow::Ret(Ret::new(NULL, fr.p));
                }
                step!(core);
                core.irq_set(false);
                note!(
                    core,
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
        core: &mut Core,
        pc: &mut cache_grow_end::Pc,
        fr: &mut CacheGrowEnd,
    ) -> Flow {
        use cache_grow_end::Pc::*;
        let (n, s) = (fr.n, fr.p);
        match *pc {
            GE1 => {
                step!(core);
                core.spin_lock(n, false);
                note!(
                    core,
                    Lock,
                    format!("node {n} list_lock"),
                    "cache_grow_end: take node {n}'s list_lock to link slab {}.",
                    core.slab_name(s)
                );
                *pc = GE2;
                Flow::Step
            }
            GE2 => {
                step!(core);
                Self::check_node_lock(core, n, "slab lists");
                core.access(core.cfg.line_nd(n), Access::Write);
                core.access(core.page(s).line, Access::Write);
                if let Some(pg) = core.page_mut(s) {
                    pg.life = Life::Live;
                }
                let (active, num) = (self.active(s), core.cfg.objects);
                let free = num.saturating_sub(active);
                let ns = need!(core, self.snode_mut(core, n));
                ns.total_slabs.bump();
                ns.free_objects.bump_by(free);
                if active == 0 {
                    ns.slabs_free.push(s);
                    ns.free_slabs.bump();
                } else {
                    self.slab_list_fixup(core, n, s);
                }
                core.stat(Stat::GROWN);
                note!(core, Store, format!("node {n}"), "Link slab {} ({active} of {num} in use) and add its {} free object(s) to free_objects.", core.slab_name(s), free);
                *pc = GE3;
                Flow::Step
            }
            GE3 => {
                step!(core);
                self.unlock_node(core, n);
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }
}
