//! The user's `touch` op, the same under every allocator: the user writes its object's
//! payload, the free-pointer word included (a step of the program, not of the allocator).

use super::memory::Access;
use super::state::*;
use super::{Core, Flow};
// Its locals are defined in `locals`, below the frame table (`pcs`) that holds them.
pub use crate::model::locals::Touch;

impl Locals for Touch {
    fn holds_addr(&self, a: Addr) -> bool {
        self.x == a
    }
}

impl Touch {
    /// The `touch` op: the user writes the object's payload, free pointer word included.
    pub(super) fn exec(&self, core: &mut Core) -> Flow {
        step!(core);
        if let Some((s, i)) = core.object_of(self.x) {
            let line = core.obj_line(s, i);
            core.access(line, Access::Write);
            if let Some(w) = core.fp_slot(s, i) {
                *w = DATA | self.var as u64;
            }
        }
        note!(
            core,
            Store,
            format!("{}", core.addr_name(self.x)),
            "The user writes into {}: its line is now this CPU's, and its first word is data.",
            core.addr_name(self.x)
        );
        Flow::Ret(Ret::new(NULL, None))
    }
}
