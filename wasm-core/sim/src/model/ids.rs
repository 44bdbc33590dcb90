//! The plain values the whole model names: addresses, slab and context ids, the bound on CPUs.
//! They name nothing of the model, so everything can stand on them: the frames' locals
//! (`locals`) below the frame table (`pcs`), and the state (`state` re-exports them, so the
//! rest of the model and the crates outside it keep the paths `state::Addr`...).

/// A simulated address. Objects live at `OBJ_BASE * (slab + 1) + index * size`; `NULL` is 0.
pub type Addr = u64;
pub const NULL: Addr = 0;
pub const OBJ_BASE: Addr = 0x10_0000;
/// The value a user's payload write (`touch`) leaves in the free-pointer word: not an address.
pub const DATA: Addr = 0xDA7A_0000_0000;

pub type SlabId = u32;
pub type CtxId = u8;

pub const MAX_CPUS: usize = 8;
