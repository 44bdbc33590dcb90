//! SLAB's free: `kmem_cache_free` → `___cache_free` (`cache_free`), `cache_flusharray` and
//! `do_drain`.

use super::*;

impl SlabState {
    // ---------------------------------------------------------------------------------------
    // Free: kmem_cache_free → ___cache_free
    // ---------------------------------------------------------------------------------------

    pub(super) fn cache_free(
        &mut self,
        core: &mut Core,
        pc: &mut cache_free::Pc,
        fr: &mut CacheFree,
    ) -> Flow {
        use cache_free::Pc::*;
        match *pc {
            CF0 => {
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                fr.c = core.me();
                note!(
                    core,
                    IrqOff,
                    "irqs".into(),
                    "kmem_cache_free: local_irq_save."
                );
                *pc = CF1;
                Flow::Step
            }
            CF1 => {
                step!(core);
                let k = fr.c;
                let s = fr.pg;
                if core.cfg.sc.nodes > 1 {
                    // cache_free_alien reads the object's page for its node.
                    core.access(core.page(s).line, Access::Read);
                    let home = core.page(s).node;
                    if home != core.node_of_cpu(k) {
                        fr.n = Some(home);
                        core.ghost.alien_frees.bump();
                        note!(
                            core,
                            Load,
                            format!("page {}", core.slab_name(s)),
                            "{} belongs to node {home}: free it to its home node (alien).",
                            core.addr_name(fr.x)
                        );
                        *pc = CFA1;
                        return Flow::Step;
                    }
                }
                core.access(self.arr_hdr(core, Arr::Cpu(k)), Access::Read);
                let ac = self.ac(core, k);
                let (avail, limit) = (ac.avail(), ac.limit);
                if avail < limit {
                    core.stat(Stat::FREEHIT);
                    *pc = CF2;
                } else {
                    core.stat(Stat::FREEMISS);
                    *pc = CF1f;
                }
                note!(
                    core,
                    Load,
                    format!("ac[{k}].avail"),
                    "cpu{k}'s array holds {avail} of {limit}: {}",
                    if avail < limit {
                        "room to push."
                    } else {
                        "full, flush a batch first (cache_flusharray)."
                    }
                );
                Flow::Step
            }
            CF1f => {
                *pc = CF2;
                Flow::call(Frame::CacheFlusharray {
                    pc: cache_flusharray::FA0,
                    l: CacheFlusharray {
                        c: fr.c,
                        ..CacheFlusharray::default()
                    },
                })
            }
            CF2 => {
                step!(core);
                let k = fr.c;
                Self::check_ac_owner(core, k, false);
                let ac = need!(core, self.ac_mut(core, k));
                if ac.avail() >= ac.limit {
                    let msg = format!(
                        "cpu{k}'s array is full ({}) and a push would overflow it",
                        ac.limit
                    );
                    core.violate("SLAB-4", msg);
                    fr.flag = true;
                    *pc = CF3;
                    return Flow::Step;
                }
                ac.entry.push(fr.x);
                let avail = ac.avail();
                // The push made `avail` at least 1.
                self.touch_arr(
                    core,
                    Arr::Cpu(k),
                    avail.saturating_sub(1),
                    avail,
                    Access::Write,
                );
                fr.flag = true;
                note!(core, Store, format!("ac[{k}]"), "Push {} onto cpu{k}'s array ({avail} now): no atomic instruction, no lock, no write into the object.", core.addr_name(fr.x));
                *pc = CF3;
                Flow::Step
            }
            CF3 => {
                step!(core);
                core.irq_restore(fr.saved_irq);
                note!(core, IrqOn, "irqs".into(), "local_irq_restore.");
                if fr.queue.is_empty() {
                    Flow::Ret(Ret::new(NULL, None))
                } else {
                    *pc = CFA4;
                    Flow::Step
                }
            }
            CFA1 => {
                step!(core);
                let n = need!(core, fr.n);
                core.spin_lock(n, false);
                note!(
                    core,
                    Lock,
                    format!("node {n} list_lock"),
                    "Take node {n}'s list_lock (the object's home node)."
                );
                *pc = CFA2;
                Flow::Step
            }
            CFA2 => {
                step!(core);
                let n = need!(core, fr.n);
                Self::check_node_lock(core, n, "free_objects");
                if let Some(sn) = self.snode_mut(core, n) {
                    sn.free_objects.bump();
                }
                self.free_block_one(core, n, fr.x);
                let mut q = std::mem::take(&mut fr.queue);
                self.free_block_trim(core, n, &mut q);
                fr.queue = q;
                fr.flag = true;
                note!(
                    core,
                    Store,
                    format!("slab {}", core.slab_name(fr.pg)),
                    "free_block: {} goes back into its slab on node {n}.",
                    core.addr_name(fr.x)
                );
                *pc = CFA3;
                Flow::Step
            }
            CFA3 => {
                step!(core);
                let n = need!(core, fr.n);
                self.unlock_node(core, n);
                *pc = CF3;
                Flow::Step
            }
            CFA4 => {
                step!(core);
                if self.destroy_next(core, &mut fr.queue) {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                Flow::Step
            }
        }
    }

    /// `cache_flusharray`: the array is full; give its oldest `batchcount` entries to the
    /// shared array if it has room, else back to their slabs (`free_block`).
    pub(super) fn cache_flusharray(
        &mut self,
        core: &mut Core,
        pc: &mut cache_flusharray::Pc,
        fr: &mut CacheFlusharray,
    ) -> Flow {
        use cache_flusharray::Pc::*;
        match *pc {
            FA0 => {
                let k = fr.c;
                fr.n = core.node_of_cpu(k);
                fr.count = self.ac(core, k).batchcount;
                *pc = FA1;
                Flow::Go
            }
            FA1 => {
                step!(core);
                let n = fr.n;
                core.spin_lock(n, false);
                note!(
                    core,
                    Lock,
                    format!("node {n} list_lock"),
                    "cache_flusharray: take node {n}'s list_lock."
                );
                *pc = FA2;
                Flow::Step
            }
            FA2 => {
                step!(core);
                let (n, k) = (fr.n, fr.c);
                core.access(core.cfg.line_nd(n), Access::Read);
                let room = match &self.snode(core, n).shared {
                    Some(sh) => {
                        let room = sh.limit.saturating_sub(sh.avail());
                        core.access(self.arr_hdr(core, Arr::Shared(n)), Access::Read);
                        room
                    }
                    None => 0,
                };
                if room > 0 {
                    let nr = fr.count.min(room);
                    Self::check_node_lock(core, n, "shared array");
                    Self::check_ac_owner(core, k, false);
                    self.touch_arr(core, Arr::Cpu(k), 0, nr, Access::Read);
                    let moved: Vec<Addr> = self
                        .ac(core, k)
                        .entry
                        .iter()
                        .take(nr as usize)
                        .copied()
                        .collect();
                    let from = self.arr(core, Arr::Shared(n)).avail();
                    if let Some(sh) = self.arr_mut(core, Arr::Shared(n)) {
                        sh.entry.extend(moved);
                    }
                    self.touch_arr(
                        core,
                        Arr::Shared(n),
                        from,
                        from.saturating_add(nr),
                        Access::Write,
                    );
                    if let Some(ac) = self.ac_mut(core, k) {
                        ac.handed = nr;
                    }
                    fr.count = nr;
                    note!(
                        core,
                        Store,
                        format!("node {n} shared"),
                        "The shared array has room: copy cpu{k}'s {nr} oldest entries into it."
                    );
                    *pc = FA5;
                } else {
                    note!(core, Load, format!("node {n} shared"), "No room in a shared array: free the batch back into its slabs (free_block).");
                    *pc = FA3;
                }
                Flow::Step
            }
            FA3 => {
                step!(core);
                self.free_block_begin(core, fr.n, fr.count, &mut fr.pages);
                note!(
                    core,
                    Store,
                    format!("node {}", fr.n),
                    "free_block: n->free_objects += {}.",
                    fr.count
                );
                *pc = FA4;
                Flow::Step
            }
            FA4 => {
                step!(core);
                if self.free_block_entry(core, fr.n, fr.c, fr.count, &mut fr.pages) {
                    *pc = FA4d;
                }
                Flow::Step
            }
            FA4d => {
                step!(core);
                self.free_block_end(core, fr.n, &mut fr.queue);
                *pc = FA5;
                Flow::Step
            }
            FA5 => {
                step!(core);
                let n = fr.n;
                self.unlock_node(core, n);
                *pc = if fr.queue.is_empty() { FA7 } else { FA6 };
                Flow::Step
            }
            FA6 => {
                step!(core);
                if self.destroy_next(core, &mut fr.queue) {
                    *pc = FA7;
                }
                Flow::Step
            }
            FA7 => {
                step!(core);
                let k = fr.c;
                Self::check_ac_owner(core, k, false);
                let ac = need!(core, self.ac_mut(core, k));
                let nr = (fr.count as usize).min(ac.entry.len());
                ac.entry.drain(..nr);
                ac.handed = 0;
                let avail = ac.avail();
                self.touch_arr(core, Arr::Cpu(k), 0, avail, Access::Write);
                note!(
                    core,
                    Store,
                    format!("ac[{k}]"),
                    "ac->avail -= {nr}; memmove the {avail} newer entries down."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    /// `do_drain` (the `flush` op): give back every object of a CPU's array.
    pub(super) fn do_drain(
        &mut self,
        core: &mut Core,
        pc: &mut do_drain::Pc,
        fr: &mut DoDrain,
    ) -> Flow {
        use do_drain::Pc::*;
        match *pc {
            DD0 => {
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                if fr.flag {
                    fr.c = core.me();
                }
                fr.n = core.node_of_cpu(fr.c);
                note!(
                    core,
                    IrqOff,
                    "irqs".into(),
                    "do_drain of cpu{}'s array: interrupts off.",
                    fr.c
                );
                *pc = DD1;
                Flow::Step
            }
            DD1 => {
                step!(core);
                let n = fr.n;
                core.spin_lock(n, false);
                note!(
                    core,
                    Lock,
                    format!("node {n} list_lock"),
                    "Take node {n}'s list_lock."
                );
                *pc = DD2;
                Flow::Step
            }
            DD2 => {
                step!(core);
                let k = fr.c;
                core.access(self.arr_hdr(core, Arr::Cpu(k)), Access::Read);
                fr.count = self.ac(core, k).avail();
                self.free_block_begin(core, fr.n, fr.count, &mut fr.pages);
                note!(
                    core,
                    Store,
                    format!("node {}", fr.n),
                    "free_block of all {} entries: n->free_objects += {}.",
                    fr.count,
                    fr.count
                );
                *pc = if fr.count > 0 { DD3 } else { DD3d };
                Flow::Step
            }
            DD3 => {
                step!(core);
                if self.free_block_entry(core, fr.n, fr.c, fr.count, &mut fr.pages) {
                    *pc = DD3d;
                }
                Flow::Step
            }
            DD3d => {
                step!(core);
                self.free_block_end(core, fr.n, &mut fr.queue);
                *pc = DD4;
                Flow::Step
            }
            DD4 => {
                step!(core);
                let n = fr.n;
                self.unlock_node(core, n);
                *pc = if fr.queue.is_empty() { DD6 } else { DD5 };
                Flow::Step
            }
            DD5 => {
                step!(core);
                if self.destroy_next(core, &mut fr.queue) {
                    *pc = DD6;
                }
                Flow::Step
            }
            DD6 => {
                step!(core);
                let k = fr.c;
                Self::check_ac_owner(core, k, !fr.flag);
                let ac = need!(core, self.ac_mut(core, k));
                ac.entry.clear();
                ac.handed = 0;
                core.access(self.arr_hdr(core, Arr::Cpu(k)), Access::Write);
                note!(core, Store, format!("ac[{k}]"), "ac->avail = 0.");
                *pc = DD7;
                Flow::Step
            }
            DD7 => {
                step!(core);
                core.irq_restore(fr.saved_irq);
                note!(core, IrqOn, "irqs".into(), "Interrupts back on.");
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }
}
