//! Core speed (target: ≥ 20 M steps/s without events or checks, ≥ 2 M with every invariant
//! checked). The workload: 2 CPUs, two tasks per CPU and an interrupt handler on CPU 0,
//! each allocating and freeing in a loop with remote frees, run to the end by the default
//! policy. Criterion reports the throughput in steps (elements) per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use slub_sim::model::{Driver, Machine};
use slub_sim::policy::default_move;
use slub_sim::{scenario, Simulator};

/// The workload, shared with the wasm benchmark (`scripts/bench-wasm.mjs`) so the two compare
/// the same thing.
pub fn workload() -> scenario::Scenario {
    scenario::parse(include_str!("workload.json")).expect("benchmark scenario is valid")
}

fn steps_of(checks: bool) -> u64 {
    let mut sim = Simulator::new(workload(), false, checks);
    sim.run_to_end();
    assert!(sim.outcome().violations.is_empty() || !checks);
    sim.machine().policy_view().steps()
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
            while let Some(mv) = default_move(&m) {
                m.apply(mv, None);
            }
            m.policy_view().steps()
        })
    });
    g.bench_function("core_steps_with_every_invariant", |b| {
        b.iter(|| {
            let mut m = Machine::new(sc.clone(), false, true);
            while let Some(mv) = default_move(&m) {
                m.apply(mv, None);
            }
            m.policy_view().steps()
        })
    });
    g.bench_function("steps_no_events_no_checks", |b| {
        b.iter(|| {
            let mut sim = Simulator::new(sc.clone(), false, false);
            sim.run_to_end();
            sim.machine().policy_view().steps()
        })
    });
    g.bench_function("steps_with_every_invariant", |b| {
        b.iter(|| {
            let mut sim = Simulator::new(sc.clone(), false, true);
            sim.run_to_end();
            sim.machine().policy_view().steps()
        })
    });
    g.bench_function("steps_with_events", |b| {
        b.iter(|| {
            let mut sim = Simulator::new(sc.clone(), true, false);
            sim.run_to_end();
            sim.machine().policy_view().steps()
        })
    });
    g.finish();

    // The same workload on SLAB (model.md Appendix A), with small arrays so that refills, flushes
    // and free_block run often: SLAB's steps are the same machine's.
    let mut slab = sc.clone();
    slab.allocator = scenario::Allocator::Slab;
    slab.variant = scenario::Variant::default();
    slab.cache.limit = Some(4);
    slab.cache.batchcount = Some(2);
    slab.cache.shared = Some(2);
    let slab_steps = {
        let mut m = Machine::new(slab.clone(), false, true);
        while let Some(mv) = default_move(&m) {
            m.apply(mv, None);
        }
        let violations = m.policy_view().violations();
        assert!(violations.is_empty(), "{violations:?}");
        m.policy_view().steps()
    };
    let mut g = c.benchmark_group("slab");
    g.throughput(Throughput::Elements(slab_steps));
    for (name, checks) in [
        ("core_steps_no_events_no_checks", false),
        ("core_steps_with_every_invariant", true),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut m = Machine::new(slab.clone(), false, checks);
                while let Some(mv) = default_move(&m) {
                    m.apply(mv, None);
                }
                m.policy_view().steps()
            })
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3)).warm_up_time(std::time::Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
