//! The Lab's mechanisms outside the step model: what the seeds' machines did around the
//! allocator that the model's steps do not, each charged in the constants of the one cost
//! table (`model::cost`), so a run's breakdown and its sensitivity rows cover them too.
//!
//! - [`PageAllocator`]: the buddy allocator's zone with its spinlock and the per-CPU page
//!   lists in front of it (mm/page_alloc.c, `buffered_rmqueue` / `rmqueue_bulk` /
//!   `free_hot_cold_page` / `free_pcppages_bulk` of v3.x–v4.x). It replaces the model's fixed
//!   `PAGE_ALLOC` and `PAGE_FREE` charges: a page from a CPU's list costs a few L1 accesses
//!   with interrupts off; a list found empty is refilled with `batch` pages under
//!   `zone->lock`, and a list grown to `high` gives `batch` back under it. CPUs that want the
//!   lock while another holds it wait in line (the driver's `waiting`).
//! - [`kmalloc_lookup`]: `__kmalloc`'s size-to-cache lookup (`kmalloc_slab`), and `kfree`'s
//!   `virt_to_head_page` read of the object's page (the driver charges that one through the
//!   machine, so it costs what the line's state says).
//!
//! Every count here is the kernel's (the structure: how many lines a function touches, how
//! many pages a batch moves); every cycle is a constant of the table. `docs/cost-table.md`
//! lists them with their sources.

use slub_sim::model::cost::{Costs, Id, N};

/// Charges in the table's constants (how many of each), plus cycles of waiting in line for
/// a lock another CPU holds. Counts may be negative: a mechanism that replaces a charge of
/// the model takes it back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Charge {
    pub ids: [i64; N],
    pub wait: u64,
}

impl Charge {
    pub fn add(&mut self, id: Id, n: i64) {
        if let Some(c) = self.ids.get_mut(id as usize) {
            *c += n;
        }
    }

    pub fn merge(&mut self, o: &Charge) {
        for (a, b) in self.ids.iter_mut().zip(o.ids) {
            *a += b;
        }
        self.wait += o.wait;
    }

    /// The charged cycles (without the waiting).
    pub fn cycles(&self, costs: &Costs) -> i64 {
        Id::ALL
            .iter()
            .map(|&id| self.ids[id as usize] * costs.get(id) as i64)
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.wait == 0 && self.ids.iter().all(|&n| n == 0)
    }
}

/// v4.x `zone_batchsize` for a zone of more than 512 MiB: `managed_pages / 1024` capped at
/// 512 KiB worth of pages (128), a quarter of that (32), then `rounddown_pow_of_two(32 + 16)
/// - 1` = 31 pages moved per refill or drain of a per-CPU list.
pub const PCP_BATCH: u32 = 31;
/// `pageset_set_batch`: `high = 6 * batch`, the count at which a free drains a batch.
pub const PCP_HIGH: u32 = 6 * PCP_BATCH;
/// Order-0 pages only on the per-CPU lists until Linux 5.13 (Mel Gorman, "mm/page_alloc:
/// allow high-order pages to be stored on the per-cpu lists"); from then on up to
/// `PAGE_ALLOC_COSTLY_ORDER`.
pub const PAGE_ALLOC_COSTLY_ORDER: u32 = 3;

/// What a run's page allocator did, for the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PageStats {
    /// Pages handed out from a per-CPU list.
    pub pcp_allocs: u64,
    /// Pages given back to a per-CPU list.
    pub pcp_frees: u64,
    /// `zone->lock` acquisitions (refills, drains, and pages of an order the lists do not hold).
    pub zone_locks: u64,
    /// Of those, how many found the lock held and waited.
    pub zone_waits: u64,
    /// Cycles waited for `zone->lock`, all CPUs.
    pub zone_wait_cycles: u64,
}

/// The zone the seeds' slabs came from and its per-CPU page lists.
#[derive(Clone, Debug)]
pub struct PageAllocator {
    /// Pages on each CPU's list.
    pcp: Vec<u32>,
    /// The highest order the per-CPU lists hold.
    pcp_max_order: u32,
    /// When `zone->lock` is next free, on the driver's clock.
    zone_free_at: u64,
    /// The CPU that last held `zone->lock`: the lock word and the free-area heads it wrote are
    /// Modified in its cache.
    zone_owner: Option<usize>,
    pub stats: PageStats,
}

impl PageAllocator {
    /// `high_order_pcp`: the kernel is 5.13 or later (Linux 7.0's sheaves).
    pub fn new(cpus: usize, high_order_pcp: bool) -> PageAllocator {
        PageAllocator {
            pcp: vec![0; cpus],
            pcp_max_order: if high_order_pcp {
                PAGE_ALLOC_COSTLY_ORDER
            } else {
                0
            },
            zone_free_at: 0,
            zone_owner: None,
            stats: PageStats::default(),
        }
    }

    /// Take `zone->lock` at `now` on CPU `k`, hold it for the work in `held` and let go:
    /// the charges of the acquisition and of the work, and the wait in line.
    fn under_zone_lock(&mut self, k: usize, now: u64, held: Charge, costs: &Costs) -> Charge {
        let mut c = Charge::default();
        // spin_lock: the lock's read-modify-write, and the lock word's line if another CPU
        // held it last; the free-area heads the holder writes share the zone's lines and
        // come along the same way (one more line).
        c.add(Id::SpinLock, 1);
        let moved = self.zone_owner.is_some_and(|o| o != k);
        if moved {
            c.add(Id::ModifiedInOtherCore, 2);
        } else {
            c.add(Id::L1Hit, 1);
        }
        c.merge(&held);
        c.add(Id::SpinUnlock, 1);
        let wait = self.zone_free_at.saturating_sub(now);
        let hold = c.cycles(costs).max(0) as u64;
        self.zone_free_at = now + wait + hold;
        self.zone_owner = Some(k);
        self.stats.zone_locks += 1;
        if wait > 0 {
            self.stats.zone_waits += 1;
            self.stats.zone_wait_cycles += wait;
        }
        c.wait = wait;
        c
    }

    /// `__rmqueue` of `pages` pages of an order: per page, the first page of the free list
    /// (its `struct page`, a line no CPU holds: pages rest in the buddy lists long after
    /// whoever freed them), `list_del` writing its neighbour's `lru` (another such line), and
    /// the free area's head and count (the zone's line, this CPU's while it holds the lock).
    fn rmqueue(pages: u32) -> Charge {
        let mut c = Charge::default();
        c.add(Id::L3Unshared, 2 * i64::from(pages));
        c.add(Id::L1Hit, 2 * i64::from(pages));
        c
    }

    /// `__free_one_page` of `pages` pages: per page, its `struct page` (this CPU's: it was
    /// just on this CPU's list or slab), the buddy's `struct page` that `page_is_buddy`
    /// reads (a line no CPU holds), and the free area's head and count.
    fn free_one(pages: u32) -> Charge {
        let mut c = Charge::default();
        c.add(Id::L1Hit, 3 * i64::from(pages));
        c.add(Id::L3Unshared, i64::from(pages));
        c
    }

    /// A slab's pages for CPU `k` at `now` (its clock), of `order`: `buffered_rmqueue`.
    pub fn alloc(&mut self, k: usize, now: u64, order: u32, costs: &Costs) -> Charge {
        let mut c = Charge::default();
        // local_irq_save / restore around the per-CPU list, or spin_lock_irqsave of the
        // zone's lock for an order the lists do not hold.
        c.add(Id::IrqSave, 1);
        c.add(Id::IrqRestore, 1);
        if order <= self.pcp_max_order {
            if self.pcp[k] == 0 {
                // rmqueue_bulk: `batch` pages onto the list under zone->lock, each also
                // linked into the list (its line, already this CPU's).
                let mut held = Self::rmqueue(PCP_BATCH);
                held.add(Id::L1Hit, i64::from(PCP_BATCH));
                let z = self.under_zone_lock(k, now, held, costs);
                c.merge(&z);
                self.pcp[k] += PCP_BATCH;
            }
            self.pcp[k] -= 1;
            self.stats.pcp_allocs += 1;
            // pcp->count, the list head, the page's lru and its neighbour's (list_del), and
            // prep_new_page's writes to the page: lines this CPU holds.
            c.add(Id::L1Hit, 5);
        } else {
            let held = Self::rmqueue(1);
            let z = self.under_zone_lock(k, now, held, costs);
            c.merge(&z);
            // prep_new_page on the head page.
            c.add(Id::L1Hit, 1);
        }
        c
    }

    /// A slab's pages back from CPU `k` at `now`: `free_hot_cold_page` (order 0) or
    /// `__free_pages_ok` (higher orders, under the zone's lock).
    pub fn free(&mut self, k: usize, now: u64, order: u32, costs: &Costs) -> Charge {
        let mut c = Charge::default();
        c.add(Id::IrqSave, 1);
        c.add(Id::IrqRestore, 1);
        if order <= self.pcp_max_order {
            // The page's flags and lru, the list head, pcp->count.
            c.add(Id::L1Hit, 4);
            self.pcp[k] += 1;
            self.stats.pcp_frees += 1;
            if self.pcp[k] >= PCP_HIGH {
                // free_pcppages_bulk: `batch` pages back to the buddy lists.
                let z = self.under_zone_lock(k, now, Self::free_one(PCP_BATCH), costs);
                c.merge(&z);
                self.pcp[k] -= PCP_BATCH;
            }
        } else {
            let z = self.under_zone_lock(k, now, Self::free_one(1), costs);
            c.merge(&z);
        }
        c
    }
}

/// `__kmalloc`'s `kmalloc_slab(size)` for a size not known at compile time (slab_test passes
/// it in a variable): up to 192 bytes a load of `size_index[]` and one of `kmalloc_caches[]`,
/// above it `fls(size - 1)` and the load of `kmalloc_caches[]`. Both arrays are read by every
/// kmalloc and written only at boot: L1 hits.
pub fn kmalloc_lookup(size: u32) -> Charge {
    let mut c = Charge::default();
    c.add(Id::L1Hit, if size <= 192 { 2 } else { 1 });
    c
}
