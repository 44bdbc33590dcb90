//! The scenario format's unit tests: what parses, and every refusal with its path and words.

use super::*;
use serde_json::{json, Value};

/// A small valid scenario in the shape of design.md §4.
fn base() -> Value {
    json!({
        "schemaVersion": 1,
        "name": "remote free",
        "cpus": 2,
        "setup": [ { "cpu": 0, "op": "alloc", "var": "a" } ],
        "tasks": [
            { "id": "A", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" } ] },
            { "id": "B", "cpu": 1, "ops": [ { "op": "free", "var": "a" } ] }
        ],
        "irqs": [ { "id": "I", "cpu": 0, "ops": [ { "op": "alloc", "var": "y" },
                                                   { "op": "free", "var": "y" } ] } ],
        "schedule": [ "A", "A", "I", "I", "B", "migrate:A:1", "A" ]
    })
}

fn parse_value(v: &Value) -> Result<Scenario, ScenarioError> {
    parse(&v.to_string())
}

/// Apply `edit` to the base scenario and expect an error at `path` whose message contains
/// `needle`.
#[track_caller]
fn rejects(edit: impl FnOnce(&mut Value), path: &str, needle: &str) -> ScenarioError {
    let mut v = base();
    edit(&mut v);
    let e = parse_value(&v).expect_err("scenario should be rejected");
    assert_eq!(e.path, path, "wrong path for {e}");
    assert!(
        e.message.contains(needle),
        "message `{}` lacks `{needle}`",
        e.message
    );
    e
}

#[test]
fn design_example_parses_with_defaults() {
    let s = parse_value(&base()).unwrap();
    assert_eq!(s.schema_version, 1);
    assert_eq!(s.name, "remote free");
    assert_eq!(s.allocator, Allocator::Slub);
    assert_eq!(s.nodes, 1);
    assert_eq!(s.cache, CacheConfig::default());
    assert_eq!(s.cache.name, "kmalloc-64");
    assert_eq!(s.variant, Variant::default());
    assert_eq!(
        s.setup,
        vec![SetupOp {
            cpu: 0,
            op: Op::Alloc {
                var: "a".into(),
                node: None
            }
        }]
    );
    assert_eq!(s.tasks.len(), 2);
    assert_eq!(s.irqs[0].ops[1], Op::Free { var: "y".into() });
    assert_eq!(s.schedule.as_ref().unwrap().len(), 7);
}

#[test]
fn design_section4_example_verbatim() {
    let text = r#"{
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
    }"#;
    let s = parse(text).unwrap();
    assert_eq!(s.variant.fastpath, Fastpath::TidLoop);
    assert_eq!(s.variant.discard, Discard::Gt);
}

#[test]
fn minimal_scenario_gets_every_default() {
    let s = parse(r#"{"schemaVersion":1,"cpus":1,"tasks":[{"id":"A","cpu":0,"ops":[]}]}"#).unwrap();
    assert_eq!(s.name, "untitled");
    assert_eq!(s.nodes, 1);
    assert!(s.setup.is_empty() && s.irqs.is_empty());
    assert_eq!(s.schedule, None);
    assert_eq!(s.variant.tid_step, None);
    assert_eq!(s.tid_step(), 1);
    let s =
        parse(r#"{"schemaVersion":1,"name":"","cpus":1,"tasks":[{"id":"A","cpu":0,"ops":[]}]}"#)
            .unwrap();
    assert_eq!(s.name, "untitled");
}

#[test]
fn cache_keys_are_individually_optional() {
    let mut v = base();
    v["cache"] = json!({ "objectSize": 128, "pageAllocFail": true });
    let s = parse_value(&v).unwrap();
    assert_eq!(s.cache.object_size, 128);
    assert!(s.cache.page_alloc_fail);
    assert_eq!(s.cache.objects_per_slab, 4);
    assert_eq!(s.cache.name, "kmalloc-64");
    assert_eq!(s.cache.cpu_partial, 2);
}

#[test]
fn allocator_slab_parses() {
    let mut v = base();
    v["allocator"] = json!("slab");
    assert_eq!(parse_value(&v).unwrap().allocator, Allocator::Slab);
    rejects(
        |v| v["allocator"] = json!("slob"),
        "allocator",
        "unknown variant `slob`",
    );
}

#[test]
fn era_bundles() {
    let era = |e: &str| {
        let mut v = base();
        v["variant"] = json!({ "era": e });
        parse_value(&v).unwrap().variant
    };
    assert_eq!(era("v3.10"), Variant::default());
    let v31 = era("v3.1");
    assert_eq!(v31.fastpath, Fastpath::TidUnguarded);
    assert!(!v31.cpu_partial);
    assert_eq!(v31.prefetch, Prefetch::Off);
    assert_eq!(v31.free_retry_lock, FreeRetryLock::Hold);
    assert_eq!(v31.slowpath, Slowpath::IrqOff);
    assert_eq!(v31.discard, Discard::Gt);
    let v40 = era("v4.0");
    assert_eq!(
        v40,
        Variant {
            fastpath: Fastpath::TidLoop,
            discard: Discard::Ge,
            ..Variant::default()
        }
    );
    let v68 = era("v6.8");
    assert_eq!(
        v68,
        Variant {
            fastpath: Fastpath::TidDirect,
            slowpath: Slowpath::LocalLock,
            cpu_partial_frozen: false,
            deactivate: Deactivate::Splice,
            discard: Discard::Ge,
            prefetch: Prefetch::Write,
            ..Variant::default()
        }
    );
    for e in [Era::V3_1, Era::V3_10, Era::V4_0, Era::V6_8] {
        assert_eq!(era(e.as_str()), Variant::for_era(e));
    }
}

#[test]
fn explicit_keys_override_the_era() {
    let mut v = base();
    v["variant"] = json!({ "era": "v6.8", "prefetch": false, "discard": "gt", "tidStep": 8,
                           "preempt": "none", "cmpxchgDouble": "slab-lock" });
    let var = parse_value(&v).unwrap().variant;
    assert_eq!(var.fastpath, Fastpath::TidDirect);
    assert_eq!(var.prefetch, Prefetch::Off);
    assert_eq!(var.discard, Discard::Gt);
    assert_eq!(var.tid_step, Some(8));
    assert_eq!(var.preempt, Preempt::None);
    assert_eq!(var.cmpxchg_double, CmpxchgDouble::SlabLock);
    // Order of keys does not matter: the era is applied first.
    let mut v = base();
    v["variant"] = json!({ "fastpath": "no-tid", "era": "v4.0" });
    assert_eq!(parse_value(&v).unwrap().variant.fastpath, Fastpath::NoTid);
}

#[test]
fn variant_errors() {
    rejects(
        |v| v["variant"] = json!({ "era": "v5.0" }),
        "variant.era",
        "unknown variant `v5.0`",
    );
    rejects(
        |v| v["variant"] = json!({ "prefetch": "r" }),
        "variant.prefetch",
        "true, false or \"w\"",
    );
    rejects(
        |v| v["variant"] = json!({ "prefetch": 1 }),
        "variant.prefetch",
        "true, false or \"w\"",
    );
    rejects(
        |v| v["variant"] = json!({ "fastpath": "fast" }),
        "variant.fastpath",
        "unknown variant",
    );
    rejects(
        |v| v["variant"] = json!({ "fastPath": "tid-loop" }),
        "variant.fastPath",
        "unknown field",
    );
    rejects(
        |v| v["variant"] = json!({ "cpuPartial": "yes" }),
        "variant.cpuPartial",
        "invalid type",
    );
    for bad in [0, 3, 128, -2] {
        rejects(
            |v| v["variant"] = json!({ "tidStep": bad }),
            "variant.tidStep",
            "power of two",
        );
    }
    for good in [1u64, 2, 4, 64] {
        let mut v = base();
        v["variant"] = json!({ "tidStep": good });
        assert_eq!(parse_value(&v).unwrap().tid_step(), good);
    }
    let mut v = base();
    v["variant"] = json!({ "tidStep": null });
    assert_eq!(parse_value(&v).unwrap().variant.tid_step, None);
    let mut v = base();
    v["variant"] = json!({ "prefetch": "w" });
    assert_eq!(parse_value(&v).unwrap().variant.prefetch, Prefetch::Write);
}

#[test]
fn syntax_errors_give_line_and_column() {
    let e = parse("{\n  \"schemaVersion\": 1,\n  \"cpus\": 2,,\n}").unwrap_err();
    assert!(e.message.contains("invalid JSON"), "{e}");
    assert!(e.message.contains("line 3"), "{e}");
    assert!(e.message.contains("column"), "{e}");
    let e = parse("").unwrap_err();
    assert!(e.message.contains("invalid JSON"), "{e}");
    let e = parse(&format!("{} x", base())).unwrap_err();
    assert!(e.message.contains("trailing"), "{e}");
    let e = parse("[1, 2]").unwrap_err();
    assert_eq!(e.path, "");
    assert!(e.message.contains("a scenario object"), "{e}");
    // serde's positional-array form of a struct is not part of the format.
    let positional = json!([1, "x", "slub", 1, 1, null, null, [], [["A", 0, []]]]);
    assert!(parse_value(&positional).is_err());
    rejects(
        |v| v["cache"] = json!(["kmalloc-64", 64]),
        "cache",
        "a cache object",
    );
    rejects(
        |v| v["tasks"][0] = json!(["A", 0, []]),
        "tasks[0]",
        "a context object",
    );
    rejects(
        |v| v["tasks"][0]["ops"][0] = json!(["alloc", "x"]),
        "tasks[0].ops[0]",
        "an op object",
    );
    rejects(
        |v| v["variant"] = json!("v3.1"),
        "variant",
        "a variant object",
    );
}

#[test]
fn unknown_fields_name_their_path() {
    rejects(
        |v| v["colour"] = json!("red"),
        "colour",
        "unknown field `colour`",
    );
    rejects(
        |v| v["cache"] = json!({ "objSize": 64 }),
        "cache.objSize",
        "unknown field",
    );
    rejects(
        |v| v["tasks"][1]["prio"] = json!(1),
        "tasks[1].prio",
        "unknown field",
    );
    rejects(
        |v| v["tasks"][1]["ops"][0]["size"] = json!(1),
        "tasks[1].ops[0].size",
        "unknown field",
    );
    rejects(
        |v| v["setup"][0]["foo"] = json!(1),
        "setup[0].foo",
        "unknown field",
    );
    // A key another op takes is still not this op's.
    rejects(
        |v| v["tasks"][1]["ops"][0]["node"] = json!(0),
        "tasks[1].ops[0].node",
        "takes no `node`",
    );
    rejects(
        |v| v["tasks"][0]["ops"][0]["target"] = json!(0),
        "tasks[0].ops[0].target",
        "takes no `target`",
    );
    rejects(
        |v| v["irqs"][0]["ops"][0] = json!({ "op": "flush", "var": "y" }),
        "irqs[0].ops[0].var",
        "takes no `var`",
    );
}

#[test]
fn ops() {
    rejects(
        |v| v["tasks"][0]["ops"][0]["op"] = json!("malloc"),
        "tasks[0].ops[0].op",
        "`alloc`, `free`, `flush`, `touch`",
    );
    rejects(
        |v| v["tasks"][0]["ops"][0] = json!({ "var": "x" }),
        "tasks[0].ops[0]",
        "missing field `op`",
    );
    rejects(
        |v| v["tasks"][0]["ops"][0] = json!({ "op": "alloc" }),
        "tasks[0].ops[0]",
        "missing field `var`",
    );
    rejects(
        |v| v["tasks"][0]["ops"][0]["var"] = json!(5),
        "tasks[0].ops[0].var",
        "invalid type",
    );
    let mut v = base();
    v["tasks"][0]["ops"] = json!([ { "op": "alloc", "var": "x", "node": 0 }, { "op": "touch", "var": "x" },
                                   { "op": "flush" }, { "op": "flush", "target": 1 }, { "op": "free", "var": "x" } ]);
    let s = parse_value(&v).unwrap();
    assert_eq!(
        s.tasks[0].ops,
        vec![
            Op::Alloc {
                var: "x".into(),
                node: Some(0)
            },
            Op::Touch { var: "x".into() },
            Op::Flush { target: None },
            Op::Flush { target: Some(1) },
            Op::Free { var: "x".into() },
        ]
    );
}

#[test]
fn wrong_types_and_required_fields() {
    rejects(|v| v["cpus"] = json!("2"), "cpus", "invalid type: string");
    rejects(|v| v["cpus"] = json!(1.5), "cpus", "expected an integer");
    rejects(|v| v["tasks"] = json!({}), "tasks", "invalid type");
    rejects(
        |v| v["cache"] = json!({ "pageAllocFail": 1 }),
        "cache.pageAllocFail",
        "invalid type",
    );
    rejects(
        |v| v["schedule"] = json!(["A", 3]),
        "schedule[1]",
        "invalid type",
    );
    rejects(
        |v| {
            v.as_object_mut().unwrap().remove("cpus");
        },
        "",
        "missing field `cpus`",
    );
    rejects(
        |v| {
            v.as_object_mut().unwrap().remove("tasks");
        },
        "",
        "missing field `tasks`",
    );
    rejects(
        |v| {
            v.as_object_mut().unwrap().remove("schemaVersion");
        },
        "",
        "missing field `schemaVersion`",
    );
    rejects(
        |v| v["schemaVersion"] = json!(2),
        "schemaVersion",
        "version 1",
    );
    // An integral float is an integer, as JavaScript writes them.
    let mut v = base();
    v["cpus"] = json!(2.0);
    assert_eq!(parse_value(&v).unwrap().cpus, 2);
}

#[test]
fn ranges_say_the_limit() {
    rejects(|v| v["cpus"] = json!(0), "cpus", "1 to 8");
    rejects(|v| v["cpus"] = json!(9), "cpus", "1 to 8");
    rejects(|v| v["cpus"] = json!(1000), "cpus", "1 to 8");
    rejects(|v| v["cpus"] = json!(-1), "cpus", "1 to 8");
    rejects(|v| v["cpus"] = json!(1e30), "cpus", "1 to 8");
    rejects(|v| v["cpus"] = json!(u64::MAX), "cpus", "1 to 8");
    rejects(|v| v["nodes"] = json!(0), "nodes", "1 to 2");
    rejects(|v| v["nodes"] = json!(3), "nodes", "1 to 2");
    rejects(
        |v| {
            v["cpus"] = json!(8);
            v["nodes"] = json!(5)
        },
        "nodes",
        "1 to 4",
    );
    rejects(
        |v| v["cache"] = json!({ "objectSize": 4 }),
        "cache.objectSize",
        "multiple of 8 from 8 to 4096",
    );
    rejects(
        |v| v["cache"] = json!({ "objectSize": 60 }),
        "cache.objectSize",
        "multiple of 8",
    );
    rejects(
        |v| v["cache"] = json!({ "objectSize": 8192 }),
        "cache.objectSize",
        "4096",
    );
    rejects(
        |v| v["cache"] = json!({ "objectSize": -64 }),
        "cache.objectSize",
        "4096",
    );
    rejects(
        |v| v["cache"] = json!({ "objectsPerSlab": 0 }),
        "cache.objectsPerSlab",
        "1 to 64",
    );
    rejects(
        |v| v["cache"] = json!({ "objectsPerSlab": 100000 }),
        "cache.objectsPerSlab",
        "1 to 64",
    );
    rejects(
        |v| v["cache"] = json!({ "offset": 64 }),
        "cache.offset",
        "below objectSize (64)",
    );
    rejects(
        |v| v["cache"] = json!({ "offset": 4 }),
        "cache.offset",
        "multiple of 8",
    );
    rejects(
        |v| v["cache"] = json!({ "offset": -8 }),
        "cache.offset",
        "below objectSize",
    );
    rejects(
        |v| v["cache"] = json!({ "minPartial": 65 }),
        "cache.minPartial",
        "0 to 64",
    );
    rejects(
        |v| v["cache"] = json!({ "cpuPartial": 257 }),
        "cache.cpuPartial",
        "0 to 256",
    );
    rejects(
        |v| v["cache"] = json!({ "cpuPartial": -1 }),
        "cache.cpuPartial",
        "0 to 256",
    );
    let mut v = base();
    v["cache"] = json!({ "objectSize": 4096, "offset": 4088, "objectsPerSlab": 64, "minPartial": 64, "cpuPartial": 256 });
    parse_value(&v).unwrap();
}

#[test]
fn list_sizes() {
    let many = |n: usize| Value::Array((0..n).map(|_| json!({ "op": "flush" })).collect());
    let many_setup =
        |n: usize| Value::Array((0..n).map(|_| json!({ "cpu": 0, "op": "flush" })).collect());
    rejects(|v| v["setup"] = many_setup(257), "setup", "at most 256");
    rejects(
        |v| v["tasks"][0]["ops"] = many(65),
        "tasks[0].ops",
        "at most 64",
    );
    rejects(
        |v| v["irqs"][0]["ops"] = many(1000),
        "irqs[0].ops",
        "at most 64",
    );
    rejects(|v| v["tasks"] = json!([]), "tasks", "at least one task");
    let ctxs = |prefix: &str, n: usize| {
        Value::Array(
            (0..n)
                .map(|i| json!({ "id": format!("{prefix}{i}"), "cpu": 0, "ops": [] }))
                .collect(),
        )
    };
    rejects(
        |v| {
            v["tasks"] = ctxs("T", 9);
            v.as_object_mut().unwrap().remove("schedule");
        },
        "tasks",
        "at most 8",
    );
    rejects(|v| v["irqs"] = ctxs("I", 9), "irqs", "at most 8");
    let mut v = base();
    v["setup"] = many_setup(255);
    v["setup"]
        .as_array_mut()
        .unwrap()
        .insert(0, json!({ "cpu": 0, "op": "alloc", "var": "a" }));
    v["tasks"][0]["ops"] = many(63);
    v["tasks"][0]["ops"]
        .as_array_mut()
        .unwrap()
        .push(json!({ "op": "alloc", "var": "x" }));
    parse_value(&v).unwrap();
}

#[test]
fn context_ids() {
    rejects(
        |v| v["tasks"][0]["id"] = json!(""),
        "tasks[0].id",
        "must not be empty",
    );
    rejects(
        |v| v["tasks"][0]["id"] = json!("1A"),
        "tasks[0].id",
        "bad context id `1A`",
    );
    rejects(
        |v| v["tasks"][0]["id"] = json!("_A"),
        "tasks[0].id",
        "bad context id",
    );
    rejects(
        |v| v["tasks"][0]["id"] = json!("A:B"),
        "tasks[0].id",
        "bad context id",
    );
    rejects(
        |v| v["tasks"][0]["id"] = json!("migrate"),
        "tasks[0].id",
        "reserved",
    );
    rejects(
        |v| v["tasks"][1]["id"] = json!("A"),
        "tasks[1].id",
        "duplicate context id `A` (first used at tasks[0].id)",
    );
    rejects(
        |v| v["irqs"][0]["id"] = json!("B"),
        "irqs[0].id",
        "duplicate context id `B`",
    );
}

#[test]
fn cpus_and_nodes_exist() {
    rejects(
        |v| v["setup"][0]["cpu"] = json!(2),
        "setup[0].cpu",
        "0 to 1",
    );
    rejects(
        |v| v["tasks"][1]["cpu"] = json!(2),
        "tasks[1].cpu",
        "0 to 1",
    );
    rejects(|v| v["irqs"][0]["cpu"] = json!(7), "irqs[0].cpu", "0 to 1");
    rejects(|v| v["irqs"][0]["cpu"] = json!(-1), "irqs[0].cpu", "0 to 1");
    rejects(
        |v| v["tasks"][0]["ops"][0]["node"] = json!(1),
        "tasks[0].ops[0].node",
        "expected 0",
    );
    rejects(
        |v| v["tasks"][0]["ops"][0] = json!({ "op": "flush", "target": 2 }),
        "tasks[0].ops[0].target",
        "0 to 1",
    );
    let mut v = base();
    v["cpus"] = json!(4);
    v["nodes"] = json!(2);
    v["tasks"][0]["ops"][0]["node"] = json!(1);
    let s = parse_value(&v).unwrap();
    assert_eq!(
        (0..4).map(|c| s.node_of_cpu(c)).collect::<Vec<_>>(),
        vec![0, 0, 1, 1]
    );
}

#[test]
fn variables() {
    rejects(
        |v| v["tasks"][1]["ops"][0]["var"] = json!("zz"),
        "tasks[1].ops[0].var",
        "unbound variable `zz`",
    );
    rejects(
        |v| v["tasks"][0]["ops"][0]["var"] = json!("a"),
        "tasks[0].ops[0].var",
        "variable `a` is bound twice (first by the alloc at setup[0])",
    );
    rejects(
        |v| v["tasks"][0]["ops"][0]["var"] = json!("9x"),
        "tasks[0].ops[0].var",
        "bad variable name `9x`",
    );
    rejects(
        |v| v["tasks"][1]["ops"][0]["var"] = json!("a-b"),
        "tasks[1].ops[0].var",
        "bad variable name",
    );
    rejects(
        |v| {
            v["tasks"][0]["ops"] =
                json!([{ "op": "alloc", "var": "x" }, { "op": "free", "var": "a" }])
        },
        "tasks[1].ops[0].var",
        "variable `a` is freed twice (first at tasks[0].ops[1])",
    );
    // Setup runs in order, before everything else.
    rejects(
        |v| v["setup"] = json!([{ "cpu": 0, "op": "free", "var": "a" }, { "cpu": 0, "op": "alloc", "var": "a" }]),
        "setup[0].var",
        "before its alloc at setup[1]",
    );
    rejects(
        |v| {
            v["setup"]
                .as_array_mut()
                .unwrap()
                .push(json!({ "cpu": 0, "op": "touch", "var": "x" }))
        },
        "setup[1].var",
        "before its alloc at tasks[0].ops[0]",
    );
    // Program order within one list.
    rejects(
        |v| {
            v["tasks"][0]["ops"] =
                json!([{ "op": "touch", "var": "x" }, { "op": "alloc", "var": "x" }])
        },
        "tasks[0].ops[0].var",
        "before its alloc at tasks[0].ops[1]",
    );
    rejects(
        |v| {
            v["irqs"][0]["ops"]
                .as_array_mut()
                .unwrap()
                .push(json!({ "op": "touch", "var": "y" }))
        },
        "irqs[0].ops[2].var",
        "use after free",
    );
    rejects(
        |v| {
            v["setup"]
                .as_array_mut()
                .unwrap()
                .push(json!({ "cpu": 0, "op": "free", "var": "a" }));
            v["tasks"][1]["ops"] = json!([{ "op": "touch", "var": "a" }]);
        },
        "tasks[1].ops[0].var",
        "use after free",
    );
    // Across contexts the order is the schedule's business: a free in one task of what
    // another allocates is fine, and so is a touch in one of what another frees.
    let mut v = base();
    v["tasks"][1]["ops"] = json!([{ "op": "touch", "var": "x" }, { "op": "free", "var": "x" }, { "op": "touch", "var": "a" }]);
    parse_value(&v).unwrap();
}

#[test]
fn schedule_moves_name_contexts() {
    rejects(
        |v| v["schedule"][2] = json!("Z"),
        "schedule[2]",
        "no context is called that",
    );
    rejects(
        |v| v["schedule"][2] = json!(""),
        "schedule[2]",
        "no context",
    );
    rejects(
        |v| v["schedule"][5] = json!("migrate:Z:1"),
        "schedule[5]",
        "no task is called `Z`",
    );
    rejects(
        |v| v["schedule"][5] = json!("migrate:I:1"),
        "schedule[5]",
        "only tasks migrate",
    );
    rejects(
        |v| v["schedule"][5] = json!("migrate:A:2"),
        "schedule[5]",
        "0 to 1",
    );
    rejects(
        |v| v["schedule"][5] = json!("migrate:A:+1"),
        "schedule[5]",
        "not valid",
    );
    rejects(
        |v| v["schedule"][5] = json!("migrate:A"),
        "schedule[5]",
        "migrate:<task>:<cpu>",
    );
    rejects(
        |v| v["schedule"][5] = json!("migrate:A:1:2"),
        "schedule[5]",
        "migrate:<task>:<cpu>",
    );
    let mut v = base();
    v["schedule"] = json!([]);
    assert_eq!(parse_value(&v).unwrap().schedule, Some(vec![]));
    // Enabledness is the model's business: migrating a current task parses.
    v["schedule"] = json!(["migrate:A:0", "I", "I", "I"]);
    parse_value(&v).unwrap();
}

#[test]
fn tid_step_derivation() {
    let tid = |cpus: u32, preempt: &str| {
        let mut v = base();
        v["cpus"] = json!(cpus);
        v["variant"] = json!({ "preempt": preempt });
        parse_value(&v).unwrap().tid_step()
    };
    let mut v = base();
    v["cpus"] = json!(1);
    v["tasks"][1]["cpu"] = json!(0);
    v["schedule"][5] = json!("B");
    let mut s = parse_value(&v).unwrap();
    assert_eq!(s.tid_step(), 1);
    s.variant.preempt = Preempt::None;
    assert_eq!(s.tid_step(), 1);
    assert_eq!(tid(2, "full"), 2);
    assert_eq!(tid(3, "full"), 4);
    assert_eq!(tid(6, "full"), 8);
    assert_eq!(tid(8, "full"), 8);
    assert_eq!(tid(6, "none"), 1);
}

#[test]
fn validate_checks_built_scenarios_too() {
    let mut s = parse_value(&base()).unwrap();
    s.cpus = 0;
    assert_eq!(validate(&s).unwrap_err().path, "cpus");
    let mut s = parse_value(&base()).unwrap();
    s.variant.tid_step = Some(6);
    assert_eq!(validate(&s).unwrap_err().path, "variant.tidStep");
}

/// Ids and variable names are labels on the stage: bounded, and the
/// error names the path.
#[test]
fn long_ids_and_variable_names_are_refused_by_path() {
    let long = "a".repeat(MAX_NAME_LEN + 1);
    let mut v = base();
    v["tasks"][0]["id"] = json!(long);
    let e = parse_value(&v).unwrap_err();
    assert_eq!(e.path, "tasks[0].id", "{e}");
    assert!(e.to_string().contains("at most 32"), "{e}");
    let mut v = base();
    v["tasks"][0]["ops"][0]["var"] = json!(long);
    let e = parse_value(&v).unwrap_err();
    assert_eq!(e.path, "tasks[0].ops[0].var", "{e}");
    let mut v = base();
    v["tasks"][0]["id"] = json!("a".repeat(MAX_NAME_LEN));
    v["schedule"] = json!([]);
    assert!(parse_value(&v).is_ok());
}

#[test]
fn errors_display_path_then_message() {
    let e = ScenarioError::new("tasks[1].ops[0].var", "unbound variable `z`");
    assert_eq!(e.to_string(), "tasks[1].ops[0].var: unbound variable `z`");
    assert_eq!(ScenarioError::new("", "x").to_string(), "x");
}
