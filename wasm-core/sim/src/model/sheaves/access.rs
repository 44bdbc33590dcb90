//! Linux 7.0's lookups of its own state (`impl SheavesState`, given the core for its fault
//! cell and its configuration): a CPU's `slub_percpu_sheaves`, a sheaf, a node's barn, the
//! cache's sheaf geometry, and which CPU a sheaf belongs to; and what its functions ask of the
//! core alone (`SheavesState::f(core, ..)`: lines, the variant's lock, the stepping context).

use super::*;
use crate::model::config::SheafLayout;
use crate::model::slab_page::{self, SlabPages, SlubPage};
use crate::model::Core;

/// What a read gets where the lookups below find nothing.
static NO_SHEAF: Sheaf = Sheaf {
    slots: Vec::new(),
    size: 0,
    line: 0,
    freed: true,
};
static NO_PCS: Pcs = Pcs {
    holder: None,
    main: 0,
    spare: None,
};
static NO_BARN: Barn = Barn {
    lock: None,
    full: Vec::new(),
    empty: Vec::new(),
};
static NO_SHEAF_LAYOUT: SheafLayout = SheafLayout {
    capacity: 0,
    max_full: 0,
    max_empty: 0,
    lines: 1,
};

// Lookups of Linux 7.0's state, as the machine's (`prims`): only its code runs under it, every
// CPU has its sheaves, every node its barn, a sheaf id names a sheaf ever allocated (sheaves
// are never removed: a freed one keeps its id). Anything else is an internal error of the
// model: noted in the core's cell, an empty stand-in read, a write skipped (`None`).
impl SheavesState {
    pub(super) fn sheaf(&self, core: &Core, h: SheafId) -> &Sheaf {
        (self.sheaves.get(h as usize)).unwrap_or_else(|| core.missing("sheaf", h.into(), &NO_SHEAF))
    }
    pub(super) fn sheaf_mut(&mut self, core: &Core, h: SheafId) -> Option<&mut Sheaf> {
        let sh = self.sheaves.get_mut(h as usize);
        crate::model::prims::found(&core.fault, "sheaf", h.into(), sh)
    }
    /// CPU k's `slub_percpu_sheaves`.
    pub(super) fn pcs(&self, core: &Core, k: u32) -> &Pcs {
        (self.pcs.get(k as usize))
            .unwrap_or_else(|| core.missing("sheaves of cpu", k.into(), &NO_PCS))
    }
    pub(super) fn pcs_mut(&mut self, core: &Core, k: u32) -> Option<&mut Pcs> {
        let p = self.pcs.get_mut(k as usize);
        crate::model::prims::found(&core.fault, "sheaves of cpu", k.into(), p)
    }
    /// Node n's barn.
    pub(super) fn barn(&self, core: &Core, n: u32) -> &Barn {
        (self.barns.get(n as usize))
            .unwrap_or_else(|| core.missing("barn of node", n.into(), &NO_BARN))
    }
    pub(super) fn barn_mut(&mut self, core: &Core, n: u32) -> Option<&mut Barn> {
        let b = self.barns.get_mut(n as usize);
        crate::model::prims::found(&core.fault, "barn of node", n.into(), b)
    }

    /// The cache's sheaf geometry (the core's configuration holds it).
    pub(super) fn sheaf_layout(core: &Core) -> &SheafLayout {
        // `Config::from_scenario` made the layout of every Linux 7.0 scenario.
        core.cfg.layout.sheaf().unwrap_or_else(|| {
            core.fault(Fault::Broken(
                "the sheaves' code ran without a sheaf layout",
            ));
            &NO_SHEAF_LAYOUT
        })
    }

    /// SLUB's fields of slab `s` (7.0 keeps SLUB's slab level: `slab_page::slab`).
    pub(super) fn slab(&self, core: &Core, s: SlabId) -> &SlubPage {
        slab_page::slab(&self.pages, core, s)
    }
    pub(super) fn slab_mut(&mut self, core: &Core, s: SlabId) -> Option<&mut SlubPage> {
        let sl = self.pages.get_mut(s as usize);
        crate::model::prims::found(&core.fault, "slab", s.into(), sl)
    }
    /// The slab level's primitives on 7.0's slabs, lent with the core (`SlabPages`).
    pub(super) fn slabs<'a>(&'a mut self, core: &'a mut Core) -> SlabPages<'a> {
        SlabPages {
            pages: &mut self.pages,
            core,
        }
    }

    /// The CPU whose sheaves a sheaf is `main` or `spare` of, if any.
    pub(super) fn sheaf_cpu(&self, h: SheafId) -> Option<u32> {
        self.pcs
            .iter()
            .position(|p| p.main == h || p.spare == Some(h))
            .map(|k| k as u32)
    }
}

// What 7.0's functions ask of the core alone: its lines, its variant, the stepping context.
impl SheavesState {
    /// `PCS(k)`: CPU k's `slub_percpu_sheaves` (the per-CPU line of the layout).
    pub(super) fn line_pcs(core: &Core, k: u32) -> u32 {
        core.cfg.line_cc(k)
    }
    /// `BN(n)`: node n's barn, the line after `ND(n)`.
    pub(super) fn line_bn(core: &Core, n: u32) -> u32 {
        core.cfg.line_nd(n).saturating_add(1)
    }
    pub(super) fn locked_pcs(core: &Core) -> bool {
        core.variant().pcs_lock == PcsLock::Trylock
    }
    /// Whether the stepping context may allocate with a blocking gfp (`GFP_KERNEL`): tasks
    /// do; interrupt handlers allocate with `GFP_ATOMIC` (model.md C.7's fixture).
    pub(super) fn can_block(core: &Core) -> bool {
        core.ctx(core.cur).kind == CtxKind::Task
    }

    /// `get_barn(s)`: the barn of CPU k's node, through `s->node[]` (read-mostly, on the
    /// `kmem_cache` line here) and the node's `barn` pointer.
    pub(super) fn get_barn(core: &mut Core, k: u32) -> u32 {
        let n = core.node_of_cpu(k);
        core.access(core.cfg.line_kc(), Access::Read);
        core.access(core.cfg.line_nd(n), Access::Read);
        n
    }

    /// Count `n` for a statistic at once (`stat_add`).
    pub(super) fn stat_add(core: &mut Core, s: Stat, n: u32) {
        for _ in 0..n {
            core.stat(s);
        }
    }
}
