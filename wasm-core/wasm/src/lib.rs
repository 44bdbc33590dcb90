//! slub-wasm: the only code of slub-lab that knows JavaScript (design.md §2, §6).
//!
//! It wraps [`slub_sim::Simulator`] in one opaque `Simulator` class with a coarse API: the page
//! makes one call per user action ([`Simulator::scene`]) and gets one JSON string back. Views,
//! events, outcomes and the listing cross as JSON strings (serde_json, already a dependency of
//! the model) rather than through serde-wasm-bindgen: one `JSON.parse` on the JS side is as fast
//! and keeps the module small. Their TypeScript is generated from the Rust types by ts-rs into
//! `web/src/sim/generated/` (`tests/contract.rs` fails when it is stale).
//!
//! Errors cross in one place ([`into_error`]): a bad scenario or a move that is not enabled
//! becomes a JS `Error` whose message is the `Display` text of [`slub_sim::Error`]. A Rust panic
//! is a bug: the panic hook installed at start-up (slub-panic-hook, shared with slub-lab-wasm)
//! records its message, the wasm call traps, and the page reads [`last_panic`] to show its crash
//! screen.
//!
//! The Lab's entry points (`labCases`, `labRunSeed`, ...) are in their own module,
//! `slub-lab-wasm` (wasm-core/lab-wasm), which pages other than the Lab never load.

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Runs when the module is instantiated (`init`/`initSync` on the JS side): installs the panic
/// hook the two wasm modules share (wasm-core/panic-hook).
#[wasm_bindgen(start)]
fn start() {
    slub_panic_hook::install();
}

/// The message of the last Rust panic (with its source location), or `undefined` if none.
/// Reading it forgets it: the caller keeps it with the crash it reports, and a later error
/// (a bad link after the crash) is then not mistaken for the old panic.
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> Option<String> {
    slub_panic_hook::take_last()
}

/// Panics, on purpose: the tests of the page's recovery (a crash screen with this message, the
/// module re-instantiated, later calls unaffected) need a panic that no valid input can cause.
#[wasm_bindgen(js_name = panicForTest)]
pub fn panic_for_test() {
    panic!("a panic asked for by a test");
}

/// The single conversion of a simulator error into a JS error.
fn into_error(e: slub_sim::Error) -> JsError {
    JsError::new(&e.to_string())
}

/// Serialise a DTO of the model. The model's DTOs have string keys only, so failing here is a
/// bug and panics (the crash screen shows it).
fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("model DTOs serialise to JSON")
}

/// The code listing of every modelled kernel function: JSON `[{ name, lines: [{ label, text }] }]`.
#[wasm_bindgen]
pub fn listing() -> String {
    to_json(&slub_sim::listing())
}

/// Whether the page's scenario is still the exercise's that a goal opened with, by the rule
/// `slub-lab grade` scores by (`slub_sim::scenario::same_exercise`). Text that is not JSON is
/// no exercise's.
#[wasm_bindgen(js_name = sameExercise)]
pub fn same_exercise(opening: &str, scenario: &str) -> bool {
    match (
        serde_json::from_str::<serde_json::Value>(opening),
        serde_json::from_str::<serde_json::Value>(scenario),
    ) {
        (Ok(a), Ok(b)) => slub_sim::scenario::same_exercise(&a, &b),
        _ => false,
    }
}

/// A scenario being played: the opaque handle JS holds.
#[wasm_bindgen]
pub struct Simulator {
    inner: slub_sim::Simulator,
}

#[wasm_bindgen]
impl Simulator {
    /// Parse and validate a scenario (design.md §4) and run its setup; `events` records one event
    /// per step (off for benchmarks).
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str, events: bool) -> Result<Simulator, JsError> {
        let inner = slub_sim::Simulator::from_json(scenario_json, events).map_err(into_error)?;
        Ok(Simulator { inner })
    }

    /// One user action in one call: make the history start with `schedule` (omitted: the
    /// same as the last call's), move the cursor to `cursor`, and return the
    /// `slub_sim::view::Scene` as JSON (view, outcome, the events after the first `haveEvents`
    /// the page keeps, and why the schedule stopped if it did). The history lives here only.
    pub fn scene(
        &mut self,
        schedule: Option<Vec<String>>,
        cursor: usize,
        #[wasm_bindgen(js_name = haveEvents)] have_events: usize,
    ) -> String {
        to_json(&self.inner.scene(schedule.as_deref(), cursor, have_events))
    }

    /// The code listing as this scenario's variant runs it (`slub_sim::Simulator::listing`):
    /// JSON `[{ name, lines: [{ label, text }] }]`. It never changes for a simulator, so the
    /// page asks once per simulator (web/src/sim/simulator.ts keeps it).
    pub fn listing(&self) -> String {
        to_json(&self.inner.listing())
    }

    /// The moves that may come next.
    #[wasm_bindgen(js_name = enabledMoves)]
    pub fn enabled_moves(&self) -> Vec<String> {
        self.inner.enabled_moves()
    }

    /// Apply one move; a move that is not enabled throws and changes nothing.
    pub fn apply(&mut self, mv: &str) -> Result<(), JsError> {
        self.inner.apply(mv).map_err(into_error)
    }

    /// The moves that run `ctx` to the end of its operation (an interrupt: of its handler),
    /// from the cursor; nothing changes (`slub_sim::Simulator::moves_to_end`).
    #[wasm_bindgen(js_name = movesToEnd)]
    pub fn moves_to_end(&self, ctx: &str) -> Result<Vec<String>, JsError> {
        self.inner.moves_to_end(ctx).map_err(into_error)
    }

    /// Move the cursor to `n` moves of the history.
    pub fn seek(&mut self, n: usize) -> Result<(), JsError> {
        self.inner.seek(n).map_err(into_error)
    }

    /// The moves applied so far.
    pub fn history(&self) -> Vec<String> {
        self.inner.history().to_vec()
    }

    /// The whole visible state (`slub_sim::View`), as JSON.
    pub fn view(&self) -> String {
        to_json(&self.inner.view())
    }

    /// Every event so far, as a JSON array (empty unless created with events on).
    pub fn events(&self) -> String {
        to_json(self.inner.events())
    }

    /// What `slub-lab run` prints, minus events (design.md §5), as JSON.
    pub fn outcome(&self) -> String {
        to_json(&self.inner.outcome())
    }

    /// Go on by the default policy until every context has finished or nothing is enabled.
    #[wasm_bindgen(js_name = runToEnd)]
    pub fn run_to_end(&mut self) {
        self.inner.run_to_end()
    }

    /// The history cut into operations (`#/compare` steps both designs an
    /// operation at a time), as JSON [`Operations`]. Walks the history once, a move at a time
    /// (each seek replays one move), reading each context's operation counter; the cursor is
    /// put back where it was.
    pub fn operations(&mut self) -> Result<String, JsError> {
        let back = self.inner.position();
        let ops = operations_of(&mut self.inner).map_err(into_error);
        self.inner.seek(back).map_err(into_error)?;
        Ok(to_json(&ops?))
    }

    /// Go on from the end of the history by the default policy (design.md §5), at most
    /// `max_moves` moves, cutting the new moves into operations as they run: JSON [`OpsRun`].
    /// `#/compare` runs a long scenario this way a chunk at a time, so its first frames come
    /// before the run has ended.
    #[wasm_bindgen(js_name = runOperations)]
    pub fn run_operations(&mut self, max_moves: usize) -> Result<String, JsError> {
        let end = self.inner.history().len();
        self.inner.seek(end).map_err(into_error)?;
        let specs = context_specs(&self.inner);
        let mut before = ops_done(&self.inner, specs.len());
        let mut out = OpsRun {
            moves: 0,
            ends: Vec::new(),
            ops: Vec::new(),
            finished: false,
        };
        for _ in 0..max_moves {
            let Some(mv) = slub_sim::policy::default_move(self.inner.machine()) else {
                break;
            };
            let text = self.inner.machine().policy_view().move_text(mv);
            self.inner.apply(&text).map_err(into_error)?;
            let after = ops_done(&self.inner, specs.len());
            let at = u32::try_from(self.inner.history().len()).unwrap_or(u32::MAX);
            note_ops(&specs, &before, &after, at, &mut out.ends, &mut out.ops);
            before = after;
        }
        out.finished = slub_sim::policy::default_move(self.inner.machine()).is_none();
        out.moves = u32::try_from(self.inner.history().len()).unwrap_or(u32::MAX);
        Ok(to_json(&out))
    }

    /// The events of the kept history from the `from`th on (setup's first), as a JSON array.
    #[wasm_bindgen(js_name = eventsFrom)]
    pub fn events_from(&self, from: usize) -> String {
        to_json(self.inner.events_range(from, usize::MAX))
    }
}

/// What [`Simulator::run_operations`] ran: the history's length after it, the operations that
/// ended (`ends[i]`: the moves played when operation `ops[i]` had ended), and whether the run
/// is over (no move is enabled).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OpsRun {
    moves: u32,
    ends: Vec<u32>,
    ops: Vec<String>,
    finished: bool,
}

/// The contexts a move can name, tasks then interrupts (the order of `PolicyView`).
fn context_specs(sim: &slub_sim::Simulator) -> Vec<slub_sim::scenario::ContextSpec> {
    let sc = sim.scenario();
    sc.tasks.iter().chain(sc.irqs.iter()).cloned().collect()
}

/// Operations each context has finished: `CtxView::op` is the index of the operation under
/// way, else of the next to start, and either is the number finished.
fn ops_done(sim: &slub_sim::Simulator, contexts: usize) -> Vec<usize> {
    let view = sim.machine().policy_view();
    (0..view.contexts().min(contexts))
        .map(|cx| u8::try_from(cx).map_or(0, |cx| view.ctx(cx).op))
        .collect()
}

/// Record the operations that ended between `before` and `after` (a move's), at move `at`.
fn note_ops(
    specs: &[slub_sim::scenario::ContextSpec],
    before: &[usize],
    after: &[usize],
    at: u32,
    ends: &mut Vec<u32>,
    ops: &mut Vec<String>,
) {
    for (cx, (&a, &b)) in after.iter().zip(before).enumerate() {
        for k in b..a {
            let spec = specs.get(cx);
            let what = spec
                .and_then(|s| s.ops.get(k))
                .map(op_text)
                .unwrap_or_default();
            let who = spec.map(|s| s.id.as_str()).unwrap_or("?");
            ends.push(at);
            ops.push(if what.is_empty() {
                who.to_string()
            } else {
                format!("{who}: {what}")
            });
        }
    }
}

/// A history cut into operations (one context's alloc, free, touch or flush, from its first
/// step to its last).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Operations {
    /// The operation index of each move: `opAfter[i]` operations had finished, all contexts
    /// together, after move `i` (0-based) of the history.
    op_after: Vec<u32>,
    /// `ends[k]`: the moves played when `k` operations had finished (`ends[0]` = 0).
    ends: Vec<u32>,
    /// Each operation as `T: alloc x`, in the order they finished.
    ops: Vec<String>,
}

/// How a scenario file writes an operation (`alloc x`, `free y on node 1`, ...).
fn op_text(op: &slub_sim::scenario::Op) -> String {
    use slub_sim::scenario::Op;
    match op {
        Op::Alloc { var, node: None } => format!("alloc {var}"),
        Op::Alloc { var, node: Some(n) } => format!("alloc {var} on node {n}"),
        Op::Free { var } => format!("free {var}"),
        Op::Touch { var } => format!("touch {var}"),
        Op::Flush { target: None } => "flush".to_string(),
        Op::Flush { target: Some(t) } => format!("flush cpu{t}"),
        Op::Tune => "tune".to_string(),
    }
}

fn operations_of(sim: &mut slub_sim::Simulator) -> Result<Operations, slub_sim::Error> {
    let specs = context_specs(sim);
    let len = sim.history().len();
    sim.seek(0)?;
    let mut before = ops_done(sim, specs.len());
    let mut out = Operations {
        op_after: Vec::with_capacity(len),
        ends: vec![0],
        ops: Vec::new(),
    };
    for at in 1..=len {
        sim.seek(at)?;
        let after = ops_done(sim, specs.len());
        note_ops(
            &specs,
            &before,
            &after,
            u32::try_from(at).unwrap_or(u32::MAX),
            &mut out.ends,
            &mut out.ops,
        );
        out.op_after
            .push(u32::try_from(out.ops.len()).unwrap_or(u32::MAX));
        before = after;
    }
    Ok(out)
}

/// The core benchmark (design.md §8): run a scenario by the default policy on the bare machine,
/// events off, the invariant checks on or off, and return the number of steps taken. The same
/// loop as the native `cargo bench` (`core_steps_*`), so the two numbers compare; `runs`
/// machines are run from one parse.
#[wasm_bindgen(js_name = benchSteps)]
pub fn bench_steps(scenario_json: &str, checks: bool, runs: u32) -> Result<f64, JsError> {
    // Parsed once, then `runs` machines built from a clone, as `cargo bench` times it: the
    // parse is not part of the core loop.
    let sc = slub_sim::scenario::parse(scenario_json).map_err(|e| into_error(e.into()))?;
    use slub_sim::model::Driver;
    let mut steps = 0;
    for _ in 0..runs.max(1) {
        let mut m = slub_sim::model::Machine::new(sc.clone(), false, checks);
        while let Some(mv) = slub_sim::policy::default_move(&m) {
            m.apply(mv, None);
        }
        steps += m.policy_view().steps();
    }
    Ok(steps as f64)
}

/// The explorer's bounds as JS passes them (all optional; defaults are the CLI's).
#[cfg(feature = "explore")]
#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ExploreBounds {
    max_preemptions: Option<u32>,
    max_migrations: Option<u32>,
    max_irq_entries: Option<u32>,
    max_executions: Option<u64>,
    max_states: Option<u64>,
    max_memory_mb: Option<u64>,
    reduction: Option<bool>,
    /// What the page can get (MB), as the worker estimates it (`navigator.deviceMemory`).
    available_memory_mb: Option<u64>,
}

/// What a search in this wasm instance can get: wasm32's 4 GiB less the linear memory already
/// grown, and, when the page gives it, the device's memory less that too.
#[cfg(feature = "explore")]
fn wasm_memory_limit(page_mb: Option<u64>) -> Option<slub_sim::explore::limits::MemoryLimit> {
    #[cfg(target_arch = "wasm32")]
    let grown_mb = (core::arch::wasm32::memory_size(0) as u64 * 65_536) >> 20;
    #[cfg(not(target_arch = "wasm32"))]
    let grown_mb = 0u64;
    let mut found = vec![(
        4096u64.saturating_sub(grown_mb) << 20,
        format!("wasm32's 4096 MB address space, {grown_mb} MB of it grown"),
    )];
    if let Some(mb) = page_mb {
        found.push((
            mb.saturating_sub(grown_mb) << 20,
            format!(
                "the page's estimate of the device's memory ({mb} MB), {grown_mb} MB of it grown"
            ),
        ));
    }
    slub_sim::explore::limits::tightest(found)
}

/// Explore a scenario's interleavings (`slub_sim::explore`), breadth first. `bounds_json` is
/// `{ maxPreemptions?, maxMigrations?, maxIrqEntries?, maxExecutions?, maxStates?,
/// maxMemoryMb?, reduction?, availableMemoryMb? }`.
/// `progress` is called every 256 states with a JSON `{ executions, states, depth, frontier }`
/// and stops the search when it returns `false` (a deadline; to cancel at once, terminate the
/// worker this runs in). Returns the report as JSON: `{ executions, states, transitions,
/// pruned, maxDepth, complete, cancelled, violations: [{ invariant, message, schedule }] }`.
#[cfg(feature = "explore")]
#[wasm_bindgen]
pub fn explore(
    scenario_json: &str,
    bounds_json: &str,
    progress: &js_sys::Function,
) -> Result<String, JsError> {
    let sc = slub_sim::scenario::parse(scenario_json).map_err(|e| into_error(e.into()))?;
    let b: ExploreBounds = if bounds_json.trim().is_empty() {
        ExploreBounds::default()
    } else {
        serde_json::from_str(bounds_json)
            .map_err(|e| JsError::new(&format!("bad explorer bounds: {e}")))?
    };
    let d = slub_sim::explore::Bounds::default();
    let bounds = slub_sim::explore::Bounds {
        max_preemptions: b.max_preemptions.or(d.max_preemptions),
        max_migrations: b.max_migrations.or(d.max_migrations),
        max_irq_entries: b.max_irq_entries.or(d.max_irq_entries),
        max_executions: b.max_executions.unwrap_or(d.max_executions).max(1),
        max_states: b.max_states.unwrap_or(d.max_states).max(1),
        max_memory_mb: b.max_memory_mb.unwrap_or(d.max_memory_mb).max(1),
        reduction: b.reduction.unwrap_or(true),
        memory_limit: wasm_memory_limit(b.available_memory_mb),
    };
    let report = slub_sim::explore::explore(&sc, &bounds, &mut |p| {
        let arg = JsValue::from_str(&to_json(p));
        // A throwing callback counts as "stop": the search must not run on unobserved.
        progress
            .call1(&JsValue::NULL, &arg)
            .map(|r| r.as_bool() != Some(false))
            .unwrap_or(false)
    });
    Ok(to_json(&report))
}
