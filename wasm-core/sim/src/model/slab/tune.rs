//! SLAB's replacement of a node's shared array: the `tune` op, the node part of a write to
//! `/proc/slabinfo` (`do_tune_cpucache`), which calls `setup_kmem_cache_node(cachep, node, gfp,
//! true)` for each node (mm/slab.c, v4.7). Only that part is modelled (our simplification):
//! `__do_tune_cpucache` first replaces the per-CPU arrays (it swaps them, waits with
//! `kick_all_cpus_sync()`, then frees the old ones' objects) and also tunes the memcg child caches. The lockless refill (`cache_alloc_refill`'s RF2/RF2S) reads
//! `n->shared` without `list_lock`, with interrupts off; 801faf0db894 ("mm/slab: lockless
//! decision to grow cache") made that safe by freeing the old array only after
//! `synchronize_sched()`. `variant.slabSharedFree` chooses that order or the broken one that
//! frees at once (model.md Appendix A.1).

use super::*;
use crate::model::locals::SetupKmemCacheNode;
use crate::scenario::SlabSharedFree;

impl Locals for SetupKmemCacheNode {
    fn queued(&self, s: SlabId) -> bool {
        self.queue.contains(&s)
    }
}

/// The entry frame of a `tune` op.
pub(in crate::model) fn tune_frame() -> Frame {
    Frame::SetupKmemCacheNode {
        pc: setup_kmem_cache_node::SN1,
        l: SetupKmemCacheNode::default(),
    }
}

impl SlabState {
    pub(super) fn setup_kmem_cache_node(
        &mut self,
        core: &mut Core,
        pc: &mut setup_kmem_cache_node::Pc,
        fr: &mut SetupKmemCacheNode,
    ) -> Flow {
        use setup_kmem_cache_node::Pc::*;
        match *pc {
            SN1 => {
                step!(core);
                let n = core.node_of_cpu(core.me());
                fr.n = n;
                let (limit, batchcount) =
                    (core.cfg.layout.slab()).map_or((0, 0), |l| (l.shared_limit, l.batchcount));
                if limit > 0 {
                    let id = self.next_array;
                    self.next_array = id.saturating_add(1);
                    fr.new = Some(ArrayCache {
                        limit,
                        batchcount,
                        id,
                        ..ArrayCache::default()
                    });
                    note!(core, Store, format!("array A{id}"), "do_tune_cpucache → setup_kmem_cache_node(force_change): alloc_arraycache makes a new, empty shared array A{id} for node {n} (not yet visible to anyone).");
                } else {
                    note!(core, Load, format!("node {n}"), "do_tune_cpucache → setup_kmem_cache_node(force_change): the cache has no shared array (shared = 0), so new_shared is NULL.");
                }
                *pc = SN2;
                Flow::Step
            }
            SN2 => {
                step!(core);
                let n = fr.n;
                core.irq_set(false);
                core.spin_lock(n, false);
                note!(
                    core,
                    Lock,
                    format!("node {n} list_lock"),
                    "spin_lock_irq: interrupts off, take node {n}'s list_lock."
                );
                *pc = SN3;
                Flow::Step
            }
            SN3 => {
                step!(core);
                let n = fr.n;
                let Some(old) = self.snode(core, n).shared.as_ref().map(|a| a.id) else {
                    note!(
                        core,
                        Load,
                        format!("node {n}"),
                        "Node {n} has no shared array: nothing to free_block."
                    );
                    *pc = SN4;
                    return Flow::Step;
                };
                core.access(self.arr_hdr(core, Arr::Shared(n)), Access::Read);
                let entries: Vec<Addr> = self.arr(core, Arr::Shared(n)).entry.clone();
                let count = entries.len() as u32;
                // free_block under list_lock, all in one step: nothing that reads without the
                // lock sees the lists, and free_objects and avail change together here.
                let mut i = 0;
                self.free_block_begin(core, n, count, &mut i);
                for a in entries {
                    self.free_block_one(core, n, a);
                }
                self.free_block_trim(core, n, &mut fr.queue);
                if let Some(sh) = self.arr_mut(core, Arr::Shared(n)) {
                    sh.entry.clear();
                }
                core.access(self.arr_hdr(core, Arr::Shared(n)), Access::Write);
                note!(core, Store, format!("array A{old}"), "free_block: the {count} object(s) of node {n}'s shared array A{old} go back to their slabs (n->free_objects += {count}); then A{old}->avail = 0.");
                *pc = SN4;
                Flow::Step
            }
            SN4 => {
                step!(core);
                let n = fr.n;
                Self::check_node_lock(core, n, "shared array");
                core.access(core.cfg.line_nd(n), Access::Write);
                let new = fr.new.take();
                let new_id = new.as_ref().map(|a| a.id);
                let sn = need!(core, self.snode_mut(core, n));
                let old = std::mem::replace(&mut sn.shared, new);
                fr.old = old.as_ref().map(|a| a.id);
                if let Some(arr) = old {
                    let old_id = arr.id;
                    self.retired.push(Retired {
                        node: n,
                        arr,
                        freed_by: None,
                    });
                    // The CPUs a grace period waits for: every one with interrupts off now
                    // (this one too, until SN5), since only they can hold a pointer to the
                    // old array loaded with interrupts off.
                    let cpus: Vec<u32> = (0..core.cfg.sc.cpus)
                        .filter(|&k| {
                            core.touch_resource(crate::model::RES_SCHED | k, false);
                            !core.cpu(k).irqs_on
                        })
                        .collect();
                    if core.variant().slab_shared_free == SlabSharedFree::AfterGracePeriod {
                        self.grace.push(Grace {
                            ctx: core.cur,
                            arr: old_id,
                            cpus,
                        });
                    }
                }
                let name = |id: Option<u32>| id.map_or("NULL".to_string(), |i| format!("A{i}"));
                note!(core, Store, format!("node {n} shared"), "n->shared = new_shared: node {n}'s shared array is now {}; old_shared = {} (a reader that loaded the pointer before this still uses it).", name(new_id), name(fr.old));
                *pc = SN5;
                Flow::Step
            }
            SN5 => {
                step!(core);
                let n = fr.n;
                core.spin_unlock(n);
                core.irq_set(true);
                let destroyed = fr.queue.len();
                while !self.destroy_next(core, &mut fr.queue) {}
                note!(
                    core,
                    Unlock,
                    format!("node {n} list_lock"),
                    "spin_unlock_irq: drop node {n}'s list_lock, interrupts on{}.",
                    if destroyed > 0 {
                        format!("; slabs_destroy gives {destroyed} free slab(s) back")
                    } else {
                        String::new()
                    }
                );
                if fr.old.is_none() {
                    // kfree(NULL): nothing to free, and nothing to wait for. This is v4.9's
                    // order (86d9f48534e8, "mm/slab: fix kmemcg cache creation delayed issue":
                    // `if (old_shared && force_change)`); 4.7 and 4.8 waited even here.
                    return Flow::Ret(Ret::new(NULL, None));
                };
                // The broken order frees the array right after the unlock (`at-once`).
                *pc = match core.variant().slab_shared_free {
                    SlabSharedFree::AfterGracePeriod => SN6,
                    SlabSharedFree::AtOnce => SN7,
                };
                Flow::Step
            }
            SN6 => {
                // Enabled only when the grace period is over (`Block::GracePeriod`, from
                // `grace_wait`): our reconstruction of synchronize_sched()'s guarantee, not
                // its implementation (no RCU state machine, no quiescent-state reporting).
                step!(core);
                let me = core.cur;
                self.grace.retain(|g| g.ctx != me);
                note!(core, Load, "synchronize_sched".into(), "synchronize_sched() returns: every CPU that had interrupts off when n->shared was swapped has since turned them on, so no lockless reader can still hold the old pointer.");
                *pc = SN7;
                Flow::Step
            }
            SN7 => {
                step!(core);
                let me = core.cur;
                let Some(old) = fr.old else {
                    return Flow::Ret(Ret::new(NULL, None));
                };
                core.access(self.arr_hdr(core, Arr::Shared(fr.n)), Access::Write);
                if let Some(r) = self.retired.iter_mut().find(|r| r.arr.id == old) {
                    r.freed_by = Some(me);
                }
                note!(core, Kfree, format!("array A{old}"), "kfree(old_shared): the memory of node {}'s old shared array A{old} goes back to kmalloc.", fr.n);
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    /// The CPU a context at SN6 still waits for, if its grace period is not over.
    pub(super) fn grace_wait(&self, cx: CtxId) -> Option<u32> {
        let g = self.grace.iter().find(|g| g.ctx == cx)?;
        g.cpus.first().copied()
    }

    /// After a move: a CPU with interrupts on has left the section a pending grace period
    /// waits for. The waiting context's state changes, so the move's footprint writes it.
    pub(in crate::model) fn quiescent(&mut self, core: &mut Core) {
        for g in &mut self.grace {
            let before = g.cpus.len();
            g.cpus.retain(|&k| !core.cpu(k).irqs_on);
            if g.cpus.len() != before {
                core.touch_resource(crate::model::RES_CTX | g.ctx as u32, true);
            }
        }
    }

    /// The array `id` of node `n` as a lockless reader reaches it: the node's current shared
    /// array or one a `tune` retired, with who freed it (if anyone did).
    pub(super) fn array_by_id(&self, core: &Core, n: u32, id: u32) -> (&ArrayCache, Option<CtxId>) {
        if let Some(sh) = self.snode(core, n).shared.as_ref().filter(|a| a.id == id) {
            return (sh, None);
        }
        match self.retired.iter().find(|r| r.arr.id == id) {
            Some(r) => (&r.arr, r.freed_by),
            None => (core.missing("shared array", id.into(), &NO_ARRAY), None),
        }
    }
}
