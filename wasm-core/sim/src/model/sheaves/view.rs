//! The views of Linux 7.0's structures: each CPU's sheaves, each node's barn, sheaves in
//! flight, who holds an object, and the names of the sheaves' cache lines.

use super::{sheaf_name, sv, SheafId, SheavesState};
use crate::model::state::*;
use crate::model::Machine;
use crate::view::{BarnView, LineHolds, ObjectOwner, PcsView, SheafView, SlabOwner, SlabView};

impl Machine {
    fn sheaf_view(&self, h: SheafId) -> SheafView {
        let sh = self.sheaf(h);
        SheafView {
            name: sheaf_name(h),
            capacity: SheavesState::capacity(&self.core),
            objects: (sh.objects().iter())
                .map(|&a| self.core.addr_name(a))
                .collect(),
            held_by: None,
        }
    }

    /// Slab `s` in its view: SLUB's fields of it, and, off the node's list, the refill that
    /// isolated it.
    pub(in crate::model) fn sheaves_slab_view(&self, s: SlabId, v: &mut SlabView) {
        self.slub_slab_view(s, v);
        if matches!(v.owner, SlabOwner::NodePartial { .. }) {
            return;
        }
        if let Some(&(c, _)) = sv!(self).isolated.iter().find(|&&(_, x)| x == s) {
            v.owner = SlabOwner::Isolated {
                ctx: self.core.ctx_name(c).to_string(),
            };
        }
    }

    /// CPU k's `slub_percpu_sheaves`.
    pub(in crate::model) fn pcs_view(&self, k: u32) -> PcsView {
        let p = self.pcs(k);
        PcsView {
            locked_by: p.holder.map(|h| self.core.ctx_name(h).to_string()),
            main: self.sheaf_view(p.main),
            spare: p.spare.map(|h| self.sheaf_view(h)),
        }
    }

    /// Node n's barn.
    pub(in crate::model) fn barn_view(&self, n: u32) -> BarnView {
        let b = self.barn(n);
        BarnView {
            locked_by: b.lock.map(|h| self.core.ctx_name(h).to_string()),
            waiters: (0..self.core.cfg.n_ctx as CtxId)
                .filter(|&c| {
                    matches!(self.blocked(c), Some(crate::model::executor::Block::BarnLock(m, _)) if m == n)
                })
                .map(|c| self.core.ctx_name(c).to_string())
                .collect(),
            full: b.full.iter().map(|&h| self.sheaf_view(h)).collect(),
            empty: b.empty.iter().map(|&h| self.sheaf_view(h)).collect(),
            max_full: self.sheaf_layout().max_full,
            max_empty: self.sheaf_layout().max_empty,
        }
    }

    /// Sheaves neither on a CPU nor in a barn nor freed, with the context whose frames name
    /// one (`Frame::sheaves`), if any.
    pub(in crate::model) fn loose_sheaves(&self) -> Option<Vec<SheafView>> {
        let AllocState::Sheaves(s) = &self.alloc else {
            return None;
        };
        let placed = |h: SheafId| {
            s.pcs.iter().any(|p| p.main == h || p.spare == Some(h))
                || s.barns
                    .iter()
                    .any(|b| b.full.contains(&h) || b.empty.contains(&h))
        };
        Some(
            ((0..).zip(&s.sheaves))
                .filter(|&(h, sh)| !sh.freed && !placed(h))
                .map(|(h, _)| {
                    let mut v = self.sheaf_view(h);
                    v.held_by = (self.core.st.ctxs.iter().zip(&self.core.cfg.ctx_ids))
                        .take(self.core.cfg.n_ctx)
                        .find(|(c, _)| c.stack.iter().any(|f| f.holds_sheaf(h)))
                        .map(|(_, name)| name.clone());
                    v
                })
                .collect(),
        )
    }

    /// Who holds object `a` under Linux 7.0 (the order of INV-S1's places).
    pub(in crate::model) fn sheaves_object_owner(&self, a: Addr) -> ObjectOwner {
        for (vi, v) in self.core.st.vars.iter().enumerate() {
            if v.held() && v.addr == Some(a) {
                return ObjectOwner::User {
                    var: self.core.var_name(vi).to_string(),
                };
            }
        }
        let s = sv!(self);
        if let Some(h) = s
            .sheaves
            .iter()
            .position(|sh| !sh.freed && sh.objects().contains(&a))
        {
            return ObjectOwner::Sheaf {
                sheaf: sheaf_name(h as SheafId),
            };
        }
        if let Some(&(c, _)) = s.held.iter().find(|&&(_, x)| x == a) {
            return ObjectOwner::Inflight {
                ctx: self.core.ctx_name(c).to_string(),
            };
        }
        if let Some(sl) = self.core.slab_of(a) {
            if self.chain_has(self.slab(sl).freelist, a) {
                return ObjectOwner::Slab;
            }
        }
        ObjectOwner::Lost
    }

    /// The sheaf a line past the static lines and the slabs belongs to.
    fn sheaf_of_line(&self, l: u32) -> Option<SheafId> {
        let AllocState::Sheaves(s) = &self.alloc else {
            return None;
        };
        let lines = self.sheaf_layout().lines;
        s.sheaves
            .iter()
            .position(|sh| l.checked_sub(sh.line).is_some_and(|off| off < lines))
            .map(|h| h as SheafId)
    }

    /// Names of Linux 7.0's lines: `cpu_sheaves[k]`, `barn n`, `sheaf h3` (and its slots).
    pub(in crate::model) fn sheaves_line_name(&self, l: u32) -> Option<String> {
        self.core.cfg.layout.sheaf()?;
        // The layout of `Config::line_cc` and `line_nd`: the kmem_cache line, a line per CPU,
        // then a node line and a barn line per node; the sheaves' lines after the slabs'.
        let cpus = self.core.cfg.cpus as u32;
        if let Some(k) = l.checked_sub(1).filter(|&k| k < cpus) {
            return Some(format!("cpu_sheaves[{k}]"));
        }
        if let Some(i) = l.checked_sub(1).and_then(|i| i.checked_sub(cpus)) {
            if l < self.core.cfg.static_lines() {
                let n = i / 2;
                return Some(if i.is_multiple_of(2) {
                    format!("node {n}")
                } else {
                    format!("barn {n}")
                });
            }
        }
        let h = self.sheaf_of_line(l)?;
        let off = l.checked_sub(self.sheaf(h).line)?;
        Some(if off == 0 {
            format!("sheaf {}", sheaf_name(h))
        } else {
            // Slots 0..3 share the header line, then eight a line.
            let first = off.saturating_sub(1).saturating_mul(8).saturating_add(4);
            let last = first
                .saturating_add(7)
                .min(SheavesState::capacity(&self.core).saturating_sub(1));
            format!("sheaf {} objects[{first}..{last}]", sheaf_name(h))
        })
    }

    pub(in crate::model) fn sheaves_line_holds(&self, l: u32) -> Option<LineHolds> {
        self.core.cfg.layout.sheaf()?;
        let cpus = self.core.cfg.cpus as u32;
        if let Some(k) = l.checked_sub(1).filter(|&k| k < cpus) {
            return Some(LineHolds::Cpu { cpu: k });
        }
        if let Some(i) = l.checked_sub(1).and_then(|i| i.checked_sub(cpus)) {
            if l < self.core.cfg.static_lines() {
                let n = i / 2;
                return Some(if i.is_multiple_of(2) {
                    LineHolds::Node { node: n }
                } else {
                    LineHolds::Barn { node: n }
                });
            }
        }
        self.sheaf_of_line(l).map(|h| LineHolds::Sheaf {
            sheaf: sheaf_name(h),
        })
    }
}
