//! What every allocator uses and none owns: [`Core`] (the configuration, the shared state,
//! events, violations, faults and the ghost counters) with its helpers of naming, addresses,
//! stats and cost charges (its memory helpers are in `memory.rs`, its lookups and processor
//! state in `prims.rs`), what a label asks the executor to do next ([`Flow`]) and the model's
//! internal errors ([`Fault`]). It names no allocator: an allocator's code takes it beside its
//! own state (`fn f(&mut self, core: &mut Core, ..)`).

pub mod memory;
pub(in crate::model) mod prims;

use super::config::Config;
use super::cost;
use super::state::*;
use super::stats::Stat;
use crate::event::Violation;
use crate::event::{CasHalf, Event, Transition};
use crate::scenario::Fastpath;

/// Resources of the explorer's footprints: a cache line is its id; the others are tagged.
pub const RES_SCHED: u32 = 0x1000_0000;
pub const RES_CTX: u32 = 0x2000_0000;
pub const RES_PAGE_ALLOC: u32 = 0x3000_0000;
pub const WRITE: u32 = 0x8000_0000;

/// What the label just run asks the executor to do next.
#[derive(Debug)]
pub enum Flow {
    /// A step was taken; the frame's pc names the next label.
    Step,
    /// Probing reached a step label: stop settling here.
    Pending,
    /// Free work done; run the (possibly new) pc of the same frame.
    Go,
    /// Push a callee; the caller's pc already names where to resume.
    Call(Box<Frame>),
    /// Pop this frame, handing what it returns to the caller's return register
    /// (`Frame::returned`).
    Ret(Ret),
}

impl Flow {
    /// Push the callee `f` (its entry label and the locals its caller gives it).
    pub fn call(f: Frame) -> Flow {
        Flow::Call(Box::new(f))
    }
}

/// Where recording of events goes when the caller asked for events.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    pub events: Vec<Event>,
    pub cur: Event,
    pub mv: Option<usize>,
    /// Cycles the current step waited for a prefetched line (said in its narration).
    pub prefetch_wait: u64,
}

/// What every allocator uses and none owns: the configuration, the shared state (`st`: the
/// processor, the node lists, slab memory, contexts, cache lines with their MESI states,
/// statistics, cycles), the context stepping now, events, violations, faults and the ghost
/// counters. `st` and the allocator's state are the machine's state; the rest is configuration
/// or scratch.
#[derive(Clone, Debug)]
pub struct Core {
    pub(in crate::model) cfg: std::rc::Rc<Config>,
    pub(in crate::model) st: State,
    pub(in crate::model) violations: Vec<Violation>,
    /// Check invariants after every step.
    pub(in crate::model) checks: bool,
    pub(in crate::model) rec: Option<Box<Recorder>>,
    pub(in crate::model) probing: bool,
    /// The context stepping now and its CPU.
    pub(in crate::model) cur: CtxId,
    pub(in crate::model) cur_cpu: u32,
    /// Scratch space of the invariant checker (not state).
    pub(in crate::model) scratch: Vec<u8>,
    /// Ghost counters for the end-of-run identities (INV-15).
    pub(in crate::model) ghost: Ghost,
    /// Discards of the last step, judged by INV-14 after it: (slab, why not allowed, CPUs
    /// whose `c.page` still named it).
    pub(in crate::model) pending_discards: Vec<(SlabId, Option<String>, Vec<u32>)>,
    /// When set, every resource the current move touches is noted here (the explorer's
    /// dependency relation, see `crate::explore`).
    pub(in crate::model) foot: Option<Vec<u32>>,
    /// The end-of-run checks ran.
    pub(in crate::model) end_checked: bool,
    /// When the Lab asks (`count`): each cost constant's charges and the cache-line
    /// transfers, per CPU.
    pub(in crate::model) counts: Option<Box<memory::Counts>>,
    /// An internal error of the model noted but not yet reported ([`Fault`]). A `Cell`, so
    /// that a read-only lookup that finds nothing can note it.
    pub(in crate::model) fault: std::cell::Cell<Option<Fault>>,
    /// The model found itself inconsistent and said so (the violation `MODEL`): no move is
    /// enabled any more.
    pub(in crate::model) halted: bool,
}

/// Why a context cannot take its next step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    Finished,
    Var(usize),
    ListLock(u32, CtxId),
    SlabLock(SlabId, CtxId),
    LocalLock(u32, CtxId),
    /// Linux 7.0: node n's barn lock.
    BarnLock(u32, CtxId),
    /// A survivor's flush of CPU k (hotplug) waits until k's contexts have finished.
    CpuOnline(u32),
    /// SLAB's `synchronize_sched()` in `setup_kmem_cache_node` waits until CPU k has left the
    /// interrupts-off section it was in when the shared array was swapped.
    GracePeriod(u32),
}

/// The bytes a heap allocation of `bytes` really takes (glibc's malloc: an 8-byte header,
/// 16-byte granules, 32 bytes at least; nothing for an empty vector). The explorer's memory
/// estimate counts blocks, not payloads: most of a machine is many small vectors.
// Sizes of vectors in memory: far below `usize::MAX`.
#[allow(clippy::arithmetic_side_effects)]
pub fn heap_block(bytes: usize) -> usize {
    if bytes == 0 {
        0
    } else {
        ((bytes + 8 + 15) & !15).max(32)
    }
}

/// An internal error of the model: something the model itself guarantees did not hold (an id
/// with nothing behind it, a frame local its earlier labels always set; a label of another
/// function cannot be, a frame's pc is typed by its function: `pcs`). A bug of the model, never
/// a finding about the kernel it models. Noted where it is found ([`Core::fault`] and the
/// lookups), it becomes the violation `MODEL` (with the context and the label) after the label
/// that found it, and the machine stops there: no move is enabled after it, so nothing runs on
/// the inconsistent state. The CLI exits 1 with it like any violation; the page shows it like
/// any violation. Never a panic: the release build aborts on one, which would take the page's
/// wasm instance with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A lookup by id found nothing: what it looked for (`slab`, `cpu`…) and the id.
    NoSuch(&'static str, u64),
    /// A value the code relies on was absent: the expression, as written (`need!`).
    Unset(&'static str),
    /// Anything else, in words.
    Broken(&'static str),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::NoSuch(what, id) => write!(f, "there is no {what} {id}"),
            Fault::Unset(expr) => write!(f, "`{expr}` found nothing"),
            Fault::Broken(what) => f.write_str(what),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ghost {
    /// Allocations that returned an object.
    pub allocs: u64,
    /// Of those, the ones the slow path returned.
    pub slow_allocs: u64,
    /// Frees of an object (not of NULL) that started.
    pub frees: u64,
    /// SLAB: allocations that started, and frees that went to another node's lists.
    pub slab_allocs: u64,
    pub alien_frees: u64,
}

impl Core {
    /// CPU `k`'s clock (its cycles so far).
    pub fn cpu_cycles(&self, k: usize) -> u64 {
        match self.st.cycles.get(k) {
            Some(&c) => c,
            None => {
                prims::note_fault(&self.fault, Fault::NoSuch("cpu", k as u64));
                0
            }
        }
    }

    pub fn tid_step(&self) -> u64 {
        self.cfg.tid_step
    }

    pub fn fastpath(&self) -> Fastpath {
        self.cfg.sc.variant.fastpath
    }

    // ----- naming, for events, narration and views -----

    pub fn slab_name(&self, s: SlabId) -> String {
        const NAMES: &[u8; 26] = b"PQRSTUVWXYZABCDEFGHIJKLMNO";
        let (round, i) = (s / 26, s % 26);
        let letter = NAMES.get(i as usize).map_or('?', |&b| char::from(b));
        if round == 0 {
            letter.to_string()
        } else {
            format!("{letter}{round}")
        }
    }

    /// `p1`, `NULL`, `data` (user payload) or a raw hex number for anything else.
    pub fn addr_name(&self, a: Addr) -> String {
        if a == NULL {
            return "NULL".into();
        }
        match self.object_of(a) {
            Some((s, i)) => format!("{}{}", self.slab_name(s).to_lowercase(), i),
            None if a & DATA == DATA => "data".into(),
            None => format!("{a:#x}"),
        }
    }

    pub fn slab_opt_name(&self, s: Option<SlabId>) -> String {
        s.map(|s| self.slab_name(s))
            .unwrap_or_else(|| "NULL".into())
    }

    pub fn ctx_name(&self, c: CtxId) -> &str {
        match self.cfg.ctx_ids.get(c as usize) {
            Some(name) => name,
            None => {
                prims::note_fault(&self.fault, Fault::NoSuch("context", c.into()));
                "?"
            }
        }
    }

    // ----- addresses -----

    /// Object `i` of slab `s`. Slab s's objects start at `OBJ_BASE * (s + 1)`: a slab id is a
    /// u32, so that is below 2^53, and a slab's objects span `objects * size`, at most a few
    /// pages (`MAX_OBJECTS_PER_SLAB` x `MAX_OBJECT_SIZE`, `scenario::validate_cache`; a
    /// Lab workload's slab is at most an order-3 page), well below `OBJ_BASE`.
    #[allow(clippy::arithmetic_side_effects)]
    pub fn obj_addr(&self, s: SlabId, i: u32) -> Addr {
        OBJ_BASE * (s as u64 + 1) + i as u64 * self.cfg.size
    }

    /// The (slab, index) of an object address, if it is one (of any slab ever created).
    pub fn object_of(&self, a: Addr) -> Option<(SlabId, u32)> {
        if a & DATA == DATA {
            return None;
        }
        // Below `OBJ_BASE` is no slab's (`obj_addr`).
        let s = (a / OBJ_BASE).checked_sub(1)?;
        let off = a % OBJ_BASE;
        if s >= self.st.slabs.len() as u64 || !off.is_multiple_of(self.cfg.size) {
            return None;
        }
        let i = off.checked_div(self.cfg.size)?;
        (i < self.cfg.objects as u64).then_some((s as SlabId, i as u32))
    }

    /// `virt_to_head_page`: the slab of an object address.
    pub fn slab_of(&self, a: Addr) -> Option<SlabId> {
        self.object_of(a).map(|(s, _)| s)
    }

    /// The cache line holding the free pointer of object `a` (`OBJ(o)` of model.md §6): the
    /// slab's object lines follow its descriptor line (bounded as in `obj_addr`; the offset
    /// is within the object, `scenario::validate_cache`).
    #[allow(clippy::arithmetic_side_effects)]
    pub fn obj_line(&self, s: SlabId, i: u32) -> u32 {
        self.page(s).line + 1 + ((i as u64 * self.cfg.size + self.cfg.offset) / 64) as u32
    }

    /// Read an object's free-pointer word; a non-object address reads as `DATA` (the model's
    /// stand-in for a kernel oops: the invariants report the corrupted freelist that led here).
    pub fn load_fp(&mut self, a: Addr) -> Addr {
        match self.object_of(a) {
            Some((s, i)) => {
                let line = self.obj_line(s, i);
                self.access(line, memory::Access::Read);
                // `object_of` found the slab and `i < objects`, the length of every `fp`.
                match self.page(s).fp.get(i as usize) {
                    Some(&w) => w,
                    None => {
                        self.fault(Fault::NoSuch("object", a));
                        DATA
                    }
                }
            }
            None => DATA,
        }
    }

    pub fn store_fp(&mut self, a: Addr, v: Addr) {
        if let Some((s, i)) = self.object_of(a) {
            let line = self.obj_line(s, i);
            self.access(line, memory::Access::Write);
            match self.page_mut(s).and_then(|pg| pg.fp.get_mut(i as usize)) {
                Some(w) => *w = v,
                None => {
                    self.fault(Fault::NoSuch("object", a));
                }
            }
        }
    }

    /// The free-pointer word of object `a` as it is, with no access (a ghost's or a view's
    /// read), if `a` is an object.
    pub fn peek_fp(&self, a: Addr) -> Option<Addr> {
        let (s, i) = self.object_of(a)?;
        // `object_of` found the slab and `i < objects`, the length of every `fp`.
        match self.page(s).fp.get(i as usize) {
            Some(&w) => Some(w),
            None => {
                self.fault(Fault::NoSuch("object", a));
                None
            }
        }
    }

    /// Object `i`'s free-pointer word in slab `s`, for a write that is not an access of
    /// memory (a new slab's chain, a user's payload).
    pub fn fp_slot(&mut self, s: SlabId, i: u32) -> Option<&mut Addr> {
        let a = self.obj_addr(s, i);
        let slab = self.st.slabs.get_mut(s as usize);
        let slot = prims::found(&self.fault, "slab", s.into(), slab)?
            .fp
            .get_mut(i as usize);
        prims::found(&self.fault, "object", a, slot)
    }

    // ----- stats, cycles, events -----

    pub fn stat(&mut self, s: Stat) {
        let k = self.cur_cpu;
        // A row per CPU; `Stat` indexes `[u64; NR_STATS]` by construction (`stats`).
        match (self.st.stats.get_mut(k as usize)).and_then(|row| row.get_mut(s as usize)) {
            Some(n) => n.bump(),
            None => prims::note_fault(&self.fault, Fault::NoSuch("cpu", k.into())),
        }
        if let Some(r) = self.rec.as_mut() {
            r.cur.stats.push(s.name().to_string());
        }
    }

    /// Charge the stepping CPU one use of cost constant `id`; returns the cycles.
    pub fn charge(&mut self, id: cost::Id) -> u64 {
        let cycles = self.cfg.costs.get(id);
        if let Some(c) = self.counts.as_mut() {
            // The counts have a row per CPU and a column per constant (`memory::Counts`).
            if let Some(n) = c
                .charges
                .get_mut(self.cur_cpu as usize)
                .and_then(|row| row.get_mut(id as usize))
            {
                n.bump();
            }
        }
        self.charge_cycles(cycles);
        cycles
    }

    /// How often each cost constant was charged on CPU `k` (`None` unless the machine was
    /// made to count, [`Machine::with_costs`]).
    pub fn charges(&self, k: usize) -> Option<&[u64; cost::N]> {
        self.counts.as_ref().and_then(|c| c.charges.get(k))
    }

    /// Cycles CPU `k` waited for prefetched lines so far (`None` unless the machine counts).
    pub fn prefetch_wait(&self, k: usize) -> Option<u64> {
        self.counts
            .as_ref()
            .and_then(|c| c.prefetch_wait.get(k).copied())
    }

    /// The cache-line transfers to CPU `k` so far (`None` unless the machine counts).
    pub fn transfers(&self, k: usize) -> Option<&memory::Transfers> {
        self.counts.as_ref().and_then(|c| c.transfers.get(k))
    }

    /// Charge the stepping CPU `cycles` of waiting for a prefetched line still on its way
    /// (counted as transfer time: the rest of the transfer the prefetch started).
    pub(in crate::model) fn wait_cycles(&mut self, cycles: u64) {
        if let Some(w) = self
            .counts
            .as_mut()
            .and_then(|c| c.prefetch_wait.get_mut(self.cur_cpu as usize))
        {
            w.bump_by(cycles);
        }
        if let Some(r) = self.rec.as_mut() {
            r.prefetch_wait.bump_by(cycles);
        }
        self.charge_cycles(cycles);
    }

    pub(in crate::model) fn charge_cycles(&mut self, cycles: u64) {
        let k = self.cur_cpu;
        match self.st.cycles.get_mut(k as usize) {
            Some(c) => c.bump_by(cycles),
            None => prims::note_fault(&self.fault, Fault::NoSuch("cpu", k.into())),
        }
        if let Some(r) = self.rec.as_mut() {
            r.cur.cycles.bump_by(cycles);
        }
    }

    pub fn recording(&self) -> bool {
        self.rec.is_some()
    }

    pub fn ev_halves(&mut self, halves: Vec<CasHalf>) {
        if let Some(r) = self.rec.as_mut() {
            r.cur.halves = halves;
        }
    }

    pub fn ev_transition(&mut self, t: Transition) {
        if let Some(r) = self.rec.as_mut() {
            r.cur.coherence.push(t);
        }
    }

    /// Note a resource the current move reads or writes (only while the explorer asks).
    #[inline]
    pub fn touch_resource(&mut self, res: u32, write: bool) {
        if let Some(f) = self.foot.as_mut() {
            f.push(res | if write { WRITE } else { 0 });
        }
    }

    pub fn variant(&self) -> &crate::scenario::Variant {
        &self.cfg.sc.variant
    }
}
