//! The limits a scenario must keep, and the words a refusal names them with: the parser's
//! range errors (`to_u32`) and `validate`'s say the same limit the same way.

use super::ScenarioError;

pub const MAX_CPUS: u32 = 8;
pub const MAX_NODES: u32 = 4;
pub const MIN_OBJECT_SIZE: u32 = 8;
pub const MAX_OBJECT_SIZE: u32 = 4096;
pub const MAX_OBJECTS_PER_SLAB: u32 = 64;
pub const MAX_MIN_PARTIAL: u32 = 64;
pub const MAX_CPU_PARTIAL: u32 = 256;
pub const MAX_SETUP_OPS: usize = 256;
/// The moves the default policy may add to a run (`run --max-moves` overrides it). A correct
/// variant of any scenario the validator admits ends far below it (64 ops per context, a few
/// dozen steps per op); a broken one whose retry loop never succeeds would run for ever, and
/// its events would fill the memory: it is stopped here and reported as `LIVELOCK`. The
/// machine's setup is cut at the same bound (`model::executor`), so it lives here, below both.
pub const MAX_POLICY_MOVES: usize = 100_000;
/// The most moves a scenario's `schedule` (and `run --schedule`) may name: as many as the
/// default policy adds to a run (`MAX_POLICY_MOVES`), far more than any run of a correct
/// variant takes.
pub const MAX_SCHEDULE_MOVES: usize = MAX_POLICY_MOVES;
pub const MAX_TASKS: usize = 8;
pub const MAX_IRQS: usize = 8;
pub const MAX_CONTEXT_OPS: usize = 64;
/// The longest context id or variable name: they are labels on the stage and in moves.
pub const MAX_NAME_LEN: usize = 32;
pub const MAX_TID_STEP: u64 = 64;
/// SLAB's array sizes at most (`limit`, and `shared * batchcount` for the shared array).
pub const MAX_SLAB_LIMIT: u32 = 512;
/// Linux 7.0: objects per sheaf at most (the kernel's largest default is 60), and sheaves a
/// barn keeps of each kind before its soft limit refuses more.
pub const MAX_SHEAF_CAPACITY: u32 = 64;
pub const MAX_BARN_SHEAVES: u32 = 64;
pub const OP_NAMES: [&str; 5] = ["alloc", "free", "flush", "touch", "tune"];

/// `v is out of range: expected ...`.
pub(super) fn out_of_range(value: i64, expected: &str) -> String {
    format!("{value} is out of range: {expected}")
}

pub(super) fn quoted_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn cpus_expected() -> String {
    format!("expected 1 to {MAX_CPUS}")
}
pub(super) fn nodes_expected(cpus: u32) -> String {
    format!(
        "expected 1 to {} (at most `cpus` and at most {MAX_NODES})",
        cpus.clamp(1, MAX_NODES)
    )
}
pub(super) fn object_size_expected() -> String {
    format!("expected a multiple of 8 from {MIN_OBJECT_SIZE} to {MAX_OBJECT_SIZE}")
}
pub(super) fn objects_expected() -> String {
    format!("expected 1 to {MAX_OBJECTS_PER_SLAB}")
}
pub(super) fn offset_expected(size: u32) -> String {
    format!("expected a multiple of 8 below objectSize ({size})")
}
pub(super) fn upto(max: u32) -> String {
    format!("expected 0 to {max}")
}
pub(super) fn cpu_expected(cpus: u32) -> String {
    if cpus == 1 {
        "expected 0 (the scenario has 1 CPU)".to_string()
    } else {
        format!(
            "expected a CPU number 0 to {} (the scenario has {cpus} CPUs)",
            cpus.saturating_sub(1)
        )
    }
}
pub(super) fn node_expected(nodes: u32) -> String {
    if nodes == 1 {
        "expected 0 (the scenario has 1 node)".to_string()
    } else {
        format!(
            "expected a node number 0 to {} (the scenario has {nodes} nodes)",
            nodes.saturating_sub(1)
        )
    }
}
pub(super) fn tid_step_message(v: i64) -> String {
    format!("{v} is not a valid TID_STEP: expected a power of two from 1 to {MAX_TID_STEP}, or null to derive it from `cpus` and `preempt`")
}

/// `v` within `min..=max`, else the refusal at `path` with `expected`'s words.
pub(super) fn check_range(
    path: &str,
    v: u32,
    min: u32,
    max: u32,
    expected: impl FnOnce() -> String,
) -> Result<(), ScenarioError> {
    if v < min || v > max {
        Err(ScenarioError::new(
            path,
            out_of_range(i64::from(v), &expected()),
        ))
    } else {
        Ok(())
    }
}
