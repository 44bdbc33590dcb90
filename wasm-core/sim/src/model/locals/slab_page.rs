//! The slab level's word that the locals of SLUB and Linux 7.0 hold (`counters` as a function
//! read it or will write it). The slab level (`slab_page/`) keeps the word in `SlubPage`, with
//! its text and the primitives on it. The word is here, below the frame table (`pcs`), because
//! `Frame` holds it and nothing the frame table reaches may reach up to the state, the core or
//! an allocator.

/// `page->counters`: the `inuse:16, objects:15, frozen:1` word (model.md §1.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counters {
    pub inuse: u32,
    pub objects: u32,
    pub frozen: bool,
}
