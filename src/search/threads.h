/* The thread pool: N search threads created once and kept until the size changes
 * (between searches only). Thread 0 runs the main search of each `go`; threads 1..N-1
 * are helpers. A thread without work spins briefly when the pool has no more threads than
 * cores, then blocks on its condition variable.
 *
 * The three operations of the Arasan guide: checkOut (pool_checkout_locked) takes an idle
 * helper and marks it working, start (pool_start_locked) gives it a job, and the thread
 * checks itself in (idle again) when the job returns. Split points (split.c) and Lazy SMP
 * (search.c) are built on them. */
#ifndef SAAVEDRA_THREADS_H
#define SAAVEDRA_THREADS_H

#include "search/thread.h"
#include "util/timeutil.h"

#define POOL_MAX_THREADS 256

/* Lock statistics (LockStats) of the search threads, on which pool_thread_stats points to
 * the thread's own SplitStats (NULL on other threads). Acquisitions are counted; their
 * hold and wait times only in a build with -DSMP_LOCK_TIMING=1 (docs/smp.md): three
 * clock reads an acquisition would cost a few per cent at shallow split points. */
#ifndef SMP_LOCK_TIMING
#define SMP_LOCK_TIMING 0
#endif
#define LOCK_LONG_NS 100000

extern _Thread_local SplitStats *pool_thread_stats;

/* Takes m, counted in s (NULL: not counted); returns when it was taken, for lock_release. */
static inline int64_t lock_acquire(pthread_mutex_t *m, LockStats *s)
{
    if (!s || !SMP_LOCK_TIMING) {
        pthread_mutex_lock(m);
        if (s)
            s->count++;
        return 0;
    }
    int64_t asked = time_now_ns();
    pthread_mutex_lock(m);
    int64_t now = time_now_ns();
    s->count++;
    s->wait_ns += now - asked;
    return now;
}

/* Counts a hold of `held` nanoseconds in s. */
static inline void lock_held(LockStats *s, int64_t held)
{
    s->hold_ns += held;
    if (held > LOCK_LONG_NS) {
        s->long_count++;
        s->long_ns += held;
    }
}

/* Releases m, taken at `since` (lock_acquire). */
static inline void lock_release(pthread_mutex_t *m, LockStats *s, int64_t since)
{
    if (s && SMP_LOCK_TIMING)
        lock_held(s, time_now_ns() - since);
    pthread_mutex_unlock(m);
}

typedef struct ThreadPool ThreadPool;

/* One thread's search state (created by the pool; exposed for tests). */
SearchThread *search_thread_new(int id);
void search_thread_free(SearchThread *t);
/* Forgets everything learnt (histories, pawn cache): a new game. */
void search_thread_clear(SearchThread *t);

/* A pool of n threads (1..POOL_MAX_THREADS); NULL when out of memory. */
ThreadPool *pool_new(int n);
/* Ends every thread (none may be working) and frees the pool. */
void pool_free(ThreadPool *p);
/* Changes the number of threads; only between searches. Helpers keep their histories.
 * On failure (out of memory) the pool keeps as many threads as it could create. */
bool pool_resize(ThreadPool *p, int n);
int pool_size(const ThreadPool *p);
SearchThread *pool_thread(ThreadPool *p, int index);

/* Runs fn(thread 0, arg) on thread 0; returns at once. */
void pool_run_main(ThreadPool *p, PoolJob fn, void *arg);
/* Waits until the job of thread 0 has returned. */
void pool_wait_main(ThreadPool *p);
/* Waits until every helper is idle (a Lazy SMP search has ended); thread 0 counts the
 * time as waiting (stats.wait_ns). */
void pool_wait_helpers(ThreadPool *p);

/* The pool lock guards the threads' job, idle, waiting_at and assigned fields and the
 * helper counts of split points. It is taken per split, never per node, and held without
 * system calls where it can be: a thread is signalled after the unlock (pool_wake). A
 * search thread counts its acquisitions and hold time in its stats.pool_lock. */
void pool_lock(ThreadPool *p);
void pool_unlock(ThreadPool *p);
/* checkOut: an idle helper, now marked working, or NULL. Pool lock held. */
SearchThread *pool_checkout_locked(ThreadPool *p);
/* start: gives the checked-out thread t its job; it runs fn(t, arg) and is idle again
 * (checked in) when fn returns, after done(t, arg) if done is not NULL: done runs under
 * the pool lock, in the check-in's critical section. Pool lock held; t starts when woken
 * (pool_wake) after the lock is released. */
void pool_start_locked(ThreadPool *p, SearchThread *t, PoolJob fn, PoolJob done, void *arg);
/* Signals t's condition variable once a job or work for t has been set under the pool
 * lock, after releasing it: a signal is a system call, kept out of the lock. The caller's
 * unfinished work must keep t in the pool (which shrinks only between searches). A thread
 * woken with nothing to do waits again. */
void pool_wake(ThreadPool *p, SearchThread *t);
/* Idle helpers: a hint read without the lock, to skip a split cheaply when nobody can
 * help (owners waiting at split points are found through the split points themselves). */
int pool_available(const ThreadPool *p);
/* Blocks the calling thread t on its condition variable (pool lock held) for at most
 * timeout_us microseconds; the time counts as t's wait at a split point. With spin, when
 * the pool has no more threads than cores, it spins for a signal instead, for a fraction
 * of a millisecond (POOL_SPIN_NS, threads.c), and returns: the caller's next wait blocks. */
void pool_wait_locked(ThreadPool *p, SearchThread *t, int64_t timeout_us, bool spin);

/* Sums over the threads, for reports and node limits. */
uint64_t pool_nodes(const ThreadPool *p);
uint64_t pool_tbhits(const ThreadPool *p);
uint64_t pool_learned_hits(const ThreadPool *p);
/* The threads' SplitStats summed, with the whole-pool figures since the last reset. */
void pool_stats(const ThreadPool *p, SplitStats *sum);
void pool_reset_stats(ThreadPool *p);

#endif
