//! SLUB's part of the views (`crate::view`): its `kmem_cache_cpu` in a CPU's view, its fields
//! of a slab in the slab's view (`slab_page::view`, with its CPU slabs), and who holds an
//! object. Functions of SLUB's state over `&Core`; the machine's entry points that
//! `allocator.rs` calls lend them its two fields.

use super::super::slab_page;
use super::super::slab_page::{chain_has, chain_names};
use super::super::state::*;
use super::super::Core;
use super::SlubState;
use crate::view::*;

impl SlubState {
    /// CPU k's `kmem_cache_cpu` in its view: the freelist as a chain of names, the tid and
    /// its two parts, the CPU slab and the CPU partial list.
    pub(in crate::model) fn cpu_view(&self, core: &Core, k: u32, v: &mut CpuView) {
        let c = self.cpu_slab(core, k);
        v.freelist = chain_names(core, c.freelist);
        v.tid = c.tid;
        // TID_STEP is at least 1 (`scenario::validate`).
        v.tid_event = c.tid.checked_div(core.cfg.tid_step).unwrap_or_default();
        v.tid_cpu = c.tid.checked_rem(core.cfg.tid_step).unwrap_or_default();
        v.page = c.page.map(|p| core.slab_name(p));
        let mut cur = c.partial;
        while let Some(p) = cur {
            if v.partial.len() > core.st.slabs.len() {
                break;
            }
            v.partial.push(core.slab_name(p));
            cur = self.slab(core, p).next;
        }
    }

    /// SLUB's fields of slab `s` in its view, with its CPU slabs.
    pub(in crate::model) fn slab_view(&self, core: &Core, s: SlabId, v: &mut SlabView) {
        let cpus = self.cpu_slab.iter().map(|c| (c.page, c.partial));
        slab_page::slab_view(&self.pages, core, cpus, s, v);
    }

    /// Who holds object `a` under SLUB.
    pub(in crate::model) fn object_owner(&self, core: &Core, a: Addr) -> ObjectOwner {
        for (vi, v) in core.st.vars.iter().enumerate() {
            if v.held() && v.addr == Some(a) {
                return ObjectOwner::User {
                    var: core.var_name(vi).to_string(),
                };
            }
        }
        for (k, c) in self.cpu_slab.iter().enumerate() {
            if chain_has(core, c.freelist, a) {
                return ObjectOwner::Cpu { cpu: k as u32 };
            }
        }
        if let Some(s) = core.slab_of(a) {
            if chain_has(core, self.slab(core, s).freelist, a) {
                return ObjectOwner::Slab;
            }
        }
        for (i, c) in core.st.ctxs.iter().enumerate() {
            if c.stack.iter().any(|f| f.holds_addr(a)) {
                return ObjectOwner::Inflight {
                    ctx: core.ctx_name(i as CtxId).to_string(),
                };
            }
        }
        ObjectOwner::Lost
    }
}

// The entry points `allocator.rs` calls: SLUB's state and the core, lent.
