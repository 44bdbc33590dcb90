//! Scheduling policies: which enabled move comes next. Both read the machine only through the
//! driver seam ([`Driver`]), as any other policy should.

use crate::model::state::{Bump, CtxId};
use crate::model::{Driver, Move};

/// A policy picks the next move, or `None` when it stops (nothing enabled).
pub trait Policy {
    fn next_move<D: Driver>(&mut self, d: &D) -> Option<Move>;
}

/// The default policy of design.md §5: the context that moved last keeps going while it can;
/// otherwise the first enabled context in scenario order. Never a migration.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultPolicy;

impl Policy for DefaultPolicy {
    #[inline]
    fn next_move<D: Driver>(&mut self, d: &D) -> Option<Move> {
        default_move(d)
    }
}

/// The default policy's next move (see [`DefaultPolicy`]).
#[inline]
pub fn default_move<D: Driver>(d: &D) -> Option<Move> {
    let view = d.policy_view();
    if let Some(last) = view.last_moved() {
        if d.move_enabled(Move::Step(last)) {
            return Some(Move::Step(last));
        }
    }
    (0..view.contexts() as CtxId)
        .map(Move::Step)
        .find(|&m| d.move_enabled(m))
}

/// A uniformly random enabled move (migrations included), from a seed: the same seed on the
/// same scenario gives the same schedule. SplitMix64, so no dependency and no platform
/// difference between native and wasm.
#[derive(Clone, Debug)]
pub struct RandomPolicy {
    state: u64,
}

impl RandomPolicy {
    pub fn new(seed: u64) -> RandomPolicy {
        RandomPolicy { state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Policy for RandomPolicy {
    fn next_move<D: Driver>(&mut self, d: &D) -> Option<Move> {
        let moves = d.enabled_moves();
        if moves.is_empty() {
            return None;
        }
        let i = self.next_u64().checked_rem(moves.len() as u64).unwrap_or(0) as usize;
        moves.get(i).copied()
    }
}

/// Drive a machine by a policy until it stops or `max_moves` moves were applied, then run the
/// end-of-run checks. Returns the moves applied.
pub fn run<D: Driver, P: Policy>(d: &mut D, policy: &mut P, max_moves: usize) -> usize {
    let mut n = 0;
    for _ in 0..max_moves {
        let Some(mv) = policy.next_move(d) else {
            break;
        };
        d.apply(mv, None);
        n.bump();
    }
    d.finish_if_done();
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Machine;
    use crate::scenario;

    fn sc() -> scenario::Scenario {
        scenario::parse(
            r#"{ "schemaVersion": 1, "name": "t", "cpus": 2,
                 "cache": { "objectSize": 64, "objectsPerSlab": 4 },
                 "tasks": [ { "id": "A", "cpu": 0, "ops": [ { "op": "alloc", "var": "a" }, { "op": "free", "var": "a" } ] },
                            { "id": "B", "cpu": 1, "ops": [ { "op": "alloc", "var": "b" }, { "op": "free", "var": "b" } ] } ] }"#,
        )
        .expect("valid")
    }

    #[test]
    fn a_seed_gives_one_schedule_and_every_schedule_ends_clean() {
        let runs: Vec<(u64, Vec<u64>)> = (0..2)
            .map(|_| {
                let mut m = Machine::new(sc(), false, true);
                run(&mut m, &mut RandomPolicy::new(7), 10_000);
                let v = m.policy_view();
                assert!(v.all_finished() && v.violations().is_empty());
                (v.steps(), v.cycles_per_cpu().to_vec())
            })
            .collect();
        assert_eq!(runs[0], runs[1]);
        let mut default = Machine::new(sc(), false, true);
        run(&mut default, &mut DefaultPolicy, 10_000);
        assert!(default.policy_view().all_finished());
    }
}
