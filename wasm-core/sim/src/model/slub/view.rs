//! SLUB's part of the views (`crate::view`): its `kmem_cache_cpu` in a CPU's view, its fields
//! of a slab in the slab's view, and who holds an object or a slab.

use super::super::state::*;
use super::super::Machine;
use crate::view::*;

impl Machine {
    /// CPU k's `kmem_cache_cpu` in its view: the freelist as a chain of names, the tid and
    /// its two parts, the CPU slab and the CPU partial list.
    pub(in crate::model) fn slub_cpu_view(&self, k: u32, v: &mut CpuView) {
        let c = self.cpu_slab(k);
        v.freelist = self.chain_names(c.freelist);
        v.tid = c.tid;
        // TID_STEP is at least 1 (`scenario::validate`).
        v.tid_event = c
            .tid
            .checked_div(self.core.cfg.tid_step)
            .unwrap_or_default();
        v.tid_cpu = c
            .tid
            .checked_rem(self.core.cfg.tid_step)
            .unwrap_or_default();
        v.page = c.page.map(|p| self.core.slab_name(p));
        let mut cur = c.partial;
        while let Some(p) = cur {
            if v.partial.len() > self.core.st.slabs.len() {
                break;
            }
            v.partial.push(self.core.slab_name(p));
            cur = self.slab(p).next;
        }
    }

    /// SLUB's fields of slab `s` in its view, with each object's free-pointer word (7.0's
    /// too: it keeps SLUB's slab level).
    pub(in crate::model) fn slub_slab_view(&self, s: SlabId, v: &mut SlabView) {
        for o in &mut v.objects {
            o.fp = self
                .core
                .addr_name(self.core.peek_fp(o.addr).unwrap_or(DATA));
        }
        let sl = self.slab(s);
        v.freelist = self.chain_names(sl.freelist);
        v.inuse = sl.counters.inuse;
        v.capacity = sl.counters.objects;
        v.frozen = sl.counters.frozen;
        v.owner = self.slub_slab_owner(s);
        v.slab_locked = sl.slab_lock.is_some();
    }

    /// Who owns slab `s` under SLUB (7.0 adds the slabs a refill isolated: `sheaves`).
    fn slub_slab_owner(&self, s: SlabId) -> SlabOwner {
        let sl = self.slab(s);
        match self.core.page(s).life {
            Life::Discarded => return SlabOwner::Discarded,
            Life::Private => return SlabOwner::Private,
            Life::Live => {}
        }
        for (k, c) in self.alloc.cpu_slabs().iter().enumerate() {
            if c.page == Some(s) {
                return SlabOwner::Cpu { cpu: k as u32 };
            }
        }
        for (k, c) in self.alloc.cpu_slabs().iter().enumerate() {
            if self.chain_contains(c.partial, s) {
                return SlabOwner::CpuPartial { cpu: k as u32 };
            }
        }
        for (n, node) in self.core.st.nodes.iter().enumerate() {
            if node.partial.contains(&s) {
                return SlabOwner::NodePartial { node: n as u32 };
            }
        }
        if sl.freelist == NULL {
            SlabOwner::Full
        } else {
            SlabOwner::None
        }
    }

    /// Who holds object `a` under SLUB.
    pub(in crate::model) fn slub_object_owner(&self, a: Addr) -> ObjectOwner {
        for (vi, v) in self.core.st.vars.iter().enumerate() {
            if v.held() && v.addr == Some(a) {
                return ObjectOwner::User {
                    var: self.core.var_name(vi).to_string(),
                };
            }
        }
        for (k, c) in self.alloc.cpu_slabs().iter().enumerate() {
            if self.chain_has(c.freelist, a) {
                return ObjectOwner::Cpu { cpu: k as u32 };
            }
        }
        if let Some(s) = self.core.slab_of(a) {
            if self.chain_has(self.slab(s).freelist, a) {
                return ObjectOwner::Slab;
            }
        }
        for (i, c) in self.core.st.ctxs.iter().enumerate() {
            if c.stack.iter().any(|f| f.holds_addr(a)) {
                return ObjectOwner::Inflight {
                    ctx: self.core.ctx_name(i as CtxId).to_string(),
                };
            }
        }
        ObjectOwner::Lost
    }
}
