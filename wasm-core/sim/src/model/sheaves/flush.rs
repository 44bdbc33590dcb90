//! Flushing sheaves back to slabs under Linux 7.0 (model.md C.3.9, C.3.11): `sheaf_flush_main`,
//! `sheaf_flush_unused`, `__kmem_cache_free_bulk` (which frees a batch to its slabs), and the CPU
//! hotplug and `flush_all` work (`slub_cpu_dead`, `pcs_flush_all`). Locals are named as in
//! `free`.

use super::super::memory::Access;
use super::{call, sheaf_name, SheavesState, PCS_BATCH_MAX};
use crate::model::locals::{
    KmemCacheFreeBulk, PcsFlushAll, SheafFlushMain, SheafFlushUnused, SlubCpuDead,
};
use crate::model::pcs::labels::*;
use crate::model::state::*;
use crate::model::{Core, Flow, Stat};

impl Locals for KmemCacheFreeBulk {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.tail == a || self.freelist == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.slab);
        mark(self.ret.slab);
    }
}

impl Locals for PcsFlushAll {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.spare, None]
    }
}

impl Locals for SheafFlushMain {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.ret.slab);
    }
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.main, None]
    }
}

impl Locals for SheafFlushUnused {
    fn sheaves(&self) -> [Option<u32>; 2] {
        [Some(self.sheaf), None]
    }
}

impl Locals for SlubCpuDead {
    fn sheaves(&self) -> [Option<u32>; 2] {
        [self.main, self.spare]
    }
}

impl SheavesState {
    /// `sheaf_flush_main` (FM1–FM7): take up to `PCS_BATCH_MAX` objects off the main sheaf
    /// under the trylock and free them to their slabs without it, until main is empty.
    /// Returns 1 if it flushed anything.
    pub(in crate::model) fn sheaf_flush_main(
        &mut self,
        core: &mut Core,
        pc: &mut sheaf_flush_main::Pc,
        fr: &mut SheafFlushMain,
    ) -> Flow {
        use sheaf_flush_main::Pc::*;
        match *pc {
            FM1 => {
                *pc = FM1r;
                call(local_trylock::LT1, |_| {})
            }
            FM1r => {
                if fr.ret.value == 0 {
                    return Flow::Ret(Ret::new(fr.flushed as Addr, None).counted(fr.remaining));
                }
                fr.pcs = fr.ret.count;
                *pc = FM2;
                Flow::Go
            }
            FM2 => {
                step!(core);
                let m = self.ld_pcs(core, fr.pcs).main;
                let size = self.ld_size(core, m);
                fr.main = Some(m);
                fr.batch = size.min(PCS_BATCH_MAX);
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(m)),
                    "sheaf_flush_main: main {} holds {size}; take {}.",
                    sheaf_name(m),
                    fr.batch
                );
                *pc = FM3;
                Flow::Step
            }
            FM3 => {
                step!(core);
                let m = need!(core, fr.main);
                let size = self.sheaf(core, m).size;
                let b = fr.batch.min(size);
                let rest = size.saturating_sub(b);
                self.st_size(core, m, rest, false);
                let mut batch = Vec::new();
                for i in rest..size {
                    let x = self.ld_slot(core, m, i);
                    batch.push(x);
                    self.hold(core, x);
                }
                fr.arr = batch;
                fr.remaining = rest;
                note!(
                    core,
                    Store,
                    format!("sheaf {}.size", sheaf_name(m)),
                    "main->size := {rest}; copy the {b} pointer(s) above it to an on-stack batch."
                );
                *pc = FM4;
                Flow::Step
            }
            FM4 => {
                *pc = FM5;
                let c = fr.pcs;
                call(local_unlock_v7::LU1, |f| f.cpu = c)
            }
            FM5 => {
                *pc = FM5r;
                let batch = std::mem::take(&mut fr.arr);
                call(kmem_cache_free_bulk::KB1, |f| f.arr = batch)
            }
            FM5r => {
                SheavesState::stat_add(core, Stat::SHEAF_FLUSH, fr.batch);
                fr.flushed = true;
                if fr.remaining > 0 {
                    *pc = FM1;
                    return Flow::Go;
                }
                Flow::Ret(Ret::new(1, None).counted(fr.remaining))
            }
        }
    }

    /// `sheaf_flush_unused(h)` (FU1–FU4) for a sheaf on no CPU (or a dead CPU's), hence with
    /// no lock: free all of its objects to their slabs.
    pub(in crate::model) fn sheaf_flush_unused(
        &mut self,
        core: &mut Core,
        pc: &mut sheaf_flush_unused::Pc,
        fr: &mut SheafFlushUnused,
    ) -> Flow {
        use sheaf_flush_unused::Pc::*;
        let h = fr.sheaf;
        match *pc {
            FU1 => {
                step!(core);
                let n = self.ld_size(core, h);
                note!(
                    core,
                    Load,
                    format!("sheaf {}.size", sheaf_name(h)),
                    "sheaf_flush_unused({}): {n} object(s).",
                    sheaf_name(h)
                );
                if n == 0 {
                    return Flow::Ret(Ret::new(NULL, None));
                }
                *pc = FU3;
                Flow::Step
            }
            FU3 => {
                step!(core);
                // The sheaf is this context's alone (or a dead CPU's): emptying it before
                // handing its pointers to the bulk free, rather than after as the kernel
                // does, is invisible to everyone else and keeps each object in one place.
                let n = self.sheaf(core, h).size;
                SheavesState::stat_add(core, Stat::SHEAF_FLUSH, n);
                let mut batch = Vec::new();
                for i in 0..n {
                    let x = self.ld_slot(core, h, i);
                    batch.push(x);
                    self.hold(core, x);
                }
                self.st_size(core, h, 0, true);
                fr.arr = batch;
                note!(
                    core,
                    Store,
                    format!("sheaf {}", sheaf_name(h)),
                    "Hand the {n} object(s) of {} to __kmem_cache_free_bulk; size := 0.",
                    sheaf_name(h)
                );
                *pc = FU3r;
                Flow::Step
            }
            FU3r => {
                *pc = FU4;
                let batch = std::mem::take(&mut fr.arr);
                call(kmem_cache_free_bulk::KB1, |f| f.arr = batch)
            }
            FU4 => Flow::Ret(Ret::new(NULL, None)),
        }
    }

    /// `__kmem_cache_free_bulk(p)` (KB1–KB3): group the batch by slab with
    /// `build_detached_freelist` (the last object, then same-slab objects looking back, up to
    /// three others) and free each group with one `__slab_free`.
    pub(in crate::model) fn kmem_cache_free_bulk(
        &mut self,
        core: &mut Core,
        pc: &mut kmem_cache_free_bulk::Pc,
        fr: &mut KmemCacheFreeBulk,
    ) -> Flow {
        use kmem_cache_free_bulk::Pc::*;
        match *pc {
            KB1 => {
                let Some(&x) = fr.arr.last() else {
                    return Flow::Ret(Ret::new(NULL, None).counted(fr.size));
                };
                step!(core);
                fr.arr.pop();
                let p = need!(core, core.slab_of(x));
                core.access(core.page(p).line, Access::Read);
                core.store_fp(x, NULL);
                fr.slab = Some(p);
                fr.freelist = x;
                fr.tail = x;
                fr.ret.count = 1;
                fr.size = fr.arr.len() as u32;
                fr.same = fr.size;
                fr.lookahead = 3;
                note!(
                    core,
                    Store,
                    format!("{}.fp", core.addr_name(x)),
                    "build_detached_freelist: a new group for slab {} from {} (its free pointer := NULL).",
                    core.slab_name(p),
                    core.addr_name(x)
                );
                *pc = KB2;
                Flow::Step
            }
            KB2 => {
                if fr.size == 0 || fr.lookahead == 0 {
                    fr.arr.truncate(fr.same as usize);
                    *pc = KB3;
                    return Flow::Go;
                }
                step!(core);
                fr.size = fr.size.saturating_sub(1);
                let i = fr.size as usize;
                let y = need!(core, fr.arr.get(i).copied());
                let p = need!(core, fr.slab);
                let py = core.slab_of(y);
                if let Some(s) = py {
                    core.access(core.page(s).line, Access::Read);
                }
                if py == Some(p) {
                    core.store_fp(y, fr.freelist);
                    note!(
                        core,
                        Store,
                        format!("{}.fp", core.addr_name(y)),
                        "{} is of slab {} too: link it in front ({} -> {}).",
                        core.addr_name(y),
                        core.slab_name(p),
                        core.addr_name(y),
                        core.addr_name(fr.freelist)
                    );
                    fr.freelist = y;
                    fr.ret.count.bump();
                    fr.same = fr.same.saturating_sub(1);
                    let same = fr.same as usize;
                    if i != same {
                        // Both within the batch (`same` counts its entries).
                        need!(core, fr.arr.get(same));
                        fr.arr.swap(i, same);
                    }
                } else {
                    fr.lookahead = fr.lookahead.saturating_sub(1);
                    note!(
                        core,
                        Load,
                        format!("page of {}", core.addr_name(y)),
                        "{} is of another slab ({} more look(s) back).",
                        core.addr_name(y),
                        fr.lookahead
                    );
                }
                Flow::Step
            }
            KB3 => {
                *pc = KB1;
                let (p, head, tail, cnt) =
                    (need!(core, fr.slab), fr.freelist, fr.tail, fr.ret.count);
                call(slab_free_slow_v7::SS2, |f| {
                    f.slab = p;
                    f.head = head;
                    f.tail = tail;
                    f.cnt = cnt;
                })
            }
        }
    }

    /// `slub_cpu_dead(d)` on a survivor (HP2–HP4): empty the dead CPU's sheaves without its
    /// lock ("the cpu is not executing anymore"); main stays installed, spare is freed.
    pub(in crate::model) fn slub_cpu_dead(
        &mut self,
        core: &mut Core,
        pc: &mut slub_cpu_dead::Pc,
        fr: &mut SlubCpuDead,
    ) -> Flow {
        use slub_cpu_dead::Pc::*;
        let d = fr.cpu;
        match *pc {
            HP2 => {
                step!(core);
                let p = self.ld_pcs(core, d);
                fr.main = Some(p.main);
                fr.spare = p.spare;
                note!(
                    core,
                    Load,
                    format!("cpu_sheaves[{d}]"),
                    "slub_cpu_dead(cpu{d}): main {}, spare {}.",
                    sheaf_name(p.main),
                    p.spare.map_or("NULL".into(), sheaf_name)
                );
                *pc = HP3;
                Flow::Step
            }
            HP3 => {
                *pc = HP4;
                let m = need!(core, fr.main);
                call(sheaf_flush_unused::FU1, |f| f.sheaf = m)
            }
            HP4 => {
                let Some(sp) = fr.spare else {
                    return Flow::Ret(Ret::new(NULL, None));
                };
                *pc = HP4r;
                call(sheaf_flush_unused::FU1, |f| f.sheaf = sp)
            }
            HP4r => {
                step!(core);
                let sp = need!(core, fr.spare);
                self.st_pcs(core, d, None, Some(None), true);
                self.sheaf_free(core, sp);
                *pc = HP4f;
                Flow::Step
            }
            HP4f => Flow::Ret(Ret::new(NULL, None)),
        }
    }

    /// `pcs_flush_all` on this CPU (the work `flush_all` queues): detach the spare under the
    /// lock, flush and free it, then flush main in batches.
    pub(in crate::model) fn pcs_flush_all(
        &mut self,
        core: &mut Core,
        pc: &mut pcs_flush_all::Pc,
        fr: &mut PcsFlushAll,
    ) -> Flow {
        use pcs_flush_all::Pc::*;
        match *pc {
            LL1 => {
                *pc = FA1a;
                call(local_lock_v7::LL1, |_| {})
            }
            FA1a => {
                fr.pcs = fr.ret.count;
                *pc = FA1b;
                Flow::Go
            }
            FA1b => {
                step!(core);
                let k = fr.pcs;
                let sp = self.ld_pcs(core, k).spare;
                fr.spare = sp;
                if sp.is_some() {
                    self.st_pcs(core, k, None, Some(None), false);
                }
                note!(
                    core,
                    Store,
                    format!("cpu_sheaves[{k}].spare"),
                    "pcs_flush_all: {}",
                    match sp {
                        Some(s) => format!("detach the spare {} (spare := NULL).", sheaf_name(s)),
                        None => "no spare to detach.".into(),
                    }
                );
                *pc = FA1u;
                Flow::Step
            }
            FA1u => {
                *pc = FA2r;
                let k = fr.pcs;
                call(local_unlock_v7::LU1, |f| f.cpu = k)
            }
            FA2r => {
                let Some(sp) = fr.spare else {
                    *pc = FA4r;
                    return call(sheaf_flush_main::FM1, |_| {});
                };
                *pc = FA2f;
                call(sheaf_flush_unused::FU1, |f| f.sheaf = sp)
            }
            FA2f => {
                step!(core);
                let sp = need!(core, fr.spare.take());
                self.sheaf_free(core, sp);
                *pc = FA2r;
                Flow::Step
            }
            FA4r => Flow::Ret(Ret::new(NULL, None)),
        }
    }
}
