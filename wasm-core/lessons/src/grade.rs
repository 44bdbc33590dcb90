//! `slub-lab grade EXERCISE ANSWER`: a student's answer to a model-checked exercise, replayed on
//! the model and scored. EXERCISE is `<lesson id>/e<k>` (exercise k of the lesson, from 1) or
//! `<lesson id>/<step>` (a step's try-it with a goal). ANSWER is one of
//!
//! - a playground permalink (`…#/play?s=v1.…&m=T,T,I&at=3`, what the page gives the student):
//!   its scenario must be the exercise's, and its moves, up to `at`, are played from the start;
//! - a scenario file (`.json`) with a `schedule`: the same check, the schedule played;
//! - a schedule (`T,T,I` or the lessons' move syntax, `T to end, I*3`), played from where the
//!   exercise opens the playground.
//!
//! The result follows Gradescope's autograder results format (`results.json`: `score`,
//! `max_score`, `output`, and `tests`, each with `name`, `score`, `max_score`, `status`,
//! `output`), so a course can run the command in that service or read it with any tool. A bad
//! answer (a move that is not enabled, a link for another exercise, a file that does not parse)
//! scores 0 with a message that names what is wrong; it is never an error of the command.

use base64::Engine;
use serde::Serialize;
use serde_json::Value;
use slub_sim::Simulator;

use crate::format::{ExerciseFrom, Win};
use crate::moves::{parse_moves, play};
use crate::replay::{new_sim, replay_to, scenario_with, won};
use crate::Checked;

/// Gradescope's `results.json`.
#[derive(Debug, Serialize, PartialEq)]
pub struct Results {
    pub score: f64,
    pub max_score: f64,
    pub output: String,
    pub tests: Vec<TestResult>,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct TestResult {
    pub name: String,
    pub score: f64,
    pub max_score: f64,
    /// `passed` or `failed`.
    pub status: &'static str,
    pub output: String,
}

/// What an exercise asks: where the playground opens and what wins.
struct Exercise<'a> {
    checked: &'a Checked,
    title: String,
    variant: &'a serde_json::Map<String, Value>,
    cache: &'a serde_json::Map<String, Value>,
    /// Replay the lesson's moves through this step (0-based) before the student's.
    through: Option<usize>,
    win: &'a Win,
}

/// The exercise `spec` names in the checked lessons, or why it names none.
fn find<'a>(lessons: &'a [Checked], spec: &str) -> Result<Exercise<'a>, String> {
    let (id, which) = spec.split_once('/').ok_or_else(|| {
        format!("{spec:?}: name an exercise as <lesson id>/e<k> or <lesson id>/<step>")
    })?;
    let checked = lessons
        .iter()
        .find(|c| c.lesson.front.id == id)
        .ok_or_else(|| format!("{spec:?}: no lesson has the id {id:?}"))?;
    let l = &checked.lesson;
    if let Some(k) = which.strip_prefix('e') {
        let k: usize = k
            .parse()
            .map_err(|_| format!("{spec:?}: {which:?} is not e<k> with k a number"))?;
        let ex = k
            .checked_sub(1)
            .and_then(|i| l.front.exercises.get(i))
            .ok_or_else(|| {
                format!(
                    "{spec:?}: the lesson has {} exercises",
                    l.front.exercises.len()
                )
            })?;
        let c = ex
            .check
            .as_ref()
            .ok_or_else(|| format!("{spec:?}: exercise {k} is written, not scored by the model: grade it by hand (docs/answer-key.md)"))?;
        return Ok(Exercise {
            checked,
            title: format!("{}, exercise {k}", l.front.title),
            variant: &c.variant,
            cache: &c.cache,
            through: (c.from == ExerciseFrom::End).then(|| l.steps.len() - 1),
            win: &c.win,
        });
    }
    let n: usize = which
        .parse()
        .map_err(|_| format!("{spec:?}: {which:?} is neither e<k> nor a step number"))?;
    let step = n
        .checked_sub(1)
        .and_then(|i| l.steps.get(i))
        .ok_or_else(|| format!("{spec:?}: the lesson has {} steps", l.steps.len()))?;
    let t = step
        .block
        .try_it
        .as_ref()
        .and_then(|t| t.win.as_ref().map(|w| (t, w)))
        .ok_or_else(|| format!("{spec:?}: step {n} has no try-it goal the model scores"))?;
    Ok(Exercise {
        checked,
        title: format!("{}, step {n}", l.front.title),
        variant: &t.0.variant,
        cache: &t.0.cache,
        through: (t.0.from == crate::format::From::Here).then_some(n - 1),
        win: t.1,
    })
}

/// An answer, read: moves from the scenario's start (a link or a file, with the scenario it
/// was made for) or from where the exercise opens (a bare schedule).
enum Answer {
    FromStart {
        scenario: Value,
        moves: Vec<String>,
        what: &'static str,
    },
    FromOpening(Vec<String>),
}

/// The query parameter `key` of a link's hash, percent-decoded.
fn param<'a>(query: &'a str, key: &str) -> Option<std::borrow::Cow<'a, str>> {
    query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        (k == key).then(|| percent_encoding::percent_decode_str(v).decode_utf8_lossy())
    })
}

/// The largest answer file read: `slub-lab run`'s ceiling for a scenario file (16 MiB), since
/// an answer file is a scenario with its schedule (the largest valid one is about 5 MB).
pub const MAX_ANSWER_BYTES: u64 = 16 << 20;

/// An answer file's text, read to at most one byte past [`MAX_ANSWER_BYTES`]: a larger file is
/// refused without being held in memory. Only a regular file is opened: opening a FIFO blocks
/// until someone writes to it, and a device may never end.
fn read_answer_file(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let cannot = |e: std::io::Error| format!("cannot read: {e}");
    let regular = |m: std::fs::Metadata| {
        if m.is_file() {
            Ok(())
        } else {
            Err(
                "not a regular file (a directory, a FIFO or a device): an answer file is a \
                 scenario saved from the playground"
                    .to_string(),
            )
        }
    };
    regular(std::fs::metadata(path).map_err(cannot)?)?;
    let file = std::fs::File::open(path).map_err(cannot)?;
    // The name could have been given to something else between the look and the open.
    regular(file.metadata().map_err(cannot)?)?;
    let mut bytes = Vec::new();
    file.take(MAX_ANSWER_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_ANSWER_BYTES {
        return Err(format!(
            "larger than {MAX_ANSWER_BYTES} bytes (16 MiB, MAX_ANSWER_BYTES): an answer file is \
             a scenario with its schedule, and the largest valid one is about 5 MB"
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text: invalid byte sequence at byte offset {}",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(without_bom(&text).to_string())
}

/// Text without its leading UTF-8 byte-order mark (editors on Windows write one).
fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The ways HTML writes `&` (a link copied from a page's source or a course site's HTML): a
/// link with any of them is read with `&` restored, and the results say so.
pub const HTML_AMPERSANDS: [&str; 3] = ["&amp;", "&#38;", "&#x26;"];

/// Where an answer comes from.
#[derive(Debug, Clone, Copy)]
pub enum AnswerSource<'a> {
    /// ANSWER as given: a permalink, a schedule, or `@FILE` (a bare name ending in `.json` is
    /// a file too, as the command always read it).
    Text(&'a str),
    /// `--answer-file FILE`.
    File(&'a std::path::Path),
}

/// Read ANSWER: a permalink, a scenario file (marked as one), or a schedule; and a note for
/// the results (a link that was HTML-escaped).
fn read_answer(source: AnswerSource) -> Result<(Answer, Option<String>), String> {
    let a = match source {
        AnswerSource::File(path) => return read_scenario_answer(path).map(|a| (a, None)),
        AnswerSource::Text(a) => without_bom(a.trim()).trim(),
    };
    // A file only when marked as one: text is never opened because a file of that name exists
    // (that would tell a student which files the grading machine has).
    if let Some(file) = a.strip_prefix('@') {
        return read_scenario_answer(std::path::Path::new(file)).map(|a| (a, None));
    }
    if let Some((_, hash)) = a.split_once('#') {
        let escaped = HTML_AMPERSANDS.iter().any(|e| hash.contains(e));
        let hash = HTML_AMPERSANDS
            .iter()
            .fold(hash.to_string(), |h, e| h.replace(e, "&"));
        let note = escaped.then(|| {
            "the link was HTML-escaped (`&amp;` for `&`): it was read with `&` restored".to_string()
        });
        return read_link(&hash).map(|a| (a, note));
    }
    // design.md §5 promises a scenario file as ANSWER: a bare name ending in `.json` is still
    // one, decided by the name alone.
    if a.ends_with(".json") {
        return read_scenario_answer(std::path::Path::new(a)).map(|a| (a, None));
    }
    let written: Vec<String> = a
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if written.is_empty() {
        return Err(
            "the answer is empty: give a link, a scenario file (@FILE) or a schedule".into(),
        );
    }
    Ok((Answer::FromOpening(written), None))
}

/// A playground permalink's hash (`/play?s=v1.…&m=…&at=…`).
fn read_link(hash: &str) -> Result<Answer, String> {
    let (path, query) = hash.split_once('?').unwrap_or((hash, ""));
    if path != "/play" && path != "/explore" {
        return Err(format!(
            "the link goes to #{path}, not to the playground (#/play?s=…&m=…)"
        ));
    }
    let s = param(query, "s").ok_or("the link has no scenario (s=)")?;
    let Some(b64) = s.strip_prefix("v1.") else {
        return Err(format!(
            "the link's scenario {s:?} is a built-in one, not an exercise's: open the exercise from its lesson and copy that link"
        ));
    };
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(b64.trim_end_matches('='))
        .map_err(|e| {
            format!("the link's scenario is not valid base64url ({e}): was the link cut?")
        })?;
    let scenario: Value = serde_json::from_slice(&bytes)
        .map_err(|e| format!("the link's scenario is not JSON ({e}): was the link cut?"))?;
    let m = param(query, "m").unwrap_or_default();
    let all: Vec<String> = if m.is_empty() {
        Vec::new()
    } else {
        m.split(',')
            .map(|x| {
                percent_encoding::percent_decode_str(x)
                    .decode_utf8_lossy()
                    .into_owned()
            })
            .collect()
    };
    let at = match param(query, "at") {
        None => all.len(),
        Some(t) => t
            .parse::<usize>()
            .ok()
            .filter(|n| *n <= all.len())
            .ok_or_else(|| {
                format!(
                    "the link's at={t} is not a move count between 0 and {}",
                    all.len()
                )
            })?,
    };
    Ok(Answer::FromStart {
        scenario,
        moves: all[..at].to_vec(),
        what: "link",
    })
}

/// A scenario file with its `schedule` (what the playground saves).
fn read_scenario_answer(path: &std::path::Path) -> Result<Answer, String> {
    let a = path.display();
    let text = read_answer_file(path).map_err(|e| format!("{a}: {e}"))?;
    let mut scenario: Value =
        serde_json::from_str(&text).map_err(|e| format!("{a} is not JSON: {e}"))?;
    let moves = match scenario.as_object_mut().and_then(|o| o.remove("schedule")) {
        Some(Value::Array(ms)) => ms
            .into_iter()
            .enumerate()
            .map(|(i, m)| match m {
                Value::String(s) => Ok(s),
                other => Err(format!("{a}: schedule[{i}]: {other} is not a move")),
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(format!("{a}: schedule: must be a list of moves")),
        None => {
            return Err(format!(
                "{a}: the scenario has no schedule: save it from the playground with its moves"
            ))
        }
    };
    Ok(Answer::FromStart {
        scenario,
        moves,
        what: "scenario file",
    })
}

fn test(name: &str, ok: bool, max: f64, output: String) -> TestResult {
    TestResult {
        name: name.into(),
        score: if ok { max } else { 0.0 },
        max_score: max,
        status: if ok { "passed" } else { "failed" },
        output,
    }
}

/// Grade `answer` against the exercise `spec` of the lessons in `dir`. `Err`: the exercise or
/// the lessons are wrong (the instructor's to fix), not the answer. Only the exercise's own
/// lesson is checked (its folder is `NN-<id>`), so a grading run costs one lesson's check
/// whatever else the folder holds.
pub fn grade(dir: &std::path::Path, spec: &str, answer: AnswerSource) -> Result<Results, String> {
    let id = spec.split_once('/').map_or(spec, |(id, _)| id);
    let report = crate::check_lesson(dir, id);
    if !report.errors().is_empty() {
        return Err(format!(
            "the lessons of {} do not hold:\n{}",
            dir.display(),
            report.errors().join("\n")
        ));
    }
    let ex = find(&report.lessons, spec)?;
    let l = &ex.checked.lesson;
    let base: Value = serde_json::from_str(&ex.checked.scenario).map_err(|e| e.to_string())?;
    let expected = scenario_with(&base, &[&l.front.variant, ex.variant], ex.cache)?;
    let opening = || -> Result<Simulator, String> {
        let mut sim = new_sim(l, &base, ex.variant, ex.cache)?;
        if let Some(k) = ex.through {
            replay_to(&mut sim, l, &ex.checked.moves, k)?;
        }
        Ok(sim)
    };
    let prefix: Vec<String> = ex
        .through
        .map(|k| ex.checked.moves[..=k].concat())
        .unwrap_or_default();
    let mut tests = Vec::new();
    // The test `name` failed for `why`: the results stop there, with a score of 0.
    let fail = |mut tests: Vec<TestResult>, name: &str, why: String| {
        tests.push(test(name, false, 0.0, why.clone()));
        Results {
            score: 0.0,
            max_score: 1.0,
            output: format!("{}: {why}", ex.title),
            tests,
        }
    };
    let (answer, note) = match read_answer(answer) {
        Ok(a) => a,
        Err(e) => return Ok(fail(tests, "The answer can be read", e)),
    };
    tests.push(test(
        "The answer can be read",
        true,
        0.0,
        note.unwrap_or_default(),
    ));
    // The moves to play, and a simulator to play them on.
    let (mut sim, moves) = match answer {
        Answer::FromStart {
            scenario,
            moves,
            what,
        } => {
            let mismatch = if !slub_sim::scenario::same_exercise(&scenario, &expected) {
                Some(format!("the {what} is for another scenario or variant than this exercise's: open the exercise from its lesson"))
            } else if !moves.starts_with(&prefix) {
                Some(format!(
                    "the {what} does not start where the exercise opens (the lesson's {} moves): open the exercise from its lesson",
                    prefix.len()
                ))
            } else {
                None
            };
            if let Some(e) = mismatch {
                return Ok(fail(tests, "The answer is for this exercise", e));
            }
            tests.push(test(
                "The answer is for this exercise",
                true,
                0.0,
                String::new(),
            ));
            let sim = opening()?;
            (sim, moves[prefix.len()..].to_vec())
        }
        Answer::FromOpening(moves) => {
            tests.push(test(
                "The answer is for this exercise",
                true,
                0.0,
                "a schedule, played from where the exercise opens".into(),
            ));
            (opening()?, moves)
        }
    };
    // The moves, each enabled in turn (the lessons' syntax: `T*3`, `T to end` too).
    let played = match parse_moves(&moves) {
        Err(e) => Err(e),
        Ok(parsed) => play(&mut sim, &parsed, &moves),
    };
    let played = match played {
        Ok(p) => p.len(),
        Err(e) => {
            let e = format!("{e}; enabled then: {:?}", sim.enabled_moves());
            return Ok(fail(tests, "Every move is enabled when it is played", e));
        }
    };
    // Moves counted as played: `T*4` is four, `T to end` as many as T took.
    tests.push(test(
        "Every move is enabled when it is played",
        true,
        0.0,
        format!(
            "the answer's {played} move{} played",
            if played == 1 { "" } else { "s" }
        ),
    ));
    let reached = won(ex.win, &sim);
    let violations: Vec<String> = sim
        .view()
        .violations
        .iter()
        .map(|v| v.invariant.clone())
        .collect();
    let total = &sim.outcome().stats.total;
    let counters: Vec<String> = ex
        .win
        .stats
        .iter()
        .map(|(k, n)| format!("{k} {} of {n}", total.get(k).copied().unwrap_or(0)))
        .collect();
    let state = format!(
        "violations {violations:?}{}{}",
        if counters.is_empty() { "" } else { "; " },
        counters.join(", ")
    );
    tests.push(test(
        "The goal is reached",
        reached,
        1.0,
        if reached {
            format!("{} ({state})", ex.win.says)
        } else {
            format!("not reached: {state}")
        },
    ));
    Ok(Results {
        score: if reached { 1.0 } else { 0.0 },
        max_score: 1.0,
        output: format!(
            "{}: {}",
            ex.title,
            if reached {
                "goal reached"
            } else {
                "goal not reached"
            }
        ),
        tests,
    })
}

/// The playground permalink (its hash) of `scenario` with `moves` played: what the page gives
/// a student to hand in (web/src/state/url.ts `playHash`, encoding `v1.`).
pub fn permalink(scenario: &Value, moves: &[String]) -> String {
    let s = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(scenario.to_string());
    let m: Vec<String> = moves
        .iter()
        .map(|m| {
            percent_encoding::utf8_percent_encode(m, percent_encoding::NON_ALPHANUMERIC).to_string()
        })
        .collect();
    format!("#/play?s=v1.{s}&m={}&at={}", m.join(","), moves.len())
}

/// Grade, for the command line: the results, or the instructor's error.
pub fn grade_refusing(
    dir: &std::path::Path,
    spec: &str,
    answer: AnswerSource,
) -> Result<String, String> {
    grade(dir, spec, answer).map(|r| serde_json::to_string_pretty(&r).expect("results serialize"))
}

/// Every exercise `grade` scores, as `(EXERCISE, its question's first line)`: each lesson's
/// model-checked exercises (`<id>/e<k>`) and its steps' try-it goals (`<id>/<step>`).
pub fn list(lessons: &[Checked]) -> Vec<(String, String)> {
    let first_line = |t: &str| t.trim().lines().next().unwrap_or("").trim().to_string();
    let mut out = Vec::new();
    for c in lessons {
        let l = &c.lesson;
        let id = &l.front.id;
        for (k, ex) in l.front.exercises.iter().enumerate() {
            if ex.check.is_some() {
                out.push((format!("{id}/e{}", k + 1), first_line(&ex.question)));
            }
        }
        for (n, step) in l.steps.iter().enumerate() {
            if let Some(t) = step.block.try_it.as_ref().filter(|t| t.win.is_some()) {
                out.push((format!("{id}/{}", n + 1), first_line(&t.goal)));
            }
        }
    }
    out
}
