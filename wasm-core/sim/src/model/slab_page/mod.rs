//! The slab level SLUB and Linux 7.0 share (model.md §1.3, §2.2, §2.14; 7.0 keeps SLUB's slabs
//! as they are, model.md Appendix C): SLUB's fields of a slab's descriptor (`SlubPage`: the
//! `freelist` + `counters` double word, `slab_lock`, the CPU partial link), their lookups, and
//! the primitives on them (`access`: the pair's load and double CAS, the node partial list
//! under `list_lock`, `discard_slab`) with the steps both allocators' functions take on them
//! (`steps`), and those fields in a slab's view (`view`). SLUB's per-CPU level (`kmem_cache_cpu`) stays in `slub`; 7.0's sheaves in
//! `sheaves`. None of it is the machine's: an allocator lends its slabs' fields and the core
//! (`SlabPages`), and reads them with `slab`.

use super::prims::{found, missing};
use super::state::*;
use super::Core;

mod access;
mod steps;
mod view;

// The `counters` word is defined below the frame table (`locals`): SLUB's and 7.0's locals
// hold it.
pub use super::locals::Counters;
pub use access::{chain_contains, discard_ok};
pub use steps::{slab_pair_name, slab_pair_text};
pub use view::{chain_has, chain_names, slab_view};

/// SLUB's fields of a slab's descriptor (`struct page`; `struct slab` since 5.17): its
/// `freelist` + `counters` (the double word the CAS of model.md §2.2 updates), the `slab_lock`
/// bit, the CPU partial link with the head's `pages` / `pobjects` (model.md §1.3) and, 6.8+,
/// `PG_workingset`. The shared `Page` beside it (same `SlabId`) holds the memory.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SlubPage {
    pub freelist: Addr,
    pub counters: Counters,
    /// `slab_lock` (bit spinlock on `page->flags`): who holds it.
    pub slab_lock: Option<CtxId>,
    pub next: Option<SlabId>,
    pub pages: u32,
    pub pobjects: u32,
    /// v6.8+: `PG_workingset` = on the node partial list.
    pub on_node_partial: bool,
}

impl SlubPage {
    /// A new slab's fields (`allocate_slab`): no free objects yet, `objects` of them.
    pub const fn new(objects: u32) -> SlubPage {
        SlubPage {
            freelist: NULL,
            counters: Counters {
                inuse: 0,
                objects,
                frozen: false,
            },
            slab_lock: None,
            next: None,
            pages: 0,
            pobjects: 0,
            on_node_partial: false,
        }
    }
}

/// The `counters` word as events and narrations spell it.
pub fn counters_text(c: Counters) -> String {
    format!(
        "inuse {} objects {} frozen {}",
        c.inuse, c.objects, c.frozen as u8
    )
}

static NO_SLUB_PAGE: SlubPage = SlubPage::new(0);

/// The slab level lent to a step: the running allocator's slabs' SLUB fields (SLUB's or
/// 7.0's `pages`, by `SlabId`) with the core, borrowed apart from the allocator's other
/// fields. Its methods (`access`, `steps`) are the primitives both allocators call.
pub struct SlabPages<'a> {
    pub pages: &'a mut Vec<SlubPage>,
    pub core: &'a mut Core,
}

/// SLUB's fields of slab `s` in `pages`. Every slab has them under SLUB and 7.0 (the only
/// allocators whose code runs here); anything else is an internal error of the model: noted,
/// an inert stand-in read.
#[inline]
pub fn slab<'p>(pages: &'p [SlubPage], core: &Core, s: SlabId) -> &'p SlubPage {
    (pages.get(s as usize)).unwrap_or_else(|| missing(&core.fault, "slab", s.into(), &NO_SLUB_PAGE))
}

/// `spin_lock(&n->list_lock)` under SLUB or 7.0, whose `slab_lock` nests inside it: INV-13's
/// order check asks whether the stepping context holds one in `pages`, a scan of every slab
/// made only when checks are on.
pub fn spin_lock(pages: &[SlubPage], core: &mut Core, n: u32) {
    let cur = core.cur;
    let inside = core.checks && pages.iter().any(|s| s.slab_lock == Some(cur));
    core.spin_lock(n, inside);
}

impl SlabPages<'_> {
    /// SLUB's fields of slab `s` (see `slab`).
    #[inline]
    pub fn slab(&self, s: SlabId) -> &SlubPage {
        slab(self.pages, self.core, s)
    }
    /// The same for a write: `None` (noted) skips it.
    #[inline]
    pub fn slab_mut(&mut self, s: SlabId) -> Option<&mut SlubPage> {
        found(
            &self.core.fault,
            "slab",
            s.into(),
            self.pages.get_mut(s as usize),
        )
    }

    /// `allocate_slab`'s new slab under SLUB or 7.0: its memory (`Core::new_page`) and
    /// SLUB's fields.
    pub fn create_slab(&mut self, node: u32) -> SlabId {
        let id = self.core.new_page(node);
        self.pages.push(SlubPage::new(self.core.cfg.objects));
        id
    }

    /// Link a new slab's objects through their free pointers, first to last (`new_slab`'s
    /// loop, the same in every era and in 7.0).
    pub fn chain_objects(&mut self, s: SlabId) {
        let objects = self.core.cfg.objects;
        for i in 0..objects {
            let next = match i.checked_add(1) {
                Some(j) if j < objects => self.core.obj_addr(s, j),
                _ => NULL,
            };
            let line = self.core.obj_line(s, i);
            self.core.access(line, super::memory::Access::Write);
            if let Some(w) = self.core.fp_slot(s, i) {
                *w = next;
            }
        }
    }
}
