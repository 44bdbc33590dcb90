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
//! - [`Core`]: a store buffer (plain stores retire at their issue cost, `LOCK`ed
//!   instructions wait for it to drain) and, off by default, overlapped loads of one line.
//! - [`kmalloc_lookup`]: `__kmalloc`'s size-to-cache lookup (`kmalloc_slab`), and `kfree`'s
//!   `virt_to_head_page` reads of the object's page (the driver charges the first through the
//!   machine, so it costs what the line's state says, and the fields read after it as L1
//!   hits).
//!
//! The driver also hands a released `spinlock_t` to the CPU that waited longest (ticket and
//! queued spinlocks); that needs no charge, so it lives in the driver, not here.
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
    /// Cycles of issue of the accesses the core overlaps ([`ISSUE`] each).
    pub issue: u64,
    /// Cycles a locked instruction waited for the store buffer to drain, or a store for a
    /// free entry.
    pub stall: u64,
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
        self.issue += o.issue;
        self.stall += o.stall;
    }

    /// The charged cycles (without the waiting): the constants', the issue and the stalls.
    pub fn cycles(&self, costs: &Costs) -> i64 {
        Id::ALL
            .iter()
            .map(|&id| self.ids[id as usize] * costs.get(id) as i64)
            .sum::<i64>()
            + self.issue as i64
            + self.stall as i64
    }

    pub fn is_empty(&self) -> bool {
        self.wait == 0 && self.issue == 0 && self.stall == 0 && self.ids.iter().all(|&n| n == 0)
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

/// The cycles of issue of a load or a store the core overlaps with other work: Nehalem's
/// core (the Xeon 5500 of the table's latencies) issues one load and one store per cycle
/// (Intel 64 and IA-32 Architectures Optimization Reference Manual, the Nehalem
/// microarchitecture's execution ports: port 2 loads, ports 3 and 4 store address and data).
pub const ISSUE: u64 = 1;
/// Store buffer entries per core on Nehalem (same manual: 48 load and 32 store buffers). A
/// `LOCK`ed instruction waits for them to drain: Intel SDM Vol. 3A, section 8.2.2: loads and stores
/// are not reordered with locked instructions.
pub const STORE_BUFFER: usize = 32;

/// Which of the table's constants are the charge of an access's line (an L1 hit or a
/// transfer).
pub const ACCESS_IDS: [Id; 5] = [
    Id::L1Hit,
    Id::L3Unshared,
    Id::CleanInOtherCore,
    Id::ModifiedInOtherCore,
    Id::RemoteSocket,
];

/// A core's store buffer and its memory-level parallelism, seen from the model's steps.
///
/// The model charges every access its full latency, one after another. A core does not: a
/// plain store retires into the store buffer at its issue cost and its line is fetched
/// (read-for-ownership) while the core goes on; only a `LOCK`ed instruction (a locked
/// `cmpxchg16b`, a spinlock's read-modify-write) waits for the buffer to drain, and a store
/// finding every entry taken waits for the oldest. Loads whose addresses do not depend on one
/// another issue back to back: a load of the line the previous load of the same operation
/// read (another field of the same structure, from the same base pointer) costs its issue
/// only. A load of another line may depend on what the previous one returned (the free
/// pointer inside the object `c->freelist` names), so it pays its full latency.
#[derive(Clone, Debug, Default)]
pub struct Core {
    /// When each store still in the buffer is done, on the driver's clock, oldest first.
    stores: std::collections::VecDeque<u64>,
    /// The line and the (context, op) of this core's last plain load.
    last_load: Option<(u32, usize, usize)>,
    pub stats: CoreStats,
}

/// What a run's store buffers and overlapped loads did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CoreStats {
    /// Plain stores that retired into the store buffer.
    pub buffered_stores: u64,
    /// Of those, stores whose line was not this CPU's (a read-for-ownership behind the core).
    pub buffered_misses: u64,
    /// `LOCK`ed instructions that waited for the buffer to drain, and the cycles they waited.
    pub drains: u64,
    pub drain_cycles: u64,
    /// Loads that overlapped the previous one.
    pub overlapped_loads: u64,
}

impl CoreStats {
    pub fn add(&mut self, o: &CoreStats) {
        self.buffered_stores += o.buffered_stores;
        self.buffered_misses += o.buffered_misses;
        self.drains += o.drains;
        self.drain_cycles += o.drain_cycles;
        self.overlapped_loads += o.overlapped_loads;
    }
}

/// What one step is, as far as [`Core`] cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// One plain store to `line`, charged `id`.
    Store {
        id: Id,
    },
    /// One plain load of `line`, charged `id`.
    Load {
        line: u32,
        id: Id,
    },
    /// A `LOCK`ed instruction: the store buffer drains first.
    Locked,
    Other,
}

impl StepKind {
    /// Classify a step by its footprint (the lines it touched, `WRITE` set on writes; tagged
    /// resources ignored) and the charges it made.
    pub fn of(foot: &[u32], delta: &[u64; N]) -> StepKind {
        use slub_sim::model::{RES_CTX, RES_PAGE_ALLOC, RES_SCHED, WRITE};
        let tag = RES_SCHED | RES_CTX | RES_PAGE_ALLOC;
        if delta[Id::LockedCmpxchg16b as usize] > 0 || delta[Id::SpinLock as usize] > 0 {
            return StepKind::Locked;
        }
        let mut lines = foot.iter().filter(|&&r| r & tag & !WRITE == 0);
        let (Some(&first), None) = (lines.next(), lines.next()) else {
            return StepKind::Other;
        };
        let access: u64 = ACCESS_IDS.iter().map(|&id| delta[id as usize]).sum();
        let all: u64 = delta.iter().sum();
        if access != 1 || all != 1 {
            return StepKind::Other;
        }
        let Some(&id) = ACCESS_IDS.iter().find(|&&id| delta[id as usize] == 1) else {
            return StepKind::Other;
        };
        if first & WRITE != 0 {
            StepKind::Store { id }
        } else {
            StepKind::Load {
                line: first & !WRITE,
                id,
            }
        }
    }
}

impl Core {
    /// The step of context `cx`, op `op`, that began at `now`: what the store buffer and the
    /// overlap of loads change in its charges. `mlp`: loads overlap; the store buffer always
    /// applies.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        kind: StepKind,
        cx: usize,
        op: usize,
        now: u64,
        costs: &Costs,
        store_buffer: bool,
        mlp: bool,
    ) -> Charge {
        let mut c = Charge::default();
        // Stores done by now have left the buffer.
        while self.stores.front().is_some_and(|&t| t <= now) {
            self.stores.pop_front();
        }
        match kind {
            StepKind::Store { id } if store_buffer => {
                c.add(id, -1);
                c.issue += ISSUE;
                self.stats.buffered_stores += 1;
                if self.stores.len() >= STORE_BUFFER {
                    if let Some(oldest) = self.stores.pop_front() {
                        c.stall += oldest.saturating_sub(now);
                    }
                }
                if id != Id::L1Hit {
                    self.stats.buffered_misses += 1;
                    // The read-for-ownership goes on behind the core.
                    let done = now + c.stall + costs.get(id);
                    let last = self.stores.back().copied().unwrap_or(0);
                    self.stores.push_back(done.max(last));
                }
            }
            StepKind::Load { line, id } => {
                if mlp && id == Id::L1Hit && self.last_load == Some((line, cx, op)) {
                    c.add(Id::L1Hit, -1);
                    c.issue += ISSUE;
                    self.stats.overlapped_loads += 1;
                }
                self.last_load = Some((line, cx, op));
            }
            StepKind::Locked if store_buffer => {
                if let Some(&last) = self.stores.back() {
                    let wait = last.saturating_sub(now);
                    if wait > 0 {
                        c.stall += wait;
                        self.stats.drains += 1;
                        self.stats.drain_cycles += wait;
                    }
                }
                self.stores.clear();
                self.last_load = None;
            }
            _ => self.last_load = None,
        }
        c
    }
}
