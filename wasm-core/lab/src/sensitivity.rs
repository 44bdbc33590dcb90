//! How a comparison's verdict moves when one cost constant moves by ±25 %: a linear
//! estimate from the runs' charges, or (`bench seeds --sensitivity`) both sides re-run.

use crate::{bench_with, SeedCase, SeedResult, Side};
use serde::Serialize;
use slub_sim::model::cost::{self, Costs};

/// How a comparison's ratio moves when one cost constant moves by ±25 % (a verdict
/// that flips under a 25 % change in one constant says so).
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Sensitivity {
    pub constant: &'static str,
    /// The model's after/before ratio with the constant at 75 % and at 125 % of its value.
    pub low: f64,
    pub high: f64,
    /// At one end the ratio is on the other side of 1 than the model's own: the verdict
    /// depends on this constant's value.
    pub flips: bool,
}

/// How [`Sensitivity`] was found: `linear` holds every run's charges fixed and scales one
/// constant's share (exact when the interleaving does not depend on time: one CPU, or CPUs
/// that never wait for each other); `rerun` runs both sides again with the constant moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub enum SensitivityMethod {
    Linear,
    Rerun,
}

/// The ratio's sensitivity with every run's charges held fixed (see [`SensitivityMethod`]).
pub(crate) fn linear_sensitivity(before: &Side, after: &Side) -> Vec<Sensitivity> {
    let base = after.model / before.model;
    cost::Id::ALL
        .iter()
        .filter(|id| {
            let n = id.cost().name;
            before.by_constant.contains_key(n) || after.by_constant.contains_key(n)
        })
        .map(|&id| {
            let name = id.cost().name;
            let (b, a) = (
                before.by_constant.get(name).copied().unwrap_or(0.0),
                after.by_constant.get(name).copied().unwrap_or(0.0),
            );
            // The factor a re-run charges: the scaled constant is rounded to whole cycles.
            let factor = |percent| {
                Costs::default().scaled(id, percent).get(id) as f64 / id.cost().value as f64
            };
            let at = |s: f64| (after.model + (s - 1.0) * a) / (before.model + (s - 1.0) * b);
            sensitivity_row(name, base, at(factor(75)), at(factor(125)))
        })
        .collect()
}

fn sensitivity_row(constant: &'static str, base: f64, low: f64, high: f64) -> Sensitivity {
    let side = |r: f64| (r - 1.0).signum();
    let r4 = |x: f64| (x * 10_000.0).round() / 10_000.0;
    Sensitivity {
        constant,
        low: r4(low),
        high: r4(high),
        flips: side(low) != side(base) || side(high) != side(base),
    }
}

/// Replace a result's linear sensitivity by re-running both sides with each constant they
/// charge at 75 % and at 125 % (four runs per constant: slow, `bench seeds --sensitivity`).
pub fn rerun_sensitivity(case: &'static SeedCase, result: &mut SeedResult) -> Result<(), String> {
    let (wb, vb) = case.side(false)?;
    let (wa, va) = case.side(true)?;
    let ratio = |costs: Costs| -> Result<f64, String> {
        let mb = case.metric.of(&bench_with(&wb, &vb, costs)?);
        let ma = case.metric.of(&bench_with(&wa, &va, costs)?);
        Ok(ma / mb)
    };
    let base = result.model_ratio;
    let mut rows = Vec::new();
    for row in &result.sensitivity {
        let Some(&id) = cost::Id::ALL
            .iter()
            .find(|id| id.cost().name == row.constant)
        else {
            continue;
        };
        let low = ratio(Costs::default().scaled(id, 75))?;
        let high = ratio(Costs::default().scaled(id, 125))?;
        rows.push(sensitivity_row(row.constant, base, low, high));
    }
    result.sensitivity = rows;
    result.sensitivity_method = SensitivityMethod::Rerun;
    Ok(())
}
