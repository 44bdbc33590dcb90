//! The machine's configuration: the immutable facts a scenario fixes once (contexts,
//! variables, ops resolved to indices, each CPU's node, the allocator's layout of cache lines,
//! the cost of each constant) and the line arithmetic of the fixed structures over them.

use super::cost;
use super::state::{CtxId, IOp};
use crate::scenario::{Allocator, Op, Scenario};

/// Immutable facts derived from the scenario once.
#[derive(Clone, Debug)]
pub struct Config {
    pub sc: Scenario,
    pub cpus: usize,
    pub tid_step: u64,
    pub objects: u32,
    pub size: u64,
    pub offset: u64,
    /// Cache lines an object page spans (`objects * size / 64`, rounded up).
    pub obj_lines: u32,
    /// Context ids in scenario order: tasks then irqs, then the hidden setup context.
    pub n_ctx: usize,
    pub ctx_ids: Vec<String>,
    pub var_names: Vec<String>,
    /// Each context's operations (tasks, irqs, then setup), as written and resolved.
    pub src_ops: Vec<Vec<crate::scenario::Op>>,
    pub ops: Vec<Vec<IOp>>,
    pub cpu_node: Vec<u32>,
    /// The allocator's geometry and tunables (`Layout`, below: SLAB's arrays, 7.0's sheaves).
    pub layout: Layout,
    /// Lines per CPU structure and after each node's line, as the layout says
    /// (`Layout::cpu_lines`, `node_extra_lines`), kept here for the line arithmetic.
    pub cpu_lines: u32,
    pub node_extra_lines: u32,
    /// The cycles each constant of the cost table charges (`cost::TABLE`'s unless the Lab
    /// moves one, `Machine::with_costs`).
    pub costs: cost::Costs,
    /// Whether a task tunes (SLAB's `tune` op): the lockless refill then loads `n->shared` and
    /// reads `avail` through it in two steps, and the view names the arrays.
    pub tunes: bool,
}

impl Config {
    /// The facts of `sc`, derived once: contexts, variables and ops resolved to indices,
    /// each CPU's node, and the allocator's layout of cache lines (asked of the seam).
    pub fn from_scenario(sc: Scenario) -> Config {
        let cpus = sc.cpus as usize;
        let objects = sc.cache.objects_per_slab;
        let size = sc.cache.object_size as u64;
        // Two u32 factors: the product fits a u64.
        let obj_lines = (u64::from(objects).saturating_mul(size)).div_ceil(64) as u32;
        let mut ctx_ids: Vec<String> = sc
            .tasks
            .iter()
            .chain(sc.irqs.iter())
            .map(|c| c.id.clone())
            .collect();
        let n_ctx = ctx_ids.len();
        ctx_ids.push("(setup)".into());
        let mut var_names: Vec<String> = Vec::new();
        let all_ops = sc.setup.iter().map(|s| &s.op).chain(
            sc.tasks
                .iter()
                .chain(sc.irqs.iter())
                .flat_map(|c| c.ops.iter()),
        );
        let mut seen = std::collections::HashSet::new();
        for op in all_ops {
            if let Op::Alloc { var, .. } = op {
                if seen.insert(var.clone()) {
                    var_names.push(var.clone());
                }
            }
        }
        let cpu_node = (0..sc.cpus).map(|k| sc.node_of_cpu(k)).collect();
        let mut src_ops: Vec<Vec<Op>> = sc
            .tasks
            .iter()
            .chain(sc.irqs.iter())
            .map(|c| c.ops.clone())
            .collect();
        src_ops.push(sc.setup.iter().map(|s| s.op.clone()).collect());
        // Each op with its variable resolved to an index; the names no `alloc` binds, apart.
        let resolve = |var_names: &[String]| {
            let by_name: std::collections::HashMap<&str, usize> = var_names
                .iter()
                .enumerate()
                .map(|(i, v)| (v.as_str(), i))
                .collect();
            let mut unbound: Vec<String> = Vec::new();
            let mut index = |name: &str| match by_name.get(name) {
                Some(&i) => i,
                None => {
                    unbound.push(name.to_string());
                    0
                }
            };
            let ops: Vec<Vec<IOp>> = src_ops
                .iter()
                .map(|list| {
                    list.iter()
                        .map(|op| match op {
                            Op::Alloc { var, node } => IOp::Alloc {
                                var: index(var),
                                node: *node,
                            },
                            Op::Free { var } => IOp::Free { var: index(var) },
                            Op::Touch { var } => IOp::Touch { var: index(var) },
                            Op::Flush { target } => IOp::Flush { target: *target },
                            Op::Tune => IOp::Tune,
                        })
                        .collect()
                })
                .collect();
            (ops, unbound)
        };
        let (mut ops, unbound) = resolve(&var_names);
        if !unbound.is_empty() {
            // Every variable a valid scenario frees or touches is bound by an `alloc`
            // (`scenario::validate`). One that is not (a workload built in code) becomes a
            // variable no `alloc` binds: its `free` waits for ever and the run ends in DEADLOCK.
            for name in unbound {
                if !var_names.contains(&name) {
                    var_names.push(name);
                }
            }
            ops = resolve(&var_names).0;
        }
        // The allocator's geometry, as the seam answers it.
        let layout = Layout::of(&sc);
        let (cpu_lines, node_extra_lines) = (layout.cpu_lines(), layout.node_extra_lines());
        Config {
            costs: cost::Costs::default(),
            layout,
            cpu_lines,
            node_extra_lines,
            n_ctx,
            src_ops,
            ops,
            tid_step: sc.tid_step(),
            tunes: sc.has_tune(),
            cpus,
            objects,
            size,
            offset: sc.cache.offset as u64,
            obj_lines,
            ctx_ids,
            var_names,
            cpu_node,
            sc,
        }
    }

    pub fn line_kc(&self) -> u32 {
        0
    }
    /// `CC(k)`: CPU k's `kmem_cache_cpu` (SLAB: the header of its `array_cache`).
    // Line numbers of the fixed structures stay small: at most `MAX_CPUS` CPUs and
    // `MAX_NODES` nodes, a SLAB array of at most `MAX_SLAB_LIMIT` entries
    // (`scenario::validate`; the Lab's workloads stay within the same limits).
    #[allow(clippy::arithmetic_side_effects)]
    pub fn line_cc(&self, cpu: u32) -> u32 {
        1 + cpu * self.cpu_lines
    }
    /// `ND(n)`: node n's `kmem_cache_node` (SLAB: its shared array's lines follow).
    #[allow(clippy::arithmetic_side_effects)] // as `line_cc`
    pub fn line_nd(&self, node: u32) -> u32 {
        1 + self.cpus as u32 * self.cpu_lines + node * (1 + self.node_extra_lines)
    }
    pub fn static_lines(&self) -> u32 {
        self.line_nd(self.sc.nodes)
    }

    /// Context `cx`'s ops (none for an id that names no context).
    pub fn ops_of(&self, cx: CtxId) -> &[IOp] {
        self.ops.get(cx as usize).map_or(&[], |ops| ops)
    }
}

/// The allocator's geometry and tunables, fixed when the cache is created: how many cache
/// lines its per-CPU structure takes and how many follow each node's line (`Config::line_cc`,
/// `line_nd`), and what its own code reads of its layout.
#[derive(Clone, Debug)]
pub enum Layout {
    /// SLUB: a `kmem_cache_cpu` line per CPU; a node is its `kmem_cache_node` line alone.
    Slub,
    /// SLAB's tunables and line layout: a CPU's `array_cache` is a header and its entries, a
    /// node's shared array follows its line.
    Slab(SlabLayout),
    /// Linux 7.0's sheaf geometry: a `slub_percpu_sheaves` line per CPU, a barn line after
    /// each node's.
    Sheaves(SheafLayout),
}

impl Layout {
    /// The layout of the scenario's allocator (its tunables).
    pub fn of(sc: &crate::Scenario) -> Layout {
        match sc.allocator {
            Allocator::Slub => Layout::Slub,
            Allocator::Slab => Layout::Slab(SlabLayout::of(sc)),
            Allocator::Sheaves => {
                let (capacity, max_full, max_empty) = sc.sheaf_tunables();
                Layout::Sheaves(SheafLayout::new(capacity, max_full, max_empty))
            }
        }
    }

    /// Lines per CPU structure (`kmem_cache_cpu`: 1; SLAB's `array_cache`: header + entries;
    /// 7.0's `slub_percpu_sheaves`: 1).
    pub fn cpu_lines(&self) -> u32 {
        match self {
            Layout::Slub | Layout::Sheaves(_) => 1,
            Layout::Slab(l) => l.ac_lines,
        }
    }

    /// Lines after each node's line (SLAB's shared array; 7.0's barn: 1; SLUB: 0).
    pub fn node_extra_lines(&self) -> u32 {
        match self {
            Layout::Slub => 0,
            Layout::Slab(l) => l.sh_lines,
            Layout::Sheaves(_) => 1,
        }
    }

    /// SLAB's layout, under SLAB.
    pub fn slab(&self) -> Option<&SlabLayout> {
        match self {
            Layout::Slab(l) => Some(l),
            _ => None,
        }
    }

    /// Linux 7.0's sheaf geometry, under 7.0.
    pub fn sheaf(&self) -> Option<&SheafLayout> {
        match self {
            Layout::Sheaves(l) => Some(l),
            _ => None,
        }
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

/// The cache's sheaf geometry, fixed at creation.
#[derive(Clone, Debug)]
pub struct SheafLayout {
    pub capacity: u32,
    pub max_full: u32,
    pub max_empty: u32,
    /// A sheaf's cache lines: a 32-byte header with `objects[0..3]`, then 8 pointers a line
    /// (model.md C.2.3).
    pub lines: u32,
}

impl SheafLayout {
    pub fn new(capacity: u32, max_full: u32, max_empty: u32) -> SheafLayout {
        SheafLayout {
            capacity,
            max_full,
            max_empty,
            lines: capacity.saturating_sub(4).div_ceil(8).saturating_add(1),
        }
    }
}
