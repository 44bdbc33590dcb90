//! Purpose-built view objects: what crosses to the UI and the CLI (design.md §6). They are
//! snapshots computed from the machine state; nothing here is read back by the model.
//!
//! Their TypeScript is generated from these definitions (`web/src/sim/generated/`, written and
//! checked by `wasm-core/wasm/tests/contract.rs`). ts-rs rather than tsify or specta: it is a
//! plain derive that reads the serde attributes already here (renames, tags, skips), costs
//! nothing at run time (the impls are never called from wasm, so they are not linked), and does
//! not tie this pure crate to wasm-bindgen as tsify would.

use serde::Serialize;
use std::fmt;
use ts_rs::TS;

/// The whole visible state after some number of moves.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct View {
    pub schema_version: u32,
    pub scenario_name: String,
    /// The allocator the scenario runs, as the parser decided it: `slub`, `slab` (the comparison
    /// model of model.md Appendix A) or `sheaves` (Linux 7.0's SLUB, `"era": "v7.0"`,
    /// model.md Appendix C). The page asks this instead of reading the scenario's text.
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
    /// Every cache line, except in a scenario of more than [`MAX_LISTED_LINES`] lines: there
    /// the object lines no CPU holds are left out, and counted in `lines_omitted`.
    pub lines: Vec<LineView>,
    pub lines_omitted: u32,
    /// Linux 7.0: the sheaves on no CPU and in no barn, held by an operation (absent
    /// otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub loose_sheaves: Option<Vec<SheafView>>,
    pub vars: Vec<VarView>,
    pub enabled_moves: Vec<String>,
    pub violations: Vec<Violation>,
    /// Every context has finished.
    pub finished: bool,
    /// Some context is unfinished and no move is enabled.
    pub deadlock: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CpuView {
    pub cpu: u32,
    pub node: u32,
    /// `kmem_cache_cpu.freelist` as the chain of object names it reaches (cut at `objects`+1
    /// entries; a cycle or a foreign object is shown as it is, the invariants report it).
    pub freelist: Vec<String>,
    pub tid: u64,
    /// `tid / TID_STEP` and `tid % TID_STEP` (event count and CPU residue, model.md §3.1).
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
    /// Linux 7.0: this CPU's `slub_percpu_sheaves` (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub sheaves: Option<PcsView>,
}

/// Linux 7.0's `slub_percpu_sheaves`: the lock and the two sheaves.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PcsView {
    /// The context that set `acquired` (null when the lock is free).
    pub locked_by: Option<String>,
    pub main: SheafView,
    pub spare: Option<SheafView>,
}

/// Linux 7.0's `struct slab_sheaf`: a stack of object pointers, bottom first.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SheafView {
    /// `h0`, `h1`... in the order the sheaves were allocated.
    pub name: String,
    pub capacity: u32,
    /// `objects[0..size]`, bottom first (allocation pops the last).
    pub objects: Vec<String>,
    /// Not on a CPU or in a barn: the context whose operation holds it (a sheaf being
    /// refilled, flushed or about to be installed), when the view can tell.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub held_by: Option<String>,
}

/// Linux 7.0's `struct node_barn`: full and empty sheaves, head first.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BarnView {
    pub locked_by: Option<String>,
    /// Contexts whose next step is taking the barn's lock.
    pub waiters: Vec<String>,
    pub full: Vec<SheafView>,
    pub empty: Vec<SheafView>,
    /// The soft limits `MAX_FULL_SHEAVES`, `MAX_EMPTY_SHEAVES`.
    pub max_full: u32,
    pub max_empty: u32,
}

/// SLAB's `struct array_cache`: a stack of object pointers, bottom first.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
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
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SlabNodeView {
    pub slabs_full: Vec<String>,
    pub slabs_free: Vec<String>,
    pub free_objects: u32,
    pub free_limit: u32,
    pub total_slabs: u32,
    pub free_slabs: u32,
    pub shared: Option<ArrayView>,
    /// The shared array's identity (`A1`), only in a scenario that replaces arrays (a `tune`
    /// op): there a reader's pointer and the node's array can differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub shared_id: Option<String>,
    /// Arrays a `tune` swapped off this node (`old_shared`), until and after their `kfree`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<RetiredArrayView>>", optional)]
    pub retired: Vec<RetiredArrayView>,
    /// Contexts holding a pointer to one of this node's arrays loaded without `list_lock`
    /// (`cache_alloc_refill` between RF2 and RF2S).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<SharedReaderView>>", optional)]
    pub readers: Vec<SharedReaderView>,
}

/// A shared array `setup_kmem_cache_node` took off its node (SN4): unpublished, then freed.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RetiredArrayView {
    /// `A0`.
    pub id: String,
    /// The context whose `kfree(old_shared)` freed it (SN7), null while it is only unpublished.
    pub freed_by: Option<String>,
    /// The context waiting in `synchronize_sched()` before freeing it, null if none waits.
    pub waiter: Option<String>,
    /// The CPUs that waiter still waits for (interrupts off since the swap); empty: its wait is over.
    pub waits_for: Vec<u32>,
}

/// A lockless reader's pointer to a shared array (`shared = READ_ONCE(n->shared)`).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SharedReaderView {
    pub ctx: String,
    /// The array it points to (`A0`).
    pub array: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
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
    /// Who owns it (its `Display` is the old text: `cpu0`, `cpu0-partial`, `node0-partial`, ...).
    pub owner: SlabOwner,
    pub slab_locked: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ObjectView {
    pub name: String,
    pub addr: u64,
    /// The word at the free-pointer offset, as an object name, `NULL`, or `data` (user payload);
    /// SLAB keeps no pointer in free objects: `-`.
    pub fp: String,
    /// Who holds it (its `Display` is the old text: `user:x`, `cpu0`, `inflight:T`, `lost`, ...).
    pub owner: ObjectOwner,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
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
    /// Linux 7.0: the node's barn (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub barn: Option<BarnView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ContextView {
    pub id: String,
    pub kind: ContextKind,
    pub cpu: u32,
    /// The operation in progress, e.g. `alloc x`, or null between operations.
    pub op: Option<String>,
    pub op_index: usize,
    pub ops: usize,
    /// Label of the code line it will execute next (design.md §3 "Code listing").
    pub label: Option<String>,
    /// Kernel functions on its call stack, outermost first.
    pub stack: Vec<String>,
    pub state: ContextState,
    pub preempt_count: u32,
    pub irqs_enabled: bool,
    /// What its fast path has read so far and will compare in its CAS (null outside one).
    pub snapshot: Option<SnapshotView>,
}

/// The locals a fast path holds between its reads and its cmpxchg: what the CAS will expect.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotView {
    /// Which fast path holds it.
    pub op: FastOp,
    /// The CPU whose `kmem_cache_cpu` it read (`c`).
    pub cpu: u32,
    pub tid: u64,
    /// `object` (alloc) or the freelist head read (free), and `next` / the object being freed.
    pub object: String,
    pub next: String,
    /// `object = c->freelist` (alloc) or `head = c->freelist` (free) has been read: before
    /// that only the tid is held.
    pub object_read: bool,
    /// Alloc: `next = get_freepointer(s, object)` has been read (what the CAS installs).
    pub next_read: bool,
}

/// The fast path a snapshot belongs to: `slab_alloc` or `slab_free`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum FastOp {
    Alloc,
    Free,
}

/// Whether a context is a task or an interrupt handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ContextKind {
    Task,
    Irq,
}

/// Where a context stands (design.md §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum ContextState {
    Running,
    /// A task switched out.
    Runnable,
    /// An irq handler not entered yet.
    Waiting,
    Blocked,
    Finished,
}

impl ContextKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ContextKind::Task => "task",
            ContextKind::Irq => "irq",
        }
    }
}

impl ContextState {
    pub fn as_str(self) -> &'static str {
        match self {
            ContextState::Running => "running",
            ContextState::Runnable => "runnable",
            ContextState::Waiting => "waiting",
            ContextState::Blocked => "blocked",
            ContextState::Finished => "finished",
        }
    }
}

impl fmt::Display for ContextKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for ContextState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who owns a slab. Crosses to the page as a tagged object (`{ kind: "cpuPartial", cpu: 0 }`);
/// its `Display` is the text the CLI, the tests and the lessons use (`cpu0-partial`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum SlabOwner {
    /// SLUB: the CPU's slab (`c->page`).
    Cpu {
        cpu: u32,
    },
    /// SLUB: on the CPU's partial list.
    CpuPartial {
        cpu: u32,
    },
    /// SLUB's node partial list; SLAB's `slabs_partial`.
    NodePartial {
        node: u32,
    },
    /// SLAB's `slabs_full`.
    NodeFull {
        node: u32,
    },
    /// SLAB's `slabs_free`.
    NodeFree {
        node: u32,
    },
    /// SLUB: no free object and on no list.
    Full,
    /// SLUB: free objects but on no list (mid-operation).
    None,
    /// Linux 7.0: taken off the node list by a refill (`get_partial_node_bulk`) of `ctx`.
    Isolated {
        ctx: String,
    },
    /// Being set up by the context that allocated it.
    Private,
    /// SLAB: on its way back to the page allocator.
    Destroying,
    Discarded,
}

impl fmt::Display for SlabOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SlabOwner::Cpu { cpu } => write!(f, "cpu{cpu}"),
            SlabOwner::CpuPartial { cpu } => write!(f, "cpu{cpu}-partial"),
            SlabOwner::NodePartial { node } => write!(f, "node{node}-partial"),
            SlabOwner::NodeFull { node } => write!(f, "node{node}-full"),
            SlabOwner::NodeFree { node } => write!(f, "node{node}-free"),
            SlabOwner::Full => f.write_str("full"),
            SlabOwner::Isolated { ctx } => write!(f, "isolated:{ctx}"),
            SlabOwner::None => f.write_str("none"),
            SlabOwner::Private => f.write_str("private"),
            SlabOwner::Destroying => f.write_str("destroying"),
            SlabOwner::Discarded => f.write_str("discarded"),
        }
    }
}

/// Who holds an object. Crosses to the page as a tagged object (`{ kind: "user", var: "x" }`);
/// its `Display` is the old text (`user:x`, `cpu0`, `shared0`, `slab`, `inflight:T`, `lost`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ObjectOwner {
    /// Held by a variable of the scenario.
    User { var: String },
    /// SLUB: on the CPU's freelist; SLAB: in the CPU's `array_cache`.
    Cpu { cpu: u32 },
    /// SLAB: in node n's shared array.
    Shared { node: u32 },
    /// Linux 7.0: in sheaf `sheaf` (a CPU's main or spare, a barn's, or one in flight).
    Sheaf { sheaf: String },
    /// On its slab's freelist.
    Slab,
    /// Held in the locals of a context mid-operation.
    Inflight { ctx: String },
    /// Reachable from nothing.
    Lost,
    /// Its slab went back to the page allocator.
    Discarded,
}

impl fmt::Display for ObjectOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ObjectOwner::User { var } => write!(f, "user:{var}"),
            ObjectOwner::Cpu { cpu } => write!(f, "cpu{cpu}"),
            ObjectOwner::Shared { node } => write!(f, "shared{node}"),
            ObjectOwner::Sheaf { sheaf } => write!(f, "sheaf:{sheaf}"),
            ObjectOwner::Slab => f.write_str("slab"),
            ObjectOwner::Inflight { ctx } => write!(f, "inflight:{ctx}"),
            ObjectOwner::Lost => f.write_str("lost"),
            ObjectOwner::Discarded => f.write_str("discarded"),
        }
    }
}

/// Above this many cache lines a view lists only the object lines some CPU holds (the
/// biggest scenario within the limits): eight slabs of 64 objects of 4,096 bytes are 32,768 lines, 4 MB of view at every
/// step, nearly all of them in no cache.
pub const MAX_LISTED_LINES: usize = 1024;

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LineView {
    pub id: u32,
    /// `kmem_cache`, `cpu_slab[0]`, `page P`, `node 0`, `objects P[0..1]`...
    pub name: String,
    /// One MESI letter per CPU.
    pub states: Vec<char>,
    /// What the line holds: the stage ties the line's token to it.
    pub holds: LineHolds,
}

/// What a cache line holds (the layout of model.md §7, Appendix A for SLAB).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum LineHolds {
    /// The `kmem_cache` itself, read by every operation.
    Cache,
    /// CPU `cpu`'s `kmem_cache_cpu` (SLUB) or part of its `array_cache` (SLAB).
    Cpu { cpu: u32 },
    /// Node `node`'s `kmem_cache_node` (SLAB: or part of its shared array).
    Node { node: u32 },
    /// A slab's metadata (`struct page`, `struct slab` since 5.17): freelist and counters.
    Slab { slab: String },
    /// Objects of a slab: several small objects share a line; a large one spans many.
    Objects { slab: String, objects: Vec<String> },
    /// Linux 7.0: node `node`'s barn.
    Barn { node: u32 },
    /// Linux 7.0: a sheaf's header or a line of its object pointers.
    Sheaf { sheaf: String },
}

#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct VarView {
    pub name: String,
    /// Its `alloc` has completed (`object` null then means the allocation failed).
    pub bound: bool,
    pub object: Option<String>,
    pub addr: Option<u64>,
    pub held: bool,
}

// An invariant violation: the model records it (`crate::event`, beside the events), the view
// reports it.
pub use crate::event::Violation;

/// A scene: what the page needs after one user action (a step, a seek, a jump, a new
/// schedule), built by [`crate::Simulator::scene`] and sent in one crossing: the view and
/// outcome at the cursor and only the events the page does not have yet. (Not a "frame": that
/// word is the kernel call frame's, `model::pcs::Frame`.)
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Scene {
    pub view: View,
    pub outcome: crate::Outcome,
    /// The page keeps the first `eventsFrom` events it had and appends `events`: together they
    /// are every event of the played schedule (setup's first), moves past the cursor included.
    pub events_from: usize,
    pub events: Vec<crate::Event>,
    /// The number of events up to the cursor: the last step's event is the one before it.
    pub events_at_cursor: usize,
    /// How many moves of the schedule played (all of them unless `error`).
    pub played: usize,
    /// Why move `played` of the schedule did not play (the simulator's message).
    pub error: Option<String>,
}

/// An owner or a context's kind or state compares equal to its text (`"cpu0-partial"`,
/// `"user:x"`, `"finished"`): tests and lesson claims name them as the narration does.
macro_rules! eq_text {
    ($($t:ty),+) => {$(
        impl PartialEq<&str> for $t {
            fn eq(&self, other: &&str) -> bool {
                let mut rest = TextMatch(Some(other));
                fmt::write(&mut rest, format_args!("{self}")).is_ok() && rest.0 == Some("")
            }
        }
    )+};
}

/// Matches what is written against a text, piece by piece, without building a `String`:
/// `Some(rest)` while every piece matched so far.
struct TextMatch<'a>(Option<&'a str>);

impl fmt::Write for TextMatch<'_> {
    fn write_str(&mut self, piece: &str) -> fmt::Result {
        self.0 = self.0.and_then(|rest| rest.strip_prefix(piece));
        Ok(())
    }
}
eq_text!(SlabOwner, ObjectOwner, ContextKind, ContextState);
