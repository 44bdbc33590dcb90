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
        "lessons/02-fast-path-and-tid/lesson.md: step 2 \"Pin the CPU, read the tid\" (line 70): \
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

/// A lesson file over 256 KiB (`MAX_LESSON_BYTES`) is refused before it is parsed (a
/// 52 MB lesson took 1.2 GB, 130 MB aborted), and a hostile lesson beside the one graded costs
/// `grade` nothing: only the exercise's own lesson is checked.
#[test]
fn a_lesson_past_the_size_ceiling_is_refused_unparsed() {
    let top = lessons_copy(
        "huge",
        "## Step:",
        &format!("{}\n\n## Step:", "x".repeat(300 << 10)),
    );
    let o = slub_lab(&top, &["lesson", "check"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("lessons/02-fast-path-and-tid/lesson.md: ")
            && err.contains("more than the 262144 of a lesson (MAX_LESSON_BYTES")
            && err.contains("refused before parsing"),
        "{err}"
    );
    // The bypassed nesting guard's reproducer, in a folder `grade --lessons` is pointed at:
    // lesson 02 is hostile, lesson 04 (the ABA exercise's) is fine and grades quickly.
    let top = lessons_copy(
        "hostile-grade",
        "topics: [",
        &format!(
            "topics: [fast-path#x, {}{}, ",
            "[".repeat(100_000),
            "]".repeat(100_000)
        ),
    );
    // Every other lesson beside it, as written (their links name each other).
    for e in std::fs::read_dir(repo().join("lessons")).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if !e.path().join("lesson.md").is_file() || name.starts_with("02-") {
            continue;
        }
        let dst = top.join("lessons").join(&name);
        std::fs::create_dir_all(&dst).unwrap();
        for f in std::fs::read_dir(e.path()).unwrap() {
            let f = f.unwrap();
            if f.path().is_file() {
                std::fs::copy(f.path(), dst.join(f.file_name())).unwrap();
            }
        }
    }
    let t0 = std::time::Instant::now();
    let o = slub_lab(&top, &["grade", "aba-without-tid/e1", "T*4, I*24, T*12"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["score"], 1.0);
    eprintln!("grade beside a hostile lesson: {:?}", t0.elapsed());
    // And the hostile one is refused quickly, by its line.
    let t0 = std::time::Instant::now();
    let o = slub_lab(&top, &["lesson", "check"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nest more than 64"), "{}", stderr(&o));
    eprintln!("lesson check of the hostile lesson: {:?}", t0.elapsed());
}
