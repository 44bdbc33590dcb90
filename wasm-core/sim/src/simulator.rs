//! The facade the CLI and the wasm crate use: a scenario, the moves applied so far (the
//! history, which is the artifact), a cursor into it, and the machine at the cursor.
//! Time travel replays from the nearest checkpoint (one every `CHECKPOINT` moves).

use crate::model::state::{Bump, CtxId};
use crate::model::{Driver, Machine, Move, Stat};
use crate::policy;
use crate::view::Scene;
use crate::{scenario, Cycles, Error, Event, Outcome, Scenario, Stats, VarOutcome, View};
use std::collections::BTreeMap;

const CHECKPOINT: usize = 64;
pub use crate::scenario::MAX_POLICY_MOVES;

/// The most moves one "run to the end" plays ([`Simulator::moves_to_end`]): a context spinning
/// on a lock that nobody releases would otherwise never end.
pub const MAX_RUN_MOVES: usize = 10_000;

/// The most moves `run --max-moves` may ask the default policy for (ten times the default).
/// A lean run ([`Simulator::lean`]) holds nothing per move, so the bound is one of time: about
/// a second per million moves natively, and as many events with `--events`.
pub const MAX_MOVES_CEILING: usize = 1_000_000;

/// How many of the last moves name the contexts that kept running in a `LIVELOCK` report.
const LIVELOCK_WINDOW: usize = 1_000;

pub struct Simulator {
    machine: Machine,
    /// `checkpoints[i]` is the machine after `i * CHECKPOINT` moves.
    checkpoints: Vec<Machine>,
    history: Vec<String>,
    cursor: usize,
    events: Vec<Event>,
    /// `marks[i]` = number of events after `i` moves.
    marks: Vec<usize>,
    recording: bool,
    /// For [`Simulator::scene`]: how many moves of the page's schedule played, and why the
    /// next one did not.
    played: usize,
    schedule_error: Option<String>,
    /// The default policy stopped at its bound with moves still enabled: the violation
    /// `LIVELOCK` of the outcome at the end of the history.
    livelock: Option<crate::view::Violation>,
    /// A lean simulator ([`Simulator::lean`]) keeps no history, checkpoints or marks, and its
    /// events only until [`Simulator::run_to_end_streaming`] hands them on.
    lean: bool,
}

impl Simulator {
    /// Parse and validate a scenario, run its setup. Events are recorded when `events` is true.
    pub fn from_json(json: &str, events: bool) -> Result<Simulator, Error> {
        let sc = scenario::parse(json)?;
        Ok(Simulator::new(sc, events, true))
    }

    /// A simulator for an already validated scenario; `checks` turns the invariant checker on.
    pub fn new(sc: Scenario, events: bool, checks: bool) -> Simulator {
        let mut machine = Machine::new(sc, events, checks);
        let mut evs = Vec::new();
        machine.take_events(&mut evs);
        Driver::finish_if_done(&mut machine);
        Simulator {
            checkpoints: vec![machine.clone()],
            machine,
            history: Vec::new(),
            cursor: 0,
            marks: vec![evs.len()],
            events: evs,
            recording: events,
            played: 0,
            schedule_error: None,
            livelock: None,
            lean: false,
        }
    }

    /// A simulator that keeps no history: `slub-lab run`, whose moves may number up to
    /// [`MAX_MOVES_CEILING`], holds the machine and nothing that grows with the moves. Its
    /// events (when `events`) wait in [`Simulator::events`] until
    /// [`Simulator::run_to_end_streaming`] hands them to its sink. It cannot travel in time
    /// (`seek` to anywhere but the cursor is an error).
    pub fn lean(sc: Scenario, events: bool) -> Simulator {
        let mut sim = Simulator::new(sc, events, true);
        sim.lean = true;
        sim.checkpoints.clear();
        sim.marks.clear();
        sim
    }

    pub fn scenario(&self) -> &Scenario {
        self.machine.scenario()
    }

    /// The code listing as this simulator's variant runs it ([`crate::listing_for`] of its
    /// scenario's allocator, fast path and slow path): what the page shows beside the stage.
    /// The variant is the parsed one, so no name of it crosses back from the page.
    pub fn listing(&self) -> Vec<crate::ListingFunction> {
        let sc = self.scenario();
        crate::listing_for(sc.allocator, sc.variant.fastpath, sc.variant.slowpath)
    }

    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The moves that may come next, in a stable order: tasks, irqs, then migrations.
    pub fn enabled_moves(&self) -> Vec<String> {
        let view = self.machine.policy_view();
        Driver::enabled_moves(&self.machine)
            .into_iter()
            .map(|m| view.move_text(m))
            .collect()
    }

    /// Apply one move at the cursor (dropping any moves after it). A move that is not
    /// enabled is an `Error::Move` and changes nothing.
    pub fn apply(&mut self, mv: &str) -> Result<(), Error> {
        let index = self.cursor;
        let bad = |why: String| Error::Move {
            index,
            mv: mv.to_string(),
            why,
        };
        let parsed = self.machine.policy_view().parse_move(mv).map_err(bad)?;
        if let Some(why) = Driver::move_blocked(&self.machine, parsed) {
            return Err(bad(why));
        }
        self.push_move(parsed, mv.to_string());
        Ok(())
    }

    fn push_move(&mut self, mv: Move, text: String) {
        // A move after a livelocked end: that end is no longer the history's.
        self.livelock = None;
        if self.cursor < self.history.len() {
            self.history.truncate(self.cursor);
            self.marks.truncate(self.cursor.saturating_add(1));
            self.events.truncate(self.mark(self.cursor));
            self.checkpoints
                .truncate((self.cursor / CHECKPOINT).saturating_add(1));
        }
        self.machine.apply(mv, Some(self.cursor));
        Driver::finish_if_done(&mut self.machine);
        self.machine.take_events(&mut self.events);
        if self.lean {
            self.cursor.bump();
            return;
        }
        self.history.push(text);
        self.cursor.bump();
        self.marks.push(self.events.len());
        if self.cursor.is_multiple_of(CHECKPOINT)
            && self.checkpoints.len() == self.cursor / CHECKPOINT
        {
            self.checkpoints.push(self.machine.clone());
        }
    }

    /// The moves that run context `ctx` to the end of what it is doing, from the cursor: the
    /// operation it is in (or, between operations, its next one); an interrupt waiting to fire
    /// fires and runs its handler to the end. What the playground's "run to the end" plays.
    /// Worked out on a copy of the machine: nothing here changes. It stops
    /// early, with the moves found so far, where `ctx` cannot move (a lock held by another, its
    /// CPU's other context running), and after [`MAX_RUN_MOVES`].
    pub fn moves_to_end(&self, ctx: &str) -> Result<Vec<String>, Error> {
        let pv = self.machine.policy_view();
        let Some(cx) = pv.ctx_index(ctx) else {
            return Err(Error::Move {
                index: self.cursor,
                mv: ctx.to_string(),
                why: format!("there is no context named {ctx}"),
            });
        };
        let start = pv.ctx(cx);
        let irq = start.kind == crate::model::state::CtxKind::Irq;
        let mut m = self.machine.clone();
        let mut moves = Vec::new();
        while moves.len() < MAX_RUN_MOVES {
            let v = m.policy_view().ctx(cx);
            // A task is done when it has left the operation it was in (or started); a handler
            // when it has finished.
            let done = v.finished || (!irq && !moves.is_empty() && !v.in_op && v.op > start.op);
            if done {
                break;
            }
            let Ok(mv) = m.policy_view().parse_move(ctx) else {
                break;
            };
            if Driver::move_blocked(&m, mv).is_some() {
                break;
            }
            m.apply(mv, None);
            Driver::finish_if_done(&mut m);
            moves.push(ctx.to_string());
        }
        Ok(moves)
    }

    /// Apply moves in order; stops at the first that is not enabled.
    pub fn apply_all<S: AsRef<str>>(&mut self, moves: &[S]) -> Result<(), Error> {
        for m in moves {
            self.apply(m.as_ref())?;
        }
        Ok(())
    }

    /// Go on by the default policy of design.md §5 until every context has finished or nothing
    /// is enabled, adding at most [`MAX_POLICY_MOVES`] moves.
    pub fn run_to_end(&mut self) {
        self.run_to_end_within(MAX_POLICY_MOVES);
    }

    /// [`Simulator::run_to_end`] adding at most `max_moves` moves. If moves are still enabled
    /// then, the run is reported as a `LIVELOCK` violation naming the contexts that kept
    /// moving in its last moves (a retry loop that never succeeds), never as finished.
    pub fn run_to_end_within(&mut self, max_moves: usize) {
        self.run_to_end_streaming(max_moves, &mut |_| {});
    }

    /// [`Simulator::run_to_end_within`] that hands the events recorded so far to `sink` before
    /// the first move and after every move, for it to drain (a lean simulator's events then
    /// never pile up: `slub-lab run --events` writes them out as they come).
    pub fn run_to_end_streaming(
        &mut self,
        max_moves: usize,
        sink: &mut dyn FnMut(&mut Vec<Event>),
    ) {
        let max_moves = max_moves.min(MAX_MOVES_CEILING);
        if self.lean {
            sink(&mut self.events);
        }
        // Context ids, not names: copying a name per move made a run about 35 % slower.
        let mut recent: std::collections::VecDeque<CtxId> =
            std::collections::VecDeque::with_capacity(LIVELOCK_WINDOW.min(max_moves));
        for _ in 0..max_moves {
            let Some(mv) = policy::default_move(&self.machine) else {
                return;
            };
            let v = self.machine.policy_view();
            let text = v.move_text(mv);
            let (Move::Step(cx) | Move::Migrate(cx, _)) = mv;
            if recent.len() == LIVELOCK_WINDOW {
                recent.pop_front();
            }
            recent.push_back(cx);
            self.push_move(mv, text);
            if self.lean {
                sink(&mut self.events);
            }
        }
        let Some(next) = policy::default_move(&self.machine) else {
            return;
        };
        let mut ids: Vec<CtxId> = Vec::new();
        for cx in recent {
            if !ids.contains(&cx) {
                ids.push(cx);
            }
        }
        // No move was allowed at all (`--max-moves 0`): name the context that would have moved
        // next rather than an empty list.
        let kept = if ids.is_empty() {
            let (Move::Step(cx) | Move::Migrate(cx, _)) = next;
            ids.push(cx);
            "was next to move, and no move was allowed".to_string()
        } else {
            format!(
                "kept running in its last {} moves",
                LIVELOCK_WINDOW.min(max_moves)
            )
        };
        let v = self.machine.policy_view();
        let names: Vec<String> = ids.iter().map(|&cx| v.ctx_name(cx).to_string()).collect();
        let at: Vec<String> = names
            .iter()
            .filter_map(|n| v.ctx_label(n).map(|l| format!("{n} at {l}")))
            .collect();
        self.livelock = Some(crate::view::Violation {
            step: v.steps(),
            invariant: "LIVELOCK".to_string(),
            message: format!(
                "the run was stopped unfinished after {max_moves} moves of the default policy: {} {kept}{}. A retry loop that never succeeds looks like this (if the scenario is only long, raise the bound: `run --max-moves`)",
                names.join(" and "),
                if at.is_empty() { String::new() } else { format!(", now {}", at.join(", ")) }
            ),
        });
    }

    /// The moves applied so far (up to the end of the history, not just the cursor).
    pub fn history(&self) -> &[String] {
        &self.history
    }

    pub fn position(&self) -> usize {
        self.cursor
    }

    /// Move the cursor to `n` moves of the history (time travel; the history is kept).
    pub fn seek(&mut self, n: usize) -> Result<(), Error> {
        if self.lean && n != self.cursor {
            return Err(Error::Move {
                index: n,
                mv: format!("seek {n}"),
                why: "a lean simulator keeps no history to travel in".into(),
            });
        }
        if n > self.history.len() {
            return Err(Error::Move {
                index: n,
                mv: format!("seek {n}"),
                why: format!("the history has only {} moves", self.history.len()),
            });
        }
        if n == self.cursor {
            return Ok(());
        }
        // There is always the checkpoint of move 0 (`new`).
        let ck = (n / CHECKPOINT).min(self.checkpoints.len().saturating_sub(1));
        let at_ck = ck.saturating_mul(CHECKPOINT);
        // Forward from the machine at hand when that is nearer than the checkpoint (a step
        // forward within the history replays one move, not up to CHECKPOINT of them).
        let from = if n > self.cursor && self.cursor >= at_ck {
            self.cursor
        } else {
            at_ck
        };
        // The history holds only moves that applied: one that does not parse again, or a
        // missing checkpoint, is an error of the simulator itself, said as such.
        let broken = |index: usize, why: &str| Error::Move {
            index,
            mv: format!("seek {n}"),
            why: format!("internal error of the simulator: {why}"),
        };
        if from != self.cursor {
            let Some(checkpoint) = self.checkpoints.get(ck) else {
                return Err(broken(n, "a checkpoint is missing"));
            };
            self.machine = checkpoint.clone();
        }
        let m = &mut self.machine;
        m.set_recording(false);
        for (i, text) in self.history.iter().enumerate().take(n).skip(from) {
            let Ok(mv) = m.policy_view().parse_move(text) else {
                return Err(broken(i, "a move of the history does not parse"));
            };
            m.apply(mv, Some(i));
            Driver::finish_if_done(m);
        }
        m.set_recording(self.recording);
        self.cursor = n;
        Ok(())
    }

    /// Bring the history to start with `schedule` (when given: the moves after the common
    /// prefix are applied, up to the first that is not enabled) and the cursor to `cursor`
    /// (clamped to what played), and say what the page needs in one [`Scene`]. `have_events`
    /// is how many events of the previous scenes the page holds: only the ones after what is
    /// still valid of them are sent.
    pub fn scene(
        &mut self,
        schedule: Option<&[String]>,
        cursor: usize,
        have_events: usize,
    ) -> Scene {
        let mut error: Option<String> = None;
        let common = match schedule {
            Some(schedule) => {
                let common = self
                    .history
                    .iter()
                    .zip(schedule)
                    .take_while(|(a, b)| a == b)
                    .count();
                self.played = schedule.len();
                if common < schedule.len() {
                    // The common prefix is in the history.
                    if let Err(e) = self.seek(common) {
                        error = Some(e.to_string());
                    }
                    for (i, mv) in schedule.iter().enumerate().skip(common) {
                        if error.is_some() {
                            self.played = i;
                            break;
                        }
                        if let Err(e) = self.apply(mv) {
                            error = Some(e.to_string());
                            self.played = i;
                            break;
                        }
                    }
                }
                self.schedule_error = error;
                common
            }
            None => self.played,
        };
        let played = self.played;
        let at = cursor.min(played);
        // The cursor is within the history.
        if let Err(e) = self.seek(at) {
            self.schedule_error = Some(e.to_string());
        }
        let keep = have_events.min(self.mark(common));
        let end = self.mark(played);
        Scene {
            view: self.view(),
            outcome: self.outcome(),
            events_from: keep,
            events: self.events_range(keep, end).to_vec(),
            events_at_cursor: self.mark(at),
            played,
            error: if cursor > played {
                self.schedule_error.clone()
            } else {
                None
            },
        }
    }

    pub fn view(&self) -> View {
        self.machine.view(self.cursor, self.enabled_moves())
    }

    /// Events of every step up to the cursor (empty unless created with events on).
    pub fn events(&self) -> &[Event] {
        if !self.recording {
            return &[];
        }
        if self.lean {
            return &self.events;
        }
        self.events_range(0, self.mark(self.cursor))
    }

    /// Events of the whole kept history (past the cursor too), `start..end` clamped.
    pub fn events_range(&self, start: usize, end: usize) -> &[Event] {
        if !self.recording {
            return &[];
        }
        let end = end.min(self.events.len());
        self.events.get(start.min(end)..end).unwrap_or_default()
    }

    /// `marks()[n]`, or every event for an `n` past the history.
    fn mark(&self, n: usize) -> usize {
        let last = self.marks.last().copied().unwrap_or(0);
        self.marks.get(n).copied().unwrap_or(last)
    }

    /// `marks()[n]` = the number of events after `n` moves of the history (setup's events
    /// come before move 0), so move `n`'s events are `marks[n]..marks[n + 1]`.
    pub fn marks(&self) -> &[usize] {
        &self.marks
    }

    pub fn outcome(&self) -> Outcome {
        let m = self.machine.policy_view();
        let reported = Stat::reported(m.allocator());
        let per_cpu: Vec<BTreeMap<String, u64>> = m
            .stats_per_cpu()
            .iter()
            .map(|c| {
                reported
                    .iter()
                    .map(|s| {
                        (
                            s.name().to_string(),
                            c.get(*s as usize).copied().unwrap_or(0),
                        )
                    })
                    .collect()
            })
            .collect();
        let total = reported
            .iter()
            .map(|s| {
                (
                    s.name().to_string(),
                    per_cpu.iter().map(|c| c[s.name()]).sum(),
                )
            })
            .collect();
        let vars = m
            .vars()
            .map(|(name, addr, held)| (name.to_string(), VarOutcome { addr, held }))
            .collect();
        let mut violations = m.violations().to_vec();
        if self.lean || self.cursor == self.history.len() {
            violations.extend(self.livelock.clone());
        }
        Outcome {
            schema_version: 1,
            finished: m.all_finished(),
            deadlock: m.deadlocked(),
            violations,
            stats: Stats { total, per_cpu },
            cycles: Cycles {
                per_cpu: m.cycles_per_cpu().to_vec(),
            },
            vars,
        }
    }
}
