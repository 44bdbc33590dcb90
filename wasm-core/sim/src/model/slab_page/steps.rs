//! The steps SLUB's and Linux 7.0's functions take on a slab's `freelist` + `counters` pair:
//! the read of the pair and the native double CAS on it, each written once here with how
//! events name it, the narration left to the caller (its words are its listing line's).

use super::super::state::*;
use super::super::Core;
use super::{Counters, SlabPages};

impl SlabPages<'_> {
    /// A step's read of slab `p`'s `freelist` and `counters` as one (`ld_slab_pair`), noted
    /// as a load of `page P.(freelist,counters)`; `say` words the narration from the pair
    /// read (it runs only when events are recorded).
    pub fn read_slab_pair(
        &mut self,
        p: SlabId,
        say: impl FnOnce(&Core, Addr, Counters) -> String,
    ) -> (Addr, Counters) {
        let (f, c) = self.ld_slab_pair(p);
        note!(
            self.core,
            Load,
            slab_pair_name(self.core, p),
            "{}",
            say(self.core, f, c)
        );
        (f, c)
    }

    /// Linux 7.0's native `cmpxchg_double` on slab `p`'s pair, from `old` to `new`, noted
    /// as `cmpxchg_double(P: freelist a -> b, inuse x -> y)` with `succeeds` or `fails`
    /// after it; returns whether it succeeded.
    pub fn cas_slab_pair(
        &mut self,
        p: SlabId,
        old: (Addr, Counters),
        new: (Addr, Counters),
        succeeds: &str,
        fails: &str,
    ) -> bool {
        let ok = self.cas2_native(p, old, new);
        note!(
            self.core,
            Cas2,
            slab_pair_name(self.core, p),
            "cmpxchg_double({}: freelist {} -> {}, inuse {} -> {}) {}",
            self.core.slab_name(p),
            self.core.addr_name(old.0),
            self.core.addr_name(new.0),
            old.1.inuse,
            new.1.inuse,
            if ok { succeeds } else { fails }
        );
        ok
    }
}

/// The narration of most reads of the pair: `P: freelist f, inuse … objects … frozen …`.
pub fn slab_pair_text(core: &Core, p: SlabId, f: Addr, c: Counters) -> String {
    format!(
        "{}: freelist {}, {}",
        core.slab_name(p),
        core.addr_name(f),
        super::counters_text(c)
    )
}

/// The pair as events name its target: `page P.(freelist,counters)`.
pub fn slab_pair_name(core: &Core, p: SlabId) -> String {
    format!("page {}.(freelist,counters)", core.slab_name(p))
}
