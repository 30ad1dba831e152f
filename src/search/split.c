/* YBWC split points: see split.h and docs/smp.md.
 *
 * Locks: the pool lock guards who works where (helpers counts, waiting_at, assigned);
 * a split point's own lock guards its move loop. The pool lock may be held while a split
 * point lock is taken, never the other way round. Threads are signalled after the pool
 * lock is released (pool_wake), except an owner by its last helper (helper_done). */
#include "search/split.h"

#include <stdlib.h>
#include <string.h>

#include "board/position_copy.h"
#include "search/stopping.h"

/* How long a waiting owner sleeps before it looks at the clock again (thread 0). */
#define WAIT_POLL_US 1000

static void free_splits(SearchThread *t)
{
    for (int i = 0; i < SPLIT_MAX_PER_THREAD; i++) {
        pthread_mutex_destroy(&t->splits[i].lock);
        free(t->splits[i].pos);
        free(t->splits[i].saved_pos);
        free(t->splits[i].saved_stack);
    }
    free(t->splits);
    t->splits = NULL;
}

static bool alloc_splits(SearchThread *t)
{
    t->splits = calloc(SPLIT_MAX_PER_THREAD, sizeof *t->splits);
    if (!t->splits)
        return false;
    bool ok = true;
    for (int i = 0; i < SPLIT_MAX_PER_THREAD; i++) {
        pthread_mutex_init(&t->splits[i].lock, NULL);
        t->splits[i].pos = malloc(POSITION_BYTES(SPLIT_STATES));
        ok = ok && t->splits[i].pos;
    }
    t->free_splits = free_splits;
    if (!ok)
        free_splits(t);
    return ok;
}

static inline int16_t (*continuation_of(const SearchThread *t, const SearchStack *ss))[SQUARE_NB]
{
    return t->hist->continuation[ss->piece][ss->piece == NO_PIECE ? 0 : move_to(ss->move)];
}

/* Puts t at the split point's node: position, stack entries (continuation pointers into
 * t's own tables), the search-wide values of its owner. */
static void enter(SearchThread *t, SplitPoint *sp)
{
    position_copy_used(&t->pos, sp->pos);
    SearchStack *base = &t->stack[sp->ml.ply + STACK_OFFSET - 4];
    for (int i = 0; i < 5; i++) {
        base[i] = sp->stack[i];
        base[i].cont = continuation_of(t, &base[i]);
    }
    /* What alphabeta() does for its children at node entry, done here for the split node
     * this thread did not enter: no killers, no exclusion left from an earlier search,
     * the node's double-extension count. */
    base[5].killers[0] = base[5].killers[1] = MOVE_NONE;
    base[5].excluded = MOVE_NONE;
    base[5].double_extensions = base[4].double_extensions;
    t->root_depth = sp->root_depth;
    t->completed_depth = sp->completed_depth;
    t->nmp_min_ply = sp->nmp_min_ply;
    t->root_side = sp->root_side;
    t->seldepth = 0;
}

/* Searches moves of sp until none are left. Returns the nodes t searched there, its
 * helpers' below included: leave_locked adds them to the owner's sp->helper_nodes, since
 * they belong to the owner's subtree. */
static uint64_t work_at(SearchThread *t, SplitPoint *sp)
{
    uint64_t before = thread_tree_nodes(t);
    enter(t, sp);
    SplitPoint *prev = t->active_sp;
    t->active_sp = sp;
    sp->loop(t, &sp->ml, sp);
    t->active_sp = prev;
    return thread_tree_nodes(t) - before;
}

/* t leaves sp (checkIn to its owner; pool lock held) after searching `searched` nodes
 * there. Returns sp's owner when t was its last helper: the owner is to be woken. */
static SearchThread *leave_locked(SearchThread *t, SplitPoint *sp, uint64_t searched)
{
    sp->helper_nodes += searched;
    if (t->seldepth > sp->seldepth)
        sp->seldepth = t->seldepth;
    return --sp->helpers == 0 ? sp->owner : NULL;
}

static void helper_job(SearchThread *t, void *arg)
{
    t->job_nodes = work_at(t, arg);
}

/* The helper's check-in (pool lock held): it leaves the split point and becomes idle in
 * one critical section. */
static void helper_done(SearchThread *t, void *arg)
{
    SearchThread *owner = leave_locked(t, arg, t->job_nodes);
    /* Under the lock: once t is idle, nothing keeps the owner's thread (the search may end
     * and the pool shrink), and t waits next, which releases the lock at once. */
    if (owner)
        pool_wake(t->pool, owner);
}

/* Room in own (t's split point where it waits) to keep t's node aside; allocated at the
 * first join and reused, so a join copies memory but does not allocate. */
static bool reserve_saved_node(SplitPoint *own, size_t pos_bytes, size_t stack_bytes)
{
    if (!own->saved_stack && !(own->saved_stack = malloc(stack_bytes)))
        return false;
    if (own->saved_pos_bytes < pos_bytes) {
        Position *grown = realloc(own->saved_pos, pos_bytes);
        if (!grown)
            return false;
        own->saved_pos = grown;
        own->saved_pos_bytes = pos_bytes;
    }
    return true;
}

/* The helpful master: t waits at its own split point `own` and a helper gave it work
 * further down, at sp. t's position and stack belong to its own node, so they are kept
 * aside in own's buffers (one set per split point: a master that splits again below and
 * waits there uses that split point's). */
static void help_as_master(SearchThread *t, SplitPoint *own, SplitPoint *sp)
{
    size_t bytes = POSITION_BYTES(t->pos.st_index + 1);
    if (reserve_saved_node(own, bytes, sizeof t->stack)) {
        memcpy(own->saved_pos, &t->pos, bytes);
        memcpy(own->saved_stack, t->stack, sizeof t->stack);
        int seldepth = t->seldepth, nmp_min_ply = t->nmp_min_ply;
        /* Those nodes are in the subtree of own, where the helper that split at sp
         * works: they come back with own's helper_nodes, and must not count twice. */
        uint64_t searched = work_at(t, sp);
        pool_lock(t->pool);
        SearchThread *owner = leave_locked(t, sp, searched);
        pool_unlock(t->pool);
        /* sp's owner works below own, which t has yet to finish: the pool keeps it. */
        if (owner)
            pool_wake(t->pool, owner);
        t->split_nodes -= searched;
        t->stats.master_joins++;
        memcpy(&t->pos, own->saved_pos, bytes);
        memcpy(t->stack, own->saved_stack, sizeof t->stack);
        t->seldepth = seldepth;
        t->nmp_min_ply = nmp_min_ply;
    } else {
        /* No memory to keep our own node: take no move, just leave. */
        pool_lock(t->pool);
        SearchThread *owner = --sp->helpers == 0 ? sp->owner : NULL;
        pool_unlock(t->pool);
        if (owner)
            pool_wake(t->pool, owner);
    }
}

/* Whether w is a split point t works under (then w's owner may help t). */
static bool below(const SearchThread *t, const SplitPoint *w)
{
    for (const SplitPoint *s = t->active_sp; s; s = s->parent)
        if (s == w)
            return true;
    return false;
}

/* Finds helpers for sp and gives them their work (pool lock held): idle threads first,
 * then owners waiting at split points that t works under. They are put in woken[], to be
 * woken once the lock is released. */
static int recruit(SearchThread *t, SplitPoint *sp, SearchThread *woken[SPLIT_MAX_HELPERS])
{
    ThreadPool *p = t->pool;
    int n = 0;
    SearchThread *h;
    while (n < SPLIT_MAX_HELPERS && (h = pool_checkout_locked(p))) {
        sp->helpers++;
        pool_start_locked(p, h, helper_job, helper_done, sp);
        woken[n++] = h;
    }
    for (int i = 0; i < pool_size(p) && n < SPLIT_MAX_HELPERS; i++) {
        h = pool_thread(p, i);
        if (h == t || !h->waiting_at || h->assigned || !below(t, h->waiting_at))
            continue;
        h->assigned = sp;
        sp->helpers++;
        atomic_store(&h->waiting_at->owner_waiting, false);
        woken[n++] = h;
    }
    return n;
}

/* The owner's moves are done: wait for the helpers, helping them meanwhile. */
static void wait_for_helpers(SearchThread *t, SplitPoint *sp)
{
    ThreadPool *p = t->pool;
    bool spun = false; /* each wait spins once, then blocks */
    pool_lock(p);
    for (;;) {
        SplitPoint *job = t->assigned;
        if (job) {
            t->assigned = NULL;
            t->waiting_at = NULL; /* the recruiter has cleared owner_waiting */
            pool_unlock(p);
            help_as_master(t, sp, job);
            pool_lock(p);
            spun = false;
            continue;
        }
        if (sp->helpers == 0)
            break;
        if (!t->waiting_at) {
            t->waiting_at = sp;
            atomic_store(&sp->owner_waiting, true);
        }
        pool_wait_locked(p, t, WAIT_POLL_US, !spun);
        spun = true;
        if (t->id == 0)
            search_poll_limits(t);
    }
    if (t->waiting_at) {
        t->waiting_at = NULL;
        atomic_store(&sp->owner_waiting, false);
    }
    pool_unlock(p);
}

bool split_node(SearchThread *t, MoveLoop *ml, MoveLoopFn loop)
{
    if (!t->splits && !alloc_splits(t))
        return false;
    SplitPoint *sp = &t->splits[t->split_count];
    sp->ml = *ml;
    sp->loop = loop;
    sp->owner = t;
    sp->parent = t->active_sp;
    atomic_store(&sp->cutoff, false);
    atomic_store(&sp->owner_waiting, false);
    sp->helpers = 0;
    sp->seldepth = 0;
    sp->pv_length = 0;
    sp->helper_nodes = 0;
    memcpy(sp->stack, &t->stack[ml->ply + STACK_OFFSET - 4], sizeof sp->stack);
    sp->root_depth = t->root_depth;
    sp->completed_depth = t->completed_depth;
    sp->nmp_min_ply = t->nmp_min_ply;
    sp->root_side = t->root_side;
    position_copy_recent(sp->pos, &t->pos, SPLIT_STATES);

    SearchThread *woken[SPLIT_MAX_HELPERS];
    pool_lock(t->pool);
    int n = recruit(t, sp, woken);
    if (n > 0)
        t->split_count++;
    pool_unlock(t->pool);
    /* They work at sp, which t does not leave before they have: the pool keeps them. */
    for (int i = 0; i < n; i++)
        pool_wake(t->pool, woken[i]);
    if (n == 0) {
        t->stats.split_failed++;
        return false;
    }
    t->stats.splits++;
    t->stats.helpers += (uint64_t)n;

    SplitPoint *prev = t->active_sp;
    t->active_sp = sp;
    loop(t, &sp->ml, sp);
    wait_for_helpers(t, sp);
    t->active_sp = prev;
    t->split_count--;
    if (atomic_load(&sp->cutoff))
        t->stats.cutoffs++;

    /* Everyone has left (seen under the pool lock): sp is ours alone again. The picker
     * is not needed any more and is not copied back. */
    ml->alpha = sp->ml.alpha;
    ml->best = sp->ml.best;
    ml->best_move = sp->ml.best_move;
    ml->move_count = sp->ml.move_count;
    ml->quiet_count = sp->ml.quiet_count;
    ml->capture_count = sp->ml.capture_count;
    memcpy(ml->quiets, sp->ml.quiets, sizeof ml->quiets);
    memcpy(ml->captures, sp->ml.captures, sizeof ml->captures);
    int ply = ml->ply;
    if (sp->pv_length > ply) {
        for (int i = ply; i < sp->pv_length; i++)
            t->pv[ply][i] = sp->pv[i];
        t->pv_length[ply] = sp->pv_length;
    }
    if (sp->seldepth > t->seldepth)
        t->seldepth = sp->seldepth;
    t->split_nodes += sp->helper_nodes;
    return true;
}

void split_record_pv(SearchThread *t, SplitPoint *sp)
{
    int ply = sp->ml.ply;
    for (int i = ply; i < t->pv_length[ply]; i++)
        sp->pv[i] = t->pv[ply][i];
    sp->pv_length = t->pv_length[ply];
}
