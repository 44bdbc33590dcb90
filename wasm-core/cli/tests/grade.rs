//! `slub-lab grade`: right answers score 1, wrong ones 0, malformed ones 0 with a message naming
//! what is wrong; a wrong exercise is the instructor's error (exit 2). Run against the
//! repository's lessons (the ABA lesson's first exercise: under `no-tid`, INV-12 without INV-1).

use std::path::PathBuf;
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn grade(exercise: &str, answer: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_slub-lab"))
        .current_dir(repo())
        .args(["grade", exercise, answer])
        .output()
        .expect("slub-lab runs")
}

/// The results JSON of a run that printed one (exit 0).
fn results(o: &Output) -> serde_json::Value {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).expect("results JSON")
}

fn score(o: &Output) -> f64 {
    results(o)["score"].as_f64().expect("a score")
}

/// The exercise's scenario as the page opens it: the lesson's, with its variant.
fn aba_scenario() -> serde_json::Value {
    let text =
        std::fs::read_to_string(repo().join("lessons/04-aba-without-tid/scenario.json")).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["variant"] = serde_json::json!({"fastpath": "no-tid"});
    v
}

fn moves(s: &[&str]) -> Vec<String> {
    s.iter().map(|m| m.to_string()).collect()
}

#[test]
fn right_answers_score_one() {
    // A schedule in the lessons' syntax, from where the exercise opens.
    assert_eq!(score(&grade("aba-without-tid/e1", "T*4, I*24, T*12")), 1.0);
    // The permalink the playground gives (plain moves, at the end).
    let plain: Vec<String> = std::iter::repeat_n("T", 4)
        .chain(std::iter::repeat_n("I", 24))
        .chain(std::iter::repeat_n("T", 12))
        .map(String::from)
        .collect();
    let link = format!(
        "http://localhost:5173/{}",
        slub_lessons::grade::permalink(&aba_scenario(), &plain)
    );
    let r = results(&grade("aba-without-tid/e1", &link));
    assert_eq!(r["score"], 1.0);
    assert_eq!(r["max_score"], 1.0);
    assert!(
        r["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["status"] == "passed"),
        "{r}"
    );
    // A scenario file with the schedule.
    let dir = std::env::temp_dir().join(format!("slub-grade-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("answer.json");
    let mut sc = aba_scenario();
    sc["schedule"] = serde_json::json!(plain);
    std::fs::write(&file, sc.to_string()).unwrap();
    assert_eq!(
        score(&grade("aba-without-tid/e1", file.to_str().unwrap())),
        1.0
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn wrong_answers_score_zero_and_say_why() {
    // The classic ABA breaks INV-1 too, which this exercise excludes.
    let r = results(&grade(
        "aba-without-tid/e1",
        "T to slab_alloc:A9, I to end, T to end",
    ));
    assert_eq!(r["score"], 0.0);
    let goal = &r["tests"][3];
    assert_eq!(goal["status"], "failed");
    assert!(goal["output"].as_str().unwrap().contains("INV-1"), "{r}");
    // Stopping a link short of the goal (at=4: only T's first reads).
    let plain = moves(&["T", "T", "T", "T", "I"]);
    let link = slub_lessons::grade::permalink(&aba_scenario(), &plain).replace("&at=5", "&at=4");
    assert_eq!(score(&grade("aba-without-tid/e1", &link)), 0.0);
}

#[test]
fn malformed_answers_score_zero_naming_what_is_wrong() {
    let cases: &[(&str, &str)] = &[
        ("T*4, Q, T", "no context `Q`"),
        ("T*999", "from 1 to 500"),
        ("T*200", "is refused"),
        ("#/play?s=v1.%%%&m=T", "base64url"),
        ("#/play?s=sc01&m=T", "built-in"),
        ("#/lessons/aba-without-tid/2", "not to the playground"),
        ("/nonexistent/answer.json", "cannot read"),
        ("", "empty"),
    ];
    for (answer, want) in cases {
        let r = results(&grade("aba-without-tid/e1", answer));
        assert_eq!(r["score"], 0.0, "{answer:?}: {r}");
        let all = r.to_string();
        assert!(all.contains(want), "{answer:?}: {want:?} not in {all}");
    }
    // Another exercise's permalink (the interrupt lesson's scenario).
    let other: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("lessons/03-interrupt-retry/scenario.json")).unwrap(),
    )
    .unwrap();
    let r = results(&grade(
        "aba-without-tid/e1",
        &slub_lessons::grade::permalink(&other, &moves(&["T"])),
    ));
    assert_eq!(r["score"], 0.0);
    assert!(r.to_string().contains("another scenario"), "{r}");
}

#[test]
fn a_wrong_exercise_is_the_instructors_error() {
    for (ex, want) in [
        ("no-such-lesson/e1", "no lesson has the id"),
        ("aba-without-tid/e9", "exercises"),
        ("aba-without-tid/e2", "written"),
        ("aba-without-tid", "<lesson id>/e<k>"),
    ] {
        let o = grade(ex, "T");
        assert_eq!(o.status.code(), Some(2), "{ex}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{ex}: {want:?} not in {err}");
    }
}

#[test]
fn an_answer_file_past_the_ceiling_is_refused_unread() {
    // One byte past 16 MiB (MAX_ANSWER_BYTES, `run`'s ceiling for a scenario file): the
    // answer scores 0 with a message naming the ceiling, and the file is never held whole.
    let dir = std::env::temp_dir().join(format!("slub-grade-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("huge.json");
    std::fs::write(&file, vec![b' '; (16 << 20) + 1]).unwrap();
    let r = results(&grade("aba-without-tid/e1", file.to_str().unwrap()));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(r["score"], 0.0, "{r}");
    let all = r.to_string();
    assert!(
        all.contains("larger than 16777216 bytes") && all.contains("MAX_ANSWER_BYTES"),
        "{all}"
    );
    // Not UTF-8: the byte is named.
    let dir = std::env::temp_dir().join(format!("slub-grade-latin1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("latin1.json");
    std::fs::write(&file, b"{\"name\": \"caf\xe9\"}").unwrap();
    let r = results(&grade("aba-without-tid/e1", file.to_str().unwrap()));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(r.to_string().contains("byte offset 13"), "{r}");
}

fn slub_lab(cwd: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_slub-lab"))
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("slub-lab runs")
}

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("slub-grade-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The ABA exercise's right answer as plain moves.
fn aba_right() -> Vec<String> {
    std::iter::repeat_n("T", 4)
        .chain(std::iter::repeat_n("I", 24))
        .chain(std::iter::repeat_n("T", 12))
        .map(String::from)
        .collect()
}

#[test]
fn list_prints_every_exercise_with_its_question() {
    let o = slub_lab(&repo(), &["grade", "--list"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 19, "{out}");
    let aba = lines
        .iter()
        .find(|l| l.starts_with("aba-without-tid/e1\t"))
        .expect("the ABA exercise is listed");
    assert!(aba.contains("INV-12"), "{aba}");
    // Every line is `EXERCISE<tab>question`, and every listed exercise grades.
    for l in &lines {
        let (ex, q) = l.split_once('\t').expect("a tab");
        assert!(!q.is_empty(), "{l}");
        assert_eq!(grade(ex, "T").status.code(), Some(0), "{ex}");
    }
    // The written exercise (aba-without-tid/e2) is not listed.
    assert!(!out.contains("aba-without-tid/e2\t"), "{out}");
}

#[test]
fn moves_are_counted_as_moves() {
    // `T*4, I*24, T*12` is 40 moves, not "3 move(s)".
    let r = results(&grade("aba-without-tid/e1", "T*4, I*24, T*12"));
    let out = r["tests"][2]["output"].as_str().unwrap();
    assert_eq!(out, "the answer's 40 moves played", "{r}");
}

#[test]
fn outside_the_project_the_error_says_to_pass_lessons() {
    let dir = scratch("outside");
    let o = slub_lab(&dir, &["grade", "aba-without-tid/e1", "T"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--lessons DIR") && err.contains("project's root"),
        "{err}"
    );
    // With --lessons it grades.
    let lessons = repo().join("lessons");
    let o = slub_lab(
        &dir,
        &[
            "grade",
            "aba-without-tid/e1",
            "T*4, I*24, T*12",
            "--lessons",
            lessons.to_str().unwrap(),
        ],
    );
    assert_eq!(results(&o)["score"], 1.0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_answer_is_a_file_only_when_marked_as_one() {
    let dir = scratch("marked");
    let mut sc = aba_scenario();
    sc["schedule"] = serde_json::json!(aba_right());
    // A name with `#` and no `.json`: read as a link unless marked.
    let file = dir.join("my#answer");
    std::fs::write(&file, sc.to_string()).unwrap();
    let path = file.to_str().unwrap();
    assert_eq!(
        score(&grade("aba-without-tid/e1", &format!("@{path}"))),
        1.0
    );
    let o = slub_lab(
        &repo(),
        &["grade", "aba-without-tid/e1", "--answer-file", path],
    );
    assert_eq!(results(&o)["score"], 1.0);
    // An existing file named as a bare answer (not `.json`) is not opened: it is a schedule,
    // whatever exists on the grading machine.
    let plain = dir.join("T");
    std::fs::write(&plain, sc.to_string()).unwrap();
    let o = slub_lab(
        &dir,
        &[
            "grade",
            "aba-without-tid/e1",
            "T",
            "--lessons",
            repo().join("lessons").to_str().unwrap(),
        ],
    );
    let r = results(&o);
    assert_eq!(
        r["tests"][1]["output"], "a schedule, played from where the exercise opens",
        "{r}"
    );
    assert_eq!(r["tests"][2]["output"], "the answer's 1 move played", "{r}");
    // A byte-order mark before the JSON is accepted.
    let bom = dir.join("bom.json");
    std::fs::write(&bom, format!("\u{feff}{sc}")).unwrap();
    assert_eq!(
        score(&grade("aba-without-tid/e1", &format!("@{}", bom.display()))),
        1.0
    );
    // A directory is refused without being read.
    let r = results(&grade("aba-without-tid/e1", &format!("@{}", dir.display())));
    assert!(r.to_string().contains("not a regular file"), "{r}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_never_opened() {
    // Opening a FIFO blocks until a writer comes: the grader must refuse it unopened.
    let dir = scratch("fifo");
    let fifo = dir.join("answer.json");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_slub-lab"))
        .current_dir(repo())
        .args(["grade", "aba-without-tid/e1", fifo.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if t0.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let o = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        status.and_then(|s| s.code()),
        Some(0),
        "the grader hung on a FIFO"
    );
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["score"], 0.0);
    assert!(r.to_string().contains("not a regular file"), "{r}");
}

#[test]
fn an_html_escaped_link_is_read_and_said_to_be_escaped() {
    let link = slub_lessons::grade::permalink(&aba_scenario(), &aba_right());
    for amp in ["&amp;", "&#38;", "&#x26;"] {
        let escaped = format!("https://example.org/slub-lab/{}", link.replace('&', amp));
        let r = results(&grade("aba-without-tid/e1", &escaped));
        assert_eq!(r["score"], 1.0, "{amp}: {r}");
        assert!(
            r["tests"][0]["output"]
                .as_str()
                .unwrap()
                .contains("HTML-escaped"),
            "{r}"
        );
        assert_eq!(
            r["tests"][2]["output"], "the answer's 40 moves played",
            "{r}"
        );
    }
    // A plain link says nothing of escaping.
    let r = results(&grade("aba-without-tid/e1", &link));
    assert_eq!(r["tests"][0]["output"], "", "{r}");
}
