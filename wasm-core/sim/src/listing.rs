//! The code listing shown to the learner: every modelled function as pseudo-code in the
//! kernel's names (our own text), one line per label. Events and views carry `function:label`
//! and the UI highlights that line.
//!
//! Each step machine's labels are declared with their lines (`kernel_fn!`; the classic SLUB's
//! and the user's `touch` here, SLAB's in `listing_slab`, 7.0's in `listing_v7`): a function's
//! program counter is the enum of its labels (`model::Pc` has one arm per function), so a label
//! without its line or a line without its label does not compile, and a function's `match` on
//! its pc lists its own labels and no other. A test checks that every label an event can carry
//! is in the listing of its variant (`listing_for`).

use crate::model::state::Func;
use crate::scenario::{Allocator, Fastpath, Slowpath};
use crate::{ListingFunction, ListingLine};

pub(crate) type Lines = &'static [(&'static str, &'static str)];

/// One step machine's labels with their lines of the listing, in the listing's order:
///
/// ```text
/// kernel_fn! {
///     module "kernel_name" {
///         Label => "the line's text",
///         ...
///     }
/// }
/// ```
///
/// makes `module::Pc`, the machine's program counter (a `Copy` enum of one byte, one variant per
/// label, whose doc comment is the label's line, so an editor shows `FR5b`'s code on hover),
/// `Pc::name` (the label as events spell it), `module::NAME` (the kernel function's
/// name) and `module::LINES` (its lines of the listing). `model::pcs` makes the machine a
/// `model::Func` and its `Pc` an arm of `model::Pc`.
macro_rules! kernel_fn {
    ($module:ident $name:literal { $($label:ident => $text:literal,)+ }) => {
        #[doc = concat!("The labels of `", $name, "` (see `kernel_fn!`).")]
        pub mod $module {
            /// The function's program counter: one variant per line of its listing.
            // Labels are spelled as the spec's (`DSL`, `DSK`: deactivate_slab's splice).
            #[allow(clippy::upper_case_acronyms)]
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
            pub enum Pc {
                // Each label's doc is its line of the listing, so an editor shows the line
                // where the label is read or written.
                $(
                    #[doc = concat!("`", $text, "`\n\n(`", $name, "`, label `", stringify!($label), "`.)")]
                    $label
                ),+
            }
            pub use self::Pc::*;
            impl Pc {
                /// The label as events and the listing spell it.
                pub fn name(self) -> &'static str {
                    match self {
                        $(Pc::$label => stringify!($label)),+
                    }
                }
            }
            /// The kernel function's name.
            pub const NAME: &str = $name;
            /// Its lines of the listing: (label, text), in order.
            pub const LINES: $crate::listing::Lines = &[$((stringify!($label), $text)),+];
        }
    };
}
pub(crate) use kernel_fn;

// The user writing its object: the same line under every allocator.
kernel_fn! {
    touch "touch" {
        TC => "memset(object, data, s->object_size);        // the user writes its object",
    }
}

kernel_fn! {
    slab_alloc "slab_alloc" {
        AllocEntry => "slab_alloc(s, gfp, node):  // fast path; the era picks how c and tid are read",
        A1 => "preempt_disable();                       // E2, 3.10–3.19",
        A2 => "c = this_cpu_ptr(s->cpu_slab);",
        A3 => "tid = c->tid;",
        A4 => "preempt_enable();                        // preemption / migration point",
        E3a => "do { tid = this_cpu_read(s->cpu_slab->tid);   // E3, 4.0–5.14",
        E3b => "     c = raw_cpu_ptr(s->cpu_slab);",
        E3c => "} while (IS_ENABLED(CONFIG_PREEMPT) && tid != READ_ONCE(c->tid));",
        A5 => "object = c->freelist;",
        A6 => "page = c->page;",
        A7 => "if (!object || !node_match(page, node))",
        A7r => "        object = __slab_alloc(s, gfp, node, c);",
        A8 => "else { next = get_freepointer_safe(s, object);   // may be stale: the CAS decides",
        A9 => "       if (!this_cpu_cmpxchg_double(freelist, tid: object, tid -> next, next_tid(tid))) goto redo;",
        A10 => "       prefetch_freepointer(s, next);             // 3.4+ (prefetchw 5.16+)",
        A11 => "       stat(s, ALLOC_FASTPATH); }",
        E0a => "local_irq_save(flags);                     // E0, 2.6.22–2.6.38: no tid",
        E0b => "c = this_cpu_ptr(s->cpu_slab);",
        E0c => "object = c->freelist;",
        E0d => "if (!object || !node_match(c->page, node))",
        E0s => "        object = __slab_alloc(s, gfp, node, c);",
        E0t => "        /* slow path returned */",
        E0e => "else { next = get_freepointer(s, object);",
        E0f => "       c->freelist = next; stat(s, ALLOC_FASTPATH); }",
        E0g => "local_irq_restore(flags);",
        L0 => "c = get_cpu_ptr(s->cpu_slab);              // 2008 x86: cmpxchg_local, no tid",
        L1 => "c = this_cpu_ptr(s->cpu_slab);",
        L2 => "redo: object = c->freelist;",
        L3 => "if (!object || !node_match(c->page, node))",
        Ls => "        object = __slab_alloc(s, gfp, node, c);",
        Lt => "        /* slow path returned */",
        L4 => "else { next = object[c->offset];",
        L5 => "       if (cmpxchg_local(&c->freelist, object, next) != object) goto redo; }",
        L5a => "       /* emulated: */ local_irq_save(flags);",
        L5b => "       if (c->freelist == object)",
        L5c => "               c->freelist = next;",
        L5d => "       local_irq_restore(flags);  /* retry if it was not equal */",
        L6 => "put_cpu_ptr(s->cpu_slab);",
    }
}

// `__slab_alloc` is two step machines: the 3.x–5.14 body (irqs off throughout) and the
// 5.15+ one (the local lock); the listing shows them as one function.
kernel_fn! {
    slab_alloc_slow "__slab_alloc" {
        B1 => "local_irq_save(flags);                     // 3.x–5.14: irqs off throughout",
        B2 => "c = this_cpu_ptr(s->cpu_slab);             // we may have migrated",
        B3 => "page = c->page; if (!page) goto new_slab;",
        B4 => "redo: if (!node_match(page, node)) { stat(s, ALLOC_NODE_MISMATCH);",
        B4a => "        deactivate_slab(s, page, c->freelist);",
        B4d => "        /* deactivate_slab() */",
        B4b => "        c->page = NULL;",
        B4c => "        c->freelist = NULL; goto new_slab; }      // no tid bump here (3.10)",
        B5 => "freelist = c->freelist; if (freelist) goto load_freelist;",
        B6 => "stat(s, ALLOC_SLOWPATH); freelist = get_freelist(s, page);",
        B8 => "if (!freelist) {",
        B8a => "        c->page = NULL; stat(s, DEACTIVATE_BYPASS);",
        B8b => "        c->tid = next_tid(c->tid);               // 5.19+ (2022 fix)",
        B9 => "        goto new_slab; }  stat(s, ALLOC_REFILL);",
        B10 => "load_freelist: next = get_freepointer(s, freelist);",
        B11 => "c->freelist = next;",
        B12 => "c->tid = next_tid(c->tid);                 // fast paths in flight will fail",
        B13 => "local_irq_restore(flags); return freelist;",
        B14 => "new_slab: if (c->partial) {",
        B15 => "        page = c->page = c->partial;",
        B15b => "        c->partial = page->next; stat(s, CPU_PARTIAL_ALLOC);",
        B16 => "        c->freelist = NULL; goto redo; }",
        B17 => "freelist = get_partial(s, gfp, node, c);  // sets c->page on success",
        B17r => "if (freelist) goto load_freelist;",
        B17f => "        /* 6.8+: */ freelist = freeze_slab(s, slab);",
        B17g => "        c->page = slab;",
        B18r => "page = new_slab(s, gfp, node);",
        B18f => "if (!page) { local_irq_restore(flags); return NULL; }   // no tid bump (3.10)",
        B19 => "c = __this_cpu_ptr(s->cpu_slab);           // new_slab may have enabled irqs",
        B20 => "if (c->page)",
        B20c => "        flush_slab(s, c);",
        B21 => "freelist = page->freelist; page->freelist = NULL;",
        B22 => "stat(s, ALLOC_SLAB); c->page = page; goto load_freelist;",
    }
}

kernel_fn! {
    slab_alloc_slow_ll "__slab_alloc" {
        LL0 => "c = slub_get_cpu_ptr(s->cpu_slab); stat(s, ALLOC_SLOWPATH);   // 5.15+",
        LL1 => "c = this_cpu_ptr(s->cpu_slab);",
        LL2 => "reread_slab: slab = READ_ONCE(c->slab); if (!slab) goto new_slab;",
        LL3 => "redo: if (!node_match(slab, node)) { stat(ALLOC_NODE_MISMATCH); goto deactivate_slab; }",
        LL4 => "local_lock_irqsave(&s->cpu_slab->lock, flags);",
        LL5 => "if (slab != c->slab) { local_unlock_irqrestore(); goto reread_slab; }",
        LLu2 => "local_unlock_irqrestore(&s->cpu_slab->lock, flags); goto reread_slab;",
        LL6 => "freelist = c->freelist; if (freelist) goto load_freelist;",
        LL7 => "freelist = get_freelist(s, slab);",
        LL8 => "if (!freelist) {",
        LL8a => "        c->slab = NULL;",
        LL8b => "        c->tid = next_tid(c->tid);               // the bypass exit bumps tid",
        LL8c => "        local_unlock_irqrestore(); stat(s, DEACTIVATE_BYPASS); goto new_slab; }",
        LL10 => "load_freelist: c->freelist = get_freepointer(s, freelist);",
        LL11 => "               /* store c->freelist */",
        LL12 => "c->tid = next_tid(c->tid);                 // last write of the locked section",
        LL13 => "local_unlock_irqrestore(&s->cpu_slab->lock, flags);",
        LL9 => "slub_put_cpu_ptr(s->cpu_slab); return freelist;",
        LL30 => "deactivate_slab: local_lock_irqsave(&s->cpu_slab->lock, flags);",
        LL31 => "if (slab != c->slab) { local_unlock_irqrestore(); goto reread_slab; }",
        LL32 => "freelist = c->freelist;",
        LL33 => "c->slab = NULL;",
        LL34 => "c->freelist = NULL;",
        LL35 => "c->tid = next_tid(c->tid);",
        LLu37 => "local_unlock_irqrestore(&s->cpu_slab->lock, flags);",
        LL37 => "deactivate_slab(s, slab, freelist);        // outside the lock",
        LL20 => "new_slab: if (slub_percpu_partial(c)) {",
        LL21 => "        local_lock_irqsave(&s->cpu_slab->lock, flags);",
        LL22 => "        if (unlikely(c->slab)) { local_unlock_irqrestore(); goto reread_slab; }",
        LL23 => "        if (unlikely(!slub_percpu_partial(c))) { local_unlock_irqrestore(); goto new_objects; }",
        LLu20 => "        local_unlock_irqrestore(&s->cpu_slab->lock, flags);",
        LLu40 => "        local_unlock_irqrestore(&s->cpu_slab->lock, flags); goto new_objects;",
        LL24 => "        slab = c->slab = slub_percpu_partial(c);  // 5.15–6.7 (6.8+: slab = c->partial)",
        LL25 => "        slub_set_percpu_partial(c, slab);",
        LL25n => "        if (node_match(slab, node) && pfmemalloc_match(slab, gfp)) {   // 6.8+",
        LL25i => "                c->slab = slab;",
        LLu25 => "        } else { local_unlock_irqrestore(&s->cpu_slab->lock, flags);",
        LL25p => "                 slab->next = NULL; __put_partials(s, slab); continue; }",
        LL26 => "        local_unlock_irqrestore(); stat(s, CPU_PARTIAL_ALLOC); goto redo; }",
        LL27 => "        freelist = get_freelist(s, slab);        // 6.8+: freezes the partial slab",
        LL28 => "        stat(s, CPU_PARTIAL_ALLOC); goto load_freelist; }",
        LL40 => "new_objects: freelist = get_partial(s, node, &pc);",
        LL41 => "if (freelist) goto retry_load_slab;",
        LL41f => "if (!freelist) freelist = freeze_slab(s, slab);      // 6.8+",
        LL42 => "slub_put_cpu_ptr(s->cpu_slab);             // new_slab runs preemptible",
        LL43 => "slab = new_slab(s, gfp, node);",
        LL44 => "c = slub_get_cpu_ptr(s->cpu_slab);",
        LL46 => "if (unlikely(!slab)) { slub_put_cpu_ptr(); return NULL; }",
        LL45 => "stat(s, ALLOC_SLAB); freelist = slab->freelist; slab->freelist = NULL;",
        LL50 => "retry_load_slab: local_lock_irqsave(&s->cpu_slab->lock, flags);",
        LL51 => "if (unlikely(c->slab)) {",
        LL52 => "        flush_freelist = c->freelist; flush_slab = c->slab;",
        LL55 => "        c->slab = NULL;",
        LL56 => "        c->freelist = NULL;",
        LL57 => "        c->tid = next_tid(c->tid);",
        LL53 => "        local_unlock_irqrestore(&s->cpu_slab->lock, flags);",
        LL54 => "        deactivate_slab(s, flush_slab, flush_freelist);",
        LL54r => "        stat(s, CPUSLAB_FLUSH); goto retry_load_slab; }",
        LL58 => "c->slab = slab; goto load_freelist;",
    }
}

kernel_fn! {
    get_freelist "get_freelist" {
        G1 => "do { freelist = page->freelist;",
        G2 => "     counters = page->counters; new.inuse = page->objects; new.frozen = freelist != NULL;",
        G3 => "} while (!__cmpxchg_double_slab(s, page, freelist, counters, NULL, new.counters));",
        G3r => "return freelist;",
    }
}

kernel_fn! {
    get_partial_node "get_partial_node" {
        H1 => "if (!n || !n->nr_partial) return NULL;            // racy hint",
        H9 => "        return NULL;",
        H2 => "spin_lock(&n->list_lock);",
        H3 => "list_for_each_entry_safe(page, page2, &n->partial, lru) {",
        H4r => "        t = acquire_slab(s, n, page, object == NULL); if (!t) break;",
        H4a => "        if (!object) { c->page = page; stat(s, ALLOC_FROM_PARTIAL); object = t; }",
        H4b => "        else { put_cpu_partial(s, page, 0); stat(s, CPU_PARTIAL_NODE); }",
        H4c => "        if (!kmem_cache_has_cpu_partial(s) || available > s->cpu_partial / 2) break; }",
        H6 => "        remove_partial(n, slab);                   // 6.8+: not frozen here",
        H6p => "        put_cpu_partial(s, slab, 0);",
        H5 => "spin_unlock(&n->list_lock); return object;",
    }
}

kernel_fn! {
    acquire_slab "acquire_slab" {
        Q1 => "freelist = page->freelist;",
        Q2 => "counters = page->counters; new.frozen = 1; if (mode) { new.inuse = page->objects; new.freelist = NULL; }",
        Q3 => "if (!__cmpxchg_double_slab(s, page, freelist, counters, new.freelist, new.counters))",
        Q3r => "        return NULL;                              // single attempt (3.10)",
        Q4 => "remove_partial(n, page); return freelist;",
    }
}

kernel_fn! {
    new_slab "new_slab" {
        N1 => "if (gfpflags_allow_blocking(flags)) local_irq_enable();",
        N2 => "page = alloc_slab_page(s, flags, node, oo);      // the page allocator (may sleep)",
        N3 => "if (gfpflags_allow_blocking(flags)) local_irq_disable();",
        N4 => "for_each_object(p, s, start, page->objects) set_freepointer(s, p, p + s->size);",
        N5 => "page->freelist = start; page->inuse = page->objects; page->frozen = 1;",
    }
}

kernel_fn! {
    put_cpu_partial "put_cpu_partial" {
        U1 => "do { pages = 0; pobjects = 0; oldpage = this_cpu_read(s->cpu_slab->partial);",
        U2 => "     if (oldpage) { pobjects = oldpage->pobjects; pages = oldpage->pages;",
        U3 => "          if (drain && pobjects > s->cpu_partial) { local_irq_save(flags);",
        U3b => "               unfreeze_partials(s, this_cpu_ptr(s->cpu_slab));",
        U3c => "               local_irq_restore(flags); oldpage = NULL; stat(s, CPU_PARTIAL_DRAIN); } }",
        U4 => "     page->pages = pages + 1; page->pobjects = pobjects + free; page->next = oldpage;",
        U5 => "} while (this_cpu_cmpxchg(s->cpu_slab->partial, oldpage, page) != oldpage);",
        U9 => "return;",
        U6 => "local_lock_irqsave(&s->cpu_slab->lock, flags);        // 6.8+",
        U7 => "oldslab = this_cpu_read(s->cpu_slab->partial); if (drain && oldslab->slabs >= s->cpu_partial_slabs) { slab_to_put = oldslab; oldslab = NULL; }",
        U8 => "slab->slabs = slabs + 1; slab->next = oldslab;",
        U10 => "this_cpu_write(s->cpu_slab->partial, slab);",
        U11 => "local_unlock_irqrestore(&s->cpu_slab->lock, flags);",
        U12 => "if (slab_to_put) {",
        U13 => "        __put_partials(s, slab_to_put); stat(s, CPU_PARTIAL_DRAIN); }",
    }
}

kernel_fn! {
    unfreeze_partials "unfreeze_partials" {
        V1 => "while ((page = c->partial)) {",
        V2 => "        c->partial = page->next;",
        VZ2 => "        /* 6.8+: */ c->partial = NULL;   // detach the whole list, then __put_partials",
        V3z => "        /* for each slab of the detached list */",
        V3 => "        n2 = get_node(s, page_to_nid(page)); if (n != n2) {",
        V3u => "                if (n) spin_unlock(&n->list_lock);",
        V3l => "                n = n2; spin_lock(&n->list_lock); }",
        V4 => "        do { old.freelist = page->freelist; old.counters = page->counters; new = old; new.frozen = 0;",
        V5 => "        } while (!__cmpxchg_double_slab(s, page, old.freelist, old.counters, new.freelist, new.counters));",
        V5r => "        /* unfrozen */",
        V6 => "        if (!new.inuse && n->nr_partial > s->min_partial) { page->next = discard_page; discard_page = page; }",
        VZ6 => "        else { add_partial(n, page, DEACTIVATE_TO_TAIL); stat(s, FREE_ADD_PARTIAL); } }",
        V7 => "if (n) spin_unlock(&n->list_lock);",
        V8 => "while (discard_page) { stat(s, DEACTIVATE_EMPTY); discard_slab(s, page); stat(s, FREE_SLAB); }",
    }
}

kernel_fn! {
    deactivate_slab "deactivate_slab" {
        D0 => "if (page->freelist) { stat(s, DEACTIVATE_REMOTE_FREES); tail = DEACTIVATE_TO_TAIL; }",
        D0b => "while (freelist && (nextfree = get_freepointer(s, freelist))) {   // stage 1",
        D1 => "        do { prior = page->freelist; counters = page->counters;",
        D2 => "             set_freepointer(s, freelist, prior); new.inuse--;",
        D3 => "        } while (!__cmpxchg_double_slab(s, page, prior, counters, freelist, new.counters));",
        D3r => "        freelist = nextfree; }",
        D4 => "redo: old.freelist = page->freelist; old.counters = page->counters; new.frozen = 0;  // stage 2",
        D5 => "if (freelist) { new.inuse--; set_freepointer(s, freelist, old.freelist); new.freelist = freelist; }",
        D6 => "if (m == M_PARTIAL && !lock) { lock = 1; spin_lock(&n->list_lock); }",
        D7 => "if (l != m) {",
        D7r => "        if (l == M_PARTIAL) remove_partial(n, page);",
        D7a => "        if (m == M_PARTIAL) { add_partial(n, page, tail); stat(s, tail); } else if (m == M_FULL) stat(s, DEACTIVATE_FULL); }",
        D8 => "l = m; if (!__cmpxchg_double_slab(s, page, old.freelist, old.counters, new.freelist, new.counters)) goto redo;",
        D8r => "/* unfrozen */",
        D9 => "if (lock) spin_unlock(&n->list_lock);",
        D10 => "if (m == M_FREE) { stat(s, DEACTIVATE_EMPTY); discard_slab(s, page); stat(s, FREE_SLAB); }",
        DS0 => "if (slab->freelist) { stat(s, DEACTIVATE_REMOTE_FREES); tail = DEACTIVATE_TO_TAIL; }   // modern splice",
        DS1 => "while (freelist_iter) { nextfree = get_freepointer(s, freelist_iter); freelist_tail = freelist_iter; free_delta++; freelist_iter = nextfree; }",
        DS2 => "do { old.freelist = READ_ONCE(slab->freelist); old.counters = READ_ONCE(slab->counters); new.inuse -= free_delta; new.frozen = 0;",
        DS3 => "     if (freelist_tail) set_freepointer(s, freelist_tail, old.freelist);",
        DS4 => "} while (!slab_update_freelist(s, slab, old.freelist, old.counters, new.freelist, new.counters));",
        DSL => "     mode = !new.inuse && n->nr_partial >= s->min_partial ? M_FREE : new.freelist ? M_PARTIAL : M_FULL_NOLIST;   // 5.17–6.7",
        DSK => "     if (mode == M_PARTIAL) spin_lock_irqsave(&n->list_lock, flags);   // before the CAS",
        DSU => "     /* CAS failed */ spin_unlock_irqrestore(&n->list_lock, flags); goto redo;",
        DS4r => "/* unfrozen */",
        DS5 => "if (!new.inuse && n->nr_partial >= s->min_partial) { discard } else if (new.freelist) {",
        DS6 => "        spin_lock_irqsave(&n->list_lock, flags);",
        DS7 => "        add_partial(n, slab, tail); stat(s, tail);",
        DS8 => "        spin_unlock_irqrestore(&n->list_lock, flags);",
        DS9 => "} else stat(s, DEACTIVATE_FULL);",
    }
}

kernel_fn! {
    flush_slab "flush_slab" {
        W1 => "stat(s, CPUSLAB_FLUSH);",
        W2 => "deactivate_slab(s, c->page, c->freelist);    // 3.10 order",
        W2c => "/* deactivate_slab() */",
        W3 => "c->tid = next_tid(c->tid);",
        W4 => "c->page = NULL;",
        W4b => "c->freelist = NULL;",
        W9 => "return;",
        T1 => "page = c->page;                          // 3.1 order (tid-unguarded)",
        T2 => "c->tid = next_tid(c->tid);",
        T3 => "c->page = NULL;",
        T4 => "freelist = c->freelist; c->freelist = NULL;  then deactivate_slab(s, page, freelist)",
        K1 => "local_lock_irqsave(&s->cpu_slab->lock, flags);   // 5.15+ order",
        K2 => "slab = c->slab; freelist = c->freelist;",
        K3 => "c->slab = NULL;",
        K4 => "c->freelist = NULL;",
        K5 => "c->tid = next_tid(c->tid);",
        K6 => "local_unlock_irqrestore(&s->cpu_slab->lock, flags);",
        K7 => "if (slab) deactivate_slab(s, slab, freelist);   // interrupts on",
        K8 => "          stat(s, CPUSLAB_FLUSH);",
    }
}

kernel_fn! {
    flush_cpu_slab "__flush_cpu_slab" {
        FC0 => "local_irq_save(flags);   c = per_cpu_ptr(s->cpu_slab, cpu);   // 5.15+: a work item, irqs on",
        FC2 => "if (c->page)",
        FC2c => "        flush_slab(s, c);",
        FC3 => "unfreeze_partials(s, c);   // 5.15+: local_lock_irqsave(&s->cpu_slab->lock, flags);",
        FC3p => "        partial = c->partial; c->partial = NULL;",
        FC3u => "        local_unlock_irqrestore(); __put_partials(s, partial);   // interrupts on",
        FC4 => "local_irq_restore(flags);",
    }
}

kernel_fn! {
    slab_free "slab_free" {
        FreeEntry => "slab_free(s, page, x):  // fast path; the era picks how c and tid are read",
        F1 => "preempt_disable();",
        F2 => "c = this_cpu_ptr(s->cpu_slab);",
        F3 => "tid = c->tid;",
        F4 => "preempt_enable();",
        FE3a => "do { tid = this_cpu_read(s->cpu_slab->tid);        // 4.0–5.14",
        FE3b => "     c = raw_cpu_ptr(s->cpu_slab);",
        FE3c => "} while (IS_ENABLED(CONFIG_PREEMPT) && tid != READ_ONCE(c->tid));",
        F5 => "if (likely(page == c->page)) {",
        F6 => "        head = c->freelist;",
        F7 => "        set_freepointer(s, x, head);",
        F7b => "        /* 3.x: c->freelist is read again as the CAS's expected value */",
        F8 => "        if (!this_cpu_cmpxchg_double(freelist, tid: head, tid -> x, next_tid(tid))) goto redo;",
        F9 => "        stat(s, FREE_FASTPATH);",
        F5s => "} else __slab_free(s, page, x);",
        F5r => "return;",
        FE0a => "local_irq_save(flags);                        // E0: no tid",
        FE0b => "c = this_cpu_ptr(s->cpu_slab);",
        FE0c => "if (page == c->page) {",
        FE0d => "        head = c->freelist;",
        FE0e => "        set_freepointer(s, x, head);",
        FE0f => "        c->freelist = x; stat(s, FREE_FASTPATH);",
        FE0s => "} else __slab_free(s, page, x);",
        FE0g => "local_irq_restore(flags);",
        FL0 => "c = get_cpu_ptr(s->cpu_slab);                 // 2008: cmpxchg_local, no tid",
        FL1 => "c = this_cpu_ptr(s->cpu_slab);",
        FL2 => "redo: head = c->freelist;",
        FL3 => "if (page != c->page)",
        FLs => "        { local_irq_save(flags);                 // the 2007 slow paths disabled irqs",
        FLs2 => "          __slab_free(s, page, x);",
        FLr => "          local_irq_restore(flags); goto out; }",
        FL4 => "x[c->offset] = head;",
        FL5 => "if (cmpxchg_local(&c->freelist, head, x) != head) goto redo;",
        FL5a => "/* emulated: */ local_irq_save(flags);",
        FL5b => "if (c->freelist == head)",
        FL5c => "        c->freelist = x;",
        FL5d => "local_irq_restore(flags);  /* retry if it was not equal */",
        FL6 => "out: put_cpu_ptr(s->cpu_slab);",
    }
}

kernel_fn! {
    slab_free_slow "__slab_free" {
        S0 => "stat(s, FREE_SLOWPATH);",
        S1 => "do { if (unlikely(n)) { spin_unlock_irqrestore(&n->list_lock, flags); n = NULL; }   // 3.10+",
        S2 => "     prior = page->freelist; counters = page->counters;",
        S3 => "     set_freepointer(s, x, prior); new.inuse--; was_frozen = new.frozen; if ((!new.inuse || !prior) && !was_frozen) { if (cpu partial && !prior) new.frozen = 1; else {",
        S4 => "          n = get_node(s, page_to_nid(page)); spin_lock_irqsave(&n->list_lock, flags); } }",
        S5 => "} while (!cmpxchg_double_slab(s, page, prior, counters, x, new.counters));",
        S5r => "if (likely(!n)) { if (new.frozen && !was_frozen) put_cpu_partial(s, page, 1); if (was_frozen) stat(s, FREE_FROZEN); return; }",
        S5p => "stat(s, CPU_PARTIAL_FREE); return;",
        S6 => "if (unlikely(!new.inuse && n->nr_partial > s->min_partial)) goto slab_empty;",
        S7 => "if (!prior && !cpu partial) { add_partial(n, page, DEACTIVATE_TO_TAIL); stat(s, FREE_ADD_PARTIAL); }",
        S8 => "spin_unlock_irqrestore(&n->list_lock, flags); return;",
        S6r => "slab_empty: if (prior) { remove_partial(n, page); stat(s, FREE_REMOVE_PARTIAL); }",
        S6u => "spin_unlock_irqrestore(&n->list_lock, flags);",
        S6d => "stat(s, FREE_SLAB); discard_slab(s, page);",
    }
}

kernel_fn! {
    cmpxchg_double_slab "cmpxchg_double_slab" {
        X1 => "local_irq_save(flags);                    // only the irq-saving entry point",
        X2 => "slab_lock(page);                          // bit spinlock on page->flags",
        X3 => "if (page->freelist == freelist_old && page->counters == counters_old) {",
        X4 => "        page->freelist = freelist_new; page->counters = counters_new; }",
        X5 => "slab_unlock(page);",
        X6 => "local_irq_restore(flags); return ok;",
    }
}

/// The classic SLUB's and SLAB's functions in the listing's order; a listing function may have
/// more than one step machine (`__slab_alloc`: the 3.x body, then the 5.15+ one).
const LISTING: &[&[Func]] = &[
    &[Func::SlabAlloc],
    &[Func::SlabAllocSlow, Func::SlabAllocSlowLl],
    &[Func::GetFreelist],
    &[Func::GetPartialNode],
    &[Func::AcquireSlab],
    &[Func::NewSlab],
    &[Func::PutCpuPartial],
    &[Func::UnfreezePartials],
    &[Func::DeactivateSlab],
    &[Func::FlushSlab],
    &[Func::FlushCpuSlab],
    &[Func::SlabFree],
    &[Func::SlabFreeSlow],
    &[Func::CmpxchgDoubleSlab],
    &[Func::Touch],
    // ---- SLAB (model.md Appendix A; mm/slab.c ~v4.7) ----
    &[Func::CacheAlloc],
    &[Func::CacheAllocRefill],
    &[Func::CacheGrowBegin],
    &[Func::CacheGrowEnd],
    &[Func::CacheFree],
    &[Func::CacheFlusharray],
    &[Func::DoDrain],
    &[Func::SetupKmemCacheNode],
];

/// The listing of every modelled function of the classic SLUB and of SLAB, in one place with
/// the labels events refer to (Linux 7.0's is `listing_v7`).
pub fn listing() -> Vec<ListingFunction> {
    table(LISTING)
}

/// The listing of Linux 7.0's sheaves (`"era": "v7.0"`).
pub fn listing_v7() -> Vec<ListingFunction> {
    table(crate::listing_v7::LISTING_V7)
}

/// Each listing function: its name and the lines of its bodies, in order, each labelled
/// `function:label`.
fn table(t: &[&[Func]]) -> Vec<ListingFunction> {
    t.iter()
        .filter_map(|bodies| {
            let name = bodies.first()?.name();
            Some(ListingFunction {
                name: name.to_string(),
                lines: (bodies.iter())
                    .flat_map(|f| f.lines().iter())
                    .map(|(l, t)| ListingLine {
                        label: format!("{name}:{l}"),
                        text: t.to_string(),
                    })
                    .collect(),
            })
        })
        .collect()
}

/// The listing as the variant runs it: the fast paths show only the lines of
/// the variant's `fastpath` and `__slab_alloc` only those of its `slowpath`, so a v3.10 reader
/// never sees v4.0's `raw_cpu_ptr` loop or 2008's `cmpxchg_local`. The branches are those the
/// executor takes at `AllocEntry` / `FreeEntry` (model/slub/alloc.rs, free.rs); a test checks
/// that every label an event carries under a variant is in that variant's listing.
pub fn listing_for(
    allocator: Allocator,
    fastpath: Fastpath,
    slowpath: Slowpath,
) -> Vec<ListingFunction> {
    if allocator == Allocator::Sheaves {
        return listing_v7();
    }
    let mut all = listing();
    for f in &mut all {
        let func = f.name.clone();
        f.lines.retain(|l| {
            let short = l.label.rsplit(':').next().unwrap_or("");
            line_runs_under(&func, short, fastpath, slowpath)
        });
    }
    all
}

/// Whether the executor can reach line `short` of `func` under the two paths (see `listing_for`).
fn line_runs_under(func: &str, short: &str, fp: Fastpath, slowpath: Slowpath) -> bool {
    use Fastpath::*;
    let tid_paths = matches!(
        fp,
        PreemptDisable | TidLoop | TidDirect | TidUnguarded | NoTid
    );
    let local = matches!(fp, CmpxchgLocal | CmpxchgLocalEmulated);
    match func {
        "slab_alloc" => match short {
            "AllocEntry" => true,
            "A1" | "A4" => fp == PreemptDisable,
            "A2" | "A3" => matches!(fp, PreemptDisable | TidDirect | TidUnguarded),
            s if s.starts_with("E3") => matches!(fp, TidLoop | NoTid),
            s if s.starts_with("E0") => fp == IrqDisable,
            "L5" => fp == CmpxchgLocal,
            s if s.starts_with("L5") => fp == CmpxchgLocalEmulated,
            s if s.starts_with('L') => local,
            _ => tid_paths, // A5..A11
        },
        "slab_free" => match short {
            "FreeEntry" => true,
            "F1" | "F4" => fp == PreemptDisable,
            "F2" | "F3" => matches!(fp, PreemptDisable | TidDirect | TidUnguarded),
            "F7b" => tid_paths && fp != TidDirect,
            s if s.starts_with("FE3") => matches!(fp, TidLoop | NoTid),
            s if s.starts_with("FE0") => fp == IrqDisable,
            "FL5" => fp == CmpxchgLocal,
            s if s.starts_with("FL5") => fp == CmpxchgLocalEmulated,
            s if s.starts_with("FL") => local,
            _ => tid_paths, // F5..F9
        },
        "__slab_alloc" => {
            let ll = short.starts_with("LL");
            ll == (slowpath == Slowpath::LocalLock)
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every step machine is in the listing of its design, once (`touch`, the user's, in both).
    #[test]
    fn every_function_is_in_one_listing() {
        let count =
            |t: &[&[Func]], f: Func| t.iter().flat_map(|b| b.iter()).filter(|&&g| g == f).count();
        for &f in Func::ALL {
            let found = (count(LISTING, f), count(crate::listing_v7::LISTING_V7, f));
            if f == Func::Touch {
                assert_eq!(found, (1, 1));
            } else {
                assert!(found == (1, 0) || found == (0, 1), "{f:?}: {found:?}");
            }
        }
    }
}
