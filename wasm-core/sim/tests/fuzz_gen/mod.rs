//! The scenario mutator shared by the fuzz harnesses: the library's (`slub-sim`'s
//! `tests/fuzz.rs`) and the binary's (`slub-lab`'s `tests/fuzz_cli.rs`, which includes this
//! file by path). Seeded and reproducible: the same seed gives the same mutants.

#![allow(dead_code)]

use serde_json::Value;
use std::path::PathBuf;

/// xorshift64*: small, seeded, reproducible; no crate needed for a test's dice.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

pub fn corpus() -> Vec<String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["wasm-core/sim/tests/scenarios", "lessons"] {
        let mut todo = vec![root.join(dir)];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).expect("corpus dir").flatten() {
                let p = e.path();
                if p.is_dir() {
                    todo.push(p);
                } else if p.extension().is_some_and(|x| x == "json")
                    && p.file_name().is_some_and(|n| n != "vocabulary.json")
                {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("corpus file"))
        .collect();
    assert!(texts.len() >= 20, "only {} corpus scenarios", texts.len());
    texts
}

/// Every place in a JSON value, as a path of keys and indices.
fn places(v: &Value, here: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(here.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                here.push(Value::from(k.as_str()));
                places(x, here, out);
                here.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                here.push(Value::from(i));
                places(x, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    let mut cur = v;
    for p in path {
        cur = match p {
            Value::String(k) => cur.get_mut(k.as_str())?,
            Value::Number(i) => cur.get_mut(i.as_u64()? as usize)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Values a careless or hostile author writes.
pub fn odd_value(r: &mut Rng) -> Value {
    let pick = [
        Value::from(0),
        Value::from(-1),
        Value::from(1),
        Value::from(2),
        Value::from(7),
        Value::from(64),
        Value::from(65),
        Value::from(4096),
        Value::from(u64::MAX),
        Value::from(1.5),
        Value::from(""),
        Value::from("A"),
        Value::from("x"),
        Value::from("migrate:A:1"),
        Value::from("v6.8"),
        Value::from("no-tid"),
        Value::from("__proto__"),
        Value::from("a".repeat(40)),
        Value::Null,
        Value::Bool(true),
        Value::Array(vec![]),
        serde_json::json!({}),
    ];
    pick[r.below(pick.len())].clone()
}

/// The longest schedule a scenario may have (`scenario::MAX_SCHEDULE_MOVES`), restated so
/// this file needs no crate of its own; the harnesses check it is the library's.
pub const MAX_SCHEDULE_MOVES: usize = 100_000;

pub fn mutate(v: &mut Value, r: &mut Rng) {
    // Now and then a schedule at its ceiling, or one move past it.
    if r.below(100) == 0 {
        if let Value::Object(m) = v {
            let n = MAX_SCHEDULE_MOVES + r.below(2);
            let mv = ["A", "T", "migrate:T:1"][r.below(3)];
            m.insert("schedule".into(), Value::Array(vec![Value::from(mv); n]));
        }
        return;
    }
    let mut all = Vec::new();
    places(v, &mut Vec::new(), &mut all);
    let path = all[r.below(all.len())].clone();
    let donor_path = all[r.below(all.len())].clone();
    let donor = at(&mut v.clone(), &donor_path)
        .cloned()
        .unwrap_or(Value::Null);
    let Some(target) = at(v, &path) else { return };
    match r.below(6) {
        0 => *target = odd_value(r),
        1 => *target = donor,
        2 => {
            if let Value::Array(a) = target {
                if !a.is_empty() {
                    let i = r.below(a.len());
                    let x = a[i].clone();
                    a.insert(i, x);
                }
            }
        }
        3 => {
            if let Value::Array(a) = target {
                if !a.is_empty() {
                    a.remove(r.below(a.len()));
                }
            } else if let Value::Object(m) = target {
                let keys: Vec<String> = m.keys().cloned().collect();
                if !keys.is_empty() {
                    m.remove(&keys[r.below(keys.len())]);
                }
            }
        }
        4 => {
            if let Value::Object(m) = target {
                let keys = [
                    "variant", "era", "fastpath", "cpu", "var", "target", "node", "extra",
                ];
                m.insert(keys[r.below(keys.len())].to_string(), odd_value(r));
            }
        }
        _ => {
            if let Value::Number(n) = target {
                let x = n.as_i64().unwrap_or(0);
                *target = Value::from(x + [-1, 1, 8, 1000][r.below(4)]);
            }
        }
    }
}

/// A mutant as text: mostly the value's JSON, sometimes cut or with a byte changed.
pub fn as_text(v: &Value, r: &mut Rng) -> String {
    let mut s = v.to_string();
    match r.below(10) {
        0 if !s.is_empty() => s.truncate(r.below(s.len())),
        1 if !s.is_empty() => {
            let i = r.below(s.len());
            if s.is_char_boundary(i) && s.is_char_boundary(i + 1) {
                let c = ['{', '}', '"', ',', '9', ':', '[', ' '][r.below(8)];
                s.replace_range(i..i + 1, &c.to_string());
            }
        }
        _ => {}
    }
    s
}
