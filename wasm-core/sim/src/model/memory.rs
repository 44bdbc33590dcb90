//! Cache lines and MESI (DESIGN §3, spec §6). Every access a step makes goes through
//! [`Machine::access`], which moves the line between the CPUs' caches and charges the cycles of
//! `cost.rs` (counted per constant when the Lab asks). The protocol is textbook MESI with a directory view: a read miss takes the line
//! Shared (Exclusive if nobody has it), a write invalidates every other copy.

use super::cost::Id;
use super::state::{Mesi, MAX_CPUS};
use super::Machine;
use crate::event::Transition;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    /// A store or a read-modify-write: needs the line Modified.
    Write,
    /// `prefetch`: brings the line in for reading, charged `PREFETCH` only.
    Prefetch,
    /// `prefetchw`: brings the line in exclusive, charged `PREFETCH` only.
    PrefetchW,
}

impl Machine {
    /// Touch `line` from the stepping CPU; returns the cycles charged.
    pub fn access(&mut self, line: u32, acc: Access) -> u64 {
        if self.foot.is_some() {
            // A prefetch changes only coherence, but that is state too.
            self.touch_resource(line, acc != Access::Read);
        }
        let me = self.cur_cpu as usize;
        let mine = self.st.lines[line as usize][me];
        // The common case: a hit that changes no state.
        if mine == Mesi::M
            || (acc == Access::Read && mine != Mesi::I)
            || (acc == Access::Prefetch && mine != Mesi::I)
        {
            return self.charge(match acc {
                Access::Read | Access::Write => Id::L1Hit,
                Access::Prefetch | Access::PrefetchW => Id::Prefetch,
            });
        }
        let ncpu = self.cfg.cpus;
        let states = self.st.lines[line as usize];
        let write = matches!(acc, Access::Write | Access::PrefetchW);
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
            charged = Id::Prefetch;
        }
        if next != states {
            if self.recording() {
                for k in 0..ncpu {
                    if next[k] != states[k] {
                        self.ev_transition(Transition {
                            line,
                            cpu: k as u32,
                            from: states[k].letter(),
                            to: next[k].letter(),
                        });
                    }
                }
            }
            self.st.lines[line as usize] = next;
        }
        self.charge(charged)
    }

    fn transfer_cost(&self, from_cpu: usize, same_socket: Id) -> Id {
        let nodes = &self.cfg.cpu_node;
        if nodes[from_cpu] != nodes[self.cur_cpu as usize] {
            Id::RemoteSocket
        } else {
            same_socket
        }
    }

    /// Drop a line from every cache (a discarded slab's page goes back to the allocator).
    pub fn invalidate_line(&mut self, line: u32) {
        self.st.lines[line as usize] = [Mesi::I; MAX_CPUS];
    }
}
