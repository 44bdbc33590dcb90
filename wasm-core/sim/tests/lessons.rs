//! The lessons of `lessons/NN-slug/lesson.md`, checked against the model.
//!
//! Every lesson is parsed (YAML front matter, `## Step: <title>` headings each followed by a
//! fenced `step` YAML block, Markdown narration), validated against the closed vocabularies of
//! `lessons/vocabulary.json`, and replayed: the moves of steps 1..k are applied in order to the
//! lesson's scenario (with the lesson's variant overrides), every move must be enabled, and
//! after step k every `expect`, every `predict.answer`, every `whatIf` and the `tryIt` of step
//! k must hold. A lesson can claim nothing the model does not do. Every message names the file,
//! the step and the field. The format and the claim vocabulary are documented in
//! `docs/writing-lessons.md`; `web/src/lessons/schema.ts` is the same schema for the page.
//!
//! Run with `cargo test --release -p slub-sim --test lessons`. `LESSON_TRACE=<id>` prints,
//! for the lesson with that id, every step's moves with the model's narration and the state
//! after the step (`LESSON_TRACE=all` for every lesson; add `--nocapture`).

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, MetadataBlockKind, Options, Parser};
use pulldown_cmark::{Tag, TagEnd};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use slub_sim::view::View;
use slub_sim::Simulator;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------------------------------------
// The format
// ---------------------------------------------------------------------------------------------

/// Fewest and most steps a lesson may have.
const MIN_STEPS: usize = 5;
const MAX_STEPS: usize = 15;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Front {
    id: String,
    title: String,
    summary: String,
    topics: Vec<String>,
    seeds: Vec<String>,
    patches: Vec<String>,
    scenario: String,
    #[serde(default)]
    variant: Map<String, Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct StepBlock {
    moves: Vec<String>,
    #[serde(default)]
    highlights: Vec<String>,
    predict: Option<Predict>,
    expect: Option<Claims>,
    #[serde(default)]
    what_if: Vec<WhatIf>,
    try_it: Option<TryIt>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Predict {
    question: String,
    choices: Vec<String>,
    /// `choice` (the index of the right choice) plus the claims that make it right.
    answer: Claims,
    explain: Option<String>,
}

/// What would have happened under other variant keys (or cache fields): the lesson's moves up
/// to this step, or `moves` (the whole run from the start, when the variant changes the steps),
/// then `expect` (`delta` and `events` count this step's moves, or all of `moves`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WhatIf {
    #[serde(default)]
    variant: Map<String, Value>,
    #[serde(default)]
    cache: Map<String, Value>,
    moves: Option<Vec<String>>,
    expect: Claims,
}

/// The playground the "try it yourself" step opens: the scenario under these changes, at this
/// step's state (`from: here`, the default: the moves so far must replay under the changes) or
/// at its start (`from: start`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TryIt {
    goal: String,
    #[serde(default)]
    from: From,
    #[serde(default)]
    variant: Map<String, Value>,
    #[serde(default)]
    cache: Map<String, Value>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
enum From {
    #[default]
    Here,
    Start,
}

/// What a lesson may claim about the model after a step (docs/writing-lessons.md).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Claims {
    /// Only in `predict.answer`: the index (from 0) of the right choice.
    choice: Option<usize>,
    /// Counter totals since the very start, setup included (the stats panel).
    stats: Option<BTreeMap<String, u64>>,
    /// Counter changes during this step's moves.
    delta: Option<BTreeMap<String, i64>>,
    /// Cycles charged to each CPU (`cpu0: 36`) during this step's moves.
    step_cycles: Option<BTreeMap<String, u64>>,
    /// Exactly the invariants violated so far (`[]`: none).
    violations: Option<Vec<String>>,
    /// Variable -> object it is bound to; `null`: the allocation failed; `unbound`: not yet.
    #[serde(default, deserialize_with = "map_of_nullables")]
    vars: Option<BTreeMap<String, Option<String>>>,
    cpus: Option<BTreeMap<String, CpuClaim>>,
    slabs: Option<BTreeMap<String, SlabClaim>>,
    objects: Option<BTreeMap<String, ObjectClaim>>,
    nodes: Option<BTreeMap<String, NodeClaim>>,
    contexts: Option<BTreeMap<String, ContextClaim>>,
    /// Move -> whether it is enabled now.
    enabled: Option<BTreeMap<String, bool>>,
    /// Cache line name -> one MESI letter per CPU (`MI`).
    lines: Option<BTreeMap<String, String>>,
    /// Each must match at least one event of this step.
    events: Option<Vec<EventClaim>>,
    /// The scenario's TID_STEP.
    tid_step: Option<u64>,
    finished: Option<bool>,
    deadlock: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CpuClaim {
    freelist: Option<Vec<String>>,
    tid: Option<u64>,
    #[serde(default, deserialize_with = "nullable")]
    page: Option<Option<String>>,
    partial: Option<Vec<String>>,
    irqs: Option<bool>,
    preempt: Option<u32>,
    #[serde(default, deserialize_with = "nullable")]
    running: Option<Option<String>>,
    cycles: Option<u64>,
    /// SLAB: the CPU's `array_cache`.
    array: Option<ArrayClaim>,
}

/// SLAB's `array_cache` (a CPU's, or a node's shared one).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ArrayClaim {
    /// The stack, bottom first (the next pop takes the last); during a flush the first
    /// `handed` of them are stale copies already given away.
    entries: Option<Vec<String>>,
    avail: Option<u32>,
    limit: Option<u32>,
    batchcount: Option<u32>,
    touched: Option<bool>,
    handed: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SlabClaim {
    freelist: Option<Vec<String>>,
    inuse: Option<u32>,
    frozen: Option<bool>,
    owner: Option<String>,
    locked: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ObjectClaim {
    fp: Option<String>,
    owner: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NodeClaim {
    partial: Option<Vec<String>>,
    nr_partial: Option<u32>,
    #[serde(default, deserialize_with = "nullable")]
    list_lock: Option<Option<String>>,
    waiters: Option<Vec<String>>,
    /// SLAB: `free_objects`, `free_limit`, `total_slabs`, `free_slabs`, the other two lists
    /// (`partial` is `slabs_partial`) and the shared array (`null`: the cache has none).
    free_objects: Option<u32>,
    free_limit: Option<u32>,
    total_slabs: Option<u32>,
    free_slabs: Option<u32>,
    slabs_full: Option<Vec<String>>,
    slabs_free: Option<Vec<String>>,
    #[serde(default, deserialize_with = "nullable")]
    shared: Option<Option<ArrayClaim>>,
}

impl NodeClaim {
    fn claims_slab(&self) -> bool {
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
struct ContextClaim {
    #[serde(default, deserialize_with = "nullable")]
    at: Option<Option<String>>,
    state: Option<String>,
    cpu: Option<u32>,
    #[serde(default, deserialize_with = "nullable")]
    op: Option<Option<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct EventClaim {
    ctx: Option<String>,
    label: Option<String>,
    kind: Option<String>,
    ok: Option<bool>,
    cycles: Option<u64>,
    stat: Option<String>,
    #[serde(default)]
    coherence: Vec<TransitionClaim>,
    /// A piece of the event's narration.
    says: Option<String>,
    /// Exactly this many events of the step match (`0`: none does); without it, at least one.
    count: Option<usize>,
}

impl EventClaim {
    /// The matcher as a lesson writes it: `{ctx: T, label: slab_alloc:A9, ok: false}`.
    fn describe(&self) -> String {
        let mut parts = Vec::new();
        let mut put = |k: &str, v: Option<String>| {
            if let Some(v) = v {
                parts.push(format!("{k}: {v}"));
            }
        };
        put("ctx", self.ctx.clone());
        put("label", self.label.clone());
        put("kind", self.kind.clone());
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
struct TransitionClaim {
    line: String,
    cpu: u32,
    from: char,
    to: char,
}

/// `field: null` is a claim (Some(None)); a missing field is no claim (None).
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

fn map_of_nullables<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<BTreeMap<String, Option<String>>>, D::Error> {
    BTreeMap::<String, Option<String>>::deserialize(d).map(Some)
}

/// A parsed lesson.
#[derive(Debug)]
struct Lesson {
    /// `lessons/NN-slug/lesson.md`, for messages.
    file: String,
    /// `NN-slug`.
    dir_name: String,
    front: Front,
    steps: Vec<Step>,
}

#[derive(Debug)]
struct Step {
    title: String,
    line: usize,
    block: StepBlock,
    /// The moves with `X*n` expanded.
    moves: Vec<String>,
}

impl Step {
    fn claims(&self) -> Vec<(String, &Claims)> {
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

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
struct Vocabulary {
    seeds: BTreeMap<String, String>,
    patches: BTreeMap<String, String>,
    topics: BTreeMap<String, String>,
    /// The model's counter names, for the page's schema (checked against the model below).
    stats: Vec<String>,
}

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("..")
}

fn lessons_dir() -> PathBuf {
    repo_root().join("lessons")
}

fn vocabulary() -> Vocabulary {
    let path = lessons_dir().join("vocabulary.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("lessons/vocabulary.json: {e}"))
}

fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// One move of DESIGN §3 (`T`, `migrate:T:1`), without the lesson's `*n` repetition.
fn is_move(s: &str) -> bool {
    match s.strip_prefix("migrate:") {
        Some(rest) => match rest.rsplit_once(':') {
            Some((task, cpu)) => {
                is_ident(task) && !cpu.is_empty() && cpu.chars().all(|c| c.is_ascii_digit())
            }
            None => false,
        },
        None => is_ident(s),
    }
}

/// `T*7` -> seven `T`; `migrate:T:1` as it is.
fn expand_moves(moves: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let (mv, n) = match m.rsplit_once('*') {
            Some((mv, n)) => match n.parse::<usize>() {
                Ok(n) if (1..=500).contains(&n) => (mv, n),
                _ => {
                    return Err(format!(
                        "moves[{i}]: {m:?}: the repetition after `*` must be a number from 1 to 500"
                    ))
                }
            },
            None => (m.as_str(), 1),
        };
        if !is_move(mv) {
            return Err(format!(
                "moves[{i}]: {m:?} is not a move (`<ctx>`, `migrate:<task>:<cpu>`, optionally `*<n>`)"
            ));
        }
        out.extend(std::iter::repeat_n(mv.to_string(), n));
    }
    Ok(out)
}

/// The highlight names of docs/writing-lessons.md (syntax only; the replay checks that what
/// they name exists).
fn highlight_ok(h: &str) -> bool {
    let field_of = |rest: &str, fields: &[&str], name_ok: &dyn Fn(&str) -> bool| -> bool {
        match rest.split_once('.') {
            Some((name, f)) => name_ok(name) && fields.contains(&f),
            None => name_ok(rest),
        }
    };
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    if matches!(h, "lines" | "stats" | "timeline" | "violations" | "code") {
        return true;
    }
    if let Some(rest) = h.strip_prefix("cpu") {
        return field_of(
            rest,
            &[
                "freelist", "tid", "page", "partial", "irqs", "preempt", "array",
            ],
            &digits,
        );
    }
    let (kind, rest) = match h.split_once(' ') {
        Some(x) => x,
        None => return false,
    };
    match kind {
        "slab" => field_of(
            rest,
            &["freelist", "counters", "inuse", "frozen"],
            &|n: &str| n.starts_with(|c: char| c.is_ascii_uppercase()) && is_ident(n),
        ),
        "object" => field_of(rest, &["fp"], &|n: &str| {
            n.starts_with(|c: char| c.is_ascii_lowercase()) && is_ident(n)
        }),
        "node" => field_of(
            rest,
            &[
                "partial",
                "list_lock",
                "shared",
                "free_objects",
                "slabs_full",
                "slabs_free",
            ],
            &digits,
        ),
        "line" => !rest.trim().is_empty(),
        "code" => matches!(rest.split_once(':'), Some((f, l)) if is_ident(f) && is_ident(l)),
        "ctx" | "var" => is_ident(rest),
        "stat" => !rest.is_empty() && rest.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/// Deserialize YAML, naming the field that is wrong (`predict.answer.choice: invalid type`).
fn from_yaml<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let de = serde_norway::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let inner = inner.to_string();
        // serde_norway names the path itself in some messages.
        if path == "." || inner.starts_with(&path) {
            inner
        } else {
            format!("{path}: {inner}")
        }
    })
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Parse a lesson file; `file` is its path for messages, `dir_name` its folder (`03-slug`).
fn parse_lesson(file: &str, dir_name: &str, text: &str) -> Result<Lesson, String> {
    let at = |what: String| format!("{file}: {what}");
    let opts = Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH;
    let mut front_text: Option<String> = None;
    // (title, heading line, block text, block start line, narration start offset)
    struct Raw {
        title: String,
        line: usize,
        block: Option<(String, usize)>,
        narration_from: usize,
        narration_to: usize,
    }
    let mut raws: Vec<Raw> = Vec::new();
    let mut in_meta = false;
    let mut in_heading: Option<(usize, String)> = None;
    let mut in_step_block: Option<(usize, String)> = None;
    let mut first_block = true;
    let mut want_block = false;
    for (ev, range) in Parser::new_ext(text, opts).into_offset_iter() {
        match &ev {
            Event::Start(Tag::MetadataBlock(kind)) => {
                if *kind != MetadataBlockKind::YamlStyle || !first_block {
                    return Err(at(
                        "front matter: the file must start with a `---` YAML block".into(),
                    ));
                }
                in_meta = true;
                front_text = Some(String::new());
                continue;
            }
            Event::End(TagEnd::MetadataBlock(_)) => {
                in_meta = false;
                continue;
            }
            Event::Text(t) if in_meta => {
                front_text.as_mut().unwrap().push_str(t);
                continue;
            }
            _ => {}
        }
        let block_start = matches!(
            ev,
            Event::Start(
                Tag::Paragraph
                    | Tag::Heading { .. }
                    | Tag::BlockQuote(_)
                    | Tag::CodeBlock(_)
                    | Tag::HtmlBlock
                    | Tag::List(_)
                    | Tag::Table(_)
            ) | Event::Rule
        );
        if block_start && first_block {
            first_block = false;
            if front_text.is_none() {
                return Err(at(
                    "front matter: the file must start with a `---` YAML block".into(),
                ));
            }
        }
        match ev {
            Event::Start(Tag::Heading { level, .. }) => {
                if want_block {
                    let r = raws.last().unwrap();
                    return Err(at(format!(
                        "step {} {:?} (line {}): the heading must be followed by a ```step block",
                        raws.len(),
                        r.title,
                        r.line
                    )));
                }
                if level == HeadingLevel::H1 {
                    return Err(at(format!(
                        "line {}: no `#` heading in the body (the title is in the front matter)",
                        line_of(text, range.start)
                    )));
                }
                if level == HeadingLevel::H2 {
                    if let Some(r) = raws.last_mut() {
                        r.narration_to = range.start;
                    }
                    in_heading = Some((range.start, String::new()));
                }
            }
            Event::Text(t) | Event::Code(t) if in_heading.is_some() => {
                in_heading.as_mut().unwrap().1.push_str(&t);
            }
            Event::End(TagEnd::Heading(HeadingLevel::H2)) => {
                let (start, title) = in_heading.take().unwrap();
                let line = line_of(text, start);
                let Some(t) = title.strip_prefix("Step:") else {
                    return Err(at(format!(
                        "line {line}: a `##` heading must be `## Step: <title>`, found {title:?}"
                    )));
                };
                let t = t.trim().to_string();
                if t.is_empty() {
                    return Err(at(format!("line {line}: a step needs a title")));
                }
                raws.push(Raw {
                    title: t,
                    line,
                    block: None,
                    narration_from: range.end,
                    narration_to: text.len(),
                });
                want_block = true;
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if info.split_whitespace().next() == Some("step") =>
            {
                let n = raws.len();
                match raws.last() {
                    None => {
                        return Err(at(format!(
                            "line {}: a ```step block before the first `## Step:` heading",
                            line_of(text, range.start)
                        )))
                    }
                    Some(r) if !want_block => {
                        return Err(at(format!(
                            "step {n} {:?} (line {}): a second ```step block at line {}",
                            r.title,
                            r.line,
                            line_of(text, range.start)
                        )))
                    }
                    _ => {}
                }
                in_step_block = Some((line_of(text, range.start), String::new()));
                want_block = false;
            }
            Event::Text(t) if in_step_block.is_some() => {
                in_step_block.as_mut().unwrap().1.push_str(&t);
            }
            Event::End(TagEnd::CodeBlock) if in_step_block.is_some() => {
                let (line, body) = in_step_block.take().unwrap();
                let r = raws.last_mut().unwrap();
                r.block = Some((body, line));
                r.narration_from = range.end;
            }
            _ if block_start && want_block => {
                let r = raws.last().unwrap();
                return Err(at(format!(
                    "step {} {:?} (line {}): the heading must be followed by a ```step block",
                    raws.len(),
                    r.title,
                    r.line
                )));
            }
            _ => {}
        }
    }
    if want_block {
        let r = raws.last().unwrap();
        return Err(at(format!(
            "step {} {:?} (line {}): the heading must be followed by a ```step block",
            raws.len(),
            r.title,
            r.line
        )));
    }
    let Some(front_text) = front_text else {
        return Err(at(
            "front matter: the file must start with a `---` YAML block".into(),
        ));
    };
    let front: Front = from_yaml(&front_text).map_err(|e| at(format!("front matter: {e}")))?;

    let mut steps = Vec::new();
    for (i, r) in raws.into_iter().enumerate() {
        let here = format!("step {} {:?} (line {})", i + 1, r.title, r.line);
        let (body, _) = r.block.expect("checked above");
        let block: StepBlock = from_yaml(&body).map_err(|e| at(format!("{here}: {e}")))?;
        let moves = expand_moves(&block.moves).map_err(|e| at(format!("{here}: {e}")))?;
        let narration = text[r.narration_from..r.narration_to.max(r.narration_from)].trim();
        if narration.is_empty() {
            return Err(at(format!(
                "{here}: narration: every step needs narration after its ```step block"
            )));
        }
        steps.push(Step {
            title: r.title,
            line: r.line,
            block,
            moves,
        });
    }
    let lesson = Lesson {
        file: file.to_string(),
        dir_name: dir_name.to_string(),
        front,
        steps,
    };
    validate(&lesson, &vocabulary()).map_err(at)?;
    Ok(lesson)
}

/// Checks that need no model: vocabularies, counts, names.
fn validate(l: &Lesson, voc: &Vocabulary) -> Result<(), String> {
    let f = &l.front;
    let fm = |field: &str, what: String| Err(format!("front matter: {field}: {what}"));
    if !is_kebab(&f.id) {
        return fm("id", format!("{:?} must be kebab-case", f.id));
    }
    match l.dir_name.split_once('-') {
        Some((nn, slug))
            if nn.len() == 2 && nn.chars().all(|c| c.is_ascii_digit()) && slug == f.id => {}
        _ => {
            return fm(
                "id",
                format!(
                    "{:?} must be the folder name {:?} without its `NN-` prefix",
                    f.id, l.dir_name
                ),
            )
        }
    }
    for (field, v) in [("title", &f.title), ("summary", &f.summary)] {
        if v.trim().is_empty() {
            return fm(field, "must not be empty".into());
        }
    }
    for (field, list, known) in [
        ("topics", &f.topics, &voc.topics),
        ("seeds", &f.seeds, &voc.seeds),
        ("patches", &f.patches, &voc.patches),
    ] {
        if field == "topics" && list.is_empty() {
            return fm(field, "list at least one topic".into());
        }
        for (i, v) in list.iter().enumerate() {
            if !known.contains_key(v) {
                return fm(
                    &format!("{field}[{i}]"),
                    format!(
                        "{v:?} is not in lessons/vocabulary.json (one of {:?})",
                        known.keys().collect::<Vec<_>>()
                    ),
                );
            }
        }
    }
    if f.scenario.contains('/') || !f.scenario.ends_with(".json") {
        return fm(
            "scenario",
            format!("{:?} must be a .json file beside lesson.md", f.scenario),
        );
    }
    if !(MIN_STEPS..=MAX_STEPS).contains(&l.steps.len()) {
        return Err(format!(
            "steps: a lesson has {MIN_STEPS} to {MAX_STEPS} steps, this one has {}",
            l.steps.len()
        ));
    }
    if !l.steps.iter().any(|s| s.block.predict.is_some()) {
        return Err("steps: at least one step needs a `predict` question".into());
    }
    let last = l.steps.last().unwrap();
    if last.block.try_it.is_none() {
        return Err(format!(
            "step {} {:?} (line {}): tryIt: the last step must say what to try in the playground",
            l.steps.len(),
            last.title,
            last.line
        ));
    }
    for (i, s) in l.steps.iter().enumerate() {
        let here = format!("step {} {:?} (line {})", i + 1, s.title, s.line);
        for (j, h) in s.block.highlights.iter().enumerate() {
            if !highlight_ok(h) {
                return Err(format!("{here}: highlights[{j}]: {h:?} is not a highlight name (docs/writing-lessons.md)"));
            }
        }
        if let Some(p) = &s.block.predict {
            if p.question.trim().is_empty() {
                return Err(format!("{here}: predict.question: must not be empty"));
            }
            if p.choices.len() < 2 {
                return Err(format!(
                    "{here}: predict.choices: give at least two choices"
                ));
            }
            match p.answer.choice {
                None => {
                    return Err(format!(
                        "{here}: predict.answer.choice: missing (the index of the right choice, from 0)"
                    ))
                }
                Some(c) if c >= p.choices.len() => {
                    return Err(format!(
                        "{here}: predict.answer.choice: {c} is out of range ({} choices, counted from 0)",
                        p.choices.len()
                    ))
                }
                _ => {}
            }
            if p.answer.is_empty() {
                return Err(format!(
                    "{here}: predict.answer: needs at least one claim the model checks (stats, vars, ...)"
                ));
            }
            if let Some(e) = &p.explain {
                if e.trim().is_empty() {
                    return Err(format!("{here}: predict.explain: must not be empty"));
                }
            }
        }
        if let Some(e) = &s.block.expect {
            if e.is_empty() {
                return Err(format!(
                    "{here}: expect: claim something (stats, vars, cpus, ...)"
                ));
            }
            if e.choice.is_some() {
                return Err(format!(
                    "{here}: expect.choice: `choice` belongs in predict.answer"
                ));
            }
        }
        for (k, w) in s.block.what_if.iter().enumerate() {
            if w.expect.choice.is_some() {
                return Err(format!(
                    "{here}: whatIf[{k}].expect.choice: `choice` belongs in predict.answer"
                ));
            }
            if w.variant.is_empty() && w.cache.is_empty() && w.moves.is_none() {
                return Err(format!(
                    "{here}: whatIf[{k}]: change a variant or cache key, or give other moves"
                ));
            }
            if w.expect.is_empty() {
                return Err(format!("{here}: whatIf[{k}].expect: claim something"));
            }
        }
        if let Some(t) = &s.block.try_it {
            if t.goal.trim().is_empty() {
                return Err(format!("{here}: tryIt.goal: must not be empty"));
            }
        }
        for (field, c) in s.claims().into_iter().chain(
            s.block
                .what_if
                .iter()
                .enumerate()
                .map(|(k, w)| (format!("whatIf[{k}].expect"), &w.expect)),
        ) {
            c.validate().map_err(|e| format!("{here}: {field}.{e}"))?;
        }
    }
    Ok(())
}

impl Claims {
    fn is_empty(&self) -> bool {
        self.stats.is_none()
            && self.delta.is_none()
            && self.step_cycles.is_none()
            && self.violations.is_none()
            && self.vars.is_none()
            && self.cpus.is_none()
            && self.slabs.is_none()
            && self.objects.is_none()
            && self.nodes.is_none()
            && self.contexts.is_none()
            && self.enabled.is_none()
            && self.lines.is_none()
            && self.events.is_none()
            && self.tid_step.is_none()
            && self.finished.is_none()
            && self.deadlock.is_none()
    }

    /// Syntax of the names; `Err("field: why")`.
    fn validate(&self) -> Result<(), String> {
        let stat_names = stat_names();
        for (field, keys) in [
            (
                "stats",
                self.stats.as_ref().map(|m| m.keys().collect::<Vec<_>>()),
            ),
            (
                "delta",
                self.delta.as_ref().map(|m| m.keys().collect::<Vec<_>>()),
            ),
        ] {
            for k in keys.unwrap_or_default() {
                if !stat_names.contains(k.as_str()) {
                    return Err(format!("{field}.{k}: not a stat counter of the model"));
                }
            }
        }
        for e in self.events.iter().flatten() {
            if let Some(s) = &e.stat {
                if !stat_names.contains(s.as_str()) {
                    return Err(format!("events.stat: {s:?} is not a stat counter"));
                }
            }
        }
        for (i, v) in self.violations.iter().flatten().enumerate() {
            let numbered = |prefix: &str, last: u32| {
                v.strip_prefix(prefix)
                    .and_then(|n| n.parse::<u32>().ok())
                    .is_some_and(|n| (1..=last).contains(&n))
            };
            if !numbered("INV-", 15) && !numbered("SLAB-", 6) {
                return Err(format!(
                    "violations[{i}]: {v:?} is not INV-1 … INV-15 (SLUB) or SLAB-1 … SLAB-6"
                ));
            }
        }
        for k in self
            .cpus
            .iter()
            .flat_map(|m| m.keys())
            .chain(self.step_cycles.iter().flat_map(|m| m.keys()))
        {
            if k.strip_prefix("cpu")
                .and_then(|n| n.parse::<u32>().ok())
                .is_none()
            {
                return Err(format!("cpus.{k}: CPUs are named cpu0, cpu1, ..."));
            }
        }
        for k in self.nodes.iter().flat_map(|m| m.keys()) {
            if k.strip_prefix("node")
                .and_then(|n| n.parse::<u32>().ok())
                .is_none()
            {
                return Err(format!("nodes.{k}: nodes are named node0, node1, ..."));
            }
        }
        for (k, v) in self.lines.iter().flat_map(|m| m.iter()) {
            if v.is_empty() || !v.chars().all(|c| "MESI".contains(c)) {
                return Err(format!(
                    "lines.{k}: {v:?} must be MESI letters, one per CPU"
                ));
            }
        }
        for (k, _) in self.enabled.iter().flat_map(|m| m.iter()) {
            if !is_move(k) {
                return Err(format!("enabled.{k}: not a move"));
            }
        }
        Ok(())
    }
}

fn stat_names() -> BTreeSet<String> {
    thread_local! {
        static NAMES: BTreeSet<String> = {
            let sim = Simulator::from_json(r#"{"schemaVersion":1,"cpus":1,"tasks":[{"id":"T","cpu":0,"ops":[{"op":"alloc","var":"x"}]}]}"#, false)
                .expect("the smallest scenario");
            sim.outcome().stats.total.keys().cloned().collect()
        };
    }
    NAMES.with(|n| n.clone())
}

// ---------------------------------------------------------------------------------------------
// Replay
// ---------------------------------------------------------------------------------------------

/// The lesson's scenario JSON with variant (and cache) overrides merged in.
fn scenario_with(
    base: &Value,
    variant: &[&Map<String, Value>],
    cache: &Map<String, Value>,
) -> Value {
    let mut j = base.clone();
    let root = j.as_object_mut().expect("a scenario is an object");
    for v in variant {
        let dst = root
            .entry("variant")
            .or_insert_with(|| Value::Object(Map::new()));
        for (k, val) in v.iter() {
            dst.as_object_mut().unwrap().insert(k.clone(), val.clone());
        }
    }
    if !cache.is_empty() {
        let dst = root
            .entry("cache")
            .or_insert_with(|| Value::Object(Map::new()));
        for (k, val) in cache {
            dst.as_object_mut().unwrap().insert(k.clone(), val.clone());
        }
    }
    j
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

/// Check `claims` against the simulator after a step that started at `mark`. Returns one
/// message per false claim (field: why).
fn check_claims(claims: &Claims, sim: &Simulator, mark: &Mark) -> Vec<String> {
    let before = &mark.stats;
    let ev_from = mark.events;
    let mut errs = Vec::new();
    let view = sim.view();
    let out = sim.outcome();
    let total = &out.stats.total;
    for (k, want) in claims.stats.iter().flatten() {
        let got = total.get(k).copied().unwrap_or(0);
        if got != *want {
            errs.push(format!(
                "stats.{k}: the model has {got} (setup included), the lesson says {want}"
            ));
        }
    }
    for (k, want) in claims.delta.iter().flatten() {
        let got =
            total.get(k).copied().unwrap_or(0) as i64 - before.get(k).copied().unwrap_or(0) as i64;
        if got != *want {
            errs.push(format!(
                "delta.{k}: this step changed it by {got}, the lesson says {want}"
            ));
        }
    }
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
    for (name, c) in claims.cpus.iter().flatten() {
        let idx: usize = name[3..].parse().unwrap_or(usize::MAX);
        let Some(v) = view.cpus.get(idx) else {
            errs.push(format!("cpus.{name}: no such CPU"));
            continue;
        };
        let f = |x: &str| format!("cpus.{name}.{x}");
        same(&mut errs, &f("freelist"), v.freelist.clone(), &c.freelist);
        same(&mut errs, &f("tid"), v.tid, &c.tid);
        same(&mut errs, &f("page"), v.page.clone(), &c.page);
        same(&mut errs, &f("partial"), v.partial.clone(), &c.partial);
        same(&mut errs, &f("irqs"), v.irqs_enabled, &c.irqs);
        same(&mut errs, &f("preempt"), v.preempt_count, &c.preempt);
        same(&mut errs, &f("running"), v.running.clone(), &c.running);
        same(&mut errs, &f("cycles"), v.cycles, &c.cycles);
        if let Some(a) = &c.array {
            match &v.array_cache {
                Some(av) => check_array(&mut errs, &f("array"), av, a),
                None => errs.push(format!(
                    "{}: this scenario runs SLUB, whose CPUs have no array_cache",
                    f("array")
                )),
            }
        }
    }
    for (name, c) in claims.slabs.iter().flatten() {
        let Some(v) = view.slabs.iter().find(|s| &s.name == name) else {
            errs.push(format!("slabs.{name}: no such slab (yet)"));
            continue;
        };
        let f = |x: &str| format!("slabs.{name}.{x}");
        same(&mut errs, &f("freelist"), v.freelist.clone(), &c.freelist);
        same(&mut errs, &f("inuse"), v.inuse, &c.inuse);
        same(&mut errs, &f("frozen"), v.frozen, &c.frozen);
        same(&mut errs, &f("owner"), v.owner.to_string(), &c.owner);
        same(&mut errs, &f("locked"), v.slab_locked, &c.locked);
    }
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
        same(&mut errs, &f("fp"), o.fp.clone(), &c.fp);
        same(&mut errs, &f("owner"), o.owner.to_string(), &c.owner);
    }
    for (name, c) in claims.nodes.iter().flatten() {
        let idx: usize = name[4..].parse().unwrap_or(usize::MAX);
        let Some(v) = view.nodes.get(idx) else {
            errs.push(format!("nodes.{name}: no such node"));
            continue;
        };
        let f = |x: &str| format!("nodes.{name}.{x}");
        same(&mut errs, &f("partial"), v.partial.clone(), &c.partial);
        same(&mut errs, &f("nrPartial"), v.nr_partial, &c.nr_partial);
        same(&mut errs, &f("listLock"), v.list_lock.clone(), &c.list_lock);
        same(&mut errs, &f("waiters"), v.waiters.clone(), &c.waiters);
        match &v.slab {
            None if c.claims_slab() => errs.push(format!(
                "nodes.{name}: this scenario runs SLUB: freeObjects, slabsFull, slabsFree, shared, \
                 ... are SLAB's"
            )),
            None => {}
            Some(sn) => {
                same(
                    &mut errs,
                    &f("freeObjects"),
                    sn.free_objects,
                    &c.free_objects,
                );
                same(&mut errs, &f("freeLimit"), sn.free_limit, &c.free_limit);
                same(&mut errs, &f("totalSlabs"), sn.total_slabs, &c.total_slabs);
                same(&mut errs, &f("freeSlabs"), sn.free_slabs, &c.free_slabs);
                same(
                    &mut errs,
                    &f("slabsFull"),
                    sn.slabs_full.clone(),
                    &c.slabs_full,
                );
                same(
                    &mut errs,
                    &f("slabsFree"),
                    sn.slabs_free.clone(),
                    &c.slabs_free,
                );
                match (&c.shared, &sn.shared) {
                    (None, _) => {}
                    (Some(Some(a)), Some(av)) => check_array(&mut errs, &f("shared"), av, a),
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
    for (id, c) in claims.contexts.iter().flatten() {
        let Some(v) = view.contexts.iter().find(|x| &x.id == id) else {
            errs.push(format!("contexts.{id}: no such context"));
            continue;
        };
        let f = |x: &str| format!("contexts.{id}.{x}");
        same(&mut errs, &f("at"), v.label.clone(), &c.at);
        same(&mut errs, &f("state"), v.state.to_string(), &c.state);
        same(&mut errs, &f("cpu"), v.cpu, &c.cpu);
        same(&mut errs, &f("op"), v.op.clone(), &c.op);
    }
    for (mv, want) in claims.enabled.iter().flatten() {
        let got = view.enabled_moves.iter().any(|m| m == mv);
        if got != *want {
            errs.push(format!(
                "enabled.{mv}: the model says {got} (enabled: {:?}), the lesson says {want}",
                view.enabled_moves
            ));
        }
    }
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
                    && e.kind.as_ref().is_none_or(|x| *x == ev.kind)
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
    same(&mut errs, "tidStep", view.tid_step, &claims.tid_step);
    same(&mut errs, "finished", view.finished, &claims.finished);
    same(&mut errs, "deadlock", view.deadlock, &claims.deadlock);
    errs
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

/// Check that every highlight names something that exists after this step.
fn check_highlights(hs: &[String], view: &View, labels: &BTreeSet<String>) -> Vec<String> {
    let mut errs = Vec::new();
    let stats = stat_names();
    for (i, h) in hs.iter().enumerate() {
        let (kind, rest) = h.split_once(' ').unwrap_or((h.as_str(), ""));
        let base = rest.split('.').next().unwrap_or("");
        let ok = if let Some(n) = kind.strip_prefix("cpu") {
            let n = n.split('.').next().unwrap_or("");
            n.parse::<usize>().is_ok_and(|n| n < view.cpus.len())
        } else {
            match kind {
                "slab" => view.slabs.iter().any(|s| s.name == base),
                "object" => view
                    .slabs
                    .iter()
                    .flat_map(|s| s.objects.iter())
                    .any(|o| o.name == base),
                "node" => base.parse::<usize>().is_ok_and(|n| n < view.nodes.len()),
                "line" => view.lines.iter().any(|l| l.name == rest),
                "code" => labels.contains(rest),
                "ctx" => view.contexts.iter().any(|c| c.id == rest),
                "var" => view.vars.iter().any(|v| v.name == rest),
                "stat" => stats.contains(rest),
                _ => true,
            }
        };
        if !ok {
            errs.push(format!(
                "highlights[{i}]: {h:?} names nothing that exists at this step"
            ));
            continue;
        }
        // Fields of one allocator's structures name nothing under the other.
        let field = h.split_once('.').map(|(_, f)| f);
        let slab = view.cpus.first().is_some_and(|c| c.array_cache.is_some());
        let slab_only = match kind {
            "node" => matches!(
                field,
                Some("shared" | "free_objects" | "slabs_full" | "slabs_free")
            ),
            _ => kind.starts_with("cpu") && field == Some("array"),
        };
        let slub_only = kind.starts_with("cpu")
            && matches!(field, Some("freelist" | "tid" | "page" | "partial"));
        if slab_only && !slab {
            errs.push(format!(
                "highlights[{i}]: {h:?} is SLAB's; this scenario runs SLUB"
            ));
        } else if slub_only && slab {
            errs.push(format!(
                "highlights[{i}]: {h:?} is a field of SLUB's kmem_cache_cpu; this scenario runs SLAB (`cpu{}.array`)",
                &kind[3..]
            ));
        }
    }
    errs
}

/// A simulator for the lesson's scenario under extra overrides, with events.
fn new_sim(
    lesson: &Lesson,
    base: &Value,
    variant: &Map<String, Value>,
    cache: &Map<String, Value>,
) -> Result<Simulator, String> {
    let j = scenario_with(base, &[&lesson.front.variant, variant], cache);
    Simulator::from_json(&j.to_string(), true).map_err(|e| e.to_string())
}

/// Apply the moves of steps `0..=k` (or stop at the first refused move: `Err`).
fn replay_to(sim: &mut Simulator, lesson: &Lesson, k: usize) -> Result<(), String> {
    for (i, s) in lesson.steps[..=k].iter().enumerate() {
        for (j, m) in s.moves.iter().enumerate() {
            sim.apply(m).map_err(|e| {
                format!(
                    "step {} {:?} (line {}): moves: move {} ({m:?}) is refused: {e}",
                    i + 1,
                    s.title,
                    s.line,
                    j + 1
                )
            })?;
        }
    }
    Ok(())
}

/// Replay a parsed lesson against its scenario text; one message per failure, each naming the
/// file, the step and the field.
fn replay(lesson: &Lesson, scenario_text: &str) -> Vec<String> {
    let file = &lesson.file;
    let mut errs = Vec::new();
    let base: Value = match serde_json::from_str(scenario_text) {
        Ok(v) => v,
        Err(e) => return vec![format!("{file}: front matter: scenario: not JSON: {e}")],
    };
    if base.get("schedule").is_some() {
        errs.push(format!(
            "{file}: front matter: scenario: {} has a `schedule`; a lesson's steps are its schedule",
            lesson.front.scenario
        ));
    }
    let empty = Map::new();
    let mut sim = match new_sim(lesson, &base, &empty, &empty) {
        Ok(s) => s,
        Err(e) => {
            return vec![format!(
                "{file}: front matter: scenario/variant: the model refuses it: {e}"
            )]
        }
    };
    let labels: BTreeSet<String> = slub_sim::listing()
        .into_iter()
        .flat_map(|f| f.lines.into_iter().map(|l| l.label))
        .collect();
    let trace = std::env::var("LESSON_TRACE").is_ok_and(|t| t == "all" || t == lesson.front.id);
    for (k, s) in lesson.steps.iter().enumerate() {
        let here = format!("{file}: step {} {:?} (line {})", k + 1, s.title, s.line);
        let mark = Mark::of(&sim);
        for (j, m) in s.moves.iter().enumerate() {
            if let Err(e) = sim.apply(m) {
                errs.push(format!(
                    "{here}: moves: move {} ({m:?}) is refused: {e}; enabled were {:?}",
                    j + 1,
                    sim.enabled_moves()
                ));
                return errs;
            }
        }
        if trace {
            print_trace(k, s, &sim, mark.events);
        }
        for (field, c) in s.claims() {
            for e in check_claims(c, &sim, &mark) {
                errs.push(format!("{here}: {field}.{e}"));
            }
        }
        for e in check_highlights(&s.block.highlights, &sim.view(), &labels) {
            errs.push(format!("{here}: {e}"));
        }
        for (w, what) in s.block.what_if.iter().enumerate() {
            let field = format!("whatIf[{w}]");
            let mut alt = match new_sim(lesson, &base, &what.variant, &what.cache) {
                Ok(a) => a,
                Err(e) => {
                    errs.push(format!("{here}: {field}: the model refuses it: {e}"));
                    continue;
                }
            };
            let own = match what.moves.as_ref().map(|m| expand_moves(m)) {
                Some(Err(e)) => {
                    errs.push(format!("{here}: {field}.{e}"));
                    continue;
                }
                Some(Ok(m)) => Some(m),
                None => None,
            };
            if k > 0 && own.is_none() {
                if let Err(e) = replay_to(&mut alt, lesson, k - 1) {
                    errs.push(format!("{here}: {field}: {e}"));
                    continue;
                }
            }
            let alt_mark = Mark::of(&alt);
            let mut ok = true;
            for (j, m) in own.as_ref().unwrap_or(&s.moves).iter().enumerate() {
                if let Err(e) = alt.apply(m) {
                    errs.push(format!(
                        "{here}: {field}: moves: move {} ({m:?}) is refused under this variant: {e}",
                        j + 1
                    ));
                    ok = false;
                    break;
                }
            }
            if ok {
                for e in check_claims(&what.expect, &alt, &alt_mark) {
                    errs.push(format!("{here}: {field}.expect.{e}"));
                }
            }
        }
        if let Some(t) = &s.block.try_it {
            match new_sim(lesson, &base, &t.variant, &t.cache) {
                Err(e) => errs.push(format!("{here}: tryIt: the model refuses it: {e}")),
                Ok(mut alt) => {
                    if t.from == From::Here {
                        if let Err(e) = replay_to(&mut alt, lesson, k) {
                            errs.push(format!(
                                "{here}: tryIt: the moves so far do not replay under its changes (say `from: start`?): {e}"
                            ));
                        }
                    }
                }
            }
        }
    }
    errs
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

// ---------------------------------------------------------------------------------------------
// Loading from disk
// ---------------------------------------------------------------------------------------------

/// `(dir name, lesson.md path)` of every lesson folder, sorted. Folders without `lesson.md`
/// (the page's `00-sample`) are not lessons.
fn lesson_dirs() -> Vec<(String, PathBuf)> {
    let mut v: Vec<(String, PathBuf)> = std::fs::read_dir(lessons_dir())
        .expect("lessons/ exists")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("lesson.md").is_file())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    v.sort();
    v
}

/// Parse and replay one lesson folder.
fn check_dir(dir_name: &str, dir: &Path) -> Result<Lesson, Vec<String>> {
    let file = format!("lessons/{dir_name}/lesson.md");
    let text =
        std::fs::read_to_string(dir.join("lesson.md")).map_err(|e| vec![format!("{file}: {e}")])?;
    let lesson = parse_lesson(&file, dir_name, &text).map_err(|e| vec![e])?;
    let sc_path = dir.join(&lesson.front.scenario);
    let sc = std::fs::read_to_string(&sc_path).map_err(|e| {
        vec![format!(
            "{file}: front matter: scenario: cannot read {}: {e}",
            sc_path.display()
        )]
    })?;
    let errs = replay(&lesson, &sc);
    if errs.is_empty() {
        Ok(lesson)
    } else {
        Err(errs)
    }
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[test]
fn every_lesson_parses_and_replays() {
    let t0 = std::time::Instant::now();
    let mut errs = Vec::new();
    let mut ids = BTreeMap::new();
    let mut count = 0;
    for (name, dir) in lesson_dirs() {
        match check_dir(&name, &dir) {
            Ok(l) => {
                count += 1;
                if let Some(other) = ids.insert(l.front.id.clone(), name.clone()) {
                    errs.push(format!(
                        "lessons/{name}/lesson.md: front matter: id: {:?} is also the id of lessons/{other}",
                        l.front.id
                    ));
                }
            }
            Err(e) => errs.extend(e),
        }
    }
    println!("{count} lessons replayed in {:?}", t0.elapsed());
    assert!(
        errs.is_empty(),
        "{} lesson failure(s):\n{}",
        errs.len(),
        errs.join("\n")
    );
    assert!(count >= 12, "only {count} lessons");
}

/// A small valid lesson, changed by each case below into a broken one.
const GOOD: &str = r#"---
id: sample
title: A sample
summary: Checks the checker.
topics: [fast-path]
seeds: [004_be3faf7328bf917d.txt]
patches: []
scenario: scenario.json
---

Intro text.

## Step: Setup

```step
moves: []
highlights: [cpu0.freelist, code slab_alloc:A9]
expect:
  cpus: {cpu0: {freelist: [p1, p2, p3]}}
```

CPU 0 has three free objects.

## Step: Read

```step
moves: [T*7]
predict:
  question: What is next?
  choices: [the CAS, a retry]
  answer: {choice: 0, contexts: {T: {at: "slab_alloc:A9"}}}
```

T read everything.

## Step: CAS

```step
moves: [T]
expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}
```

It succeeds.

## Step: Rest

```step
moves: [T]
expect: {vars: {x: p1}, violations: []}
```

Done.

## Step: Try

```step
moves: []
tryIt: {goal: "Run U first.", variant: {cmpxchgDouble: slab-lock}}
```

Try it.
"#;

const GOOD_SCENARIO: &str = r#"{ "schemaVersion": 1, "cpus": 2,
  "setup": [ { "cpu": 0, "op": "alloc", "var": "a" } ],
  "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" } ] },
             { "id": "U", "cpu": 0, "ops": [ { "op": "alloc", "var": "u" } ] } ] }"#;

fn check_text(text: &str) -> Result<(), String> {
    let file = "lessons/99-sample/lesson.md";
    let l = parse_lesson(file, "99-sample", text)?;
    let errs = replay(&l, GOOD_SCENARIO);
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n"))
    }
}

#[test]
fn the_sample_lesson_is_good() {
    check_text(GOOD).unwrap();
}

#[test]
fn broken_lessons_fail_with_file_and_field() {
    let cases: &[(&str, &str, &[&str])] = &[
        // (what to replace, with what, substrings the message must contain; none: accepted)
        (
            "id: sample",
            "id: Sample",
            &["front matter: id", "kebab-case"],
        ),
        (
            "id: sample",
            "id: other",
            &["front matter: id", "99-sample"],
        ),
        (
            "topics: [fast-path]",
            "topics: [fastpath]",
            &["front matter: topics[0]", "fastpath"],
        ),
        (
            "seeds: [004_be3faf7328bf917d.txt]",
            "seeds: [004.txt]",
            &["front matter: seeds[0]", "004.txt"],
        ),
        (
            "summary: Checks the checker.\n",
            "",
            &["front matter", "summary"],
        ),
        (
            "patches: []",
            "patches: []\ncolour: red",
            &["front matter", "colour"],
        ),
        (
            "highlights: [cpu0.freelist, code slab_alloc:A9]",
            "highlights: [cpu0.frelist]",
            &[
                "step 1 \"Setup\" (line 13)",
                "highlights[0]",
                "cpu0.frelist",
            ],
        ),
        (
            "highlights: [cpu0.freelist, code slab_alloc:A9]",
            "highlights: [code slab_alloc:Z9]",
            &["step 1 \"Setup\"", "highlights[0]", "exists"],
        ),
        (
            "answer: {choice: 0, contexts",
            "answer: {choice: 2, contexts",
            &["step 2 \"Read\"", "predict.answer.choice", "out of range"],
        ),
        (
            "answer: {choice: 0, contexts: {T: {at: \"slab_alloc:A9\"}}}",
            "answer: {choice: 0}",
            &["step 2 \"Read\"", "predict.answer", "claim"],
        ),
        (
            "answer: {choice: 0, contexts: {T: {at: \"slab_alloc:A9\"}}}",
            "answer: {choice: 0, contexts: {T: {at: \"slab_alloc:A8\"}}}",
            &[
                "step 2 \"Read\"",
                "predict.answer.contexts.T.at",
                "slab_alloc:A9",
            ],
        ),
        (
            "expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}",
            "expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 1}}",
            &[
                "step 3 \"CAS\"",
                "expect.delta.CMPXCHG_DOUBLE_CPU_FAIL",
                "changed it by 0",
            ],
        ),
        (
            "expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}",
            "expect: {delta: {CPU_FAILS: 0}}",
            &["step 3 \"CAS\"", "expect.delta.CPU_FAILS", "not a stat"],
        ),
        (
            "expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}",
            "expect: {stat: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}",
            &["step 3 \"CAS\"", "stat", "unknown field"],
        ),
        (
            "expect: {vars: {x: p1}, violations: []}",
            "expect: {vars: {x: p2}, violations: [INV-12]}",
            &["step 4 \"Rest\"", "expect.vars.x", "expect.violations"],
        ),
        (
            "moves: [T]\nexpect: {vars",
            "moves: [T*20]\nexpect: {vars",
            &["step 4 \"Rest\"", "moves: move 2", "refused"],
        ),
        (
            "moves: [T]\nexpect: {vars",
            "moves: [T**2]\nexpect: {vars",
            &["step 4 \"Rest\"", "moves[0]"],
        ),
        (
            "moves: [T]\nexpect: {vars",
            "moves: [migrate:T:7]\nexpect: {vars",
            &["step 4 \"Rest\"", "moves: move 1", "refused"],
        ),
        ("moves: [T]\n", "", &["step 3 \"CAS\"", "moves"]),
        (
            "tryIt: {goal: \"Run U first.\", variant: {cmpxchgDouble: slab-lock}}",
            "",
            &["step 5 \"Try\"", "tryIt"],
        ),
        (
            "variant: {cmpxchgDouble: slab-lock}",
            "variant: {cmpxchgDouble: slab-lok}",
            &["step 5 \"Try\"", "tryIt", "cmpxchgDouble"],
        ),
        (
            "variant: {cmpxchgDouble: slab-lock}",
            "variant: {fastpath: tid-loop}",
            &["step 5 \"Try\"", "tryIt", "do not replay"],
        ),
        (
            "variant: {cmpxchgDouble: slab-lock}",
            "variant: {fastpath: tid-loop}, from: start",
            &[],
        ),
        ("## Step: CAS", "## CAS", &["line", "## Step: <title>"]),
        (
            "expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}",
            "expect: {}",
            &["step 3 \"CAS\"", "expect", "claim something"],
        ),
        ("\nIt succeeds.\n", "\n", &["step 3 \"CAS\"", "narration"]),
        ("---\nid: sample", "id: sample", &["front matter"]),
    ];
    let mut errs = Vec::new();
    for (from, to, want) in cases {
        assert!(GOOD.contains(from), "the case {from:?} does not apply");
        let text = GOOD.replacen(from, to, 1);
        match check_text(&text) {
            Ok(()) if want.is_empty() => {}
            Err(msg) if want.is_empty() => errs.push(format!("{from:?} -> {to:?}: refused: {msg}")),
            Ok(()) => errs.push(format!("{from:?} -> {to:?}: accepted")),
            Err(msg) => {
                if !msg.starts_with("lessons/99-sample/lesson.md: ") {
                    errs.push(format!("{from:?} -> {to:?}: no file name in {msg:?}"));
                }
                for w in *want {
                    if !msg.contains(w) {
                        errs.push(format!("{from:?} -> {to:?}: {w:?} not in {msg:?}"));
                    }
                }
            }
        }
    }
    // Two lessons steps fewer than the minimum; one with no prediction.
    let short = GOOD.split("## Step: Rest").next().unwrap();
    match check_text(short) {
        Ok(()) => errs.push("a 3-step lesson was accepted".into()),
        Err(m) if m.contains("steps") => {}
        Err(m) => errs.push(format!("3 steps: {m}")),
    }
    let no_predict = GOOD.replace(
        "predict:\n  question: What is next?\n  choices: [the CAS, a retry]\n  answer: {choice: 0, contexts: {T: {at: \"slab_alloc:A9\"}}}\n",
        "",
    );
    match check_text(&no_predict) {
        Ok(()) => errs.push("a lesson without a prediction was accepted".into()),
        Err(m) if m.contains("predict") => {}
        Err(m) => errs.push(format!("no predict: {m}")),
    }
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

/// A small valid SLAB lesson: the claims about arrays and a node's SLAB state.
const GOOD_SLAB: &str = r#"---
id: sample
title: A SLAB sample
summary: Checks the SLAB claims.
topics: [slab-allocator]
seeds: []
patches: [v-slab-grow]
scenario: scenario.json
---

## Step: Setup

```step
moves: []
highlights: [cpu0.array, node 0.free_objects, node 0.shared, node 0.slabs_full]
expect:
  cpus: {cpu0: {array: {entries: [p0], avail: 1, limit: 4, batchcount: 2, touched: true, handed: 0}}}
  nodes: {node0: {partial: [P], slabsFull: [], slabsFree: [], freeObjects: 2, freeLimit: 10, totalSlabs: 1, freeSlabs: 0, shared: {entries: [], limit: 2}}}
```

CPU 0's array holds p0.

## Step: Hit

```step
moves: [T*4]
predict:
  question: Which object?
  choices: [p0, p2]
  answer: {choice: 0, vars: {x: p0}, cpus: {cpu0: {array: {entries: []}}}}
```

A hit.

## Step: Refill

```step
moves: [T*10]
expect: {vars: {y: p3}, cpus: {cpu0: {array: {entries: [p2]}}}, nodes: {node0: {slabsFull: [P], freeObjects: 0}}}
```

A refill from P.

## Step: Free

```step
moves: [T*4]
expect: {cpus: {cpu0: {array: {entries: [p2, p0], avail: 2}}}, violations: []}
```

A push.

## Step: Try

```step
moves: []
tryIt: {goal: "Grow without the check.", variant: {slabGrow: locked}, from: start}
```

Try it.
"#;

const GOOD_SLAB_SCENARIO: &str = r#"{ "schemaVersion": 1, "allocator": "slab", "cpus": 2,
  "cache": { "objectsPerSlab": 4, "limit": 4, "batchcount": 2, "shared": 1 },
  "setup": [ { "cpu": 0, "op": "alloc", "var": "a" } ],
  "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" }, { "op": "alloc", "var": "y" }, { "op": "free", "var": "x" } ] } ] }"#;

fn check_slab_text(text: &str) -> Result<(), String> {
    let file = "lessons/99-sample/lesson.md";
    let l = parse_lesson(file, "99-sample", text)?;
    let errs = replay(&l, GOOD_SLAB_SCENARIO);
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n"))
    }
}

#[test]
fn slab_claims_are_checked() {
    check_slab_text(GOOD_SLAB).unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "entries: [p0], avail: 1",
            "entries: [p1], avail: 1",
            &[
                "step 1 \"Setup\"",
                "expect.cpus.cpu0.array.entries",
                "[\"p0\"]",
            ],
        ),
        (
            "touched: true, handed: 0",
            "touched: false, handed: 0",
            &["expect.cpus.cpu0.array.touched"],
        ),
        (
            "freeObjects: 2, freeLimit",
            "freeObjects: 3, freeLimit",
            &["step 1 \"Setup\"", "expect.nodes.node0.freeObjects", "2"],
        ),
        (
            "slabsFull: [], slabsFree: []",
            "slabsFull: [P], slabsFree: []",
            &["expect.nodes.node0.slabsFull"],
        ),
        (
            "shared: {entries: [], limit: 2}",
            "shared: {entries: [p3], limit: 2}",
            &["expect.nodes.node0.shared.entries"],
        ),
        (
            "shared: {entries: [], limit: 2}",
            "shared: null",
            &["expect.nodes.node0.shared", "has a shared array"],
        ),
        (
            "shared: {entries: [], limit: 2}",
            "shared: {entrys: []}",
            &["step 1 \"Setup\"", "entrys", "unknown field"],
        ),
        (
            "entries: [p2, p0], avail: 2",
            "entries: [p0, p2], avail: 2",
            &["step 4 \"Free\"", "expect.cpus.cpu0.array.entries"],
        ),
        (
            "cpus: {cpu0: {array: {entries: []}}}}",
            "cpus: {cpu0: {array: {entries: [p2]}}}}",
            &["step 2 \"Hit\"", "predict.answer.cpus.cpu0.array.entries"],
        ),
        (
            "violations: []",
            "violations: [SLAB-3]",
            &["step 4 \"Free\"", "expect.violations"],
        ),
        (
            "violations: []",
            "violations: [SLAB-7]",
            &["step 4 \"Free\"", "violations[0]", "SLAB-1 … SLAB-6"],
        ),
        (
            "highlights: [cpu0.array, node 0.free_objects, node 0.shared, node 0.slabs_full]",
            "highlights: [cpu0.tid]",
            &[
                "step 1 \"Setup\"",
                "highlights[0]",
                "this scenario runs SLAB",
            ],
        ),
        (
            "highlights: [cpu0.array, node 0.free_objects, node 0.shared, node 0.slabs_full]",
            "highlights: [cpu0.arrays]",
            &["step 1 \"Setup\"", "highlights[0]", "not a highlight name"],
        ),
    ];
    let mut errs = Vec::new();
    for (from, to, want) in cases {
        assert!(GOOD_SLAB.contains(from), "the case {from:?} does not apply");
        match check_slab_text(&GOOD_SLAB.replacen(from, to, 1)) {
            Ok(()) => errs.push(format!("{from:?} -> {to:?}: accepted")),
            Err(msg) => {
                if !msg.starts_with("lessons/99-sample/lesson.md: ") {
                    errs.push(format!("{from:?} -> {to:?}: no file name in {msg:?}"));
                }
                for w in *want {
                    if !msg.contains(w) {
                        errs.push(format!("{from:?} -> {to:?}: {w:?} not in {msg:?}"));
                    }
                }
            }
        }
    }
    // SLAB's claims about a SLUB scenario are errors, not silently true.
    for (from, to, want) in [
        (
            "cpus: {cpu0: {freelist: [p1, p2, p3]}}",
            "cpus: {cpu0: {array: {entries: []}}}",
            "expect.cpus.cpu0.array: this scenario runs SLUB",
        ),
        (
            "cpus: {cpu0: {freelist: [p1, p2, p3]}}",
            "nodes: {node0: {freeObjects: 0}}",
            "expect.nodes.node0: this scenario runs SLUB",
        ),
        (
            "cpus: {cpu0: {freelist: [p1, p2, p3]}}",
            "nodes: {node0: {shared: null}}",
            "expect.nodes.node0: this scenario runs SLUB",
        ),
        (
            "highlights: [cpu0.freelist, code slab_alloc:A9]",
            "highlights: [cpu0.array]",
            "highlights[0]: \"cpu0.array\" is SLAB's; this scenario runs SLUB",
        ),
        (
            "highlights: [cpu0.freelist, code slab_alloc:A9]",
            "highlights: [node 0.free_objects]",
            "highlights[0]: \"node 0.free_objects\" is SLAB's",
        ),
    ] {
        match check_text(&GOOD.replacen(from, to, 1)) {
            Ok(()) => errs.push(format!("SLUB: {to:?}: accepted")),
            Err(msg) if msg.contains(want) => {}
            Err(msg) => errs.push(format!("SLUB: {to:?}: {want:?} not in {msg:?}")),
        }
    }
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

#[test]
fn the_vocabulary_names_the_models_counters() {
    let voc = vocabulary();
    let mine: BTreeSet<String> = voc.stats.iter().cloned().collect();
    assert_eq!(
        mine,
        stat_names(),
        "lessons/vocabulary.json: stats: must be exactly the model's counter names"
    );
    for (field, m) in [
        ("seeds", &voc.seeds),
        ("patches", &voc.patches),
        ("topics", &voc.topics),
    ] {
        for (k, v) in m {
            assert!(
                !v.trim().is_empty(),
                "lessons/vocabulary.json: {field}.{k}: needs a description"
            );
        }
    }
    for k in voc.patches.keys().chain(voc.topics.keys()) {
        assert!(
            is_kebab(k),
            "lessons/vocabulary.json: {k:?} must be kebab-case"
        );
    }
}

#[test]
fn move_repetition_expands() {
    assert_eq!(
        expand_moves(&["T*3".into(), "migrate:T:1".into(), "I".into()]).unwrap(),
        ["T", "T", "T", "migrate:T:1", "I"]
    );
    assert!(expand_moves(&["T*0".into()]).is_err());
    assert!(expand_moves(&["migrate:T".into()]).is_err());
}
