//! The machine's configuration: the immutable facts a scenario fixes once (contexts,
//! variables, ops resolved to indices, each CPU's node, the allocator's layout of cache lines,
//! the cost of each constant) and the line arithmetic of the fixed structures over them.

use super::state::{CtxId, IOp};
use super::{allocator, cost};
use crate::scenario::{Op, Scenario};

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
    /// The allocator's geometry and tunables (`allocator::Layout`: SLAB's arrays, 7.0's
    /// sheaves), asked of the allocator seam.
    pub layout: allocator::Layout,
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
        let layout = super::allocator::Layout::of(&sc);
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
    /// The index of the variable `name`, if the scenario has one.
    pub fn var_index(&self, name: &str) -> Option<usize> {
        self.var_names.iter().position(|v| v == name)
    }

    /// Context `cx`'s ops (none for an id that names no context).
    pub fn ops_of(&self, cx: CtxId) -> &[IOp] {
        self.ops.get(cx as usize).map_or(&[], |ops| ops)
    }
}
