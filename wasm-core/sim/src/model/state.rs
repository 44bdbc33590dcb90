//! The machine state: every structure of model.md §1 plus contexts (their frames: each function's
//! label and own locals, `pcs`), coherence, stats and ghost state. All of it is plain data
//! (`Clone + Eq + Hash`), so checkpoints, time travel and the explorer's state hashing need
//! nothing more.

use super::stats::NR_STATS;

// The plain values live in `ids`, below the frame table (`pcs`), which must not reach up to
// the state; here they keep their paths (`state::Addr`).
pub use super::ids::{Addr, CtxId, SlabId, DATA, MAX_CPUS, NULL, OBJ_BASE};

/// Counting up: stats, cycles, versions, steps, counts of ops. A run is bounded (its moves,
/// ops and the policy's limits) far below where any of these could wrap; they wrap as the
/// kernel's unsigned counters do (a plain add, where the step loop counts), never a panic.
pub trait Bump: Sized {
    /// Add one.
    fn bump(&mut self);
    /// Add `n`.
    fn bump_by(&mut self, n: Self);
}

macro_rules! bump_impl {
    ($($t:ty),+) => {$(
        impl Bump for $t {
            #[inline]
            fn bump(&mut self) {
                *self = self.wrapping_add(1);
            }
            #[inline]
            fn bump_by(&mut self, n: Self) {
                *self = self.wrapping_add(n);
            }
        }
    )+};
}
bump_impl!(u8, u32, u64, usize);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Life {
    /// Allocated by `new_slab`, not yet installed as a CPU slab (model.md §1.6 NEW).
    Private,
    Live,
    Discarded,
}

/// A slab's memory as the machine sees it, whatever the allocator: the node its page came
/// from, its life, its objects' free-pointer words (the word at `object + offset`, which a
/// user's `touch` overwrites under every allocator) and its cache lines. What an allocator
/// keeps about a slab beyond this is its own: SLUB's `freelist` + `counters`, `slab_lock` and
/// CPU partial link (`slab_page::SlubPage`), SLAB's `active` and `bufctl` (`slab::SlabState`).
/// `SlabId` names one; its letter (`P`, `Q`...) is the slab's name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Page {
    pub node: u32,
    pub life: Life,
    /// The word at `object + offset` of each object.
    pub fp: Vec<Addr>,
    /// First cache line of this slab's descriptor (`PG(P)`); object lines follow it.
    pub line: u32,
}

/// `struct kmem_cache_node`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub list_lock: Option<CtxId>,
    pub nr_partial: u32,
    /// The partial list, head first (SLAB: `slabs_partial`).
    pub partial: Vec<SlabId>,
}

/// One CPU as the processor: interrupts, preemption and who runs on it. The allocator's
/// per-CPU structure is its own (SLUB's `kmem_cache_cpu`: `slub::KmemCacheCpu`; SLAB's
/// `array_cache`; Linux 7.0's `slub_percpu_sheaves`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cpu {
    pub irqs_on: bool,
    pub preempt_count: u32,
    /// The task that is current on this CPU.
    pub current: Option<CtxId>,
    /// An interrupt handler in progress on this CPU.
    pub irq: Option<CtxId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CtxKind {
    Task,
    Irq,
}

/// A task or an interrupt handler with its program: the ops, the index of the current op and
/// a call stack of kernel-function frames (explicit step machines, model.md §2.0).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ctx {
    pub kind: CtxKind,
    pub cpu: u32,
    /// Index of the next op to start (the current one is `op_index - 1` while `stack` is busy).
    pub op_index: usize,
    pub stack: Vec<Frame>,
    pub finished: bool,
    /// Irq handlers: entered; the CPU's irq flag and preempt count saved at entry.
    pub entered: bool,
    /// The top frame is known to stand at a step (settling would do nothing).
    pub settled: bool,
    /// The current op has taken its first step.
    pub begun: bool,
    pub saved_irqs_on: bool,
    pub saved_preempt: u32,
    /// The op in progress (for views and ownership of its in-flight objects).
    pub cur_op: Option<usize>,
}

impl Ctx {
    /// A context that has not started: no frame, irqs on and preemption count 0 to restore.
    pub fn new(kind: CtxKind, cpu: u32) -> Ctx {
        Ctx {
            kind,
            cpu,
            op_index: 0,
            stack: Vec::new(),
            finished: false,
            entered: false,
            settled: false,
            begun: false,
            saved_irqs_on: true,
            saved_preempt: 0,
            cur_op: None,
        }
    }
}

/// The op a context starts, as the allocator runs it.
pub enum OpCall {
    /// `kmem_cache_alloc(_node)`.
    Alloc { node: Option<u32> },
    /// `kmem_cache_free` of an object of slab `slab`.
    Free { addr: Addr, slab: SlabId },
    /// Flush a CPU's per-CPU cache: `Some(k)` a dead CPU `k`'s, `None` the running CPU's.
    Flush { target: Option<u32> },
}

/// An operation with its variable resolved to an index (the scenario's `Op` keeps names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IOp {
    Alloc {
        var: usize,
        node: Option<u32>,
    },
    Free {
        var: usize,
    },
    Touch {
        var: usize,
    },
    Flush {
        target: Option<u32>,
    },
    /// SLAB's `do_tune_cpucache` (`setup_kmem_cache_node` with `force_change`).
    Tune,
}

/// A scenario variable: bound by an `alloc`, released by a `free`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Var {
    pub bound: bool,
    pub addr: Option<Addr>,
    pub freed: bool,
}

impl Var {
    pub fn held(&self) -> bool {
        self.bound && !self.freed && self.addr.is_some()
    }
}

/// A frame: one arm per function with its label and its own locals (`pcs`); its program
/// counter (`Frame::pc`) is the function it runs and that function's label; `Pc::name` gives
/// the listing spelling, `Func::name` the function's.
pub use super::pcs::{Frame, Func, Pc};

// What a frame's locals answer and the return register they keep live below the frame table
// (`locals`), which must not reach up to the state; here they keep their paths.
pub use super::locals::{Locals, Ret};

/// MESI state of one line in one CPU's cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Mesi {
    #[default]
    I,
    S,
    E,
    M,
}

impl Mesi {
    pub fn letter(self) -> char {
        match self {
            Mesi::I => 'I',
            Mesi::S => 'S',
            Mesi::E => 'E',
            Mesi::M => 'M',
        }
    }
}

/// A prefetched line in flight to `cpu`, there when `cycles[cpu]` reaches `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PrefetchInFlight {
    pub line: u32,
    pub cpu: u32,
    pub at: u64,
}

/// The mutable state every allocator shares (`Core::st`); the allocator's own is beside it
/// (`Machine::alloc`, an [`AllocState`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub cpus: Vec<Cpu>,
    pub nodes: Vec<Node>,
    pub slabs: Vec<Page>,
    pub ctxs: Vec<Ctx>,
    pub vars: Vec<Var>,
    /// Per line, per CPU: MESI.
    pub lines: Vec<[Mesi; MAX_CPUS]>,
    pub stats: Vec<[u64; NR_STATS]>,
    pub cycles: Vec<u64>,
    /// Prefetches still on their way: a line a CPU prefetched arrives when that CPU's clock
    /// reaches `at`; an access before then waits for the rest (model.md §7's transfer latency).
    /// Timing only, like `cycles` and `lines`: not part of the explorer's state identity.
    pub prefetches: Vec<PrefetchInFlight>,
    pub steps: u64,
    /// Page allocations made after setup (for `pageAllocFail`).
    pub in_setup: bool,
    /// The context that moved last (for the default policy of design.md §5).
    pub last_moved: Option<CtxId>,
}
