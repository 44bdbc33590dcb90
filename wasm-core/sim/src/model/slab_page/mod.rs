//! The slab level SLUB and Linux 7.0 share (model.md §1.3, §2.2, §2.14; 7.0 keeps SLUB's slabs
//! as they are, model.md Appendix C): SLUB's fields of a slab's descriptor (`SlubPage`: the
//! `freelist` + `counters` double word, `slab_lock`, the CPU partial link), their lookups, and
//! the primitives on them (`access`: the pair's load and double CAS, the node partial list
//! under `list_lock`, `discard_slab`) with the steps both allocators' functions take on them
//! (`steps`). SLUB's per-CPU level (`kmem_cache_cpu`) stays in `slub`; 7.0's sheaves in
//! `sheaves`.

use super::prims::{found, missing, note_fault};
use super::state::*;
use super::{Fault, Machine};

mod access;
mod steps;

/// `page->counters`: the `inuse:16, objects:15, frozen:1` word (model.md §1.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counters {
    pub inuse: u32,
    pub objects: u32,
    pub frozen: bool,
}

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

impl AllocState {
    /// SLUB's fields of every slab: under SLUB and under Linux 7.0, which keeps SLUB's slab
    /// level.
    #[inline]
    pub fn slub_pages(&self) -> Option<&[SlubPage]> {
        match self {
            AllocState::Slub(s) => Some(&s.pages),
            AllocState::Sheaves(s) => Some(&s.pages),
            AllocState::Slab(_) => None,
        }
    }
    #[inline]
    fn slub_pages_mut(&mut self) -> Option<&mut Vec<SlubPage>> {
        match self {
            AllocState::Slub(s) => Some(&mut s.pages),
            AllocState::Sheaves(s) => Some(&mut s.pages),
            AllocState::Slab(_) => None,
        }
    }
}

static NO_SLUB_PAGE: SlubPage = SlubPage::new(0);

// Lookups of the slab level, as the machine's (`prims`): its code runs under SLUB and under
// 7.0, and every slab has its fields. Anything else is an internal error of the model: noted,
// an inert stand-in read, a write skipped (`None`).
impl Machine {
    /// SLUB's fields of slab `s`.
    #[inline]
    pub fn slab(&self, s: SlabId) -> &SlubPage {
        (self.alloc.slub_pages())
            .and_then(|p| p.get(s as usize))
            .unwrap_or_else(|| missing(&self.core.fault, "slab", s.into(), &NO_SLUB_PAGE))
    }
    #[inline]
    pub fn slab_mut(&mut self, s: SlabId) -> Option<&mut SlubPage> {
        let p = (self.alloc.slub_pages_mut()).and_then(|p| p.get_mut(s as usize));
        found(&self.core.fault, "slab", s.into(), p)
    }

    /// `allocate_slab`'s new slab under SLUB or 7.0: its memory (`Core::new_page`) and
    /// SLUB's fields.
    pub(in crate::model) fn create_slab(&mut self, node: u32) -> SlabId {
        let id = self.core.new_page(node);
        let fields = SlubPage::new(self.core.cfg.objects);
        match self.alloc.slub_pages_mut() {
            Some(p) => p.push(fields),
            None => note_fault(
                &self.core.fault,
                Fault::Broken("SLUB's new_slab ran under another allocator"),
            ),
        }
        id
    }
}
