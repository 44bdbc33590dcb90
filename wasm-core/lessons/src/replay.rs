//! Replaying a lesson against the model: the moves of steps 1..k applied in order to the
//! lesson's scenario (with its variant overrides), every move enabled, and after step k every
//! `expect`, `predict.answer`, `whatIf`, the `tryIt` and the highlights of step k checked. A
//! lesson can claim nothing the model does not do. `LESSON_TRACE=<id>` (or `all`) prints every
//! step's moves with the model's narration and the state after it.

use serde_json::{Map, Value};
use slub_sim::Simulator;
use std::collections::{BTreeMap, BTreeSet};

use crate::format::*;
use crate::highlight;
use crate::moves;
use crate::parse::stat_names;

/// The lesson's scenario JSON with variant (and cache) overrides merged in; `Err` when the
/// scenario or its `variant`/`cache` is not a JSON object.
pub(crate) fn scenario_with(
    base: &Value,
    variant: &[&Map<String, Value>],
    cache: &Map<String, Value>,
) -> Result<Value, String> {
    let mut j = base.clone();
    let Some(root) = j.as_object_mut() else {
        return Err("a scenario is a JSON object".into());
    };
    let mut merge = |key: &str, with: &Map<String, Value>| -> Result<(), String> {
        if with.is_empty() {
            return Ok(());
        }
        let dst = root.entry(key).or_insert_with(|| Value::Object(Map::new()));
        let Some(dst) = dst.as_object_mut() else {
            return Err(format!("its `{key}` is not a JSON object"));
        };
        for (k, val) in with {
            dst.insert(k.clone(), val.clone());
        }
        Ok(())
    };
    for v in variant {
        merge("variant", v)?;
    }
    merge("cache", cache)?;
    Ok(j)
}

fn show<T: std::fmt::Debug>(v: &T) -> String {
    format!("{v:?}")
}

/// Compare one claimed field; `Err` names the field and both values.
fn same<T: PartialEq + std::fmt::Debug>(
    errs: &mut Vec<String>,
    field: &str,
    model: T,
    lesson: &Option<T>,
) {
    if let Some(want) = lesson {
        if *want != model {
            errs.push(format!(
                "{field}: the model has {}, the lesson says {}",
                show(&model),
                show(want)
            ));
        }
    }
}

/// The simulator's counters before a step: `delta`, `stepCycles` and `events` are measured
/// from here.
struct Mark {
    stats: BTreeMap<String, u64>,
    cycles: Vec<u64>,
    events: usize,
}

impl Mark {
    fn of(sim: &Simulator) -> Mark {
        let o = sim.outcome();
        Mark {
            stats: o.stats.total,
            cycles: o.cycles.per_cpu,
            events: sim.events().len(),
        }
    }
}

/// What a step's claims are checked against: the simulator after the step, its view and
/// outcome (taken once), and the mark where the step began.
struct After<'a> {
    sim: &'a Simulator,
    view: slub_sim::view::View,
    out: slub_sim::Outcome,
    mark: &'a Mark,
}

/// One check per claim key (docs/writing-lessons.md §5), in the order their messages come.
type ClaimCheck = fn(&Claims, &After, &mut Vec<String>);
const CLAIM_CHECKS: [ClaimCheck; 14] = [
    check_stats,
    check_delta,
    check_step_cycles,
    check_violations,
    check_vars,
    check_cpus,
    check_slabs,
    check_objects,
    check_nodes,
    check_contexts,
    check_enabled,
    check_lines,
    check_events,
    check_run,
];

/// Check `claims` against the simulator after a step that started at `mark`. Returns one
/// message per false claim (field: why).
fn check_claims(claims: &Claims, sim: &Simulator, mark: &Mark) -> Vec<String> {
    let after = After {
        sim,
        view: sim.view(),
        out: sim.outcome(),
        mark,
    };
    let mut errs = Vec::new();
    for check in CLAIM_CHECKS {
        check(claims, &after, &mut errs);
    }
    errs
}

/// `stats`: counter totals since the very start, setup included.
fn check_stats(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let total = &at.out.stats.total;
    for (k, want) in claims.stats.iter().flatten() {
        let got = total.get(k).copied().unwrap_or(0);
        if got != *want {
            errs.push(format!(
                "stats.{k}: the model has {got} (setup included), the lesson says {want}"
            ));
        }
    }
}

/// `delta`: how much each counter changed during the step.
fn check_delta(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let total = &at.out.stats.total;
    let before = &at.mark.stats;
    for (k, want) in claims.delta.iter().flatten() {
        let got =
            total.get(k).copied().unwrap_or(0) as i64 - before.get(k).copied().unwrap_or(0) as i64;
        if got != *want {
            errs.push(format!(
                "delta.{k}: this step changed it by {got}, the lesson says {want}"
            ));
        }
    }
}

/// `stepCycles`: the cycles charged to each CPU during the step.
fn check_step_cycles(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let out = &at.out;
    let mark = at.mark;
    for (name, want) in claims.step_cycles.iter().flatten() {
        let idx: usize = name[3..].parse().unwrap_or(usize::MAX);
        match (out.cycles.per_cpu.get(idx), mark.cycles.get(idx)) {
            (Some(now), Some(then)) => {
                if now - then != *want {
                    errs.push(format!(
                        "stepCycles.{name}: this step charged {} cycles to {name}, the lesson says {want}",
                        now - then
                    ));
                }
            }
            _ => errs.push(format!("stepCycles.{name}: no such CPU")),
        }
    }
}

/// `violations`: exactly the invariants violated so far.
fn check_violations(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    if let Some(want) = &claims.violations {
        let got: BTreeSet<String> = view
            .violations
            .iter()
            .map(|v| v.invariant.clone())
            .collect();
        let want_set: BTreeSet<String> = want.iter().cloned().collect();
        if got != want_set {
            errs.push(format!(
                "violations: the model has {:?} ({}), the lesson says {:?}",
                got,
                view.violations
                    .iter()
                    .map(|v| format!("step {} {}: {}", v.step, v.invariant, v.message))
                    .collect::<Vec<_>>()
                    .join("; "),
                want
            ));
        }
    }
}

/// `vars`: the object each variable holds.
fn check_vars(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    for (name, want) in claims.vars.iter().flatten() {
        match view.vars.iter().find(|v| &v.name == name) {
            None => errs.push(format!("vars.{name}: the scenario has no variable {name}")),
            Some(v) => {
                let got = if !v.bound {
                    Some("unbound".to_string())
                } else {
                    v.object.clone()
                };
                if &got != want {
                    errs.push(format!(
                        "vars.{name}: the model has {}, the lesson says {}",
                        got.as_deref().unwrap_or("null"),
                        want.as_deref().unwrap_or("null")
                    ));
                }
            }
        }
    }
}

/// `cpus`: each CPU: its kmem_cache_cpu, SLAB array or 7.0 sheaves.
fn check_cpus(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    for (name, c) in claims.cpus.iter().flatten() {
        let idx: usize = name[3..].parse().unwrap_or(usize::MAX);
        let Some(v) = view.cpus.get(idx) else {
            errs.push(format!("cpus.{name}: no such CPU"));
            continue;
        };
        let f = |x: &str| format!("cpus.{name}.{x}");
        same(errs, &f("freelist"), v.freelist.clone(), &c.freelist);
        same(errs, &f("tid"), v.tid, &c.tid);
        same(errs, &f("page"), v.page.clone(), &c.page);
        same(errs, &f("partial"), v.partial.clone(), &c.partial);
        same(errs, &f("irqs"), v.irqs_enabled, &c.irqs);
        same(errs, &f("preempt"), v.preempt_count, &c.preempt);
        same(errs, &f("running"), v.running.clone(), &c.running);
        same(errs, &f("cycles"), v.cycles, &c.cycles);
        if let Some(sc) = &c.sheaves {
            match &v.sheaves {
                Some(p) => {
                    same(errs, &f("sheaves.main"), p.main.objects.clone(), &sc.main);
                    same(
                        errs,
                        &f("sheaves.spare"),
                        p.spare.as_ref().map(|h| h.objects.clone()),
                        &sc.spare,
                    );
                    same(
                        errs,
                        &f("sheaves.lockedBy"),
                        p.locked_by.clone(),
                        &sc.locked_by,
                    );
                }
                None => errs.push(format!(
                    "{}: only Linux 7.0 (\"era\": \"v7.0\") has per-CPU sheaves",
                    f("sheaves")
                )),
            }
        }
        if let Some(a) = &c.array {
            match &v.array_cache {
                Some(av) => check_array(errs, &f("array"), av, a),
                None => errs.push(format!(
                    "{}: this scenario runs SLUB, whose CPUs have no array_cache",
                    f("array")
                )),
            }
        }
    }
}

/// `slabs`: each slab: freelist, counters, owner.
fn check_slabs(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    for (name, c) in claims.slabs.iter().flatten() {
        let Some(v) = view.slabs.iter().find(|s| &s.name == name) else {
            errs.push(format!("slabs.{name}: no such slab (yet)"));
            continue;
        };
        let f = |x: &str| format!("slabs.{name}.{x}");
        same(errs, &f("freelist"), v.freelist.clone(), &c.freelist);
        same(errs, &f("inuse"), v.inuse, &c.inuse);
        same(errs, &f("frozen"), v.frozen, &c.frozen);
        // `to_string`: the view's owner is a String or an enum that prints the same words.
        same(errs, &f("owner"), v.owner.to_string(), &c.owner);
        same(errs, &f("locked"), v.slab_locked, &c.locked);
    }
}

/// `objects`: each object: its free pointer and owner.
fn check_objects(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    for (name, c) in claims.objects.iter().flatten() {
        let Some(o) = view
            .slabs
            .iter()
            .flat_map(|s| s.objects.iter())
            .find(|o| &o.name == name)
        else {
            errs.push(format!("objects.{name}: no such object (yet)"));
            continue;
        };
        let f = |x: &str| format!("objects.{name}.{x}");
        same(errs, &f("fp"), o.fp.clone(), &c.fp);
        same(errs, &f("owner"), o.owner.to_string(), &c.owner);
    }
}

/// `nodes`: each node: its partial list and lock, SLAB lists and counters, 7.0 barn.
fn check_nodes(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    for (name, c) in claims.nodes.iter().flatten() {
        let idx: usize = name[4..].parse().unwrap_or(usize::MAX);
        let Some(v) = view.nodes.get(idx) else {
            errs.push(format!("nodes.{name}: no such node"));
            continue;
        };
        let f = |x: &str| format!("nodes.{name}.{x}");
        same(errs, &f("partial"), v.partial.clone(), &c.partial);
        same(errs, &f("nrPartial"), v.nr_partial, &c.nr_partial);
        same(errs, &f("listLock"), v.list_lock.clone(), &c.list_lock);
        same(errs, &f("waiters"), v.waiters.clone(), &c.waiters);
        if let Some(bc) = &c.barn {
            match &v.barn {
                Some(b) => {
                    same(errs, &f("barn.full"), b.full.len() as u32, &bc.full);
                    same(errs, &f("barn.empty"), b.empty.len() as u32, &bc.empty);
                    same(
                        errs,
                        &f("barn.lockedBy"),
                        b.locked_by.clone(),
                        &bc.locked_by,
                    );
                }
                None => errs.push(format!(
                    "{}: only Linux 7.0 (\"era\": \"v7.0\") has barns",
                    f("barn")
                )),
            }
        }
        match &v.slab {
            None if c.claims_slab() => errs.push(format!(
                "nodes.{name}: this scenario runs SLUB: freeObjects, slabsFull, slabsFree, shared, \
                 ... are SLAB's"
            )),
            None => {}
            Some(sn) => {
                same(errs, &f("freeObjects"), sn.free_objects, &c.free_objects);
                same(errs, &f("freeLimit"), sn.free_limit, &c.free_limit);
                same(errs, &f("totalSlabs"), sn.total_slabs, &c.total_slabs);
                same(errs, &f("freeSlabs"), sn.free_slabs, &c.free_slabs);
                same(errs, &f("slabsFull"), sn.slabs_full.clone(), &c.slabs_full);
                same(errs, &f("slabsFree"), sn.slabs_free.clone(), &c.slabs_free);
                match (&c.shared, &sn.shared) {
                    (None, _) => {}
                    (Some(Some(a)), Some(av)) => check_array(errs, &f("shared"), av, a),
                    (Some(None), None) => {}
                    (Some(None), Some(av)) => errs.push(format!(
                        "{}: the node has a shared array ({:?}), the lesson says none",
                        f("shared"),
                        av.entries
                    )),
                    (Some(Some(_)), None) => errs.push(format!(
                        "{}: the node has no shared array, the lesson claims one",
                        f("shared")
                    )),
                }
            }
        }
    }
}

/// `contexts`: each context: where it is, its state, CPU and operation.
fn check_contexts(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    for (id, c) in claims.contexts.iter().flatten() {
        let Some(v) = view.contexts.iter().find(|x| &x.id == id) else {
            errs.push(format!("contexts.{id}: no such context"));
            continue;
        };
        let f = |x: &str| format!("contexts.{id}.{x}");
        same(errs, &f("at"), v.label.clone(), &c.at);
        same(errs, &f("state"), v.state.to_string(), &c.state);
        same(errs, &f("cpu"), v.cpu, &c.cpu);
        same(errs, &f("op"), v.op.clone(), &c.op);
    }
}

/// `enabled`: whether a move is enabled.
fn check_enabled(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    for (mv, want) in claims.enabled.iter().flatten() {
        let got = view.enabled_moves.iter().any(|m| m == mv);
        if got != *want {
            errs.push(format!(
                "enabled.{mv}: the model says {got} (enabled: {:?}), the lesson says {want}",
                view.enabled_moves
            ));
        }
    }
}

/// `lines`: the MESI letters of a cache line.
fn check_lines(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    for (name, want) in claims.lines.iter().flatten() {
        match view.lines.iter().find(|l| &l.name == name) {
            None => errs.push(format!(
                "lines.{name}: no such cache line (lines: {:?})",
                view.lines.iter().map(|l| &l.name).collect::<Vec<_>>()
            )),
            Some(l) => {
                let got: String = l.states.iter().collect();
                if &got != want {
                    errs.push(format!(
                        "lines.{name}: the model has {got}, the lesson says {want}"
                    ));
                }
            }
        }
    }
}

/// `events`: events of the step, each matched (or counted).
fn check_events(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    let ev_from = at.mark.events;
    let sim = at.sim;
    let events = &sim.events()[ev_from.min(sim.events().len())..];
    for (i, e) in claims.events.iter().flatten().enumerate() {
        let mut line_ids = Vec::new();
        let mut bad_line = false;
        for t in &e.coherence {
            match view.lines.iter().find(|l| l.name == t.line) {
                Some(l) => line_ids.push((l.id, t)),
                None => {
                    errs.push(format!("events[{i}].coherence: no cache line {:?}", t.line));
                    bad_line = true;
                }
            }
        }
        if bad_line {
            continue;
        }
        let matching = events
            .iter()
            .filter(|ev| {
                e.ctx.as_ref().is_none_or(|x| *x == ev.ctx)
                    && e.label.as_ref().is_none_or(|x| *x == ev.label)
                    && e.kind.is_none_or(|x| x == ev.kind)
                    && e.ok.is_none_or(|x| Some(x) == ev.ok)
                    && e.cycles.is_none_or(|x| x == ev.cycles)
                    && e.stat.as_ref().is_none_or(|x| ev.stats.contains(x))
                    && e.says
                        .as_ref()
                        .is_none_or(|x| ev.narration.contains(x.as_str()))
                    && line_ids.iter().all(|(id, t)| {
                        ev.coherence.iter().any(|c| {
                            c.line == *id && c.cpu == t.cpu && c.from == t.from && c.to == t.to
                        })
                    })
            })
            .count();
        if let Some(n) = e.count {
            if n != matching {
                errs.push(format!(
                    "events[{i}]: {matching} event(s) of this step match {}, the lesson says {n}",
                    e.describe()
                ));
            }
            continue;
        }
        let hit = matching > 0;
        if !hit {
            errs.push(format!(
                "events[{i}]: no event of this step matches {}; the step's events:\n{}",
                e.describe(),
                events
                    .iter()
                    .map(|ev| format!(
                        "      {} {} {} ok={:?} {} cycles stats={:?} coherence={:?}",
                        ev.ctx,
                        ev.label,
                        ev.kind,
                        ev.ok,
                        ev.cycles,
                        ev.stats,
                        ev.coherence
                            .iter()
                            .map(|c| format!(
                                "{}:cpu{}:{}>{}",
                                view.lines
                                    .iter()
                                    .find(|l| l.id == c.line)
                                    .map(|l| l.name.as_str())
                                    .unwrap_or("?"),
                                c.cpu,
                                c.from,
                                c.to
                            ))
                            .collect::<Vec<_>>()
                    ))
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
}

/// `tidStep`, `finished`, `deadlock`: the scenario's TID_STEP, and whether the run finished or deadlocked.
fn check_run(claims: &Claims, at: &After, errs: &mut Vec<String>) {
    let view = &at.view;
    same(errs, "tidStep", view.tid_step, &claims.tid_step);
    same(errs, "finished", view.finished, &claims.finished);
    same(errs, "deadlock", view.deadlock, &claims.deadlock);
}

/// Compare a claimed `array_cache` with the model's (`field` names it in messages).
fn check_array(errs: &mut Vec<String>, field: &str, v: &slub_sim::view::ArrayView, c: &ArrayClaim) {
    let f = |x: &str| format!("{field}.{x}");
    same(errs, &f("entries"), v.entries.clone(), &c.entries);
    same(errs, &f("avail"), v.avail, &c.avail);
    same(errs, &f("limit"), v.limit, &c.limit);
    same(errs, &f("batchcount"), v.batchcount, &c.batchcount);
    same(errs, &f("touched"), v.touched, &c.touched);
    same(errs, &f("handed"), v.handed, &c.handed);
}

/// A simulator for the lesson's scenario under extra overrides, with events.
pub(crate) fn new_sim(
    lesson: &Lesson,
    base: &Value,
    variant: &Map<String, Value>,
    cache: &Map<String, Value>,
) -> Result<Simulator, String> {
    let j = scenario_with(base, &[&lesson.front.variant, variant], cache)?;
    Simulator::from_json(&j.to_string(), true).map_err(|e| e.to_string())
}

/// Apply the plain moves of steps `0..=k` as the lesson resolved them (or stop at the first
/// refused move: `Err`).
pub(crate) fn replay_to(
    sim: &mut Simulator,
    lesson: &Lesson,
    resolved: &[Vec<String>],
    k: usize,
) -> Result<(), String> {
    for (i, (s, moves)) in lesson.steps[..=k].iter().zip(resolved).enumerate() {
        for (j, m) in moves.iter().enumerate() {
            sim.apply(m).map_err(|e| {
                format!(
                    "step {} {:?} (line {}): moves: move {} ({m:?}) is refused: {}",
                    i + 1,
                    s.title,
                    s.line,
                    j + 1,
                    crate::moves::refusal(&e)
                )
            })?;
        }
    }
    Ok(())
}

/// What replaying a lesson found. Every message names the file, the step and the field.
#[derive(Debug, Default)]
pub struct Replayed {
    /// The plain moves of each step, destinations resolved, as far as the replay got.
    pub moves: Vec<Vec<String>>,
    /// The scenario cannot be a lesson's (not JSON, has a schedule, the model refuses it).
    pub malformed: Vec<String>,
    /// Claims, predictions, highlights and moves the model does not bear out.
    pub failed: Vec<String>,
    /// Per step, the run its stage shows when it is a what-if (`run`).
    pub runs: Vec<Option<RunTrack>>,
}

/// The run a what-if step shows: every plain move from the start of its changed scenario, and
/// where this step's own part of them begins (the page animates from there).
#[derive(Debug, Clone)]
pub struct RunTrack {
    pub moves: Vec<String>,
    pub from: usize,
}

/// A what-if played: the simulator after it, the mark where the step's part began, what a
/// prediction's answer already showed at that mark (a spoiler), and the moves.
struct Shown {
    sim: Simulator,
    mark: Mark,
    spoiler: Option<String>,
    moves: Vec<String>,
    from: usize,
}

/// Play a step's `run`: the lesson's resolved moves through step `k` under the changes, or its
/// own moves from the start (their destinations resolved in the changed run itself). A
/// prediction is checked for a spoiler where the step's part begins.
fn play_run(
    lesson: &Lesson,
    base: &Value,
    run: &Run,
    predict: Option<&Value>,
    resolved: &[Vec<String>],
    k: usize,
) -> Result<Shown, String> {
    let mut sim = match &run.allocator {
        None => new_sim(lesson, base, &run.variant, &run.cache),
        Some(a) if a == "slab" => {
            // SLAB: the scenario's own allocator key, and no era (a SLAB scenario has none).
            let mut b = base.clone();
            if let Some(root) = b.as_object_mut() {
                root.insert("allocator".into(), Value::String(a.clone()));
            }
            new_sim(lesson, &b, &run.variant, &run.cache)
        }
        Some(a) => Err(format!(
            "run.allocator: {a:?} is not an allocator a step can switch to (only \"slab\")"
        )),
    }
    .map_err(|e| format!("the model refuses it: {e}"))?;
    if run.moves.is_none() && k > 0 {
        replay_to(&mut sim, lesson, resolved, k - 1)
            .map_err(|e| format!("the lesson's moves under this change: {e}"))?;
    }
    let spoiler = predict.and_then(|a| spoiled(a, &sim));
    let mark = Mark::of(&sim);
    let prefix: Vec<String> = match run.moves {
        Some(_) => Vec::new(),
        None => resolved[..k].concat(),
    };
    let part = match &run.moves {
        Some(written) => {
            let parsed = moves::parse_moves(written)?;
            moves::play(&mut sim, &parsed, written)
                .map_err(|e| format!("moves: {e}; enabled were {:?}", sim.enabled_moves()))?
        }
        None => {
            let part = resolved.get(k).cloned().unwrap_or_default();
            for (j, m) in part.iter().enumerate() {
                sim.apply(m).map_err(|e| {
                    format!(
                        "move {} ({m:?}) is refused under this change: {}",
                        j + 1,
                        crate::moves::refusal(&e)
                    )
                })?;
            }
            part
        }
    };
    let from = prefix.len();
    Ok(Shown {
        sim,
        mark,
        spoiler,
        moves: prefix.into_iter().chain(part).collect(),
        from,
    })
}

/// A step's claims and highlights against the run its stage shows.
fn check_step(
    errs: &mut Vec<String>,
    here: &str,
    s: &Step,
    sim: &Simulator,
    mark: &Mark,
    labels: &BTreeSet<String>,
    stats: &BTreeSet<String>,
) {
    for (field, c) in s.claims() {
        for e in check_claims(c, sim, mark) {
            errs.push(format!("{here}: {field}.{e}"));
        }
    }
    for e in highlight::check(&s.highlights, &sim.view(), labels, stats) {
        errs.push(format!("{here}: {e}"));
    }
}

/// A prediction is spoiled when the stage shows (part of) its answer before the learner
/// answers: **any** claim of its answer already holds before the step's moves. Each leaf of the
/// answer (`slabs.P.inuse`, `stats.ALLOC_FASTPATH`, `violations`) is one claim, checked on its
/// own, so an answer cannot hide a quantity the stage already shows behind another that changes
/// (lesson 01 at git 3d9f932 asked for `inuse` while the stage read `inuse 4/4`, beside a
/// freelist that did change). What already holds is context: it belongs in `expect`. Claims about
/// the moves themselves (`delta`, `events`, `stepCycles`) can only be seen once they are played.
/// `None`: not spoiled.
fn spoiled(answer: &Value, before: &Simulator) -> Option<String> {
    let mark = Mark::of(before);
    let mut held = Vec::new();
    for (path, one) in claim_leaves(answer) {
        let Ok(claims) = serde_json::from_value::<Claims>(one) else {
            continue; // a malformed answer is reported by the step's own check
        };
        if check_claims(&claims, before, &mark).is_empty() {
            held.push(path);
        }
    }
    if held.is_empty() {
        return None;
    }
    Some(format!(
        "{} already {} before the step's moves, so the stage shows it before the learner answers \
         (a spoiler): move it to `expect` and ask about something the moves change",
        held.join(", "),
        if held.len() == 1 { "holds" } else { "hold" }
    ))
}

/// The answer's state claims one by one: `(path, a claims object holding only that leaf)`.
/// `choice` and the claims about the moves (`delta`, `events`, `stepCycles`) are left out.
fn claim_leaves(answer: &Value) -> Vec<(String, Value)> {
    fn walk(path: &[String], v: &Value, out: &mut Vec<(Vec<String>, Value)>) {
        match v {
            Value::Object(m) if !m.is_empty() => {
                for (k, x) in m {
                    let mut p = path.to_vec();
                    p.push(k.clone());
                    walk(&p, x, out);
                }
            }
            _ => out.push((path.to_vec(), v.clone())),
        }
    }
    let mut leaves = Vec::new();
    if let Value::Object(m) = answer {
        for (k, v) in m {
            if matches!(k.as_str(), "choice" | "delta" | "events" | "stepCycles") {
                continue;
            }
            walk(std::slice::from_ref(k), v, &mut leaves);
        }
    }
    leaves
        .into_iter()
        .map(|(path, v)| {
            let one = path
                .iter()
                .rev()
                .fold(v, |inner, k| serde_json::json!({ k.as_str(): inner }));
            (path.join("."), one)
        })
        .collect()
}

impl Replayed {
    /// Every message, the malformed first.
    pub fn errors(&self) -> Vec<String> {
        self.malformed.iter().chain(&self.failed).cloned().collect()
    }
}

/// Replay a parsed lesson against its scenario text: the moves of steps 1..k in order, then
/// every claim of step k (`expect`, `predict.answer`, each `whatIf`, `tryIt`, the highlights).
pub fn replay(lesson: &Lesson, scenario_text: &str) -> Replayed {
    let file = &lesson.file;
    let mut out = Replayed::default();
    let base: Value = match serde_json::from_str(scenario_text) {
        Ok(v) => v,
        Err(e) => {
            out.malformed
                .push(format!("{file}: front matter: scenario: not JSON: {e}"));
            return out;
        }
    };
    if let Some(name) = base.get("name").and_then(Value::as_str) {
        // The stage shows the scenario's name: it is student-facing prose too.
        if let Err(e) = crate::parse::no_outside_citation(name) {
            out.malformed
                .push(format!("{file}: front matter: scenario: its `name`: {e}"));
        }
    }
    if base.get("schedule").is_some() {
        out.malformed.push(format!(
            "{file}: front matter: scenario: {} has a `schedule`; a lesson's steps are its schedule",
            lesson.front.scenario
        ));
    }
    let empty = Map::new();
    let mut sim = match new_sim(lesson, &base, &empty, &empty) {
        Ok(s) => s,
        Err(e) => {
            out.malformed.push(format!(
                "{file}: front matter: scenario/variant: the model refuses it: {e}"
            ));
            return out;
        }
    };
    // The listing of the design the lesson runs (Linux 7.0's functions are a table of their own).
    let v7 = sim.scenario().allocator == slub_sim::scenario::Allocator::Sheaves;
    let labels: BTreeSet<String> = if v7 {
        slub_sim::listing_v7()
    } else {
        slub_sim::listing()
    }
    .into_iter()
    .flat_map(|f| f.lines.into_iter().map(|l| l.label))
    .collect();
    let stats = stat_names();
    let trace = std::env::var("LESSON_TRACE").is_ok_and(|t| t == "all" || t == lesson.front.id);
    let errs = &mut out.failed;
    for (k, s) in lesson.steps.iter().enumerate() {
        let here = format!("{file}: step {} {:?} (line {})", k + 1, s.title, s.line);
        let mark = Mark::of(&sim);
        if let (Some(_), None) = (&s.block.predict, &s.block.run) {
            if let Some(e) = s
                .raw
                .pointer("/predict/answer")
                .and_then(|a| spoiled(a, &sim))
            {
                errs.push(format!("{here}: predict.answer: {e}"));
            }
        }
        match moves::play(&mut sim, &s.moves, &s.block.moves) {
            Ok(m) => out.moves.push(m),
            Err(e) => {
                errs.push(format!(
                    "{here}: moves: {e}; enabled were {:?}",
                    sim.enabled_moves()
                ));
                return out;
            }
        }
        if trace {
            print_trace(k, s, &sim, mark.events);
        }
        match &s.block.run {
            None => {
                check_step(errs, &here, s, &sim, &mark, &labels, &stats);
                out.runs.push(None);
            }
            Some(run) => {
                match play_run(
                    lesson,
                    &base,
                    run,
                    s.raw.pointer("/predict/answer"),
                    &out.moves,
                    k,
                ) {
                    Err(e) => {
                        errs.push(format!("{here}: run: {e}"));
                        out.runs.push(None);
                    }
                    Ok(shown) => {
                        if let Some(e) = &shown.spoiler {
                            errs.push(format!("{here}: predict.answer: {e}"));
                        }
                        check_step(errs, &here, s, &shown.sim, &shown.mark, &labels, &stats);
                        out.runs.push(Some(RunTrack {
                            moves: shown.moves,
                            from: shown.from,
                        }));
                    }
                }
            }
        }
        if let Some(t) = &s.block.try_it {
            match new_sim(lesson, &base, &t.variant, &t.cache) {
                Err(e) => errs.push(format!("{here}: tryIt: the model refuses it: {e}")),
                Ok(mut alt) => {
                    if t.from == From::Here {
                        if let Err(e) = replay_to(&mut alt, lesson, &out.moves, k) {
                            errs.push(format!(
                                "{here}: tryIt: the moves so far do not replay under its changes (say `from: start`?): {e}"
                            ));
                            continue;
                        }
                    }
                    if let Some(w) = &t.win {
                        errs.extend(
                            check_win(w, alt)
                                .into_iter()
                                .map(|e| format!("{here}: tryIt.win.{e}")),
                        );
                    }
                }
            }
        }
    }
    for (i, ex) in lesson.front.exercises.iter().enumerate() {
        let Some(c) = &ex.check else { continue };
        let field = format!("{file}: front matter: exercises[{i}].check");
        let mut alt = match new_sim(lesson, &base, &c.variant, &c.cache) {
            Ok(a) => a,
            Err(e) => {
                errs.push(format!("{field}: the model refuses it: {e}"));
                continue;
            }
        };
        if c.from == ExerciseFrom::End {
            let last = lesson.steps.len() - 1;
            if let Err(e) = replay_to(&mut alt, lesson, &out.moves, last) {
                errs.push(format!(
                    "{field}: the lesson's moves do not replay under its changes (say `from: start`?): {e}"
                ));
                continue;
            }
        }
        errs.extend(
            check_win(&c.win, alt)
                .into_iter()
                .map(|e| format!("{field}.win.{e}")),
        );
    }
    out
}

/// Whether the playground would say a try-it's goal is reached (web/src/lessons/win.ts
/// decides the same from the view and the outcome the page gets).
pub fn won(w: &Win, sim: &Simulator) -> bool {
    let violated = w.violation.is_empty()
        || sim
            .view()
            .violations
            .iter()
            .any(|v| w.violation.contains(&v.invariant));
    let spared = !sim
        .view()
        .violations
        .iter()
        .any(|v| w.without.contains(&v.invariant));
    let total = &sim.outcome().stats.total;
    violated
        && spared
        && w.stats
            .iter()
            .all(|(k, n)| total.get(k).copied().unwrap_or(0) >= *n)
}

/// A win must not hold where the playground opens, and its example must reach it.
fn check_win(w: &Win, mut sim: Simulator) -> Vec<String> {
    if won(w, &sim) {
        return vec![
            "it already holds where the playground opens: the learner would win without a move"
                .into(),
        ];
    }
    let moves = match moves::parse_moves(&w.example) {
        Ok(m) => m,
        Err(e) => return vec![format!("example: {e}")],
    };
    if let Err(e) = moves::play(&mut sim, &moves, &w.example) {
        return vec![format!(
            "example: {e}; enabled were {:?}",
            sim.enabled_moves()
        )];
    }
    if won(w, &sim) {
        return vec![];
    }
    let total = &sim.outcome().stats.total;
    vec![format!(
        "example: does not reach it: violations {:?}, {}",
        sim.view()
            .violations
            .iter()
            .map(|v| v.invariant.clone())
            .collect::<Vec<_>>(),
        w.stats
            .keys()
            .map(|k| format!("{k} {}", total.get(k).copied().unwrap_or(0)))
            .collect::<Vec<_>>()
            .join(", ")
    )]
}

fn print_trace(k: usize, s: &Step, sim: &Simulator, ev_from: usize) {
    println!("── step {} {:?}: {:?}", k + 1, s.title, s.block.moves);
    for e in &sim.events()[ev_from..] {
        println!(
            "   {:>4} {:<3} {:<24} {:>4}cy {}{}",
            e.step,
            e.ctx,
            e.label,
            e.cycles,
            e.narration,
            if e.stats.is_empty() {
                String::new()
            } else {
                format!("  [{}]", e.stats.join(", "))
            }
        );
    }
    let v = sim.view();
    let arr = |a: &slub_sim::view::ArrayView| {
        format!(
            "{:?} (avail {}/{}, batch {}, touched {}{})",
            a.entries,
            a.avail,
            a.limit,
            a.batchcount,
            a.touched,
            if a.handed > 0 {
                format!(", handed {}", a.handed)
            } else {
                String::new()
            }
        )
    };
    for c in &v.cpus {
        match &c.array_cache {
            Some(a) => println!(
                "   cpu{}: array {} irqs {} preempt {} cycles {}",
                c.cpu,
                arr(a),
                c.irqs_enabled,
                c.preempt_count,
                c.cycles
            ),
            None => println!(
                "   cpu{}: freelist {:?} tid {} page {:?} partial {:?} irqs {} preempt {} cycles {}",
                c.cpu,
                c.freelist,
                c.tid,
                c.page,
                c.partial,
                c.irqs_enabled,
                c.preempt_count,
                c.cycles
            ),
        }
    }
    for sl in &v.slabs {
        println!(
            "   slab {}: freelist {:?} inuse {} frozen {} owner {} [{}]",
            sl.name,
            sl.freelist,
            sl.inuse,
            sl.frozen,
            sl.owner,
            sl.objects
                .iter()
                .map(|o| format!("{} fp {} {}", o.name, o.fp, o.owner))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for n in &v.nodes {
        println!(
            "   node{}: partial {:?} nr_partial {} list_lock {:?}",
            n.node, n.partial, n.nr_partial, n.list_lock
        );
        if let Some(sn) = &n.slab {
            println!(
                "          full {:?} free {:?} free_objects {} (limit {}) total_slabs {} free_slabs {} shared {}",
                sn.slabs_full,
                sn.slabs_free,
                sn.free_objects,
                sn.free_limit,
                sn.total_slabs,
                sn.free_slabs,
                sn.shared.as_ref().map(arr).unwrap_or("none".into())
            );
        }
    }
    for c in &v.contexts {
        println!(
            "   {} ({}) on cpu{}: {:?} next {:?}",
            c.id, c.state, c.cpu, c.op, c.label
        );
    }
    println!(
        "   vars {}",
        v.vars
            .iter()
            .map(|x| format!(
                "{}={}",
                x.name,
                if x.bound {
                    x.object.clone().unwrap_or("null".into())
                } else {
                    "unbound".into()
                }
            ))
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!("   enabled {:?}", v.enabled_moves);
    let st: Vec<String> = sim
        .outcome()
        .stats
        .total
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    println!("   stats {}", st.join(", "));
    for x in &v.violations {
        println!(
            "   VIOLATION step {} {}: {}",
            x.step, x.invariant, x.message
        );
    }
}
