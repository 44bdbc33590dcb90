//! The Lab as the page reads it (`#/lab`, DESIGN §6): the seed cases of [`lab::seed_cases`] as
//! plain data, one case's run, the stepper scenario of one side, and the cost table of
//! `model::cost`, each as a serialisable value. Nothing here runs a workload except
//! [`run_case`]; the listing ([`cases`]) is cheap, so the page can show every case's metadata
//! and published figures at once and run the cases one at a time in a worker.
//!
//! The cost table is read from the documentation table at the top of `model/cost.rs` (the one
//! table every experiment uses), with the cycle counts taken from that file's constants; a test
//! checks that the two agree, so what the page shows is what the model charges.

use crate::lab::{
    self, Measured, Metric, OpTallies, ParamsOut, PendingSeed, Report, SeedCase, SeedResult,
};
use serde::Serialize;
use std::collections::BTreeMap;

/// Everything the page shows before running anything.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct LabCases {
    pub schema_version: u32,
    /// The tolerance of the issue: the model's ratio within this fraction of the seed's.
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

const COST_RS: &str = include_str!("model/cost.rs");

/// `pub const NAME: u64 = N;` of `model/cost.rs`: (name, value).
fn cost_constants() -> Vec<(String, u64)> {
    COST_RS
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("pub const ")?;
            let (name, rest) = rest.split_once(':')?;
            let value = rest.split_once('=')?.1.trim().trim_end_matches(';').trim();
            Some((
                name.trim().to_string(),
                value.replace('_', "").parse().ok()?,
            ))
        })
        .collect()
}

/// The documentation table of `model/cost.rs`, with each constant's cycles read from its
/// definition (the table's own figure where a name is not a constant).
pub fn cost_table() -> Vec<CostRow> {
    let consts = cost_constants();
    COST_RS
        .lines()
        .filter_map(|l| l.trim().strip_prefix("//! | `"))
        .filter_map(|row| {
            let row = format!("`{row}");
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let [constant, cycles, source, ..] = cells.as_slice() else {
                return None;
            };
            let names: Vec<&str> = constant
                .split('/')
                .map(|n| n.trim().trim_matches('`'))
                .collect();
            let figures: Vec<&str> = cycles.split('/').map(str::trim).collect();
            let cycles = names
                .iter()
                .zip(figures.iter().chain(std::iter::repeat(&"?")))
                .map(|(n, doc)| match consts.iter().find(|(c, _)| c == n) {
                    Some((_, v)) => v.to_string(),
                    None => doc.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" / ");
            Some(CostRow {
                constant: names.join(" / "),
                cycles,
                source: source.to_string(),
            })
        })
        .collect()
}

/// The parameters a case's run reports, without running it: the report of an empty run (the
/// same code as a real run's, so the two cannot differ).
fn params(case: &SeedCase) -> Result<ParamsOut, String> {
    let (w, variant) = case.side(false)?;
    let empty = Measured {
        per_cpu: Vec::new(),
        ops: OpTallies::default(),
        steps: 0,
        stats: BTreeMap::new(),
        stats_per_cpu: Vec::new(),
        finished: true,
        violations: Vec::new(),
    };
    Ok(Report::of(&w, &variant, empty).params)
}

fn info(case: &SeedCase) -> Result<CaseInfo, String> {
    let r4 = |x: f64| (x * 10_000.0).round() / 10_000.0;
    Ok(CaseInfo {
        id: case.id,
        file: case.file,
        what: case.what,
        workload: case.workload.kind.name(),
        about: case.workload.kind.about(),
        params: params(case).map_err(|e| format!("seed {}: {e}", case.id))?,
        metric: case.metric,
        unit: case.unit,
        published: Published {
            before: case.published.0,
            after: case.published.1,
        },
        seed_ratio: r4(case.published.1 / case.published.0),
        asserted: case.asserted,
        note: case.note,
        before: case.before.iter().map(|(k, v)| [*k, *v]).collect(),
        change: case.change.iter().map(|(k, v)| [*k, *v]).collect(),
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

fn find(id: &str) -> Result<SeedCase, String> {
    let all = lab::seed_cases();
    if let Some(case) = all.iter().find(|c| c.id == id) {
        return Ok(case.clone());
    }
    if let Some(p) = lab::pending_seeds().into_iter().find(|p| p.id == id) {
        return Err(format!(
            "seed {id} is not runnable yet: it needs {}",
            p.needs
        ));
    }
    let ids: Vec<&str> = all.iter().map(|c| c.id).collect();
    Err(format!(
        "no seed comparison `{id}`; they are {}",
        ids.join(", ")
    ))
}

/// Run one seed comparison (both sides; a fraction of a second to a second).
pub fn run_case(id: &str) -> Result<SeedResult, String> {
    let case = find(id)?;
    lab::run_seed(&case).map_err(|e| format!("seed {id}: {e}"))
}

/// A small instance of one side of a comparison, for the stepper ([`SeedCase::stepper_scenario`]).
pub fn stepper_scenario(id: &str, after: bool) -> Result<crate::Scenario, String> {
    find(id)?.stepper_scenario(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cost_table_is_the_constants() {
        let consts = cost_constants();
        assert!(consts.len() >= 10, "constants of model/cost.rs: {consts:?}");
        let table = cost_table();
        for (name, value) in &consts {
            let row = table
                .iter()
                .find(|r| r.constant.split(" / ").any(|n| n == name))
                .unwrap_or_else(|| {
                    panic!("model/cost.rs: `{name}` has no row in the doc table at its top")
                });
            let names: Vec<&str> = row.constant.split(" / ").collect();
            let i = names.iter().position(|n| n == name).expect("found above");
            assert_eq!(
                row.cycles.split(" / ").nth(i),
                Some(value.to_string().as_str())
            );
        }
        // ... and the table's own figures say the same (the doc does not drift from the code).
        for line in COST_RS.lines().filter(|l| l.starts_with("//! | `")) {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let names: Vec<&str> = cells[1]
                .split('/')
                .map(|n| n.trim().trim_matches('`'))
                .collect();
            let figures: Vec<&str> = cells[2].split('/').map(str::trim).collect();
            for (n, f) in names.iter().zip(&figures) {
                let (_, v) = consts.iter().find(|(c, _)| c == n).unwrap_or_else(|| {
                    panic!("model/cost.rs: the doc table's `{n}` is not a constant")
                });
                assert_eq!(
                    f,
                    &v.to_string(),
                    "model/cost.rs: `{n}` is {v}, the doc table says {f}"
                );
            }
        }
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
                crate::scenario::parse(&json).expect("the stepper scenario parses back");
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
            let e = run_case(p.id).unwrap_err();
            assert!(e.contains("not runnable yet"), "{e}");
        }
    }
}
