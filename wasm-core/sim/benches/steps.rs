//! Core speed (issue: ≥ 20 M steps/s without events or checks, ≥ 2 M with every invariant
//! checked). The workload: 2 CPUs, two tasks per CPU and an interrupt handler on CPU 0,
//! each allocating and freeing in a loop with remote frees, run to the end by the default
//! policy. Criterion reports the throughput in steps (elements) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::json;
use slub_sim::model::Machine;
use slub_sim::{scenario, Simulator};

pub fn workload() -> scenario::Scenario {
    let mut tasks = Vec::new();
    for t in 0..4 {
        let mut ops = Vec::new();
        for i in 0..32 {
            ops.push(json!({"op": "alloc", "var": format!("t{t}x{i}")}));
            // Free the previous object; every fourth one is freed by the other CPU's task.
            if i > 0 {
                let owner = if i % 4 == 0 { (t + 1) % 4 } else { t };
                ops.push(json!({"op": "free", "var": format!("t{owner}x{}", i - 1)}));
            }
        }
        tasks.push(json!({"id": format!("T{t}"), "cpu": t % 2, "ops": ops}));
    }
    let mut irq = Vec::new();
    for i in 0..16 {
        irq.push(json!({"op": "alloc", "var": format!("iy{i}")}));
        irq.push(json!({"op": "free", "var": format!("iy{i}")}));
    }
    let sc = json!({
        "schemaVersion": 1, "name": "bench", "cpus": 2,
        "cache": {"objectsPerSlab": 8},
        "tasks": tasks,
        "irqs": [{"id": "I", "cpu": 0, "ops": irq}],
    });
    scenario::parse(&sc.to_string()).expect("benchmark scenario is valid")
}

fn steps_of(checks: bool) -> u64 {
    let mut sim = Simulator::new(workload(), false, checks);
    sim.run_to_end();
    assert!(sim.outcome().violations.is_empty() || !checks);
    sim.machine().st.steps
}

fn bench(c: &mut Criterion) {
    let sc = workload();
    let steps = steps_of(true);
    let mut g = c.benchmark_group("model");
    g.throughput(Throughput::Elements(steps));
    // The core alone: the machine driven by the default policy, as the explorer drives it.
    g.bench_function("core_steps_no_events_no_checks", |b| {
        b.iter(|| {
            let mut m = Machine::new(sc.clone(), false, false);
            while let Some(mv) = m.default_move() {
                m.apply_move(mv, None);
            }
            m.st.steps
        })
    });
    g.bench_function("core_steps_with_every_invariant", |b| {
        b.iter(|| {
            let mut m = Machine::new(sc.clone(), false, true);
            while let Some(mv) = m.default_move() {
                m.apply_move(mv, None);
            }
            m.st.steps
        })
    });
    g.bench_function("steps_no_events_no_checks", |b| {
        b.iter(|| {
            let mut sim = Simulator::new(sc.clone(), false, false);
            sim.run_to_end();
            sim.machine().st.steps
        })
    });
    g.bench_function("steps_with_every_invariant", |b| {
        b.iter(|| {
            let mut sim = Simulator::new(sc.clone(), false, true);
            sim.run_to_end();
            sim.machine().st.steps
        })
    });
    g.bench_function("steps_with_events", |b| {
        b.iter(|| {
            let mut sim = Simulator::new(sc.clone(), true, false);
            sim.run_to_end();
            sim.machine().st.steps
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3)).warm_up_time(std::time::Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
