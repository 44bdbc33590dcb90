//! Refilling a sheaf from slabs under Linux 7.0 (model.md C.3.4): `refill_sheaf` →
//! `refill_objects` → `__refill_objects_node` on each node of the zonelist, which isolates
//! partial slabs in bulk (`get_partial_node_bulk`) and takes each one's whole freelist
//! (`get_freelist_nofreeze`). Locals are named as in `alloc`.

use super::super::memory::Access;
use super::{call, sheaf_name, SheavesState};
use crate::model::locals::{
    GetFreelistNofreeze, GetPartialNodeBulk, RefillObjects, RefillObjectsNode, RefillSheaf,
};
use crate::model::pcs::labels::*;
use crate::model::slab_page::{counters_text, discard_ok, Counters};
use crate::model::state::*;
use crate::model::{Core, Flow, Stat};

impl Locals for GetFreelistNofreeze {
    fn holds_addr(&self, a: Addr) -> bool {
        self.freelist == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.slab));
    }
}

impl Locals for GetPartialNodeBulk {}

impl Locals for RefillObjects {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.sheaf, None]
    }
}

impl Locals for RefillObjectsNode {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.tail == a || self.object == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.slab);
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.sheaf, None]
    }
}

impl Locals for RefillSheaf {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [Some(self.sheaf), None]
    }
}

impl SheavesState {
    /// `refill_sheaf(sheaf)` (RS1–RS4): fill `sheaf` to capacity from slabs. Returns 1, or 0
    /// when it got fewer objects than it needed (the objects it did get stay in `sheaf`).
    pub(in crate::model) fn refill_sheaf(
        &mut self,
        core: &mut Core,
        pc: &mut refill_sheaf::Pc,
        fr: &mut RefillSheaf,
    ) -> Flow {
        use refill_sheaf::Pc::*;
        let h = fr.sheaf;
        match *pc {
            RS1 => {
                step!(core);
                let size = self.ld_size(core, h);
                fr.size = size;
                fr.to_fill = SheavesState::capacity(core).saturating_sub(size);
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(h)),
                    "refill_sheaf({}): size {size}, so {} to fill.",
                    sheaf_name(h),
                    fr.to_fill
                );
                if fr.to_fill == 0 {
                    return Flow::Ret(Ret::new(1, None).counted(fr.filled));
                }
                *pc = RS2;
                Flow::Step
            }
            RS2 => {
                *pc = RS3;
                let (base, want) = (fr.size, fr.to_fill);
                call(refill_objects::RO2, |f| {
                    f.sheaf = Some(h);
                    f.p = base;
                    f.max = want;
                })
            }
            RS3 => {
                step!(core);
                let filled = fr.ret.count;
                // Sizes within the capacity (`MAX_SHEAF_CAPACITY`).
                let size = fr.size.saturating_add(filled);
                self.st_size(core, h, size, false);
                let stored: Vec<Addr> = (self.sheaf(core, h).slots.iter())
                    .skip(fr.size as usize)
                    .take(filled as usize)
                    .copied()
                    .collect();
                for x in stored {
                    self.unhold(core, x);
                }
                SheavesState::stat_add(core, Stat::SHEAF_REFILL, filled);
                note!(
                    core,
                    Store,
                    format!("sheaf {}.size", sheaf_name(h)),
                    "size += {filled}: sheaf {} now holds {size} objects.",
                    sheaf_name(h)
                );
                fr.filled = filled;
                *pc = RS4;
                Flow::Step
            }
            RS4 => Flow::Ret(Ret::new((fr.filled >= fr.to_fill) as Addr, None).counted(fr.filled)),
        }
    }

    /// `refill_objects(p, min = max)` (RO2–RO7): from this node's partial slabs, then other
    /// nodes', then new slabs, into `sheaf` from slot `p` on. Returns the number of objects
    /// stored in `count`.
    /// The node after `after` in the zonelist of node `here` (`None`: the first), as the
    /// kernel's NUMA walks (`get_from_any_partial`, `__refill_objects_any`) visit them: the
    /// local node, then the others in order (the model's nodes are all at one distance). A
    /// machine of one node has no walk (a kernel without `CONFIG_NUMA`).
    pub(super) fn zonelist_next(core: &Core, here: u32, after: Option<u32>) -> Option<u32> {
        let nodes = core.cfg.sc.nodes;
        if nodes < 2 {
            return None;
        }
        match after {
            None => Some(here),
            Some(m) if m == here => (0..nodes).find(|&x| x != here),
            Some(m) => (m.saturating_add(1)..nodes).find(|&x| x != here),
        }
    }

    pub(in crate::model) fn refill_objects(
        &mut self,
        core: &mut Core,
        pc: &mut refill_objects::Pc,
        fr: &mut RefillObjects,
    ) -> Flow {
        use refill_objects::Pc::*;
        match *pc {
            RO2 => {
                *pc = RO3;
                let n = core.my_node();
                fr.node = Some(n);
                self.call_refill_node(fr, n, false)
            }
            RO3 => {
                fr.refilled.bump_by(fr.ret.count);
                if fr.refilled >= fr.max {
                    return Flow::Ret(Ret::new(1, None).counted(fr.refilled));
                }
                // NUMA: `__refill_objects_any` walks the zonelist of the local node with
                // `allow_spin = false`, the local node first (its partial list may have
                // grown since `__refill_objects_node` looked). The model does not draw the
                // `remote_node_defrag_ratio` lottery (`get_cycles() % 1024 > ratio` skips
                // the walk, 24 times in 1024 by default): it walks.
                let here = fr.node.unwrap_or(0);
                match Self::zonelist_next(core, here, fr.n) {
                    Some(m) => {
                        fr.n = Some(m);
                        *pc = RO3r;
                    }
                    None => *pc = RO5,
                }
                Flow::Go
            }
            RO3r => {
                step!(core);
                let m = need!(core, fr.n);
                let nr = self.slabs(core).ld_nr_partial(m);
                let min = core.cfg.sc.cache.min_partial;
                note!(
                    core,
                    Load,
                    format!("node {m}.nr_partial"),
                    "__refill_objects_any: node {m} has {nr} partial slab(s){}",
                    if nr <= min {
                        format!(", not above min_partial ({min}): skip it.")
                    } else {
                        ": try it, without spinning on its list_lock.".into()
                    }
                );
                *pc = if nr <= min { RO3 } else { RO3n };
                fr.ret.count = 0;
                Flow::Step
            }
            RO3n => {
                *pc = RO3;
                let m = need!(core, fr.n);
                self.call_refill_node(fr, m, true)
            }
            RO5 => {
                *pc = RO7;
                let n = core.my_node();
                call(allocate_slab::NB1, |f| f.node = Some(n))
            }
            RO7 => {
                let Some(p) = fr.ret.slab else {
                    return Flow::Ret(Ret::new(0, None).counted(fr.refilled));
                };
                core.stat(Stat::ALLOC_SLAB);
                *pc = RO7r;
                let (h, base, want) = (
                    fr.sheaf,
                    fr.p.saturating_add(fr.refilled),
                    fr.max.saturating_sub(fr.refilled),
                );
                call(alloc_from_new_slab::NS3, |f| {
                    f.slab = p;
                    f.sheaf = h;
                    f.p = base;
                    f.count = want;
                })
            }
            RO7r => {
                fr.refilled.bump_by(fr.ret.count);
                *pc = if fr.refilled < fr.max {
                    RO5
                } else {
                    return Flow::Ret(Ret::new(1, None).counted(fr.refilled));
                };
                Flow::Go
            }
        }
    }

    fn call_refill_node(&self, fr: &RefillObjects, n: u32, trylock: bool) -> Flow {
        let (h, base, want) = (
            fr.sheaf,
            fr.p.saturating_add(fr.refilled),
            fr.max.saturating_sub(fr.refilled),
        );
        call(refill_objects_node::RN1, |f| {
            f.sheaf = h;
            f.p = base;
            f.max = want;
            f.n = n;
            f.trylock = trylock;
        })
    }

    /// `data_race(n->nr_partial)`: the quick look both partial-list takers begin with.
    pub(super) fn racy_nr_partial(&mut self, core: &mut Core, n: u32, who: &str) -> u32 {
        let nr = self.slabs(core).ld_nr_partial(n);
        note!(
            core,
            Load,
            format!("node {n}.nr_partial"),
            "{who}: node {n} has {nr} partial slab(s) (racy read)."
        );
        nr
    }

    /// The slabs this context isolated (its private list `L`), in order.
    fn my_isolated(&self, core: &Core) -> Vec<SlabId> {
        self.isolated
            .iter()
            .filter(|(c, _)| *c == core.cur)
            .map(|&(_, s)| s)
            .collect()
    }

    fn unisolate(&mut self, s: SlabId) {
        if let Some(i) = self.isolated.iter().position(|&(_, x)| x == s) {
            self.isolated.remove(i);
        }
    }

    /// `__refill_objects_node(n)` (RN1–RN8): isolate slabs in bulk, take each one's whole
    /// freelist, give back what does not fit (the next object goes to slot `p + refilled`).
    pub(in crate::model) fn refill_objects_node(
        &mut self,
        core: &mut Core,
        pc: &mut refill_objects_node::Pc,
        fr: &mut RefillObjectsNode,
    ) -> Flow {
        use refill_objects_node::Pc::*;
        let n = fr.n;
        match *pc {
            RN1 => {
                *pc = RN1r;
                let (want, trylock) = (fr.max, fr.trylock);
                call(get_partial_node_bulk::GB1, |f| {
                    f.n = n;
                    f.max = want;
                    f.trylock = trylock;
                })
            }
            RN1r => {
                if fr.ret.value == 0 {
                    return Flow::Ret(Ret::new(0, None).counted(fr.refilled));
                }
                *pc = RN2;
                Flow::Go
            }
            RN2 => {
                let Some(&p) = self.my_isolated(core).first() else {
                    *pc = RN7;
                    return Flow::Go;
                };
                if fr.refilled >= fr.max {
                    *pc = RN7;
                    return Flow::Go;
                }
                step!(core);
                core.access(core.page(p).line, Access::Write);
                fr.slab = Some(p);
                note!(
                    core,
                    Store,
                    format!("page {}.slab_list", core.slab_name(p)),
                    "Unlink slab {} from the private list of isolated slabs.",
                    core.slab_name(p)
                );
                *pc = RN3;
                Flow::Step
            }
            RN3 => {
                *pc = RN3r;
                let p = need!(core, fr.slab);
                call(get_freelist_nofreeze::GN1, |f| f.slab = p)
            }
            RN3r => {
                fr.object = fr.ret.value;
                *pc = RN4;
                Flow::Go
            }
            RN4 => {
                if fr.object == NULL {
                    *pc = RN2;
                    return Flow::Go;
                }
                if fr.refilled >= fr.max {
                    *pc = RN5;
                    return Flow::Go;
                }
                step!(core);
                let h = need!(core, fr.sheaf);
                let i = fr.p.saturating_add(fr.refilled);
                self.st_slot(core, h, i, fr.object, false);
                let next = core.load_fp(fr.object);
                note!(
                    core,
                    Store,
                    format!("sheaf {}.objects[{i}]", sheaf_name(h)),
                    "p[{}] := {}; its free pointer gives the next, {}.",
                    fr.refilled,
                    core.addr_name(fr.object),
                    core.addr_name(next)
                );
                fr.object = next;
                fr.refilled.bump();
                Flow::Step
            }
            RN5 => {
                step!(core);
                // The rest of the chain is this context's alone (taken off the slab at GN3):
                // walking it to find its tail changes nothing anyone else can see.
                let head = fr.object;
                let (mut tail, mut cnt, mut a) = (head, 0u32, head);
                while a != NULL && cnt <= core.cfg.objects {
                    tail = a;
                    cnt.bump();
                    a = core.load_fp(a);
                }
                fr.tail = tail;
                fr.ret.count = cnt;
                note!(
                    core,
                    Load,
                    format!("objects of {}", core.slab_name(need!(core, fr.slab))),
                    "{cnt} object(s) from {} on do not fit: give them back to their slab.",
                    core.addr_name(head)
                );
                *pc = RN5r;
                Flow::Step
            }
            RN5r => {
                *pc = RN2;
                let (p, head, tail, cnt) = (need!(core, fr.slab), fr.object, fr.tail, fr.ret.count);
                fr.object = NULL;
                call(slab_free_slow_v7::SS2, |f| {
                    f.slab = p;
                    f.head = head;
                    f.tail = tail;
                    f.cnt = cnt;
                })
            }
            RN7 => {
                if self.my_isolated(core).is_empty() {
                    return Flow::Ret(Ret::new(NULL, None).counted(fr.refilled));
                }
                step!(core);
                self.list_lock_irqsave(core, &mut fr.saved_irq, n);
                *pc = RN7u;
                Flow::Step
            }
            RN7u => {
                step!(core);
                // Under list_lock: each slab left is put back at the head, except empty ones
                // beyond min_partial, kept to be discarded (a free cannot empty a slab without
                // this lock, and nobody else allocates from an isolated slab).
                let mut kept = Vec::new();
                for p in self.my_isolated(core) {
                    let empty = self.slab(core, p).counters.inuse == 0;
                    if empty && discard_ok(core, core.node(n).nr_partial) {
                        kept.push(p);
                    } else {
                        self.slabs(core).add_partial(n, p, false);
                        self.unisolate(p);
                    }
                }
                SheavesState::list_unlock_irqrestore(core, fr.saved_irq, n);
                note!(
                    core,
                    ListAdd,
                    format!("node {n}.partial"),
                    "Put the slabs not used back on node {n}'s partial list{}; unlock.",
                    if kept.is_empty() {
                        String::new()
                    } else {
                        format!(", keeping {} empty one(s) to discard", kept.len())
                    }
                );
                *pc = RN8;
                Flow::Step
            }
            RN8 => {
                let Some(&p) = self.my_isolated(core).first() else {
                    return Flow::Ret(Ret::new(NULL, None).counted(fr.refilled));
                };
                step!(core);
                self.unisolate(p);
                self.slabs(core).discard_slab(p, std::iter::empty());
                note!(
                    core,
                    PageFree,
                    format!("page {}", core.slab_name(p)),
                    "discard_slab({}): the empty slab goes back to the page allocator.",
                    core.slab_name(p)
                );
                Flow::Step
            }
        }
    }

    /// `get_partial_node_bulk(n, {min, max})` (GB1–GB4): isolate slabs off the node's
    /// partial list until their free objects reach `max`. Returns 1 if it took any.
    pub(in crate::model) fn get_partial_node_bulk(
        &mut self,
        core: &mut Core,
        pc: &mut get_partial_node_bulk::Pc,
        fr: &mut GetPartialNodeBulk,
    ) -> Flow {
        use get_partial_node_bulk::Pc::*;
        let n = fr.n;
        match *pc {
            GB1 => {
                step!(core);
                if self.racy_nr_partial(core, n, "get_partial_node_bulk") == 0 {
                    return Flow::Ret(Ret::new(0, None).counted(fr.total));
                }
                *pc = GB2;
                Flow::Step
            }
            GB2 => {
                step!(core);
                if fr.trylock && !core.lock_free(n) {
                    note!(
                        core,
                        Lock,
                        format!("node {n}.list_lock"),
                        "spin_trylock_irqsave of node {n}'s list_lock fails: it is held. Skip the node."
                    );
                    return Flow::Ret(Ret::new(0, None).counted(fr.total));
                }
                self.list_lock_irqsave(core, &mut fr.saved_irq, n);
                *pc = GB3;
                Flow::Step
            }
            GB3 => {
                step!(core);
                // One step for the walk under list_lock: nobody allocates from a listed slab
                // meanwhile, and a lockless free touches one slab, so reading every slab's
                // counters at one instant reaches the same outcomes.
                let (min, max) = (fr.max, fr.max);
                let mut total = 0u32;
                let mut taken = Vec::new();
                for p in core.node(n).partial.clone() {
                    core.access(core.page(p).line, Access::Read);
                    let c = self.slab(core, p).counters;
                    let free = c.objects.saturating_sub(c.inuse);
                    if total >= min && total.saturating_add(free) > max {
                        break;
                    }
                    self.slabs(core).remove_partial(n, p);
                    let cur = core.cur;
                    self.isolated.push((cur, p));
                    taken.push(p);
                    total.bump_by(free);
                    if total >= max {
                        break;
                    }
                }
                fr.total = total;
                note!(
                    core,
                    ListDel,
                    format!("node {n}.partial"),
                    "Isolate {} with {total} free object(s) between them, off node {n}'s list.",
                    taken
                        .iter()
                        .map(|&p| core.slab_name(p))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                *pc = GB4;
                Flow::Step
            }
            GB4 => {
                step!(core);
                SheavesState::list_unlock_irqrestore(core, fr.saved_irq, n);
                Flow::Ret(Ret::new((fr.total > 0) as Addr, None).counted(fr.total))
            }
        }
    }

    /// `get_freelist_nofreeze(P)` (GN1–GN3): take the isolated slab's whole freelist with one
    /// double CAS (a concurrent free may make it fail: then read again).
    pub(in crate::model) fn get_freelist_nofreeze(
        &mut self,
        core: &mut Core,
        pc: &mut get_freelist_nofreeze::Pc,
        fr: &mut GetFreelistNofreeze,
    ) -> Flow {
        use get_freelist_nofreeze::Pc::*;
        let p = fr.slab;
        match *pc {
            GN1 => {
                step!(core);
                (fr.freelist, fr.counters) = self.slabs(core).read_slab_pair(p, |core, f, c| {
                    format!(
                        "get_freelist_nofreeze: freelist {}, {}.",
                        core.addr_name(f),
                        counters_text(c)
                    )
                });
                *pc = GN3;
                Flow::Step
            }
            GN3 => {
                step!(core);
                let new = Counters {
                    inuse: fr.counters.objects,
                    ..fr.counters
                };
                let ok = self.slabs(core).cas_slab_pair(
                    p,
                    (fr.freelist, fr.counters),
                    (NULL, new),
                    "succeeds: the whole freelist is this refill's.",
                    "fails: a free changed the slab. Read it again.",
                );
                if !ok {
                    *pc = GN1;
                    return Flow::Step;
                }
                let mut a = fr.freelist;
                let mut seen = 0;
                while a != NULL && seen <= core.cfg.objects {
                    self.hold(core, a);
                    seen.bump();
                    a = core.peek_fp(a).unwrap_or(NULL);
                }
                self.unisolate(p);
                Flow::Ret(Ret::new(fr.freelist, None))
            }
        }
    }
}
