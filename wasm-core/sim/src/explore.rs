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
//! **What is guaranteed.** Within the bounds, the search (reduced or plain) reaches every
//! state some schedule within the bounds reaches, and reaches it first by a shortest such
//! schedule (breadth first). So it reports a violation exactly when some schedule within the
//! bounds breaks an invariant, with a shortest such schedule; `complete: true` means no
//! schedule within the bounds breaks one. Up to one caveat: state identity is a 128-bit hash
//! of the behaviour-relevant machine state (`state_key`), so a collision could hide a state,
//! with probability far below anything a test can see. The reduced and the plain search
//! (`reduction: false`) find a violation in the same cases with the same shortest length;
//! `tests/explore_bounded_por.rs` checks that on every golden scenario under many variants and
//! on random small ones at bounds 0–3.
//!
//! **The plain search** keys its visited set on the state and on what the path to it has used
//! of each bound (a state reached with fewer preemptions left can do less), and explores each
//! key once. `last_moved` is part of the state: it decides whether the next switch is a
//! preemption.
//!
//! **The reduced search** adds two reductions, each kept only where it is sound.
//!
//! 1. *Dominance* (always). The visited set is keyed on the state alone and remembers what
//!    each visit had used; a visit is skipped when an earlier one had used no more of any
//!    bounded kind of move. Whatever the later visit could still do within the bounds, the
//!    earlier could too, and breadth first it was no deeper: so no state, and no shortest
//!    length, is lost.
//! 2. *Sleep sets* (Godefroid 1996), **only when there is no preemption bound**. Two moves
//!    are *independent* at a state when their footprints do not conflict: the footprint of a
//!    move is every resource it reads or writes, recorded while it runs (`Core::foot`):
//!    each 64-byte cache line it accesses (locks and the per-CPU, slab and node structures
//!    are all lines), the scheduling state of a CPU (who is current, irq flag, preempt count:
//!    read by a step, written by a switch, an irq entry or exit, an irq or preempt toggle, a
//!    migration), the context's own program, and the page allocator. Independent moves
//!    commute on the kernel's state and neither enables or disables the other. A sleep set
//!    skips a move already explored from an earlier sibling and independent of everything
//!    done since; every kernel state is still reached, and since equivalent schedules have
//!    the same length, breadth first still finds a shortest violation. Sleep sets with state
//!    caching: a revisit with a sleep set that is not a superset of a recorded one (with no
//!    more used of the bounds) is explored again, with the intersection. The bounds on
//!    migrations and irq entries count moves, the same in every equivalent schedule, so they
//!    keep this argument intact.
//!
//!    A preemption bound does not. CHESS's count (a switch away from a context that could go
//!    on) depends on the order of independent moves: Linux 7.0's SH4 with `pageAllocFail`
//!    breaks INV-S1 by `B`×8 then `T`×26, no preemption, while its equivalent that the sleep
//!    set keeps, `T` first, needs one. Coons, Musuvathi and McKinley ("Bounded partial-order
//!    reduction", OOPSLA 2013, doi:10.1145/2509136.2509556) show the bound induces
//!    dependences between otherwise independent moves; here any two steps of different
//!    contexts are bound-dependent (their order decides the last context, and so the cost of
//!    every later switch), which leaves a sleep set nothing to hold. So with a preemption
//!    bound the sleep sets are off, and dominance is the whole reduction (its cost is
//!    printed by `scripts/bench-explore.mjs`). Before this fix they were on, and the bounded
//!    search could say "complete, no violation" wrongly (SH4 above at bound 0) and give a
//!    counterexample one move longer than the shortest (34 against 33 at bound 1).

pub mod limits;

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
    /// Use the reduction (dominance, and sleep sets where sound; off only to measure what it
    /// saves).
    pub reduction: bool,
    /// What the process can get ([`limits`]): the budget is clamped to a third of it, and the
    /// report says so (`memoryClamp`).
    pub memory_limit: Option<limits::MemoryLimit>,
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
            memory_limit: None,
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
    /// Moves skipped by the sleep sets (only searches without a preemption bound use them).
    pub pruned: u64,
    /// Visits skipped because the same state had been explored, no deeper, having used no
    /// more of any bound (the reduction's dominance check; 0 with `--no-reduction`).
    pub dominated: u64,
    pub max_depth: usize,
    /// Every schedule within the bounds was explored (no limit hit, not cancelled, no
    /// violation stopped the search early).
    pub complete: bool,
    pub cancelled: bool,
    /// Schedules the bounds cut before their end (every enabled move was over a bound).
    pub cut_by_bounds: u64,
    /// The most memory the search held, estimated (MB; see `Bounds::max_memory_mb`).
    pub peak_memory_mb: u64,
    /// The memory budget the search kept to (MB): the one asked for, or less when the process
    /// cannot get that much (`memory_clamp` then says why).
    pub memory_budget_mb: u64,
    /// Why the budget is less than the one asked for: the limit it was clamped to, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub memory_clamp: Option<String>,
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

impl Used {
    /// `self` needs no more of any bounded kind than `other` (kinds without a bound do not
    /// count: they limit nothing).
    fn within(&self, other: &Used, b: &Bounds) -> bool {
        (b.max_preemptions.is_none() || self.preemptions <= other.preemptions)
            && (b.max_migrations.is_none() || self.migrations <= other.migrations)
            && (b.max_irq_entries.is_none() || self.irq_entries <= other.irq_entries)
    }
}

/// How a state was explored: what its path had used of the bounds, and the moves asleep.
struct Seen {
    used: Used,
    sleep: Vec<Move>,
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
    fn bytes(&self, queue: &VecDeque<Node>, visited: &HashMap<u128, Vec<Seen>>) -> usize {
        // hashbrown keeps a power of two of buckets, 7/8 of them usable, and a control byte
        // per bucket.
        let buckets = (visited.capacity() * 8 / 7).next_power_of_two();
        let table = buckets * (std::mem::size_of::<(u128, Vec<Seen>)>() + 1);
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
    let asked_mb = bounds.max_memory_mb.clamp(1, MAX_MEMORY_MB_CEILING);
    // ... and within what the process can get.
    let (budget_mb, memory_clamp) = match &bounds.memory_limit {
        Some(l) if limits::budget_for(l.left_mb) < asked_mb => (
            limits::budget_for(l.left_mb),
            Some(format!(
                "the memory budget was clamped from {asked_mb} MB to {} MB, a third of the {} MB the process can still get: {}",
                limits::budget_for(l.left_mb),
                l.left_mb,
                l.source
            )),
        ),
        _ => (asked_mb, None),
    };
    let mut root = Machine::new(sc.clone(), false, true);
    Driver::finish_if_done(&mut root);
    let mut report = Report {
        executions: 0,
        states: 1,
        transitions: 0,
        pruned: 0,
        dominated: 0,
        max_depth: 0,
        complete: true,
        cancelled: false,
        cut_by_bounds: 0,
        peak_memory_mb: 0,
        memory_budget_mb: budget_mb,
        memory_clamp,
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
    let mut visited: HashMap<u128, Vec<Seen>> = HashMap::new();
    visited.insert(
        state_key(&root, &Used::default()),
        vec![Seen {
            used: Used::default(),
            sleep: Vec::new(),
        }],
    );
    // Sleep sets only where they are sound: with no preemption bound (see the header).
    let sleep_sets = bounds.reduction && bounds.max_preemptions.is_none();
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
            if sleep_sets && node.sleep.iter().any(|s| s.mv == mv) {
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
            let sleep: Vec<Slept> = if sleep_sets {
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
            // Visited. Plain: the key is the state and what its path used, and a state is
            // explored once. Reduced: the key is the state alone, and a visit is skipped when
            // an earlier one (no deeper: breadth first) had used no more of any bound and had
            // no more moves asleep — whatever this visit could reach, that one reached in as
            // many moves (dominance, see the header).
            let key = state_key(
                &child,
                &if bounds.reduction {
                    Used::default()
                } else {
                    used
                },
            );
            let mut sleep_moves: Vec<Move> = sleep.iter().map(|s| s.mv).collect();
            // The visited table and the queue grow by doubling: where the allocator cannot
            // give that (a limit the budget did not foresee), stop and say so, not abort.
            if visited.try_reserve(1).is_err() || queue.try_reserve(1).is_err() {
                report.complete = false;
                report.incomplete = Some(format!(
                    "memory ran out: the allocator refused to grow the search's tables at {} states, about {} MB held (budget {} MB)",
                    report.states,
                    held.bytes(&queue, &visited) >> 20,
                    budget_mb
                ));
                return report;
            }
            let entry = visited.entry(key).or_default();
            if entry.iter().any(|old| {
                old.used.within(&used, bounds) && old.sleep.iter().all(|m| sleep_moves.contains(m))
            }) {
                if bounds.reduction {
                    report.dominated.bump();
                }
                continue;
            }
            // Explore with the intersection of the sleep sets it was seen with (smaller sleep
            // sets only explore more).
            if let Some(old) = entry.first() {
                sleep_moves.retain(|m| old.sleep.contains(m));
            }
            let sleep = sleep
                .into_iter()
                .filter(|s| sleep_moves.contains(&s.mv))
                .collect();
            let before = heap_block(entry.capacity().saturating_mul(std::mem::size_of::<Seen>()));
            let inner = heap_block(
                sleep_moves
                    .len()
                    .saturating_mul(std::mem::size_of::<Move>()),
            );
            entry.push(Seen {
                used,
                sleep: sleep_moves,
            });
            let after = heap_block(entry.capacity().saturating_mul(std::mem::size_of::<Seen>()));
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
