/* The fork-join helper (util/fork_join.h): every job runs exactly once, on its own slot or
 * on a shared one, and the call returns only when all have finished. */
#include <pthread.h>
#include <stdatomic.h>

#include "util/fork_join.h"
#include "test.h"

typedef struct {
    int index;
    int runs;
    pthread_t thread;
} Slot;

static void *mark_slot(void *arg)
{
    Slot *s = arg;
    s->runs++;
    s->thread = pthread_self();
    return NULL;
}

TEST(fork_join_runs_each_job_once_on_its_own_slot)
{
    enum { N = 7 };
    Slot slots[N] = { { 0 } };
    for (int i = 0; i < N; i++)
        slots[i].index = i;
    fork_join(mark_slot, slots, sizeof slots[0], N);
    for (int i = 0; i < N; i++)
        CHECK_EQ(slots[i].runs, 1);
    /* Job 0 runs on the caller, which also proves the helper waited for the others. */
    CHECK(pthread_equal(slots[0].thread, pthread_self()));
}

static void *count_shared(void *arg)
{
    atomic_fetch_add((atomic_int *)arg, 1);
    return NULL;
}

TEST(fork_join_size_zero_shares_one_job)
{
    atomic_int calls = 0;
    fork_join(count_shared, &calls, 0, 5);
    CHECK_EQ(atomic_load(&calls), 5);
    fork_join(count_shared, &calls, 0, 1);
    CHECK_EQ(atomic_load(&calls), 6);
    fork_join(count_shared, &calls, 0, 0); /* nothing to do */
    CHECK_EQ(atomic_load(&calls), 6);
}
