//! SLUB's frames' locals: the struct of each of its step machines' locals (`Frame`'s arm of
//! the function, with its pc), with the kernel's names, and the INV-12 ghost `Snapshot` they
//! hold. What they answer the machine (`impl Locals`) and the step machines that use them are
//! in `slub/`, each beside its function. The structs are here, below the frame table (`pcs`),
//! because `Frame` holds them and nothing the frame table reaches may reach up to the state,
//! the core or an allocator.

use super::Counters;
use super::Ret;
use crate::model::ids::{Addr, SlabId};

/// Ghost (INV-12): the CPU and the version of its `kmem_cache_cpu` snapshotted when the value
/// a fast path's CAS compares was read (the tid, or the head under `no-tid` /
/// `cmpxchg-local*`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Snapshot {
    pub cpu: u32,
    pub version: u64,
}

// ----- their `impl Locals`: `slub/alloc.rs` -----

/// `slab_alloc` / `slab_alloc_node`: `node` requested; `c`, `tid` as read; `obj` (`object`), `nxt` (`next`), `pg` the CPU slab read; `snap` the INV-12 ghost snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabAlloc {
    pub c: u32,
    pub tid: u64,
    pub obj: Addr,
    pub nxt: Addr,
    pub pg: Option<SlabId>,
    pub node: Option<u32>,
    pub saved_irq: bool,
    pub ok: bool,
    pub ret: Ret,
    pub snap: Snapshot,
}

// ----- their `impl Locals`: `slub/alloc_slow.rs` -----

/// `__slab_alloc` of 3.x–5.14 (irqs off): `c` reloaded, `pg` the CPU slab, `f` the freelist taken, `p` a CPU partial or new slab, `n` the node tried, `count` the nodes `get_any_partial` tried.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabAllocSlow {
    pub c: u32,
    pub nxt: Addr,
    pub f: Addr,
    pub pg: Option<SlabId>,
    pub p: Option<SlabId>,
    pub old: Option<SlabId>,
    pub node: Option<u32>,
    pub n: Option<u32>,
    pub saved_irq: bool,
    pub flag: bool,
    pub count: u32,
    pub ret: Ret,
}

/// The locals of `get_freelist(s, slab)`, with the kernel's names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GetFreelist {
    /// The CPU slab it takes the freelist of (`c->page`, 6.x `c->slab`).
    pub slab: SlabId,
    /// `freelist = slab->freelist`, `counters = slab->counters` as read.
    pub freelist: Addr,
    pub counters: Counters,
    /// `new.counters`: all objects in use; frozen while the freelist is not empty.
    pub new: Counters,
    /// The double CAS succeeded (`__cmpxchg_double_slab`'s return).
    pub ok: bool,
}

// ----- their `impl Locals`: `slub/alloc_slow_ll.rs` -----

/// `___slab_alloc` of 5.15+ (under the local lock): as `SlabAllocSlow`, with `prior` the freelist a lost race hands back.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabAllocSlowLl {
    pub c: u32,
    pub nxt: Addr,
    pub f: Addr,
    pub prior: Addr,
    pub pg: Option<SlabId>,
    pub p: Option<SlabId>,
    pub old: Option<SlabId>,
    pub node: Option<u32>,
    pub n: Option<u32>,
    pub saved_irq: bool,
    pub flag: bool,
    pub count: u32,
    pub ret: Ret,
}

// ----- their `impl Locals`: `slub/cmpxchg.rs` -----

/// `cmpxchg_double_slab` under `slab_lock`: slab `pg`, expected (`f`, `cnt`), new (`nxt`, `new`); `drain` the irq-saving entry.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CmpxchgDoubleSlab {
    pub nxt: Addr,
    pub f: Addr,
    pub pg: SlabId,
    pub cnt: Counters,
    pub new: Counters,
    pub saved_irq: bool,
    pub ok: bool,
    pub flag: bool,
    pub drain: bool,
}

// ----- their `impl Locals`: `slub/cpu_partial.rs` -----

/// `unfreeze_partials` / `__put_partials`: CPU `c`, the chain `p` (detached or walked), `f`/`cnt`/`new` the slab's pair, `n` the node locked, `queue` the slabs to discard.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct UnfreezePartials {
    pub c: u32,
    pub f: Addr,
    pub p: Option<SlabId>,
    pub cnt: Counters,
    pub new: Counters,
    pub n: Option<u32>,
    pub saved_irq: bool,
    pub ok: bool,
    pub flag: bool,
    pub queue: Vec<SlabId>,
}

/// `put_cpu_partial(slab pg, drain)`: `old` the list head read, `pages`/`pobj` its counts, `p` a list detached to drain.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PutCpuPartial {
    pub c: u32,
    pub pg: SlabId,
    pub p: Option<SlabId>,
    pub old: Option<SlabId>,
    pub saved_irq: bool,
    pub drain: bool,
    pub pages: u32,
    pub pobj: u32,
}

// ----- their `impl Locals`: `slub/deactivate.rs` -----

/// `deactivate_slab(slab pg, freelist f)` of CPU `c` on node `n`: stage one's `nxt`/`x`/`prior`/`count`, the modes `m` and `l` (`M_*`), the pair `cnt`/`new`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DeactivateSlab {
    pub c: u32,
    pub obj: Addr,
    pub nxt: Addr,
    pub x: Addr,
    pub f: Addr,
    pub prior: Addr,
    pub pg: SlabId,
    pub cnt: Counters,
    pub new: Counters,
    pub n: u32,
    pub saved_irq: bool,
    pub ok: bool,
    pub flag: bool,
    pub drain: bool,
    pub lock: bool,
    pub m: u8,
    pub l: u8,
    pub count: u32,
}

// ----- their `impl Locals`: `slub/flush.rs` -----

/// `flush_slab(s, c)`: CPU `c`, its slab `pg` and freelist `f` taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlushSlab {
    pub c: u32,
    pub f: Addr,
    pub pg: Option<SlabId>,
    pub saved_irq: bool,
}

/// `__flush_cpu_slab` of CPU `c` (this CPU if `flag`): `pg` its slab, `p` its partial list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlushCpuSlab {
    pub c: u32,
    pub pg: Option<SlabId>,
    pub p: Option<SlabId>,
    pub saved_irq: bool,
    pub flag: bool,
}

// ----- their `impl Locals`: `slub/free.rs` -----

/// `slab_free` of object `x` of slab `pg` (`virt_to_head_page`): `c`, `tid` as read, `f` the head; `snap` the INV-12 ghost snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabFree {
    pub c: u32,
    pub tid: u64,
    pub x: Addr,
    pub f: Addr,
    pub pg: SlabId,
    pub saved_irq: bool,
    pub ok: bool,
    pub snap: Snapshot,
}

/// `__slab_free` of `x` into slab `pg`: `prior`/`cnt` its pair as read, `new` the counters written, `n` the node locked, `lock` `list_lock` taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlabFreeSlow {
    pub x: Addr,
    pub prior: Addr,
    pub pg: SlabId,
    pub cnt: Counters,
    pub new: Counters,
    pub n: Option<u32>,
    pub saved_irq: bool,
    pub ok: bool,
    pub flag: bool,
    pub lock: bool,
}

// ----- their `impl Locals`: `slub/grow.rs` -----

/// `new_slab`: `node` requested; `flag` interrupts enabled for the page allocation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NewSlab {
    pub node: Option<u32>,
    pub flag: bool,
    pub ret: Ret,
}

// ----- their `impl Locals`: `slub/node_partial.rs` -----

/// `get_partial_node(n)` for CPU `c` (`drain`: `get_any_partial`'s): `pg` the slab taken as CPU slab, `obj` its freelist, `p` the slab at hand, `count`/`pages` objects and slabs taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GetPartialNode {
    pub c: u32,
    pub obj: Addr,
    pub pg: Option<SlabId>,
    pub p: Option<SlabId>,
    pub old: Option<SlabId>,
    pub n: u32,
    pub saved_irq: bool,
    pub flag: bool,
    pub drain: bool,
    pub count: u32,
    pub pages: u32,
    pub ret: Ret,
}

/// `acquire_slab(slab pg)` of node `n`: `f`/`cnt` the pair read, `new` the frozen counters; `lock` whether it takes the freelist (`mode`); `count` the free objects it took.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AcquireSlab {
    pub nxt: Addr,
    pub f: Addr,
    pub pg: SlabId,
    pub cnt: Counters,
    pub new: Counters,
    pub n: Option<u32>,
    pub ok: bool,
    pub lock: bool,
    pub count: u32,
}
