//! Bounded exhaustive exploration of a scenario's interleavings, breadth first, so
//! the first violation found is reached by a shortest schedule.
//!
//! **What is explored.** Every schedule of the scenario's tasks and interrupt handlers over
//! the moves of design.md §3: a context's next step (which may switch a task in, i.e. preempt
//! the current one, or enter an interrupt handler) and `migrate:<task>:<cpu>`. The scenario's
//! own `schedule` is ignored. Bounds, each optional: preemptions (switching away from a context
//! that could have gone on, counted CHESS-style, irq entries excluded), migrations, irq
//! entries, executions (schedules run to a final state), states, and a cancel callback that
//! the caller can drive from a clock (the model itself reads no clock).
//!
//! **Reduction: sleep sets, with visited-state hashing.** Two moves are *independent* at a
//! state when their footprints do not conflict: the footprint of a move is every resource it
//! reads or writes, recorded while it runs (`Machine::foot`): each 64-byte cache line it
//! accesses (every load, store, CAS, lock and prefetch goes through one; locks and the
//! per-CPU, slab and node structures are all lines), the scheduling state of a CPU (who is
//! current, irq flag, preempt count: read by a step, written by a switch, an irq entry or
//! exit, an irq or preempt toggle, a migration), the context's own program, and the page
//! allocator. Two footprints conflict when they share a resource and one of them writes it.
//! Independent moves commute: running them in either order gives the same kernel state,
//! and neither enables or disables the other, because enabledness is a function of exactly
//! the scheduling state and locks recorded above. Statistics and cycle counters are sums and
//! commute too; only `last_moved` (the default policy's memory) differs, and it never
//! influences the kernel.
//!
//! Sleep sets (Godefroid 1996) skip a move that was already explored from an earlier sibling
//! and is independent of everything done since. They prune *transitions*, never *states*:
//! every reachable state is still visited, so every invariant violation (a predicate on one
//! state) is still found — and because all linearisations of one trace have the same
//! length, breadth-first order still finds a shortest violating schedule. A footprint carried
//! in a sleep set stays valid in the children: a move independent of what ran since reads
//! the same state there. The classic pitfall of sleep sets with state caching is handled by
//! remembering, per state, the sleep sets it was explored with: a revisit with a sleep set
//! that is not a superset of a recorded one is explored again (with the intersection).
//! State identity is a 128-bit hash of the behaviour-relevant machine state (`state_key`); a collision could hide a state, with probability far below anything a test can see.
//! With the preemption bound on, the bound itself is a heuristic (as in CHESS): it limits
//! which schedules exist, and the reduction is sound for the schedules within it.

use crate::model::heap_block;
use crate::model::state::Bump;
use crate::model::{Driver, Machine, Move, WRITE};
use crate::scenario::Scenario;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// The bounds of a search.
#[derive(Clone, Debug)]
pub struct Bounds {
    pub max_preemptions: Option<u32>,
    pub max_migrations: Option<u32>,
    pub max_irq_entries: Option<u32>,
    pub max_executions: u64,
    pub max_states: u64,
    /// The memory the search may hold (the frontier's machines and the visited set, about);
    /// reached, it stops with `complete: false` and says so.
    pub max_memory_mb: u64,
    /// Use the sleep-set reduction (off only to measure what it saves).
    pub reduction: bool,
}

/// The default memory budget: room natively and inside a browser tab's wasm32 heap (4 GiB at
/// most, and a tab that is also drawing the page).
pub const DEFAULT_MAX_MEMORY_MB: u64 = 1024;

/// The default wall-clock limit of `explore` natively (ms), as the page's explorer has (its
/// form's 10 s): a search that would run for minutes stops and says so (`--timeout-ms`).
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// The largest memory budget a search may be given (`explore --max-memory-mb`): wasm32's
/// whole address space, where the same search runs in the browser.
pub const MAX_MEMORY_MB_CEILING: u64 = 4096;

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_preemptions: Some(3),
            max_migrations: Some(2),
            max_irq_entries: None,
            max_executions: 1_000_000,
            max_states: 2_000_000,
            max_memory_mb: DEFAULT_MAX_MEMORY_MB,
            reduction: true,
        }
    }
}

/// Progress, reported every few hundred states.
#[derive(Clone, Debug, Default, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "ExploreProgressCounts")]
pub struct Progress {
    pub executions: u64,
    pub states: u64,
    pub depth: usize,
    pub frontier: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(rename = "ExploreViolation")]
pub struct FoundViolation {
    pub invariant: String,
    pub message: String,
    /// The moves that reach it; `slub-lab run --schedule` replays them.
    pub schedule: Vec<String>,
}

#[derive(Clone, Debug, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "ExploreResult")]
pub struct Report {
    pub executions: u64,
    pub states: u64,
    pub transitions: u64,
    /// Moves skipped by the sleep sets.
    pub pruned: u64,
    pub max_depth: usize,
    /// Every schedule within the bounds was explored (no limit hit, not cancelled, no
    /// violation stopped the search early).
    pub complete: bool,
    pub cancelled: bool,
    /// Schedules the bounds cut before their end (every enabled move was over a bound).
    pub cut_by_bounds: u64,
    /// The most memory the search held, estimated (MB; see `Bounds::max_memory_mb`).
    pub peak_memory_mb: u64,
    /// Why `complete` is false, in words (absent when it is true).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub incomplete: Option<String>,
    pub violations: Vec<FoundViolation>,
}

/// How many of each bounded kind of move a path has used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Used {
    preemptions: u32,
    migrations: u32,
    irq_entries: u32,
}

/// A move with the footprint it had where it was explored.
#[derive(Clone, Debug)]
struct Slept {
    mv: Move,
    foot: Rc<Vec<u32>>,
}

/// A persistent list of moves (the path to a node), shared between siblings.
struct PathNode {
    mv: Move,
    parent: Option<Rc<PathNode>>,
}

struct Node {
    m: Machine,
    path: Option<Rc<PathNode>>,
    depth: usize,
    used: Used,
    sleep: Vec<Slept>,
    /// The heap this node holds while queued (its machine's vectors, its sleep set, the
    /// footprint of the move that made it), as counted into [`Held`] when it was queued.
    held: usize,
}

/// What the search holds, counted as it grows: the budget and
/// `peakMemoryMb` are this, not a guess from the queue alone. Each heap allocation counts as
/// the block malloc gives it ([`heap_block`]).
#[derive(Default)]
struct Held {
    /// Σ `Node::held` over the queue.
    queued: usize,
    /// The visited set's per-state vectors (the sleep sets each state was explored with).
    visited_heap: usize,
    /// Path nodes: one per state queued, kept while a descendant is queued (counted for every
    /// state: an upper bound that is near in a breadth-first search).
    paths: usize,
}

impl Held {
    // Sizes of what is in memory: far below `usize::MAX`.
    #[allow(clippy::arithmetic_side_effects)]
    fn bytes(&self, queue: &VecDeque<Node>, visited: &HashMap<u128, Vec<Vec<Move>>>) -> usize {
        // hashbrown keeps a power of two of buckets, 7/8 of them usable, and a control byte
        // per bucket.
        let buckets = (visited.capacity() * 8 / 7).next_power_of_two();
        let table = buckets * (std::mem::size_of::<(u128, Vec<Vec<Move>>)>() + 1);
        heap_block(queue.capacity() * std::mem::size_of::<Node>())
            + self.queued
            + table
            + self.visited_heap
            + self.paths
    }
}

fn conflict(a: &[u32], b: &[u32]) -> bool {
    a.iter().any(|&x| {
        b.iter()
            .any(|&y| (x & !WRITE) == (y & !WRITE) && ((x | y) & WRITE) != 0)
    })
}

/// A fast two-lane hasher (128 bits in one pass; not for adversarial input, which states are
/// not). Each lane is a multiply-rotate mix with its own odd constant.
struct Lanes(u64, u64);

impl Hasher for Lanes {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            for (to, from) in w.iter_mut().zip(chunk) {
                *to = *from;
            }
            self.write_u64(u64::from_le_bytes(w));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
        self.1 = (self.1 ^ x.rotate_left(17))
            .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            .rotate_left(31);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }
    fn write_u16(&mut self, x: u16) {
        self.write_u64(x as u64);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x as u64);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0 ^ self.1
    }
}

/// The identity of a state for the visited set: everything that decides what happens next
/// (per-CPU structures, slabs and objects, nodes, contexts with their frames, variables,
/// who moved last) and nothing that only records history (statistics, cycles, step count,
/// cache-line states, which only price accesses). States that differ only in history behave
/// identically, so merging them loses no behaviour.
fn state_key(m: &Machine, used: &Used) -> u128 {
    let mut h = Lanes(0x243F_6A88_85A3_08D3, 0x1319_8A2E_0370_7344);
    m.hash_state(&mut h);
    used.hash(&mut h);
    ((h.0 as u128) << 64) | h.1 as u128
}

fn path_moves(m: &Machine, mut p: Option<Rc<PathNode>>) -> Vec<String> {
    let mut out = Vec::new();
    while let Some(n) = p {
        out.push(m.policy_view().move_text(n.mv));
        p = n.parent.clone();
    }
    out.reverse();
    out
}

/// Explore the scenario; `progress` is called every 256 states and stops the search when it
/// returns false (cancel, or a deadline the caller keeps).
pub fn explore(
    sc: &Scenario,
    bounds: &Bounds,
    progress: &mut dyn FnMut(&Progress) -> bool,
) -> Report {
    // The budget within its ceiling, whoever set it (the CLI refuses more; the page's worker
    // passes what it is given).
    let budget_mb = bounds.max_memory_mb.clamp(1, MAX_MEMORY_MB_CEILING);
    let mut root = Machine::new(sc.clone(), false, true);
    Driver::finish_if_done(&mut root);
    let mut report = Report {
        executions: 0,
        states: 1,
        transitions: 0,
        pruned: 0,
        max_depth: 0,
        complete: true,
        cancelled: false,
        cut_by_bounds: 0,
        peak_memory_mb: 0,
        incomplete: None,
        violations: Vec::new(),
    };
    if let Some(v) = root.policy_view().violations().first() {
        // Setup itself broke an invariant (a variant broken enough to fail without a race).
        report.violations.push(FoundViolation {
            invariant: v.invariant.clone(),
            message: v.message.clone(),
            schedule: Vec::new(),
        });
        report.complete = false;
        report.incomplete = Some("setup itself broke an invariant".into());
        return report;
    }
    let mut visited: HashMap<u128, Vec<Vec<Move>>> = HashMap::new();
    visited.insert(state_key(&root, &Used::default()), vec![Vec::new()]);
    let mut queue = VecDeque::new();
    let mut held = Held::default();
    queue.push_back(Node {
        m: root,
        path: None,
        depth: 0,
        used: Used::default(),
        sleep: Vec::new(),
        held: 0,
    });

    while let Some(node) = queue.pop_front() {
        held.queued = held.queued.saturating_sub(node.held);
        report.max_depth = report.max_depth.max(node.depth);
        let moves = Driver::enabled_moves(&node.m);
        if moves.is_empty() {
            report.executions.bump();
            if report.executions >= bounds.max_executions {
                report.complete = false;
                report.incomplete = Some(format!(
                    "the execution limit ({}) was reached",
                    bounds.max_executions
                ));
                break;
            }
            continue;
        }
        let view = node.m.policy_view();
        let last = view.last_moved();
        let last_enabled = last.is_some_and(|l| Driver::move_enabled(&node.m, Move::Step(l)));
        let mut done: Vec<Slept> = Vec::new();
        let mut over_bounds = 0usize;
        let n_moves = moves.len();
        for mv in moves {
            if bounds.reduction && node.sleep.iter().any(|s| s.mv == mv) {
                report.pruned.bump();
                continue;
            }
            // Account the bounded kinds of move.
            let mut used = node.used;
            match mv {
                Move::Migrate(..) => used.migrations.bump(),
                Move::Step(cx) => {
                    let c = view.ctx(cx);
                    let irq_entry = c.kind == crate::model::state::CtxKind::Irq && !c.entered;
                    if irq_entry {
                        used.irq_entries.bump();
                    } else if last_enabled && last != Some(cx) {
                        used.preemptions.bump();
                    }
                }
            }
            if bounds.max_preemptions.is_some_and(|b| used.preemptions > b)
                || bounds.max_migrations.is_some_and(|b| used.migrations > b)
                || bounds.max_irq_entries.is_some_and(|b| used.irq_entries > b)
            {
                over_bounds.bump();
                if over_bounds == n_moves {
                    // Nothing within the bounds can go on: this schedule ends unfinished.
                    report.cut_by_bounds.bump();
                }
                continue;
            }
            let mut child = node.m.clone();
            let foot = Rc::new(child.apply_traced(mv));
            report.transitions.bump();
            let path = Some(Rc::new(PathNode {
                mv,
                parent: node.path.clone(),
            }));
            if let Some(v) = child.policy_view().violations().first() {
                report.violations.push(FoundViolation {
                    invariant: v.invariant.clone(),
                    message: v.message.clone(),
                    schedule: path_moves(&child, path),
                });
                report.complete = false;
                report.incomplete = Some("a violation stopped the search".into());
                return report;
            }
            let sleep: Vec<Slept> = if bounds.reduction {
                node.sleep
                    .iter()
                    .chain(done.iter())
                    .filter(|s| !conflict(&s.foot, &foot))
                    .cloned()
                    .collect()
            } else {
                Vec::new()
            };
            done.push(Slept { mv, foot });
            // Visited: skip if explored before with a sleep set contained in this one.
            let key = state_key(&child, &used);
            let mut sleep_moves: Vec<Move> = sleep.iter().map(|s| s.mv).collect();
            let entry = visited.entry(key).or_default();
            if entry
                .iter()
                .any(|old| old.iter().all(|m| sleep_moves.contains(m)))
            {
                continue;
            }
            // Explore with the intersection of the sleep sets it was seen with.
            if let Some(old) = entry.first() {
                sleep_moves.retain(|m| old.contains(m));
            }
            let sleep = sleep
                .into_iter()
                .filter(|s| sleep_moves.contains(&s.mv))
                .collect();
            let before = heap_block(
                entry
                    .capacity()
                    .saturating_mul(std::mem::size_of::<Vec<Move>>()),
            );
            let inner = heap_block(
                sleep_moves
                    .len()
                    .saturating_mul(std::mem::size_of::<Move>()),
            );
            entry.push(sleep_moves);
            let after = heap_block(
                entry
                    .capacity()
                    .saturating_mul(std::mem::size_of::<Vec<Move>>()),
            );
            held.visited_heap = held
                .visited_heap
                .saturating_add(after.saturating_sub(before))
                .saturating_add(inner);
            held.paths = held.paths.saturating_add(heap_block(
                std::mem::size_of::<PathNode>().saturating_add(16),
            ));
            report.states.bump();
            if report.states.is_multiple_of(256) {
                let bytes = held.bytes(&queue, &visited);
                let per_node = child.approx_bytes();
                report.peak_memory_mb = report.peak_memory_mb.max((bytes >> 20) as u64);
                if (bytes >> 20) as u64 >= budget_mb {
                    report.complete = false;
                    report.incomplete = Some(format!(
                        "the memory budget ({} MB) was reached: {} states held, about {} bytes per queued state",
                        budget_mb,
                        report.states,
                        per_node
                    ));
                    return report;
                }
            }
            if report.states >= bounds.max_states {
                report.complete = false;
                report.incomplete = Some(format!(
                    "the state limit ({}) was reached",
                    bounds.max_states
                ));
                return report;
            }
            if report.states.is_multiple_of(256) {
                let p = Progress {
                    executions: report.executions,
                    states: report.states,
                    depth: node.depth.saturating_add(1),
                    frontier: queue.len(),
                };
                if !progress(&p) {
                    report.cancelled = true;
                    report.complete = false;
                    report.incomplete = Some("the search was stopped (cancel or timeout)".into());
                    return report;
                }
            }
            let sleep: Vec<Slept> = sleep;
            // The machine, the sleep set's vector, and the footprint of the move that made
            // this node (an `Rc` block and its vector), which later siblings' sleep sets share.
            let node_held = child
                .approx_bytes()
                .saturating_add(heap_block(
                    sleep.len().saturating_mul(std::mem::size_of::<Slept>()),
                ))
                .saturating_add(heap_block(
                    std::mem::size_of::<Vec<u32>>().saturating_add(16),
                ))
                .saturating_add(
                    done.last()
                        .map_or(0, |d| heap_block(d.foot.len().saturating_mul(4))),
                );
            held.queued = held.queued.saturating_add(node_held);
            queue.push_back(Node {
                m: child,
                path,
                depth: node.depth.saturating_add(1),
                used,
                sleep,
                held: node_held,
            });
        }
    }
    if report.executions == 0 && report.cut_by_bounds > 0 {
        // Every schedule was cut by a bound before its end: nothing was checked to the end,
        // so the search cannot claim to be complete.
        report.complete = false;
        report.incomplete = Some(format!(
            "no schedule reached its end within the bounds ({} stopped at a bound): raise the bound on irq entries, preemptions or migrations",
            report.cut_by_bounds
        ));
    }
    report
}
