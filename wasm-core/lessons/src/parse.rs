//! Parsing a lesson file (YAML front matter, `## Step: <title>` headings each followed by a
//! fenced `step` YAML block, Markdown narration) and the checks that need no model: the closed
//! vocabularies of `lessons/vocabulary.json`, the step count, names and claim syntax. Every
//! message names the field (`front matter: topics[0]: ...`, `step 2 "Read" (line 24):
//! predict.answer.choice: ...`); the caller prefixes the file.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, MetadataBlockKind, Options, Parser};
use pulldown_cmark::{Tag, TagEnd};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::format::*;
use crate::highlight;
use crate::moves::{is_move, parse_moves};

/// The closed vocabularies of `lessons/vocabulary.json`.
#[derive(Debug, Deserialize)]
pub struct Vocabulary {
    pub seeds: BTreeMap<String, String>,
    pub patches: BTreeMap<String, String>,
    pub topics: BTreeMap<String, String>,
    /// The model's counter names, for the page's filters (checked against the model).
    pub stats: Vec<String>,
}

impl Vocabulary {
    /// Read `<dir>/vocabulary.json`; `Err` names the file.
    pub fn read(dir: &Path) -> Result<Vocabulary, String> {
        let path = dir.join("vocabulary.json");
        let text = crate::read_bounded(&path, crate::MAX_SCENARIO_BYTES, "a vocabulary (16 MiB)")
            .map_err(|e| format!("{}: {e}", path.display()))?;
        serde_path_to_error::deserialize(&mut serde_json::Deserializer::from_str(&text))
            .map_err(|e| format!("{}: {}: {}", path.display(), e.path(), e.inner()))
    }

    /// The vocabularies are described, kebab-case, and `stats` are exactly the model's
    /// counter names; `Err` names the field.
    pub fn check(&self) -> Result<(), String> {
        let f = "vocabulary.json";
        let mine: BTreeSet<String> = self.stats.iter().cloned().collect();
        if mine != stat_names() {
            return Err(format!(
                "{f}: stats: must be exactly the model's counter names {:?}",
                stat_names()
            ));
        }
        for (field, m) in [
            ("seeds", &self.seeds),
            ("patches", &self.patches),
            ("topics", &self.topics),
        ] {
            for (k, v) in m {
                if v.trim().is_empty() {
                    return Err(format!("{f}: {field}.{k}: needs a description"));
                }
                if field != "seeds" && !is_kebab(k) {
                    return Err(format!("{f}: {field}.{k}: must be kebab-case"));
                }
            }
        }
        Ok(())
    }
}

pub(crate) fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

pub(crate) fn is_ident(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

/// How deep `[` and `{` may nest in a lesson's YAML. A lesson needs four or five levels; the YAML
/// parser's time grows with the depth times the length (a 400 KB line nested 200,000 deep ran
/// for minutes), so deeper input is refused before it is parsed.
pub const MAX_YAML_NESTING: usize = 64;

/// Most `[` and `{` one YAML block may hold, wherever they stand (quoted, in a comment, in a
/// block scalar): the depth the parser sees can be no more than this count, so it bounds the
/// parser's time whatever [`too_deep`] misreads of YAML's quoting rules (256 levels over a
/// 256 KiB lesson, `MAX_LESSON_BYTES`, parse in about half a second). The lessons have at most
/// 20 in a block.
pub const MAX_YAML_BRACKETS: usize = 256;

/// The first place where `text`'s flow collections nest deeper than `MAX_YAML_NESTING`: its
/// line. It reads YAML's tokens as the parser does where it matters: a `#` starts a comment
/// only at the start of a line or after a blank (`fast-path#x` is a word), and a quote starts
/// a quoted scalar only where a token starts (at the line's start, after `[`, `{` or `,`, or
/// after a blank that follows `:`, `-` or `?`): `fast-path'x` is a word too.
fn too_deep(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, line) in text.lines().enumerate() {
        let mut quote: Option<char> = None;
        // The last character outside quotes that is not a blank (None: the line's start).
        let mut last: Option<char> = None;
        let mut blank_before = true;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(q) = quote {
                match c {
                    '\\' if q == '"' => {
                        chars.next();
                    }
                    '\'' if q == '\'' && chars.peek() == Some(&'\'') => {
                        chars.next();
                    }
                    c if c == q => {
                        quote = None;
                        last = Some(c);
                    }
                    _ => {}
                }
                blank_before = false;
                continue;
            }
            let token_start = matches!(last, None | Some('[' | '{' | ','))
                || (blank_before && matches!(last, Some(':' | '-' | '?')));
            match c {
                ' ' | '\t' => {
                    blank_before = true;
                    continue;
                }
                '#' if blank_before => break,
                '"' | '\'' if token_start => quote = Some(c),
                '[' | '{' => {
                    depth += 1;
                    if depth > MAX_YAML_NESTING {
                        return Some(i + 1);
                    }
                }
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            last = Some(c);
            blank_before = false;
        }
    }
    None
}

/// The line of the `[` or `{` that is one too many for [`MAX_YAML_BRACKETS`].
fn too_many_brackets(text: &str) -> Option<usize> {
    let (at, _) = text.match_indices(['[', '{']).nth(MAX_YAML_BRACKETS)?;
    Some(line_of(text, at))
}

/// Deserialize YAML, naming the field that is wrong (`predict.answer.choice: invalid type`).
fn from_yaml<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    if let Some(line) = too_deep(text) {
        return Err(format!(
            "line {line} of the block: `[` and `{{` nest more than {MAX_YAML_NESTING} deep; a lesson needs a few levels"
        ));
    }
    if let Some(line) = too_many_brackets(text) {
        return Err(format!(
            "line {line} of the block: more than {MAX_YAML_BRACKETS} `[` and `{{` in one block (quoted or not); a lesson needs a few dozen"
        ));
    }
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
pub fn parse_lesson(
    file: &str,
    dir_name: &str,
    text: &str,
    voc: &Vocabulary,
) -> Result<Lesson, String> {
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
    // The Markdown between the front matter and the first step.
    let mut intro = (0, text.len());
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
                intro.0 = range.end;
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
                    match raws.last_mut() {
                        Some(r) => r.narration_to = range.start,
                        None => intro.1 = intro.1.min(range.start),
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
        let raw: serde_json::Value = from_yaml(&body).map_err(|e| at(format!("{here}: {e}")))?;
        let moves = parse_moves(&block.moves).map_err(|e| at(format!("{here}: {e}")))?;
        let highlights =
            highlight::parse_all(&block.highlights).map_err(|e| at(format!("{here}: {e}")))?;
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
            raw,
            moves,
            highlights,
            narration: narration.to_string(),
        });
    }
    let lesson = Lesson {
        file: file.to_string(),
        dir_name: dir_name.to_string(),
        front,
        intro: text[intro.0..intro.1.max(intro.0)].trim().to_string(),
        steps,
    };
    validate(&lesson, voc).map_err(at)?;
    Ok(lesson)
}

/// Every `variant` and `cache` value of a lesson is a value: YAML's `null`, `~`, `.inf` and
/// `.nan` have no JSON form (the export printed `null`, and the scenario quietly took the
/// default), so each is refused with its place.
fn no_null_values(l: &Lesson) -> Result<(), String> {
    let f = &l.front;
    let mut maps: Vec<(String, &serde_json::Map<String, serde_json::Value>)> =
        vec![("front matter: variant".into(), &f.variant)];
    for (k, e) in f.exercises.iter().enumerate() {
        if let Some(c) = &e.check {
            let at = format!("front matter: exercises[{k}].check");
            maps.push((format!("{at}.variant"), &c.variant));
            maps.push((format!("{at}.cache"), &c.cache));
        }
    }
    for (i, s) in l.steps.iter().enumerate() {
        let at = format!("step {} {:?} (line {})", i + 1, s.title, s.line);
        if let Some(r) = &s.block.run {
            maps.push((format!("{at}: run.variant"), &r.variant));
            maps.push((format!("{at}: run.cache"), &r.cache));
        }
        if let Some(t) = &s.block.try_it {
            maps.push((format!("{at}: tryIt.variant"), &t.variant));
            maps.push((format!("{at}: tryIt.cache"), &t.cache));
        }
    }
    for (place, map) in maps {
        if let Some((key, _)) = map.iter().find(|(_, v)| v.is_null()) {
            return Err(format!(
                "{place}.{key}: null, or a number with no JSON form (.inf, .nan): give one of \
                 the key's values (docs/model.md §2.16)"
            ));
        }
    }
    Ok(())
}

/// Checks that need no model: vocabularies, counts, names.
fn validate(l: &Lesson, voc: &Vocabulary) -> Result<(), String> {
    let f = &l.front;
    let fm = |field: &str, what: String| Err(format!("front matter: {field}: {what}"));
    if !is_kebab(&f.id) {
        return fm("id", format!("{:?} must be kebab-case", f.id));
    }
    if crate::COURSE_PAGES.contains(&f.id.as_str()) {
        return fm(
            "id",
            format!(
                "{:?} is the name of a course page (#/lessons/{}): choose another",
                f.id, f.id
            ),
        );
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
    for (field, v) in [
        ("title", &f.title),
        ("summary", &f.summary),
        ("era", &f.era),
        ("crux", &f.crux),
    ] {
        if v.trim().is_empty() {
            return fm(field, "must not be empty".into());
        }
    }
    validate_frame(f)?;
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
    no_null_values(l)?;
    for (part, r) in &f.reveal {
        if !REVEALABLE.contains(&part.as_str()) {
            return fm(
                &format!("reveal.{part}"),
                format!("not a part the page can hold back (one of {REVEALABLE:?})"),
            );
        }
        if let Reveal::FromStep(k) = r {
            if !(1..=l.steps.len()).contains(k) {
                return fm(
                    &format!("reveal.{part}"),
                    format!(
                        "step {k} is not a step of this lesson (1 to {})",
                        l.steps.len()
                    ),
                );
            }
        }
    }
    for (i, s) in l.steps.iter().enumerate() {
        for h in &s.highlights {
            let part = match &h.highlight {
                highlight::Highlight::Panel { panel } => panel.as_str(),
                highlight::Highlight::Line { .. } => "lines",
                highlight::Highlight::Cpu { field: Some(f), .. } if f == "tid" => "tid",
                highlight::Highlight::Stat { .. } => "stats",
                highlight::Highlight::Var { .. } => "vars",
                _ => continue,
            };
            if f.reveal.get(part).is_some_and(|r| !r.shown_at(i + 1)) {
                return Err(format!(
                    "step {} {:?} (line {}): highlights: {:?} points at the {part}, which reveal.{part} holds back at this step",
                    i + 1,
                    s.title,
                    s.line,
                    h.name
                ));
            }
        }
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
            if let Some(given) = crate::title::gives_away(&s.title, p) {
                return Err(format!(
                    "{here}: the title gives the prediction's answer away ({}): the learner \
                     reads it before answering; name the step's subject, not its outcome",
                    given.join(", ")
                ));
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
        if s.block.what_if.is_some() {
            return Err(format!(
                "{here}: whatIf: a step may not claim a run the stage does not show; put the run on \
                 the stage with `run` (a step of its own), or make it an exercise"
            ));
        }
        if let Some(r) = &s.block.run {
            if r.variant.is_empty() && r.cache.is_empty() && r.moves.is_none() {
                return Err(format!(
                    "{here}: run: change a variant or cache key, or give other moves"
                ));
            }
            if let Some(m) = &r.moves {
                parse_moves(m).map_err(|e| format!("{here}: run.{e}"))?;
                if !s.block.moves.is_empty() {
                    return Err(format!(
                        "{here}: moves: a step whose `run` plays its own moves plays none of the \
                         lesson's (say `moves: []`)"
                    ));
                }
            }
            if s.block.try_it.is_some() {
                return Err(format!(
                    "{here}: run: a try-it step opens the lesson's own run; show the what-if in a step of its own"
                ));
            }
        }
        if let Some(t) = &s.block.try_it {
            if t.goal.trim().is_empty() {
                return Err(format!("{here}: tryIt.goal: must not be empty"));
            }
            if let Some(w) = &t.win {
                validate_win(w).map_err(|e| format!("{here}: tryIt.win.{e}"))?;
            }
        }
        for (field, c) in s.claims() {
            c.validate().map_err(|e| format!("{here}: {field}.{e}"))?;
        }
        for (field, text) in step_prose(s) {
            no_outside_citation(text).map_err(|e| format!("{here}: {field}: {e}"))?;
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
            check_invariant_name(v).map_err(|e| format!("violations[{i}]: {e}"))?;
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

/// `INV-1` … `INV-15` (SLUB's invariants, model.md §5), `SLAB-1` … `SLAB-7`
/// (model.md Appendix A) or `INV-S1` … `INV-S15` (Linux 7.0's, model.md Appendix C.5).
fn check_invariant_name(v: &str) -> Result<(), String> {
    let numbered = |prefix: &str, last: u32| {
        v.strip_prefix(prefix)
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| (1..=last).contains(&n))
    };
    if numbered("INV-", 15) || numbered("SLAB-", 7) || numbered("INV-S", 15) {
        Ok(())
    } else {
        Err(format!(
            "{v:?} is not INV-1 … INV-15 (SLUB), SLAB-1 … SLAB-7 or INV-S1 … INV-S15 (Linux 7.0)"
        ))
    }
}

/// The frame of a lesson: takeaways, sources, exercises, reading on; none of its prose cites
/// a document the student does not have.
fn validate_frame(f: &Front) -> Result<(), String> {
    let fm = |field: String, what: &str| Err(format!("front matter: {field}: {what}"));
    if f.takeaways.len() < 2 {
        return fm("takeaways".into(), "give at least two");
    }
    if f.sources.is_empty() {
        return fm(
            "sources".into(),
            "list the primary sources (commit id and title, LKML, LWN, a seed)",
        );
    }
    if f.exercises.len() < 2 {
        return fm("exercises".into(), "give at least two");
    }
    if !f.exercises.iter().any(|e| e.check.is_some()) {
        return fm(
            "exercises".into(),
            "at least one must be checked by the model (`check`)",
        );
    }
    if !f.exercises.iter().any(|e| e.answer.is_some()) {
        return fm(
            "exercises".into(),
            "at least one must be written, with its `answer` key",
        );
    }
    for (i, e) in f.exercises.iter().enumerate() {
        let field = format!("exercises[{i}]");
        if e.question.trim().is_empty() {
            return fm(format!("{field}.question"), "must not be empty");
        }
        match (&e.answer, &e.check) {
            (Some(_), Some(_)) | (None, None) => {
                return fm(
                    field,
                    "give either `answer` (a written exercise) or `check` (one the model scores)",
                )
            }
            (Some(a), None) if a.trim().is_empty() => {
                return fm(format!("{field}.answer"), "must not be empty")
            }
            (None, Some(c)) => {
                validate_win(&c.win).map_err(|e| format!("front matter: {field}.check.win.{e}"))?
            }
            _ => {}
        }
    }
    let lists = [
        ("takeaways", &f.takeaways),
        ("sources", &f.sources),
        ("readNext", &f.read_next),
    ];
    for (field, list) in lists {
        for (i, t) in list.iter().enumerate() {
            if t.trim().is_empty() {
                return fm(format!("{field}[{i}]"), "must not be empty");
            }
        }
    }
    let mut prose: Vec<(String, &str)> =
        vec![("summary".into(), &f.summary), ("crux".into(), &f.crux)];
    prose.extend(
        lists[0]
            .1
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("takeaways[{i}]"), t.as_str())),
    );
    prose.extend(
        lists[2]
            .1
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("readNext[{i}]"), t.as_str())),
    );
    prose.extend(
        f.on_your_machine
            .iter()
            .map(|t| ("onYourMachine".to_string(), t.as_str())),
    );
    for (i, e) in f.exercises.iter().enumerate() {
        prose.push((format!("exercises[{i}].question"), &e.question));
    }
    for (field, text) in prose {
        no_outside_citation(text).map_err(|e| format!("front matter: {field}: {e}"))?;
    }
    Ok(())
}

/// The student-facing prose of a step, by field.
fn step_prose(s: &Step) -> Vec<(String, &str)> {
    let mut v: Vec<(String, &str)> = vec![("narration".into(), &s.narration)];
    if let Some(p) = &s.block.predict {
        v.push(("predict.question".into(), &p.question));
        v.extend(
            p.choices
                .iter()
                .enumerate()
                .map(|(i, c)| (format!("predict.choices[{i}]"), c.as_str())),
        );
        v.extend(
            p.explain
                .iter()
                .map(|e| ("predict.explain".to_string(), e.as_str())),
        );
    }
    if let Some(t) = &s.block.try_it {
        v.push(("tryIt.goal".into(), &t.goal));
        v.extend(
            t.win
                .iter()
                .map(|w| ("tryIt.win.says".to_string(), w.says.as_str())),
        );
    }
    v
}

/// A student has the course, not our specification: prose may not cite its sections, its
/// appendices or its scenario ids (`SC13`, `SH3`); it cites a primary source or a lesson.
pub(crate) fn no_outside_citation(text: &str) -> Result<(), String> {
    if text.contains('§') {
        return Err("cites a section (§) of a document the student does not have; cite the primary source or a lesson".into());
    }
    let lower = text.to_lowercase();
    // (The old specification's file name is spelled in two parts so that the repository's
    // reference check, scripts/check-refs.mjs, does not take this list for a reference.)
    for word in [
        "specification",
        "appendix",
        concat!("slub-", "algorithm"),
        "design.md",
    ] {
        if lower.contains(word) {
            return Err(format!(
                "mentions {word:?}, a document the student does not have; cite the primary source or a lesson"
            ));
        }
    }
    for token in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let id = ["SC", "SH", "sc", "sh"]
            .iter()
            .find_map(|p| token.strip_prefix(p));
        if id.is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())) {
            return Err(format!(
                "names the scenario id {token:?}, which the student does not have; describe the scenario"
            ));
        }
    }
    Ok(())
}

/// A try-it's `win`: something to reach, named as the model names it, and an example.
fn validate_win(w: &Win) -> Result<(), String> {
    if w.violation.is_empty() && w.stats.is_empty() {
        return Err("give a `violation` list or `stats` to reach".into());
    }
    for (i, v) in w.violation.iter().enumerate() {
        check_invariant_name(v).map_err(|e| format!("violation[{i}]: {e}"))?;
    }
    for (i, v) in w.without.iter().enumerate() {
        check_invariant_name(v).map_err(|e| format!("without[{i}]: {e}"))?;
        if w.violation.contains(v) {
            return Err(format!(
                "without[{i}]: {v} is also in `violation`: the goal could never be reached"
            ));
        }
    }
    let names = stat_names();
    for (k, n) in &w.stats {
        if !names.contains(k.as_str()) {
            return Err(format!("stats.{k}: not a stat counter of the model"));
        }
        if *n == 0 {
            return Err(format!(
                "stats.{k}: at least 0 always holds; say at least 1"
            ));
        }
    }
    if w.says.trim().is_empty() {
        return Err("says: must not be empty".into());
    }
    if w.example.is_empty() {
        return Err("example: give the moves that reach it".into());
    }
    parse_moves(&w.example).map_err(|e| format!("example: {e}"))?;
    Ok(())
}

pub(crate) fn stat_names() -> BTreeSet<String> {
    slub_sim::model::Stat::ALL
        .iter()
        .map(|s| s.name().to_string())
        .collect()
}
