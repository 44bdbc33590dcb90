//! Building the view DTOs of `crate::view` from the machine state.

use super::state::*;
use super::{Core, Machine};
use crate::model::pcs::labels::*;
use crate::view::*;

/// A line of a slab's page: its metadata, or its n-th line of objects.
enum SlabLine {
    Meta(SlabId),
    Objects(SlabId, u32),
}

/// Which slab line `l` belongs to, if any: its metadata, or its `off`-th line of objects.
fn slab_line(core: &Core, l: u32) -> Option<SlabLine> {
    if l < core.cfg.static_lines() {
        return None;
    }
    core.st.slabs.iter().enumerate().find_map(|(s, sl)| {
        // The descriptor's line, then `obj_lines` lines of objects.
        match l.checked_sub(sl.line)? {
            0 => Some(SlabLine::Meta(s as SlabId)),
            d => (d.checked_sub(1))
                .filter(|&off| off < core.cfg.obj_lines)
                .map(|off| SlabLine::Objects(s as SlabId, off)),
        }
    })
}

/// The fixed lines as every allocator begins them (`Config::line_cc`, `line_nd`; all of
/// SLUB's): the `kmem_cache` line, a line per CPU, then a line per node. `None` past them.
fn shared_static_line(core: &Core, l: u32) -> Option<LineHolds> {
    if l >= core.cfg.static_lines() {
        return None;
    }
    let Some(i) = l.checked_sub(1) else {
        return Some(LineHolds::Cache);
    };
    Some(match i.checked_sub(core.cfg.cpus as u32) {
        None => LineHolds::Cpu { cpu: i },
        Some(node) => LineHolds::Node { node },
    })
}

/// The objects (`first`, `last`) of object line `off` of a slab: those that start in it
/// (`starting`), or every one whose bytes overlap its 64.
// Indices within one slab (at most a few pages, `Core::obj_addr`); the size is at
// least 1 here.
#[allow(clippy::arithmetic_side_effects)]
fn objects_of_line(core: &Core, off: u32, starting: bool) -> (u64, u64) {
    let size = core.cfg.size.max(1);
    let last_object = u64::from(core.cfg.objects.saturating_sub(1));
    let (start, end) = (u64::from(off) * 64, (u64::from(off) + 1) * 64);
    if starting {
        let per = (64 / size).max(1);
        let first = start / size;
        (first, (first + per - 1).min(last_object))
    } else {
        (start / size, ((end - 1) / size).min(last_object))
    }
}

/// Whether line `l` holds objects (not a slab's metadata, a CPU's or a node's structure).
fn is_object_line(core: &Core, l: u32) -> bool {
    matches!(slab_line(core, l), Some(SlabLine::Objects(..)))
}

impl Machine {
    fn line_name(&self, l: u32) -> String {
        if let Some(name) = self.alloc.own_line_name(&self.core, l) {
            return name;
        }
        match shared_static_line(&self.core, l) {
            Some(LineHolds::Cpu { cpu }) => return format!("cpu_slab[{cpu}]"),
            Some(LineHolds::Node { node }) => return format!("node {node}"),
            Some(_) => return "kmem_cache".into(),
            None => {}
        }
        match slab_line(&self.core, l) {
            Some(SlabLine::Meta(s)) => format!("page {}", self.core.slab_name(s)),
            Some(SlabLine::Objects(s, off)) => {
                // Named by the objects that start in it (`holds` lists every one it overlaps).
                let (first, last) = objects_of_line(&self.core, off, true);
                let p = self.core.slab_name(s).to_lowercase();
                if first == last {
                    format!("{p}{first}")
                } else {
                    format!("{p}{first}..{p}{last}")
                }
            }
            None => format!("line {l}"),
        }
    }

    /// What line `l` holds, by the same layout as `line_name`.
    fn line_holds(&self, l: u32) -> LineHolds {
        if l == 0 {
            return LineHolds::Cache;
        }
        if let Some(holds) = self.alloc.own_line_holds(&self.core, l) {
            return holds;
        }
        if let Some(holds) = shared_static_line(&self.core, l) {
            return holds;
        }
        match slab_line(&self.core, l) {
            Some(SlabLine::Meta(s)) => LineHolds::Slab {
                slab: self.core.slab_name(s),
            },
            Some(SlabLine::Objects(s, off)) => {
                // The objects whose bytes overlap this line's 64.
                let (first, last) = objects_of_line(&self.core, off, false);
                let slab = self.core.slab_name(s);
                let p = slab.to_lowercase();
                let objects = (first..=last).map(|i| format!("{p}{i}")).collect();
                LineHolds::Objects { slab, objects }
            }
            None => LineHolds::Cache,
        }
    }

    pub fn view(&self, position: usize, enabled: Vec<String>) -> View {
        let cpus = self.core.st.cpus.iter().enumerate().map(|(k, c)| {
            let mut v = CpuView {
                cpu: k as u32,
                node: self.core.node_of_cpu(k as u32),
                freelist: Vec::new(),
                tid: 0,
                tid_event: 0,
                tid_cpu: 0,
                page: None,
                partial: Vec::new(),
                irqs_enabled: c.irqs_on,
                preempt_count: c.preempt_count,
                running: c
                    .irq
                    .or(c.current)
                    .filter(|&x| (x as usize) < self.core.cfg.n_ctx)
                    .map(|x| self.core.ctx_name(x).to_string()),
                cycles: self.policy_view().cycles(k),
                array_cache: None,
                sheaves: None,
            };
            self.alloc.fill_cpu_view(&self.core, k as u32, &mut v);
            v
        });
        let owners = self.alloc.object_owners(&self.core);
        let slabs = (0..self.core.st.slabs.len() as SlabId).map(|s| {
            let pg = self.core.page(s);
            let mut v = SlabView {
                name: self.core.slab_name(s),
                node: pg.node,
                objects: (0..self.core.cfg.objects)
                    .map(|i| {
                        let a = self.core.obj_addr(s, i);
                        ObjectView {
                            name: self.core.addr_name(a),
                            addr: a,
                            // The allocator's word (`fill_slab_view`).
                            fp: String::new(),
                            owner: if pg.life == Life::Discarded {
                                ObjectOwner::Discarded
                            } else {
                                owners.of(&self.core, s, i)
                            },
                            line: self.core.obj_line(s, i),
                        }
                    })
                    .collect(),
                freelist: Vec::new(),
                inuse: 0,
                capacity: self.core.cfg.objects,
                frozen: false,
                owner: SlabOwner::None,
                slab_locked: false,
            };
            self.alloc.fill_slab_view(&self.core, s, &mut v);
            v
        });
        let nodes = self.core.st.nodes.iter().enumerate().map(|(n, node)| {
            let mut v = NodeView {
                node: n as u32,
                partial: node.partial.iter().map(|&s| self.core.slab_name(s)).collect(),
                nr_partial: node.nr_partial,
                list_lock: node.list_lock.map(|h| self.core.ctx_name(h).to_string()),
                waiters: (0..self.core.cfg.n_ctx as CtxId)
                    .filter(|&c| matches!(self.blocked(c), Some(super::Block::ListLock(m, _)) if m as usize == n))
                    .map(|c| self.core.ctx_name(c).to_string())
                    .collect(),
                slab: None,
                barn: None,
            };
            self.alloc.fill_node_view(&self.core, n as u32, &mut v, |c| self.blocked(c));
            v
        });
        let contexts = (0..self.core.cfg.n_ctx).map(|i| {
            let cx = i as CtxId;
            let c = self.core.ctx(cx);
            let cpu = self.core.cpu(c.cpu);
            let state = if c.finished {
                ContextState::Finished
            } else if c.kind == CtxKind::Irq && !c.entered {
                ContextState::Waiting
            } else if self.blocked(cx).is_some() {
                ContextState::Blocked
            } else if cpu.irq == Some(cx) || (cpu.current == Some(cx) && cpu.irq.is_none()) {
                ContextState::Running
            } else {
                ContextState::Runnable
            };
            ContextView {
                id: self.core.ctx_name(cx).to_string(),
                kind: if c.kind == CtxKind::Task {
                    ContextKind::Task
                } else {
                    ContextKind::Irq
                },
                cpu: c.cpu,
                op: (c.cur_op)
                    .and_then(|o| self.core.cfg.src_ops.get(i).and_then(|ops| ops.get(o)))
                    .map(op_text),
                op_index: c.op_index,
                ops: self.core.cfg.ops_of(cx).len(),
                label: c
                    .stack
                    .last()
                    .map(|f| format!("{}:{}", f.func().name(), f.pc().name())),
                stack: c
                    .stack
                    .iter()
                    .map(|f| f.func().name().to_string())
                    .collect(),
                state,
                preempt_count: cpu.preempt_count,
                irqs_enabled: cpu.irqs_on,
                snapshot: c
                    .stack
                    .iter()
                    .rev()
                    // The innermost fast path, its label and its locals in one match.
                    // `reading`: from the first read of the CPU's fields to the CAS.
                    // `object_read`: before these lines only the tid (and `c`) has been read:
                    // A5/E3c of `slab_alloc`, F5/F6/FE3c/FE0d of `slab_free` (`head` not read
                    // yet). `next_read`: `next = get_freepointer(s, object)` done (`slab_alloc`
                    // only).
                    .find_map(|f| match f {
                        super::state::Frame::SlabAlloc { pc, l } => {
                            use slab_alloc::Pc::*;
                            let reading = matches!(
                                pc,
                                A5 | A6
                                    | A7
                                    | A8
                                    | A9
                                    | E3c
                                    | E0d
                                    | E0e
                                    | E0f
                                    | L3
                                    | L4
                                    | L5
                                    | L5a
                                    | L5b
                                    | L5c
                            );
                            let next_read = matches!(pc, A9 | E0f | L5 | L5a | L5b | L5c);
                            let object_read = !matches!(pc, A5 | E3c);
                            Some((
                                FastOp::Alloc,
                                reading,
                                object_read,
                                next_read,
                                l.c,
                                l.tid,
                                l.obj,
                                l.nxt,
                            ))
                        }
                        super::state::Frame::SlabFree { pc, l } => {
                            use slab_free::Pc::*;
                            let reading = matches!(
                                pc,
                                F5 | F6
                                    | F7
                                    | F7b
                                    | F8
                                    | FE3c
                                    | FE0d
                                    | FE0e
                                    | FE0f
                                    | FL3
                                    | FL4
                                    | FL5
                                    | FL5a
                                    | FL5b
                                    | FL5c
                            );
                            let object_read = !matches!(pc, F5 | F6 | FE3c | FE0d);
                            Some((
                                FastOp::Free,
                                reading,
                                object_read,
                                false,
                                l.c,
                                l.tid,
                                l.f,
                                l.x,
                            ))
                        }
                        _ => None,
                    })
                    .and_then(
                        |(op, reading, object_read, next_read, cpu, tid, object, next)| {
                            reading.then(|| SnapshotView {
                                op,
                                cpu,
                                tid,
                                object: self.core.addr_name(object),
                                next: self.core.addr_name(next),
                                object_read,
                                next_read,
                            })
                        },
                    ),
            }
        });
        // A huge scenario lists only the object lines some CPU holds (MAX_LISTED_LINES).
        let compact = self.core.st.lines.len() > MAX_LISTED_LINES;
        let listed = |l: usize, states: &[Mesi]| {
            !compact
                || states
                    .iter()
                    .take(self.core.cfg.cpus)
                    .any(|s| *s != Mesi::I)
                || !is_object_line(&self.core, l as u32)
        };
        let lines: Vec<LineView> = self
            .core
            .st
            .lines
            .iter()
            .enumerate()
            .filter(|(l, states)| listed(*l, &states[..]))
            .map(|(l, states)| LineView {
                id: l as u32,
                name: self.line_name(l as u32),
                holds: self.line_holds(l as u32),
                states: states
                    .iter()
                    .take(self.core.cfg.cpus)
                    .map(|s| s.letter())
                    .collect(),
            })
            .collect();
        let lines_omitted = self.core.st.lines.len().saturating_sub(lines.len()) as u32;
        let vars = self.core.st.vars.iter().enumerate().map(|(vi, v)| VarView {
            name: self.core.var_name(vi).to_string(),
            bound: v.bound,
            object: v.addr.map(|a| self.core.addr_name(a)),
            addr: v.addr,
            held: v.held(),
        });
        View {
            schema_version: 1,
            scenario_name: self.core.cfg.sc.name.clone(),
            allocator: self.core.cfg.sc.allocator,
            variant: self.core.cfg.sc.variant.clone(),
            cache: self.core.cfg.sc.cache.clone(),
            position,
            steps: self.core.st.steps,
            tid_step: self.core.cfg.tid_step,
            cpus: cpus.collect(),
            slabs: slabs.collect(),
            nodes: nodes.collect(),
            contexts: contexts.collect(),
            lines,
            lines_omitted,
            loose_sheaves: self.alloc.loose_sheaves(&self.core),
            vars: vars.collect(),
            enabled_moves: enabled,
            violations: self.core.violations.clone(),
            finished: self.all_finished(),
            deadlock: self.deadlocked(),
        }
    }
}

pub fn op_text(op: &crate::scenario::Op) -> String {
    use crate::scenario::Op;
    match op {
        Op::Alloc { var, node: None } => format!("alloc {var}"),
        Op::Alloc { var, node: Some(n) } => format!("alloc {var} on node {n}"),
        Op::Free { var } => format!("free {var}"),
        Op::Touch { var } => format!("touch {var}"),
        Op::Flush { target: None } => "flush".into(),
        Op::Flush { target: Some(t) } => format!("flush cpu{t}"),
        Op::Tune => "tune".into(),
    }
}
