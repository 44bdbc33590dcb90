//! Cache lines and MESI (design.md §3, model.md §6). Every access a step makes goes through
//! [`Core::access`], which moves the line between the CPUs' caches and charges the cycles of
//! `cost.rs` (counted per constant when the Lab asks). The protocol is textbook MESI with a directory view: a read miss takes the line
//! Shared (Exclusive if nobody has it), a write invalidates every other copy.

use super::Core;
use crate::event::Transition;
use crate::model::cost::{self, Id};
use crate::model::state::{Mesi, PrefetchInFlight, MAX_CPUS};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    /// A store or a read-modify-write: needs the line Modified.
    Write,
    /// `prefetch`: brings the line in for reading, charged `PREFETCH` only.
    Prefetch,
    /// `prefetchw`: brings the line in exclusive, charged `PREFETCH` only.
    PrefetchW,
    /// The memory operand of an atomic instruction (a cmpxchg, a lock's read-modify-write):
    /// needs the line Modified like a store, but on a hit costs nothing beyond the
    /// instruction's own constant ([`Core::atomic`]).
    Atomic,
}

/// Cache-line transfers by the kind of line (model.md §6 names): an access that took a line
/// another CPU held (a Modified copy, or a clean one it had to share or invalidate). Counted
/// per CPU when the Lab asks (`Machine::with_costs`), so its runs need no events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Transfers {
    pub total: u64,
    /// Of those, taken from a Modified copy in another cache (the 75-cycle kind).
    pub from_modified: u64,
    /// Of those, brought in by a prefetch (charged the issue cost only).
    pub prefetched: u64,
    /// `OBJ(o)`: an object's free-pointer line.
    pub object: u64,
    /// `PG(P)`: a slab descriptor.
    pub slab_page: u64,
    /// `CC(k)`: a CPU's `kmem_cache_cpu`.
    pub cpu_slab: u64,
    /// `ND(n)`: a node's `list_lock` line.
    pub node: u64,
    /// `KC`: the `kmem_cache` itself.
    pub cache: u64,
    /// Re-reads of a held lock's line by a CPU spinning on it ([`Core::spin_read`]),
    /// counted by the Lab's driver for the spinner's operation: coherence traffic that costs
    /// the spinner nothing (it is waiting anyway) and makes the holder's next write to the
    /// line an invalidation. Not in `total`.
    pub spin_reads: u64,
}

impl Transfers {
    // Counts of bounded runs: far below u64::MAX.
    #[allow(clippy::arithmetic_side_effects)]
    pub fn add(&mut self, o: &Transfers) {
        self.total += o.total;
        self.from_modified += o.from_modified;
        self.prefetched += o.prefetched;
        self.object += o.object;
        self.slab_page += o.slab_page;
        self.cpu_slab += o.cpu_slab;
        self.node += o.node;
        self.cache += o.cache;
        self.spin_reads += o.spin_reads;
    }

    /// `self - earlier`, field by field (counters only grow).
    pub fn since(&self, earlier: &Transfers) -> Transfers {
        Transfers {
            total: self.total.saturating_sub(earlier.total),
            from_modified: self.from_modified.saturating_sub(earlier.from_modified),
            prefetched: self.prefetched.saturating_sub(earlier.prefetched),
            object: self.object.saturating_sub(earlier.object),
            slab_page: self.slab_page.saturating_sub(earlier.slab_page),
            cpu_slab: self.cpu_slab.saturating_sub(earlier.cpu_slab),
            node: self.node.saturating_sub(earlier.node),
            cache: self.cache.saturating_sub(earlier.cache),
            spin_reads: self.spin_reads.saturating_sub(earlier.spin_reads),
        }
    }
}

/// What a counting machine counts, per CPU: each cost constant's charges and the transfers.
#[derive(Clone, Debug)]
pub struct Counts {
    pub charges: [[u64; cost::N]; MAX_CPUS],
    pub transfers: [Transfers; MAX_CPUS],
    /// Cycles spent waiting for a prefetched line to arrive.
    pub prefetch_wait: [u64; MAX_CPUS],
}

impl Default for Counts {
    fn default() -> Self {
        Counts {
            charges: [[0; cost::N]; MAX_CPUS],
            transfers: [Transfers::default(); MAX_CPUS],
            prefetch_wait: [0; MAX_CPUS],
        }
    }
}

impl Core {
    /// Count a transfer of `line` to the stepping CPU by the kind of line.
    // Counts of a bounded run; `line >= statics` in the last two branches.
    #[allow(clippy::arithmetic_side_effects)]
    fn count_transfer(&mut self, line: u32, modified: bool, prefetch: bool) {
        let (cpus, statics, obj_lines) = (
            self.cfg.cpus as u32,
            self.cfg.static_lines(),
            self.cfg.obj_lines,
        );
        let Some(c) = self.counts.as_mut() else {
            return;
        };
        let Some(t) = c.transfers.get_mut(self.cur_cpu as usize) else {
            return;
        };
        t.total += 1;
        t.from_modified += u64::from(modified);
        t.prefetched += u64::from(prefetch);
        if line == 0 {
            t.cache += 1;
        } else if line <= cpus {
            t.cpu_slab += 1;
        } else if line < statics {
            t.node += 1;
        } else if (line - statics).is_multiple_of(obj_lines + 1) {
            t.slab_page += 1;
        } else {
            t.object += 1;
        }
    }

    /// Touch `line` from the stepping CPU; returns the cycles charged.
    pub fn access(&mut self, line: u32, acc: Access) -> u64 {
        if self.foot.is_some() {
            // A prefetch changes only coherence, but that is state too.
            self.touch_resource(line, acc != Access::Read);
        }
        let waited = if matches!(acc, Access::Read | Access::Write | Access::Atomic) {
            self.wait_for_prefetch(line)
        } else {
            0
        };
        waited.saturating_add(self.access_now(line, acc))
    }

    /// `cycles` pass on CPU `k` outside the model's steps (a driver's spinning or sleeping):
    /// prefetches on their way to it arrive that much sooner on its step clock.
    pub fn pass_time(&mut self, k: u32, cycles: u64) {
        let now = self.cpu_cycles(k as usize);
        for p in self.st.prefetches.iter_mut().filter(|p| p.cpu == k) {
            p.at = p.at.saturating_sub(cycles).max(now);
        }
    }

    /// A read or write of a line this CPU prefetched and that is still on its way waits for
    /// the rest of its transfer (the line is already this CPU's in the MESI view: the
    /// protocol acts at once, only the time is spread). Returns the cycles waited.
    fn wait_for_prefetch(&mut self, line: u32) -> u64 {
        let me = self.cur_cpu;
        let Some(i) = self
            .st
            .prefetches
            .iter()
            .position(|p| p.line == line && p.cpu == me)
        else {
            return 0;
        };
        let p = self.st.prefetches.swap_remove(i);
        let now = self.my_cycles();
        // Another CPU took the line meanwhile: this access misses on its own.
        if self.line(line).get(me as usize) == Some(&Mesi::I) || p.at <= now {
            return 0;
        }
        let wait = p.at.saturating_sub(now);
        self.wait_cycles(wait);
        wait
    }

    fn access_now(&mut self, line: u32, acc: Access) -> u64 {
        let me = self.cur_cpu as usize;
        let states = self.line(line);
        let mine = states.get(me).copied().unwrap_or(Mesi::I);
        // The common case: a hit that changes no state.
        if mine == Mesi::M
            || (acc == Access::Read && mine != Mesi::I)
            || (acc == Access::Prefetch && mine != Mesi::I)
        {
            return match acc {
                Access::Prefetch | Access::PrefetchW => self.charge(Id::Prefetch),
                Access::Read | Access::Write | Access::Atomic => {
                    self.charge_operand(acc, Id::L1Hit)
                }
            };
        }
        let ncpu = self.cfg.cpus;
        let write = matches!(acc, Access::Write | Access::PrefetchW | Access::Atomic);
        // Where the line comes from when we miss: a Modified copy, a clean copy, or memory.
        let mut modified_at = None;
        let mut clean_at = None;
        for (k, s) in states.iter().enumerate().take(ncpu) {
            if k == me {
                continue;
            }
            match s {
                Mesi::M => modified_at = Some(k),
                Mesi::E | Mesi::S => clean_at = clean_at.or(Some(k)),
                Mesi::I => {}
            }
        }
        let hit = match mine {
            Mesi::M | Mesi::E => true,
            Mesi::S => !write,
            Mesi::I => false,
        };
        let mut charged = if hit {
            Id::L1Hit
        } else if let Some(k) = modified_at {
            self.transfer_cost(k, Id::ModifiedInOtherCore)
        } else if let Some(k) = clean_at {
            self.transfer_cost(k, Id::CleanInOtherCore)
        } else if mine == Mesi::S {
            // Upgrade of a line only we share: no other copy to invalidate.
            Id::L1Hit
        } else {
            Id::L3Unshared
        };
        let mut next = states;
        if write {
            for (k, s) in next.iter_mut().enumerate().take(ncpu) {
                *s = if k == me { Mesi::M } else { Mesi::I };
            }
        } else if !hit {
            let alone = modified_at.is_none() && clean_at.is_none();
            for (k, s) in next.iter_mut().enumerate().take(ncpu) {
                if k == me {
                    *s = if alone { Mesi::E } else { Mesi::S };
                } else if *s != Mesi::I {
                    *s = Mesi::S;
                }
            }
        }
        if matches!(acc, Access::Prefetch | Access::PrefetchW) {
            // The prefetch costs its issue; the line arrives after the transfer it started.
            if charged != Id::L1Hit {
                let at = self
                    .my_cycles()
                    .saturating_add(self.cfg.costs.get(Id::Prefetch))
                    .saturating_add(self.cfg.costs.get(charged));
                let cpu = me as u32;
                // Keep only what is still on its way (a line that has arrived costs nothing).
                let cycles = &self.st.cycles;
                self.st.prefetches.retain(|p| {
                    !(p.line == line && p.cpu == cpu)
                        && cycles.get(p.cpu as usize).is_some_and(|&c| p.at > c)
                });
                self.st.prefetches.push(PrefetchInFlight { line, cpu, at });
            }
            charged = Id::Prefetch;
        }
        if next != states {
            // A transfer: this CPU gained the line (a miss, or an upgrade of a Shared copy)
            // and another CPU's copy changed.
            let gained = mine == Mesi::I || (mine == Mesi::S && write);
            let changed = |k: usize| next.get(k) != states.get(k);
            let others = (0..ncpu).any(|k| k != me && changed(k));
            if gained && others && self.counts.is_some() {
                let prefetch = matches!(acc, Access::Prefetch | Access::PrefetchW);
                self.count_transfer(line, modified_at.is_some(), prefetch);
            }
            if self.recording() {
                for (k, (from, to)) in states.iter().zip(&next).enumerate().take(ncpu) {
                    if from != to {
                        self.ev_transition(Transition {
                            line,
                            cpu: k as u32,
                            from: from.letter(),
                            to: to.letter(),
                        });
                    }
                }
            }
            if let Some(l) = self.line_mut(line) {
                *l = next;
            }
        }
        self.charge_operand(acc, charged)
    }

    /// Charge what an access's line cost, `id`; an atomic's operand on a line already this
    /// CPU's is free (see [`Core::atomic`]).
    fn charge_operand(&mut self, acc: Access, id: Id) -> u64 {
        if acc == Access::Atomic && id == Id::L1Hit {
            0
        } else {
            self.charge(id)
        }
    }

    /// An atomic instruction on `line` from the stepping CPU: its memory operand (a transfer
    /// if another CPU holds the line) and its constant `id`. The table's figures for atomics
    /// were measured on a line already in L1 (M8, M10: the instruction in a loop), so a hit
    /// adds nothing to them; charging an L1 hit as well would count the operand twice.
    pub fn atomic(&mut self, line: u32, id: Id) -> u64 {
        self.access(line, Access::Atomic)
            .saturating_add(self.charge(id))
    }

    fn transfer_cost(&self, from_cpu: usize, same_socket: Id) -> Id {
        if self.node_of_cpu(from_cpu as u32) != self.my_node() {
            Id::RemoteSocket
        } else {
            same_socket
        }
    }

    /// CPU `k`, spinning on a lock whose word is in `line`, re-reads it: a test-and-test-and-set
    /// waiter loops on plain loads of the lock word (the kernel's queued spinlock makes the
    /// first waiter do so; model.md §7 "contended locks"), so it holds the line Shared while the
    /// holder works and takes a copy back after each of the holder's writes to it. No cycles are
    /// charged (the spinner's clock is the driver's). Returns whether the line moved (the
    /// spinner had no copy): a coherence event the driver counts.
    pub fn spin_read(&mut self, k: u32, line: u32) -> bool {
        let (k, cpus) = (k as usize, self.cfg.cpus);
        let Some(states) = self.st.lines.get_mut(line as usize) else {
            return false;
        };
        if states.get(k).is_none_or(|s| *s != Mesi::I) {
            return false;
        }
        // Nobody holds it (the holder's copy left every cache): the spinner reads it alone.
        let alone = states.iter().all(|s| *s == Mesi::I);
        for (j, s) in states.iter_mut().enumerate().take(cpus) {
            if j == k {
                *s = if alone { Mesi::E } else { Mesi::S };
            } else if *s != Mesi::I {
                *s = Mesi::S;
            }
        }
        true
    }

    /// Drop a line from every cache (a discarded slab's page goes back to the allocator).
    pub fn invalidate_line(&mut self, line: u32) {
        if let Some(l) = self.line_mut(line) {
            *l = [Mesi::I; MAX_CPUS];
        }
    }
}
