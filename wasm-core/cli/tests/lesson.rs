//! `slub-lab lesson check [DIR]` and `slub-lab lesson export [DIR]` on a lessons folder as
//! authors write it: exit 0 when every lesson holds, 1 naming the file, step and claim that
//! fails, 2 naming the file and field of a malformed lesson.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_slub-lab");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `<scratch>/<name>/lessons` holding vocabulary.json and lesson 02 with `lesson.md` changed
/// from `from` to `to`; returns the folder that holds `lessons`.
fn lessons_copy(name: &str, from: &str, to: &str) -> PathBuf {
    let top = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("slub-lab-lesson-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&top);
    let src = repo().join("lessons");
    let dst = top.join("lessons").join("02-fast-path-and-tid");
    std::fs::create_dir_all(&dst).unwrap();
    std::fs::copy(
        src.join("vocabulary.json"),
        top.join("lessons/vocabulary.json"),
    )
    .unwrap();
    let lesson = std::fs::read_to_string(src.join("02-fast-path-and-tid/lesson.md")).unwrap();
    assert!(lesson.contains(from), "the case {from:?} applies");
    std::fs::write(dst.join("lesson.md"), lesson.replacen(from, to, 1)).unwrap();
    std::fs::copy(
        src.join("02-fast-path-and-tid/scenario.json"),
        dst.join("scenario.json"),
    )
    .unwrap();
    top
}

fn slub_lab(cwd: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("the slub-lab binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_repository_lessons_hold() {
    let o = slub_lab(&repo(), &["lesson", "check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = slub_lab(&repo(), &["lesson", "export", "lessons"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let lessons = j["lessons"].as_array().unwrap();
    assert!(lessons.len() >= 12);
    let two = lessons
        .iter()
        .find(|l| l["id"] == "fast-path-and-tid")
        .expect("the fast-path lesson");
    let step = &two["steps"][1];
    assert_eq!(two["file"], "lessons/02-fast-path-and-tid/lesson.md");
    assert_eq!(step["moves"], serde_json::json!(["T", "T", "T", "T"]));
    assert_eq!(step["highlights"][0]["kind"], "cpu");
}

#[test]
fn a_false_claim_exits_1_naming_file_step_and_claim() {
    let top = lessons_copy(
        "false",
        "contexts: {T: {at: \"slab_alloc:A5\"}}",
        "contexts: {T: {at: \"slab_alloc:A6\"}}",
    );
    let o = slub_lab(&top, &["lesson", "check", "lessons"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).trim(),
        "lessons/02-fast-path-and-tid/lesson.md: step 2 \"Pin the CPU, read the tid\" (line 69): \
         expect.contexts.T.at: the model has Some(\"slab_alloc:A5\"), the lesson says Some(\"slab_alloc:A6\")"
    );
    let o = slub_lab(&top, &["lesson", "export", "lessons"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
}

#[test]
fn a_malformed_lesson_exits_2_naming_the_field() {
    let top = lessons_copy(
        "malformed",
        "topics: [fast-path, tid]",
        "topics: [fast-path, tids]",
    );
    let o = slub_lab(&top, &["lesson", "check", "lessons"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with(
            "lessons/02-fast-path-and-tid/lesson.md: front matter: topics[1]: \"tids\" is not in lessons/vocabulary.json"
        ),
        "{}",
        stderr(&o)
    );
    let o = slub_lab(&top, &["lesson", "check", "no-such-dir"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no-such-dir"), "{}", stderr(&o));
}
