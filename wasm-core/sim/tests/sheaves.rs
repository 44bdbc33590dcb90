//! Golden scenarios SH1–SH8 of `slub-algorithm.md` Appendix C.7: Linux 7.0's per-CPU sheaves
//! and per-node barns. Each test reaches its state through the file's `setup`, drives the
//! interleaving by the labels of the contexts' next steps, and asserts the outcome: stat
//! deltas, sheaves, barns, slabs and violations. The negative control (`pcsLock: "none"`)
//! must break INV-S1 for some schedule; the kernel's trylock for none.
//!
//! Run with `cargo test --release -p slub-sim --test sheaves`.

mod common;

use common::*;

/// Print a scenario's state after setup and after its default run:
/// `SLUB_PROBE=sh01_....json cargo test --release -p slub-sim --test sheaves probe -- --ignored --nocapture`.
#[test]
#[ignore]
fn probe() {
    let file = std::env::var("SLUB_PROBE").expect("SLUB_PROBE=<scenario file>");
    let case = Case::load(&file);
    let mut r = case.run();
    println!("after setup:\n{}", r.describe());
    r.finish();
    println!("at the end:\n{}\n{:?}\n{:?}", r.describe(), r.violations(), r.stats().into_iter().filter(|(_, v)| *v > 0).collect::<Vec<_>>());
}
