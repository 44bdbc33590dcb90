//! The user's `touch` op, the same under every allocator: the user writes its object's
//! payload, the free-pointer word included (a step of the program, not of the allocator).

use super::memory::Access;
use super::state::*;
use super::{Flow, Machine};

/// A user's write into object `x` of variable `var` (the payload word).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Touch {
    pub x: Addr,
    pub var: u32,
}

impl Locals for Touch {
    fn holds_addr(&self, a: Addr) -> bool {
        self.x == a
    }
}

impl Machine {
    /// The `touch` op: the user writes the object's payload, free pointer word included.
    pub(super) fn touch(&mut self, fr: &mut Touch) -> Flow {
        step!(self.core);
        if let Some((s, i)) = self.core.object_of(fr.x) {
            let line = self.core.obj_line(s, i);
            self.core.access(line, Access::Write);
            if let Some(w) = self.core.fp_slot(s, i) {
                *w = DATA | fr.var as u64;
            }
        }
        note!(
            self.core,
            Store,
            format!("{}", self.core.addr_name(fr.x)),
            "The user writes into {}: its line is now this CPU's, and its first word is data.",
            self.core.addr_name(fr.x)
        );
        Flow::Ret(Ret::new(NULL, None))
    }
}
