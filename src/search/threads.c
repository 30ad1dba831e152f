/* The thread pool: see threads.h. Every thread, thread 0 included, runs worker_loop: it
 * sleeps on its own condition variable until it is given a job, runs it, and checks
 * itself in. Split points and the helpful master use the same lock and variables.
 *
 * A helper about to block, or an owner waiting for its helpers, first spins for a while
 * (POOL_SPIN_NS) when the pool has no more threads than cores: at two threads a split
 * every 100 microseconds is common, and waking a blocked thread costs tens of
 * microseconds each time, a fifth of the helpers' time at short searches. With more
 * threads than cores a spinning thread would take the core of one that works, so then
 * they block at once.
 *
 * The virtual clock times the statistics as if each thread had a core of its own: while
 * more threads run (are not blocked in the pool's waits) than there are cores, it
 * advances by cores / running of the wall clock (the cores shared out equally), else
 * with the wall clock. With more threads than cores, idle and wait times on it are those
 * of the same run on one core per thread, up to how unequally the system shares. */
#include "search/threads.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/platform.h"
#include "util/timeutil.h"

struct ThreadPool {
    pthread_mutex_t lock;
    pthread_cond_t main_done;   /* thread 0 finished its job */
    pthread_cond_t helpers_done;/* a helper became idle */
    SearchThread *threads[POOL_MAX_THREADS];
    int size;
    atomic_int available;
    /* Under the lock: when a search thread took it, and the virtual clock. */
    int64_t locked_at;
    int running, cpus;          /* threads not blocked in a wait; cores */
    int64_t vclock_ns, vclock_at;
    int64_t reset_ns, reset_vns;            /* wall and virtual clocks at the last reset */
    int64_t cpu_base_ns[POOL_MAX_THREADS];  /* the threads' CPU clocks then */
    int64_t idle_since[POOL_MAX_THREADS][2];/* wall, virtual; 0 while the thread is not idle */
};

_Thread_local SplitStats *pool_thread_stats;

/* How long a waiting thread spins before it blocks (0: it blocks at once). */
#ifndef POOL_SPIN_NS
#define POOL_SPIN_NS 200000
#endif

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* The calling thread t, holding the pool lock, waits for a signal (pool_wake) by
 * spinning with the lock released, for at most POOL_SPIN_NS; it holds the lock again on
 * return, so the caller checks its condition before blocking. False (nothing done) when
 * spinning is off: more threads than cores. */
static bool pool_spin(ThreadPool *p, SearchThread *t)
{
    if (POOL_SPIN_NS <= 0 || p->size > p->cpus)
        return false;
    unsigned seen = atomic_load_explicit(&t->signals, memory_order_relaxed);
    pthread_mutex_unlock(&p->lock);
    int64_t until = time_now_ns() + POOL_SPIN_NS;
    for (unsigned i = 1; atomic_load_explicit(&t->signals, memory_order_acquire) == seen; i++) {
        cpu_relax();
        if (i % 64 == 0 && time_now_ns() > until)
            break;
    }
    pthread_mutex_lock(&p->lock);
    return true;
}

static inline LockStats *pool_lock_stats(void)
{
    return pool_thread_stats ? &pool_thread_stats->pool_lock : NULL;
}

/* The virtual clock advanced to now (wall clock, ns). Pool lock held. */
static int64_t vclock(ThreadPool *p, int64_t now)
{
    int64_t dt = now - p->vclock_at;
    p->vclock_at = now;
    p->vclock_ns += p->running > p->cpus ? dt * p->cpus / p->running : dt;
    return p->vclock_ns;
}

/* The calling pool thread is about to wait on a condition variable (pool lock held): it
 * stops running and its hold of the lock ends. Returns the wall time, *v the virtual. */
static int64_t block_begin(ThreadPool *p, int64_t *v)
{
    int64_t now = time_now_ns();
    LockStats *s = pool_lock_stats();
    if (s && SMP_LOCK_TIMING)
        lock_held(s, now - p->locked_at);
    *v = vclock(p, now);
    p->running--;
    return now;
}

/* It woke up holding the lock again: it runs, and holds the lock from now. */
static int64_t block_end(ThreadPool *p, int64_t *v)
{
    int64_t now = time_now_ns();
    LockStats *s = pool_lock_stats();
    if (s)
        s->count++;
    p->locked_at = now;
    *v = vclock(p, now);
    p->running++;
    return now;
}

/* The wall-clock time timeout_us from now, as pthread_cond_timedwait takes it. */
static struct timespec deadline_after(int64_t timeout_us)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t ns = ts.tv_nsec + timeout_us * 1000;
    ts.tv_sec += ns / 1000000000;
    ts.tv_nsec = ns % 1000000000;
    return ts;
}

/* The calling thread waits on c (pool lock held) until signalled or, with timeout_us > 0,
 * that long at most; with spin_first (the calling thread, c its wake) it spins instead
 * when it may, and the caller looks at its condition before waiting again. A pool
 * thread's wait counts in its stats.wait_ns: at its split point, or for the Lazy SMP
 * helpers to stop (pool_wait_helpers). */
static void pool_cond_wait(ThreadPool *p, pthread_cond_t *c, int64_t timeout_us,
                           SearchThread *spin_first)
{
    SplitStats *st = pool_thread_stats;
    int64_t v_from = 0, from = st ? block_begin(p, &v_from) : 0;
    if (!spin_first || !pool_spin(p, spin_first)) {
        if (timeout_us > 0) {
            /* The deadline is read only now: most waits end in the spin. */
            struct timespec until = deadline_after(timeout_us);
            pthread_cond_timedwait(c, &p->lock, &until);
        } else
            pthread_cond_wait(c, &p->lock);
    }
    if (st) {
        int64_t v_to, to = block_end(p, &v_to);
        st->wait_ns += to - from;
        st->wait_vns += v_to - v_from;
    }
}

static int64_t later(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

SearchThread *search_thread_new(int id)
{
    SearchThread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->id = id;
    t->hist = history_new();
    t->pawns = pawn_table_new();
    t->nnue = calloc(1, sizeof *t->nnue);
    if (!t->hist || !t->pawns || !t->nnue) {
        search_thread_free(t);
        return NULL;
    }
    return t;
}

void search_thread_free(SearchThread *t)
{
    if (!t)
        return;
    if (t->free_splits)
        t->free_splits(t);
    history_free(t->hist);
    if (t->pawns)
        pawn_table_free(t->pawns);
    free(t->nnue);
    free(t);
}

void search_thread_clear(SearchThread *t)
{
    history_clear(t->hist);
    pawn_table_clear(t->pawns);
    nnue_state_reset(t->nnue);
}

static void *worker_loop(void *arg)
{
    SearchThread *t = arg;
    ThreadPool *p = t->pool;
    pool_thread_stats = &t->stats;
    pool_lock(p);
    p->running++;
    for (;;) {
        int64_t *since = p->idle_since[t->id];
        since[0] = block_begin(p, &since[1]);
        /* Helpers spin for the next split point; thread 0's next job is the next search,
         * which a spin would not bring sooner and a caller running beside it (datagen's
         * games, several pools on the cores) would pay for. */
        bool may_spin = t->id != 0;
        while (!t->job && !t->exit) {
            if (may_spin) {
                may_spin = false;
                if (pool_spin(p, t))
                    continue;
            }
            pthread_cond_wait(&t->wake, &p->lock);
        }
        int64_t v_to, idle_to = block_end(p, &v_to);
        /* What came before the last reset is not counted. */
        t->stats.idle_ns += idle_to - later(since[0], p->reset_ns);
        t->stats.idle_vns += v_to - later(since[1], p->reset_vns);
        since[0] = 0;
        if (t->exit)
            break;
        PoolJob job = t->job, done = t->job_done;
        void *job_arg = t->job_arg;
        pool_unlock(p);
        job(t, job_arg);
        pool_lock(p);
        /* The job's last step and the check-in: one critical section. */
        if (done)
            done(t, job_arg);
        t->job = NULL;
        t->job_done = NULL;
        /* The broadcasts stay under the lock: the wait below releases it at once (after an
         * unlock they would cost another acquisition); helpers_done has a waiter only at the
         * end of a Lazy SMP search, and a broadcast without waiters makes no system call. */
        if (t->id == 0)
            pthread_cond_broadcast(&p->main_done);
        else {
            /* checkIn */
            t->idle = true;
            atomic_fetch_add(&p->available, 1);
            pthread_cond_broadcast(&p->helpers_done);
        }
    }
    p->running--;
    pool_unlock(p);
    return NULL;
}

static bool add_thread(ThreadPool *p)
{
    SearchThread *t = search_thread_new(p->size);
    if (!t)
        return false;
    t->pool = p;
    t->idle = t->id > 0;
    pthread_cond_init(&t->wake, NULL);
    atomic_init(&t->signals, 0);
    /* The search recurses up to MAX_PLY with a move list per frame: ask for room. */
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 16u << 20);
    int rc = pthread_create(&t->handle, &attr, worker_loop, t);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        pthread_cond_destroy(&t->wake);
        search_thread_free(t);
        return false;
    }
    pthread_mutex_lock(&p->lock);
    p->threads[p->size++] = t;
    if (t->idle)
        atomic_fetch_add(&p->available, 1);
    pthread_mutex_unlock(&p->lock);
    return true;
}

static void remove_last_thread(ThreadPool *p)
{
    pthread_mutex_lock(&p->lock);
    SearchThread *t = p->threads[--p->size];
    if (t->idle)
        atomic_fetch_sub(&p->available, 1);
    t->exit = true;
    pthread_mutex_unlock(&p->lock);
    pool_wake(p, t); /* after the unlock: t is freed only below, once joined */
    pthread_join(t->handle, NULL);
    pthread_cond_destroy(&t->wake);
    search_thread_free(t);
}

ThreadPool *pool_new(int n)
{
    ThreadPool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->main_done, NULL);
    pthread_cond_init(&p->helpers_done, NULL);
    atomic_init(&p->available, 0);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    p->cpus = cpus > 0 ? (int)cpus : 1;
    p->vclock_at = p->reset_ns = time_now_ns();
    if (!pool_resize(p, n) || p->size == 0) {
        pool_free(p);
        return NULL;
    }
    return p;
}

void pool_free(ThreadPool *p)
{
    if (!p)
        return;
    while (p->size > 0)
        remove_last_thread(p);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->main_done);
    pthread_cond_destroy(&p->helpers_done);
    free(p);
}

bool pool_resize(ThreadPool *p, int n)
{
    if (n < 1)
        n = 1;
    if (n > POOL_MAX_THREADS)
        n = POOL_MAX_THREADS;
    while (p->size > n)
        remove_last_thread(p);
    while (p->size < n)
        if (!add_thread(p))
            return false;
    return true;
}

int pool_size(const ThreadPool *p)
{
    return p->size;
}

SearchThread *pool_thread(ThreadPool *p, int index)
{
    return p->threads[index];
}

void pool_run_main(ThreadPool *p, PoolJob fn, void *arg)
{
    SearchThread *t = p->threads[0];
    pthread_mutex_lock(&p->lock);
    t->job = fn;
    t->job_done = NULL;
    t->job_arg = arg;
    pthread_mutex_unlock(&p->lock);
    pool_wake(p, t); /* after the unlock: thread 0 lives as long as the pool */
}

void pool_wait_main(ThreadPool *p)
{
    SearchThread *t = p->threads[0];
    pthread_mutex_lock(&p->lock);
    while (t->job)
        pthread_cond_wait(&p->main_done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void pool_wait_helpers(ThreadPool *p)
{
    pool_lock(p);
    for (int i = 1; i < p->size; i++)
        while (!p->threads[i]->idle)
            pool_cond_wait(p, &p->helpers_done, 0, NULL);
    pool_unlock(p);
}

void pool_lock(ThreadPool *p)
{
    int64_t at = lock_acquire(&p->lock, pool_lock_stats());
    p->locked_at = at;
}

void pool_unlock(ThreadPool *p)
{
    lock_release(&p->lock, pool_lock_stats(), p->locked_at);
}

SearchThread *pool_checkout_locked(ThreadPool *p)
{
    for (int i = 1; i < p->size; i++) {
        SearchThread *t = p->threads[i];
        if (t->idle) {
            t->idle = false;
            atomic_fetch_sub(&p->available, 1);
            return t;
        }
    }
    return NULL;
}

void pool_start_locked(ThreadPool *p, SearchThread *t, PoolJob fn, PoolJob done, void *arg)
{
    (void)p;
    t->job = fn;
    t->job_done = done;
    t->job_arg = arg;
}

void pool_wake(ThreadPool *p, SearchThread *t)
{
    (void)p;
    /* The count tells a spinning t (pool_spin) to look again. */
    atomic_fetch_add_explicit(&t->signals, 1, memory_order_release);
    pthread_cond_signal(&t->wake);
}

int pool_available(const ThreadPool *p)
{
    return atomic_load_explicit(&((ThreadPool *)p)->available, memory_order_relaxed);
}

void pool_wait_locked(ThreadPool *p, SearchThread *t, int64_t timeout_us, bool spin)
{
    pool_cond_wait(p, &t->wake, timeout_us, spin ? t : NULL);
}

uint64_t pool_nodes(const ThreadPool *p)
{
    uint64_t n = 0;
    for (int i = 0; i < p->size; i++)
        n += thread_nodes(p->threads[i]);
    return n;
}

/* Sums one of the threads' relaxed counters, named by its offset in SearchThread. */
static uint64_t pool_counter_sum(const ThreadPool *p, size_t counter_offset)
{
    uint64_t n = 0;
    for (int i = 0; i < p->size; i++) {
        _Atomic uint64_t *counter = (_Atomic uint64_t *)((char *)p->threads[i] + counter_offset);
        n += atomic_load_explicit(counter, memory_order_relaxed);
    }
    return n;
}

uint64_t pool_tbhits(const ThreadPool *p)
{
    return pool_counter_sum(p, offsetof(SearchThread, tbhits));
}

uint64_t pool_learned_hits(const ThreadPool *p)
{
    return pool_counter_sum(p, offsetof(SearchThread, learned_hits));
}

/* CPU time of t's thread in ns; 0 where the system cannot tell. */
static int64_t thread_cpu_ns(const SearchThread *t)
{
    clockid_t cpu_clock;
    struct timespec ts;
    (void)t; /* winpthreads' pthread_getcpuclockid is a macro that fails, args unused */
    if (pthread_getcpuclockid(t->handle, &cpu_clock) != 0 || clock_gettime(cpu_clock, &ts) != 0)
        return 0;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void lock_stats_add(LockStats *sum, const LockStats *s)
{
    sum->count += s->count;
    sum->long_count += s->long_count;
    sum->hold_ns += s->hold_ns;
    sum->wait_ns += s->wait_ns;
    sum->long_ns += s->long_ns;
}

void pool_stats(const ThreadPool *p, SplitStats *sum)
{
    ThreadPool *pool = (ThreadPool *)p; /* the lock and the virtual clock move */
    memset(sum, 0, sizeof *sum);
    pthread_mutex_lock(&pool->lock);
    int64_t now = time_now_ns(), vnow = vclock(pool, now);
    for (int i = 0; i < p->size; i++) {
        const SplitStats *s = &p->threads[i]->stats;
        /* An idle thread's time since it became idle is not in its stats yet. */
        const int64_t *since = p->idle_since[i];
        int64_t idle_ns = s->idle_ns, idle_vns = s->idle_vns;
        if (since[0]) {
            idle_ns += now - later(since[0], p->reset_ns);
            idle_vns += vnow - later(since[1], p->reset_vns);
        }
        if (i == 0) {
            sum->gap_ns = idle_ns;
            sum->gap_vns = idle_vns;
        }
        sum->splits += s->splits;
        sum->split_failed += s->split_failed;
        sum->helpers += s->helpers;
        sum->cutoffs += s->cutoffs;
        sum->master_joins += s->master_joins;
        sum->idle_ns += idle_ns;
        sum->wait_ns += s->wait_ns;
        sum->idle_vns += idle_vns;
        sum->wait_vns += s->wait_vns;
        lock_stats_add(&sum->pool_lock, &s->pool_lock);
        lock_stats_add(&sum->sp_lock, &s->sp_lock);
        sum->stale_exclusions += s->stale_exclusions;
        sum->bad_double_extensions += s->bad_double_extensions;
        sum->bad_node_counts += s->bad_node_counts;
        int64_t cpu = thread_cpu_ns(p->threads[i]);
        sum->cpu_ns += cpu ? cpu - p->cpu_base_ns[i] : 0;
    }
    sum->wall_ns = now - p->reset_ns;
    sum->virtual_ns = vnow - p->reset_vns;
    sum->cpus = p->cpus;
    pthread_mutex_unlock(&pool->lock);
}

void pool_reset_stats(ThreadPool *p)
{
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->size; i++) {
        memset(&p->threads[i]->stats, 0, sizeof p->threads[i]->stats);
        p->cpu_base_ns[i] = thread_cpu_ns(p->threads[i]);
    }
    p->reset_ns = time_now_ns();
    p->reset_vns = vclock(p, p->reset_ns);
    pthread_mutex_unlock(&p->lock);
}
