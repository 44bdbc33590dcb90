//! The code listing of SLAB (`mm/slab.c` about v4.7, model.md Appendix A), in the kernel's names
//! and our own words, one line per label of `model/slab`: SLAB's labels in a file of their own,
//! as 7.0's are in `listing_v7`. The page shows them after the classic SLUB's functions, in one
//! listing (`listing::LISTING`).

use crate::listing::kernel_fn;

kernel_fn! {
    cache_alloc "____cache_alloc" {
        CA0 => "local_irq_save(flags);                    // slab_alloc: SLAB's fast path is irqs off",
        CA1 => "ac = cpu_cache_get(cachep); if (likely(ac->avail)) {",
        CA2 => "        ac->touched = 1; objp = ac->entry[--ac->avail];   // STATS_INC_ALLOCHIT",
        CA1r => "} else { STATS_INC_ALLOCMISS(cachep);",
        CA1s => "        objp = cache_alloc_refill(cachep, flags); }",
        CA3 => "local_irq_restore(flags); return objp;",
    }
}

kernel_fn! {
    cache_alloc_refill "cache_alloc_refill" {
        RF1 => "batchcount = ac->batchcount; if (!ac->touched && batchcount > BATCHREFILL_LIMIT) batchcount = 16;",
        RF2 => "shared = READ_ONCE(n->shared); if (!n->free_objects && (!shared || !shared->avail)) goto direct_grow;  // v4.7, no lock",
        RF2S => "        ... shared->avail ...     // while a task tunes: its own step, through the pointer RF2 loaded",
        RF3 => "spin_lock(&n->list_lock);",
        RF4 => "shared = READ_ONCE(n->shared); if (shared && transfer_objects(ac, shared, batchcount)) { shared->touched = 1; goto alloc_done; }",
        RF5 => "while (batchcount > 0) { page = get_first_slab(n); if (!page) goto must_grow; batchcount = alloc_block(cachep, ac, page, batchcount); fixup_slab_list(cachep, n, page); }",
        RF6 => "must_grow: n->free_objects -= ac->avail;",
        RF7 => "alloc_done: spin_unlock(&n->list_lock);",
        RF8 => "direct_grow: if (unlikely(!ac->avail)) { page = cache_grow_begin(cachep, flags, node);",
        RF8r => "        ac = cpu_cache_get(cachep);       // interrupts were on: maybe another CPU now",
        RF9 => "        if (!ac->avail && page) alloc_block(cachep, ac, page, batchcount);",
        RF9c => "        cache_grow_end(cachep, page);",
        RF9r => "        if (!ac->avail) return NULL; }",
        RF10 => "ac->touched = 1; return ac->entry[--ac->avail];",
    }
}

kernel_fn! {
    cache_grow_begin "cache_grow_begin" {
        GB1 => "if (gfpflags_allow_blocking(local_flags)) local_irq_enable();",
        GB2 => "page = kmem_getpages(cachep, local_flags, nodeid);",
        GB3 => "freelist = alloc_slabmgmt(...); cache_init_objs(cachep, page);   // index array 0..num-1, active = 0",
        GB4 => "if (gfpflags_allow_blocking(local_flags)) local_irq_disable(); return page;",
    }
}

kernel_fn! {
    cache_grow_end "cache_grow_end" {
        GE1 => "spin_lock(&n->list_lock);",
        GE2 => "n->total_slabs++; if (!page->active) list_add_tail(&page->lru, &n->slabs_free); else fixup_slab_list(...); STATS_INC_GROWN; n->free_objects += cachep->num - page->active;",
        GE3 => "spin_unlock(&n->list_lock);",
    }
}

kernel_fn! {
    cache_free "___cache_free" {
        CF0 => "local_irq_save(flags);                    // kmem_cache_free",
        CF1 => "if (nr_online_nodes > 1 && cache_free_alien(cachep, objp)) return;  if (ac->avail < ac->limit) STATS_INC_FREEHIT; else {",
        CF1f => "        STATS_INC_FREEMISS; cache_flusharray(cachep, ac); }",
        CF2 => "ac->entry[ac->avail++] = objp;            // __free_one",
        CF3 => "local_irq_restore(flags);",
        CFA1 => "/* object of another node (alien caches off): */ spin_lock(&n_home->list_lock);",
        CFA2 => "free_block(cachep, &objp, 1, home, &list);",
        CFA3 => "spin_unlock(&n_home->list_lock);",
        CFA4 => "slabs_destroy(cachep, &list);",
    }
}

kernel_fn! {
    cache_flusharray "cache_flusharray" {
        FA0 => "batchcount = ac->batchcount; n = get_node(cachep, node);",
        FA1 => "spin_lock(&n->list_lock);",
        FA2 => "if (n->shared && (max = shared->limit - shared->avail)) { batchcount = min(batchcount, max); memcpy(&shared->entry[shared->avail], ac->entry, batchcount); shared->avail += batchcount; goto free_done; }",
        FA3 => "free_block(cachep, ac->entry, batchcount, node, &list): n->free_objects += batchcount;",
        FA4 => "        for each object: list_del(&page->lru); slab_put_obj(cachep, page, objp); relink: empty → slabs_free, else tail of slabs_partial",
        FA4d => "        while (n->free_objects > n->free_limit && !list_empty(&n->slabs_free)) move a free slab to list;",
        FA5 => "free_done: spin_unlock(&n->list_lock);",
        FA6 => "slabs_destroy(cachep, &list);",
        FA7 => "ac->avail -= batchcount; memmove(ac->entry, &ac->entry[batchcount], sizeof(void *) * ac->avail);",
    }
}

kernel_fn! {
    do_drain "do_drain" {
        DD0 => "/* on the CPU, irqs off */ ac = cpu_cache_get(cachep);",
        DD1 => "spin_lock(&n->list_lock);",
        DD2 => "free_block(cachep, ac->entry, ac->avail, node, &list): n->free_objects += ac->avail;",
        DD3 => "        for each object: list_del; slab_put_obj; relink the slab",
        DD3d => "        while (n->free_objects > n->free_limit && !list_empty(&n->slabs_free)) move a free slab to list;",
        DD4 => "spin_unlock(&n->list_lock);",
        DD5 => "slabs_destroy(cachep, &list);",
        DD6 => "ac->avail = 0;",
        DD7 => "/* back from the IPI: irqs restored */",
    }
}

kernel_fn! {
    setup_kmem_cache_node "setup_kmem_cache_node" {
        SN1 => "new_shared = alloc_arraycache(node, cachep->shared * cachep->batchcount, 0xbaadf00d, gfp);  // do_tune_cpucache, force_change",
        SN2 => "spin_lock_irq(&n->list_lock);",
        SN3 => "if (n->shared && force_change) { free_block(cachep, n->shared->entry, n->shared->avail, node, &list); n->shared->avail = 0; }",
        SN4 => "if (!n->shared || force_change) { old_shared = n->shared; n->shared = new_shared; }",
        SN5 => "spin_unlock_irq(&n->list_lock); slabs_destroy(cachep, &list);",
        SN6 => "if (old_shared && force_change) synchronize_sched();   // slabSharedFree: after-grace-period",
        SN7 => "kfree(old_shared);",
    }
}
