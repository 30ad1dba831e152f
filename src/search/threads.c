/* The thread pool: see threads.h. Every thread, thread 0 included, runs worker_loop: it
 * sleeps on its own condition variable until it is given a job, runs it, and checks
 * itself in. Split points and the helpful master use the same lock and variables. */
#include "search/threads.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/timeutil.h"

struct ThreadPool {
    pthread_mutex_t lock;
    pthread_cond_t main_done;   /* thread 0 finished its job */
    pthread_cond_t helpers_done;/* a helper became idle */
    SearchThread *threads[POOL_MAX_THREADS];
    int size;
    atomic_int available;
};

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
    pthread_mutex_lock(&p->lock);
    for (;;) {
        int64_t idle_from = time_now_us();
        while (!t->job && !t->exit)
            pthread_cond_wait(&t->wake, &p->lock);
        t->stats.idle_us += time_now_us() - idle_from;
        if (t->exit)
            break;
        PoolJob job = t->job;
        void *job_arg = t->job_arg;
        pthread_mutex_unlock(&p->lock);
        job(t, job_arg);
        pthread_mutex_lock(&p->lock);
        t->job = NULL;
        if (t->id == 0)
            pthread_cond_broadcast(&p->main_done);
        else {
            /* checkIn */
            t->idle = true;
            atomic_fetch_add(&p->available, 1);
            pthread_cond_broadcast(&p->helpers_done);
        }
    }
    pthread_mutex_unlock(&p->lock);
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
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&p->lock);
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
    t->job_arg = arg;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&p->lock);
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
    pthread_mutex_lock(&p->lock);
    for (int i = 1; i < p->size; i++)
        while (!p->threads[i]->idle)
            pthread_cond_wait(&p->helpers_done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void pool_lock(ThreadPool *p)
{
    pthread_mutex_lock(&p->lock);
}

void pool_unlock(ThreadPool *p)
{
    pthread_mutex_unlock(&p->lock);
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

void pool_start_locked(ThreadPool *p, SearchThread *t, PoolJob fn, void *arg)
{
    (void)p;
    t->job = fn;
    t->job_arg = arg;
    pthread_cond_signal(&t->wake);
}

int pool_available(const ThreadPool *p)
{
    return atomic_load_explicit(&((ThreadPool *)p)->available, memory_order_relaxed);
}

void pool_wait_locked(ThreadPool *p, SearchThread *t, int64_t timeout_us)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t ns = ts.tv_nsec + timeout_us * 1000;
    ts.tv_sec += ns / 1000000000;
    ts.tv_nsec = ns % 1000000000;
    pthread_cond_timedwait(&t->wake, &p->lock, &ts);
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

void pool_stats(const ThreadPool *p, SplitStats *sum)
{
    memset(sum, 0, sizeof *sum);
    pthread_mutex_lock(&((ThreadPool *)p)->lock);
    for (int i = 0; i < p->size; i++) {
        const SplitStats *s = &p->threads[i]->stats;
        sum->splits += s->splits;
        sum->split_failed += s->split_failed;
        sum->helpers += s->helpers;
        sum->cutoffs += s->cutoffs;
        sum->master_joins += s->master_joins;
        sum->idle_us += s->idle_us;
        sum->stale_exclusions += s->stale_exclusions;
        sum->bad_double_extensions += s->bad_double_extensions;
        sum->bad_node_counts += s->bad_node_counts;
    }
    pthread_mutex_unlock(&((ThreadPool *)p)->lock);
}

void pool_reset_stats(ThreadPool *p)
{
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->size; i++)
        memset(&p->threads[i]->stats, 0, sizeof p->threads[i]->stats);
    pthread_mutex_unlock(&p->lock);
}
