//! The code listing of Linux 7.0's sheaves (model.md Appendix C), in the kernel's names and our own
//! words, one line per label of `model/sheaves`. Its functions share names with the classic
//! listing (`slab_free`, `__slab_free`, `new_slab`) but not their code, so it is a table of its
//! own, shown for `"era": "v7.0"` (`listing_for`).

use crate::listing::kernel_fn;
use crate::model::state::Func;

kernel_fn! {
    slab_alloc_node "slab_alloc_node" {
        SA1 => "slab_alloc_node(s, gfp, node): if (node != NUMA_NO_NODE && node != numa_mem_id()) goto slow;  // ALLOC_NODE_MISMATCH",
        SA2 => "if (!local_trylock(&s->cpu_sheaves->lock)) goto slow;   // alloc_from_pcs()",
        SA5 => "pcs = this_cpu_ptr(s->cpu_sheaves); main = pcs->main;",
        SA6 => "if (unlikely(main->size == 0)) {",
        SAe => "        pcs = __pcs_replace_empty_main(s, pcs, gfp);",
        SAr => "        if (!pcs) goto slow; }                      // the lock was dropped",
        SA7 => "object = main->objects[main->size - 1];",
        SA8 => "if (node != NUMA_NO_NODE && slab_nid(virt_to_slab(object)) != node) { local_unlock(); goto slow; }",
        SA9 => "main->size--;                              // a pop: no atomic, no tid",
        SAu => "local_unlock(&s->cpu_sheaves->lock);",
        SA12 => "stat(s, ALLOC_FASTPATH); return object;",
        SAs => "slow: return __slab_alloc_node(s, gfp, node) → ___slab_alloc();",
    }
}

kernel_fn! {
    local_trylock "local_trylock" {
        LT1 => "preempt_disable();                         // the CPU is fixed from here",
        LT2 => "if (READ_ONCE(lock->acquired))              // held by the context this one interrupted",
        LT2f => "        { preempt_enable(); return false; }",
        LT3 => "WRITE_ONCE(lock->acquired, 1); return true;   // irqs stay on",
    }
}

kernel_fn! {
    local_lock_v7 "local_lock" {
        LL1 => "preempt_disable();",
        LL2 => "WRITE_ONCE(lock->acquired, 1);             // no test: only blocking task contexts use it",
    }
}

kernel_fn! {
    local_unlock_v7 "local_unlock" {
        LU1 => "WRITE_ONCE(lock->acquired, 0);",
        LU2 => "preempt_enable();                          // preemption / migration point",
    }
}

kernel_fn! {
    pcs_replace_empty_main "__pcs_replace_empty_main" {
        SE1 => "__pcs_replace_empty_main(s, pcs, gfp): if (!cache_has_sheaves(s)) {   // capacity 0",
        SE1u => "        local_unlock(&s->cpu_sheaves->lock); return NULL; }",
        SE2 => "if (pcs->spare",
        SE2b => "        && pcs->spare->size > 0) {",
        SE3 => "        swap(pcs->main, pcs->spare); return pcs; }   // no statistic",
        SE4 => "barn = get_barn(s);                        // this CPU's node",
        SE5 => "full = barn_replace_empty_sheaf(barn, pcs->main, gfpflags_allow_spinning(gfp));",
        SE6 => "if (full) { stat(s, BARN_GET); pcs->main = full; return pcs; }",
        SE7 => "stat(s, BARN_GET_FAIL); can_alloc = gfpflags_allow_blocking(gfp);",
        SE8 => "if (can_alloc) { if (pcs->spare) { empty = pcs->spare; pcs->spare = NULL; }",
        SE8r => "                  else empty = barn_get_empty_sheaf(barn, true); }",
        SE9 => "local_unlock(&s->cpu_sheaves->lock);",
        SE10 => "if (!can_alloc) return NULL;               // GFP_ATOMIC never refills",
        SE11 => "if (empty) { if (!refill_sheaf(s, empty, gfp | __GFP_NOMEMALLOC)) full = empty;",
        SE11r => "        else {                              // 7.0 frees it as it is: its objects leak",
        SE11f => "                sheaf_flush_unused(s, empty) /* later kernels */; free_empty_sheaf(s, empty); return NULL; } }",
        SE12 => "else full = alloc_full_sheaf(s, gfp);     // __alloc_empty_sheaf + refill_sheaf",
        SE12r => "if (!full) return NULL;",
        SE13 => "local_lock(&s->cpu_sheaves->lock); pcs = this_cpu_ptr(s->cpu_sheaves);   // maybe another CPU",
        SE13r => "/* we may have migrated: pcs is the CPU we are on now */",
        SE14 => "if (pcs->main->size == 0) {",
        SE14b => "        if (!pcs->spare) pcs->spare = pcs->main; else barn_put_empty_sheaf(barn, pcs->main); pcs->main = full; return pcs; }",
        SE15 => "if (!pcs->spare) { pcs->spare = full; return pcs; }",
        SE16 => "if (pcs->spare->size == 0) {",
        SE16b => "        barn_put_empty_sheaf(barn, pcs->spare);",
        SE16r => "        pcs->spare = full; return pcs; }      // (or pcs->main = full after SE14)",
        SE17 => "barn_put_full_sheaf(barn, full);",
        SE17r => "stat(s, BARN_PUT); return pcs;",
    }
}

kernel_fn! {
    barn_replace_empty_sheaf "barn_replace_empty_sheaf" {
        BRE1 => "barn_replace_empty_sheaf(barn, empty): if (!data_race(barn->nr_full)) return NULL;",
        BRE2 => "spin_lock_irqsave(&barn->lock, flags);",
        BRE3 => "if (barn->nr_full) { full = list_first_entry(&barn->sheaves_full); list_del(full); list_add(empty, &barn->sheaves_empty); nr_full--; nr_empty++; }",
        BRE4 => "spin_unlock_irqrestore(&barn->lock, flags); return full;",
    }
}

kernel_fn! {
    barn_get_empty_sheaf "barn_get_empty_sheaf" {
        BGE1 => "barn_get_empty_sheaf(barn): if (!data_race(barn->nr_empty)) return NULL;",
        BGE2 => "spin_lock_irqsave(&barn->lock, flags);",
        BGE3 => "if (barn->nr_empty) { empty = list_first_entry(&barn->sheaves_empty); list_del(empty); nr_empty--; }",
        BGE4 => "spin_unlock_irqrestore(&barn->lock, flags); return empty;",
    }
}

kernel_fn! {
    barn_replace_full_sheaf "barn_replace_full_sheaf" {
        BRF1 => "barn_replace_full_sheaf(barn, full): if (data_race(barn->nr_full) >= MAX_FULL_SHEAVES) return ERR_PTR(-E2BIG);",
        BRF2 => "if (!data_race(barn->nr_empty)) return ERR_PTR(-ENOMEM);",
        BRF3 => "spin_lock_irqsave(&barn->lock, flags);",
        BRF4 => "if (barn->nr_empty) { empty = first of sheaves_empty; list_del(empty); list_add(full, &barn->sheaves_full); nr_empty--; nr_full++; } else empty = ERR_PTR(-ENOMEM);",
        BRF5 => "spin_unlock_irqrestore(&barn->lock, flags); return empty;",
    }
}

kernel_fn! {
    barn_put_empty_sheaf "barn_put_empty_sheaf" {
        BP1 => "barn_put_empty_sheaf(barn, sheaf): spin_lock_irqsave(&barn->lock, flags);",
        BP2 => "list_add(&sheaf->barn_list, &barn->sheaves_empty); barn->nr_empty++;   // no limit check",
        BP3 => "spin_unlock_irqrestore(&barn->lock, flags);",
    }
}

kernel_fn! {
    barn_put_full_sheaf "barn_put_full_sheaf" {
        BP1 => "barn_put_full_sheaf(barn, sheaf): spin_lock_irqsave(&barn->lock, flags);",
        BP2 => "list_add(&sheaf->barn_list, &barn->sheaves_full); barn->nr_full++;     // no limit check",
        BP3 => "spin_unlock_irqrestore(&barn->lock, flags);",
    }
}

kernel_fn! {
    refill_sheaf "refill_sheaf" {
        RS1 => "refill_sheaf(s, sheaf, gfp): to_fill = s->sheaf_capacity - sheaf->size; if (!to_fill) return 0;",
        RS2 => "filled = refill_objects(s, &sheaf->objects[sheaf->size], gfp, to_fill, to_fill);",
        RS3 => "sheaf->size += filled; stat_add(s, SHEAF_REFILL, filled);",
        RS4 => "return filled < to_fill ? -ENOMEM : 0;",
    }
}

kernel_fn! {
    refill_objects "refill_objects" {
        RO2 => "refill_objects(s, p, gfp, min, max): r = __refill_objects_node(s, p, gfp, min, max, get_node(s, numa_mem_id()), true);",
        RO3 => "if (r >= min) return r;  /* NUMA: __refill_objects_any() walks the zonelist, local node first */",
        RO3r => "        for each node n of the zonelist: if (data_race(n->nr_partial) <= s->min_partial) continue;",
        RO3n => "                r += __refill_objects_node(s, p + r, gfp, min - r, max - r, n, false);   // trylock",
        RO5 => "new_slab: slab = new_slab(s, gfp, local_node); if (!slab) return r;",
        RO7 => "stat(s, ALLOC_SLAB); r += alloc_from_new_slab(s, slab, p + r, max - r, true);",
        RO7r => "if (r < min) goto new_slab; return r;",
    }
}

kernel_fn! {
    refill_objects_node "__refill_objects_node" {
        RN1 => "__refill_objects_node(s, p, gfp, min, max, n, allow_spin): if (!get_partial_node_bulk(s, n, &pc, allow_spin))",
        RN1r => "        return 0;                          // pc.slabs: the isolated slabs",
        RN2 => "list_for_each_entry_safe(slab, ..., &pc.slabs) { list_del(&slab->slab_list);",
        RN3 => "        object = get_freelist_nofreeze(s, slab);   // the whole freelist",
        RN3r => "        /* the slab is full now, on no list */",
        RN4 => "        while (object && r < max) { p[r++] = object; object = get_freepointer(s, object); }",
        RN5 => "        if (object) { /* too many: find the tail and count them */",
        RN5r => "                __slab_free(s, slab, object, tail, cnt, _RET_IP_); }   // back to the slab",
        RN7 => "        if (r >= max) break; }  if (!list_empty(&pc.slabs)) { spin_lock_irqsave(&n->list_lock, flags);",
        RN7u => "        each slab left: inuse 0 && nr_partial >= min_partial ? keep to discard : add_partial(n, slab, ADD_TO_HEAD); spin_unlock_irqrestore();",
        RN8 => "        each slab kept: discard_slab(s, slab); }   return r;",
    }
}

kernel_fn! {
    get_partial_node_bulk "get_partial_node_bulk" {
        GB1 => "get_partial_node_bulk(s, n, pc, allow_spin): if (!n || !data_race(n->nr_partial)) return false;",
        GB2 => "if (allow_spin) spin_lock_irqsave(&n->list_lock); else if (!spin_trylock_irqsave(&n->list_lock)) return false;",
        GB3 => "list_for_each_entry_safe(slab, ..., &n->partial) { free = slab->objects - slab->inuse; if (total >= min && total + free > max) break; remove_partial(n, slab); list_add(&slab->slab_list, &pc->slabs); total += free; if (total >= max) break; }",
        GB4 => "spin_unlock_irqrestore(&n->list_lock, flags); return total > 0;",
    }
}

kernel_fn! {
    get_freelist_nofreeze "get_freelist_nofreeze" {
        GN1 => "get_freelist_nofreeze(s, slab): do { old.freelist = slab->freelist; old.counters = slab->counters;",
        GN3 => "        new.freelist = NULL; new.inuse = old.objects; } while (!slab_update_freelist(s, slab, &old, &new));   // CMPXCHG_DOUBLE_FAIL on a retry",
    }
}

kernel_fn! {
    allocate_slab "new_slab" {
        NB1 => "new_slab(s, gfp, node): slab = allocate_slab(): alloc_slab_page(...)   // may sleep with GFP_KERNEL",
        NB2 => "build the freelist through every object; slab->inuse = 0; slab->frozen = 0;   // private until published",
    }
}

kernel_fn! {
    alloc_from_new_slab "alloc_from_new_slab" {
        NS3 => "alloc_from_new_slab(s, slab, p, count, allow_spin): while (i < count && object) { p[i++] = object; object = get_freepointer(s, object); slab->inuse++; }",
        NS4 => "slab->freelist = object;                    // plain stores: nobody else sees the slab yet",
        NS5 => "if (slab->objects > count) { spin_lock_irqsave(&n->list_lock, flags);",
        NS5a => "        add_partial(n, slab, ADD_TO_HEAD);    // public from here",
        NS5u => "        spin_unlock_irqrestore(&n->list_lock, flags); }   return i;",
    }
}

kernel_fn! {
    slab_alloc_v7 "___slab_alloc" {
        SL1 => "___slab_alloc(s, gfp, node): stat(s, ALLOC_SLOWPATH); object = get_from_partial_node(s, get_node(s, node));",
        SL3 => "if (object) return object;  /* no node asked for: */ get_from_any_partial():",
        SL3a => "        for each node n of the zonelist (local first): if (n->nr_partial <= s->min_partial) continue;",
        SL3r => "                object = get_from_partial_node(s, n); if (object) return object;",
        SL5 => "slab = new_slab(s, gfp, node); if (!slab) { if (node asked for && try_thisnode) { try_thisnode = false; retry without __GFP_THISNODE; } return NULL; }",
        SL5r => "stat(s, ALLOC_SLAB); alloc_from_new_slab(s, slab, &object, 1, true);",
        SL7r => "return object;",
    }
}

kernel_fn! {
    get_from_partial_node "get_from_partial_node" {
        GP1 => "get_from_partial_node(s, n): if (!n || !data_race(n->nr_partial)) return NULL;",
        GP2 => "spin_lock_irqsave(&n->list_lock, flags);",
        GP4 => "slab = first of n->partial; old.freelist = slab->freelist; old.counters = slab->counters;",
        GP4b => "new.freelist = get_freepointer(s, old.freelist); new.inuse = old.inuse + 1;",
        GP5 => "if (!__slab_update_freelist(s, slab, &old, &new)) goto GP4;   // a lockless free pushed",
        GP6 => "if (!new.freelist) remove_partial(n, slab);   // full now",
        GP7 => "spin_unlock_irqrestore(&n->list_lock, flags); return old.freelist;",
    }
}

kernel_fn! {
    slab_free_v7 "slab_free" {
        SF2 => "slab_free(s, slab, object): if (slab_nid(slab) == numa_mem_id() && !slab_test_pfmemalloc(slab)) {",
        SF3 => "        if (likely(free_to_pcs(s, object, true)))",
        SF3r => "                return; }",
        SF4 => "__slab_free(s, slab, object, object, 1, addr); stat(s, FREE_SLOWPATH);   // remote node, or no room",
        SF4r => "return;",
    }
}

kernel_fn! {
    free_to_pcs "free_to_pcs" {
        FP1 => "free_to_pcs(s, object, allow_spin): if (!local_trylock(&s->cpu_sheaves->lock)) return false;",
        FP2 => "pcs = this_cpu_ptr(s->cpu_sheaves);",
        FP4 => "main = pcs->main;",
        FP5 => "if (unlikely(main->size == s->sheaf_capacity)) {",
        FP5r => "        pcs = __pcs_replace_full_main(s, pcs, allow_spin); if (!pcs) return false; }",
        FP6 => "pcs->main->objects[pcs->main->size] = object;",
        FP7 => "pcs->main->size++;                          // a push: no atomic, no tid",
        FP8 => "local_unlock(&s->cpu_sheaves->lock);",
        FP10 => "stat(s, FREE_FASTPATH); return true;",
    }
}

kernel_fn! {
    pcs_replace_full_main "__pcs_replace_full_main" {
        FR1 => "__pcs_replace_full_main(s, pcs, allow_spin): restart: if (!cache_has_sheaves(s)) {",
        FR1u => "        local_unlock(&s->cpu_sheaves->lock); return NULL; }",
        FR2 => "barn = get_barn(s);",
        FR3 => "put_fail = false; if (!pcs->spare) {",
        FR4 => "        empty = barn_get_empty_sheaf(barn, allow_spin);",
        FR4r => "        if (empty) { pcs->spare = pcs->main; pcs->main = empty; return pcs; } goto alloc_empty; }",
        FR5 => "if (pcs->spare->size < s->sheaf_capacity) {",
        FR5b => "        swap(pcs->main, pcs->spare); return pcs; }",
        FR6 => "empty = barn_replace_full_sheaf(barn, pcs->main, allow_spin);",
        FR6r => "if (!IS_ERR(empty)) { stat(s, BARN_PUT); pcs->main = empty; return pcs; }",
        FR8 => "if (PTR_ERR(empty) == -E2BIG) { stat(s, BARN_PUT_FAIL); to_flush = pcs->spare; pcs->spare = NULL;",
        FR8u => "        local_unlock(&s->cpu_sheaves->lock);",
        FR8f => "        sheaf_flush_unused(s, to_flush); empty = to_flush; goto got_empty; }",
        FR10 => "put_fail = true; alloc_empty: local_unlock(&s->cpu_sheaves->lock);",
        FR11 => "empty = alloc_empty_sheaf(s, GFP_NOWAIT); if (empty) goto got_empty;",
        FR12 => "if (put_fail) stat(s, BARN_PUT_FAIL); if (!sheaf_flush_main(s)) return NULL;",
        FR12a => "if (!local_trylock(&s->cpu_sheaves->lock)) return NULL;",
        FR12b => "pcs = this_cpu_ptr(s->cpu_sheaves);",
        FR12c => "if (pcs->main->size == s->sheaf_capacity) goto restart; return pcs;",
        FR13 => "got_empty: if (!local_trylock(&s->cpu_sheaves->lock)) {",
        FR13r => "        barn_put_empty_sheaf(barn, empty);",
        FR13f => "        return NULL; }",
        FR14r => "pcs = this_cpu_ptr(s->cpu_sheaves); __pcs_install_empty_sheaf(s, pcs, empty, barn); return pcs;",
    }
}

kernel_fn! {
    pcs_install_empty_sheaf "__pcs_install_empty_sheaf" {
        FI1 => "__pcs_install_empty_sheaf(s, pcs, empty, barn): if (!pcs->spare) { pcs->spare = pcs->main; pcs->main = empty; return; }",
        FI2 => "if (pcs->main->size < s->sheaf_capacity) {",
        FI2r => "        barn_put_empty_sheaf(barn, empty); return; }",
        FI3 => "if (pcs->spare->size < s->sheaf_capacity) { swap(pcs->main, pcs->spare); barn_put_empty_sheaf(barn, empty); return; }",
        FI4 => "barn_put_full_sheaf(barn, pcs->main);",
        FI4r => "stat(s, BARN_PUT); pcs->main = empty;",
    }
}

kernel_fn! {
    sheaf_flush_main "sheaf_flush_main" {
        FM1 => "sheaf_flush_main(s): next_batch: if (!local_trylock(&s->cpu_sheaves->lock)) return ret;",
        FM1r => "pcs = this_cpu_ptr(s->cpu_sheaves);",
        FM2 => "sheaf = pcs->main; batch = min(PCS_BATCH_MAX, sheaf->size);",
        FM3 => "sheaf->size -= batch; memcpy(objects, sheaf->objects + sheaf->size, batch * sizeof(void *)); remaining = sheaf->size;",
        FM4 => "local_unlock(&s->cpu_sheaves->lock);",
        FM5 => "__kmem_cache_free_bulk(s, batch, &objects[0]);",
        FM5r => "stat_add(s, SHEAF_FLUSH, batch); ret = true; if (remaining) goto next_batch; return ret;",
    }
}

kernel_fn! {
    sheaf_flush_unused "sheaf_flush_unused" {
        FU1 => "sheaf_flush_unused(s, sheaf): if (!sheaf->size) return;",
        FU3 => "stat_add(s, SHEAF_FLUSH, sheaf->size); sheaf->size = 0;   // the sheaf is ours alone",
        FU3r => "__kmem_cache_free_bulk(s, size, &sheaf->objects[0]);",
        FU4 => "return;",
    }
}

kernel_fn! {
    kmem_cache_free_bulk "__kmem_cache_free_bulk" {
        KB1 => "__kmem_cache_free_bulk(s, size, p): do { build_detached_freelist(): object = p[--size]; df.slab = virt_to_slab(object); set_freepointer(s, object, NULL);",
        KB2 => "        look back: same slab → set_freepointer(s, p[i], df.freelist); df.freelist = p[i]; df.cnt++; else after 3 others stop;",
        KB3 => "        __slab_free(s, df.slab, df.freelist, df.tail, df.cnt, _RET_IP_); } while (size);",
    }
}

kernel_fn! {
    slab_free_slow_v7 "__slab_free" {
        SS1 => "__slab_free(s, slab, head, tail, cnt, addr): do { if (n) { spin_unlock_irqrestore(&n->list_lock, flags); n = NULL; }",
        SS2 => "        prior = slab->freelist; counters = slab->counters;",
        SS4 => "        set_freepointer(s, tail, prior); new.inuse -= cnt; was_full = (prior == NULL);",
        SS5 => "        if (!new.inuse || was_full) { n = get_node(s, slab_nid(slab)); spin_lock_irqsave(&n->list_lock, flags); on_node_partial = slab_test_node_partial(slab); }",
        SS6 => "} while (!slab_update_freelist(s, slab, prior, counters, head, new.counters));",
        SS7 => "if (likely(!n)) return;                     // neither full before nor empty now",
        SS8 => "if (!was_full && !on_node_partial) { spin_unlock_irqrestore(&n->list_lock, flags); return; }   // isolated by a refill",
        SS9 => "if (unlikely(!new.inuse && n->nr_partial >= s->min_partial)) goto slab_empty;",
        SS10 => "if (unlikely(was_full)) { add_partial(n, slab, ADD_TO_TAIL); stat(s, FREE_ADD_PARTIAL); }",
        SS10u => "spin_unlock_irqrestore(&n->list_lock, flags); return;",
        SS11 => "slab_empty: if (!was_full) { remove_partial(n, slab); stat(s, FREE_REMOVE_PARTIAL); }",
        SS11u => "spin_unlock_irqrestore(&n->list_lock, flags);",
        SS11d => "stat(s, FREE_SLAB); discard_slab(s, slab);",
    }
}

kernel_fn! {
    slub_cpu_dead "slub_cpu_dead" {
        HP2 => "slub_cpu_dead(cpu) → __pcs_flush_all_cpu(s, cpu): pcs = per_cpu_ptr(s->cpu_sheaves, cpu);   // no lock: the CPU is dead",
        HP3 => "sheaf_flush_unused(s, pcs->main);           // main stays, empty",
        HP4 => "if (pcs->spare) { sheaf_flush_unused(s, pcs->spare);",
        HP4r => "        free_empty_sheaf(s, pcs->spare); pcs->spare = NULL; }",
        HP4f => "return;",
    }
}

kernel_fn! {
    pcs_flush_all "pcs_flush_all" {
        LL1 => "pcs_flush_all(s):   // flush_all's work item on this CPU",
        FA1a => "local_lock(&s->cpu_sheaves->lock); pcs = this_cpu_ptr(s->cpu_sheaves);",
        FA1b => "spare = pcs->spare; pcs->spare = NULL;",
        FA1u => "local_unlock(&s->cpu_sheaves->lock);",
        FA2r => "if (spare) { sheaf_flush_unused(s, spare);",
        FA2f => "        free_empty_sheaf(s, spare); }",
        FA4r => "sheaf_flush_main(s);",
    }
}

/// Linux 7.0's functions in the listing's order.
pub(crate) const LISTING_V7: &[&[Func]] = &[
    &[Func::SlabAllocNode],
    &[Func::LocalTrylock],
    &[Func::LocalLockV7],
    &[Func::LocalUnlockV7],
    &[Func::ReplaceEmptyMain],
    &[Func::BarnReplaceEmpty],
    &[Func::BarnGetEmpty],
    &[Func::BarnReplaceFull],
    &[Func::BarnPutEmpty],
    &[Func::BarnPutFull],
    &[Func::RefillSheaf],
    &[Func::RefillObjects],
    &[Func::RefillObjectsNode],
    &[Func::GetPartialNodeBulk],
    &[Func::GetFreelistNofreeze],
    &[Func::AllocateSlab],
    &[Func::AllocFromNewSlab],
    &[Func::SlabAllocV7],
    &[Func::GetFromPartialNode],
    &[Func::SlabFreeV7],
    &[Func::FreeToPcs],
    &[Func::ReplaceFullMain],
    &[Func::InstallEmptySheaf],
    &[Func::SheafFlushMain],
    &[Func::SheafFlushUnused],
    &[Func::FreeBulk],
    &[Func::SlabFreeSlowV7],
    &[Func::CpuDead],
    &[Func::PcsFlushAll],
    &[Func::Touch],
];
