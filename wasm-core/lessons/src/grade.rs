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
use crate::{check_dir, Checked};

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
/// refused without being held in memory.
fn read_answer_file(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_ANSWER_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_ANSWER_BYTES {
        return Err(format!(
            "larger than {MAX_ANSWER_BYTES} bytes (16 MiB, MAX_ANSWER_BYTES): an answer file is \
             a scenario with its schedule, and the largest valid one is about 5 MB"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text: invalid byte sequence at byte offset {}",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Read ANSWER: a permalink, a scenario file, or a schedule.
fn read_answer(answer: &str) -> Result<Answer, String> {
    let a = answer.trim();
    if let Some(hash) = a.split_once('#').map(|(_, h)| h) {
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
        return Ok(Answer::FromStart {
            scenario,
            moves: all[..at].to_vec(),
            what: "link",
        });
    }
    let path = std::path::Path::new(a);
    if a.ends_with(".json") || path.is_file() {
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
        return Ok(Answer::FromStart {
            scenario,
            moves,
            what: "scenario file",
        });
    }
    let written: Vec<String> = a
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if written.is_empty() {
        return Err("the answer is empty: give a link, a scenario file or a schedule".into());
    }
    Ok(Answer::FromOpening(written))
}

/// Two scenarios are the same exercise's when they agree but for their name and schedule.
fn same_scenario(a: &Value, b: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("name");
            o.remove("schedule");
        }
        v
    };
    strip(a) == strip(b)
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
/// the lessons are wrong (the instructor's to fix), not the answer.
pub fn grade(dir: &std::path::Path, spec: &str, answer: &str) -> Result<Results, String> {
    let report = check_dir(dir);
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
    let answer = match read_answer(answer) {
        Ok(a) => a,
        Err(e) => return Ok(fail(tests, "The answer can be read", e)),
    };
    tests.push(test("The answer can be read", true, 0.0, String::new()));
    // The moves to play, and a simulator to play them on.
    let (mut sim, moves) = match answer {
        Answer::FromStart {
            scenario,
            moves,
            what,
        } => {
            let mismatch = if !same_scenario(&scenario, &expected) {
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
        Ok(parsed) => play(&mut sim, &parsed, &moves).map(|_| ()),
    };
    if let Err(e) = played {
        let e = format!("{e}; enabled then: {:?}", sim.enabled_moves());
        return Ok(fail(tests, "Every move is enabled when it is played", e));
    }
    tests.push(test(
        "Every move is enabled when it is played",
        true,
        0.0,
        format!("the answer's {} move(s) played", moves.len()),
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
pub fn grade_refusing(dir: &std::path::Path, spec: &str, answer: &str) -> Result<String, String> {
    grade(dir, spec, answer).map(|r| serde_json::to_string_pretty(&r).expect("results serialize"))
}
