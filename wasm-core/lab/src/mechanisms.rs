//! The rows of a comparison's `mechanisms`: what each mechanism of `mech` did on either
//! side, in words and counts, as the Lab page lists them.

use crate::{round2, Metric, Report};
use serde::Serialize;

/// One mechanism of `mech` as a comparison used it.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct MechanismRow {
    /// `zone-lock`, `page-lists`, `kmalloc-lookup`, `page-read`, `store-buffer`, `mlp`,
    /// `phase-barrier`, `warm-up`, `fifo-locks`.
    pub key: &'static str,
    /// A few words: what it is.
    pub name: &'static str,
    /// What it did in this comparison, before → after.
    pub detail: String,
}

/// The mechanisms two runs used, as the page lists them.
pub(crate) fn mechanism_rows(b: &Report, a: &Report, metric: Metric) -> Vec<MechanismRow> {
    let (mb, ma) = (&b.mechanisms, &a.mechanisms);
    let ops = |r: &Report| {
        match metric {
            Metric::Alloc => r.ops.alloc,
            Metric::Free => r.ops.free,
            Metric::Pair => r.ops.alloc,
            Metric::Message => u64::from(r.params.n * r.params.pairs.unwrap_or(1)),
        }
        .max(1) as f64
    };
    let per = match metric {
        Metric::Alloc => "allocation",
        Metric::Free => "free",
        Metric::Pair => "pair",
        Metric::Message => "message",
    };
    let mut rows = Vec::new();
    let (pb, pa) = (&mb.pages, &ma.pages);
    if pb.zone_locks + pa.zone_locks > 0 {
        rows.push(MechanismRow {
            key: "zone-lock",
            name: "zone->lock",
            detail: format!(
                "taken {} → {} times; waiting for it {} → {} cycles per {per}",
                thousands(pb.zone_locks),
                thousands(pa.zone_locks),
                round2(pb.zone_wait_cycles as f64 / ops(b)),
                round2(pa.zone_wait_cycles as f64 / ops(a)),
            ),
        });
    }
    if pb.pcp_allocs + pb.pcp_frees + pa.pcp_allocs + pa.pcp_frees > 0 {
        rows.push(MechanismRow {
            key: "page-lists",
            name: "per-CPU page lists",
            detail: format!(
                "{} → {} pages taken from them, {} → {} given back",
                thousands(pb.pcp_allocs),
                thousands(pa.pcp_allocs),
                thousands(pb.pcp_frees),
                thousands(pa.pcp_frees)
            ),
        });
    }
    if mb.kmalloc_lookups + ma.kmalloc_lookups > 0 {
        rows.push(MechanismRow {
            key: "kmalloc-lookup",
            name: "kmalloc's size lookup",
            detail: format!(
                "before each of {} → {} allocations",
                thousands(mb.kmalloc_lookups),
                thousands(ma.kmalloc_lookups)
            ),
        });
    }
    let (cb, ca) = (&mb.core, &ma.core);
    if cb.buffered_stores + ca.buffered_stores > 0 {
        rows.push(MechanismRow {
            key: "store-buffer",
            name: "store buffer",
            detail: format!(
                "{} → {} stores retired into it ({} → {} of them misses); LOCKed instructions waited for it to drain {} → {} cycles per {per}",
                thousands(cb.buffered_stores),
                thousands(ca.buffered_stores),
                thousands(cb.buffered_misses),
                thousands(ca.buffered_misses),
                round2(cb.drain_cycles as f64 / ops(b)),
                round2(ca.drain_cycles as f64 / ops(a)),
            ),
        });
    }
    if cb.overlapped_loads + ca.overlapped_loads > 0 {
        rows.push(MechanismRow {
            key: "mlp",
            name: "overlapped loads",
            detail: format!(
                "{} → {} loads issued behind the previous one",
                thousands(cb.overlapped_loads),
                thousands(ca.overlapped_loads)
            ),
        });
    }
    if b.params.cpus > 1 && mb.barrier_idle + ma.barrier_idle > 0 {
        rows.push(MechanismRow {
            key: "phase-barrier",
            name: "slab_test's phase barrier",
            detail: format!(
                "no CPU frees before all {} have allocated; they slept {} → {} cycles at it in all",
                b.params.cpus,
                thousands(mb.barrier_idle),
                thousands(ma.barrier_idle)
            ),
        });
    }
    if mb.warmup_ops + ma.warmup_ops > 0 {
        rows.push(MechanismRow {
            key: "warm-up",
            name: "warm-up",
            detail: format!(
                "{} → {} operations run before the clock starts (the seed's benchmark ran far longer than the model, so its first allocations' cost is no share of its figure)",
                thousands(mb.warmup_ops),
                thousands(ma.warmup_ops)
            ),
        });
    }
    if mb.queued_handoffs + ma.queued_handoffs > 0 {
        rows.push(MechanismRow {
            key: "fifo-locks",
            name: "spinlocks taken in turn",
            detail: format!(
                "{} → {} times a list_lock (or a barn's lock) went to the CPU that had waited longest",
                thousands(mb.queued_handoffs),
                thousands(ma.queued_handoffs)
            ),
        });
    }
    if mb.page_reads + ma.page_reads > 0 {
        rows.push(MechanismRow {
            key: "page-read",
            name: "virt_to_head_page",
            detail: format!(
                "the object's struct page read by each of {} → {} frees, {} → {} load(s) each (compound_head's PageTail test; kfree also reads slab_cache, and SLUB's kfree tests PageSlab)",
                thousands(mb.page_reads),
                thousands(ma.page_reads),
                mb.page_loads.checked_div(mb.page_reads).unwrap_or(0),
                ma.page_loads.checked_div(ma.page_reads).unwrap_or(0)
            ),
        });
    }
    rows
}

/// A count as the page writes it: `16,000`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
