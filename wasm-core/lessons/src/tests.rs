//! The checker checked: a small good lesson (SLUB and SLAB), changed case by case into broken
//! ones, must fail with the file, the step and the field; a lessons folder on disk gets the
//! right exit status.

use super::*;
use std::path::PathBuf;

fn repo_lessons() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../lessons")
}

fn vocabulary() -> Vocabulary {
    Vocabulary::read(&repo_lessons()).unwrap()
}

fn replay_errors(l: &Lesson, scenario: &str) -> Vec<String> {
    replay(l, scenario).errors()
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
era: Linux 3.10
crux: The fast path is one compare-and-swap.
takeaways: [One thing., Another thing.]
sources: ["Christoph Lameter, commit 8a5ec0ba42c4, \"Lockless (and preemptless) fastpaths for slub\" (v2.6.39)"]
exercises:
  - question: Why does T need no lock?
    answer: It owns the CPU's freelist.
  - question: Make U allocate on the fast path.
    check: {from: start, win: {stats: {ALLOC_FASTPATH: 2}, says: Won., example: [T to end, U to end]}}
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
    let l = parse_lesson(file, "99-sample", text, &vocabulary())?;
    let errs = replay_errors(&l, GOOD_SCENARIO);
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

/// A step title that names its prediction's right answer is refused, with the words that
/// give it away (`title.rs`); the same step under a neutral title passes (the sample).
#[test]
fn a_title_that_gives_the_answer_away_is_refused() {
    let text = GOOD.replacen("## Step: Read\n", "## Step: Read, then the CAS\n", 1);
    let err = check_text(&text).expect_err("the title names the right choice, the CAS");
    assert!(
        err.contains("step 2 \"Read, then the CAS\"")
            && err.contains("gives the prediction's answer away (cas)"),
        "{err}"
    );
}

#[test]
fn a_highlight_of_a_part_held_back_is_refused() {
    let text = GOOD
        .replacen(
            "scenario: scenario.json\n",
            "scenario: scenario.json\nreveal: {tid: 2}\n",
            1,
        )
        .replacen("highlights: [cpu0.freelist,", "highlights: [cpu0.tid,", 1);
    let err = check_text(&text).expect_err("cpu0.tid at step 1 with the tid held back to step 2");
    assert!(
        err.contains("step 1 \"Setup\"") && err.contains("reveal.tid"),
        "{err}"
    );
}

#[test]
fn a_try_it_goal_the_example_reaches_is_accepted() {
    // U allocates on CPU 0 after T: its fast path succeeds (ALLOC_FASTPATH counts it).
    let text = GOOD.replacen(
        "variant: {cmpxchgDouble: slab-lock}}",
        "variant: {cmpxchgDouble: slab-lock}, win: {stats: {ALLOC_FASTPATH: 2}, says: Won., example: [U to end]}}",
        1,
    );
    check_text(&text).expect("U's allocation reaches ALLOC_FASTPATH 2");
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
                "step 1 \"Setup\" (line 22)",
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
        (
            "variant: {cmpxchgDouble: slab-lock}}",
            "variant: {cmpxchgDouble: slab-lock}, win: {stats: {CMPXCHG_DOUBLE_CPU_FAIL: 1}, says: Won., example: [U to end]}}",
            &["step 5 \"Try\"", "tryIt.win.example", "does not reach it"],
        ),
        (
            "variant: {cmpxchgDouble: slab-lock}}",
            "variant: {cmpxchgDouble: slab-lock}, win: {stats: {ALLOC_FASTPATH: 1}, says: Won., example: [U to end]}}",
            &["step 5 \"Try\"", "tryIt.win", "already holds"],
        ),
        (
            "variant: {cmpxchgDouble: slab-lock}}",
            "variant: {cmpxchgDouble: slab-lock}, win: {violation: [INV-99], says: Won., example: [U]}}",
            &["step 5 \"Try\"", "tryIt.win.violation[0]"],
        ),
        (
            "variant: {cmpxchgDouble: slab-lock}}",
            "variant: {cmpxchgDouble: slab-lock}, win: {stats: {NO_SUCH: 1}, says: Won., example: [U]}}",
            &["step 5 \"Try\"", "tryIt.win.stats.NO_SUCH"],
        ),
        (
            "scenario: scenario.json\n",
            "scenario: scenario.json\nreveal: {lines: 9}\n",
            &["reveal.lines", "step 9"],
        ),
        (
            "scenario: scenario.json\n",
            "scenario: scenario.json\nreveal: {code: false}\n",
            &["reveal.code", "not a part"],
        ),
        (
            "scenario: scenario.json\n",
            "scenario: scenario.json\nreveal: {tid: 2}\n",
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
era: Linux 4.7
crux: SLAB queues objects per CPU.
takeaways: [One thing., Another thing.]
sources: ["A source."]
exercises:
  - question: Why an array?
    answer: Locality.
  - question: Let T finish.
    check: {from: start, win: {stats: {FREEHIT: 1}, says: Won., example: [T to end]}}
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
    let l = parse_lesson(file, "99-sample", text, &vocabulary())?;
    let errs = replay_errors(&l, GOOD_SLAB_SCENARIO);
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
            "violations: [SLAB-8]",
            &["step 4 \"Free\"", "violations[0]", "SLAB-1 … SLAB-7"],
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
        (
            // A retired shared array exists only after a tune swapped it out.
            "highlights: [cpu0.array, node 0.free_objects, node 0.shared, node 0.slabs_full]",
            "highlights: [node 0.retired]",
            &[
                "step 1 \"Setup\"",
                "highlights[0]",
                "names nothing that exists at this step",
            ],
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
    vocabulary().check().unwrap();
    let mut v = vocabulary();
    v.stats.pop();
    assert!(v
        .check()
        .unwrap_err()
        .starts_with("vocabulary.json: stats:"));
}

#[test]
fn destination_moves_resolve_in_a_lesson() {
    // `T*7` and `T to slab_alloc:A9` are the same moves here; `T to end` finishes T.
    let text = GOOD
        .replacen("moves: [T*7]", "moves: [T to slab_alloc:A9]", 1)
        .replacen(
            "moves: [T]\nexpect: {vars",
            "moves: [T to end]\nexpect: {vars",
            1,
        );
    let l = parse_lesson(
        "lessons/99-sample/lesson.md",
        "99-sample",
        &text,
        &vocabulary(),
    )
    .unwrap();
    let r = replay(&l, GOOD_SCENARIO);
    assert_eq!(r.errors(), Vec::<String>::new());
    assert_eq!(r.moves[1], vec!["T".to_string(); 7]);
    let counted = parse_lesson(
        "lessons/99-sample/lesson.md",
        "99-sample",
        GOOD,
        &vocabulary(),
    )
    .unwrap();
    assert_eq!(r.moves, replay(&counted, GOOD_SCENARIO).moves);
    // A destination T does not reach fails the step, naming the move.
    let text = GOOD.replacen("moves: [T*7]", "moves: [T to slab_alloc:Z9]", 1);
    let l = parse_lesson(
        "lessons/99-sample/lesson.md",
        "99-sample",
        &text,
        &vocabulary(),
    )
    .unwrap();
    let e = replay(&l, GOOD_SCENARIO).errors().join("\n");
    assert!(
        e.starts_with("lessons/99-sample/lesson.md: step 2 \"Read\" (line 33): moves: moves[0] (\"T to slab_alloc:Z9\"): T is refused after"),
        "{e}"
    );
    // A counted move that is not enabled names one index, the lesson's:
    // not also the simulator's own count of moves since the start.
    let text = GOOD.replacen("moves: [T*7]", "moves: [T*7, Q]", 1);
    let l = parse_lesson(
        "lessons/99-sample/lesson.md",
        "99-sample",
        &text,
        &vocabulary(),
    )
    .expect("the lesson parses; the move is judged on replay");
    let e = replay(&l, GOOD_SCENARIO).errors().join("\n");
    assert!(e.contains("move 8 (\"Q\") is refused: not enabled:"), "{e}");
    assert_eq!(e.matches("move ").count(), 1, "{e}");
}

/// A lessons folder in a fresh temporary directory: `vocabulary.json` and one lesson.
fn folder(name: &str, lesson: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("slub-lessons-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("99-sample")).unwrap();
    std::fs::copy(
        repo_lessons().join("vocabulary.json"),
        dir.join("vocabulary.json"),
    )
    .unwrap();
    std::fs::write(dir.join("99-sample/lesson.md"), lesson).unwrap();
    std::fs::write(dir.join("99-sample/scenario.json"), GOOD_SCENARIO).unwrap();
    dir
}

#[test]
fn a_folder_is_checked_as_written() {
    let dir = folder("good", GOOD);
    let r = check_dir(&dir);
    assert_eq!((r.exit_code(), r.lessons.len()), (0, 1), "{:?}", r.errors());
    assert_eq!(r.lessons[0].moves[1].len(), 7);

    // A false claim: exit 1, naming the file, the step and the claim.
    let dir = folder(
        "false",
        &GOOD.replacen("x: p1}, violations", "x: p2}, violations", 1),
    );
    let r = check_dir(&dir);
    let file = format!("{}/99-sample/lesson.md", dir.display());
    assert_eq!(r.exit_code(), 1);
    assert_eq!(
        r.errors(),
        [format!("{file}: step 4 \"Rest\" (line 54): expect.vars.x: the model has p1, the lesson says p2")]
    );

    // A malformed lesson: exit 2, naming the field.
    let dir = folder(
        "malformed",
        &GOOD.replacen("topics: [fast-path]", "topics: [fastpath]", 1),
    );
    let r = check_dir(&dir);
    assert_eq!(r.exit_code(), 2);
    let e = r.errors().join("\n");
    let file = format!("{}/99-sample/lesson.md", dir.display());
    assert!(
        e.starts_with(&format!("{file}: front matter: topics[0]: \"fastpath\"")),
        "{e}"
    );

    // A scenario with a schedule is malformed too.
    let dir = folder("schedule", GOOD);
    std::fs::write(
        dir.join("99-sample/scenario.json"),
        GOOD_SCENARIO.replacen("\"cpus\": 2,", "\"cpus\": 2, \"schedule\": [],", 1),
    )
    .unwrap();
    let r = check_dir(&dir);
    assert_eq!(r.exit_code(), 2, "{:?}", r.errors());
    assert!(r.errors()[0].contains("front matter: scenario: scenario.json has a `schedule`"));
    for name in ["good", "false", "malformed", "schedule"] {
        let _ = std::fs::remove_dir_all(
            std::env::temp_dir().join(format!("slub-lessons-{}-{name}", std::process::id())),
        );
    }
}

/// The course's rules: a run the stage does not show, a spoiled prediction, prose citing a
/// document the student does not have, exercises that the model cannot score or that have no
/// written key.
#[test]
fn shown_runs_spoilers_citations_and_exercises_are_checked() {
    let shown_run = "## Step: What if U goes first\n\n```step\nmoves: []\nrun: {moves: [U to end]}\nexpect: {vars: {u: p1}}\n```\n\nU takes p1.\n\n## Step: Try";
    let with_run = GOOD.replacen("## Step: Try", shown_run, 1);
    check_text(&with_run).expect("a what-if on the stage whose claims hold");
    let cases: &[(&str, String, &[&str])] = &[
        (
            "a false claim about a shown run",
            with_run.replacen("expect: {vars: {u: p1}}", "expect: {vars: {u: p2}}", 1),
            &["step 5 \"What if U goes first\"", "expect.vars.u: the model has p1"],
        ),
        (
            "a shown run beside the lesson's own moves",
            with_run.replacen("moves: []\nrun: {moves: [U to end]}", "moves: [U]\nrun: {moves: [U to end]}", 1),
            &["moves: a step whose `run` plays its own moves"],
        ),
        (
            "a run on an allocator a step cannot switch to",
            with_run.replacen("run: {moves: [U to end]}", "run: {allocator: slob, moves: [U to end]}", 1),
            &["step 5 \"What if U goes first\"", "run: the model refuses it: run.allocator: \"slob\""],
        ),
        (
            // SLAB runs the same workload: its claims are checked against SLAB's run (U's
            // allocation is SLAB's, counted as ALLOCHIT or ALLOCMISS, not SLUB's ALLOC_FASTPATH;
            // the same claim holds on SLUB's run).
            "a SLAB run whose claim is SLUB's",
            with_run.replacen(
                "run: {moves: [U to end]}\nexpect: {vars: {u: p1}}",
                "run: {allocator: slab, cache: {limit: 4, batchcount: 2, shared: 0}, moves: [U to end]}\nexpect: {delta: {ALLOC_FASTPATH: 1}}",
                1,
            ),
            &["step 5 \"What if U goes first\"", "expect.delta.ALLOC_FASTPATH: this step changed it by 0"],
        ),
        (
            "a run the stage does not show",
            GOOD.replacen(
                "expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}",
                "expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}\nwhatIf: [{variant: {fastpath: no-tid}, expect: {violations: []}}]",
                1,
            ),
            &["step 3 \"CAS\"", "whatIf: a step may not claim a run the stage does not show"],
        ),
        (
            "a prediction whose answer the stage already shows",
            GOOD.replacen(
                "answer: {choice: 0, contexts: {T: {at: \"slab_alloc:A9\"}}}",
                "answer: {choice: 0, cpus: {cpu0: {freelist: [p1, p2, p3]}}}",
                1,
            ),
            &["step 2 \"Read\"", "predict.answer: cpus.cpu0.freelist already holds", "spoiler"],
        ),
        (
            // The rule the course asked for: one claim already showing is enough (the rule
            // before refused only an answer whose every claim held, and let this one through).
            "one claim of the answer already shows, beside one the moves change",
            GOOD.replacen(
                "answer: {choice: 0, contexts: {T: {at: \"slab_alloc:A9\"}}}",
                "answer: {choice: 0, contexts: {T: {at: \"slab_alloc:A9\"}}, cpus: {cpu0: {freelist: [p1, p2, p3]}}}",
                1,
            ),
            &["step 2 \"Read\"", "predict.answer: cpus.cpu0.freelist already holds", "move it to `expect`"],
        ),
        (
            "a section of the specification",
            GOOD.replacen("CPU 0 has three free objects.", "CPU 0 has three free objects (§3.2).", 1),
            &["step 1 \"Setup\"", "narration: cites a section (§)"],
        ),
        (
            "a scenario id",
            GOOD.replacen("It succeeds.", "It succeeds, as in SC13.", 1),
            &["step 3 \"CAS\"", "narration: names the scenario id \"SC13\""],
        ),
        (
            "no written exercise",
            GOOD.replacen("  - question: Why does T need no lock?\n    answer: It owns the CPU's freelist.\n", "  - question: Make T allocate.\n    check: {from: start, win: {stats: {ALLOC_FASTPATH: 1}, says: Won., example: [T to end]}}\n", 1),
            &["front matter: exercises: at least one must be written"],
        ),
        (
            "an exercise its example does not reach",
            GOOD.replacen("example: [T to end, U to end]", "example: [T to end]", 1),
            &["front matter: exercises[1].check.win.example: does not reach it"],
        ),
        (
            "one takeaway",
            GOOD.replacen("takeaways: [One thing., Another thing.]", "takeaways: [One thing.]", 1),
            &["front matter: takeaways: give at least two"],
        ),
    ];
    let mut errs = Vec::new();
    for (what, text, want) in cases {
        match check_text(text) {
            Ok(()) => errs.push(format!("{what}: accepted")),
            Err(m) => {
                for w in *want {
                    if !m.contains(w) {
                        errs.push(format!("{what}: {w:?} not in {m:?}"));
                    }
                }
            }
        }
    }
    assert!(errs.is_empty(), "{}", errs.join("\n"));
    let links: Vec<&str> =
        lesson_links("[a](#/lessons/fast-path-and-tid) and [b](#/lessons/x/3)").collect();
    assert_eq!(links, ["fast-path-and-tid", "x"]);
}

/// Nesting deeper than a lesson needs is refused before the YAML parser sees it, with its line,
/// and quickly (the parser's time grows with the square of the depth).
#[test]
fn deeply_nested_yaml_is_refused_quickly_with_its_place() {
    let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
    let text = GOOD.replacen("patches: []", &format!("patches: []\nreveal: {deep}"), 1);
    let t0 = std::time::Instant::now();
    let err = check_text(&text).expect_err("200,000 levels of nesting");
    assert!(
        t0.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        t0.elapsed()
    );
    assert!(
        err.contains("front matter: line 7 of the block") && err.contains("nest more than 64"),
        "{err}"
    );
    // A step block too, and quotes do not count.
    let step = GOOD.replacen(
        "moves: [T*7]",
        &format!(
            "moves: [T*7]\nhighlights: {}{}",
            "[".repeat(100),
            "]".repeat(100)
        ),
        1,
    );
    let err = check_text(&step).expect_err("100 levels in a step");
    assert!(
        err.contains("step 2 \"Read\"") && err.contains("nest more than 64"),
        "{err}"
    );
    let quoted = GOOD.replacen(
        "tryIt: {goal: \"Run U first.\"",
        &format!("tryIt: {{goal: \"Run U first. {}\"", "[".repeat(100)),
        1,
    );
    check_text(&quoted).expect("brackets inside a quoted string are text");
}

/// A `#` or `'` inside a word (`fast-path#x`, `fast-path'x`) no longer stops the
/// guard's count (YAML starts a comment only after a blank, a quote only where a token
/// starts), and whatever the guard misreads, a block holds at most `MAX_YAML_BRACKETS` of `[`
/// and `{`: a 200 KB line was 141 s of parsing before it was refused.
#[test]
fn the_nesting_guard_counts_what_yaml_parses() {
    for word in ["fast-path#x", "fast-path'x", "fast-path\"x"] {
        let n = 100_000;
        let deep = format!("{}{}", "[".repeat(n), "]".repeat(n));
        let text = GOOD.replacen(
            "topics: [fast-path]",
            &format!("topics: [{word}, {deep}, tid]"),
            1,
        );
        let t0 = std::time::Instant::now();
        let err = check_text(&text).expect_err("100,000 levels behind a word");
        assert!(
            t0.elapsed() < std::time::Duration::from_secs(5),
            "{word}: {:?}",
            t0.elapsed()
        );
        assert!(
            err.contains("front matter: line 4 of the block") && err.contains("nest more than 64"),
            "{word}: {err}"
        );
    }
    // A real comment and real quotes still hide their brackets.
    let commented = GOOD.replacen(
        "topics: [fast-path]",
        &format!("topics: [fast-path] # {}", "[".repeat(100)),
        1,
    );
    check_text(&commented).expect("a comment's brackets are text");
    let quoted = GOOD.replacen(
        "topics: [fast-path]",
        &format!("topics: [fast-path, 'it''s {}']", "[".repeat(100)),
        1,
    );
    let err = check_text(&quoted).expect_err("not a topic of the vocabulary");
    assert!(!err.contains("nest more"), "{err}");
    // Past the bracket budget, however the brackets are quoted: refused before parsing.
    let many = GOOD.replacen(
        "topics: [fast-path]",
        &format!("topics: [fast-path, \"{}\"]", "[".repeat(300)),
        1,
    );
    let err = check_text(&many).expect_err("300 brackets in one block");
    assert!(err.contains("more than 256 `[` and `{`"), "{err}");
}

/// `.inf`, `.nan`, `null` and `~` as variant or cache values are refused with their
/// place (they were exported as `null`, and the default ran silently).
#[test]
fn null_and_non_finite_variant_values_are_refused_with_their_place() {
    for v in [".inf", "-.inf", ".nan", "null", "~"] {
        let text = GOOD.replacen(
            "variant: {cmpxchgDouble: slab-lock}",
            &format!("variant: {{cmpxchgDouble: {v}}}"),
            1,
        );
        let err = check_text(&text).expect_err(v);
        assert!(
            err.contains("step 5 \"Try\"")
                && err.contains("tryIt.variant.cmpxchgDouble: null, or a number with no JSON form"),
            "{v}: {err}"
        );
        let text = GOOD.replacen(
            "patches: []",
            &format!("patches: []\nvariant: {{tidStep: {v}}}"),
            1,
        );
        let err = check_text(&text).expect_err(v);
        assert!(
            err.contains("front matter: variant.tidStep: null"),
            "{v}: {err}"
        );
    }
    let text = GOOD.replacen(
        "check: {from: start,",
        "check: {from: start, cache: {minPartial: .nan},",
        1,
    );
    let err = check_text(&text).expect_err("nan");
    assert!(
        err.contains("front matter: exercises[1].check.cache.minPartial: null"),
        "{err}"
    );
}

/// A link whose id is not a kebab word (`#/lessons/__proto__`) is checked by that
/// id, not reported as an empty one; a link with no id says so.
#[test]
fn lesson_links_take_the_whole_segment() {
    let links: Vec<&str> = lesson_links(
        "[a](#/lessons/__proto__) [b](#/lessons/constructor/2) see #/lessons/fast-path-and-tid. [c](#/lessons/)",
    )
    .collect();
    assert_eq!(links, ["__proto__", "constructor", "fast-path-and-tid", ""]);
}

/// The prediction that motivated the spoiler rule: lesson 01 at git 3d9f932 asked at its step 4
/// how many objects `inuse` counts while the stage already read `inuse 4/4`, beside a freelist
/// that did change. Kept as it was (tests/fixtures/lesson-01-at-3d9f932/README.md); the checker
/// must refuse it there, naming the claims that already held.
#[test]
fn old_lesson_01_is_refused_at_its_step_4() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lesson-01-at-3d9f932");
    let r = check_dir(&dir);
    assert_eq!(r.exit_code(), 1, "{:?}", r.errors());
    let e = r.errors();
    assert!(
        e.iter().any(|m| m
            .contains("01-slab-and-objects/lesson.md: step 4 \"The CPU takes the whole list\"")
            && m.contains("predict.answer: slabs.P.frozen, slabs.P.inuse already hold")
            && m.contains("spoiler")),
        "{e:?}"
    );
}

/// A course of `n` copies of the good lesson, the i-th with its prediction's right answer at
/// `pos(i)` among `choices(i)`.
fn course(name: &str, n: usize, choices: impl Fn(usize) -> (Vec<&'static str>, usize)) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("slub-lessons-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        repo_lessons().join("vocabulary.json"),
        dir.join("vocabulary.json"),
    )
    .unwrap();
    for i in 0..n {
        let (cs, pos) = choices(i);
        let sub = dir.join(format!("{i:02}-sample{i}"));
        std::fs::create_dir_all(&sub).unwrap();
        let text = GOOD
            .replacen("id: sample", &format!("id: sample{i}"), 1)
            .replacen("question: What is next?", "question: Why is this next?", 1)
            .replacen(
                "choices: [the CAS, a retry]",
                &format!("choices: [{}]", cs.join(", ")),
                1,
            )
            .replacen(
                "answer: {choice: 0,",
                &format!("answer: {{choice: {pos},"),
                1,
            );
        std::fs::write(sub.join("lesson.md"), text).unwrap();
        std::fs::write(sub.join("scenario.json"), GOOD_SCENARIO).unwrap();
    }
    dir
}

/// The course's balance: no position holds the right answer in more than 40 % of the
/// predictions, and it is the unique longest choice in at most a third of them; a folder of
/// fewer than ten predictions is too small to judge.
#[test]
fn a_course_whose_predictions_can_be_passed_by_their_form_is_refused() {
    // Balanced: positions 0, 1, 2 in turn (4, 3, 3 of 10), choices of one length.
    let rot = |i: usize| {
        let right = "the CAS";
        let mut cs = vec!["a retry", "a crash"];
        cs.insert(i % 3, right);
        (cs, i % 3)
    };
    let dir = course("balanced", 10, rot);
    let r = check_dir(&dir);
    assert_eq!(r.exit_code(), 0, "{:?}", r.errors());
    let m = course::Measures::of(&r.lessons);
    assert_eq!((m.predictions.len(), m.unique_longest()), (10, 0));
    assert!(
        m.render()
            .contains("right answer at choice 0 (from 0): 4 (40 %"),
        "{}",
        m.render()
    );

    // Always the middle choice: 10 of 10 at position 1.
    let dir = course("middle", 10, |_| (vec!["a retry", "the CAS", "a crash"], 1));
    let e = check_dir(&dir).errors().join("\n");
    assert!(
        e.contains("the right answer is choice 1 (from 0) in 10 of 10 (100 %), more than 40 %"),
        "{e}"
    );

    // Positions spread, but the right answer always the longest.
    let dir = course("longest", 10, |i| {
        let mut cs = vec!["a retry", "a crash"];
        cs.insert(i % 3, "the compare-and-swap");
        (cs, i % 3)
    });
    let r = check_dir(&dir);
    assert_eq!(r.exit_code(), 1);
    let e = r.errors().join("\n");
    assert!(
        e.contains("the unique longest choice in 10 of 10 (100 %), more than a third"),
        "{e}"
    );
    assert!(!e.contains("more than 40 %"), "{e}");

    // No lesson asks why: every lesson from 02 on is named.
    let dir = course("why", 10, rot);
    for i in 0..10 {
        let f = dir.join(format!("{i:02}-sample{i}/lesson.md"));
        let t = std::fs::read_to_string(&f).unwrap().replacen(
            "question: Why is this next?",
            "question: What is next?",
            1,
        );
        std::fs::write(&f, t).unwrap();
    }
    let r = check_dir(&dir);
    assert_eq!(r.exit_code(), 1);
    let e = r.errors();
    let why: Vec<&String> = e
        .iter()
        .filter(|m| m.contains("no prediction asks why"))
        .collect();
    assert_eq!(why.len(), 8, "{e:?}");
    assert!(why[0].contains("02-sample2/lesson.md"), "{e:?}");

    // Nine predictions all in the middle: too few to judge.
    let dir = course("small", 9, |_| (vec!["a retry", "the CAS", "a crash"], 1));
    assert_eq!(check_dir(&dir).exit_code(), 0);
    for name in ["balanced", "middle", "longest", "why", "small"] {
        let _ = std::fs::remove_dir_all(
            std::env::temp_dir().join(format!("slub-lessons-{}-{name}", std::process::id())),
        );
    }
}
