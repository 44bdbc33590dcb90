//! The invariants page (`lessons/course/invariants.json`, `#/lessons/invariants`) and the
//! checker (`src/model`) say the same thing, item by item:
//! - every id the checker reports is on the page, and every id on the page is reported by the
//!   checker, except those the page marks `"checked": false` (which no check may carry);
//! - each `checks` entry of the page (words of the checker's code or messages) is in the
//!   checker, so a clause the page states is one a check makes;
//! - the clauses the page once stated and no check makes (the review's list) are gone.
//!
//! The checker is read as source: every file under `src/model` except the negative controls
//! (`negative.rs`, tests that name ids too).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn checker_source() -> String {
    fn walk(dir: &Path, out: &mut String) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs")
                && p.file_name().is_some_and(|n| n != "negative.rs")
            {
                out.push_str(&std::fs::read_to_string(&p).unwrap());
                out.push('\n');
            }
        }
    }
    let mut s = String::new();
    walk(&root().join("wasm-core/sim/src/model"), &mut s);
    s
}

/// The ids in string literals: `"INV-12"`, `"INV-S6"`, `"SLAB-3"`.
fn reported_ids(src: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for prefix in ["\"INV-", "\"SLAB-"] {
        for (at, _) in src.match_indices(prefix) {
            let rest = &src[at + 1..];
            let Some(end) = rest.find('"') else { continue };
            let id = &rest[..end];
            let tail = id.split_once('-').map_or("", |(_, t)| t);
            let digits = tail.strip_prefix('S').unwrap_or(tail);
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                out.insert(id.to_string());
            }
        }
    }
    out
}

fn page() -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("lessons/course/invariants.json")).unwrap();
    let j: Value = serde_json::from_str(&text).unwrap();
    j["invariants"].as_array().unwrap().clone()
}

fn checked(v: &Value) -> bool {
    v.get("checked").and_then(Value::as_bool).unwrap_or(true)
}

#[test]
fn every_id_on_the_page_is_checked_and_every_check_is_on_the_page() {
    let src = checker_source();
    let reported = reported_ids(&src);
    let page = page();
    let on_page: BTreeSet<String> = page
        .iter()
        .filter(|v| checked(v))
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    let unchecked: BTreeSet<String> = page
        .iter()
        .filter(|v| !checked(v))
        .map(|v| v["id"].as_str().unwrap().to_string())
        .collect();
    assert!(
        reported.len() >= 30,
        "the scan lost the checker: {reported:?}"
    );
    let missing: Vec<_> = reported.difference(&on_page).collect();
    let stale: Vec<_> = on_page.difference(&reported).collect();
    assert!(
        missing.is_empty() && stale.is_empty(),
        "reported but not on the page (or marked unchecked): {missing:?}; on the page but reported by no check: {stale:?}"
    );
    // An invariant the page calls unchecked says so in its words.
    for v in page.iter().filter(|v| !checked(v)) {
        let broken = v["broken"].as_str().unwrap();
        assert!(
            broken.starts_with("Not checked"),
            "{}: marked unchecked, but the page does not say so: {broken}",
            v["id"]
        );
    }
    assert_eq!(
        unchecked,
        ["INV-8", "INV-S14", "INV-S4", "INV-S8"]
            .map(String::from)
            .into_iter()
            .collect::<BTreeSet<_>>()
    );
}

#[test]
fn each_clause_the_page_cites_is_in_the_checker() {
    let src = checker_source();
    for v in page() {
        for c in v
            .get("checks")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let words = c.as_str().unwrap();
            assert!(
                src.contains(words),
                "{}: the page cites the check `{words}`, which is not in src/model",
                v["id"]
            );
        }
    }
}

/// The review's list: what the page said and no check does (or said backwards).
#[test]
fn the_unchecked_clauses_are_not_stated() {
    let gone: &[(&str, &str)] = &[
        ("INV-11", "never decreases"),
        ("INV-11", "No variant or schedule of the course breaks it"),
        ("INV-13", "local lock"),
        ("INV-13", "`slab_lock`;"),
        ("INV-S1", "fails half-way under `refillFailFlush` ("),
        ("INV-S1", "#/lessons/why-the-tid-went"),
        ("INV-S6", "Broken with INV-S1"),
        ("INV-S6", "barn lock is taken after"),
        ("INV-S8", "implied by"),
        ("INV-8", "follows from INV-3 and INV-6 in every state"),
    ];
    let page = page();
    for (id, words) in gone {
        let v = page.iter().find(|v| v["id"] == *id).unwrap();
        let text = format!("{} {}", v["statement"], v["broken"]);
        assert!(!text.contains(words), "{id} still says `{words}`: {text}");
    }
    // The six items the issue names each cite their checks, or are marked unchecked.
    for id in ["INV-11", "INV-13", "INV-S1", "INV-S6", "INV-8"] {
        let v = page.iter().find(|v| v["id"] == id).unwrap();
        assert!(
            v["checks"].as_array().is_some_and(|c| !c.is_empty()),
            "{id}: no checks cited"
        );
    }
}
