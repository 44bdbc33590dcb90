//! SLAB, the comparison model of model.md Appendix A (mm/slab.c, ~v4.7): per-CPU `array_cache`
//! stacks touched only with interrupts off, a node-wide `shared` array, three slab lists and
//! `free_objects` under `list_lock`, and the lockless decision to grow of model.md §4 (v)
//! (`variant.slabGrow`). The same machine runs it as SLUB: contexts, moves, locks, cache lines
//! and the one cost table; only the kernel functions differ.
//!
//! Step granularity. Every access to a per-CPU array is a step (they run with interrupts off,
//! so only the owning CPU can interleave, and only where the kernel enables interrupts:
//! `cache_grow_begin`'s page allocation). Under `list_lock`, a step is one list operation the
//! kernel does without dropping the lock: `alloc_block` plus `fixup_slab_list` for one slab,
//! `slab_put_obj` plus its relinking for one object of `free_block`. The racy reads of the
//! lockless decision are one step.
//!
//! Simplifications, each named where it is modelled: no slab colouring, no reaper
//! (`cache_reap`), no `pfmemalloc`; a free of an object of another node (NUMA) goes straight to
//! its home node's lists under that node's lock, which is what `cache_free_alien` does when
//! alien caches are off (`noaliencache`); `flush` is `do_drain` of one CPU's array (the per-CPU
//! part of `drain_cpu_caches`). The slab's index-array freelist is charged to the slab's
//! descriptor line `PG(P)`.

use super::cost;
use super::memory::Access;
use super::state;
use super::state::*;
use crate::model::pcs::labels::*;
use crate::model::Fault;

/// SLAB's state of the machine `$m` (`Machine::slab_state`).
macro_rules! sb {
    ($m:expr) => {
        $m.slab_state()
    };
}

use super::{Flow, Machine, Pc, Stat};

mod invariants;

// ----- each step machine's locals (`Frame`'s arm of the function, with its pc) -----

/// `slab_alloc` → `____cache_alloc` (`cache_alloc`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheAlloc {
    /// `local_irq_save(save_flags)`.
    pub saved_irq: bool,
    /// The CPU whose `array_cache` it pops (`ac = cpu_cache_get(cachep)`).
    pub c: u32,
    /// `objp`, the object it returns.
    pub obj: Addr,
    /// What `cache_alloc_refill` returned.
    pub ret: Ret,
}

/// `cache_alloc_refill`, irqs off on entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheAllocRefill {
    /// The CPU whose array it refills, and its node (`n`), both set at RF1.
    pub c: u32,
    pub n: u32,
    /// `batchcount`: how many objects are still to move to the array.
    pub count: u32,
    /// The slab `cache_grow_begin` made, if any.
    pub p: Option<SlabId>,
    /// What `cache_grow_begin` returned.
    pub ret: Ret,
}

/// `cache_grow_begin`: a new slab from the page allocator.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheGrowBegin {
    /// The node the slab comes from.
    pub n: u32,
    /// It enabled interrupts for the page allocation (`gfpflags_allow_blocking`).
    pub flag: bool,
    /// The new slab (`page`), `None` if the page allocator failed.
    pub p: Option<SlabId>,
}

/// `cache_grow_end`: link the new slab `p` into node `n`'s lists.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheGrowEnd {
    pub n: u32,
    pub p: SlabId,
}

/// `kmem_cache_free` → `___cache_free` (`cache_free`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheFree {
    /// `local_irq_save(flags)`.
    pub saved_irq: bool,
    /// The CPU whose array it pushes on.
    pub c: u32,
    /// `objp`, the object freed, and its slab.
    pub x: Addr,
    pub pg: SlabId,
    /// The object's home node when it is not this CPU's (`cache_free_alien`).
    pub n: Option<u32>,
    /// The object is no longer in flight (pushed on an array or freed to its slab).
    pub flag: bool,
    /// Free slabs for `slabs_destroy`.
    pub queue: Vec<SlabId>,
}

/// `cache_flusharray` of CPU `c`'s full array into node `n`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CacheFlusharray {
    pub c: u32,
    pub n: u32,
    /// `batchcount`: the entries it gives away; `pages` counts those `free_block` returned.
    pub count: u32,
    pub pages: u32,
    /// Free slabs for `slabs_destroy`.
    pub queue: Vec<SlabId>,
}

/// `do_drain`: CPU `c`'s array (this CPU's if `flag`) back to node `n`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DoDrain {
    /// `local_irq_save`: the drain runs with interrupts off (`on_each_cpu`'s IPI).
    pub saved_irq: bool,
    /// The flush is of the running CPU (`c` is set at DD0), not of a dead CPU `c`.
    pub flag: bool,
    pub c: u32,
    pub n: u32,
    /// `ac->avail`, the entries it frees; `pages` counts those `free_block` returned.
    pub count: u32,
    pub pages: u32,
    /// Free slabs for `slabs_destroy`.
    pub queue: Vec<SlabId>,
}

impl Locals for CacheAlloc {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.obj == a
    }
}

impl Locals for CacheAllocRefill {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
}

impl Locals for CacheGrowBegin {}

impl Locals for CacheGrowEnd {}

impl Locals for CacheFree {
    fn holds_addr(&self, a: Addr) -> bool {
        self.x == a
    }
    fn queued(&self, s: SlabId) -> bool {
        self.queue.contains(&s)
    }
}

impl Locals for CacheFlusharray {
    fn queued(&self, s: SlabId) -> bool {
        self.queue.contains(&s)
    }
}

impl Locals for DoDrain {
    fn queued(&self, s: SlabId) -> bool {
        self.queue.contains(&s)
    }
}

/// SLAB's own state: what `mm/slab.c` keeps beyond the shared `Cpu`, `Node` and `Page`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabState {
    /// Each CPU's `array_cache`.
    pub ac: Vec<ArrayCache>,
    /// Each node's `kmem_cache_node` beyond `list_lock` and `slabs_partial`.
    pub nodes: Vec<SlabNode>,
    /// SLAB's fields of every slab, by `SlabId`.
    pub pages: Vec<SlabPage>,
}

/// SLAB's fields of a slab's `struct page`: `active`, the objects in use, and the freelist,
/// an array of object indices (`bufctl`): the free objects are `bufctl[active..num]`. The
/// array is empty until `cache_init_objs` writes it. The shared `Page` holds the memory.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabPage {
    pub active: u32,
    pub bufctl: Vec<u16>,
}

impl SlabState {
    /// The state of a new cache: `enable_cpucache`'s arrays and `init_cache_node`'s lists.
    pub fn new(l: &SlabLayout, cpu_node: &[u32], nodes: u32, objects: u32) -> SlabState {
        SlabState {
            ac: cpu_node
                .iter()
                .map(|_| ArrayCache {
                    limit: l.limit,
                    batchcount: l.batchcount,
                    ..Default::default()
                })
                .collect(),
            nodes: (0..nodes)
                .map(|n| SlabNode {
                    // init_cache_node: free_limit = (1 + CPUs of the node) * batchcount + num.
                    free_limit: (cpu_node.iter().filter(|&&m| m == n).count() as u32)
                        .saturating_add(1)
                        .saturating_mul(l.batchcount)
                        .saturating_add(objects),
                    shared: (l.shared_limit > 0).then(|| ArrayCache {
                        limit: l.shared_limit,
                        batchcount: l.batchcount,
                        ..Default::default()
                    }),
                    ..Default::default()
                })
                .collect(),
            pages: Vec::new(),
        }
    }

    /// Slab `s`'s index array (empty before `cache_init_objs`).
    pub fn bufctl(&self, s: SlabId) -> &[u16] {
        self.pages
            .get(s as usize)
            .map_or(&[], |p| p.bufctl.as_slice())
    }

    /// Slab `s`'s `page->active`: its objects in use.
    pub fn active(&self, s: SlabId) -> u32 {
        self.pages.get(s as usize).map_or(0, |p| p.active)
    }
}

/// SLAB's `kmem_cache_node` beyond `list_lock` and `slabs_partial` (model.md Appendix A).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabNode {
    pub slabs_full: Vec<SlabId>,
    pub slabs_free: Vec<SlabId>,
    /// Free objects in this node's linked slabs (not those queued in arrays).
    pub free_objects: u32,
    pub free_limit: u32,
    pub total_slabs: u32,
    pub free_slabs: u32,
    /// The node-wide `shared` array (none on a one-CPU machine, as `enable_cpucache` decides).
    pub shared: Option<ArrayCache>,
}

/// SLAB's `struct array_cache`: a LIFO stack of object pointers. `avail` is `entry.len()`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArrayCache {
    pub limit: u32,
    pub batchcount: u32,
    pub touched: bool,
    pub entry: Vec<Addr>,
    /// Ghost: the first `handed` entries were already given back by a `cache_flusharray` or
    /// drain whose final memmove has not run yet (they are no longer this array's objects).
    pub handed: u32,
}

impl ArrayCache {
    pub fn avail(&self) -> u32 {
        self.entry.len() as u32
    }
    /// The entries this array still owns.
    pub fn live(&self) -> &[Addr] {
        self.entry.get(self.handed as usize..).unwrap_or_default()
    }
}

/// SLAB's geometry of the static cache lines and its tunables, fixed at creation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlabLayout {
    pub limit: u32,
    pub batchcount: u32,
    /// `shared * batchcount` (0: no shared array).
    pub shared_limit: u32,
    /// Lines of one CPU's array: a 16-byte header (`avail`, `limit`, `batchcount`,
    /// `touched`) then 8-byte entries.
    pub ac_lines: u32,
    /// Lines of a node's shared array (same layout).
    pub sh_lines: u32,
}

impl SlabLayout {
    /// The layout of a SLAB scenario's cache (its tunables, `Scenario::slab_tunables`).
    pub fn of(sc: &crate::Scenario) -> SlabLayout {
        let (limit, batch, shared) = sc.slab_tunables();
        SlabLayout::new(limit, batch, shared)
    }

    pub fn new(limit: u32, batchcount: u32, shared: u32) -> SlabLayout {
        // Tunables of at most `MAX_SLAB_LIMIT` entries (`scenario::validate`).
        let lines = |n: u32| n.saturating_add(2).div_ceil(8);
        let shared_limit = shared.saturating_mul(batchcount);
        SlabLayout {
            limit,
            batchcount,
            shared_limit,
            ac_lines: lines(limit),
            sh_lines: if shared_limit > 0 {
                lines(shared_limit)
            } else {
                0
            },
        }
    }

    /// The line of entry `i` of an array whose header is `hdr`.
    pub fn entry_line(hdr: u32, i: u32) -> u32 {
        hdr.saturating_add(i.saturating_add(2) / 8)
    }
}

/// Which array a step works on: a CPU's or a node's shared one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arr {
    Cpu(u32),
    Shared(u32),
}

own_state!(
    SlabState,
    Slab,
    "SLAB's code ran under another allocator",
    SlabState {
        ac: Vec::new(),
        nodes: Vec::new(),
        pages: Vec::new(),
    }
);

static NO_ARRAY: ArrayCache = ArrayCache {
    limit: 0,
    batchcount: 0,
    touched: false,
    entry: Vec::new(),
    handed: 0,
};
static NO_SLAB_NODE: SlabNode = SlabNode {
    slabs_full: Vec::new(),
    slabs_free: Vec::new(),
    free_objects: 0,
    free_limit: 0,
    total_slabs: 0,
    free_slabs: 0,
    shared: None,
};

// Lookups of SLAB's state, as the machine's (`prims`): only SLAB's code runs under SLAB, a
// CPU's array and a node's lists exist for every CPU and node, a shared array wherever SLAB's
// code uses one (`shared_limit > 0`). Anything else is an internal error of the model: noted,
// an empty stand-in read, a write skipped (`None`).
impl Machine {
    pub(super) fn slab_state(&self) -> &SlabState {
        self.own()
    }
    fn slab_state_mut(&mut self) -> Option<&mut SlabState> {
        self.own_mut()
    }
    /// SLAB's fields of slab `s`, for a write.
    fn slab_page_mut(&mut self, s: SlabId) -> Option<&mut SlabPage> {
        let sp = own_mut::<SlabState>(&self.fault, &mut self.st.alloc)?
            .pages
            .get_mut(s as usize);
        super::prims::found(&self.fault, "slab", s.into(), sp)
    }
    /// CPU k's `array_cache`.
    pub(super) fn ac(&self, k: u32) -> &ArrayCache {
        (self.slab_state().ac.get(k as usize))
            .unwrap_or_else(|| self.missing("array_cache of cpu", k.into(), &NO_ARRAY))
    }
    fn ac_mut(&mut self, k: u32) -> Option<&mut ArrayCache> {
        let ac = own_mut::<SlabState>(&self.fault, &mut self.st.alloc)?
            .ac
            .get_mut(k as usize);
        super::prims::found(&self.fault, "array_cache of cpu", k.into(), ac)
    }
    /// Node n's lists (SLAB's `kmem_cache_node` beyond the shared `Node`).
    pub(super) fn snode(&self, n: u32) -> &SlabNode {
        (self.slab_state().nodes.get(n as usize))
            .unwrap_or_else(|| self.missing("SLAB node", n.into(), &NO_SLAB_NODE))
    }
    fn snode_mut(&mut self, n: u32) -> Option<&mut SlabNode> {
        let sn = own_mut::<SlabState>(&self.fault, &mut self.st.alloc)?
            .nodes
            .get_mut(n as usize);
        super::prims::found(&self.fault, "SLAB node", n.into(), sn)
    }

    fn arr(&self, a: Arr) -> &ArrayCache {
        match a {
            Arr::Cpu(k) => self.ac(k),
            Arr::Shared(n) => (self.snode(n).shared.as_ref())
                .unwrap_or_else(|| self.missing("shared array of node", n.into(), &NO_ARRAY)),
        }
    }

    fn arr_mut(&mut self, a: Arr) -> Option<&mut ArrayCache> {
        match a {
            Arr::Cpu(k) => self.ac_mut(k),
            Arr::Shared(n) => {
                let nodes = &mut own_mut::<SlabState>(&self.fault, &mut self.st.alloc)?.nodes;
                let sn = super::prims::found(
                    &self.fault,
                    "SLAB node",
                    n.into(),
                    nodes.get_mut(n as usize),
                );
                super::prims::found(
                    &self.fault,
                    "shared array of node",
                    n.into(),
                    sn?.shared.as_mut(),
                )
            }
        }
    }

    fn arr_hdr(&self, a: Arr) -> u32 {
        match a {
            Arr::Cpu(k) => self.cfg.line_cc(k),
            Arr::Shared(n) => self.cfg.line_nd(n).saturating_add(1),
        }
    }

    /// Touch the header and entries `[from, to)` of an array (a load, a store, a memcpy).
    fn touch_arr(&mut self, a: Arr, from: u32, to: u32, acc: Access) {
        let hdr = self.arr_hdr(a);
        self.access(hdr, acc);
        if from < to {
            let (first, last) = (
                SlabLayout::entry_line(hdr, from),
                SlabLayout::entry_line(hdr, to.saturating_sub(1)),
            );
            for l in first..=last {
                if l != hdr {
                    self.access(l, acc);
                }
            }
        }
    }

    /// Note a read that free work makes (no cost: the line is the stepping CPU's own), so the
    /// explorer's footprint of the move still has it.
    fn peek_arr(&mut self, a: Arr) -> u32 {
        let hdr = self.arr_hdr(a);
        self.touch_resource(hdr, false);
        self.arr(a).avail()
    }

    /// SLAB's discipline for a CPU array (model.md Appendix A): only its own CPU touches it, with
    /// interrupts off. A survivor draining a dead CPU's array (`flush` with a target) is the
    /// one exception the kernel has, and it passes `drain_of_dead`.
    fn check_ac_owner(&mut self, k: u32, drain_of_dead: bool) {
        let me = self.me();
        if self.cpu(me).irqs_on {
            let msg = format!(
                "{} changed cpu{k}'s array_cache with interrupts enabled",
                self.ctx_name(self.cur)
            );
            self.violate("SLAB-5", msg);
        }
        if k != me && !drain_of_dead {
            let msg = format!(
                "{} on cpu{me} changed cpu{k}'s array_cache: a per-CPU array is its CPU's alone",
                self.ctx_name(self.cur)
            );
            self.violate("SLAB-5", msg);
        }
    }

    /// SLAB's discipline for node state: lists, `free_objects` and `shared` under `list_lock`.
    fn check_node_lock(&mut self, n: u32, what: &str) {
        if self.node(n).list_lock != Some(self.cur) {
            let msg = format!(
                "{} changed node {n}'s {what} without holding list_lock",
                self.ctx_name(self.cur)
            );
            self.violate("SLAB-5", msg);
        }
    }

    // ----- the node's slab lists -----

    /// `list_del(&page->lru)`: off whichever of its node's lists holds it.
    fn slab_list_del(&mut self, n: u32, s: SlabId) {
        let unlink = |list: &mut Vec<SlabId>| {
            if let Some(pos) = list.iter().position(|&x| x == s) {
                list.remove(pos);
            }
        };
        if let Some(node) = self.node_mut(n) {
            unlink(&mut node.partial);
        }
        if let Some(sn) = self.snode_mut(n) {
            unlink(&mut sn.slabs_full);
            unlink(&mut sn.slabs_free);
        }
    }

    /// `fixup_slab_list`: onto `slabs_full` if no object is free, else `slabs_partial` (head).
    fn slab_list_fixup(&mut self, n: u32, s: SlabId) {
        self.slab_list_del(n, s);
        let full = sb!(self).active(s) == self.cfg.objects;
        if full {
            if let Some(sn) = self.snode_mut(n) {
                sn.slabs_full.insert(0, s);
            }
        } else if let Some(node) = self.node_mut(n) {
            node.partial.insert(0, s);
        }
    }

    /// `alloc_block`: move up to `batch` free objects of slab `s` onto CPU `k`'s array
    /// (`slab_get_obj` each: `page->active++`). Returns the batch left.
    fn alloc_block(&mut self, k: u32, s: SlabId, mut batch: u32) -> u32 {
        let from = self.ac(k).avail();
        self.access(self.page(s).line, Access::Write);
        while batch > 0 {
            let active = sb!(self).active(s);
            if active >= self.cfg.objects {
                break;
            }
            // `cache_init_objs` wrote an index for every object.
            let Some(&i) = sb!(self).bufctl(s).get(active as usize) else {
                self.fault(Fault::NoSuch("bufctl of slab", s.into()));
                break;
            };
            if let Some(sp) = self.slab_page_mut(s) {
                sp.active.bump();
            }
            let a = self.obj_addr(s, u32::from(i));
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
    fn free_block_one(&mut self, n: u32, a: Addr) {
        let Some((s, i)) = self.object_of(a) else {
            let msg = format!(
                "free_block of {}, which is not an object of this cache",
                self.addr_name(a)
            );
            self.violate("SLAB-1", msg);
            return;
        };
        self.check_node_lock(n, "slab lists");
        self.access(self.page(s).line, Access::Write);
        self.access(self.cfg.line_nd(n), Access::Write);
        self.slab_list_del(n, s);
        let sp = need!(self, self.slab_page_mut(s), ());
        if sp.active == 0 {
            let msg = format!(
                "slab_put_obj of {} into slab {}, which has no object in use: a double free",
                self.addr_name(a),
                self.slab_name(s)
            );
            self.violate("SLAB-2", msg);
            return;
        }
        sp.active = sp.active.saturating_sub(1);
        let active = sp.active;
        match sp.bufctl.get_mut(active as usize) {
            Some(w) => *w = i as u16,
            None => {
                self.fault(Fault::NoSuch("bufctl of slab", s.into()));
            }
        }
        if active == 0 {
            if let Some(sn) = self.snode_mut(n) {
                sn.slabs_free.insert(0, s);
                sn.free_slabs.bump();
            }
        } else if let Some(node) = self.node_mut(n) {
            node.partial.push(s);
        }
    }

    /// The end of `free_block` (v4.10+ form, as model.md Appendix A words it): while the node
    /// keeps more free objects than `free_limit`, move free slabs to the destroy list.
    fn free_block_trim(&mut self, n: u32, queue: &mut Vec<SlabId>) {
        self.access(self.cfg.line_nd(n), Access::Write);
        let num = self.cfg.objects;
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
    fn slab_destroy(&mut self, s: SlabId) {
        self.charge(cost::Id::PageFree);
        self.touch_resource(super::RES_PAGE_ALLOC, true);
        let first = self.page(s).line;
        for l in first..=first.saturating_add(self.cfg.obj_lines) {
            self.invalidate_line(l);
        }
        if let Some(pg) = self.page_mut(s) {
            pg.life = Life::Discarded;
        }
    }

    /// `spin_unlock(&n->list_lock)`, as every SLAB function drops it.
    fn unlock_node(&mut self, n: u32) {
        self.spin_unlock(n);
        note!(
            self,
            Unlock,
            format!("node {n} list_lock"),
            "Drop node {n}'s list_lock."
        );
    }

    // ----- steps that cache_flusharray, do_drain and ___cache_free share -----

    /// The start of `free_block` of `count` objects into node `n`: the node counts them free
    /// at once (`n->free_objects += nr_objects`), then they go back one step each (`i` counts
    /// them).
    fn free_block_begin(&mut self, n: u32, count: u32, i: &mut u32) {
        self.check_node_lock(n, "free_objects");
        self.access(self.cfg.line_nd(n), Access::Write);
        if let Some(sn) = self.snode_mut(n) {
            sn.free_objects.bump_by(count);
        }
        *i = 0;
    }

    /// One object of `free_block` from the front of CPU `k`'s array (entry `done`) into node
    /// `n`. Returns true when the batch of `count` is done.
    fn free_block_entry(&mut self, n: u32, k: u32, count: u32, done: &mut u32) -> bool {
        let i = *done;
        let hdr = self.arr_hdr(Arr::Cpu(k));
        self.access(SlabLayout::entry_line(hdr, i), Access::Read);
        let Some(&a) = self.ac(k).entry.get(i as usize) else {
            self.fault(Fault::NoSuch("entry of the array of cpu", k.into()));
            return true;
        };
        self.free_block_one(n, a);
        if let Some(ac) = self.ac_mut(k) {
            ac.handed = i.saturating_add(1);
        }
        done.bump();
        note!(
            self,
            Store,
            format!("slab {}", self.slab_opt_name(self.slab_of(a))),
            "free_block: {} goes back into slab {}.",
            self.addr_name(a),
            self.slab_opt_name(self.slab_of(a))
        );
        *done == count
    }

    /// The end of `free_block`: free slabs above `free_limit` onto the frame's destroy list.
    fn free_block_end(&mut self, n: u32, queue: &mut Vec<SlabId>) {
        self.free_block_trim(n, queue);
        note!(
            self,
            Store,
            format!("node {n}"),
            "free_block: {} free slab(s) above free_limit ({}) go to the destroy list.",
            queue.len(),
            self.snode(n).free_limit
        );
    }

    /// `slabs_destroy`, one slab of the frame's destroy list. Returns true when it is empty.
    fn destroy_next(&mut self, queue: &mut Vec<SlabId>) -> bool {
        if queue.is_empty() {
            return true;
        }
        let s = queue.remove(0);
        self.slab_destroy(s);
        note!(
            self,
            PageFree,
            format!("slab {}", self.slab_name(s)),
            "slab_destroy: slab {} goes back to the page allocator.",
            self.slab_name(s)
        );
        queue.is_empty()
    }

    // ---------------------------------------------------------------------------------------
    // Allocation: slab_alloc → ____cache_alloc
    // ---------------------------------------------------------------------------------------

    pub(super) fn cache_alloc(&mut self, pc: &mut cache_alloc::Pc, fr: &mut CacheAlloc) -> Flow {
        use cache_alloc::Pc::*;
        match *pc {
            CA0 => {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                fr.c = self.me();
                self.ghost.slab_allocs.bump();
                note!(self, IrqOff, "irqs".into(), "slab_alloc: local_irq_save. SLAB's per-CPU array is only ever touched with interrupts off.");
                *pc = CA1;
                Flow::Step
            }
            CA1 => {
                step!(self);
                let k = fr.c;
                self.access(self.arr_hdr(Arr::Cpu(k)), Access::Read);
                let avail = self.ac(k).avail();
                note!(
                    self,
                    Load,
                    format!("ac[{k}].avail"),
                    "Read cpu{k}'s array_cache: {avail} object(s) available."
                );
                rw!(self, read = avail.to_string());
                *pc = if avail > 0 { CA2 } else { CA1r };
                Flow::Step
            }
            CA2 => {
                step!(self);
                let k = fr.c;
                self.check_ac_owner(k, false);
                let ac = need!(self, self.ac_mut(k));
                ac.touched = true;
                let obj = ac.entry.pop().unwrap_or(NULL);
                let avail = ac.avail();
                self.touch_arr(Arr::Cpu(k), avail, avail.saturating_add(1), Access::Write);
                self.stat(Stat::ALLOCHIT);
                fr.obj = obj;
                note!(self, Store, format!("ac[{k}]"), "Pop {} off the top of cpu{k}'s array (touched = 1): no atomic instruction, no lock.", self.addr_name(obj));
                rw!(self, read = self.addr_name(obj));
                *pc = CA3;
                Flow::Step
            }
            CA1r => {
                self.stat(Stat::ALLOCMISS);
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
                step!(self);
                self.irq_restore(fr.saved_irq);
                note!(
                    self,
                    IrqOn,
                    "irqs".into(),
                    "local_irq_restore: the allocation returns {}.",
                    self.addr_name(fr.obj)
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
                let k = self.me();
                fr.c = k;
                fr.n = self.node_of_cpu(k);
                let ac = self.ac(k);
                let mut batch = ac.batchcount;
                // BATCHREFILL_LIMIT: an array not used since the reaper looked refills less.
                if !ac.touched && batch > 16 {
                    batch = 16;
                }
                fr.count = batch;
                *pc = match self.variant().slab_grow {
                    crate::scenario::SlabGrow::Lockless => RF2,
                    crate::scenario::SlabGrow::Locked => RF3,
                };
                Flow::Go
            }
            RF2 => {
                step!(self);
                let n = fr.n;
                self.access(self.cfg.line_nd(n), Access::Read);
                let free = self.snode(n).free_objects;
                let shared = if self.snode(n).shared.is_some() {
                    self.access(self.arr_hdr(Arr::Shared(n)), Access::Read);
                    Some(self.arr(Arr::Shared(n)).avail())
                } else {
                    None
                };
                let empty = free == 0 && shared.unwrap_or(0) == 0;
                note!(
                    self,
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
                step!(self);
                let n = fr.n;
                self.spin_lock(n);
                note!(
                    self,
                    Lock,
                    format!("node {n} list_lock"),
                    "Take node {n}'s list_lock to refill from the node."
                );
                *pc = RF4;
                Flow::Step
            }
            RF4 => {
                step!(self);
                let n = fr.n;
                let k = fr.c;
                self.access(self.cfg.line_nd(n), Access::Read);
                let sh_avail = match self.snode(n).shared {
                    Some(_) => {
                        self.access(self.arr_hdr(Arr::Shared(n)), Access::Read);
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
                    let sh = need!(self, self.arr_mut(Arr::Shared(n)));
                    let moved: Vec<Addr> = sh.entry.split_off((rest as usize).min(sh.entry.len()));
                    sh.touched = true;
                    if let Some(ac) = self.ac_mut(k) {
                        ac.entry.extend(moved);
                    }
                    self.touch_arr(Arr::Cpu(k), from, from.saturating_add(nr), Access::Write);
                    note!(self, Store, format!("ac[{k}]"), "transfer_objects: {nr} object(s) from node {n}'s shared array to cpu{k}'s array.");
                    *pc = RF7;
                } else {
                    note!(
                        self,
                        Load,
                        format!("node {n} shared"),
                        "The shared array has nothing to give: take objects from the slab lists."
                    );
                    *pc = RF5;
                }
                Flow::Step
            }
            RF5 => {
                step!(self);
                let n = fr.n;
                let k = fr.c;
                self.access(self.cfg.line_nd(n), Access::Read);
                let node = &self.node(n);
                let from_free = node.partial.is_empty();
                let page = node
                    .partial
                    .first()
                    .or_else(|| self.snode(n).slabs_free.first())
                    .copied();
                let Some(s) = page else {
                    note!(
                        self,
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
                    let ns = need!(self, self.snode_mut(n));
                    ns.free_slabs = ns.free_slabs.saturating_sub(1);
                }
                let before = fr.count;
                fr.count = self.alloc_block(k, s, fr.count);
                self.access(self.cfg.line_nd(n), Access::Write);
                self.slab_list_fixup(n, s);
                note!(
                    self,
                    Store,
                    format!("slab {}", self.slab_name(s)),
                    "alloc_block: {} object(s) of {} slab {} onto cpu{k}'s array; the slab moves to {}.",
                    before.saturating_sub(fr.count),
                    if from_free { "free" } else { "partial" },
                    self.slab_name(s),
                    if sb!(self).active(s) == self.cfg.objects { "slabs_full" } else { "slabs_partial" }
                );
                *pc = if fr.count > 0 { RF5 } else { RF6 };
                Flow::Step
            }
            RF6 => {
                step!(self);
                let n = fr.n;
                let k = fr.c;
                self.check_node_lock(n, "free_objects");
                self.access(self.cfg.line_nd(n), Access::Write);
                let avail = self.ac(k).avail();
                let ns = need!(self, self.snode_mut(n));
                if ns.free_objects < avail {
                    let msg = format!("node {n}'s free_objects ({}) is less than the {avail} object(s) just taken", ns.free_objects);
                    ns.free_objects = 0;
                    self.violate("SLAB-3", msg);
                } else {
                    ns.free_objects = ns.free_objects.saturating_sub(avail);
                }
                note!(self, Store, format!("node {n}"), "n->free_objects -= {avail}: the objects now in cpu{k}'s array are no longer the node's.");
                *pc = RF7;
                Flow::Step
            }
            RF7 => {
                step!(self);
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
                fr.c = self.me();
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
                step!(self);
                let k = fr.c;
                self.check_ac_owner(k, false);
                let before = fr.count;
                fr.count = self.alloc_block(k, s, fr.count);
                note!(self, Store, format!("slab {}", self.slab_name(s)), "alloc_block from the new slab {} (still private, no lock): {} object(s) onto cpu{k}'s array.", self.slab_name(s), before.saturating_sub(fr.count));
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
                            n: self.page(s).node,
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
                step!(self);
                let k = fr.c;
                self.check_ac_owner(k, false);
                let ac = need!(self, self.ac_mut(k));
                ac.touched = true;
                let obj = ac.entry.pop().unwrap_or(NULL);
                let avail = ac.avail();
                self.touch_arr(Arr::Cpu(k), avail, avail.saturating_add(1), Access::Write);
                note!(
                    self,
                    Store,
                    format!("ac[{k}]"),
                    "Refilled: pop {} off cpu{k}'s array ({avail} left).",
                    self.addr_name(obj)
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
        let may_sleep = self.ctx(self.cur).kind == CtxKind::Task;
        match *pc {
            GB1 => {
                if !may_sleep || self.cpu(self.me()).irqs_on {
                    *pc = GB2;
                    return Flow::Go;
                }
                step!(self);
                self.irq_set(true);
                fr.flag = true;
                note!(self, IrqOn, "irqs".into(), "GFP_KERNEL may sleep: interrupts on around the page allocator (cache_grow_begin).");
                *pc = GB2;
                Flow::Step
            }
            GB2 => {
                step!(self);
                self.charge(cost::Id::PageAlloc);
                let fail = self.cfg.sc.cache.page_alloc_fail && !self.st.in_setup;
                if fail {
                    fr.p = None;
                    note!(
                        self,
                        PageAlloc,
                        "page allocator".into(),
                        "The page allocator fails (pageAllocFail): no new slab."
                    );
                } else {
                    let node = fr.n;
                    let s = self.new_page(node);
                    if let Some(sb) = self.slab_state_mut() {
                        sb.pages.push(SlabPage::default());
                    }
                    fr.p = Some(s);
                    note!(
                        self,
                        PageAlloc,
                        format!("page {}", self.slab_name(s)),
                        "kmem_getpages: a page for the new slab {} on node {node}.",
                        self.slab_name(s)
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
                step!(self);
                self.access(self.page(s).line, Access::Write);
                let objects = self.cfg.objects as u16;
                let sp = need!(self, self.slab_page_mut(s));
                sp.active = 0;
                sp.bufctl = (0..objects).collect();
                note!(self, Store, format!("slab {}", self.slab_name(s)), "cache_init_objs: slab {}'s freelist is the index array 0..{} (SLAB writes no pointer into free objects).", self.slab_name(s), self.cfg.objects);
                *pc = GB4;
                Flow::Step
            }
            GB4 => {
                if !fr.flag {
                    return Flow::Ret(Ret::new(NULL, fr.p));
                }
                step!(self);
                self.irq_set(false);
                note!(
                    self,
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
                step!(self);
                self.spin_lock(n);
                note!(
                    self,
                    Lock,
                    format!("node {n} list_lock"),
                    "cache_grow_end: take node {n}'s list_lock to link slab {}.",
                    self.slab_name(s)
                );
                *pc = GE2;
                Flow::Step
            }
            GE2 => {
                step!(self);
                self.check_node_lock(n, "slab lists");
                self.access(self.cfg.line_nd(n), Access::Write);
                self.access(self.page(s).line, Access::Write);
                if let Some(pg) = self.page_mut(s) {
                    pg.life = Life::Live;
                }
                let (active, num) = (sb!(self).active(s), self.cfg.objects);
                let free = num.saturating_sub(active);
                let ns = need!(self, self.snode_mut(n));
                ns.total_slabs.bump();
                ns.free_objects.bump_by(free);
                if active == 0 {
                    ns.slabs_free.push(s);
                    ns.free_slabs.bump();
                } else {
                    self.slab_list_fixup(n, s);
                }
                self.stat(Stat::GROWN);
                note!(self, Store, format!("node {n}"), "Link slab {} ({active} of {num} in use) and add its {} free object(s) to free_objects.", self.slab_name(s), free);
                *pc = GE3;
                Flow::Step
            }
            GE3 => {
                step!(self);
                self.unlock_node(n);
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Free: kmem_cache_free → ___cache_free
    // ---------------------------------------------------------------------------------------

    pub(super) fn cache_free(&mut self, pc: &mut cache_free::Pc, fr: &mut CacheFree) -> Flow {
        use cache_free::Pc::*;
        match *pc {
            CF0 => {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                fr.c = self.me();
                note!(
                    self,
                    IrqOff,
                    "irqs".into(),
                    "kmem_cache_free: local_irq_save."
                );
                *pc = CF1;
                Flow::Step
            }
            CF1 => {
                step!(self);
                let k = fr.c;
                let s = fr.pg;
                if self.cfg.sc.nodes > 1 {
                    // cache_free_alien reads the object's page for its node.
                    self.access(self.page(s).line, Access::Read);
                    let home = self.page(s).node;
                    if home != self.node_of_cpu(k) {
                        fr.n = Some(home);
                        self.ghost.alien_frees.bump();
                        note!(
                            self,
                            Load,
                            format!("page {}", self.slab_name(s)),
                            "{} belongs to node {home}: free it to its home node (alien).",
                            self.addr_name(fr.x)
                        );
                        *pc = CFA1;
                        return Flow::Step;
                    }
                }
                self.access(self.arr_hdr(Arr::Cpu(k)), Access::Read);
                let ac = self.ac(k);
                let (avail, limit) = (ac.avail(), ac.limit);
                if avail < limit {
                    self.stat(Stat::FREEHIT);
                    *pc = CF2;
                } else {
                    self.stat(Stat::FREEMISS);
                    *pc = CF1f;
                }
                note!(
                    self,
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
                step!(self);
                let k = fr.c;
                self.check_ac_owner(k, false);
                let ac = need!(self, self.ac_mut(k));
                if ac.avail() >= ac.limit {
                    let msg = format!(
                        "cpu{k}'s array is full ({}) and a push would overflow it",
                        ac.limit
                    );
                    self.violate("SLAB-4", msg);
                    fr.flag = true;
                    *pc = CF3;
                    return Flow::Step;
                }
                ac.entry.push(fr.x);
                let avail = ac.avail();
                // The push made `avail` at least 1.
                self.touch_arr(Arr::Cpu(k), avail.saturating_sub(1), avail, Access::Write);
                fr.flag = true;
                note!(self, Store, format!("ac[{k}]"), "Push {} onto cpu{k}'s array ({avail} now): no atomic instruction, no lock, no write into the object.", self.addr_name(fr.x));
                *pc = CF3;
                Flow::Step
            }
            CF3 => {
                step!(self);
                self.irq_restore(fr.saved_irq);
                note!(self, IrqOn, "irqs".into(), "local_irq_restore.");
                if fr.queue.is_empty() {
                    Flow::Ret(Ret::new(NULL, None))
                } else {
                    *pc = CFA4;
                    Flow::Step
                }
            }
            CFA1 => {
                step!(self);
                let n = need!(self, fr.n);
                self.spin_lock(n);
                note!(
                    self,
                    Lock,
                    format!("node {n} list_lock"),
                    "Take node {n}'s list_lock (the object's home node)."
                );
                *pc = CFA2;
                Flow::Step
            }
            CFA2 => {
                step!(self);
                let n = need!(self, fr.n);
                self.check_node_lock(n, "free_objects");
                if let Some(sn) = self.snode_mut(n) {
                    sn.free_objects.bump();
                }
                self.free_block_one(n, fr.x);
                let mut q = std::mem::take(&mut fr.queue);
                self.free_block_trim(n, &mut q);
                fr.queue = q;
                fr.flag = true;
                note!(
                    self,
                    Store,
                    format!("slab {}", self.slab_name(fr.pg)),
                    "free_block: {} goes back into its slab on node {n}.",
                    self.addr_name(fr.x)
                );
                *pc = CFA3;
                Flow::Step
            }
            CFA3 => {
                step!(self);
                let n = need!(self, fr.n);
                self.unlock_node(n);
                *pc = CF3;
                Flow::Step
            }
            CFA4 => {
                step!(self);
                if self.destroy_next(&mut fr.queue) {
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
        pc: &mut cache_flusharray::Pc,
        fr: &mut CacheFlusharray,
    ) -> Flow {
        use cache_flusharray::Pc::*;
        match *pc {
            FA0 => {
                let k = fr.c;
                fr.n = self.node_of_cpu(k);
                fr.count = self.ac(k).batchcount;
                *pc = FA1;
                Flow::Go
            }
            FA1 => {
                step!(self);
                let n = fr.n;
                self.spin_lock(n);
                note!(
                    self,
                    Lock,
                    format!("node {n} list_lock"),
                    "cache_flusharray: take node {n}'s list_lock."
                );
                *pc = FA2;
                Flow::Step
            }
            FA2 => {
                step!(self);
                let (n, k) = (fr.n, fr.c);
                self.access(self.cfg.line_nd(n), Access::Read);
                let room = match &self.snode(n).shared {
                    Some(sh) => {
                        let room = sh.limit.saturating_sub(sh.avail());
                        self.access(self.arr_hdr(Arr::Shared(n)), Access::Read);
                        room
                    }
                    None => 0,
                };
                if room > 0 {
                    let nr = fr.count.min(room);
                    self.check_node_lock(n, "shared array");
                    self.check_ac_owner(k, false);
                    self.touch_arr(Arr::Cpu(k), 0, nr, Access::Read);
                    let moved: Vec<Addr> =
                        self.ac(k).entry.iter().take(nr as usize).copied().collect();
                    let from = self.arr(Arr::Shared(n)).avail();
                    if let Some(sh) = self.arr_mut(Arr::Shared(n)) {
                        sh.entry.extend(moved);
                    }
                    self.touch_arr(Arr::Shared(n), from, from.saturating_add(nr), Access::Write);
                    if let Some(ac) = self.ac_mut(k) {
                        ac.handed = nr;
                    }
                    fr.count = nr;
                    note!(
                        self,
                        Store,
                        format!("node {n} shared"),
                        "The shared array has room: copy cpu{k}'s {nr} oldest entries into it."
                    );
                    *pc = FA5;
                } else {
                    note!(self, Load, format!("node {n} shared"), "No room in a shared array: free the batch back into its slabs (free_block).");
                    *pc = FA3;
                }
                Flow::Step
            }
            FA3 => {
                step!(self);
                self.free_block_begin(fr.n, fr.count, &mut fr.pages);
                note!(
                    self,
                    Store,
                    format!("node {}", fr.n),
                    "free_block: n->free_objects += {}.",
                    fr.count
                );
                *pc = FA4;
                Flow::Step
            }
            FA4 => {
                step!(self);
                if self.free_block_entry(fr.n, fr.c, fr.count, &mut fr.pages) {
                    *pc = FA4d;
                }
                Flow::Step
            }
            FA4d => {
                step!(self);
                self.free_block_end(fr.n, &mut fr.queue);
                *pc = FA5;
                Flow::Step
            }
            FA5 => {
                step!(self);
                let n = fr.n;
                self.unlock_node(n);
                *pc = if fr.queue.is_empty() { FA7 } else { FA6 };
                Flow::Step
            }
            FA6 => {
                step!(self);
                if self.destroy_next(&mut fr.queue) {
                    *pc = FA7;
                }
                Flow::Step
            }
            FA7 => {
                step!(self);
                let k = fr.c;
                self.check_ac_owner(k, false);
                let ac = need!(self, self.ac_mut(k));
                let nr = (fr.count as usize).min(ac.entry.len());
                ac.entry.drain(..nr);
                ac.handed = 0;
                let avail = ac.avail();
                self.touch_arr(Arr::Cpu(k), 0, avail, Access::Write);
                note!(
                    self,
                    Store,
                    format!("ac[{k}]"),
                    "ac->avail -= {nr}; memmove the {avail} newer entries down."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }

    /// `do_drain` (the `flush` op): give back every object of a CPU's array.
    pub(super) fn do_drain(&mut self, pc: &mut do_drain::Pc, fr: &mut DoDrain) -> Flow {
        use do_drain::Pc::*;
        match *pc {
            DD0 => {
                step!(self);
                self.irq_save(&mut fr.saved_irq);
                if fr.flag {
                    fr.c = self.me();
                }
                fr.n = self.node_of_cpu(fr.c);
                note!(
                    self,
                    IrqOff,
                    "irqs".into(),
                    "do_drain of cpu{}'s array: interrupts off.",
                    fr.c
                );
                *pc = DD1;
                Flow::Step
            }
            DD1 => {
                step!(self);
                let n = fr.n;
                self.spin_lock(n);
                note!(
                    self,
                    Lock,
                    format!("node {n} list_lock"),
                    "Take node {n}'s list_lock."
                );
                *pc = DD2;
                Flow::Step
            }
            DD2 => {
                step!(self);
                let k = fr.c;
                self.access(self.arr_hdr(Arr::Cpu(k)), Access::Read);
                fr.count = self.ac(k).avail();
                self.free_block_begin(fr.n, fr.count, &mut fr.pages);
                note!(
                    self,
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
                step!(self);
                if self.free_block_entry(fr.n, fr.c, fr.count, &mut fr.pages) {
                    *pc = DD3d;
                }
                Flow::Step
            }
            DD3d => {
                step!(self);
                self.free_block_end(fr.n, &mut fr.queue);
                *pc = DD4;
                Flow::Step
            }
            DD4 => {
                step!(self);
                let n = fr.n;
                self.unlock_node(n);
                *pc = if fr.queue.is_empty() { DD6 } else { DD5 };
                Flow::Step
            }
            DD5 => {
                step!(self);
                if self.destroy_next(&mut fr.queue) {
                    *pc = DD6;
                }
                Flow::Step
            }
            DD6 => {
                step!(self);
                let k = fr.c;
                self.check_ac_owner(k, !fr.flag);
                let ac = need!(self, self.ac_mut(k));
                ac.entry.clear();
                ac.handed = 0;
                self.access(self.arr_hdr(Arr::Cpu(k)), Access::Write);
                note!(self, Store, format!("ac[{k}]"), "ac->avail = 0.");
                *pc = DD7;
                Flow::Step
            }
            DD7 => {
                step!(self);
                self.irq_restore(fr.saved_irq);
                note!(self, IrqOn, "irqs".into(), "Interrupts back on.");
                Flow::Ret(Ret::new(NULL, None))
            }
        }
    }
}

use super::allocator::{own_mut, own_state, OpCall, OwnState};
use super::executor::Block;

/// The entry frame of an op under SLAB.
pub(super) fn op_frame(call: OpCall) -> Frame {
    match call {
        OpCall::Alloc { .. } => Frame::CacheAlloc {
            pc: cache_alloc::CA0,
            l: CacheAlloc::default(),
        },
        OpCall::Free { addr, slab } => Frame::CacheFree {
            pc: cache_free::CF0,
            l: CacheFree {
                x: addr,
                pg: slab,
                ..CacheFree::default()
            },
        },
        OpCall::Flush { target } => Frame::DoDrain {
            pc: do_drain::DD0,
            l: DoDrain {
                c: target.unwrap_or(0),
                flag: target.is_none(),
                ..DoDrain::default()
            },
        },
    }
}

/// `cache_grow_begin`'s page allocation with `__GFP_WAIT` (GB2) is where a task may sleep.
pub(super) fn at_sleep_point(fr: &Frame) -> bool {
    fr.pc() == Pc::CacheGrowBegin(cache_grow_begin::GB2)
}

impl Machine {
    /// Dispatch one label of a SLAB function.
    pub(super) fn exec_slab(&mut self, fr: &mut Frame) -> Flow {
        match fr {
            Frame::CacheAlloc { pc, l } => self.cache_alloc(pc, l),
            Frame::CacheAllocRefill { pc, l } => self.cache_alloc_refill(pc, l),
            Frame::CacheGrowBegin { pc, l } => self.cache_grow_begin(pc, l),
            Frame::CacheGrowEnd { pc, l } => self.cache_grow_end(pc, l),
            Frame::CacheFree { pc, l } => self.cache_free(pc, l),
            Frame::CacheFlusharray { pc, l } => self.cache_flusharray(pc, l),
            Frame::DoDrain { pc, l } => self.do_drain(pc, l),
            _ => self.fault(Fault::Broken("a function of another allocator")),
        }
    }

    /// The lock SLAB's next step of `cx` waits for: a node's `list_lock`, held by another.
    pub(super) fn slab_lock_wait(&self, cx: CtxId, fr: &Frame) -> Option<Block> {
        let n = match fr {
            Frame::CacheAllocRefill {
                pc: cache_alloc_refill::RF3,
                l,
            } => l.n,
            Frame::CacheGrowEnd {
                pc: cache_grow_end::GE1,
                l,
            } => l.n,
            Frame::CacheFlusharray {
                pc: cache_flusharray::FA1,
                l,
            } => l.n,
            Frame::DoDrain {
                pc: do_drain::DD1,
                l,
            } => l.n,
            Frame::CacheFree {
                pc: cache_free::CFA1,
                l,
            } => need!(self, l.n, None),
            _ => return None,
        };
        self.node(n)
            .list_lock
            .filter(|&h| h != cx)
            .map(|h| Block::ListLock(n, h))
    }
}
