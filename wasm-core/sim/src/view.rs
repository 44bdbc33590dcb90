//! Purpose-built view objects: what crosses to the UI and the CLI (DESIGN §6). They are
//! snapshots computed from the machine state; nothing here is read back by the model.

use serde::Serialize;

/// The whole visible state after some number of moves.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub schema_version: u32,
    pub scenario_name: String,
    /// `slub`, or `slab` (the comparison model of spec Appendix A).
    pub allocator: crate::scenario::Allocator,
    /// The resolved variant (era bundle applied, defaults filled) and the cache parameters.
    pub variant: crate::scenario::Variant,
    pub cache: crate::scenario::CacheConfig,
    /// Moves applied so far (the cursor).
    pub position: usize,
    /// Steps executed so far, setup included.
    pub steps: u64,
    pub tid_step: u64,
    pub cpus: Vec<CpuView>,
    pub slabs: Vec<SlabView>,
    pub nodes: Vec<NodeView>,
    pub contexts: Vec<ContextView>,
    pub lines: Vec<LineView>,
    pub vars: Vec<VarView>,
    pub enabled_moves: Vec<String>,
    pub violations: Vec<Violation>,
    /// Every context has finished.
    pub finished: bool,
    /// Some context is unfinished and no move is enabled.
    pub deadlock: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CpuView {
    pub cpu: u32,
    pub node: u32,
    /// `kmem_cache_cpu.freelist` as the chain of object names it reaches (cut at `objects`+1
    /// entries; a cycle or a foreign object is shown as it is, the invariants report it).
    pub freelist: Vec<String>,
    pub tid: u64,
    /// `tid / TID_STEP` and `tid % TID_STEP` (event count and CPU residue, spec §3.1).
    pub tid_event: u64,
    pub tid_cpu: u64,
    pub page: Option<String>,
    pub partial: Vec<String>,
    pub irqs_enabled: bool,
    pub preempt_count: u32,
    /// Id of the context running on this CPU (an irq handler if one is in progress).
    pub running: Option<String>,
    pub cycles: u64,
    /// SLAB: this CPU's `array_cache` (null under SLUB).
    pub array_cache: Option<ArrayView>,
}

/// SLAB's `struct array_cache`: a stack of object pointers, bottom first.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArrayView {
    pub avail: u32,
    pub limit: u32,
    pub batchcount: u32,
    pub touched: bool,
    pub entries: Vec<String>,
    /// The first `handed` entries were already given back by a flush whose final memmove has
    /// not run yet: stale copies, no longer this array's.
    pub handed: u32,
}

/// SLAB's `kmem_cache_node` beyond `list_lock` and `slabs_partial` (which is `partial`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlabNodeView {
    pub slabs_full: Vec<String>,
    pub slabs_free: Vec<String>,
    pub free_objects: u32,
    pub free_limit: u32,
    pub total_slabs: u32,
    pub free_slabs: u32,
    pub shared: Option<ArrayView>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlabView {
    /// P, Q, R, ... in creation order.
    pub name: String,
    pub node: u32,
    pub objects: Vec<ObjectView>,
    pub freelist: Vec<String>,
    pub inuse: u32,
    pub capacity: u32,
    pub frozen: bool,
    /// Who owns it: `cpu0`, `cpu0-partial`, `node0-partial`, `full`, `private`, `discarded`;
    /// SLAB: `node0-partial`, `node0-full`, `node0-free`, `private`, `destroying`, `discarded`.
    pub owner: String,
    pub slab_locked: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectView {
    pub name: String,
    pub addr: u64,
    /// The word at the free-pointer offset, as an object name, `NULL`, or `data` (user payload);
    /// SLAB keeps no pointer in free objects: `-`.
    pub fp: String,
    /// `user:<var>`, `cpu<k>`, `slab`, `inflight:<ctx>` or `lost` (reachable from nothing);
    /// SLAB adds `shared<n>` (in node n's shared array); `cpu<k>` is then its array.
    pub owner: String,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeView {
    pub node: u32,
    pub partial: Vec<String>,
    pub nr_partial: u32,
    /// Context holding `list_lock`.
    pub list_lock: Option<String>,
    /// Contexts whose next step is acquiring it.
    pub waiters: Vec<String>,
    /// SLAB: the node's other lists, counters and shared array (null under SLUB).
    pub slab: Option<SlabNodeView>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextView {
    pub id: String,
    /// `task` or `irq`.
    pub kind: String,
    pub cpu: u32,
    /// The operation in progress, e.g. `alloc x`, or null between operations.
    pub op: Option<String>,
    pub op_index: usize,
    pub ops: usize,
    /// Label of the code line it will execute next (DESIGN §3 "Code listing").
    pub label: Option<String>,
    /// Kernel functions on its call stack, outermost first.
    pub stack: Vec<String>,
    /// `running`, `runnable` (switched out), `waiting` (irq not entered), `blocked`, `finished`.
    pub state: String,
    pub preempt_count: u32,
    pub irqs_enabled: bool,
    /// What its fast path has read so far and will compare in its CAS (null outside one).
    pub snapshot: Option<SnapshotView>,
}

/// The locals a fast path holds between its reads and its cmpxchg: what the CAS will expect.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotView {
    /// The CPU whose `kmem_cache_cpu` it read (`c`).
    pub cpu: u32,
    pub tid: u64,
    /// `object` (alloc) or the freelist head read (free), and `next` / the object being freed.
    pub object: String,
    pub next: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineView {
    pub id: u32,
    /// `kmem_cache`, `cpu_slab[0]`, `page P`, `node 0`, `objects P[0..1]`...
    pub name: String,
    /// One MESI letter per CPU.
    pub states: Vec<char>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VarView {
    pub name: String,
    /// Its `alloc` has completed (`object` null then means the allocation failed).
    pub bound: bool,
    pub object: Option<String>,
    pub addr: Option<u64>,
    pub held: bool,
}

/// An invariant violation, recorded as an outcome (never a panic).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Violation {
    pub step: u64,
    pub invariant: String,
    pub message: String,
}
