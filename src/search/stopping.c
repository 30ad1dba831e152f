/* Stop conditions of a search: see stopping.h. */
#include "search/stopping.h"

#include "search/threads.h"
#include "util/timeutil.h"

uint64_t search_total_nodes(const SearchThread *t)
{
    return t->pool && pool_size(t->pool) > 1 ? pool_nodes(t->pool) : thread_nodes(t);
}

/* The ponderhit restart and the hard time limit (thread 0 only). */
static bool clock_expired(SearchThread *t)
{
    SearchShared *sh = t->shared;
    if (t->ponder_active && !atomic_load(&sh->pondering)) {
        t->ponder_active = false;
        timeman_restart(&sh->tm, atomic_load(&sh->ponderhit_ms));
    }
    /* Depth 1 always completes so that there is a move to play. */
    return !t->ponder_active && t->completed_depth >= 1 && timeman_hard_expired(&sh->tm, time_now_ms());
}

static bool node_limit_reached(const SearchThread *t)
{
    const SearchShared *sh = t->shared;
    return sh->node_limit && t->completed_depth >= 1 && search_total_nodes(t) >= sh->node_limit;
}

bool search_should_stop(SearchThread *t)
{
    if (search_aborted(t))
        return true;
    if (t->id != 0)
        return false;
    if (node_limit_reached(t) || ((thread_nodes(t) & 1023) == 0 && clock_expired(t))) {
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
