//! The Lab as the page reads it (`#/lab`, design.md §6): the seed cases of [`lab::seed_cases`] as
//! plain data, one case's run, the stepper scenario of one side, and the cost table of
//! `model::cost`, each as a serialisable value. Nothing here runs a workload except
//! [`run_case`]; the listing ([`cases`]) is cheap, so the page can show every case's metadata
//! and published figures at once and run the cases one at a time in a worker.
//!
//! The cost table is `slub_sim::model::cost::TABLE`, the typed constant the model charges from
//! (the one table every experiment uses), so what the page shows is what the model charges.

use crate::{
    self as lab, Measured, Metric, OpTallies, ParamsOut, PendingSeed, Report, SeedCase, SeedResult,
};
use serde::Serialize;
use slub_sim::model::cost;
use std::collections::BTreeMap;

/// Everything the page shows before running anything.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct LabCases {
    pub schema_version: u32,
    /// The Lab's tolerance: the model's ratio within this fraction of the seed's.
    pub tolerance: f64,
    pub cost_table: Vec<CostRow>,
    pub cases: Vec<CaseInfo>,
}

/// One seed comparison, not yet run.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct CaseInfo {
    pub id: &'static str,
    pub file: &'static str,
    pub what: &'static str,
    pub workload: &'static str,
    /// One sentence: what the workload is and whose benchmark it follows.
    pub about: &'static str,
    pub params: ParamsOut,
    pub metric: Metric,
    pub unit: &'static str,
    pub published: Published,
    /// `published.after / published.before`, rounded as `SeedResult::seed_ratio` is.
    pub seed_ratio: f64,
    pub asserted: bool,
    /// Whether the lab's tests assert the size of the change too.
    pub effect_asserted: bool,
    #[serde(skip_serializing_if = "str::is_empty")]
    #[ts(as = "Option<String>", optional)]
    pub note: &'static str,
    /// The variant pairs of the "before" run, in order (a later pair overrides an earlier one).
    pub before: Vec<[&'static str; 2]>,
    /// The pairs applied on top of `before` for the "after" run.
    pub change: Vec<[&'static str; 2]>,
    /// Allocations plus frees of one side's run (what its running time scales with).
    pub ops: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct Published {
    pub before: f64,
    pub after: f64,
}

/// A row of the cost table: one constant (or a pair, `IRQ_SAVE / IRQ_RESTORE`), its cycles
/// and where the figure comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct CostRow {
    pub constant: String,
    pub cycles: String,
    pub source: String,
}

/// The cost table of `slub_sim::model::cost::TABLE`, one row per group of constants that
/// share a source (`IRQ_SAVE / IRQ_RESTORE`, `14 / 10`).
pub fn cost_table() -> Vec<CostRow> {
    cost::rows()
        .into_iter()
        .map(|(group, source)| CostRow {
            constant: group.iter().map(|c| c.name).collect::<Vec<_>>().join(" / "),
            cycles: group
                .iter()
                .map(|c| c.value.to_string())
                .collect::<Vec<_>>()
                .join(" / "),
            source: source.to_string(),
        })
        .collect()
}

/// The parameters a case's run reports, without running it: the report of an empty run (the
/// same code as a real run's, so the two cannot differ).
fn params(case: &'static SeedCase) -> Result<ParamsOut, String> {
    let (w, variant) = case.side(false)?;
    let empty = Measured {
        per_cpu: Vec::new(),
        ops: OpTallies::default(),
        steps: 0,
        stats: BTreeMap::new(),
        stats_per_cpu: Vec::new(),
        finished: true,
        violations: Vec::new(),
        costs: Default::default(),
        mechanisms: Default::default(),
    };
    Ok(Report::of(&w, &variant, empty).params)
}

fn info(case: &'static SeedCase) -> Result<CaseInfo, String> {
    let r4 = |x: f64| (x * 10_000.0).round() / 10_000.0;
    Ok(CaseInfo {
        id: &case.id,
        file: &case.file,
        what: &case.what,
        workload: case.workload.kind.name(),
        about: case.workload.kind.about(),
        params: params(case).map_err(|e| format!("seed {}: {e}", case.id))?,
        metric: case.metric,
        unit: &case.unit,
        published: Published {
            before: case.published.0,
            after: case.published.1,
        },
        seed_ratio: r4(case.published.1 / case.published.0),
        asserted: case.asserted,
        effect_asserted: case.effect_asserted,
        note: &case.note,
        before: case
            .before
            .iter()
            .map(|(k, v)| [k.as_str(), v.as_str()])
            .collect(),
        change: case
            .change
            .iter()
            .map(|(k, v)| [k.as_str(), v.as_str()])
            .collect(),
        ops: case.workload.ops(),
    })
}

/// Every seed case's metadata (nothing is run). A case whose variant does not parse is an
/// error naming it (a bug of the case table, which the lab's tests catch first).
pub fn cases() -> Result<LabCases, String> {
    Ok(LabCases {
        schema_version: 1,
        tolerance: lab::TOLERANCE,
        cost_table: cost_table(),
        cases: lab::seed_cases()
            .iter()
            .map(info)
            .collect::<Result<_, _>>()?,
    })
}

/// The seed comparisons that need what the model does not have yet.
pub fn pending() -> Vec<PendingSeed> {
    lab::pending_seeds()
}

fn find(id: &str) -> Result<&'static SeedCase, String> {
    let all = lab::seed_cases();
    if let Some(case) = all.iter().find(|c| c.id == id) {
        return Ok(case);
    }
    if let Some(p) = lab::pending_seeds().into_iter().find(|p| p.id == id) {
        return Err(format!(
            "seed {id} is not runnable yet: it needs {}",
            p.needs
        ));
    }
    let ids: Vec<&str> = all.iter().map(|c| c.id.as_str()).collect();
    Err(format!(
        "no seed comparison `{id}`; they are {}",
        ids.join(", ")
    ))
}

/// Run one seed comparison (both sides; a fraction of a second to a second).
pub fn run_case(id: &str) -> Result<SeedResult, String> {
    let case = find(id)?;
    lab::run_seed(case).map_err(|e| format!("seed {id}: {e}"))
}

/// A small instance of one side of a comparison, for the stepper ([`SeedCase::stepper_scenario`]).
pub fn stepper_scenario(id: &str, after: bool) -> Result<slub_sim::Scenario, String> {
    find(id)?.stepper_scenario(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cost_table_is_every_constant_once() {
        let table = cost_table();
        let names: Vec<&str> = table.iter().flat_map(|r| r.constant.split(" / ")).collect();
        let all: Vec<&str> = cost::TABLE.iter().map(|c| c.name).collect();
        assert_eq!(names, all);
        let irq = table
            .iter()
            .find(|r| r.constant == "IRQ_SAVE / IRQ_RESTORE")
            .expect("the irq pair is one row");
        assert_eq!(
            irq.cycles,
            format!("{} / {}", cost::IRQ_SAVE, cost::IRQ_RESTORE)
        );
        assert!(table.iter().all(|r| !r.source.is_empty()));
    }

    #[test]
    fn every_case_is_listed_with_its_published_ratio_and_a_valid_stepper_scenario() {
        let listed = cases().expect("every case lists");
        assert_eq!(listed.cases.len(), lab::seed_cases().len());
        for c in &listed.cases {
            assert!(c.seed_ratio > 0.0 && c.seed_ratio.is_finite(), "{}", c.id);
            assert!(
                !c.change.is_empty(),
                "{}: no change between the sides",
                c.id
            );
            for after in [false, true] {
                let sc = stepper_scenario(c.id, after).expect("a stepper scenario");
                let json = serde_json::to_string(&sc).expect("serialises");
                slub_sim::scenario::parse(&json).expect("the stepper scenario parses back");
            }
        }
        let json = serde_json::to_value(&listed).expect("serialises");
        assert_eq!(json["schemaVersion"], 1);
        assert!(json["cases"][0]["published"]["before"].is_number());
    }

    #[test]
    fn a_case_lists_the_parameters_its_run_reports() {
        let listed = cases().expect("every case lists");
        let info = listed
            .cases
            .iter()
            .find(|c| c.id == "000")
            .expect("case 000");
        let run = run_case("000").expect("case 000 runs");
        assert_eq!(info.params, run.params);
        assert_eq!(info.seed_ratio, run.seed_ratio);
    }

    #[test]
    fn unknown_and_pending_ids_say_why() {
        let e = run_case("nope").unwrap_err();
        assert!(e.contains("no seed comparison `nope`"), "{e}");
        if let Some(p) = pending().first() {
            let e = run_case(&p.id).unwrap_err();
            assert!(e.contains("not runnable yet"), "{e}");
        }
    }
}
