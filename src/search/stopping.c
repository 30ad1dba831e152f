/* Stop conditions of a search: see stopping.h. */
#include "search/stopping.h"

#include "search/threads.h"
#include "util/timeutil.h"

/* Thread 0 looks at the clock and, with several threads, sums their node counters once
 * per this many of its own nodes: reading the clock or another core's counter at every
 * node would cost more than the overshoot saves. */
#define CHECK_INTERVAL_MASK 1023
/* Under a small node limit (a strength level's cap can be a few hundred nodes) the sum is
 * taken every 16 nodes instead, so that the overshoot stays small against the limit. */
#define SMALL_NODE_LIMIT (64 * 1024)
#define SMALL_LIMIT_MASK 15

uint64_t search_total_nodes(const SearchThread *t)
{
    return t->pool && pool_size(t->pool) > 1 ? pool_nodes(t->pool) : thread_nodes(t);
}

bool search_clock_running(SearchThread *t)
{
    SearchShared *sh = t->shared;
    if (t->ponder_active && !atomic_load(&sh->pondering)) {
        t->ponder_active = false;
        timeman_restart(&sh->tm, atomic_load(&sh->ponderhit_ms));
    }
    return !t->ponder_active;
}

/* The hard time limit (thread 0 only). Depth 1 always completes so that there is a move
 * to play. */
static bool clock_expired(SearchThread *t)
{
    return search_clock_running(t) && t->completed_depth >= 1
        && timeman_hard_expired(&t->shared->tm, time_now_ms());
}

static bool node_limit_reached(const SearchThread *t)
{
    const SearchShared *sh = t->shared;
    return sh->node_limit && t->completed_depth >= 1 && search_total_nodes(t) >= sh->node_limit;
}

/* The node limit as checked at a node: one thread reads its own counter (exact and
 * cheap); several are summed only at thread 0's sampling points. */
static bool node_limit_sampled(const SearchThread *t)
{
    const SearchShared *sh = t->shared;
    if (!sh->node_limit)
        return false;
    if (t->pool && pool_size(t->pool) > 1) {
        uint64_t mask = sh->node_limit >= SMALL_NODE_LIMIT ? CHECK_INTERVAL_MASK : SMALL_LIMIT_MASK;
        if ((thread_nodes(t) & mask) != 0)
            return false;
    }
    return node_limit_reached(t);
}

bool search_should_stop(SearchThread *t)
{
    if (search_aborted(t))
        return true;
    if (t->id != 0)
        return false;
    if (node_limit_sampled(t)
        || ((thread_nodes(t) & CHECK_INTERVAL_MASK) == 0 && clock_expired(t))) {
        atomic_store(&t->shared->stop, true);
        return true;
    }
    return false;
}

void search_poll_limits(SearchThread *t)
{
    if (t->id == 0 && (node_limit_reached(t) || clock_expired(t)))
        atomic_store(&t->shared->stop, true);
}
