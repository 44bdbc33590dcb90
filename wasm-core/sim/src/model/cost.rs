//! The cycle cost model of model.md §7, as one table. Every step is charged its instruction cost
//! plus the cost of each cache line it touches (see `core/memory.rs`). The Lab uses the same table
//! for every experiment: no per-experiment constants.
//!
//! [`TABLE`] is the table as data: each constant with its cycles, unit and source. The Lab
//! page reads it through `slub_lab_core::export::cases` and `docs/cost-table.md` is written
//! from it ([`markdown`]; a test keeps the two equal), so neither parses this file.

/// One constant of the cost table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cost {
    /// The constant's name in this module (`L1_HIT`).
    pub name: &'static str,
    pub value: u64,
    pub unit: &'static str,
    /// Where the figure comes from (model.md §7).
    pub source: &'static str,
}

pub const L1_HIT: u64 = 4;
pub const L3_UNSHARED: u64 = 40;
pub const CLEAN_IN_OTHER_CORE: u64 = 65;
pub const MODIFIED_IN_OTHER_CORE: u64 = 75;
pub const REMOTE_SOCKET: u64 = 200;
pub const LOCKED_CMPXCHG16B: u64 = 20;
pub const PERCPU_CMPXCHG16B: u64 = 9;
pub const PERCPU_CMPXCHG: u64 = 3;
pub const IRQ_SAVE: u64 = 14;
pub const IRQ_RESTORE: u64 = 10;
pub const PREEMPT_TOGGLE: u64 = 3;
pub const SPIN_LOCK: u64 = 20;
pub const SPIN_UNLOCK: u64 = 5;
pub const PREFETCH: u64 = 1;
pub const PAGE_ALLOC: u64 = 600;
pub const PAGE_FREE: u64 = 300;

const fn cycles(name: &'static str, value: u64, source: &'static str) -> Cost {
    Cost {
        name,
        value,
        unit: "cycles",
        source,
    }
}

const IRQ: &str = "the 20–30 estimate for pushf;cli…popf, split";
const SPIN: &str = "uncontended lock+unlock 25, estimate";
const PAGE: &str = "300–1000, estimate";

/// Every constant above, in the order the docs list them. Constants that share a source
/// (`IRQ_SAVE` and `IRQ_RESTORE`) are adjacent, and the page shows them as one row.
pub const TABLE: [Cost; 16] = [
    cycles("L1_HIT", L1_HIT, "Xeon 5500 guide, \"L1 ~4 cycles\""),
    cycles(
        "L3_UNSHARED",
        L3_UNSHARED,
        "same guide; also the cost of a line no CPU holds",
    ),
    cycles(
        "CLEAN_IN_OTHER_CORE",
        CLEAN_IN_OTHER_CORE,
        "same guide; also the invalidation a write to a Shared line needs",
    ),
    cycles(
        "MODIFIED_IN_OTHER_CORE",
        MODIFIED_IN_OTHER_CORE,
        "same guide, \"~75\"",
    ),
    cycles(
        "REMOTE_SOCKET",
        REMOTE_SOCKET,
        "100–300 in the guide; CPUs on different NUMA nodes",
    ),
    cycles(
        "LOCKED_CMPXCHG16B",
        LOCKED_CMPXCHG16B,
        "estimate (model.md §7)",
    ),
    cycles(
        "PERCPU_CMPXCHG16B",
        PERCPU_CMPXCHG16B,
        "non-LOCK `cmpxchg16b`, M10",
    ),
    cycles("PERCPU_CMPXCHG", PERCPU_CMPXCHG, "non-LOCK `cmpxchg`, M8"),
    cycles("IRQ_SAVE", IRQ_SAVE, IRQ),
    cycles("IRQ_RESTORE", IRQ_RESTORE, IRQ),
    cycles(
        "PREEMPT_TOGGLE",
        PREEMPT_TOGGLE,
        "preempt disable+enable = 6, M8",
    ),
    cycles("SPIN_LOCK", SPIN_LOCK, SPIN),
    cycles("SPIN_UNLOCK", SPIN_UNLOCK, SPIN),
    cycles(
        "PREFETCH",
        PREFETCH,
        "estimate: the issue; the line arrives after the transfer it starts",
    ),
    cycles("PAGE_ALLOC", PAGE_ALLOC, PAGE),
    cycles("PAGE_FREE", PAGE_FREE, PAGE),
];

/// Each constant of [`TABLE`] by name, in its order: what the model charges (`Core::charge`)
/// and counts, so a run can say where its cycles went and be re-run with one constant moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Id {
    L1Hit,
    L3Unshared,
    CleanInOtherCore,
    ModifiedInOtherCore,
    RemoteSocket,
    LockedCmpxchg16b,
    PercpuCmpxchg16b,
    PercpuCmpxchg,
    IrqSave,
    IrqRestore,
    PreemptToggle,
    SpinLock,
    SpinUnlock,
    Prefetch,
    PageAlloc,
    PageFree,
}

/// How many constants the table has.
pub const N: usize = TABLE.len();

/// What a constant's cycles are spent on, for the Lab's breakdown (issue: "waiting, transfers,
/// atomics and work"; waiting is the driver's, not a constant's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Share {
    /// A cache line fetched from another core, the L3 or another socket.
    Transfer,
    /// A compare-and-swap or a lock acquisition (a read-modify-write instruction).
    Atomic,
    /// Everything else: L1 hits, interrupt and preemption toggles, unlocks, prefetch issue,
    /// the page allocator.
    Work,
}

impl Id {
    pub const ALL: [Id; N] = [
        Id::L1Hit,
        Id::L3Unshared,
        Id::CleanInOtherCore,
        Id::ModifiedInOtherCore,
        Id::RemoteSocket,
        Id::LockedCmpxchg16b,
        Id::PercpuCmpxchg16b,
        Id::PercpuCmpxchg,
        Id::IrqSave,
        Id::IrqRestore,
        Id::PreemptToggle,
        Id::SpinLock,
        Id::SpinUnlock,
        Id::Prefetch,
        Id::PageAlloc,
        Id::PageFree,
    ];

    /// The constant's row of [`TABLE`].
    // `Id`'s discriminants are `0..N`, the rows of `TABLE`: `Id::ALL` has N entries and the
    // test `every_id_is_its_row` checks each.
    #[allow(clippy::indexing_slicing)]
    pub fn cost(self) -> &'static Cost {
        &TABLE[self as usize]
    }

    pub fn share(self) -> Share {
        match self {
            Id::L3Unshared | Id::CleanInOtherCore | Id::ModifiedInOtherCore | Id::RemoteSocket => {
                Share::Transfer
            }
            Id::LockedCmpxchg16b | Id::PercpuCmpxchg16b | Id::PercpuCmpxchg | Id::SpinLock => {
                Share::Atomic
            }
            _ => Share::Work,
        }
    }
}

/// The cycles the machine charges per constant: [`TABLE`]'s by default; the Lab's sensitivity
/// runs move one constant (`scaled`) and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Costs([u64; N]);

impl Default for Costs {
    fn default() -> Self {
        let mut v = [0; N];
        for (slot, c) in v.iter_mut().zip(TABLE.iter()) {
            *slot = c.value;
        }
        Costs(v)
    }
}

impl Costs {
    #[allow(clippy::indexing_slicing)] // as `Id::cost`
    pub fn get(&self, id: Id) -> u64 {
        self.0[id as usize]
    }

    /// The table with `id` multiplied by `percent` / 100 (rounded to the nearest cycle).
    pub fn scaled(mut self, id: Id, percent: u64) -> Costs {
        if let Some(v) = self.0.get_mut(id as usize) {
            *v = v.saturating_mul(percent).saturating_add(50) / 100;
        }
        self
    }
}

/// The rows as the docs and the page show them: adjacent constants with one source form one
/// row (`IRQ_SAVE / IRQ_RESTORE`, `14 / 10`).
pub fn rows() -> Vec<(Vec<&'static Cost>, &'static str)> {
    let mut out: Vec<(Vec<&'static Cost>, &'static str)> = Vec::new();
    for c in &TABLE {
        match out.last_mut() {
            Some((group, source)) if *source == c.source => group.push(c),
            _ => out.push((vec![c], c.source)),
        }
    }
    out
}

/// The table in Markdown (`docs/cost-table.md` is this, between its markers).
pub fn markdown() -> String {
    let mut s = String::from("| constant | cycles | source (model.md §7) |\n|---|---|---|\n");
    for (group, source) in rows() {
        let names: Vec<String> = group.iter().map(|c| format!("`{}`", c.name)).collect();
        let values: Vec<String> = group.iter().map(|c| c.value.to_string()).collect();
        s += &format!(
            "| {} | {} | {source} |\n",
            names.join(" / "),
            values.join(" / ")
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_docs_show_this_table() {
        let doc = include_str!("../../../../docs/cost-table.md");
        assert!(
            doc.contains(&markdown()),
            "docs/cost-table.md is not the table of model::cost; it should read:\n{}",
            markdown()
        );
    }

    #[test]
    fn every_id_is_its_row() {
        for (i, id) in Id::ALL.iter().enumerate() {
            assert_eq!(*id as usize, i);
            let camel: String = TABLE[i]
                .name
                .split('_')
                .map(|w| w[..1].to_string() + &w[1..].to_lowercase())
                .collect();
            assert_eq!(format!("{id:?}").to_lowercase(), camel.to_lowercase());
        }
        assert_eq!(
            Costs::default().get(Id::ModifiedInOtherCore),
            MODIFIED_IN_OTHER_CORE
        );
        assert_eq!(Costs::default().scaled(Id::L1Hit, 125).get(Id::L1Hit), 5);
    }

    #[test]
    fn every_name_is_its_constant() {
        let mut names: Vec<&str> = TABLE.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TABLE.len(), "a constant is listed twice");
        let by_name = |n: &str| TABLE.iter().find(|c| c.name == n).map(|c| c.value);
        assert_eq!(by_name("L1_HIT"), Some(L1_HIT));
        assert_eq!(by_name("PAGE_FREE"), Some(PAGE_FREE));
        assert_eq!(by_name("IRQ_RESTORE"), Some(IRQ_RESTORE));
    }
}
