//! slub-lab-wasm: the Lab's (`#/lab`) entry points, in a wasm module of their own.
//!
//! The seeds' comparisons under the one cost table (`slub_lab_core::export`) are code the
//! playground and the lessons never run: kept out of slub-wasm, they take ~40 KB gzip off the
//! module every page loads. This one is loaded by the Lab page (the cases' metadata, the pending
//! seeds, the stepper scenarios) and by its Web Worker (the runs): `web/src/sim/lab.ts`,
//! `web/src/sim/lab.worker.ts`, built into `web/src/sim/pkg-lab` by `scripts/build-wasm.mjs`.
//!
//! Errors and panics cross as slub-wasm's do: a refusal becomes a JS `Error` with the model's
//! message, a panic is recorded by the hook installed at start-up and read with [`last_panic`].
//! The hook is slub-panic-hook's, shared with slub-wasm (depending on slub-wasm itself would
//! link its exports, the `Simulator` class and its start function, into this module too).

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Runs when the module is instantiated (`init`/`initSync` on the JS side): installs the panic
/// hook the two wasm modules share (wasm-core/panic-hook).
#[wasm_bindgen(start)]
fn start() {
    slub_panic_hook::install();
}

/// The message of the last Rust panic (with its source location), or `undefined` if none.
/// Reading it forgets it: the caller keeps it with the crash it reports, and a later error
/// (a bad link after the crash) is then not mistaken for the old panic.
#[wasm_bindgen(js_name = lastPanic)]
pub fn last_panic() -> Option<String> {
    slub_panic_hook::take_last()
}

/// Serialise a DTO of the model. The model's DTOs have string keys only, so failing here is a
/// bug and panics (the crash screen shows it).
fn to_json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("model DTOs serialise to JSON")
}

/// Every seed case's metadata, the tolerance and the cost table, without running anything:
/// JSON `{ schemaVersion, tolerance, costTable: [{ constant, cycles, source }], cases: [{ id,
/// file, what, workload, about, params, metric, unit, published: { before, after }, seedRatio,
/// asserted, note?, before: [[key, value]], change: [[key, value]], ops }] }`.
#[wasm_bindgen(js_name = labCases)]
pub fn lab_cases() -> Result<String, JsError> {
    slub_lab_core::export::cases()
        .map(|c| to_json(&c))
        .map_err(|e| JsError::new(&e))
}

/// Run one seed comparison (both sides of it; a fraction of a second to a second): the
/// `SeedResult` as JSON (what `slub-lab bench seeds` prints for it). An unknown or pending id
/// throws with a message that says which ids there are, or what the pending one needs.
#[wasm_bindgen(js_name = labRunSeed)]
pub fn lab_run_seed(id: &str) -> Result<String, JsError> {
    slub_lab_core::export::run_case(id)
        .map(|r| to_json(&r))
        .map_err(|e| JsError::new(&e))
}

/// A small instance of one side of a seed comparison for the stepper (the same workload,
/// allocator, variant and object size, few operations, no schedule): scenario JSON.
#[wasm_bindgen(js_name = labStepperScenario)]
pub fn lab_stepper_scenario(id: &str, after: bool) -> Result<String, JsError> {
    slub_lab_core::export::stepper_scenario(id, after)
        .map(|sc| to_json(&sc))
        .map_err(|e| JsError::new(&e))
}

/// The seed comparisons the model cannot run yet: JSON `[{ id, file, what, needs }]`.
#[wasm_bindgen(js_name = labPending)]
pub fn lab_pending() -> String {
    to_json(&slub_lab_core::export::pending())
}
