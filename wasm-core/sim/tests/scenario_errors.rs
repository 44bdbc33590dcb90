//! Every class of malformed scenario is rejected by `slub_sim::scenario::parse` with the JSON
//! path of the mistake and a message that says why (design.md §4).

use serde_json::{json, Value};
use slub_sim::scenario::{parse, ScenarioError};

/// A valid scenario in the shape of design.md §4.
fn base() -> Value {
    json!({
        "schemaVersion": 1,
        "name": "remote free into a frozen slab",
        "allocator": "slub",
        "cpus": 2,
        "nodes": 1,
        "cache": { "name": "kmalloc-64", "objectSize": 64, "objectsPerSlab": 4,
                   "offset": 0, "minPartial": 1, "cpuPartial": 2, "pageAllocFail": false },
        "variant": { "fastpath": "tid-loop", "prefetch": true, "cpuPartial": true,
                     "cmpxchgDouble": "native", "preempt": "full" },
        "setup":  [ { "cpu": 0, "op": "alloc", "var": "a" } ],
        "tasks":  [ { "id": "A", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" } ] },
                    { "id": "B", "cpu": 1, "ops": [ { "op": "free", "var": "a" } ] } ],
        "irqs":   [ { "id": "I", "cpu": 0, "ops": [ { "op": "alloc", "var": "y" },
                                                    { "op": "free",  "var": "y" } ] } ],
        "schedule": [ "A", "A", "I", "I", "B", "migrate:A:1", "A" ]
    })
}

/// One malformed scenario: a name, how it is made from the base, where the error must be and
/// words its message must contain.
struct Case {
    name: &'static str,
    edit: fn(&mut Value),
    path: &'static str,
    needles: &'static [&'static str],
}

fn check(cases: &[Case]) {
    let mut failures = Vec::new();
    for c in cases {
        let mut v = base();
        (c.edit)(&mut v);
        match parse(&v.to_string()) {
            Ok(_) => failures.push(format!("{}: accepted", c.name)),
            Err(ScenarioError { path, message }) => {
                if path != c.path {
                    failures.push(format!(
                        "{}: path `{path}`, expected `{}` ({message})",
                        c.name, c.path
                    ));
                }
                for n in c.needles {
                    if !message.contains(n) {
                        failures.push(format!("{}: message `{message}` lacks `{n}`", c.name));
                    }
                }
                // The Display form starts with the path, so a one-line report names it.
                let shown = ScenarioError {
                    path: path.clone(),
                    message: message.clone(),
                };
                assert!(shown.to_string().starts_with(&path));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn obj(v: &mut Value) -> &mut serde_json::Map<String, Value> {
    v.as_object_mut().unwrap()
}

#[test]
fn base_scenario_is_valid() {
    let s = parse(&base().to_string()).unwrap();
    assert_eq!(s.cpus, 2);
    assert_eq!(s.tasks.len(), 2);
}

#[test]
fn json_syntax_errors_give_line_and_column() {
    let text = "{\n  \"schemaVersion\": 1,\n  \"cpus\": 2\n  \"tasks\": []\n}";
    let e = parse(text).unwrap_err();
    assert!(e.message.contains("invalid JSON"), "{e}");
    assert!(e.message.contains("line 4"), "{e}");
    assert!(e.message.contains("column"), "{e}");

    for text in ["", "{", "{\"schemaVersion\": 1,", "not json", "\u{0}"] {
        let e = parse(text).unwrap_err();
        assert!(e.message.contains("invalid JSON"), "{text:?}: {e}");
        assert!(e.message.contains("line"), "{text:?}: {e}");
    }
}

#[test]
fn syntax_errors_inside_name_the_enclosing_path() {
    let text = r#"{"schemaVersion": 1, "cpus": 1, "tasks": [{"id": "A",, "cpu": 0, "ops": []}]}"#;
    let e = parse(text).unwrap_err();
    assert_eq!(e.path, "tasks[0]", "{e}");
    assert!(
        e.message.contains("invalid JSON") && e.message.contains("column 54"),
        "{e}"
    );
}

#[test]
fn trailing_text_after_the_scenario() {
    let e = parse(&format!("{}\n{{}}", base())).unwrap_err();
    assert_eq!(e.path, "");
    assert!(e.message.contains("trailing characters"), "{e}");
    assert!(e.message.contains("line 2"), "{e}");
}

#[test]
fn root_that_is_not_an_object() {
    for text in ["[]", "1", "null", "\"scenario\"", "true"] {
        let e = parse(text).unwrap_err();
        assert_eq!(e.path, "", "{text}: {e}");
        assert!(e.message.contains("a scenario object"), "{text}: {e}");
    }
}

#[test]
fn unknown_fields() {
    check(&[
        Case {
            name: "at the root",
            edit: |v| {
                obj(v).insert("colour".into(), json!("red"));
            },
            path: "colour",
            needles: &["unknown field `colour`"],
        },
        Case {
            name: "misspelt root key",
            edit: |v| {
                let s = obj(v).remove("schedule").unwrap();
                obj(v).insert("schedules".into(), s);
            },
            path: "schedules",
            needles: &["unknown field `schedules`"],
        },
        Case {
            name: "in cache",
            edit: |v| {
                v["cache"]["objSize"] = json!(64);
            },
            path: "cache.objSize",
            needles: &["unknown field `objSize`"],
        },
        Case {
            name: "in variant",
            edit: |v| {
                v["variant"]["fastPath"] = json!("tid-loop");
            },
            path: "variant.fastPath",
            needles: &["unknown field `fastPath`"],
        },
        Case {
            name: "in a task",
            edit: |v| {
                v["tasks"][1]["priority"] = json!(3);
            },
            path: "tasks[1].priority",
            needles: &["unknown field `priority`"],
        },
        Case {
            name: "in an op",
            edit: |v| {
                v["tasks"][1]["ops"][0]["size"] = json!(64);
            },
            path: "tasks[1].ops[0].size",
            needles: &["unknown field `size`"],
        },
        Case {
            name: "in a setup op",
            edit: |v| {
                v["setup"][0]["when"] = json!(0);
            },
            path: "setup[0].when",
            needles: &["unknown field `when`"],
        },
        Case {
            name: "a key of another op",
            edit: |v| {
                v["irqs"][0]["ops"][1]["node"] = json!(0);
            },
            path: "irqs[0].ops[1].node",
            needles: &["`free` takes no `node`"],
        },
    ]);
}

#[test]
fn wrong_types_and_missing_fields() {
    check(&[
        Case {
            name: "cpus as a string",
            edit: |v| v["cpus"] = json!("2"),
            path: "cpus",
            needles: &["invalid type", "integer"],
        },
        Case {
            name: "cpus as a fraction",
            edit: |v| v["cpus"] = json!(1.5),
            path: "cpus",
            needles: &["expected an integer"],
        },
        Case {
            name: "var as a number",
            edit: |v| v["tasks"][1]["ops"][0]["var"] = json!(7),
            path: "tasks[1].ops[0].var",
            needles: &["invalid type", "string"],
        },
        Case {
            name: "tasks as an object",
            edit: |v| v["tasks"] = json!({ "A": [] }),
            path: "tasks",
            needles: &["invalid type"],
        },
        Case {
            name: "cache as an array",
            edit: |v| v["cache"] = json!(["kmalloc-64", 64]),
            path: "cache",
            needles: &["a cache object"],
        },
        Case {
            name: "pageAllocFail as a number",
            edit: |v| v["cache"]["pageAllocFail"] = json!(1),
            path: "cache.pageAllocFail",
            needles: &["invalid type", "boolean"],
        },
        Case {
            name: "schedule move as a number",
            edit: |v| v["schedule"][3] = json!(3),
            path: "schedule[3]",
            needles: &["invalid type"],
        },
        Case {
            name: "missing cpus",
            edit: |v| {
                obj(v).remove("cpus");
            },
            path: "",
            needles: &["missing field `cpus`"],
        },
        Case {
            name: "missing tasks",
            edit: |v| {
                obj(v).remove("tasks");
            },
            path: "",
            needles: &["missing field `tasks`"],
        },
        Case {
            name: "missing schemaVersion",
            edit: |v| {
                obj(v).remove("schemaVersion");
            },
            path: "",
            needles: &["missing field `schemaVersion`"],
        },
        Case {
            name: "missing op",
            edit: |v| v["tasks"][0]["ops"][0] = json!({ "var": "x" }),
            path: "tasks[0].ops[0]",
            needles: &["missing field `op`"],
        },
        Case {
            name: "alloc without var",
            edit: |v| v["tasks"][0]["ops"][0] = json!({ "op": "alloc" }),
            path: "tasks[0].ops[0]",
            needles: &["missing field `var`"],
        },
        Case {
            name: "unknown op",
            edit: |v| v["tasks"][0]["ops"][0]["op"] = json!("kmalloc"),
            path: "tasks[0].ops[0].op",
            needles: &[
                "unknown op `kmalloc`",
                "`alloc`",
                "`free`",
                "`flush`",
                "`touch`",
            ],
        },
        Case {
            name: "schema version 2",
            edit: |v| v["schemaVersion"] = json!(2),
            path: "schemaVersion",
            needles: &["version 1"],
        },
    ]);
}

#[test]
fn out_of_range_and_absurd_numbers_say_the_limit() {
    check(&[
        Case {
            name: "cpus 0",
            edit: |v| v["cpus"] = json!(0),
            path: "cpus",
            needles: &["1 to 8"],
        },
        Case {
            name: "cpus 1000",
            edit: |v| v["cpus"] = json!(1000),
            path: "cpus",
            needles: &["1000", "1 to 8"],
        },
        Case {
            name: "cpus -1",
            edit: |v| v["cpus"] = json!(-1),
            path: "cpus",
            needles: &["1 to 8"],
        },
        Case {
            name: "cpus 2^64-1",
            edit: |v| v["cpus"] = json!(u64::MAX),
            path: "cpus",
            needles: &["1 to 8"],
        },
        Case {
            name: "cpus 1e300",
            edit: |v| v["cpus"] = json!(1e300),
            path: "cpus",
            needles: &["1 to 8"],
        },
        Case {
            name: "nodes 0",
            edit: |v| v["nodes"] = json!(0),
            path: "nodes",
            needles: &["1 to 2"],
        },
        Case {
            name: "nodes > cpus",
            edit: |v| v["nodes"] = json!(3),
            path: "nodes",
            needles: &["1 to 2"],
        },
        Case {
            name: "objectsPerSlab 100000",
            edit: |v| v["cache"]["objectsPerSlab"] = json!(100000),
            path: "cache.objectsPerSlab",
            needles: &["1 to 64"],
        },
        Case {
            name: "objectsPerSlab -4",
            edit: |v| v["cache"]["objectsPerSlab"] = json!(-4),
            path: "cache.objectsPerSlab",
            needles: &["1 to 64"],
        },
        Case {
            name: "objectSize not a multiple of 8",
            edit: |v| v["cache"]["objectSize"] = json!(100),
            path: "cache.objectSize",
            needles: &["multiple of 8", "4096"],
        },
        Case {
            name: "objectSize huge",
            edit: |v| v["cache"]["objectSize"] = json!(1u64 << 40),
            path: "cache.objectSize",
            needles: &["4096"],
        },
        Case {
            name: "offset outside the object",
            edit: |v| v["cache"]["offset"] = json!(64),
            path: "cache.offset",
            needles: &["below objectSize"],
        },
        Case {
            name: "minPartial",
            edit: |v| v["cache"]["minPartial"] = json!(1000),
            path: "cache.minPartial",
            needles: &["0 to 64"],
        },
        Case {
            name: "cpuPartial negative",
            edit: |v| v["cache"]["cpuPartial"] = json!(-2),
            path: "cache.cpuPartial",
            needles: &["0 to 256"],
        },
        Case {
            name: "alloc node",
            edit: |v| v["tasks"][0]["ops"][0]["node"] = json!(1),
            path: "tasks[0].ops[0].node",
            needles: &["1 node"],
        },
        Case {
            name: "flush target",
            edit: |v| v["tasks"][0]["ops"][0] = json!({ "op": "flush", "target": 5 }),
            path: "tasks[0].ops[0].target",
            needles: &["0 to 1"],
        },
        // A flush with `target` is the CPU's death, and nothing may run on
        // the dead CPU afterwards; each op that would is refused with its place.
        Case {
            name: "setup op on a CPU setup flushed as dead",
            edit: |v| {
                v["cpus"] = json!(3);
                v["setup"] = json!([
                    { "cpu": 2, "op": "alloc", "var": "a" },
                    { "cpu": 1, "op": "flush", "target": 2 },
                    { "cpu": 2, "op": "alloc", "var": "b" }
                ]);
            },
            path: "setup[2]",
            needles: &["cpu2 is offline", "setup[1] flushed it as dead"],
        },
        Case {
            name: "task on a CPU setup flushed as dead",
            edit: |v| v["setup"] = json!([{ "cpu": 0, "op": "alloc", "var": "a" }, { "cpu": 0, "op": "flush", "target": 1 }]),
            path: "tasks[1].cpu",
            needles: &["cpu1 is offline", "setup[1]", "`B`"],
        },
        Case {
            name: "the first context on a CPU setup flushed as dead",
            edit: |v| v["setup"] = json!([{ "cpu": 0, "op": "alloc", "var": "a" }, { "cpu": 1, "op": "flush", "target": 0 }]),
            path: "tasks[0].cpu",
            needles: &["cpu0 is offline"],
        },
        Case {
            name: "setup flushing its own CPU as dead",
            edit: |v| v["setup"] = json!([{ "cpu": 0, "op": "alloc", "var": "a" }, { "cpu": 1, "op": "flush", "target": 1 }]),
            path: "setup[1].target",
            needles: &["own CPU"],
        },
        Case {
            name: "two contexts flushing each other's CPU as dead",
            edit: |v| {
                v["schedule"] = json!(["A"]);
                v["tasks"][0]["ops"] = json!([{ "op": "flush", "target": 1 }]);
                v["tasks"][1]["ops"] = json!([{ "op": "flush", "target": 0 }]);
            },
            path: "tasks[1].ops[0].target",
            needles: &["tasks[0].ops[0]", "neither could ever run"],
        },
        Case {
            name: "too many ops",
            edit: |v| {
                v["tasks"][0]["ops"] = Value::Array(vec![json!({ "op": "flush" }); 100_000]);
            },
            path: "tasks[0].ops",
            needles: &["at most 64"],
        },
        Case {
            name: "too many setup ops",
            edit: |v| {
                v["setup"] = Value::Array(vec![json!({ "cpu": 0, "op": "flush" }); 300]);
            },
            path: "setup",
            needles: &["at most 256"],
        },
        Case {
            name: "too many irqs",
            edit: |v| {
                v["irqs"] = Value::Array(
                    (0..9)
                        .map(|i| json!({ "id": format!("I{i}"), "cpu": 0, "ops": [] }))
                        .collect(),
                );
            },
            path: "irqs",
            needles: &["at most 8"],
        },
        Case {
            name: "no tasks",
            edit: |v| v["tasks"] = json!([]),
            path: "tasks",
            needles: &["at least one task"],
        },
    ]);
}

#[test]
fn variant_values() {
    check(&[
        Case {
            name: "unknown era",
            edit: |v| v["variant"]["era"] = json!("v5.10"),
            path: "variant.era",
            needles: &["v5.10", "v3.1", "v3.10", "v4.0", "v6.8"],
        },
        Case {
            name: "prefetch string",
            edit: |v| v["variant"]["prefetch"] = json!("r"),
            path: "variant.prefetch",
            needles: &["true, false or \"w\""],
        },
        Case {
            name: "prefetch number",
            edit: |v| v["variant"]["prefetch"] = json!(1),
            path: "variant.prefetch",
            needles: &["true, false or \"w\""],
        },
        Case {
            name: "unknown fastpath",
            edit: |v| v["variant"]["fastpath"] = json!("lockless"),
            path: "variant.fastpath",
            needles: &["unknown variant `lockless`", "tid-loop"],
        },
        Case {
            name: "tidStep not a power of two",
            edit: |v| v["variant"]["tidStep"] = json!(6),
            path: "variant.tidStep",
            needles: &["power of two"],
        },
        Case {
            name: "tidStep too big",
            edit: |v| v["variant"]["tidStep"] = json!(128),
            path: "variant.tidStep",
            needles: &["64"],
        },
        Case {
            name: "tidStep negative",
            edit: |v| v["variant"]["tidStep"] = json!(-4),
            path: "variant.tidStep",
            needles: &["power of two"],
        },
    ]);
}

#[test]
fn variables() {
    check(&[
        Case {
            name: "unbound variable",
            edit: |v| v["tasks"][1]["ops"][0]["var"] = json!("b"),
            path: "tasks[1].ops[0].var",
            needles: &["unbound variable `b`"],
        },
        Case {
            name: "touch of an unbound variable",
            edit: |v| v["irqs"][0]["ops"][1] = json!({ "op": "touch", "var": "q" }),
            path: "irqs[0].ops[1].var",
            needles: &["unbound variable `q`"],
        },
        Case {
            name: "doubly bound",
            edit: |v| v["irqs"][0]["ops"][0]["var"] = json!("x"),
            path: "irqs[0].ops[0].var",
            needles: &["variable `x` is bound twice", "tasks[0].ops[0]"],
        },
        Case {
            name: "doubly freed",
            edit: |v| {
                v["tasks"][0]["ops"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({ "op": "free", "var": "a" }));
            },
            path: "tasks[1].ops[0].var",
            needles: &["variable `a` is freed twice (first at tasks[0].ops[1])"],
        },
        Case {
            name: "bad variable name",
            edit: |v| v["tasks"][0]["ops"][0]["var"] = json!("x y"),
            path: "tasks[0].ops[0].var",
            needles: &["bad variable name"],
        },
        Case {
            name: "setup frees before it allocates",
            edit: |v| {
                v["setup"] = json!([{ "cpu": 0, "op": "free", "var": "a" },
                                    { "cpu": 0, "op": "alloc", "var": "a" }]);
                v["tasks"][1]["ops"] = json!([]);
            },
            path: "setup[0].var",
            needles: &["before its alloc at setup[1]"],
        },
        Case {
            name: "setup uses a task's variable",
            edit: |v| {
                v["setup"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({ "cpu": 1, "op": "touch", "var": "x" }));
            },
            path: "setup[1].var",
            needles: &["before its alloc at tasks[0].ops[0]"],
        },
        Case {
            name: "touch after free in one list",
            edit: |v| {
                v["irqs"][0]["ops"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({ "op": "touch", "var": "y" }));
            },
            path: "irqs[0].ops[2].var",
            needles: &["use after free", "irqs[0].ops[1]"],
        },
    ]);
}

#[test]
fn context_ids_and_cpus() {
    check(&[
        Case {
            name: "empty id",
            edit: |v| v["tasks"][0]["id"] = json!(""),
            path: "tasks[0].id",
            needles: &["must not be empty"],
        },
        Case {
            name: "id with a colon",
            edit: |v| v["tasks"][0]["id"] = json!("A:1"),
            path: "tasks[0].id",
            needles: &["bad context id `A:1`"],
        },
        Case {
            name: "id starting with a digit",
            edit: |v| v["irqs"][0]["id"] = json!("0I"),
            path: "irqs[0].id",
            needles: &["bad context id `0I`"],
        },
        Case {
            name: "reserved id",
            edit: |v| v["tasks"][1]["id"] = json!("migrate"),
            path: "tasks[1].id",
            needles: &["reserved"],
        },
        Case {
            name: "duplicate task ids",
            edit: |v| v["tasks"][1]["id"] = json!("A"),
            path: "tasks[1].id",
            needles: &["duplicate context id `A`", "tasks[0].id"],
        },
        Case {
            name: "irq id equal to a task id",
            edit: |v| v["irqs"][0]["id"] = json!("B"),
            path: "irqs[0].id",
            needles: &["duplicate context id `B`", "tasks[1].id"],
        },
        Case {
            name: "task cpu out of range",
            edit: |v| v["tasks"][1]["cpu"] = json!(2),
            path: "tasks[1].cpu",
            needles: &["0 to 1"],
        },
        Case {
            name: "irq cpu out of range",
            edit: |v| v["irqs"][0]["cpu"] = json!(8),
            path: "irqs[0].cpu",
            needles: &["0 to 1"],
        },
        Case {
            name: "setup cpu negative",
            edit: |v| v["setup"][0]["cpu"] = json!(-1),
            path: "setup[0].cpu",
            needles: &["0 to 1"],
        },
    ]);
}

#[test]
fn schedule_names_existing_contexts() {
    check(&[
        Case {
            name: "unknown context",
            edit: |v| v["schedule"][4] = json!("C"),
            path: "schedule[4]",
            needles: &["bad move `C`", "`A`, `B`, `I`"],
        },
        Case {
            name: "migrate an unknown task",
            edit: |v| v["schedule"][5] = json!("migrate:Z:1"),
            path: "schedule[5]",
            needles: &["no task is called `Z`"],
        },
        Case {
            name: "migrate an irq",
            edit: |v| v["schedule"][5] = json!("migrate:I:1"),
            path: "schedule[5]",
            needles: &["only tasks migrate"],
        },
        Case {
            name: "migrate to a cpu out of range",
            edit: |v| v["schedule"][5] = json!("migrate:A:9"),
            path: "schedule[5]",
            needles: &["0 to 1"],
        },
        Case {
            name: "malformed migrate",
            edit: |v| v["schedule"][5] = json!("migrate:A"),
            path: "schedule[5]",
            needles: &["migrate:<task>:<cpu>"],
        },
    ]);
}

#[test]
fn huge_and_deep_inputs_do_not_panic() {
    // Nesting past serde_json's recursion limit is an error, not a stack overflow.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse(&deep).is_err());
    let mut v = base();
    v["cache"]["name"] = json!("x".repeat(1 << 20));
    assert!(parse(&v.to_string()).is_ok());
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    fn small_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            (0u64..80).prop_map(|n| json!(n)),
            any::<f64>().prop_map(|f| json!(f)),
            "[a-zA-Z0-9:_ .-]{0,12}".prop_map(Value::String),
            prop::sample::select(vec![
                "alloc",
                "free",
                "flush",
                "touch",
                "tune",
                "A",
                "B",
                "I",
                "x",
                "a",
                "migrate:A:1",
                "v3.1",
                "v6.8",
                "w",
                "tid-loop"
            ])
            .prop_map(|s| json!(s)),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-zA-Z]{1,8}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// Replace the value at a random path of `v` (chosen by `picks`) with `new`.
    fn replace_somewhere(v: &mut Value, picks: &[usize], new: Value) {
        let Some((&p, rest)) = picks.split_first() else {
            *v = new;
            return;
        };
        match v {
            Value::Object(m) if !m.is_empty() => {
                let key = m.keys().nth(p % m.len()).unwrap().clone();
                replace_somewhere(m.get_mut(&key).unwrap(), rest, new)
            }
            Value::Array(a) if !a.is_empty() => {
                let n = a.len();
                replace_somewhere(&mut a[p % n], rest, new)
            }
            _ => *v = new,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_text(text in "\\PC{0,200}") {
            let _ = parse(&text);
        }

        #[test]
        fn mutated_scenarios(picks in prop::collection::vec(any::<usize>(), 0..6), new in small_json()) {
            let mut v = base();
            replace_somewhere(&mut v, &picks, new);
            match parse(&v.to_string()) {
                Ok(s) => prop_assert!(slub_sim::scenario::validate(&s).is_ok()),
                Err(e) => prop_assert!(!e.message.is_empty()),
            }
        }
    }
}

/// SLAB (`allocator: slab`) reads only `preempt`, `slabGrow` and `slabSharedFree` (and only it
/// has the op `tune`), and its tunables only make
/// sense for it: a key meant for the other allocator is an error naming it, not ignored.
#[test]
fn keys_of_the_other_allocator_are_errors() {
    fn slab(v: &mut Value) {
        v["allocator"] = json!("slab");
        v["variant"] = json!({ "preempt": "full" });
    }
    check(&[
        Case {
            name: "slabGrow under SLUB",
            edit: |v| v["variant"]["slabGrow"] = json!("locked"),
            path: "variant.slabGrow",
            needles: &["SLAB", "allocator"],
        },
        Case {
            name: "a SLAB tunable under SLUB",
            edit: |v| v["cache"]["limit"] = json!(4),
            path: "cache.limit",
            needles: &["SLAB tunable"],
        },
        Case {
            name: "a SLUB key under SLAB",
            edit: |v| {
                slab(v);
                v["variant"]["fastpath"] = json!("tid-loop");
            },
            path: "variant.fastpath",
            needles: &["SLUB variant key", "preempt", "slabGrow"],
        },
        Case {
            name: "an era under SLAB",
            edit: |v| {
                slab(v);
                v["variant"]["era"] = json!("v3.10");
            },
            path: "variant.era",
            needles: &["SLUB"],
        },
        Case {
            name: "an unknown slabGrow",
            edit: |v| {
                slab(v);
                v["variant"]["slabGrow"] = json!("sometimes");
            },
            path: "variant.slabGrow",
            needles: &["lockless", "locked"],
        },
        Case {
            name: "tune under SLUB",
            edit: |v| v["tasks"][0]["ops"][0] = json!({ "op": "tune" }),
            path: "tasks[0].ops[0].op",
            needles: &[
                "`tune`",
                "do_tune_cpucache",
                "SLUB",
                "\"allocator\": \"slab\"",
            ],
        },
        Case {
            name: "tune under Linux 7.0's sheaves",
            edit: |v| {
                v["variant"] = json!({ "era": "v7.0" });
                v["cache"].as_object_mut().unwrap().remove("cpuPartial");
                v["tasks"][0]["ops"][0] = json!({ "op": "tune" });
            },
            path: "tasks[0].ops[0].op",
            needles: &["`tune`", "sheaves", "\"allocator\": \"slab\""],
        },
        Case {
            name: "slabSharedFree under Linux 7.0's sheaves",
            edit: |v| {
                v["variant"] = json!({ "era": "v7.0", "slabSharedFree": "at-once" });
                v["cache"].as_object_mut().unwrap().remove("cpuPartial");
            },
            path: "variant.slabSharedFree",
            needles: &["slabSharedFree", "SLAB"],
        },
        Case {
            name: "slabSharedFree under SLUB",
            edit: |v| v["variant"]["slabSharedFree"] = json!("at-once"),
            path: "variant.slabSharedFree",
            needles: &["SLAB", "allocator"],
        },
        Case {
            name: "an unknown slabSharedFree",
            edit: |v| {
                slab(v);
                v["variant"]["slabSharedFree"] = json!("later");
            },
            path: "variant.slabSharedFree",
            needles: &["after-grace-period", "at-once"],
        },
        Case {
            name: "tune in an interrupt handler",
            edit: |v| {
                slab(v);
                v["irqs"][0]["ops"][0] = json!({ "op": "tune" });
            },
            path: "irqs[0].ops[0].op",
            needles: &["`tune`", "task", "synchronize_sched()"],
        },
        Case {
            name: "tune in setup",
            edit: |v| {
                slab(v);
                v["setup"][0] = json!({ "cpu": 0, "op": "tune" });
                v["tasks"][1]["ops"][0] = json!({ "op": "tune" });
            },
            path: "setup[0].op",
            needles: &["`tune`", "setup", "task"],
        },
        Case {
            name: "tune with a variable",
            edit: |v| {
                slab(v);
                v["tasks"][0]["ops"][0] = json!({ "op": "tune", "var": "x" });
            },
            path: "tasks[0].ops[0].var",
            needles: &["op `tune` takes no `var`"],
        },
        Case {
            name: "batchcount above the limit",
            edit: |v| {
                slab(v);
                v["cache"]["limit"] = json!(4);
                v["cache"]["batchcount"] = json!(5);
            },
            path: "cache.batchcount",
            needles: &["limit (4)"],
        },
        Case {
            name: "a shared array too large",
            edit: |v| {
                slab(v);
                v["cache"]["limit"] = json!(512);
                v["cache"]["shared"] = json!(8);
            },
            path: "cache.shared",
            needles: &["512"],
        },
    ]);
}
