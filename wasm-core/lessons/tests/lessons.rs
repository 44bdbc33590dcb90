//! Every lesson of `lessons/` parses, validates and replays against the model (the same
//! check as `slub-lab lesson check lessons`). `LESSON_TRACE=<id>` (or `all`) with
//! `--nocapture` prints each step's moves, the model's narration and the state after it.

use std::path::PathBuf;

#[test]
fn every_lesson_parses_and_replays() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    let t0 = std::time::Instant::now();
    let report = slub_lessons::check_dir(&dir);
    println!(
        "{} lessons replayed in {:?}",
        report.lessons.len(),
        t0.elapsed()
    );
    let errs = report.errors();
    assert!(
        errs.is_empty(),
        "{} lesson failure(s):\n{}",
        errs.len(),
        errs.join("\n")
    );
    assert!(
        report.lessons.len() >= 12,
        "only {} lessons",
        report.lessons.len()
    );
}
