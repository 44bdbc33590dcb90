//! The second check of a scenario ([`validate`]): what types cannot say. Ranges, ids, CPUs and
//! nodes that exist, variables bound once and freed once, CPUs flushed as dead that run
//! nothing more, and schedule moves that name a context. It also checks scenarios built in
//! code (the Lab's workloads), not only parsed ones.

use super::cache::validate_cache;
use super::limits::*;
use super::{Allocator, ContextSpec, Op, Scenario, ScenarioError};

fn is_context_id(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn is_var_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Which op list an op is in: setup (runs first, in order), or a task's or an irq's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum List {
    Setup,
    Task(usize),
    Irq(usize),
}

#[derive(Clone, Copy, Debug)]
struct Loc {
    list: List,
    index: usize,
}

impl Loc {
    fn path(self) -> String {
        match self.list {
            List::Setup => format!("setup[{}]", self.index),
            List::Task(t) => format!("tasks[{t}].ops[{}]", self.index),
            List::Irq(t) => format!("irqs[{t}].ops[{}]", self.index),
        }
    }
}

/// Every op of the scenario in document order (setup, tasks, irqs) with its location.
fn all_ops(s: &Scenario) -> Vec<(Loc, &Op)> {
    let mut out = Vec::new();
    for (i, op) in s.setup.iter().enumerate() {
        out.push((
            Loc {
                list: List::Setup,
                index: i,
            },
            &op.op,
        ));
    }
    for (t, c) in s.tasks.iter().enumerate() {
        for (j, op) in c.ops.iter().enumerate() {
            out.push((
                Loc {
                    list: List::Task(t),
                    index: j,
                },
                op,
            ));
        }
    }
    for (t, c) in s.irqs.iter().enumerate() {
        for (j, op) in c.ops.iter().enumerate() {
            out.push((
                Loc {
                    list: List::Irq(t),
                    index: j,
                },
                op,
            ));
        }
    }
    out
}

/// The semantic checks types cannot express: ranges, ids, CPUs and nodes that exist,
/// variables bound by exactly one alloc and freed at most once, schedule moves that name
/// existing contexts. (Whether a move is *enabled* is the model's business at run time.)
pub fn validate(s: &Scenario) -> Result<(), ScenarioError> {
    if s.schema_version != 1 {
        return Err(ScenarioError::new(
            "schemaVersion",
            format!(
                "unsupported schema version {}: this build reads version 1",
                s.schema_version
            ),
        ));
    }
    check_range("cpus", s.cpus, 1, MAX_CPUS, cpus_expected)?;
    check_range("nodes", s.nodes, 1, s.cpus.min(MAX_NODES), || {
        nodes_expected(s.cpus)
    })?;
    validate_cache(&s.cache)?;
    if let Some(c) = s.cache.sheaf_capacity {
        // 0 is the kernel's "no sheaves" (`cache_has_sheaves()` false): every operation
        // takes the slab paths.
        check_range("cache.sheafCapacity", c, 0, MAX_SHEAF_CAPACITY, || {
            upto(MAX_SHEAF_CAPACITY)
        })?;
    }
    for (path, v) in [
        ("cache.maxFullSheaves", s.cache.max_full_sheaves),
        ("cache.maxEmptySheaves", s.cache.max_empty_sheaves),
    ] {
        if let Some(v) = v {
            check_range(path, v, 0, MAX_BARN_SHEAVES, || upto(MAX_BARN_SHEAVES))?;
        }
    }
    if s.allocator == Allocator::Slab {
        let (limit, batch, shared) = s.slab_tunables();
        check_range("cache.limit", limit, 1, MAX_SLAB_LIMIT, || {
            upto(MAX_SLAB_LIMIT)
        })?;
        if batch == 0 || batch > limit {
            return Err(ScenarioError::new(
                "cache.batchcount",
                format!("{batch} is out of range: expected 1 to the limit ({limit})"),
            ));
        }
        if shared.checked_mul(batch).is_none_or(|n| n > MAX_SLAB_LIMIT) {
            return Err(ScenarioError::new(
                "cache.shared",
                format!(
                    "a shared array of {shared} x {batch} objects is more than {MAX_SLAB_LIMIT}"
                ),
            ));
        }
    }
    if let Some(n) = s.variant.tid_step {
        if n == 0 || n > MAX_TID_STEP || !n.is_power_of_two() {
            return Err(ScenarioError::new(
                "variant.tidStep",
                tid_step_message(i64::try_from(n).unwrap_or(i64::MAX)),
            ));
        }
    }

    // Sizes of the op lists and contexts.
    if s.setup.len() > MAX_SETUP_OPS {
        return Err(ScenarioError::new(
            "setup",
            format!(
                "{} setup ops: at most {MAX_SETUP_OPS} are allowed",
                s.setup.len()
            ),
        ));
    }
    if s.tasks.is_empty() {
        return Err(ScenarioError::new(
            "tasks",
            "a scenario needs at least one task",
        ));
    }
    if s.tasks.len() > MAX_TASKS {
        return Err(ScenarioError::new(
            "tasks",
            format!("{} tasks: at most {MAX_TASKS} are allowed", s.tasks.len()),
        ));
    }
    if s.irqs.len() > MAX_IRQS {
        return Err(ScenarioError::new(
            "irqs",
            format!(
                "{} interrupt handlers: at most {MAX_IRQS} are allowed",
                s.irqs.len()
            ),
        ));
    }

    // CPUs of setup ops.
    for (i, op) in s.setup.iter().enumerate() {
        check_cpu(&format!("setup[{i}].cpu"), op.cpu, s.cpus)?;
    }

    // Contexts: ids, CPUs, op counts.
    let mut seen: Vec<(&str, String)> = Vec::new();
    for (list, contexts) in [("tasks", &s.tasks), ("irqs", &s.irqs)] {
        for (i, c) in contexts.iter().enumerate() {
            let path = format!("{list}[{i}]");
            let id_path = format!("{path}.id");
            if c.id.is_empty() {
                return Err(ScenarioError::new(
                    id_path,
                    "a context id must not be empty",
                ));
            }
            if c.id.chars().count() > MAX_NAME_LEN {
                return Err(ScenarioError::new(
                    id_path,
                    format!(
                        "context id of {} characters: at most {MAX_NAME_LEN}",
                        c.id.chars().count()
                    ),
                ));
            }
            if !is_context_id(&c.id) {
                return Err(ScenarioError::new(
                    id_path,
                    format!(
                        "bad context id `{}`: it must start with a letter and contain only letters, digits and `_`",
                        c.id
                    ),
                ));
            }
            if c.id == "migrate" {
                return Err(ScenarioError::new(
                    id_path,
                    "`migrate` is reserved for migration moves (`migrate:<task>:<cpu>`)",
                ));
            }
            if let Some((_, first)) = seen.iter().find(|(id, _)| *id == c.id) {
                return Err(ScenarioError::new(
                    id_path,
                    format!(
                        "duplicate context id `{}` (first used at {first}); ids are unique across tasks and irqs",
                        c.id
                    ),
                ));
            }
            seen.push((&c.id, id_path));
            check_cpu(&format!("{path}.cpu"), c.cpu, s.cpus)?;
            if c.ops.len() > MAX_CONTEXT_OPS {
                return Err(ScenarioError::new(
                    format!("{path}.ops"),
                    format!(
                        "{} ops: a context has at most {MAX_CONTEXT_OPS}",
                        c.ops.len()
                    ),
                ));
            }
        }
    }

    let ops = all_ops(s);

    // Per-op checks: names, nodes, flush targets.
    for (loc, op) in &ops {
        let path = loc.path();
        match op {
            Op::Alloc { var, node } => {
                check_var_name(&path, var)?;
                if let Some(n) = node {
                    if *n >= s.nodes {
                        return Err(ScenarioError::new(
                            format!("{path}.node"),
                            out_of_range(i64::from(*n), &node_expected(s.nodes)),
                        ));
                    }
                }
            }
            Op::Free { var } | Op::Touch { var } => check_var_name(&path, var)?,
            Op::Tune => check_tune(s, *loc)?,
            Op::Flush { target } => {
                if let Some(t) = target {
                    check_cpu(&format!("{path}.target"), *t, s.cpus)?;
                    // Hotplug: the target CPU is dead; the context flushing it cannot be one
                    // of its own (it would wait for itself to finish).
                    let own = match loc.list {
                        List::Setup => s.setup.get(loc.index).map(|o| o.cpu),
                        List::Task(i) => s.tasks.get(i).map(|c| c.cpu),
                        List::Irq(i) => s.irqs.get(i).map(|c| c.cpu),
                    };
                    if own == Some(*t) {
                        return Err(ScenarioError::new(
                            format!("{path}.target"),
                            format!(
                                "cpu{t} is this context's own CPU: a flush with `target` is a \
                                 survivor flushing a dead CPU; use `flush` without `target` \
                                 to flush the own CPU"
                            ),
                        ));
                    }
                }
            }
        }
    }

    validate_offline(s, &ops)?;
    validate_variables(&ops)?;
    validate_schedule(s)?;
    Ok(())
}

/// `tune` is SLAB's `do_tune_cpucache` (a write to `/proc/slabinfo`): it replaces a node's
/// shared array and then waits in `synchronize_sched()`, so only SLAB has it and only a task
/// can run it (an interrupt handler cannot sleep; setup runs alone, so a replacement there
/// has no reader to race and shows nothing).
fn check_tune(s: &Scenario, loc: Loc) -> Result<(), ScenarioError> {
    let path = format!("{}.op", loc.path());
    if s.allocator != Allocator::Slab {
        let name = match s.allocator {
            Allocator::Sheaves => "Linux 7.0's sheaves (\"era\": \"v7.0\")",
            _ => "SLUB",
        };
        return Err(ScenarioError::new(
            path,
            format!(
                "op `tune` is SLAB's do_tune_cpucache (the replacement of a node's shared \
                 array); {name} has no shared array: use \"allocator\": \"slab\""
            ),
        ));
    }
    match loc.list {
        List::Task(_) => Ok(()),
        List::Irq(_) => Err(ScenarioError::new(
            path,
            "op `tune` runs in a task: do_tune_cpucache sleeps in synchronize_sched(), which \
             an interrupt handler cannot",
        )),
        List::Setup => Err(ScenarioError::new(
            path,
            "op `tune` in setup replaces the shared array while nothing else runs, so no \
             reader can race it: put it in a task",
        )),
    }
}

/// What a flush with `target` means for later operations. It models CPU hotplug
/// (`slub_cpu_dead`, SLAB's `cpuup_canceled`): the target CPU went down and a survivor drains
/// what it left. The model does not bring a CPU back online, so nothing may run on the
/// target afterwards, and every operation that would is refused here with its place
/// instead of waiting forever at run time:
/// - a setup op on a CPU an earlier setup op flushed as dead;
/// - a task or interrupt handler on a CPU that setup flushed as dead (they run after setup);
/// - two contexts that flush each other's CPUs as dead (each flush waits until the other
///   CPU's contexts have finished, so neither ever runs).
///
/// Contexts of the tasks and irqs cannot reach a dead CPU either: the flush waits until every
/// context on the target has finished, and the executor refuses a migration onto it.
fn validate_offline(s: &Scenario, ops: &[(Loc, &Op)]) -> Result<(), ScenarioError> {
    let target = |op: &Op| match op {
        Op::Flush { target } => *target,
        _ => None,
    };
    // Setup runs in order: each op sees the CPUs flushed as dead before it.
    let mut dead: Vec<(u32, usize)> = Vec::new();
    for (i, op) in s.setup.iter().enumerate() {
        if let Some(&(_, j)) = dead.iter().find(|(k, _)| *k == op.cpu) {
            return Err(ScenarioError::new(
                format!("setup[{i}]"),
                format!(
                    "cpu{} is offline: setup[{j}] flushed it as dead, and a dead CPU runs \
                     nothing more (the model does not bring a CPU back online)",
                    op.cpu
                ),
            ));
        }
        if let Some(t) = target(&op.op) {
            dead.push((t, i));
        }
    }
    for (list, contexts) in [("tasks", &s.tasks), ("irqs", &s.irqs)] {
        for (i, c) in contexts.iter().enumerate() {
            if let Some(&(_, j)) = dead.iter().find(|(k, _)| *k == c.cpu) {
                return Err(ScenarioError::new(
                    format!("{list}[{i}].cpu"),
                    format!(
                        "cpu{} is offline: setup[{j}] flushed it as dead before `{}` could \
                         run there (a dead CPU runs nothing more)",
                        c.cpu, c.id
                    ),
                ));
            }
        }
    }
    // A context on CPU a flushing b, while a context on b flushes a: a deadlock by
    // construction, whatever the schedule.
    let cpu_of = |loc: &Loc| match loc.list {
        List::Setup => None,
        List::Task(t) => s.tasks.get(t).map(|c| c.cpu),
        List::Irq(t) => s.irqs.get(t).map(|c| c.cpu),
    };
    for (la, a) in ops {
        let (Some(ca), Some(ta)) = (cpu_of(la), target(a)) else {
            continue;
        };
        for (lb, b) in ops {
            if cpu_of(lb) == Some(ta) && target(b) == Some(ca) {
                return Err(ScenarioError::new(
                    format!("{}.target", lb.path()),
                    format!(
                        "cpu{ca} is flushed as dead here while {} (on cpu{ca}) flushes \
                         cpu{ta}: each flush waits until the other CPU's contexts have \
                         finished, so neither could ever run",
                        la.path()
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn check_cpu(path: &str, cpu: u32, cpus: u32) -> Result<(), ScenarioError> {
    if cpu >= cpus {
        Err(ScenarioError::new(
            path,
            out_of_range(i64::from(cpu), &cpu_expected(cpus)),
        ))
    } else {
        Ok(())
    }
}

fn check_var_name(op_path: &str, var: &str) -> Result<(), ScenarioError> {
    if var.chars().count() > MAX_NAME_LEN {
        return Err(ScenarioError::new(
            format!("{op_path}.var"),
            format!(
                "variable name of {} characters: at most {MAX_NAME_LEN}",
                var.chars().count()
            ),
        ));
    }
    if is_var_name(var) {
        Ok(())
    } else {
        Err(ScenarioError::new(
            format!("{op_path}.var"),
            format!(
                "bad variable name `{var}`: it must start with a letter or `_` and contain only letters, digits and `_`"
            ),
        ))
    }
}

/// Every variable is bound by exactly one alloc; frees and touches name a bound variable; a
/// variable is freed at most once; what runs in a known order (setup, then each op list on its
/// own) never uses a variable before its alloc or touches it after its free.
fn validate_variables(ops: &[(Loc, &Op)]) -> Result<(), ScenarioError> {
    use std::collections::HashMap;
    let mut bound: HashMap<&str, Loc> = HashMap::new();
    for (loc, op) in ops {
        if let Op::Alloc { var, .. } = op {
            if let Some(first) = bound.get(var.as_str()) {
                return Err(ScenarioError::new(
                    format!("{}.var", loc.path()),
                    format!(
                        "variable `{var}` is bound twice (first by the alloc at {}): each variable is bound by exactly one alloc",
                        first.path()
                    ),
                ));
            }
            bound.insert(var, *loc);
        }
    }
    let mut freed: HashMap<&str, Loc> = HashMap::new();
    for (loc, op) in ops {
        let (var, what) = match op {
            Op::Free { var } => (var.as_str(), "free"),
            Op::Touch { var } => (var.as_str(), "touch"),
            _ => continue,
        };
        let path = format!("{}.var", loc.path());
        let Some(alloc) = bound.get(var) else {
            return Err(ScenarioError::new(
                path,
                format!("unbound variable `{var}`: no alloc in the scenario binds it"),
            ));
        };
        // Setup runs to completion, in order, before anything else: its ops may only use
        // what setup has already allocated. Within one op list, order is program order.
        let before_alloc = if loc.list == List::Setup {
            alloc.list != List::Setup || alloc.index > loc.index
        } else {
            alloc.list == loc.list && alloc.index > loc.index
        };
        if before_alloc {
            let why = if loc.list == List::Setup && alloc.list != List::Setup {
                "setup runs before every task and irq"
            } else {
                "ops of one list run in order"
            };
            return Err(ScenarioError::new(
                path,
                format!(
                    "`{what}` of variable `{var}` before its alloc at {} ({why})",
                    alloc.path()
                ),
            ));
        }
        // Used after its free, where the order is certain: the same list, or freed in setup.
        let after_free = |free: &Loc| {
            (free.list == loc.list && free.index < loc.index)
                || (free.list == List::Setup && loc.list != List::Setup)
        };
        match what {
            "free" => {
                if let Some(first) = freed.get(var) {
                    return Err(ScenarioError::new(
                        path,
                        format!(
                            "variable `{var}` is freed twice (first at {})",
                            first.path()
                        ),
                    ));
                }
                freed.insert(var, *loc);
            }
            _ => {
                if let Some(free) = freed.get(var).filter(|f| after_free(f)) {
                    return Err(ScenarioError::new(
                        path,
                        format!(
                            "use after free: `touch` of variable `{var}` after its free at {}",
                            free.path()
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn validate_schedule(s: &Scenario) -> Result<(), ScenarioError> {
    let Some(schedule) = &s.schedule else {
        return Ok(());
    };
    for (i, mv) in schedule.iter().enumerate() {
        let path = format!("schedule[{i}]");
        if let Some(rest) = mv.strip_prefix("migrate:") {
            let mut parts = rest.split(':');
            let (Some(task), Some(cpu), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(ScenarioError::new(
                    path,
                    format!("bad move `{mv}`: a migration is written `migrate:<task>:<cpu>`"),
                ));
            };
            if !s.tasks.iter().any(|t| t.id == task) {
                let why = if s.irqs.iter().any(|c| c.id == task) {
                    format!("`{task}` is an interrupt handler; only tasks migrate")
                } else {
                    format!("no task is called `{task}` (tasks: {})", id_list(&s.tasks))
                };
                return Err(ScenarioError::new(path, format!("bad move `{mv}`: {why}")));
            }
            let cpu_ok = !cpu.is_empty() && cpu.bytes().all(|b| b.is_ascii_digit());
            match cpu.parse::<u32>() {
                Ok(c) if cpu_ok && c < s.cpus => {}
                _ => {
                    return Err(ScenarioError::new(
                        path,
                        format!(
                            "bad move `{mv}`: CPU `{cpu}` is not valid: {}",
                            cpu_expected(s.cpus)
                        ),
                    ))
                }
            }
        } else if !s.context_ids().any(|id| id == mv) {
            let all: Vec<&str> = s.context_ids().collect();
            return Err(ScenarioError::new(
                path,
                format!(
                    "bad move `{mv}`: no context is called that (contexts: {}; or `migrate:<task>:<cpu>`)",
                    quoted_list(&all)
                ),
            ));
        }
    }
    Ok(())
}

fn id_list(contexts: &[ContextSpec]) -> String {
    let ids: Vec<&str> = contexts.iter().map(|c| c.id.as_str()).collect();
    quoted_list(&ids)
}
