//! Helpers of the golden scenario tests (`tests/golden.rs`): loading the scenario files of
//! `tests/scenarios`, patching their variant or setup, driving a simulator by labels and by
//! schedule plans, sweeping schedule prefixes, and describing a failure so that it can be
//! replayed with `slub-lab run FILE --schedule ...`.

#![allow(dead_code)]

use serde_json::Value;
use slub_sim::{Outcome, Simulator, View};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The directory of the scenario files.
pub fn scenarios_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("scenarios")
}

/// Every scenario file, sorted by name.
pub fn scenario_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(scenarios_dir())
        .expect("tests/scenarios exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    names
}

/// A scenario: the file it comes from, what was changed (for messages) and its JSON.
#[derive(Clone, Debug)]
pub struct Case {
    pub file: String,
    /// `""` for the file as it is, else a short description of the patch (`fastpath=no-tid`).
    pub patch: String,
    pub json: Value,
}

impl Case {
    /// The file `tests/scenarios/<file>` as it is.
    pub fn load(file: &str) -> Case {
        let path = scenarios_dir().join(file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let json: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file} is not JSON: {e}"));
        Case {
            file: file.to_string(),
            patch: String::new(),
            json,
        }
    }

    fn note(mut self, what: String) -> Case {
        if !self.patch.is_empty() {
            self.patch.push_str(", ");
        }
        self.patch.push_str(&what);
        self
    }

    /// The same scenario with `variant.<key>` set (`"era"` included).
    pub fn with_variant(mut self, key: &str, value: Value) -> Case {
        let root = self.json.as_object_mut().unwrap();
        let v = root
            .entry("variant")
            .or_insert_with(|| Value::Object(Default::default()));
        v.as_object_mut()
            .unwrap()
            .insert(key.to_string(), value.clone());
        self.note(format!("variant.{key}={value}"))
    }

    /// The same scenario without `variant.<key>` (back to the default or the era's value).
    pub fn without_variant(mut self, key: &str) -> Case {
        if let Some(v) = self.json.get_mut("variant").and_then(|v| v.as_object_mut()) {
            v.remove(key);
        }
        self.note(format!("no variant.{key}"))
    }

    /// The same scenario with `cache.<key>` set.
    pub fn with_cache(mut self, key: &str, value: Value) -> Case {
        let root = self.json.as_object_mut().unwrap();
        let v = root
            .entry("cache")
            .or_insert_with(|| Value::Object(Default::default()));
        v.as_object_mut()
            .unwrap()
            .insert(key.to_string(), value.clone());
        self.note(format!("cache.{key}={value}"))
    }

    /// The same scenario with its last `n` setup ops dropped.
    pub fn drop_last_setup(mut self, n: usize) -> Case {
        let setup = self
            .json
            .get_mut("setup")
            .and_then(|s| s.as_array_mut())
            .expect("the scenario has a setup");
        let keep = setup.len() - n;
        setup.truncate(keep);
        self.note(format!("without the last {n} setup ops"))
    }

    /// The same scenario with the setup ops at the given indices dropped.
    pub fn drop_setup(mut self, indices: &[usize]) -> Case {
        let setup = self
            .json
            .get_mut("setup")
            .and_then(|s| s.as_array_mut())
            .expect("the scenario has a setup");
        let mut i = 0;
        setup.retain(|_| {
            let keep = !indices.contains(&i);
            i += 1;
            keep
        });
        self.note(format!("without setup ops {indices:?}"))
    }

    /// A short name for messages: `sc02_aba_without_tid.json [variant.fastpath="no-tid"]`.
    pub fn name(&self) -> String {
        if self.patch.is_empty() {
            self.file.clone()
        } else {
            format!("{} [{}]", self.file, self.patch)
        }
    }

    pub fn text(&self) -> String {
        serde_json::to_string_pretty(&self.json).unwrap()
    }

    /// A simulator after setup (events off).
    pub fn sim(&self) -> Simulator {
        self.sim_with(false)
    }

    pub fn sim_with(&self, events: bool) -> Simulator {
        Simulator::from_json(&self.text(), events)
            .unwrap_or_else(|e| panic!("{}: {e}", self.name()))
    }

    /// A run of this scenario (setup done, no move yet).
    pub fn run(&self) -> Run {
        Run {
            case: self.clone(),
            sim: self.sim(),
        }
    }

    /// A run that records events.
    pub fn run_events(&self) -> Run {
        Run {
            case: self.clone(),
            sim: self.sim_with(true),
        }
    }

    /// The file to give `slub-lab run`: the scenario file itself, or the patched scenario
    /// written next to the test binaries.
    pub fn replay_file(&self) -> String {
        if self.patch.is_empty() {
            return scenarios_dir().join(&self.file).display().to_string();
        }
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("golden");
        let _ = std::fs::create_dir_all(&dir);
        let slug: String = self
            .patch
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = dir.join(format!(
            "{}__{}.json",
            self.file.trim_end_matches(".json"),
            slug
        ));
        let _ = std::fs::write(&path, self.text());
        path.display().to_string()
    }

    /// `slub-lab run FILE --schedule M1,M2,...` for a list of moves.
    pub fn replay(&self, moves: &[String]) -> String {
        format!(
            "slub-lab run {} --schedule {}",
            self.replay_file(),
            moves.join(",")
        )
    }

    /// The narrated events of a replay of `moves` (for bug reports).
    pub fn narrate(&self, moves: &[String]) -> String {
        let mut sim = self.sim_with(true);
        let mut out = String::new();
        for (i, m) in moves.iter().enumerate() {
            if let Err(e) = sim.apply(m) {
                out.push_str(&format!("move {i} {m}: {e}\n"));
                break;
            }
        }
        sim.run_to_end();
        for e in sim.events() {
            let mv =
                e.mv.map(|m| format!("#{m}"))
                    .unwrap_or_else(|| "setup".into());
            let ok = match e.ok {
                Some(true) => " [ok]",
                Some(false) => " [FAIL]",
                None => "",
            };
            out.push_str(&format!(
                "  {:>4} {:>6} {} cpu{} {:<28}{} {}\n",
                e.step, mv, e.ctx, e.cpu, e.label, ok, e.narration
            ));
        }
        for v in &sim.outcome().violations {
            out.push_str(&format!(
                "  VIOLATION at step {}: {} {}\n",
                v.step, v.invariant, v.message
            ));
        }
        out
    }
}

/// One run of a case: the simulator and helpers to drive it.
pub struct Run {
    pub case: Case,
    pub sim: Simulator,
}

impl Run {
    pub fn view(&self) -> View {
        self.sim.view()
    }

    pub fn outcome(&self) -> Outcome {
        self.sim.outcome()
    }

    pub fn moves(&self) -> Vec<String> {
        self.sim.history().to_vec()
    }

    /// `slub-lab run ... --schedule ...` for the moves so far.
    pub fn replay(&self) -> String {
        self.case.replay(&self.moves())
    }

    /// Apply a move if it is enabled.
    pub fn try_move(&mut self, mv: &str) -> bool {
        self.sim.apply(mv).is_ok()
    }

    /// Apply a move that must be enabled.
    pub fn mv(&mut self, mv: &str) -> Result<(), String> {
        self.sim
            .apply(mv)
            .map_err(|e| format!("{}: {e}\n  replay: {}", self.case.name(), self.replay()))
    }

    pub fn enabled(&self, mv: &str) -> bool {
        self.sim.enabled_moves().iter().any(|m| m == mv)
    }

    fn ctx_view(&self, ctx: &str) -> slub_sim::view::ContextView {
        self.view()
            .contexts
            .into_iter()
            .find(|c| c.id == ctx)
            .unwrap_or_else(|| panic!("no context {ctx}"))
    }

    /// The label of the step `ctx` takes next (`slab_alloc:A9`), if it is in an operation.
    pub fn label(&self, ctx: &str) -> Option<String> {
        self.ctx_view(ctx).label
    }

    /// `running`, `runnable`, `waiting`, `blocked` or `finished`.
    pub fn state(&self, ctx: &str) -> String {
        self.ctx_view(ctx).state.to_string()
    }

    pub fn finished(&self, ctx: &str) -> bool {
        self.state(ctx) == "finished"
    }

    /// Step `ctx` until the label of its next step is `label` (it may already be). At most
    /// `limit` steps; an error if it finishes, is not enabled, or the limit is reached.
    pub fn until_label(&mut self, ctx: &str, label: &str) -> Result<(), String> {
        for _ in 0..10_000 {
            if self.label(ctx).as_deref() == Some(label) {
                return Ok(());
            }
            if self.finished(ctx) {
                return Err(format!(
                    "{}: {ctx} finished without reaching {label}\n  replay: {}",
                    self.case.name(),
                    self.replay()
                ));
            }
            self.mv(ctx)?;
        }
        Err(format!(
            "{}: {ctx} did not reach {label} in 10000 steps",
            self.case.name()
        ))
    }

    /// Step `ctx` until the label of its next step is `label`, counting `nth` arrivals
    /// (`nth` = 1: the first time it is there).
    pub fn until_nth_label(&mut self, ctx: &str, label: &str, nth: usize) -> Result<(), String> {
        for i in 0..nth {
            if i > 0 {
                self.mv(ctx)?;
            }
            self.until_label(ctx, label)?;
        }
        Ok(())
    }

    /// Step `ctx` while its move is enabled (until it finishes or must wait).
    pub fn while_enabled(&mut self, ctx: &str) -> usize {
        let mut n = 0;
        while self.enabled(ctx) {
            self.sim.apply(ctx).unwrap();
            n += 1;
        }
        n
    }

    /// Step `ctx` until it has finished; an error if it has to wait on the way.
    pub fn complete(&mut self, ctx: &str) -> Result<(), String> {
        self.while_enabled(ctx);
        if self.finished(ctx) {
            Ok(())
        } else {
            Err(format!(
                "{}: {ctx} cannot finish alone ({})\n  replay: {}",
                self.case.name(),
                self.state(ctx),
                self.replay()
            ))
        }
    }

    /// Step `ctx` exactly `n` times; false (and fewer steps) if a step is not enabled.
    pub fn steps(&mut self, ctx: &str, n: usize) -> bool {
        for _ in 0..n {
            if !self.try_move(ctx) {
                return false;
            }
        }
        true
    }

    /// Go on by the default policy to the end.
    pub fn finish(&mut self) {
        self.sim.run_to_end();
    }

    pub fn stat(&self, name: &str) -> u64 {
        self.outcome().stats.total.get(name).copied().unwrap_or(0)
    }

    pub fn stats(&self) -> BTreeMap<String, u64> {
        self.outcome().stats.total
    }

    /// The object a variable was bound to (`p3`), if any.
    pub fn var(&self, name: &str) -> Option<String> {
        self.view()
            .vars
            .into_iter()
            .find(|v| v.name == name)
            .and_then(|v| v.object)
    }

    pub fn cpu(&self, k: usize) -> slub_sim::view::CpuView {
        self.view().cpus[k].clone()
    }

    pub fn slab(&self, name: &str) -> slub_sim::view::SlabView {
        self.view()
            .slabs
            .into_iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("no slab {name}"))
    }

    pub fn node(&self, n: usize) -> slub_sim::view::NodeView {
        self.view().nodes[n].clone()
    }

    pub fn violations(&self) -> Vec<String> {
        self.outcome()
            .violations
            .iter()
            .map(|v| format!("{} at step {}: {}", v.invariant, v.step, v.message))
            .collect()
    }

    pub fn invariants(&self) -> Vec<String> {
        self.outcome()
            .violations
            .iter()
            .map(|v| v.invariant.clone())
            .collect()
    }

    /// `list_lock` acquisitions by `ctx` in the recorded events (after setup).
    pub fn list_locks(&self, ctx: &str) -> usize {
        self.sim
            .events()
            .iter()
            .filter(|e| {
                e.mv.is_some()
                    && e.ctx == ctx
                    && e.kind == slub_sim::event::EventKind::Lock
                    && e.target.ends_with("list_lock")
            })
            .count()
    }

    /// The recorded events of `ctx`'s steps at `label` (after setup), in order.
    pub fn events_at(&self, ctx: &str, label: &str) -> Vec<slub_sim::Event> {
        self.sim
            .events()
            .iter()
            .filter(|e| e.mv.is_some() && e.ctx == ctx && e.label == label)
            .cloned()
            .collect()
    }

    /// Labels of the steps `ctx` took (after setup), in order.
    /// The events of `ctx`'s steps in the moves played (not setup's).
    pub fn events_of(&self, ctx: &str) -> Vec<slub_sim::Event> {
        self.sim
            .events()
            .iter()
            .filter(|e| e.mv.is_some() && e.ctx == ctx)
            .cloned()
            .collect()
    }

    pub fn labels_of(&self, ctx: &str) -> Vec<String> {
        self.sim
            .events()
            .iter()
            .filter(|e| e.mv.is_some() && e.ctx == ctx)
            .map(|e| e.label.clone())
            .collect()
    }

    /// A compact description of the visible state, for failure messages.
    pub fn describe(&self) -> String {
        describe(&self.view())
    }
}

/// `h3 [p0,p1]`: a sheaf and its objects, bottom first.
pub fn sheaf_text(h: &slub_sim::view::SheafView) -> String {
    format!("{} [{}]", h.name, h.objects.join(","))
}

/// Per-CPU, per-slab and per-node state in a few lines.
pub fn describe(v: &View) -> String {
    let mut out = String::new();
    for c in &v.cpus {
        out.push_str(&format!(
            "  cpu{}: fl [{}] tid {} page {} partial [{}]\n",
            c.cpu,
            c.freelist.join(","),
            c.tid,
            c.page.clone().unwrap_or_else(|| "NULL".into()),
            c.partial.join(",")
        ));
        if let Some(p) = &c.sheaves {
            out.push_str(&format!(
                "        sheaves: main {} spare {} lock {}\n",
                sheaf_text(&p.main),
                p.spare.as_ref().map_or("NULL".into(), sheaf_text),
                p.locked_by.clone().unwrap_or_else(|| "-".into())
            ));
        }
    }
    for s in &v.slabs {
        out.push_str(&format!(
            "  slab {} (node {}): fl [{}] inuse {} frozen {} owner {}\n",
            s.name,
            s.node,
            s.freelist.join(","),
            s.inuse,
            s.frozen as u8,
            s.owner
        ));
    }
    for n in &v.nodes {
        out.push_str(&format!(
            "  node{}: partial [{}] nr_partial {}\n",
            n.node,
            n.partial.join(","),
            n.nr_partial
        ));
        if let Some(b) = &n.barn {
            let list = |l: &[slub_sim::view::SheafView]| {
                l.iter().map(sheaf_text).collect::<Vec<_>>().join(" ")
            };
            out.push_str(&format!(
                "        barn: full [{}] empty [{}] lock {}\n",
                list(&b.full),
                list(&b.empty),
                b.locked_by.clone().unwrap_or_else(|| "-".into())
            ));
        }
    }
    for h in v.loose_sheaves.iter().flatten() {
        out.push_str(&format!(
            "  loose sheaf {} held by {}\n",
            sheaf_text(h),
            h.held_by.clone().unwrap_or_else(|| "?".into())
        ));
    }
    let vars: Vec<String> = v
        .vars
        .iter()
        .map(|x| {
            format!(
                "{}={}{}",
                x.name,
                x.object.clone().unwrap_or_else(|| "NULL".into()),
                if x.held { "" } else { "(freed)" }
            )
        })
        .collect();
    out.push_str(&format!("  vars: {}\n", vars.join(" ")));
    for c in &v.contexts {
        out.push_str(&format!(
            "  ctx {} cpu{} {} at {}\n",
            c.id,
            c.cpu,
            c.state,
            c.label.clone().unwrap_or_default()
        ));
    }
    out
}

/// Stat differences `after - before` (only the counters that changed).
pub fn stat_delta(
    before: &BTreeMap<String, u64>,
    after: &BTreeMap<String, u64>,
) -> BTreeMap<String, i64> {
    after
        .iter()
        .filter_map(|(k, &a)| {
            let b = before.get(k).copied().unwrap_or(0);
            (a != b).then(|| (k.clone(), a as i64 - b as i64))
        })
        .collect()
}

/// A piece of a schedule plan (see [`Plan`]).
#[derive(Clone, Debug)]
pub enum Seg {
    /// `ctx` takes exactly n steps.
    Steps(&'static str, usize),
    /// `ctx` steps until its next label is the given one.
    Until(&'static str, &'static str),
    /// `ctx` steps while it is enabled; it must then have finished.
    ToEnd(&'static str),
    /// `ctx` steps while it is enabled (it may end up waiting).
    WhileEnabled(&'static str),
    /// One move (`migrate:T:1`, or a context id).
    Move(&'static str),
}

/// A schedule plan: segments applied in order, then the default policy to the end.
pub type Plan = Vec<Seg>;

/// Run a plan; `None` if some segment cannot be applied as written (the plan is infeasible).
pub fn run_plan(case: &Case, plan: &[Seg]) -> Option<Run> {
    let mut r = case.run();
    for s in plan {
        let ok = match *s {
            Seg::Steps(c, n) => r.steps(c, n),
            Seg::Until(c, l) => r.until_label(c, l).is_ok(),
            Seg::ToEnd(c) => r.complete(c).is_ok(),
            Seg::WhileEnabled(c) => {
                r.while_enabled(c);
                true
            }
            Seg::Move(m) => r.try_move(m),
        };
        if !ok {
            return None;
        }
    }
    r.finish();
    Some(r)
}

/// What a sweep saw: every feasible plan's run.
pub struct Sweep {
    pub case: Case,
    pub runs: Vec<Run>,
    /// Plans tried, feasible or not.
    pub tried: usize,
}

impl Sweep {
    /// Run every plan of `plans`, keeping the feasible ones.
    pub fn new(case: &Case, plans: impl IntoIterator<Item = Plan>) -> Sweep {
        let mut runs = Vec::new();
        let mut tried = 0;
        let mut seen = std::collections::HashSet::new();
        for p in plans {
            tried += 1;
            if let Some(r) = run_plan(case, &p) {
                // Different plans often give the same schedule; keep one of each.
                if seen.insert(r.moves()) {
                    runs.push(r);
                }
            }
        }
        Sweep {
            case: case.clone(),
            runs,
            tried,
        }
    }

    /// [`Sweep::new`], printing its summary (shown with `--nocapture`).
    pub fn new_logged(case: &Case, plans: impl IntoIterator<Item = Plan>) -> Sweep {
        let s = Sweep::new(case, plans);
        println!("sweep {}", s.summary());
        s
    }

    /// The first run that violated `invariant` (any invariant if `None`).
    pub fn find_violation(&self, invariant: Option<&str>) -> Option<&Run> {
        self.runs.iter().find(|r| {
            r.outcome()
                .violations
                .iter()
                .any(|v| invariant.is_none_or(|i| v.invariant == i))
        })
    }

    /// Every run with some violation: a description of each (at most `max`).
    pub fn violating(&self, max: usize) -> Vec<String> {
        self.runs
            .iter()
            .filter(|r| !r.outcome().violations.is_empty())
            .take(max)
            .map(|r| {
                format!(
                    "{}\n    violations: {:?}\n    replay: {}",
                    self.case.name(),
                    r.violations(),
                    r.replay()
                )
            })
            .collect()
    }

    /// Schedules with no violation (for "the broken variant must fail for some schedule").
    pub fn summary(&self) -> String {
        let bad = self
            .runs
            .iter()
            .filter(|r| !r.outcome().violations.is_empty())
            .count();
        format!(
            "{}: {} plans tried, {} distinct feasible schedules, {} with violations",
            self.case.name(),
            self.tried,
            self.runs.len(),
            bad
        )
    }
}

/// Collects failures of a test and panics with all of them at the end.
#[derive(Default)]
pub struct Failures(pub Vec<String>);

impl Failures {
    pub fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.0.push(what());
        }
    }

    pub fn push(&mut self, what: String) {
        self.0.push(what);
    }

    /// Compare `got` with `want`; on mismatch record the message with the run's replay.
    pub fn eq<T: PartialEq + std::fmt::Debug>(&mut self, r: &Run, what: &str, got: T, want: T) {
        if got != want {
            self.0.push(format!(
                "{}: {what}: got {got:?}, want {want:?}\n  replay: {}\n  state:\n{}",
                r.case.name(),
                r.replay(),
                r.describe()
            ));
        }
    }

    /// The run has no violation.
    pub fn no_violation(&mut self, r: &Run) {
        let v = r.violations();
        if !v.is_empty() {
            self.0.push(format!(
                "{}: unexpected violations {v:?}\n  replay: {}\n  state:\n{}",
                r.case.name(),
                r.replay(),
                r.describe()
            ));
        }
    }

    pub fn done(self) {
        if !self.0.is_empty() {
            panic!("{} failure(s):\n\n{}", self.0.len(), self.0.join("\n\n"));
        }
    }
}

/// Prefix lengths `0..n` of steps of `ctx`, each followed by `rest`: the plans of a simple
/// one-dimensional sweep.
pub fn prefix_plans(ctx: &'static str, n: usize, rest: &[Seg]) -> Vec<Plan> {
    (0..n)
        .map(|k| {
            let mut p = vec![Seg::Steps(ctx, k)];
            p.extend_from_slice(rest);
            p
        })
        .collect()
}

/// The scenario file whose name starts with `prefix` (`"sc02"`), as JSON.
pub fn load(prefix: &str) -> Value {
    let file = std::fs::read_dir(scenarios_dir())
        .expect("tests/scenarios exists")
        .map(|e| e.expect("dir entry").path())
        .find(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix))
        })
        .unwrap_or_else(|| panic!("no scenario {prefix}"));
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", file.display()))
}

/// `sc` with its `variant` replaced.
pub fn with_variant(mut sc: Value, variant: Value) -> Value {
    sc["variant"] = variant;
    sc
}
