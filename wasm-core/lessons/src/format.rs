//! The lesson format (docs/writing-lessons.md): the front matter, the YAML block of each step
//! and the claims a step may make about the model, as serde types. Unknown fields are errors.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use ts_rs::TS;

use crate::highlight::Named;
use crate::moves::Move;

/// Fewest and most steps a lesson may have.
pub const MIN_STEPS: usize = 5;
pub const MAX_STEPS: usize = 15;

/// A lesson's front matter (docs/writing-lessons.md §2).
#[derive(Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(rename = "FrontMatter")]
pub struct Front {
    pub id: String,
    pub title: String,
    pub summary: String,
    pub topics: Vec<String>,
    pub seeds: Vec<String>,
    pub patches: Vec<String>,
    pub scenario: String,
    #[serde(default)]
    #[ts(type = "Record<string, string | boolean | number>")]
    pub variant: Map<String, Value>,
    /// Parts of the page held back until the lesson introduces them: `lines: 9` shows the
    /// cache lines (panel and stage tokens) from step 9, `tid: false` never shows the tid.
    #[serde(default)]
    #[ts(type = "{ [part in string]?: number | boolean }")]
    pub reveal: BTreeMap<String, Reveal>,
    /// The kernel whose code the lesson's listing shows (the era badge): `Linux 3.10`.
    pub era: String,
    /// The lesson's one idea, shown at its top (inline Markdown).
    pub crux: String,
    /// What to remember, shown after the last step (inline Markdown each).
    pub takeaways: Vec<String>,
    /// Where to go on (inline Markdown each; `#/lessons/<id>` links must name a lesson).
    #[serde(default)]
    pub read_next: Vec<String>,
    /// How to see the lesson's counters on a real machine (Markdown), where it applies.
    #[serde(default)]
    pub on_your_machine: Option<String>,
    /// The primary sources of every dated or attributed statement (inline Markdown each: a
    /// kernel commit with its id, title and first release; an LKML thread; a seed; LWN).
    pub sources: Vec<String>,
    /// At least two, one checked by the model and one written with an answer key.
    pub exercises: Vec<Exercise>,
}

/// An exercise at the end of a lesson: the model checks it (`check`), or it is written and
/// its `answer` is the key in the instructors' material (never shipped to the page).
#[derive(Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[ts(rename = "ExportedExercise")]
pub struct Exercise {
    /// Inline Markdown.
    pub question: String,
    /// A written exercise's answer key (Markdown).
    pub answer: Option<String>,
    /// A model-checked exercise: where the playground opens and what wins.
    pub check: Option<ExerciseCheck>,
}

/// Where a model-checked exercise opens the playground (`start`: the scenario's start under
/// the changes; `end`: after the lesson's last step, the moves replayed under the changes)
/// and the goal the playground scores, proven reachable by its `example`.
#[derive(Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ExerciseCheck {
    pub from: ExerciseFrom,
    #[serde(default)]
    #[ts(type = "Record<string, string | boolean | number>")]
    pub variant: Map<String, Value>,
    #[serde(default)]
    #[ts(type = "Record<string, string | boolean | number>")]
    pub cache: Map<String, Value>,
    pub win: Win,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ExerciseFrom {
    Start,
    End,
}

/// The parts `reveal` may hold back (docs/writing-lessons.md §2).
/// `lines` is the cache-line panel and the stage's line tokens and band; `primitives` the
/// move header's primitive (`pcas2 cpu_slab[0].(freelist,tid)`); `cycles` every cycle count;
/// `eras` the listing's era tags (`// E2, 3.10–3.19`).
pub const REVEALABLE: [&str; 8] = [
    "lines",
    "tid",
    "stats",
    "vars",
    "violations",
    "primitives",
    "cycles",
    "eras",
];

/// From which step (1-based) a part is shown, or `false`: never in this lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Reveal {
    FromStep(usize),
    Shown(bool),
}

impl Reveal {
    /// Whether the part is shown at step `n` (1-based).
    pub fn shown_at(self, n: usize) -> bool {
        match self {
            Reveal::FromStep(k) => n >= k,
            Reveal::Shown(b) => b,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StepBlock {
    pub moves: Vec<String>,
    #[serde(default)]
    pub highlights: Vec<String>,
    pub predict: Option<Predict>,
    pub expect: Option<Claims>,
    /// A what-if on the stage: this step shows the lesson under other variant keys, cache
    /// fields or moves, and its `expect` and `predict` are claims about that run.
    pub run: Option<Run>,
    /// No longer allowed (a claim about a run the stage does not show): kept to say so.
    pub what_if: Option<Value>,
    pub try_it: Option<TryIt>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Predict {
    pub question: String,
    pub choices: Vec<String>,
    /// `choice` (the index of the right choice) plus the claims that make it right.
    pub answer: Claims,
    pub explain: Option<String>,
}

/// What this step's stage shows instead of the lesson's own run: the scenario under these
/// variant keys or cache fields, played through the lesson's moves up to and including this
/// step's (as the lesson resolved them), or, with `moves`, those moves from the start (use it
/// when the change alters the number of steps). The lesson's own run goes on at the next step.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    #[serde(default)]
    pub variant: Map<String, Value>,
    #[serde(default)]
    pub cache: Map<String, Value>,
    pub moves: Option<Vec<String>>,
    /// Another allocator on the stage for this step: `slab` runs the lesson's workload under
    /// SLAB (its `cache` then takes SLAB's tunables), so a comparison of designs is shown, not
    /// told. It sets the scenario's top-level `allocator`; `variant` and `cache` merge as usual.
    pub allocator: Option<String>,
}

/// The playground the "try it yourself" step opens: the scenario under these changes, at this
/// step's state (`from: here`, the default: the moves so far must replay under the changes) or
/// at its start (`from: start`).
#[derive(Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "LessonTryIt")]
pub struct TryIt {
    /// Markdown as written.
    pub goal: String,
    #[serde(default)]
    pub from: From,
    #[serde(default)]
    #[ts(type = "Record<string, string | boolean | number>")]
    pub variant: Map<String, Value>,
    #[serde(default)]
    #[ts(type = "Record<string, string | boolean | number>")]
    pub cache: Map<String, Value>,
    /// When the learner has reached the goal: the playground checks it after every move.
    pub win: Option<Win>,
}

/// A try-it's goal as the model can check it: every condition given holds (any one of the
/// `violation` list, each counter of `stats` at least its number). `lesson check` proves it
/// reachable by playing `example` from where the playground opens, and that it does not hold
/// before the learner moves.
#[derive(Debug, Deserialize, Serialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(rename = "LessonWin")]
pub struct Win {
    /// Reached when any one of these invariants is violated (`INV-1`).
    #[serde(default)]
    pub violation: Vec<String>,
    /// ... and none of these is (`[INV-1]`: a goal reached without a double allocation).
    #[serde(default)]
    pub without: Vec<String>,
    /// Reached when each counter's total (setup included) is at least its number.
    #[serde(default)]
    pub stats: BTreeMap<String, u64>,
    /// What the playground says once it is reached (inline Markdown).
    pub says: String,
    /// Moves (§3.1 syntax) that reach it from where the playground opens.
    pub example: Vec<String>,
}

/// `here`: open the playground at this step's state; `start`: at the scenario's start.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "TryItFrom")]
pub enum From {
    #[default]
    Here,
    Start,
}

/// What a lesson may claim about the model after a step (docs/writing-lessons.md).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Claims {
    /// Only in `predict.answer`: the index (from 0) of the right choice.
    pub choice: Option<usize>,
    /// Counter totals since the very start, setup included (the stats panel).
    pub stats: Option<BTreeMap<String, u64>>,
    /// Counter changes during this step's moves.
    pub delta: Option<BTreeMap<String, i64>>,
    /// Cycles charged to each CPU (`cpu0: 36`) during this step's moves.
    pub step_cycles: Option<BTreeMap<String, u64>>,
    /// Exactly the invariants violated so far (`[]`: none).
    pub violations: Option<Vec<String>>,
    /// Variable -> object it is bound to; `null`: the allocation failed; `unbound`: not yet.
    #[serde(default, deserialize_with = "map_of_nullables")]
    pub vars: Option<BTreeMap<String, Option<String>>>,
    pub cpus: Option<BTreeMap<String, CpuClaim>>,
    pub slabs: Option<BTreeMap<String, SlabClaim>>,
    pub objects: Option<BTreeMap<String, ObjectClaim>>,
    pub nodes: Option<BTreeMap<String, NodeClaim>>,
    pub contexts: Option<BTreeMap<String, ContextClaim>>,
    /// Move -> whether it is enabled now.
    pub enabled: Option<BTreeMap<String, bool>>,
    /// Cache line name -> one MESI letter per CPU (`MI`).
    pub lines: Option<BTreeMap<String, String>>,
    /// Each must match at least one event of this step.
    pub events: Option<Vec<EventClaim>>,
    /// The scenario's TID_STEP.
    pub tid_step: Option<u64>,
    pub finished: Option<bool>,
    pub deadlock: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CpuClaim {
    pub freelist: Option<Vec<String>>,
    pub tid: Option<u64>,
    #[serde(default, deserialize_with = "nullable")]
    pub page: Option<Option<String>>,
    pub partial: Option<Vec<String>>,
    pub irqs: Option<bool>,
    pub preempt: Option<u32>,
    #[serde(default, deserialize_with = "nullable")]
    pub running: Option<Option<String>>,
    pub cycles: Option<u64>,
    /// SLAB: the CPU's `array_cache`.
    pub array: Option<ArrayClaim>,
    /// Linux 7.0: the CPU's sheaves.
    pub sheaves: Option<SheavesClaim>,
}

/// Linux 7.0's `slub_percpu_sheaves`: the objects of `main` and `spare`, bottom first (`spare:
/// null` says there is none), and who holds the lock (`null`: nobody).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SheavesClaim {
    pub main: Option<Vec<String>>,
    #[serde(default, deserialize_with = "nullable")]
    pub spare: Option<Option<Vec<String>>>,
    #[serde(default, deserialize_with = "nullable")]
    pub locked_by: Option<Option<String>>,
}

/// Linux 7.0's barn: how many full and empty sheaves it holds, and who holds its lock.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BarnClaim {
    pub full: Option<u32>,
    pub empty: Option<u32>,
    #[serde(default, deserialize_with = "nullable")]
    pub locked_by: Option<Option<String>>,
}

/// SLAB's `array_cache` (a CPU's, or a node's shared one).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ArrayClaim {
    /// The stack, bottom first (the next pop takes the last); during a flush the first
    /// `handed` of them are stale copies already given away.
    pub entries: Option<Vec<String>>,
    pub avail: Option<u32>,
    pub limit: Option<u32>,
    pub batchcount: Option<u32>,
    pub touched: Option<bool>,
    pub handed: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SlabClaim {
    pub freelist: Option<Vec<String>>,
    pub inuse: Option<u32>,
    pub frozen: Option<bool>,
    pub owner: Option<String>,
    pub locked: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ObjectClaim {
    pub fp: Option<String>,
    pub owner: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NodeClaim {
    pub partial: Option<Vec<String>>,
    pub nr_partial: Option<u32>,
    #[serde(default, deserialize_with = "nullable")]
    pub list_lock: Option<Option<String>>,
    pub waiters: Option<Vec<String>>,
    /// SLAB: `free_objects`, `free_limit`, `total_slabs`, `free_slabs`, the other two lists
    /// (`partial` is `slabs_partial`) and the shared array (`null`: the cache has none).
    pub free_objects: Option<u32>,
    pub free_limit: Option<u32>,
    pub total_slabs: Option<u32>,
    pub free_slabs: Option<u32>,
    pub slabs_full: Option<Vec<String>>,
    pub slabs_free: Option<Vec<String>>,
    #[serde(default, deserialize_with = "nullable")]
    pub shared: Option<Option<ArrayClaim>>,
    /// Linux 7.0: the node's barn.
    pub barn: Option<BarnClaim>,
}

impl NodeClaim {
    pub fn claims_slab(&self) -> bool {
        self.free_objects.is_some()
            || self.free_limit.is_some()
            || self.total_slabs.is_some()
            || self.free_slabs.is_some()
            || self.slabs_full.is_some()
            || self.slabs_free.is_some()
            || self.shared.is_some()
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContextClaim {
    #[serde(default, deserialize_with = "nullable")]
    pub at: Option<Option<String>>,
    pub state: Option<String>,
    pub cpu: Option<u32>,
    #[serde(default, deserialize_with = "nullable")]
    pub op: Option<Option<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EventClaim {
    pub ctx: Option<String>,
    pub label: Option<String>,
    pub kind: Option<slub_sim::event::EventKind>,
    pub ok: Option<bool>,
    pub cycles: Option<u64>,
    pub stat: Option<String>,
    #[serde(default)]
    pub coherence: Vec<TransitionClaim>,
    /// A piece of the event's narration.
    pub says: Option<String>,
    /// Exactly this many events of the step match (`0`: none does); without it, at least one.
    pub count: Option<usize>,
}

impl EventClaim {
    /// The matcher as a lesson writes it: `{ctx: T, label: slab_alloc:A9, ok: false}`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let mut put = |k: &str, v: Option<String>| {
            if let Some(v) = v {
                parts.push(format!("{k}: {v}"));
            }
        };
        put("ctx", self.ctx.clone());
        put("label", self.label.clone());
        put("kind", self.kind.map(|k| k.to_string()));
        put("ok", self.ok.map(|x| x.to_string()));
        put("cycles", self.cycles.map(|x| x.to_string()));
        put("stat", self.stat.clone());
        put("says", self.says.as_ref().map(|x| format!("{x:?}")));
        if !self.coherence.is_empty() {
            put(
                "coherence",
                Some(format!(
                    "[{}]",
                    self.coherence
                        .iter()
                        .map(|t| format!("{} cpu{} {}>{}", t.line, t.cpu, t.from, t.to))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            );
        }
        put("count", self.count.map(|x| x.to_string()));
        format!("{{{}}}", parts.join(", "))
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransitionClaim {
    pub line: String,
    pub cpu: u32,
    pub from: char,
    pub to: char,
}

/// `field: null` is a claim (Some(None)); a missing field is no claim (None).
pub(crate) fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

pub(crate) fn map_of_nullables<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<BTreeMap<String, Option<String>>>, D::Error> {
    BTreeMap::<String, Option<String>>::deserialize(d).map(Some)
}

/// A parsed lesson.
#[derive(Debug)]
pub struct Lesson {
    /// `lessons/NN-slug/lesson.md`, for messages.
    pub file: String,
    /// `NN-slug`.
    pub dir_name: String,
    pub front: Front,
    /// The Markdown between the front matter and the first step.
    pub intro: String,
    pub steps: Vec<Step>,
}

#[derive(Debug)]
pub struct Step {
    pub title: String,
    pub line: usize,
    pub block: StepBlock,
    /// The step block as JSON (for the export's claims, as written).
    pub raw: Value,
    /// The moves, parsed (`block.moves` has them as written).
    pub moves: Vec<Move>,
    pub highlights: Vec<Named>,
    /// The Markdown after the step block.
    pub narration: String,
}

impl Step {
    pub fn claims(&self) -> Vec<(String, &Claims)> {
        let mut v = Vec::new();
        if let Some(c) = &self.block.expect {
            v.push(("expect".to_string(), c));
        }
        if let Some(p) = &self.block.predict {
            v.push(("predict.answer".to_string(), &p.answer));
        }
        v
    }
}
