//! Allocation's slow path with interrupts off: `__slab_alloc` of 3.x–5.14 (v3.10, model.md
//! §2.4) and `get_freelist` (§2.5), which 5.15+'s slow path (`alloc_slow_ll`) calls too.

use super::memory::Access;
use super::state::*;
use super::FlushSlab;
use super::NewSlab;
use super::{Flow, SlubState, Stat};
use crate::model::locals::{GetFreelist, SlabAllocSlow};
use crate::model::pcs::labels::*;
use crate::model::slab_page::Counters;
use crate::model::Core;
use crate::scenario::{Fastpath, Slowpath};

impl Locals for SlabAllocSlow {
    fn returned(&mut self, r: Ret) {
        self.ret = r;
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.f == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(self.pg);
        mark(self.p);
        mark(self.old);
        mark(self.ret.slab);
    }
}

impl Locals for GetFreelist {
    fn returned(&mut self, r: Ret) {
        if let Some(ok) = r.ok {
            self.ok = ok;
        }
    }
    fn holds_addr(&self, a: Addr) -> bool {
        self.freelist == a
    }
    fn slabs<F: FnMut(Option<SlabId>)>(&self, mark: &mut F) {
        mark(Some(self.slab));
    }
}

impl SlubState {
    /// `__slab_alloc` of 3.x–5.14 (irqs off throughout; 5.15+'s, under the local lock, is the step
    /// machine `slab_alloc_slow_ll`).
    pub(in crate::model) fn slab_alloc_slow(
        &mut self,
        core: &mut Core,
        pc: &mut slab_alloc_slow::Pc,
        fr: &mut SlabAllocSlow,
    ) -> Flow {
        use slab_alloc_slow::Pc::*;
        let ll = core.variant().slowpath == Slowpath::LocalLock;
        match *pc {
            B1 => {
                if core.fastpath() == Fastpath::IrqDisable {
                    // E0: the fast path already disabled interrupts; the slow path of that era
                    // ran inside the same section instead of saving them again.
                    fr.saved_irq = false;
                    *pc = B2;
                    return Flow::Go;
                }
                step!(core);
                core.irq_save(&mut fr.saved_irq);
                note!(
                    core,
                    IrqOff,
                    "irqs".into(),
                    "Slow path: local_irq_save; the rest runs with interrupts off."
                );
                *pc = B2;
                Flow::Step
            }
            B2 => {
                step!(core);
                fr.c = core.me();
                note!(
                    core,
                    Pcpu,
                    format!("cpu_slab[{}]", fr.c),
                    "Reload c: we may have migrated since the fast path (cpu{}).",
                    fr.c
                );
                *pc = B3;
                Flow::Step
            }
            B3 => {
                step!(core);
                fr.pg = self.ld_page(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].page", fr.c),
                    "Read the CPU slab: {}.",
                    core.slab_opt_name(fr.pg)
                );
                *pc = if fr.pg.is_none() { B14 } else { B4 };
                Flow::Step
            }
            B4 => {
                if !SlubState::node_ok(core, fr.pg, fr.node) {
                    core.stat(Stat::ALLOC_NODE_MISMATCH);
                    if core.fastpath() == Fastpath::TidUnguarded {
                        // 3.1's deactivate_slab(s, c) bumps tid and clears c->page and
                        // c->freelist before stage one: flush_slab's 3.1 order (T1–T4), without
                        // its CPUSLAB_FLUSH.
                        *pc = B14;
                        return Flow::call(Frame::FlushSlab {
                            pc: flush_slab::T1,
                            l: FlushSlab {
                                c: fr.c,
                                ..FlushSlab::default()
                            },
                        });
                    }
                    *pc = B4a;
                } else if Self::v3_1_slow_path(core) {
                    // 3.1 has no B5: the re-read of c->freelist came with "slub: fix a
                    // possible memleak in __slab_alloc()" (v3.2). An object an irq or a
                    // migration put on c->freelist meanwhile is overwritten and lost.
                    fr.flag = false;
                    *pc = B6;
                } else {
                    *pc = B5;
                }
                Flow::Go
            }
            B4a => {
                step!(core);
                fr.f = self.ld_freelist(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Slab {} is on the wrong node: deactivate it with its freelist {}.",
                    core.slab_opt_name(fr.pg),
                    core.addr_name(fr.f)
                );
                *pc = B4d;
                Flow::Step
            }
            B4d => {
                *pc = B4b;
                Flow::call(SlubState::deactivate_frame(
                    core,
                    need!(core, fr.pg),
                    fr.f,
                    fr.c,
                ))
            }
            B4b => {
                step!(core);
                self.st_page(core, fr.c, None);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].page", fr.c),
                    "c->page := NULL."
                );
                *pc = B4c;
                Flow::Step
            }
            B4c => {
                step!(core);
                self.st_freelist(core, fr.c, NULL);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "c->freelist := NULL (no tid bump on this path in 3.10)."
                );
                *pc = B14;
                Flow::Step
            }
            B5 => {
                step!(core);
                fr.f = self.ld_freelist(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "Re-read the CPU freelist: {}.",
                    core.addr_name(fr.f)
                );
                fr.flag = false;
                *pc = if fr.f != NULL { B10 } else { B6 };
                Flow::Step
            }
            B6 => {
                if !SlubState::alloc_slowpath_counted_by_caller(core) {
                    core.stat(Stat::ALLOC_SLOWPATH);
                }
                *pc = B8;
                Flow::call(Frame::GetFreelist {
                    pc: get_freelist::G1,
                    l: GetFreelist {
                        slab: need!(core, fr.pg),
                        ..GetFreelist::default()
                    },
                })
            }
            B8 => {
                fr.f = fr.ret.value;
                *pc = if fr.f == NULL { B8a } else { B9 };
                Flow::Go
            }
            // `goto new_slab` is B8a's (B8b's); the refill goes on to load_freelist.
            B9 => {
                core.stat(Stat::ALLOC_REFILL);
                fr.flag = true;
                *pc = B10;
                Flow::Go
            }
            B8a => {
                step!(core);
                self.st_page(core, fr.c, None);
                core.stat(Stat::DEACTIVATE_BYPASS);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].page", fr.c),
                    "The slab had nothing left and was unfrozen by get_freelist: c->page := NULL."
                );
                *pc = if ll { B8b } else { B14 };
                Flow::Step
            }
            B8b => {
                step!(core);
                self.bump_tid(core, fr.c);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].tid", fr.c),
                    "5.19+ (Jann Horn's 2022 fix): the bypass exit bumps tid too."
                );
                *pc = B14;
                Flow::Step
            }
            B10 => SlubState::s_load_freelist_next(core, pc, fr.f, &mut fr.nxt, B11),
            B11 => self.s_store_freelist_next(core, pc, fr.c, fr.nxt, &mut fr.flag, B12),
            B12 => {
                step!(core);
                self.bump_tid(core, fr.c);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].tid", fr.c),
                    "Bump tid to {}: any fast path suspended on this CPU will now fail its CAS.",
                    self.cpu_slab(core, fr.c).tid
                );
                *pc = B13;
                Flow::Step
            }
            B13 => {
                step!(core);
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    IrqOn,
                    "irqs".into(),
                    "local_irq_restore: slow path done, returning {}.",
                    core.addr_name(fr.f)
                );
                Flow::Ret(Ret::new(fr.f, None))
            }
            B14 => self.s_load_cpu_partial(
                core,
                pc,
                fr.c,
                &mut fr.p,
                B15,
                B17,
                "Look at the CPU partial list",
            ),
            B15 => self.s_install_cpu_partial(core, pc, fr.c, fr.p, B15b),
            B15b => {
                step!(core);
                let p = need!(core, fr.p);
                core.access(core.page(p).line, Access::Read);
                let next = self.slab(core, p).next;
                self.st_partial(core, fr.c, next);
                core.stat(Stat::CPU_PARTIAL_ALLOC);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].partial", fr.c),
                    "c->partial := {}.",
                    core.slab_opt_name(next)
                );
                *pc = B16;
                Flow::Step
            }
            B16 => {
                step!(core);
                self.st_freelist(core, fr.c, NULL);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].freelist", fr.c),
                    "c->freelist := NULL; redo with {}.",
                    core.slab_opt_name(fr.p)
                );
                fr.pg = fr.p;
                *pc = B4;
                Flow::Step
            }
            B17 => {
                // get_partial: the requested node (or this CPU's), then any other node.
                let first = fr.node.unwrap_or(core.my_node());
                fr.count = 0;
                fr.n = Some(first);
                *pc = B17r;
                Flow::call(SlubState::get_partial_frame(first, fr.c, false))
            }
            B17r => {
                if fr.ret.value != NULL {
                    fr.f = fr.ret.value;
                    fr.pg = self.cpu_slab(core, fr.c).page;
                    fr.flag = true;
                    *pc = B10;
                    return Flow::Go;
                }
                if let Some(p) = fr.ret.slab {
                    // 6.8+ partial slabs come off the list unfrozen: freeze the first now.
                    fr.p = Some(p);
                    *pc = B17f;
                    return Flow::call(Frame::GetFreelist {
                        pc: get_freelist::G1,
                        l: GetFreelist {
                            slab: p,
                            ..GetFreelist::default()
                        },
                    });
                }
                // get_any_partial: only for NUMA_NO_NODE requests.
                let next = fr.count.saturating_add(1);
                if let Some(n) = Self::any_partial_node(core, fr.n, fr.node, next) {
                    fr.count = next;
                    return Flow::call(SlubState::get_partial_frame(n, fr.c, true));
                }
                fr.n = None;
                *pc = B18r;
                Flow::call(Frame::NewSlab {
                    pc: new_slab::N1,
                    l: NewSlab {
                        node: fr.node,
                        ..NewSlab::default()
                    },
                })
            }
            B17f => {
                fr.f = fr.ret.value;
                fr.flag = true;
                *pc = B17g;
                Flow::Go
            }
            B17g => {
                step!(core);
                let p = need!(core, fr.p);
                self.st_page(core, fr.c, Some(p));
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].page", fr.c),
                    "c->page := {}, frozen by taking its freelist.",
                    core.slab_name(p)
                );
                fr.pg = Some(p);
                *pc = B10;
                Flow::Step
            }
            B18r => {
                match fr.ret.slab {
                    Some(p) => {
                        fr.p = Some(p);
                        *pc = B19;
                    }
                    None => *pc = B18f,
                }
                Flow::Go
            }
            B18f => {
                step!(core);
                core.irq_restore(fr.saved_irq);
                note!(
                    core,
                    IrqOn,
                    "irqs".into(),
                    "Out of memory: the slow path returns NULL (no tid bump on this exit in 3.10)."
                );
                Flow::Ret(Ret::new(NULL, None))
            }
            B19 => {
                step!(core);
                fr.c = core.me();
                note!(
                    core,
                    Pcpu,
                    format!("cpu_slab[{}]", fr.c),
                    "Reload c after new_slab: we may be on another CPU now (cpu{}).",
                    fr.c
                );
                *pc = B20;
                Flow::Step
            }
            B20 => {
                step!(core);
                fr.old = self.ld_page(core, fr.c);
                note!(
                    core,
                    Load,
                    format!("cpu_slab[{}].page", fr.c),
                    "Is there a CPU slab already? {}.",
                    core.slab_opt_name(fr.old)
                );
                *pc = B20c;
                Flow::Step
            }
            B20c => {
                *pc = B21;
                if fr.old.is_some() {
                    return Flow::call(Frame::FlushSlab {
                        pc: flush_slab::W1,
                        l: FlushSlab {
                            c: fr.c,
                            ..FlushSlab::default()
                        },
                    });
                }
                Flow::Go
            }
            B21 => {
                step!(core);
                let p = need!(core, fr.p);
                core.access(core.page(p).line, Access::Write);
                fr.f = self.slab(core, p).freelist;
                if let Some(sl) = self.slab_mut(core, p) {
                    sl.freelist = NULL;
                }
                note!(
                    core,
                    Store,
                    format!("page {}.freelist", core.slab_name(p)),
                    "Take the new slab's whole freelist ({}...) and leave it empty.",
                    core.addr_name(fr.f)
                );
                *pc = B22;
                Flow::Step
            }
            B22 => {
                step!(core);
                let p = need!(core, fr.p);
                self.st_page(core, fr.c, Some(p));
                if let Some(pg) = core.page_mut(p) {
                    pg.life = Life::Live;
                }
                core.stat(Stat::ALLOC_SLAB);
                note!(
                    core,
                    Store,
                    format!("cpu_slab[{}].page", fr.c),
                    "Install {} as the CPU slab.",
                    core.slab_name(p)
                );
                fr.pg = Some(p);
                fr.flag = true;
                *pc = B10;
                Flow::Step
            }
        }
    }

    /// `get_any_partial`'s `i`th node after the first one tried (`fr.n`), round the nodes;
    /// `None` once every node was tried, or for a request of one node (`fr.node`).
    pub(super) fn any_partial_node(
        core: &Core,
        n: Option<u32>,
        node: Option<u32>,
        i: u32,
    ) -> Option<u32> {
        let nodes = core.cfg.sc.nodes;
        let first = n.unwrap_or(0);
        // Both below `nodes` (at most `MAX_NODES`): the sum cannot wrap.
        (node.is_none() && i < nodes).then(|| first.wrapping_add(i).checked_rem(nodes))?
    }

    /// `get_freelist` (model.md §2.5): take the CPU slab's freelist, unfreezing it if empty.
    pub(in crate::model) fn get_freelist(
        &mut self,
        core: &mut Core,
        pc: &mut get_freelist::Pc,
        fr: &mut GetFreelist,
    ) -> Flow {
        use get_freelist::Pc::*;
        let p = fr.slab;
        match *pc {
            G1 => {
                step!(core);
                core.access(core.page(p).line, Access::Read);
                fr.freelist = self.slab(core, p).freelist;
                note!(
                    core,
                    Load,
                    format!("page {}.freelist", core.slab_name(p)),
                    "get_freelist: read {}'s freelist: {}.",
                    core.slab_name(p),
                    core.addr_name(fr.freelist)
                );
                *pc = G2;
                Flow::Step
            }
            G2 => {
                step!(core);
                core.access(core.page(p).line, Access::Read);
                fr.counters = self.slab(core, p).counters;
                note!(
                    core,
                    Load,
                    format!("page {}.counters", core.slab_name(p)),
                    "Read {}'s counters: {}.",
                    core.slab_name(p),
                    crate::model::slab_page::counters_text(fr.counters)
                );
                fr.new = Counters {
                    inuse: fr.counters.objects,
                    objects: fr.counters.objects,
                    frozen: fr.freelist != NULL,
                };
                *pc = G3;
                Flow::Step
            }
            G3 => self.cas2_site(
                core,
                pc,
                &mut fr.ok,
                p,
                (fr.freelist, fr.counters),
                (NULL, fr.new),
                false,
                G3r,
            ),
            G3r => {
                if fr.ok {
                    Flow::Ret(Ret::new(fr.freelist, None))
                } else {
                    *pc = G1;
                    Flow::Go
                }
            }
        }
    }
}
