//! SLUB's own state (model.md §1): each CPU's `kmem_cache_cpu` and SLUB's fields of every slab,
//! with their lookups. Linux 7.0 (`model::sheaves`) keeps SLUB's slab level as it is and so
//! shares `SlubPage` and its lookups; it has no `kmem_cache_cpu`.

use super::super::prims::{found, missing, note_fault};
use super::super::state::*;
use super::super::{Fault, Machine};

/// `struct kmem_cache_cpu` (model.md §1.2), and the ghost version INV-12 reads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KmemCacheCpu {
    pub freelist: Addr,
    pub tid: u64,
    pub page: Option<SlabId>,
    pub partial: Option<SlabId>,
    /// 5.15+ `local_lock` (irqs off on !RT): who holds it.
    pub local_lock: Option<CtxId>,
    /// Ghost (model.md §5): bumped on every write to `freelist` or `page`.
    pub ghost_version: u64,
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

/// SLUB's arm of `AllocState`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlubState {
    /// Each CPU's `kmem_cache_cpu` (`s->cpu_slab`).
    pub cpu_slab: Vec<KmemCacheCpu>,
    /// SLUB's fields of every slab, by `SlabId`.
    pub pages: Vec<SlubPage>,
}

impl SlubState {
    /// A new cache on `cpus` CPUs: every `kmem_cache_cpu` empty, tid = the CPU's number
    /// (`init_tid`).
    pub fn new(cpus: usize) -> SlubState {
        SlubState {
            cpu_slab: (0..cpus as u64)
                .map(|k| KmemCacheCpu {
                    tid: k,
                    ..Default::default()
                })
                .collect(),
            pages: Vec::new(),
        }
    }
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
    /// Each CPU's `kmem_cache_cpu`: under SLUB only.
    #[inline]
    pub fn cpu_slabs(&self) -> &[KmemCacheCpu] {
        match self {
            AllocState::Slub(s) => &s.cpu_slab,
            _ => &[],
        }
    }
}

static NO_KMEM_CACHE_CPU: KmemCacheCpu = KmemCacheCpu {
    freelist: NULL,
    tid: 0,
    page: None,
    partial: None,
    local_lock: None,
    ghost_version: 0,
};
static NO_SLUB_PAGE: SlubPage = SlubPage::new(0);

// Lookups of SLUB's state, as the machine's (`prims`): SLUB's code runs under SLUB (and its
// slab level under 7.0), every CPU has its `kmem_cache_cpu` and every slab its fields.
// Anything else is an internal error of the model: noted, an inert stand-in read, a write
// skipped (`None`).
impl Machine {
    /// CPU k's `kmem_cache_cpu` (`per_cpu_ptr(s->cpu_slab, k)`).
    #[inline]
    pub fn cpu_slab(&self, k: u32) -> &KmemCacheCpu {
        (self.st.alloc.cpu_slabs().get(k as usize)).unwrap_or_else(|| {
            missing(
                &self.fault,
                "kmem_cache_cpu of cpu",
                k.into(),
                &NO_KMEM_CACHE_CPU,
            )
        })
    }
    #[inline]
    pub fn cpu_slab_mut(&mut self, k: u32) -> Option<&mut KmemCacheCpu> {
        let c = match &mut self.st.alloc {
            AllocState::Slub(s) => s.cpu_slab.get_mut(k as usize),
            _ => None,
        };
        found(&self.fault, "kmem_cache_cpu of cpu", k.into(), c)
    }
    /// SLUB's fields of slab `s`.
    #[inline]
    pub fn slab(&self, s: SlabId) -> &SlubPage {
        (self.st.alloc.slub_pages())
            .and_then(|p| p.get(s as usize))
            .unwrap_or_else(|| missing(&self.fault, "slab", s.into(), &NO_SLUB_PAGE))
    }
    #[inline]
    pub fn slab_mut(&mut self, s: SlabId) -> Option<&mut SlubPage> {
        let p = (self.st.alloc.slub_pages_mut()).and_then(|p| p.get_mut(s as usize));
        found(&self.fault, "slab", s.into(), p)
    }

    /// `allocate_slab`'s new slab under SLUB or 7.0: its memory (`Machine::new_page`) and
    /// SLUB's fields.
    pub(in crate::model) fn create_slab(&mut self, node: u32) -> SlabId {
        let id = self.new_page(node);
        let fields = SlubPage::new(self.cfg.objects);
        match self.st.alloc.slub_pages_mut() {
            Some(p) => p.push(fields),
            None => note_fault(
                &self.fault,
                Fault::Broken("SLUB's new_slab ran under another allocator"),
            ),
        }
        id
    }
}
