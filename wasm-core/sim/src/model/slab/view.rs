//! SLAB's part of the views (`crate::view`): a CPU's `array_cache`, a node's lists, shared array
//! and `free_objects`, a slab's `active` and free objects, who holds each object, and the
//! names and holders of SLAB's static cache lines.

use super::invariants::Place;
use super::*;
use crate::view::{
    ArrayView, ObjectOwner, RetiredArrayView, SharedReaderView, SlabNodeView, SlabOwner, SlabView,
};

impl SlabState {
    fn array_view(&self, core: &Core, ac: &ArrayCache) -> ArrayView {
        ArrayView {
            avail: ac.avail(),
            limit: ac.limit,
            batchcount: ac.batchcount,
            touched: ac.touched,
            entries: ac.entry.iter().map(|&a| core.addr_name(a)).collect(),
            handed: ac.handed,
        }
    }

    /// Slab `s` in its view: its free objects in `slab_get_obj`'s order, `active`, its owner;
    /// SLAB keeps no pointer in free objects (`fp` is `-`).
    pub(in crate::model) fn slab_slab_view(&self, core: &Core, s: SlabId, v: &mut SlabView) {
        v.freelist = self.slab_free_names(core, s);
        v.inuse = self.active(s);
        v.owner = self.slab_slab_owner(core, s);
        for o in &mut v.objects {
            o.fp = "-".into();
        }
    }

    /// CPU `k`'s `array_cache`.
    pub(in crate::model) fn cpu_array_view(&self, core: &Core, k: u32) -> ArrayView {
        self.array_view(core, self.ac(core, k))
    }

    /// Node `n`'s SLAB lists and shared array.
    pub(in crate::model) fn slab_node_view(&self, core: &Core, n: u32) -> SlabNodeView {
        let ns = self.snode(core, n);
        let names = |l: &[SlabId]| l.iter().map(|&s| core.slab_name(s)).collect();
        SlabNodeView {
            slabs_full: names(&ns.slabs_full),
            slabs_free: names(&ns.slabs_free),
            free_objects: ns.free_objects,
            free_limit: ns.free_limit,
            total_slabs: ns.total_slabs,
            free_slabs: ns.free_slabs,
            shared: ns.shared.as_ref().map(|sh| self.array_view(core, sh)),
            // Identities matter only where arrays are replaced: every other scenario's view
            // stays as it was.
            shared_id: if core.cfg.tunes {
                ns.shared.as_ref().map(|sh| format!("A{}", sh.id))
            } else {
                None
            },
            retired: self.retired_views(core, n),
            readers: self.shared_readers(core, n),
        }
    }

    /// The arrays a `tune` took off node `n`, with who freed each or who waits to.
    fn retired_views(&self, core: &Core, n: u32) -> Vec<RetiredArrayView> {
        self.retired
            .iter()
            .filter(|r| r.node == n)
            .map(|r| {
                // The grace period a context still waits out before freeing it (SN6).
                let grace = self.grace.iter().find(|g| g.arr == r.arr.id);
                RetiredArrayView {
                    id: format!("A{}", r.arr.id),
                    freed_by: r.freed_by.map(|c| core.ctx_name(c).to_string()),
                    waiter: grace.map(|g| core.ctx_name(g.ctx).to_string()),
                    waits_for: grace.map(|g| g.cpus.clone()).unwrap_or_default(),
                }
            })
            .collect()
    }

    /// Contexts between `cache_alloc_refill`'s RF2 (the pointer loaded) and RF2S (read through).
    fn shared_readers(&self, core: &Core, n: u32) -> Vec<SharedReaderView> {
        let mut out = Vec::new();
        for (ci, c) in core.st.ctxs.iter().enumerate() {
            for f in &c.stack {
                if let Frame::CacheAllocRefill {
                    pc: cache_alloc_refill::RF2S,
                    l,
                } = f
                {
                    if let (true, Some(id)) = (l.n == n, l.shared) {
                        out.push(SharedReaderView {
                            ctx: core.ctx_name(ci as CtxId).to_string(),
                            array: format!("A{id}"),
                        });
                    }
                }
            }
        }
        out
    }

    /// SLAB: the free objects of a slab, in the order `slab_get_obj` hands them out.
    pub(in crate::model) fn slab_free_names(&self, core: &Core, s: SlabId) -> Vec<String> {
        self.bufctl(s)
            .iter()
            .skip(self.active(s) as usize)
            .map(|&i| core.addr_name(core.obj_addr(s, u32::from(i))))
            .collect()
    }

    pub(in crate::model) fn slab_slab_owner(&self, core: &Core, s: SlabId) -> SlabOwner {
        let sl = core.page(s);
        match sl.life {
            Life::Discarded => return SlabOwner::Discarded,
            Life::Private => return SlabOwner::Private,
            Life::Live => {}
        }
        let at = sl.node;
        if core.node(at).partial.contains(&s) {
            SlabOwner::NodePartial { node: at }
        } else if self.snode(core, at).slabs_full.contains(&s) {
            SlabOwner::NodeFull { node: at }
        } else if self.snode(core, at).slabs_free.contains(&s) {
            SlabOwner::NodeFree { node: at }
        } else if self.destroying(core, s) {
            SlabOwner::Destroying
        } else {
            SlabOwner::None
        }
    }

    /// The owner text of every object (by `slab * objects + i`), as `ObjectView.owner` says it;
    /// computed once per view, since each answer needs every place of every object.
    pub(in crate::model) fn slab_object_owners(&self, core: &Core) -> Vec<ObjectOwner> {
        self.slab_places(core)
            .iter()
            .map(|places| match places.first() {
                Some(Place::User(v)) => ObjectOwner::User {
                    var: core.var_name(*v).to_string(),
                },
                Some(Place::Cpu(k)) => ObjectOwner::Cpu { cpu: *k as u32 },
                Some(Place::Shared(n)) => ObjectOwner::Shared { node: *n as u32 },
                Some(Place::Slab) => ObjectOwner::Slab,
                Some(Place::Inflight(c)) => ObjectOwner::Inflight {
                    ctx: core.ctx_name(*c).to_string(),
                },
                None => ObjectOwner::Lost,
            })
            .collect()
    }

    /// Where SLAB's static line `l` lies: the `off`-th line of CPU `cpu`'s `array_cache`, or
    /// of node `node`'s block (its lists, then its shared array). `None` outside them.
    fn slab_static_line(&self, core: &Core, l: u32) -> Option<SlabStaticLine> {
        let layout = core.cfg.layout.slab()?;
        if l == 0 || l >= core.cfg.static_lines() {
            return None;
        }
        // As `Config::line_cc` and `line_nd` lay them out (a CPU's array is at least a line).
        let ac_end = (core.cfg.cpus as u32)
            .saturating_mul(layout.ac_lines)
            .saturating_add(1);
        Some(if l < ac_end {
            let i = l.checked_sub(1)?;
            SlabStaticLine::Array {
                cpu: i.checked_div(layout.ac_lines)?,
                off: i.checked_rem(layout.ac_lines)?,
            }
        } else {
            let (i, per) = (l.checked_sub(ac_end)?, layout.sh_lines.saturating_add(1));
            SlabStaticLine::Node {
                node: i.checked_div(per)?,
                off: i.checked_rem(per)?,
            }
        })
    }

    /// What SLAB's static line `l` holds: a CPU's `array_cache`, a node's lists or shared array.
    pub(in crate::model) fn slab_line_holds(
        &self,
        core: &Core,
        l: u32,
    ) -> Option<crate::view::LineHolds> {
        Some(match self.slab_static_line(core, l)? {
            SlabStaticLine::Array { cpu, .. } => crate::view::LineHolds::Cpu { cpu },
            SlabStaticLine::Node { node, .. } => crate::view::LineHolds::Node { node },
        })
    }

    /// Names of SLAB's static lines (`array_cache[k]`, its entries, `node n`, `shared[n]`).
    pub(in crate::model) fn slab_line_name(&self, core: &Core, l: u32) -> Option<String> {
        let layout = core.cfg.layout.slab()?;
        let entries = |off: u32, limit: u32| {
            // Line `off` holds entries `8 * off - 2` to `8 * off + 5` (a 16-byte header first).
            let first = off.saturating_mul(8).saturating_sub(2);
            let last = (off.saturating_mul(8).saturating_add(5)).min(limit.saturating_sub(1));
            format!("entries {first}..{last}")
        };
        Some(match self.slab_static_line(core, l)? {
            SlabStaticLine::Array { cpu, off: 0 } => format!("array_cache[{cpu}]"),
            SlabStaticLine::Array { cpu, off } => {
                format!("array_cache[{cpu}] {}", entries(off, layout.limit))
            }
            SlabStaticLine::Node { node, off: 0 } => format!("node {node}"),
            SlabStaticLine::Node { node, off: 1 } => format!("shared[{node}]"),
            SlabStaticLine::Node { node, off } => {
                format!(
                    "shared[{node}] {}",
                    entries(off.saturating_sub(1), layout.shared_limit)
                )
            }
        })
    }
}

/// A static line of SLAB's layout (model.md Appendix A): a CPU's `array_cache` or a node's block.
enum SlabStaticLine {
    Array { cpu: u32, off: u32 },
    Node { node: u32, off: u32 },
}
