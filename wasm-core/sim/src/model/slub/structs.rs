//! SLUB's own state (model.md §1): each CPU's `kmem_cache_cpu` with its lookups, and the
//! vector of SLUB's fields of every slab (`slab_page::SlubPage`, the slab level Linux 7.0
//! shares) with SLUB's way to it (`slab`, `sp`, `discard_slab`, `spin_lock`), each given the
//! core.

use super::super::prims::found;
use super::super::slab_page::{self, SlabPages, SlubPage};
use super::super::state::*;
use super::super::Core;

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

static NO_KMEM_CACHE_CPU: KmemCacheCpu = KmemCacheCpu {
    freelist: NULL,
    tid: 0,
    page: None,
    partial: None,
    local_lock: None,
    ghost_version: 0,
};

// Lookups of SLUB's state, as the machine's (`prims`), given the core for its fault cell:
// SLUB's code runs under SLUB and every CPU has its `kmem_cache_cpu`.
// Anything else is an internal error of the model: noted, an inert stand-in read, a write
// skipped (`None`).
impl SlubState {
    /// CPU k's `kmem_cache_cpu` (`per_cpu_ptr(s->cpu_slab, k)`).
    #[inline]
    pub(in crate::model) fn cpu_slab(&self, core: &Core, k: u32) -> &KmemCacheCpu {
        (self.cpu_slab.get(k as usize))
            .unwrap_or_else(|| core.missing("kmem_cache_cpu of cpu", k.into(), &NO_KMEM_CACHE_CPU))
    }
    #[inline]
    pub(in crate::model) fn cpu_slab_mut(
        &mut self,
        core: &Core,
        k: u32,
    ) -> Option<&mut KmemCacheCpu> {
        let c = self.cpu_slab.get_mut(k as usize);
        found(&core.fault, "kmem_cache_cpu of cpu", k.into(), c)
    }
    /// SLUB's fields of slab `s` (`slab_page::slab` on its own slabs).
    #[inline]
    pub(in crate::model) fn slab(&self, core: &Core, s: SlabId) -> &SlubPage {
        slab_page::slab(&self.pages, core, s)
    }
    #[inline]
    pub(in crate::model) fn slab_mut(&mut self, core: &Core, s: SlabId) -> Option<&mut SlubPage> {
        found(
            &core.fault,
            "slab",
            s.into(),
            self.pages.get_mut(s as usize),
        )
    }
    /// The slab level (`slab_page`) on SLUB's slabs, lent with the core.
    #[inline]
    pub(in crate::model) fn sp<'a>(&'a mut self, core: &'a mut Core) -> SlabPages<'a> {
        SlabPages {
            pages: &mut self.pages,
            core,
        }
    }
    /// `discard_slab` with SLUB's CPU slabs, which its check reads.
    pub(in crate::model) fn discard_slab(&mut self, core: &mut Core, s: SlabId) {
        let cpus = self.cpu_slab.iter().map(|c| (c.page, c.partial));
        SlabPages {
            pages: &mut self.pages,
            core,
        }
        .discard_slab(s, cpus)
    }
    /// `spin_lock(&n->list_lock)`, with INV-13's answer from SLUB's slabs
    /// (`slab_page::spin_lock`).
    pub(in crate::model) fn spin_lock(&self, core: &mut Core, n: u32) {
        crate::model::slab_page::spin_lock(&self.pages, core, n);
    }
}
