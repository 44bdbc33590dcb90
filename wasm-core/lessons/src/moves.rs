//! A step's moves as a lesson writes them, and their resolution into the plain moves of
//! design.md §3 the simulator takes (docs/writing-lessons.md, "Moves").
//!
//! - `T`, `migrate:T:1`: one move;
//! - `T*7`: the same move seven times;
//! - `T to slab_alloc:A9`: context T takes steps (at least one) until the next line it will
//!   execute is `slab_alloc:A9`;
//! - `T to end`: context T takes steps until it has finished all its operations.
//!
//! A destination says where a context is going, not how many steps that takes, so a lesson
//! survives a model that adds or removes a step on the way.

use slub_sim::Simulator;

use crate::parse::is_ident;

/// Largest `*n` repetition of a move.
pub const MAX_REPEAT: usize = 500;
/// Most steps a destination move may take before it is an error.
pub const MAX_RUN: usize = 500;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Move {
    /// A move of design.md §3, `times` times (`T*7`; `T` is once).
    Repeat { mv: String, times: usize },
    /// `T to slab_alloc:A9`.
    ToLabel { ctx: String, label: String },
    /// `T to end`.
    ToEnd { ctx: String },
}

/// One move of design.md §3 (`T`, `migrate:T:1`), without the lesson's `*n` repetition.
pub fn is_move(s: &str) -> bool {
    match s.strip_prefix("migrate:") {
        Some(rest) => match rest.rsplit_once(':') {
            Some((task, cpu)) => {
                is_ident(task) && !cpu.is_empty() && cpu.chars().all(|c| c.is_ascii_digit())
            }
            None => false,
        },
        None => is_ident(s),
    }
}

fn is_label(s: &str) -> bool {
    matches!(s.split_once(':'), Some((f, l)) if is_ident(f) && is_ident(l))
}

/// Parse the moves as written; `Err` names the bad one (`moves[0]: ...`).
pub fn parse_moves(moves: &[String]) -> Result<Vec<Move>, String> {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| parse_move(m).map_err(|why| format!("moves[{i}]: {m:?}: {why}")))
        .collect()
}

fn parse_move(m: &str) -> Result<Move, String> {
    const SYNTAX: &str = "not a move (`<ctx>`, `migrate:<task>:<cpu>`, optionally `*<n>`; \
                          `<ctx> to <function>:<label>`; `<ctx> to end`)";
    if let Some((ctx, to)) = m.split_once(" to ") {
        let (ctx, to) = (ctx.trim(), to.trim());
        if !is_ident(ctx) {
            return Err(SYNTAX.into());
        }
        return match to {
            "end" => Ok(Move::ToEnd { ctx: ctx.into() }),
            l if is_label(l) => Ok(Move::ToLabel {
                ctx: ctx.into(),
                label: l.into(),
            }),
            _ => Err(format!(
                "the destination must be a code label (`slab_alloc:A9`) or `end`, not {to:?}"
            )),
        };
    }
    let (mv, times) = match m.rsplit_once('*') {
        Some((mv, n)) => match n.parse::<usize>() {
            Ok(n) if (1..=MAX_REPEAT).contains(&n) => (mv, n),
            _ => {
                return Err(format!(
                    "the repetition after `*` must be a number from 1 to {MAX_REPEAT}"
                ))
            }
        },
        None => (m, 1),
    };
    if !is_move(mv) {
        return Err(SYNTAX.into());
    }
    Ok(Move::Repeat {
        mv: mv.into(),
        times,
    })
}

/// Where a context is: (its next code label, its state).
fn whereabouts(sim: &Simulator, ctx: &str) -> Option<(Option<String>, String)> {
    sim.view()
        .contexts
        .into_iter()
        .find(|c| c.id == ctx)
        .map(|c| (c.label, c.state.to_string()))
}

/// Apply `moves` to `sim` and return the plain moves taken. `Err` says which move failed and
/// why: `move 3 ("T") is refused: ...` (moves counted as played, `T*3` is three), or for a
/// destination `moves[1] ("T to end"): ...`.
pub fn play(
    sim: &mut Simulator,
    moves: &[Move],
    written: &[String],
) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        match m {
            Move::Repeat { mv, times } => {
                for _ in 0..*times {
                    sim.apply(mv).map_err(|e| {
                        format!(
                            "move {} ({mv:?}) is refused: {}",
                            out.len() + 1,
                            refusal(&e)
                        )
                    })?;
                    out.push(mv.clone());
                }
            }
            Move::ToLabel { ctx, .. } | Move::ToEnd { ctx } => {
                let spec = written.get(i).map(String::as_str).unwrap_or("");
                let at = |what: String| format!("moves[{i}] ({spec:?}): {what}");
                let arrived = |sim: &Simulator| -> Result<bool, String> {
                    let Some((label, state)) = whereabouts(sim, ctx) else {
                        return Err(at(format!("the scenario has no context {ctx}")));
                    };
                    Ok(match m {
                        Move::ToLabel { label: want, .. } => label.as_deref() == Some(want),
                        _ => state == "finished",
                    })
                };
                // A context that is already there must go round again (or is an error for `to
                // end`): a destination always takes at least one step.
                arrived(sim)?;
                let mut taken = 0;
                loop {
                    if taken == MAX_RUN {
                        return Err(at(format!(
                            "{ctx} took {MAX_RUN} steps without getting there"
                        )));
                    }
                    if let Err(e) = sim.apply(ctx) {
                        let (label, state) = whereabouts(sim, ctx).unwrap_or_default();
                        return Err(at(format!(
                            "{ctx} is refused after {taken} step(s), {state} at {}, before getting there: {}",
                            label.as_deref().unwrap_or("no line"),
                            refusal(&e)
                        )));
                    }
                    out.push(ctx.clone());
                    taken += 1;
                    if arrived(sim)? {
                        break;
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Why the simulator refused a move, without its own move index: a lesson names the move by
/// its place in the lesson step, and one index is what a reader can look up.
pub(crate) fn refusal(e: &slub_sim::Error) -> String {
    match e {
        slub_sim::Error::Move { why, .. } => format!("not enabled: {why}"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENARIO: &str = r#"{ "schemaVersion": 1, "cpus": 2,
      "tasks": [ { "id": "T", "cpu": 0, "ops": [ { "op": "alloc", "var": "x" }, { "op": "free", "var": "x" } ] } ] }"#;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn repetition_expands_and_bad_moves_are_named() {
        let written = strings(&["T*3", "migrate:T:1", "I", "T to slab_alloc:A9", "I to end"]);
        assert_eq!(
            parse_moves(&written).unwrap(),
            [
                Move::Repeat {
                    mv: "T".into(),
                    times: 3
                },
                Move::Repeat {
                    mv: "migrate:T:1".into(),
                    times: 1
                },
                Move::Repeat {
                    mv: "I".into(),
                    times: 1
                },
                Move::ToLabel {
                    ctx: "T".into(),
                    label: "slab_alloc:A9".into()
                },
                Move::ToEnd { ctx: "I".into() },
            ]
        );
        for bad in [
            "T*0",
            "T*501",
            "migrate:T",
            "T**2",
            "T to A9",
            "T to",
            "1T to end",
        ] {
            let e = parse_moves(&strings(&["T", bad])).unwrap_err();
            assert!(e.starts_with(&format!("moves[1]: {bad:?}: ")), "{e}");
        }
    }

    #[test]
    fn destinations_resolve_to_the_counted_moves() {
        // Where T is after each of its moves, counted.
        let mut sim = Simulator::from_json(SCENARIO, false).unwrap();
        let mut labels = Vec::new();
        while sim.apply("T").is_ok() {
            labels.push(whereabouts(&sim, "T").unwrap());
        }
        let total = labels.len();
        assert!(total > 3);
        assert_eq!(labels.last().unwrap().1, "finished");
        // `T to <the label after move k>` is k moves when that label is not seen before.
        let k = 3;
        let label = labels[k - 1].0.clone().unwrap();
        let first = labels
            .iter()
            .position(|l| l.0.as_deref() == Some(&label))
            .unwrap()
            + 1;
        let mut sim = Simulator::from_json(SCENARIO, false).unwrap();
        let written = strings(&[&format!("T to {label}")]);
        let got = play(&mut sim, &parse_moves(&written).unwrap(), &written).unwrap();
        assert_eq!(got.len(), first);
        // `T to end` is every move T has.
        let mut sim = Simulator::from_json(SCENARIO, false).unwrap();
        let written = strings(&["T", "T to end"]);
        let got = play(&mut sim, &parse_moves(&written).unwrap(), &written).unwrap();
        assert_eq!(got, vec!["T".to_string(); total]);
        // Again: T has finished, so it cannot get anywhere.
        let written = strings(&["T to end"]);
        let e = play(&mut sim, &parse_moves(&written).unwrap(), &written).unwrap_err();
        assert!(
            e.starts_with("moves[0] (\"T to end\"): T is refused after 0 step(s), finished"),
            "{e}"
        );
        // A label T never reaches.
        let mut sim = Simulator::from_json(SCENARIO, false).unwrap();
        let written = strings(&["T to no_such:L1"]);
        let e = play(&mut sim, &parse_moves(&written).unwrap(), &written).unwrap_err();
        assert!(e.contains("refused after") && e.contains("finished"), "{e}");
        // A context the scenario does not have.
        let written = strings(&["Q to end"]);
        let e = play(&mut sim, &parse_moves(&written).unwrap(), &written).unwrap_err();
        assert!(e.contains("no context Q"), "{e}");
    }
}
