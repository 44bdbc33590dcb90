//! SLAB's lookups of its own state and the list operations its kernel functions share under
//! `list_lock`: `alloc_block`, `free_block`'s pieces, `fixup_slab_list`, `slab_destroy`.

use super::*;
use crate::model::config::SlabLayout;

// Lookups of SLAB's state, as the machine's (`prims`): only SLAB's code runs under SLAB, a
// CPU's array and a node's lists exist for every CPU and node, a shared array wherever SLAB's
// code uses one (`shared_limit > 0`). Anything else is an internal error of the model: noted,
// an empty stand-in read, a write skipped (`None`).
impl SlabState {
    /// SLAB's fields of slab `s`, for a write.
    pub(super) fn slab_page_mut(&mut self, core: &Core, s: SlabId) -> Option<&mut SlabPage> {
        let sp = self.pages.get_mut(s as usize);
        crate::model::prims::found(&core.fault, "slab", s.into(), sp)
    }
    /// CPU k's `array_cache`.
    pub(in crate::model) fn ac(&self, core: &Core, k: u32) -> &ArrayCache {
        (self.ac.get(k as usize))
            .unwrap_or_else(|| core.missing("array_cache of cpu", k.into(), &NO_ARRAY))
    }
    pub(super) fn ac_mut(&mut self, core: &Core, k: u32) -> Option<&mut ArrayCache> {
        let ac = self.ac.get_mut(k as usize);
        crate::model::prims::found(&core.fault, "array_cache of cpu", k.into(), ac)
    }
    /// Node n's lists (SLAB's `kmem_cache_node` beyond the shared `Node`).
    pub(in crate::model) fn snode(&self, core: &Core, n: u32) -> &SlabNode {
        (self.nodes.get(n as usize))
            .unwrap_or_else(|| core.missing("SLAB node", n.into(), &NO_SLAB_NODE))
    }
    pub(super) fn snode_mut(&mut self, core: &Core, n: u32) -> Option<&mut SlabNode> {
        let sn = self.nodes.get_mut(n as usize);
        crate::model::prims::found(&core.fault, "SLAB node", n.into(), sn)
    }

    pub(super) fn arr(&self, core: &Core, a: Arr) -> &ArrayCache {
        match a {
            Arr::Cpu(k) => self.ac(core, k),
            Arr::Shared(n) => (self.snode(core, n).shared.as_ref())
                .unwrap_or_else(|| core.missing("shared array of node", n.into(), &NO_ARRAY)),
        }
    }

    pub(super) fn arr_mut(&mut self, core: &Core, a: Arr) -> Option<&mut ArrayCache> {
        match a {
            Arr::Cpu(k) => self.ac_mut(core, k),
            Arr::Shared(n) => {
                let nodes = &mut self.nodes;
                let sn = crate::model::prims::found(
                    &core.fault,
                    "SLAB node",
                    n.into(),
                    nodes.get_mut(n as usize),
                );
                crate::model::prims::found(
                    &core.fault,
                    "shared array of node",
                    n.into(),
                    sn?.shared.as_mut(),
                )
            }
        }
    }

    pub(super) fn arr_hdr(&self, core: &Core, a: Arr) -> u32 {
        match a {
            Arr::Cpu(k) => core.cfg.line_cc(k),
            Arr::Shared(n) => core.cfg.line_nd(n).saturating_add(1),
        }
    }

    /// Touch the header and entries `[from, to)` of an array (a load, a store, a memcpy).
    pub(super) fn touch_arr(&mut self, core: &mut Core, a: Arr, from: u32, to: u32, acc: Access) {
        let hdr = self.arr_hdr(core, a);
        core.access(hdr, acc);
        if from < to {
            let (first, last) = (
                SlabLayout::entry_line(hdr, from),
                SlabLayout::entry_line(hdr, to.saturating_sub(1)),
            );
            for l in first..=last {
                if l != hdr {
                    core.access(l, acc);
                }
            }
        }
    }

    /// Note a read that free work makes (no cost: the line is the stepping CPU's own), so the
    /// explorer's footprint of the move still has it.
    pub(super) fn peek_arr(&mut self, core: &mut Core, a: Arr) -> u32 {
        let hdr = self.arr_hdr(core, a);
        core.touch_resource(hdr, false);
        self.arr(core, a).avail()
    }

    /// SLAB's discipline for a CPU array (model.md Appendix A): only its own CPU touches it, with
    /// interrupts off. A survivor draining a dead CPU's array (`flush` with a target) is the
    /// one exception the kernel has, and it passes `drain_of_dead`.
    pub(super) fn check_ac_owner(core: &mut Core, k: u32, drain_of_dead: bool) {
        let me = core.me();
        if core.cpu(me).irqs_on {
            let msg = format!(
                "{} changed cpu{k}'s array_cache with interrupts enabled",
                core.ctx_name(core.cur)
            );
            core.violate("SLAB-5", msg);
        }
        if k != me && !drain_of_dead {
            let msg = format!(
                "{} on cpu{me} changed cpu{k}'s array_cache: a per-CPU array is its CPU's alone",
                core.ctx_name(core.cur)
            );
            core.violate("SLAB-5", msg);
        }
    }

    /// SLAB's discipline for node state: lists, `free_objects` and `shared` under `list_lock`.
    pub(super) fn check_node_lock(core: &mut Core, n: u32, what: &str) {
        if core.node(n).list_lock != Some(core.cur) {
            let msg = format!(
                "{} changed node {n}'s {what} without holding list_lock",
                core.ctx_name(core.cur)
            );
            core.violate("SLAB-5", msg);
        }
    }

    // ----- the node's slab lists -----

    /// `list_del(&page->lru)`: off whichever of its node's lists holds it.
    pub(super) fn slab_list_del(&mut self, core: &mut Core, n: u32, s: SlabId) {
        let unlink = |list: &mut Vec<SlabId>| {
            if let Some(pos) = list.iter().position(|&x| x == s) {
                list.remove(pos);
            }
        };
        if let Some(node) = core.node_mut(n) {
            unlink(&mut node.partial);
        }
        if let Some(sn) = self.snode_mut(core, n) {
            unlink(&mut sn.slabs_full);
            unlink(&mut sn.slabs_free);
        }
    }

    /// `fixup_slab_list`: onto `slabs_full` if no object is free, else `slabs_partial` (head).
    pub(super) fn slab_list_fixup(&mut self, core: &mut Core, n: u32, s: SlabId) {
        self.slab_list_del(core, n, s);
        let full = self.active(s) == core.cfg.objects;
        if full {
            if let Some(sn) = self.snode_mut(core, n) {
                sn.slabs_full.insert(0, s);
            }
        } else if let Some(node) = core.node_mut(n) {
            node.partial.insert(0, s);
        }
    }

    /// `alloc_block`: move up to `batch` free objects of slab `s` onto CPU `k`'s array
    /// (`slab_get_obj` each: `page->active++`). Returns the batch left.
    pub(super) fn alloc_block(
        &mut self,
        core: &mut Core,
        k: u32,
        s: SlabId,
        mut batch: u32,
    ) -> u32 {
        let from = self.ac(core, k).avail();
        core.access(core.page(s).line, Access::Write);
        while batch > 0 {
            let active = self.active(s);
            if active >= core.cfg.objects {
                break;
            }
            // `cache_init_objs` wrote an index for every object.
            let Some(&i) = self.bufctl(s).get(active as usize) else {
                core.fault(Fault::NoSuch("bufctl of slab", s.into()));
                break;
            };
            if let Some(sp) = self.slab_page_mut(core, s) {
                sp.active.bump();
            }
            let a = core.obj_addr(s, u32::from(i));
            if let Some(ac) = self.ac_mut(core, k) {
                ac.entry.push(a);
            }
            batch = batch.saturating_sub(1);
        }
        let to = self.ac(core, k).avail();
        self.touch_arr(core, Arr::Cpu(k), from, to, Access::Write);
        batch
    }

    /// One object of `free_block`: `slab_put_obj` into its slab and relink the slab: onto
    /// `slabs_free` (head) when it becomes empty, else to the tail of `slabs_partial`.
    pub(super) fn free_block_one(&mut self, core: &mut Core, n: u32, a: Addr) {
        let Some((s, i)) = core.object_of(a) else {
            let msg = format!(
                "free_block of {}, which is not an object of this cache",
                core.addr_name(a)
            );
            core.violate("SLAB-1", msg);
            return;
        };
        Self::check_node_lock(core, n, "slab lists");
        core.access(core.page(s).line, Access::Write);
        core.access(core.cfg.line_nd(n), Access::Write);
        self.slab_list_del(core, n, s);
        let sp = need!(core, self.slab_page_mut(core, s), ());
        if sp.active == 0 {
            let msg = format!(
                "slab_put_obj of {} into slab {}, which has no object in use: a double free",
                core.addr_name(a),
                core.slab_name(s)
            );
            core.violate("SLAB-2", msg);
            return;
        }
        sp.active = sp.active.saturating_sub(1);
        let active = sp.active;
        match sp.bufctl.get_mut(active as usize) {
            Some(w) => *w = i as u16,
            None => {
                core.fault(Fault::NoSuch("bufctl of slab", s.into()));
            }
        }
        if active == 0 {
            if let Some(sn) = self.snode_mut(core, n) {
                sn.slabs_free.insert(0, s);
                sn.free_slabs.bump();
            }
        } else if let Some(node) = core.node_mut(n) {
            node.partial.push(s);
        }
    }

    /// The end of `free_block` (v4.10+ form, as model.md Appendix A words it): while the node
    /// keeps more free objects than `free_limit`, move free slabs to the destroy list.
    pub(super) fn free_block_trim(&mut self, core: &mut Core, n: u32, queue: &mut Vec<SlabId>) {
        core.access(core.cfg.line_nd(n), Access::Write);
        let num = core.cfg.objects;
        while let Some(node) = self.snode_mut(core, n) {
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
    pub(super) fn slab_destroy(&mut self, core: &mut Core, s: SlabId) {
        core.charge(cost::Id::PageFree);
        core.touch_resource(crate::model::RES_PAGE_ALLOC, true);
        let first = core.page(s).line;
        for l in first..=first.saturating_add(core.cfg.obj_lines) {
            core.invalidate_line(l);
        }
        if let Some(pg) = core.page_mut(s) {
            pg.life = Life::Discarded;
        }
    }

    /// `spin_unlock(&n->list_lock)`, as every SLAB function drops it.
    pub(super) fn unlock_node(&mut self, core: &mut Core, n: u32) {
        core.spin_unlock(n);
        note!(
            core,
            Unlock,
            format!("node {n} list_lock"),
            "Drop node {n}'s list_lock."
        );
    }

    // ----- steps that cache_flusharray, do_drain and ___cache_free share -----

    /// The start of `free_block` of `count` objects into node `n`: the node counts them free
    /// at once (`n->free_objects += nr_objects`), then they go back one step each (`i` counts
    /// them).
    pub(super) fn free_block_begin(&mut self, core: &mut Core, n: u32, count: u32, i: &mut u32) {
        Self::check_node_lock(core, n, "free_objects");
        core.access(core.cfg.line_nd(n), Access::Write);
        if let Some(sn) = self.snode_mut(core, n) {
            sn.free_objects.bump_by(count);
        }
        *i = 0;
    }

    /// One object of `free_block` from the front of CPU `k`'s array (entry `done`) into node
    /// `n`. Returns true when the batch of `count` is done.
    pub(super) fn free_block_entry(
        &mut self,
        core: &mut Core,
        n: u32,
        k: u32,
        count: u32,
        done: &mut u32,
    ) -> bool {
        let i = *done;
        let hdr = self.arr_hdr(core, Arr::Cpu(k));
        core.access(SlabLayout::entry_line(hdr, i), Access::Read);
        let Some(&a) = self.ac(core, k).entry.get(i as usize) else {
            core.fault(Fault::NoSuch("entry of the array of cpu", k.into()));
            return true;
        };
        self.free_block_one(core, n, a);
        if let Some(ac) = self.ac_mut(core, k) {
            ac.handed = i.saturating_add(1);
        }
        done.bump();
        note!(
            core,
            Store,
            format!("slab {}", core.slab_opt_name(core.slab_of(a))),
            "free_block: {} goes back into slab {}.",
            core.addr_name(a),
            core.slab_opt_name(core.slab_of(a))
        );
        *done == count
    }

    /// The end of `free_block`: free slabs above `free_limit` onto the frame's destroy list.
    pub(super) fn free_block_end(&mut self, core: &mut Core, n: u32, queue: &mut Vec<SlabId>) {
        self.free_block_trim(core, n, queue);
        note!(
            core,
            Store,
            format!("node {n}"),
            "free_block: {} free slab(s) above free_limit ({}) go to the destroy list.",
            queue.len(),
            self.snode(core, n).free_limit
        );
    }

    /// `slabs_destroy`, one slab of the frame's destroy list. Returns true when it is empty.
    pub(super) fn destroy_next(&mut self, core: &mut Core, queue: &mut Vec<SlabId>) -> bool {
        if queue.is_empty() {
            return true;
        }
        let s = queue.remove(0);
        self.slab_destroy(core, s);
        note!(
            core,
            PageFree,
            format!("slab {}", core.slab_name(s)),
            "slab_destroy: slab {} goes back to the page allocator.",
            core.slab_name(s)
        );
        queue.is_empty()
    }
}

// The machine's way in to SLAB's state: `allocator.rs` calls SLAB's views and checks on it,
// with the core beside it.
