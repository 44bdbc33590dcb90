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

/// An event kind is one of the model's (`slub_sim::event::EventKind`): a misspelt one in a
/// lesson's `expect.events` is an error naming the step and the path, not a claim that
/// silently never matches.
#[test]
fn an_unknown_event_kind_is_named() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    let tmp = std::env::temp_dir().join(format!("slub-lessons-kind-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let lesson = tmp.join("02-fast-path-and-tid");
    std::fs::create_dir_all(&lesson).unwrap();
    for f in ["lesson.md", "scenario.json"] {
        std::fs::copy(src.join("02-fast-path-and-tid").join(f), lesson.join(f)).unwrap();
    }
    std::fs::copy(src.join("vocabulary.json"), tmp.join("vocabulary.json")).unwrap();
    let md = std::fs::read_to_string(lesson.join("lesson.md")).unwrap();
    assert!(
        md.contains("kind: load}"),
        "lesson 02 no longer claims `kind: load`"
    );
    std::fs::write(
        lesson.join("lesson.md"),
        md.replacen("kind: load}", "kind: lood}", 1),
    )
    .unwrap();
    let errs = slub_lessons::check_dir(&tmp).errors();
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        errs.iter()
            .any(|e| e.contains(".kind: unknown variant `lood`") && e.contains("`pcas2`")),
        "{errs:?}"
    );
}

/// The negative control of lesson 19 (`reclamation`): its kernel-order steps hold only because
/// the model's `setup_kmem_cache_node` waits for T's interrupts-off section. Played with the
/// old array freed at once (`slabSharedFree: at-once`, set in its front matter), the lesson
/// must fail at the step where W stops at `synchronize_sched()`.
#[test]
fn the_reclamation_lesson_fails_when_the_old_array_is_freed_at_once() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../lessons");
    let tmp = std::env::temp_dir().join(format!("slub-lessons-reclaim-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let lesson = tmp.join("19-reclamation");
    std::fs::create_dir_all(&lesson).unwrap();
    for f in ["lesson.md", "scenario.json"] {
        std::fs::copy(src.join("19-reclamation").join(f), lesson.join(f)).unwrap();
    }
    std::fs::copy(src.join("vocabulary.json"), tmp.join("vocabulary.json")).unwrap();
    let md = std::fs::read_to_string(lesson.join("lesson.md")).unwrap();
    assert!(
        md.contains("\nscenario: scenario.json\n"),
        "lesson 19 names its scenario differently"
    );
    std::fs::write(
        lesson.join("lesson.md"),
        md.replacen(
            "\nscenario: scenario.json\n",
            "\nscenario: scenario.json\nvariant: {slabSharedFree: at-once}\n",
            1,
        ),
    )
    .unwrap();
    let errs = slub_lessons::check_dir(&tmp).errors();
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(
        errs.iter()
            .any(|e| e.contains("step 2 \"W replaces the shared array\"")),
        "{errs:?}"
    );
}
