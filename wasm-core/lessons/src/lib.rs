//! `slub-lessons`: the one parser and checker of the lessons in `lessons/NN-slug/lesson.md`.
//!
//! A lesson folder holds `lesson.md` (YAML front matter, `## Step: <title>` headings each
//! followed by a fenced `step` YAML block, Markdown narration; docs/writing-lessons.md) and its
//! scenario. [`check_dir`] reads every folder of a lessons directory as authors write them,
//! parses and validates each lesson against the closed vocabularies of `vocabulary.json`
//! ([`parse`]), and replays it against the model ([`replay`]): every move must be enabled and
//! every claim, prediction and highlight must hold. [`export`] turns the checked lessons into
//! the JSON the page is built from (`slub-lab lesson export`), so the page runs no parser of
//! its own. `slub-lab lesson check [DIR]` is the command line of [`check_dir`].
//!
//! Every message names the file, the step and the field:
//! `lessons/03-interrupt-retry/lesson.md: step 4 "The CAS fails" (line 61): expect.delta...`.

pub mod export;
pub mod format;
pub mod grade;
pub mod highlight;
pub mod moves;
pub mod parse;
pub mod replay;
mod title;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub mod course;
pub use format::Lesson;
pub use parse::{parse_lesson, Vocabulary};
pub use replay::{replay, Replayed};

/// A lesson that parsed, validated and replayed.
#[derive(Debug)]
pub struct Checked {
    pub lesson: Lesson,
    /// The scenario file as written.
    pub scenario: String,
    /// The plain moves of each step, destinations resolved.
    pub moves: Vec<Vec<String>>,
    /// Per step, the run a what-if step shows on its stage.
    pub runs: Vec<Option<replay::RunTrack>>,
}

/// What checking a lessons directory found.
#[derive(Debug, Default)]
pub struct Report {
    /// The lessons with no problem, in folder order.
    pub lessons: Vec<Checked>,
    /// Lessons that are not well-formed (a field, a name, the file's structure, the scenario).
    pub malformed: Vec<String>,
    /// Claims, predictions, highlights or moves the model does not bear out.
    pub failed: Vec<String>,
}

impl Report {
    /// `slub-lab lesson check`'s exit status: 2 a malformed lesson, 1 a failed claim, 0 none.
    pub fn exit_code(&self) -> u8 {
        if !self.malformed.is_empty() {
            2
        } else if !self.failed.is_empty() {
            1
        } else {
            0
        }
    }

    /// Every message, the malformed first.
    pub fn errors(&self) -> Vec<String> {
        self.malformed.iter().chain(&self.failed).cloned().collect()
    }
}

/// `(folder name, folder)` of every lesson of `dir`, sorted. Folders without `lesson.md` (the
/// page's `00-sample`) are not lessons.
pub fn lesson_dirs(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
    let mut v: Vec<(String, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("lesson.md").is_file())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    v.sort();
    Ok(v)
}

/// The largest `lesson.md` read: the longest lesson is about 19 KB. A larger file is refused
/// before it is parsed (a 52 MB one took 1.2 GB to parse).
pub const MAX_LESSON_BYTES: u64 = 256 << 10;
/// The largest lesson scenario or `vocabulary.json` read (`slub-lab run`'s scenario ceiling).
pub const MAX_SCENARIO_BYTES: u64 = 16 << 20;

/// A regular file's UTF-8 text, refused unread past `max` bytes (`what` names the ceiling in
/// the message). Only a regular file is opened: a FIFO would block the check.
pub fn read_bounded(path: &Path, max: u64, what: &str) -> Result<String, String> {
    use std::io::Read;
    let cannot = |e: std::io::Error| format!("cannot read: {e}");
    let meta = std::fs::metadata(path).map_err(cannot)?;
    if !meta.is_file() {
        return Err("cannot read: not a regular file".into());
    }
    if meta.len() > max {
        return Err(format!(
            "{} bytes, more than the {max} of {what}: refused before parsing",
            meta.len()
        ));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    file.take(max + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 > max {
        return Err(format!(
            "more than the {max} bytes of {what}: refused before parsing"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text: invalid byte sequence at byte offset {}",
            e.utf8_error().valid_up_to()
        )
    })
}

/// `dir/name`, with `/` whatever the platform: how messages name a lesson's files.
fn shown(dir: &Path, name: &str) -> String {
    let d = dir.to_string_lossy();
    format!("{}/{name}", d.trim_end_matches('/'))
}

/// Parse and replay one lesson folder (`file` names its lesson.md in messages).
fn check_one(file: &str, dir_name: &str, folder: &Path, voc: &Vocabulary, report: &mut Report) {
    let text = match read_bounded(
        &folder.join("lesson.md"),
        MAX_LESSON_BYTES,
        "a lesson (MAX_LESSON_BYTES; the longest is about 19 KB)",
    ) {
        Ok(t) => t,
        Err(e) => return report.malformed.push(format!("{file}: {e}")),
    };
    let lesson = match parse_lesson(file, dir_name, &text, voc) {
        Ok(l) => l,
        Err(e) => return report.malformed.push(e),
    };
    let sc_path = folder.join(&lesson.front.scenario);
    let scenario = match read_bounded(&sc_path, MAX_SCENARIO_BYTES, "a scenario (16 MiB)") {
        Ok(s) => s,
        Err(e) => {
            return report.malformed.push(format!(
                "{file}: front matter: scenario: {}: {e}",
                shown(
                    Path::new(file).parent().unwrap_or(Path::new("")),
                    &lesson.front.scenario
                )
            ))
        }
    };
    let r = replay(&lesson, &scenario);
    if r.malformed.is_empty() && r.failed.is_empty() {
        report.lessons.push(Checked {
            lesson,
            scenario,
            moves: r.moves,
            runs: r.runs,
        });
    } else {
        report.malformed.extend(r.malformed);
        report.failed.extend(r.failed);
    }
}

/// Check every lesson folder of `dir` (`lessons/`), with `dir/vocabulary.json`. Messages name
/// the files as `dir` is given (`lessons/03-interrupt-retry/lesson.md` for `lessons`).
pub fn check_dir(dir: &Path) -> Report {
    check_some(dir, None)
}

/// Check the lesson `id` of `dir` alone (its folder `NN-<id>`; `grade` needs no other): what
/// [`check_dir`] says of it, at the cost of one lesson. No folder of that id is no lesson.
pub fn check_lesson(dir: &Path, id: &str) -> Report {
    check_some(dir, Some(id))
}

fn check_some(dir: &Path, only: Option<&str>) -> Report {
    let mut report = Report::default();
    let voc = match Vocabulary::read(dir).and_then(|v| v.check().map(|()| v)) {
        Ok(v) => v,
        Err(e) => {
            report.malformed.push(e);
            return report;
        }
    };
    let folders = match lesson_dirs(dir) {
        Ok(f) => f,
        Err(e) => {
            report.malformed.push(e);
            return report;
        }
    };
    if folders.is_empty() {
        report.malformed.push(format!(
            "{}: no lesson folder (NN-slug/lesson.md)",
            dir.display()
        ));
    }
    let wanted =
        |name: &str| only.is_none_or(|id| name.split_once('-').is_some_and(|(_, slug)| slug == id));
    for (name, folder) in folders.iter().filter(|(name, _)| wanted(name)) {
        let file = shown(dir, &format!("{name}/lesson.md"));
        check_one(&file, name, folder, &voc, &mut report);
    }
    // An id names one lesson (the page's URLs are `#/lessons/<id>/<step>`).
    let mut ids: BTreeMap<&str, &str> = BTreeMap::new();
    for c in &report.lessons {
        if let Some(other) = ids.insert(&c.lesson.front.id, &c.lesson.file) {
            report.malformed.push(format!(
                "{}: front matter: id: {:?} is also the id of {other}",
                c.lesson.file, c.lesson.front.id
            ));
        }
    }
    // A link to a lesson (`#/lessons/<id>`) anywhere in a lesson's prose names a lesson of this
    // library: a folder `NN-<id>` (checked or not, so one broken lesson does not hide another's
    // links).
    let known: std::collections::BTreeSet<String> = folders
        .iter()
        .filter_map(|(name, _)| name.split_once('-').map(|(_, slug)| slug.to_string()))
        .chain(COURSE_PAGES.iter().map(|p| p.to_string()))
        .collect();
    let mut dangling = Vec::new();
    for c in &report.lessons {
        let l = &c.lesson;
        let f = &l.front;
        let mut prose: Vec<(String, &str)> = vec![("intro".into(), &l.intro)];
        prose.extend(
            f.read_next
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("front matter: readNext[{i}]"), t.as_str())),
        );
        prose.extend(
            f.takeaways
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("front matter: takeaways[{i}]"), t.as_str())),
        );
        prose.extend(
            f.sources
                .iter()
                .enumerate()
                .map(|(i, t)| (format!("front matter: sources[{i}]"), t.as_str())),
        );
        prose.extend(
            f.on_your_machine
                .iter()
                .map(|t| ("front matter: onYourMachine".to_string(), t.as_str())),
        );
        prose.extend(l.steps.iter().enumerate().map(|(k, s)| {
            (
                format!("step {} {:?} (line {}): narration", k + 1, s.title, s.line),
                s.narration.as_str(),
            )
        }));
        for (field, text) in prose {
            for id in lesson_links(text) {
                if id.is_empty() {
                    dangling.push(format!(
                        "{}: {field}: a link to `#/lessons/` names no lesson id after the slash",
                        l.file
                    ));
                } else if !known.contains(id) {
                    dangling.push(format!(
                        "{}: {field}: links to lesson {id:?}, and no lesson folder has that id",
                        l.file
                    ));
                }
            }
        }
    }
    report.malformed.extend(dangling);
    // The course's balance: its predictions, taken together, cannot be passed by their form.
    let balance = course::Measures::of(&report.lessons).errors(&dir.display().to_string());
    report.failed.extend(balance);
    report
}

/// The course's own pages under `#/lessons/`: no lesson may take their names as ids.
pub const COURSE_PAGES: [&str; 2] = ["glossary", "invariants"];

/// The lesson ids of the `#/lessons/<id>` links in a piece of Markdown: the path segment after
/// the slash, whatever characters it has (`__proto__` is a segment the page would look up, so
/// it is an id to check, not an empty one), up to `/`, `?`, `#`, a bracket, a quote or a space.
pub fn lesson_links(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("#/lessons/").map(move |(at, pat)| {
        let rest = &text[at + pat.len()..];
        let end = rest
            .find(|c: char| {
                c.is_whitespace()
                    || matches!(
                        c,
                        '/' | '?'
                            | '#'
                            | '('
                            | ')'
                            | '['
                            | ']'
                            | '<'
                            | '>'
                            | '"'
                            | '\''
                            | '`'
                            | '*'
                            | ','
                            | ';'
                    )
            })
            .unwrap_or(rest.len());
        // A sentence's full stop after a bare link is not part of the id.
        rest[..end].trim_end_matches(['.', ':', '!'])
    })
}

#[cfg(test)]
mod tests;
