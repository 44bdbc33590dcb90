//! SLAB's lookups of its own state and the list operations its kernel functions share under
//! `list_lock`: `alloc_block`, `free_block`'s pieces, `fixup_slab_list`, `slab_destroy`.

use super::*;

// Lookups of SLAB's state, as the machine's (`prims`): only SLAB's code runs under SLAB, a
// CPU's array and a node's lists exist for every CPU and node, a shared array wherever SLAB's
// code uses one (`shared_limit > 0`). Anything else is an internal error of the model: noted,
// an empty stand-in read, a write skipped (`None`).
impl Machine {
    pub(in crate::model) fn slab_state(&self) -> &SlabState {
        self.own()
    }
    pub(super) fn slab_state_mut(&mut self) -> Option<&mut SlabState> {
        self.own_mut()
    }
    /// SLAB's fields of slab `s`, for a write.
    pub(super) fn slab_page_mut(&mut self, s: SlabId) -> Option<&mut SlabPage> {
        let sp = own_mut::<SlabState>(&self.core.fault, &mut self.alloc)?
            .pages
            .get_mut(s as usize);
        crate::model::prims::found(&self.core.fault, "slab", s.into(), sp)
    }
    /// CPU k's `array_cache`.
    pub(in crate::model) fn ac(&self, k: u32) -> &ArrayCache {
        (self.slab_state().ac.get(k as usize))
            .unwrap_or_else(|| self.core.missing("array_cache of cpu", k.into(), &NO_ARRAY))
    }
    pub(super) fn ac_mut(&mut self, k: u32) -> Option<&mut ArrayCache> {
        let ac = own_mut::<SlabState>(&self.core.fault, &mut self.alloc)?
            .ac
            .get_mut(k as usize);
        crate::model::prims::found(&self.core.fault, "array_cache of cpu", k.into(), ac)
    }
    /// Node n's lists (SLAB's `kmem_cache_node` beyond the shared `Node`).
    pub(in crate::model) fn snode(&self, n: u32) -> &SlabNode {
        (self.slab_state().nodes.get(n as usize))
            .unwrap_or_else(|| self.core.missing("SLAB node", n.into(), &NO_SLAB_NODE))
    }
    pub(super) fn snode_mut(&mut self, n: u32) -> Option<&mut SlabNode> {
        let sn = own_mut::<SlabState>(&self.core.fault, &mut self.alloc)?
            .nodes
            .get_mut(n as usize);
        crate::model::prims::found(&self.core.fault, "SLAB node", n.into(), sn)
    }

    pub(super) fn arr(&self, a: Arr) -> &ArrayCache {
        match a {
            Arr::Cpu(k) => self.ac(k),
            Arr::Shared(n) => (self.snode(n).shared.as_ref()).unwrap_or_else(|| {
                self.core
                    .missing("shared array of node", n.into(), &NO_ARRAY)
            }),
        }
    }

    pub(super) fn arr_mut(&mut self, a: Arr) -> Option<&mut ArrayCache> {
        match a {
            Arr::Cpu(k) => self.ac_mut(k),
            Arr::Shared(n) => {
                let nodes = &mut own_mut::<SlabState>(&self.core.fault, &mut self.alloc)?.nodes;
                let sn = crate::model::prims::found(
                    &self.core.fault,
                    "SLAB node",
                    n.into(),
                    nodes.get_mut(n as usize),
                );
                crate::model::prims::found(
                    &self.core.fault,
                    "shared array of node",
                    n.into(),
                    sn?.shared.as_mut(),
                )
            }
        }
    }

    pub(super) fn arr_hdr(&self, a: Arr) -> u32 {
        match a {
            Arr::Cpu(k) => self.core.cfg.line_cc(k),
            Arr::Shared(n) => self.core.cfg.line_nd(n).saturating_add(1),
        }
    }

    /// Touch the header and entries `[from, to)` of an array (a load, a store, a memcpy).
    pub(super) fn touch_arr(&mut self, a: Arr, from: u32, to: u32, acc: Access) {
        let hdr = self.arr_hdr(a);
        self.core.access(hdr, acc);
        if from < to {
            let (first, last) = (
                SlabLayout::entry_line(hdr, from),
                SlabLayout::entry_line(hdr, to.saturating_sub(1)),
            );
            for l in first..=last {
                if l != hdr {
                    self.core.access(l, acc);
                }
            }
        }
    }

    /// Note a read that free work makes (no cost: the line is the stepping CPU's own), so the
    /// explorer's footprint of the move still has it.
    pub(super) fn peek_arr(&mut self, a: Arr) -> u32 {
        let hdr = self.arr_hdr(a);
        self.core.touch_resource(hdr, false);
        self.arr(a).avail()
    }

    /// SLAB's discipline for a CPU array (model.md Appendix A): only its own CPU touches it, with
    /// interrupts off. A survivor draining a dead CPU's array (`flush` with a target) is the
    /// one exception the kernel has, and it passes `drain_of_dead`.
    pub(super) fn check_ac_owner(&mut self, k: u32, drain_of_dead: bool) {
        let me = self.core.me();
        if self.core.cpu(me).irqs_on {
            let msg = format!(
                "{} changed cpu{k}'s array_cache with interrupts enabled",
                self.core.ctx_name(self.core.cur)
            );
            self.core.violate("SLAB-5", msg);
        }
        if k != me && !drain_of_dead {
            let msg = format!(
                "{} on cpu{me} changed cpu{k}'s array_cache: a per-CPU array is its CPU's alone",
                self.core.ctx_name(self.core.cur)
            );
            self.core.violate("SLAB-5", msg);
        }
    }

    /// SLAB's discipline for node state: lists, `free_objects` and `shared` under `list_lock`.
    pub(super) fn check_node_lock(&mut self, n: u32, what: &str) {
        if self.core.node(n).list_lock != Some(self.core.cur) {
            let msg = format!(
                "{} changed node {n}'s {what} without holding list_lock",
                self.core.ctx_name(self.core.cur)
            );
            self.core.violate("SLAB-5", msg);
        }
    }

    // ----- the node's slab lists -----

    /// `list_del(&page->lru)`: off whichever of its node's lists holds it.
    pub(super) fn slab_list_del(&mut self, n: u32, s: SlabId) {
        let unlink = |list: &mut Vec<SlabId>| {
            if let Some(pos) = list.iter().position(|&x| x == s) {
                list.remove(pos);
            }
        };
        if let Some(node) = self.core.node_mut(n) {
            unlink(&mut node.partial);
        }
        if let Some(sn) = self.snode_mut(n) {
            unlink(&mut sn.slabs_full);
            unlink(&mut sn.slabs_free);
        }
    }

    /// `fixup_slab_list`: onto `slabs_full` if no object is free, else `slabs_partial` (head).
    pub(super) fn slab_list_fixup(&mut self, n: u32, s: SlabId) {
        self.slab_list_del(n, s);
        let full = sb!(self).active(s) == self.core.cfg.objects;
        if full {
            if let Some(sn) = self.snode_mut(n) {
                sn.slabs_full.insert(0, s);
            }
        } else if let Some(node) = self.core.node_mut(n) {
            node.partial.insert(0, s);
        }
    }

    /// `alloc_block`: move up to `batch` free objects of slab `s` onto CPU `k`'s array
    /// (`slab_get_obj` each: `page->active++`). Returns the batch left.
    pub(super) fn alloc_block(&mut self, k: u32, s: SlabId, mut batch: u32) -> u32 {
        let from = self.ac(k).avail();
        self.core.access(self.core.page(s).line, Access::Write);
        while batch > 0 {
            let active = sb!(self).active(s);
            if active >= self.core.cfg.objects {
                break;
            }
            // `cache_init_objs` wrote an index for every object.
            let Some(&i) = sb!(self).bufctl(s).get(active as usize) else {
                self.core.fault(Fault::NoSuch("bufctl of slab", s.into()));
                break;
            };
            if let Some(sp) = self.slab_page_mut(s) {
                sp.active.bump();
            }
            let a = self.core.obj_addr(s, u32::from(i));
            if let Some(ac) = self.ac_mut(k) {
                ac.entry.push(a);
            }
            batch = batch.saturating_sub(1);
        }
        let to = self.ac(k).avail();
        self.touch_arr(Arr::Cpu(k), from, to, Access::Write);
        batch
    }

    /// One object of `free_block`: `slab_put_obj` into its slab and relink the slab: onto
    /// `slabs_free` (head) when it becomes empty, else to the tail of `slabs_partial`.
    pub(super) fn free_block_one(&mut self, n: u32, a: Addr) {
        let Some((s, i)) = self.core.object_of(a) else {
            let msg = format!(
                "free_block of {}, which is not an object of this cache",
                self.core.addr_name(a)
            );
            self.core.violate("SLAB-1", msg);
            return;
        };
        self.check_node_lock(n, "slab lists");
        self.core.access(self.core.page(s).line, Access::Write);
        self.core.access(self.core.cfg.line_nd(n), Access::Write);
        self.slab_list_del(n, s);
        let sp = need!(self.core, self.slab_page_mut(s), ());
        if sp.active == 0 {
            let msg = format!(
                "slab_put_obj of {} into slab {}, which has no object in use: a double free",
                self.core.addr_name(a),
                self.core.slab_name(s)
            );
            self.core.violate("SLAB-2", msg);
            return;
        }
        sp.active = sp.active.saturating_sub(1);
        let active = sp.active;
        match sp.bufctl.get_mut(active as usize) {
            Some(w) => *w = i as u16,
            None => {
                self.core.fault(Fault::NoSuch("bufctl of slab", s.into()));
            }
        }
        if active == 0 {
            if let Some(sn) = self.snode_mut(n) {
                sn.slabs_free.insert(0, s);
                sn.free_slabs.bump();
            }
        } else if let Some(node) = self.core.node_mut(n) {
            node.partial.push(s);
        }
    }

    /// The end of `free_block` (v4.10+ form, as model.md Appendix A words it): while the node
    /// keeps more free objects than `free_limit`, move free slabs to the destroy list.
    pub(super) fn free_block_trim(&mut self, n: u32, queue: &mut Vec<SlabId>) {
        self.core.access(self.core.cfg.line_nd(n), Access::Write);
        let num = self.core.cfg.objects;
        while let Some(node) = self.snode_mut(n) {
            if node.free_objects <= node.free_limit {
                break;
            }
            let Some(s) = node.slabs_free.pop() else {
                break;
            };
            node.free_objects = node.free_objects.saturating_sub(num);
            node.free_slabs = node.free_slabs.saturating_sub(1);
            node.total_slabs = node.total_slabs.saturating_sub(1);
            queue.push(s);
        }
    }

    /// `slab_destroy`: give the slab's pages back (after `list_lock` is dropped).
    pub(super) fn slab_destroy(&mut self, s: SlabId) {
        self.core.charge(cost::Id::PageFree);
        self.core.touch_resource(crate::model::RES_PAGE_ALLOC, true);
        let first = self.core.page(s).line;
        for l in first..=first.saturating_add(self.core.cfg.obj_lines) {
            self.core.invalidate_line(l);
        }
        if let Some(pg) = self.core.page_mut(s) {
            pg.life = Life::Discarded;
        }
    }

    /// `spin_unlock(&n->list_lock)`, as every SLAB function drops it.
    pub(super) fn unlock_node(&mut self, n: u32) {
        self.core.spin_unlock(n);
        note!(
            self.core,
            Unlock,
            format!("node {n} list_lock"),
            "Drop node {n}'s list_lock."
        );
    }

    // ----- steps that cache_flusharray, do_drain and ___cache_free share -----

    /// The start of `free_block` of `count` objects into node `n`: the node counts them free
    /// at once (`n->free_objects += nr_objects`), then they go back one step each (`i` counts
    /// them).
    pub(super) fn free_block_begin(&mut self, n: u32, count: u32, i: &mut u32) {
        self.check_node_lock(n, "free_objects");
        self.core.access(self.core.cfg.line_nd(n), Access::Write);
        if let Some(sn) = self.snode_mut(n) {
            sn.free_objects.bump_by(count);
        }
        *i = 0;
    }

    /// One object of `free_block` from the front of CPU `k`'s array (entry `done`) into node
    /// `n`. Returns true when the batch of `count` is done.
    pub(super) fn free_block_entry(&mut self, n: u32, k: u32, count: u32, done: &mut u32) -> bool {
        let i = *done;
        let hdr = self.arr_hdr(Arr::Cpu(k));
        self.core
            .access(SlabLayout::entry_line(hdr, i), Access::Read);
        let Some(&a) = self.ac(k).entry.get(i as usize) else {
            self.core
                .fault(Fault::NoSuch("entry of the array of cpu", k.into()));
            return true;
        };
        self.free_block_one(n, a);
        if let Some(ac) = self.ac_mut(k) {
            ac.handed = i.saturating_add(1);
        }
        done.bump();
        note!(
            self.core,
            Store,
            format!("slab {}", self.core.slab_opt_name(self.core.slab_of(a))),
            "free_block: {} goes back into slab {}.",
            self.core.addr_name(a),
            self.core.slab_opt_name(self.core.slab_of(a))
        );
        *done == count
    }

    /// The end of `free_block`: free slabs above `free_limit` onto the frame's destroy list.
    pub(super) fn free_block_end(&mut self, n: u32, queue: &mut Vec<SlabId>) {
        self.free_block_trim(n, queue);
        note!(
            self.core,
            Store,
            format!("node {n}"),
            "free_block: {} free slab(s) above free_limit ({}) go to the destroy list.",
            queue.len(),
            self.snode(n).free_limit
        );
    }

    /// `slabs_destroy`, one slab of the frame's destroy list. Returns true when it is empty.
    pub(super) fn destroy_next(&mut self, queue: &mut Vec<SlabId>) -> bool {
        if queue.is_empty() {
            return true;
        }
        let s = queue.remove(0);
        self.slab_destroy(s);
        note!(
            self.core,
            PageFree,
            format!("slab {}", self.core.slab_name(s)),
            "slab_destroy: slab {} goes back to the page allocator.",
            self.core.slab_name(s)
        );
        queue.is_empty()
    }
}
