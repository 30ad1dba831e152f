/* Young Brothers Wait split points. After the eldest brother (the first move) of a node
 * has been searched, and while some thread could help, the node's move loop may move
 * into a SplitPoint: the owner and its helpers then take moves from the shared picker
 * one at a time, each searching with its own histories and pawn table, and report back
 * under the split point's lock. A cutoff stops everyone below the split point; the owner
 * returns only when all helpers have left. An owner whose moves are done does not idle:
 * while it waits, its helpers may hand it work at their own split points below (the
 * helpful master). The life cycle and locking are in docs/smp.md. */
#ifndef SAAVEDRA_SPLIT_H
#define SAAVEDRA_SPLIT_H

#include "search/threads.h"

/* Shallower nodes cost less than the split itself. A build may set another value
 * (EXTRA_CFLAGS=-DSPLIT_MIN_DEPTH=N) to time it against this one (docs/smp.md). */
#ifndef SPLIT_MIN_DEPTH
#define SPLIT_MIN_DEPTH 4
#endif
/* Moves an expected cut node searches alone before it may split: most cut nodes fail
 * high on their first or second move, and helpers given their other moves work in vain
 * (settable like SPLIT_MIN_DEPTH; 1 treats them like any other node). */
#ifndef SPLIT_CUT_MOVES
#define SPLIT_CUT_MOVES 1
#endif
#define SPLIT_MAX_PER_THREAD 8   /* nested split points one thread may own */
#define SPLIT_MAX_HELPERS 7      /* helpers per split point (8 threads on one node) */
/* Plies added to SPLIT_MIN_DEPTH per doubling of the threads past SPLIT_MAX_HELPERS + 1
 * (settable like SPLIT_MIN_DEPTH; 0 keeps one depth for every pool). */
#ifndef SPLIT_DEPTH_PER_DOUBLING
#define SPLIT_DEPTH_PER_DOUBLING 2
#endif
#define SPLIT_STATES 128         /* undo entries copied with the position (>= 100 + 1) */

/* The shallowest node that may split in a pool of `threads`. Up to the threads one split
 * point takes, helpers are scarce and a split waits for one; past that an idle thread is
 * nearly always there, so every node deep enough would split, and each split takes the
 * pool lock once per helper and more (docs/smp.md, "Past two cores"). Each doubling
 * of the threads raises the depth so the split rate, and the lock's load, fall back. */
static inline int split_min_depth(int threads)
{
    int depth = SPLIT_MIN_DEPTH;
    for (int n = SPLIT_MAX_HELPERS + 1; n < threads; n *= 2)
        depth += SPLIT_DEPTH_PER_DOUBLING;
    return depth;
}

/* Makes the node whose move loop is ml a split point and searches its remaining moves
 * with the helpers found (loop is the move loop to run). Returns false, with ml
 * untouched, when no thread could help; true once every move is done or a cutoff
 * happened, with ml holding the node's final state (and t's PV row updated). */
bool split_node(SearchThread *t, MoveLoop *ml, MoveLoopFn loop);

/* The PV of a split point's node after a thread raised alpha there with move m (its
 * own pv[ply] row already updated). Split point lock held. */
void split_record_pv(SearchThread *t, SplitPoint *sp);

/* A split point's lock, its acquisitions and hold times counted in the calling search
 * thread's stats.sp_lock. */
static inline void split_lock(SplitPoint *sp)
{
    SplitStats *st = pool_thread_stats;
    int64_t at = lock_acquire(&sp->lock, st ? &st->sp_lock : NULL);
    sp->locked_at = at;
}

static inline void split_unlock(SplitPoint *sp)
{
    SplitStats *st = pool_thread_stats;
    lock_release(&sp->lock, st ? &st->sp_lock : NULL, sp->locked_at);
}

/* Cheap test before split_node: YBWC is on, the node is deep enough and some thread
 * could help: an idle one, or the owner of a split point above t that waits there. */
static inline bool split_worthwhile(const SearchThread *t, int depth)
{
    if (depth < SPLIT_MIN_DEPTH || t->shared->smp_mode != SMP_YBWC || !t->pool
        || t->split_count >= SPLIT_MAX_PER_THREAD || depth < split_min_depth(pool_size(t->pool)))
        return false;
    if (pool_available(t->pool) > 0)
        return true;
    for (const SplitPoint *sp = t->active_sp; sp; sp = sp->parent)
        if (atomic_load_explicit(&sp->owner_waiting, memory_order_relaxed))
            return true;
    return false;
}

#endif
