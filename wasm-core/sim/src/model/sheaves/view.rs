//! The views of Linux 7.0's structures: each CPU's sheaves, each node's barn, sheaves in
//! flight, who holds an object, and the names of the sheaves' cache lines.

use super::{sheaf_name, SheafId, SheavesState};
use crate::model::slab_page;
use crate::model::slab_page::chain_has;
use crate::model::state::*;
use crate::model::Block;
use crate::model::Core;
use crate::view::{BarnView, LineHolds, ObjectOwner, PcsView, SheafView, SlabOwner, SlabView};

// The entry points `allocator.rs` calls: 7.0's state and the core, lent.

// The views of 7.0's own structures, read from its state with the core.
impl SheavesState {
    /// Slab `s` in its view: SLUB's fields of it (`slab_page::slab_view`, no CPU slabs under
    /// 7.0), and, off the node's list, the refill that isolated it.
    pub(in crate::model) fn slab_view(&self, core: &Core, s: SlabId, v: &mut SlabView) {
        slab_page::slab_view(&self.pages, core, std::iter::empty(), s, v);
        if matches!(v.owner, SlabOwner::NodePartial { .. }) {
            return;
        }
        if let Some(&(c, _)) = self.isolated.iter().find(|&&(_, x)| x == s) {
            v.owner = SlabOwner::Isolated {
                ctx: core.ctx_name(c).to_string(),
            };
        }
    }

    /// Who holds object `a` under Linux 7.0 (the order of INV-S1's places).
    pub(in crate::model) fn object_owner(&self, core: &Core, a: Addr) -> ObjectOwner {
        for (vi, v) in core.st.vars.iter().enumerate() {
            if v.held() && v.addr == Some(a) {
                return ObjectOwner::User {
                    var: core.var_name(vi).to_string(),
                };
            }
        }
        if let Some(h) = self
            .sheaves
            .iter()
            .position(|sh| !sh.freed && sh.objects().contains(&a))
        {
            return ObjectOwner::Sheaf {
                sheaf: sheaf_name(h as SheafId),
            };
        }
        if let Some(&(c, _)) = self.held.iter().find(|&&(_, x)| x == a) {
            return ObjectOwner::Inflight {
                ctx: core.ctx_name(c).to_string(),
            };
        }
        if let Some(sl) = core.slab_of(a) {
            if chain_has(core, self.slab(core, sl).freelist, a) {
                return ObjectOwner::Slab;
            }
        }
        ObjectOwner::Lost
    }

    fn sheaf_view(&self, core: &Core, h: SheafId) -> SheafView {
        let sh = self.sheaf(core, h);
        SheafView {
            name: sheaf_name(h),
            capacity: SheavesState::capacity(core),
            objects: (sh.objects().iter()).map(|&a| core.addr_name(a)).collect(),
            held_by: None,
        }
    }

    /// CPU k's `slub_percpu_sheaves`.
    pub(in crate::model) fn pcs_view(&self, core: &Core, k: u32) -> PcsView {
        let p = self.pcs(core, k);
        PcsView {
            locked_by: p.holder.map(|h| core.ctx_name(h).to_string()),
            main: self.sheaf_view(core, p.main),
            spare: p.spare.map(|h| self.sheaf_view(core, h)),
        }
    }

    /// Node n's barn; `blocked` is the machine's answer to what a context waits for.
    pub(in crate::model) fn barn_view(
        &self,
        core: &Core,
        n: u32,
        blocked: impl Fn(CtxId) -> Option<Block>,
    ) -> BarnView {
        let b = self.barn(core, n);
        BarnView {
            locked_by: b.lock.map(|h| core.ctx_name(h).to_string()),
            waiters: (0..core.cfg.n_ctx as CtxId)
                .filter(|&c| matches!(blocked(c), Some(Block::BarnLock(m, _)) if m == n))
                .map(|c| core.ctx_name(c).to_string())
                .collect(),
            full: b.full.iter().map(|&h| self.sheaf_view(core, h)).collect(),
            empty: b.empty.iter().map(|&h| self.sheaf_view(core, h)).collect(),
            max_full: Self::sheaf_layout(core).max_full,
            max_empty: Self::sheaf_layout(core).max_empty,
        }
    }

    /// Sheaves neither on a CPU nor in a barn nor freed, with the context whose frames name
    /// one (`Frame::sheaves`), if any.
    pub(in crate::model) fn loose_sheaves(&self, core: &Core) -> Vec<SheafView> {
        let s = self;
        let placed = |h: SheafId| {
            s.pcs.iter().any(|p| p.main == h || p.spare == Some(h))
                || s.barns
                    .iter()
                    .any(|b| b.full.contains(&h) || b.empty.contains(&h))
        };
        ((0..).zip(&s.sheaves))
            .filter(|&(h, sh)| !sh.freed && !placed(h))
            .map(|(h, _)| {
                let mut v = self.sheaf_view(core, h);
                v.held_by = (core.st.ctxs.iter().zip(&core.cfg.ctx_ids))
                    .take(core.cfg.n_ctx)
                    .find(|(c, _)| c.stack.iter().any(|f| f.holds_sheaf(h)))
                    .map(|(_, name)| name.clone());
                v
            })
            .collect()
    }

    /// The sheaf a line past the static lines and the slabs belongs to.
    fn sheaf_of_line(&self, core: &Core, l: u32) -> Option<SheafId> {
        let lines = Self::sheaf_layout(core).lines;
        self.sheaves
            .iter()
            .position(|sh| l.checked_sub(sh.line).is_some_and(|off| off < lines))
            .map(|h| h as SheafId)
    }

    /// Names of Linux 7.0's lines: `cpu_sheaves[k]`, `barn n`, `sheaf h3` (and its slots).
    pub(in crate::model) fn sheaves_line_name(&self, core: &Core, l: u32) -> Option<String> {
        core.cfg.layout.sheaf()?;
        // The layout of `Config::line_cc` and `line_nd`: the kmem_cache line, a line per CPU,
        // then a node line and a barn line per node; the sheaves' lines after the slabs'.
        let cpus = core.cfg.cpus as u32;
        if let Some(k) = l.checked_sub(1).filter(|&k| k < cpus) {
            return Some(format!("cpu_sheaves[{k}]"));
        }
        if let Some(i) = l.checked_sub(1).and_then(|i| i.checked_sub(cpus)) {
            if l < core.cfg.static_lines() {
                let n = i / 2;
                return Some(if i.is_multiple_of(2) {
                    format!("node {n}")
                } else {
                    format!("barn {n}")
                });
            }
        }
        let h = self.sheaf_of_line(core, l)?;
        let off = l.checked_sub(self.sheaf(core, h).line)?;
        Some(if off == 0 {
            format!("sheaf {}", sheaf_name(h))
        } else {
            // Slots 0..3 share the header line, then eight a line.
            let first = off.saturating_sub(1).saturating_mul(8).saturating_add(4);
            let last = first
                .saturating_add(7)
                .min(SheavesState::capacity(core).saturating_sub(1));
            format!("sheaf {} objects[{first}..{last}]", sheaf_name(h))
        })
    }

    pub(in crate::model) fn sheaves_line_holds(&self, core: &Core, l: u32) -> Option<LineHolds> {
        core.cfg.layout.sheaf()?;
        let cpus = core.cfg.cpus as u32;
        if let Some(k) = l.checked_sub(1).filter(|&k| k < cpus) {
            return Some(LineHolds::Cpu { cpu: k });
        }
        if let Some(i) = l.checked_sub(1).and_then(|i| i.checked_sub(cpus)) {
            if l < core.cfg.static_lines() {
                let n = i / 2;
                return Some(if i.is_multiple_of(2) {
                    LineHolds::Node { node: n }
                } else {
                    LineHolds::Barn { node: n }
                });
            }
        }
        self.sheaf_of_line(core, l).map(|h| LineHolds::Sheaf {
            sheaf: sheaf_name(h),
        })
    }
}
