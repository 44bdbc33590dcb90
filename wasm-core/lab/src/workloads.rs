//! The workloads: the seeds' benchmarks as scenarios (docs/lab.md, "The workloads"), their
//! parameters, and the cache geometry an object size implies (v3.10's `calculate_order`,
//! v4.7's `calculate_slab_order`).

use crate::Gate;
use serde::{Deserialize, Serialize};
use slub_sim::scenario::{
    Allocator, CacheConfig, ContextSpec, Op, Scenario, Variant, MAX_CPUS, MAX_NODES,
};

/// The lab's workloads (docs/lab.md, "The workloads").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkloadKind {
    AllocThenFree,
    AllocFree,
    Concurrent,
    FastpathReuse,
    NPattern,
    ProducerConsumer,
}

impl WorkloadKind {
    pub const ALL: &'static [WorkloadKind] = &[
        WorkloadKind::AllocThenFree,
        WorkloadKind::AllocFree,
        WorkloadKind::Concurrent,
        WorkloadKind::FastpathReuse,
        WorkloadKind::NPattern,
        WorkloadKind::ProducerConsumer,
    ];

    pub fn name(self) -> &'static str {
        match self {
            WorkloadKind::AllocThenFree => "alloc-then-free",
            WorkloadKind::AllocFree => "alloc-free",
            WorkloadKind::Concurrent => "concurrent",
            WorkloadKind::FastpathReuse => "fastpath-reuse",
            WorkloadKind::NPattern => "n-pattern",
            WorkloadKind::ProducerConsumer => "producer-consumer",
        }
    }

    pub fn from_name(name: &str) -> Option<WorkloadKind> {
        Self::ALL.iter().copied().find(|w| w.name() == name)
    }

    /// One sentence: what the workload is and whose benchmark it follows.
    pub fn about(self) -> &'static str {
        match self {
            WorkloadKind::AllocThenFree => {
                "Christoph Lameter's slab_test, single thread, test 1: n allocations, then the n frees in order"
            }
            WorkloadKind::AllocFree => {
                "Christoph Lameter's slab_test, single thread, test 2: n times allocate and free the same object"
            }
            WorkloadKind::Concurrent => {
                "slab_test's N*alloc N*free: every CPU allocates n objects, then frees them, all CPUs at once"
            }
            WorkloadKind::FastpathReuse => {
                "Jesper Brouer's time_bench_kmem_cache1 fastpath reuse: allocate and free one object, n times"
            }
            WorkloadKind::NPattern => {
                "Jesper Brouer's alloc+free N-pattern: allocate n objects, free them, `rounds` times"
            }
            WorkloadKind::ProducerConsumer => {
                "hackbench-like asymmetric producer/consumer (SC15): cpu0 allocates and writes a message, the last CPU uses and frees it, at most `window` in flight; `pairs` such pairs at once (cpu p and cpu cpus-1-p)"
            }
        }
    }

    /// The parameter keys the workload reads (every workload also takes `cpus`, `nodes`, `size`).
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            WorkloadKind::NPattern => &["cpus", "nodes", "size", "n", "rounds"],
            WorkloadKind::ProducerConsumer => &["cpus", "nodes", "size", "n", "window", "pairs"],
            _ => &["cpus", "nodes", "size", "n"],
        }
    }

    /// The workload with its default parameters.
    pub fn workload(self) -> Workload {
        let base = Workload {
            kind: self,
            allocator: Allocator::Slub,
            cpus: 1,
            nodes: 1,
            size: 8,
            n: 10_000,
            rounds: 1,
            window: 1,
            pairs: 1,
            api: match self {
                // Christoph Lameter's slab_test calls kmalloc(size) and kfree.
                WorkloadKind::AllocThenFree
                | WorkloadKind::AllocFree
                | WorkloadKind::Concurrent => Api::Kmalloc,
                _ => Api::KmemCache,
            },
            mechs: Mechs::default(),
            warmup: 0,
        };
        match self {
            WorkloadKind::AllocThenFree | WorkloadKind::AllocFree => base,
            WorkloadKind::Concurrent => Workload {
                cpus: 4,
                size: 16,
                n: 2_000,
                ..base
            },
            WorkloadKind::FastpathReuse => Workload {
                size: 64,
                warmup: 1,
                ..base
            },
            WorkloadKind::NPattern => Workload {
                size: 64,
                warmup: 1,
                n: 256,
                rounds: 40,
                ..base
            },
            WorkloadKind::ProducerConsumer => Workload {
                cpus: 2,
                size: 256,
                n: 4_000,
                window: 8,
                ..base
            },
        }
    }
}

/// A workload and its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    pub kind: WorkloadKind,
    /// SLUB, or the SLAB comparison model (model.md Appendix A); set by `--variant allocator=slab`.
    pub allocator: Allocator,
    pub cpus: u32,
    pub nodes: u32,
    /// Object size in bytes (a multiple of 8, at most [`MAX_SIZE`]).
    pub size: u32,
    /// Objects (or pairs, or messages) per CPU and round.
    pub n: u32,
    /// `n-pattern`: how many times the pattern repeats.
    pub rounds: u32,
    /// `producer-consumer`: messages in flight at most.
    pub window: u32,
    /// `producer-consumer`: producer/consumer pairs running at once.
    pub pairs: u32,
    /// Whether the benchmark calls `kmalloc`/`kfree` (slab_test) or `kmem_cache_alloc`/
    /// `kmem_cache_free` on its own cache (Jesper Brouer's benchmarks, the model's messages).
    pub api: Api,
    /// Which of the mechanisms outside the step model the run has (all, unless a study
    /// turns one off to see what it moves).
    pub mechs: Mechs,
    /// Pairs (`alloc-free`, `fastpath-reuse`) or rounds (`n-pattern`) each context runs
    /// before the benchmark's clock starts: their cycles count in no tally. Jesper Brouer's
    /// benchmarks ran 10^8 invocations (seed 004: "invoke count:100000000") and
    /// will-it-scale (case 7.0a) runs for seconds, so what the first allocations cost (a
    /// new slab, a sheaf's first refill, every object's first miss) is a vanishing share of
    /// their figures; of the model's 10^4 pairs, or 50 rounds, it would not be. `fastpath-
    /// reuse` and `n-pattern` have one; slab_test's own count is the model's (10,000).
    pub warmup: u32,
}

/// The Lab's mechanisms outside the step model (`mech`), each of which a run may go without.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mechs {
    /// The zone's lock and the per-CPU page lists instead of a fixed `PAGE_ALLOC`/`PAGE_FREE`.
    pub zone_lock: bool,
    /// kmalloc's size lookup and the free's reads of the object's page.
    pub kmalloc: bool,
    /// Plain stores retire into a store buffer that `LOCK`ed instructions drain.
    pub store_buffer: bool,
    /// Loads of the line the previous load read overlap it (memory-level parallelism).
    pub mlp: bool,
    /// slab_test's concurrent test frees only once every CPU has finished allocating.
    pub barrier: bool,
    /// The workload's warm-up ([`Workload::warmup`]) runs before the clock starts.
    pub warmup: bool,
    /// A `spinlock_t` goes to its waiters in the order they came (ticket and queued
    /// spinlocks); without it, to whichever waiter the driver looks at first.
    pub fifo_locks: bool,
}

impl Default for Mechs {
    fn default() -> Self {
        Mechs {
            zone_lock: true,
            kmalloc: true,
            store_buffer: true,
            mlp: false,
            barrier: true,
            warmup: true,
            fifo_locks: true,
        }
    }
}

/// The interface a benchmark allocates through. `kmalloc` adds the size-to-cache lookup to
/// every allocation, and under SLAB `kfree`'s read of the object's page (`virt_to_cache`);
/// SLUB's `kmem_cache_free` reads that page too (`virt_to_head_page`), so SLUB's frees read
/// it under both (see `mech`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Api {
    Kmalloc,
    KmemCache,
}

impl Api {
    pub fn name(self) -> &'static str {
        match self {
            Api::Kmalloc => "kmalloc",
            Api::KmemCache => "kmem_cache",
        }
    }
}

/// kmalloc sizes above this go to the page allocator in the kernel, not to SLUB.
pub const MAX_SIZE: u32 = 8192;
/// Operations per run at most (a run of this size takes about a second natively).
pub const MAX_OPS: u64 = 2_000_000;

impl Workload {
    /// Set one parameter from text (`size=256`); the error lists the valid keys.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let keys = self.kind.keys();
        if !keys.contains(&key) {
            return Err(format!(
                "workload `{}` has no parameter `{key}`; its parameters are {}",
                self.kind.name(),
                keys.join(", ")
            ));
        }
        let v: u32 = value
            .parse()
            .map_err(|_| format!("parameter `{key}`: `{value}` is not a whole number"))?;
        match key {
            "cpus" => self.cpus = v,
            "nodes" => self.nodes = v,
            "size" => self.size = v,
            "n" => self.n = v,
            "rounds" => self.rounds = v,
            "window" => self.window = v,
            "pairs" => self.pairs = v,
            _ => unreachable!("listed key"),
        }
        Ok(())
    }

    /// The ranges every parameter must respect.
    pub fn check(&self) -> Result<(), String> {
        let name = self.kind.name();
        let min_cpus = if self.kind == WorkloadKind::ProducerConsumer {
            2
        } else {
            1
        };
        if self.cpus < min_cpus || self.cpus > MAX_CPUS {
            return Err(format!(
                "{name}: cpus must be {min_cpus} to {MAX_CPUS}, not {}",
                self.cpus
            ));
        }
        if self.nodes < 1 || self.nodes > MAX_NODES.min(self.cpus) {
            return Err(format!(
                "{name}: nodes must be 1 to {} (at most one per CPU), not {}",
                MAX_NODES.min(self.cpus),
                self.nodes
            ));
        }
        if self.size < 8 || self.size > MAX_SIZE || !self.size.is_multiple_of(8) {
            return Err(format!(
                "{name}: size must be a multiple of 8 from 8 to {MAX_SIZE} bytes (larger kmallocs bypass SLUB), not {}",
                self.size
            ));
        }
        if self.n < 1 || self.rounds < 1 || self.window < 1 || self.pairs < 1 {
            return Err(format!(
                "{name}: n, rounds, window and pairs must be at least 1"
            ));
        }
        if self.kind == WorkloadKind::ProducerConsumer && 2 * self.pairs > self.cpus {
            return Err(format!(
                "{name}: {} pairs need {} CPUs (one producer and one consumer CPU each), not {}",
                self.pairs,
                2 * self.pairs,
                self.cpus
            ));
        }
        if self.ops() > MAX_OPS {
            return Err(format!(
                "{name}: {} operations is more than the lab runs ({MAX_OPS})",
                self.ops()
            ));
        }
        Ok(())
    }

    /// The warm-up pairs or rounds the run has (none when a study turns them off).
    fn warmup_runs(&self) -> u32 {
        if self.mechs.warmup {
            self.warmup
        } else {
            0
        }
    }

    /// The ops of each context that run before the clock starts ([`Workload::warmup`]).
    pub fn warmup_ops(&self) -> usize {
        let per = match self.kind {
            WorkloadKind::AllocFree | WorkloadKind::FastpathReuse => 2,
            WorkloadKind::NPattern => 2 * self.n as usize,
            _ => 0,
        };
        per * self.warmup_runs() as usize
    }

    /// Allocations plus frees the workload performs.
    pub fn ops(&self) -> u64 {
        let n = u64::from(self.n);
        match self.kind {
            WorkloadKind::Concurrent => 2 * n * u64::from(self.cpus),
            WorkloadKind::NPattern => 2 * n * u64::from(self.rounds + self.warmup_runs()),
            WorkloadKind::ProducerConsumer => 2 * n * u64::from(self.pairs),
            WorkloadKind::AllocFree | WorkloadKind::FastpathReuse => {
                2 * (n + u64::from(self.warmup_runs()))
            }
            _ => 2 * n,
        }
    }

    /// Objects per slab and page order, as v3.10's `calculate_order` picks them (no debug
    /// metadata, `slub_max_order` = 3, `slub_min_objects` derived from the CPU count).
    pub fn geometry(&self) -> (u32, u32) {
        match self.allocator {
            // Linux 7.0 kept `calculate_order`.
            Allocator::Slub | Allocator::Sheaves => slab_geometry(self.size, self.cpus),
            Allocator::Slab => slab_geometry_slab(self.size),
        }
    }

    /// The cache the workload allocates from.
    pub fn cache(&self) -> CacheConfig {
        let (order, objects) = self.geometry();
        let size = self.size;
        // v3.10 `kmem_cache_open`: min_partial = ilog2(size) / 2 within [5, 10] ...
        let min_partial = (31 - size.leading_zeros()) / 2;
        // ... and the CPU partial budget by size.
        let cpu_partial = if size >= 4096 {
            2
        } else if size >= 1024 {
            6
        } else if size >= 256 {
            13
        } else {
            30
        };
        CacheConfig {
            name: format!("kmalloc-{size} (order {order})"),
            object_size: size,
            objects_per_slab: objects,
            offset: 0,
            min_partial: min_partial.clamp(5, 10),
            cpu_partial,
            page_alloc_fail: false,
            // SLAB: `enable_cpucache`'s tunables for the size (`Scenario::slab_tunables`).
            limit: None,
            batchcount: None,
            shared: None,
            // Linux 7.0: the kernel's sheaf capacity and barn limits for the size.
            sheaf_capacity: None,
            max_full_sheaves: None,
            max_empty_sheaves: None,
        }
    }

    /// The scenario and the driver's gates (see [`Gate`]).
    pub fn build(&self, variant: &Variant) -> (Scenario, Vec<Gate>) {
        let alloc = |v: String| Op::Alloc { var: v, node: None };
        let free = |v: String| Op::Free { var: v };
        let touch = |v: String| Op::Touch { var: v };
        let mut tasks = Vec::new();
        let mut gates = Vec::new();
        let n = self.n;
        match self.kind {
            WorkloadKind::AllocThenFree => {
                let mut ops: Vec<Op> = (0..n).map(|i| alloc(format!("x{i}"))).collect();
                ops.extend((0..n).map(|i| free(format!("x{i}"))));
                tasks.push(task("T0", 0, ops));
            }
            WorkloadKind::AllocFree | WorkloadKind::FastpathReuse => {
                // The warm-up pairs come first, on top of the n measured ones.
                let ops = (0..n + self.warmup_runs())
                    .flat_map(|i| [alloc(format!("x{i}")), free(format!("x{i}"))])
                    .collect();
                tasks.push(task("T0", 0, ops));
            }
            WorkloadKind::NPattern => {
                let mut ops = Vec::new();
                for r in 0..self.rounds + self.warmup_runs() {
                    ops.extend((0..n).map(|i| alloc(format!("r{r}x{i}"))));
                    ops.extend((0..n).map(|i| free(format!("r{r}x{i}"))));
                }
                tasks.push(task("T0", 0, ops));
            }
            WorkloadKind::Concurrent => {
                for k in 0..self.cpus {
                    let mut ops: Vec<Op> = (0..n).map(|i| alloc(format!("c{k}x{i}"))).collect();
                    ops.extend((0..n).map(|i| free(format!("c{k}x{i}"))));
                    tasks.push(task(&format!("T{k}"), k, ops));
                }
                // slab_test's `do_concurrent_test` starts the frees (phase 2) only once every
                // CPU has finished its allocations (`phase1_complete`, then `completion2`):
                // no CPU's free may begin before every CPU's last allocation is done.
                let n = n as usize;
                let cpus = if self.mechs.barrier { self.cpus } else { 0 };
                for k in 0..cpus as usize {
                    for j in 0..self.cpus as usize {
                        if j != k {
                            gates.push(Gate {
                                ctx: k,
                                op: n,
                                after_ctx: j,
                                after_op: n - 1,
                            });
                        }
                    }
                }
            }
            WorkloadKind::ProducerConsumer => {
                // Pair p: P allocates m_i and writes it; C uses m_i and frees it.
                let w = self.window as usize;
                for pair in 0..self.pairs {
                    let tag = if pair == 0 {
                        String::new()
                    } else {
                        pair.to_string()
                    };
                    let m = |i: u32| format!("m{tag}_{i}");
                    let p = (0..n).flat_map(|i| [alloc(m(i)), touch(m(i))]).collect();
                    let c = (0..n).flat_map(|i| [touch(m(i)), free(m(i))]).collect();
                    let (pc, cc) = (tasks.len(), tasks.len() + 1);
                    tasks.push(task(&format!("P{tag}"), pair, p));
                    tasks.push(task(&format!("C{tag}"), self.cpus - 1 - pair, c));
                    for i in 0..n as usize {
                        // The consumer takes message i once the producer has written it.
                        gates.push(Gate {
                            ctx: cc,
                            op: 2 * i,
                            after_ctx: pc,
                            after_op: 2 * i + 1,
                        });
                        // The producer sleeps while `window` messages are in flight.
                        if i >= w {
                            gates.push(Gate {
                                ctx: pc,
                                op: 2 * i,
                                after_ctx: cc,
                                after_op: 2 * (i - w) + 1,
                            });
                        }
                    }
                }
            }
        }
        let sc = Scenario {
            schema_version: 1,
            name: format!("lab: {}", self.kind.name()),
            allocator: self.allocator,
            cpus: self.cpus,
            nodes: self.nodes,
            cache: self.cache(),
            variant: variant.clone(),
            setup: Vec::new(),
            tasks,
            irqs: Vec::new(),
            schedule: None,
        };
        (sc, gates)
    }
}

fn task(id: &str, cpu: u32, ops: Vec<Op>) -> ContextSpec {
    ContextSpec {
        id: id.to_string(),
        cpu,
        ops,
    }
}

/// `fls`: the 1-based index of the highest set bit (0 for 0).
fn fls(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// v3.10 `calculate_order` for a cache without debug metadata: (order, objects per slab).
pub fn slab_geometry(size: u32, cpus: u32) -> (u32, u32) {
    const PAGE_SHIFT: u32 = 12;
    const MAX_ORDER: u32 = 3; // slub_max_order = PAGE_ALLOC_COSTLY_ORDER
    let size = u64::from(size);
    let objects = |order: u32| ((4096u64 << order) / size) as u32;
    let mut min_objects = 4 * (fls(u64::from(cpus)) + 1);
    min_objects = min_objects.min(objects(MAX_ORDER));
    while min_objects > 1 {
        let mut fraction = 16u64;
        while fraction >= 4 {
            // slab_order(size, min_objects, MAX_ORDER, fraction)
            let start = fls(u64::from(min_objects) * size - 1).saturating_sub(PAGE_SHIFT);
            for order in start..=MAX_ORDER {
                let slab = 4096u64 << order;
                if slab < u64::from(min_objects) * size {
                    continue;
                }
                if slab % size <= slab / fraction {
                    return (order, objects(order));
                }
            }
            fraction /= 2;
        }
        min_objects -= 1;
    }
    // One object per slab: the smallest order that holds it.
    let order = (0..=MAX_ORDER)
        .find(|&o| objects(o) >= 1)
        .unwrap_or(MAX_ORDER);
    (order, objects(order).max(1))
}

/// SLAB's (order, objects per slab) for a kmalloc cache of `size` bytes, as v4.7's
/// `calculate_slab_order` ends up for caches without a constructor: order 0 up to a page
/// (order 1 for 8 KiB); the index-array freelist lives in a free object when it fits there
/// (`OBJFREELIST_SLAB`: `num` indices of one byte no larger than the object), else on the
/// slab beside the objects (one byte per object taken from the page).
pub fn slab_geometry_slab(size: u32) -> (u32, u32) {
    let order = if size > 4096 { 1 } else { 0 };
    let bytes = 4096u32 << order;
    let num = bytes / size;
    if num <= size {
        (order, num.max(1))
    } else {
        (order, bytes / (size + 1))
    }
}
