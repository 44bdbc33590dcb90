//! Gates and waits: the order a workload puts between its contexts' operations (a consumer
//! after its producer, slab_test's barrier), and how a context that cannot step waits.

use slub_sim::model::state::CtxId;
use slub_sim::model::PolicyView;

/// Context `ctx` may not start its op `op` before context `after_ctx` has finished its op
/// `after_op`. The wait is idle time (the context sleeps), not cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gate {
    pub ctx: usize,
    pub op: usize,
    pub after_ctx: usize,
    pub after_op: usize,
}

/// How a context that cannot step waits: asleep for work (a closed gate, a variable not yet
/// bound), or spinning on a lock, with the line of that lock (`None` for a CPU's local lock,
/// which nobody on another CPU holds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wait {
    Sleep,
    Spin(Option<u32>),
}

/// Whether context `cx`'s next op has no closed gate in front of it.
pub(crate) fn gate_open(v: PolicyView, gates_of: &mut [Vec<Gate>], cx: usize) -> bool {
    let next = v.ctx(cx as CtxId).op;
    let list = &mut gates_of[cx];
    // Gates of ops already started are behind us.
    while list.last().is_some_and(|g| g.op < next) {
        list.pop();
    }
    // Every gate of the next op (a barrier has one per other CPU) must be open.
    list.iter().rev().take_while(|g| g.op == next).all(|g| {
        let a = v.ctx(g.after_ctx as CtxId);
        let done = if a.finished { usize::MAX } else { a.op };
        done > g.after_op
    })
}
