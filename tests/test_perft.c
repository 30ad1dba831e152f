/* Perft counts of every position of tests/data/perftsuite.epd and cpw.epd, and of the
 * 960 Chess960 positions of fischer.epd (depths 1-3 here, 1-5 with --perft-full).
 *
 * By default each position runs every listed depth whose expected count is at most
 * PERFT_NODE_LIMIT (the smallest listed depth always runs), which keeps `make test`
 * well under its time budget; --perft-full runs every listed depth. The environment
 * variable SAAVEDRA_PERFT_LIMIT overrides the limit. Jobs are spread over the cores. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/perft.h"
#include "perft_data.h"
#include "board/position.h"
#include "test.h"
#include "util/timeutil.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PERFT_NODE_LIMIT 50000000ULL /* sanitizers run perft some 4-10x slower */
#else
#define PERFT_NODE_LIMIT 1000000000ULL
#endif
#define MAX_WORKERS 4

typedef struct {
    const PerftEntry *entry;
    int index;          /* into entry->depth[] */
    uint64_t result;
    bool fen_ok;
    char err[160];
} PerftJob;

typedef struct {
    PerftJob *jobs;
    int count;
    atomic_int next;
} JobQueue;

static uint64_t node_limit(void)
{
    if (test_perft_full())
        return UINT64_MAX;
    const char *env = getenv("SAAVEDRA_PERFT_LIMIT");
    if (env && *env)
        return strtoull(env, NULL, 10);
    return PERFT_NODE_LIMIT;
}

static void *perft_worker(void *arg)
{
    JobQueue *q = arg;
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return NULL;
    for (int i; (i = atomic_fetch_add(&q->next, 1)) < q->count;) {
        PerftJob *job = &q->jobs[i];
        job->fen_ok = position_from_fen(pos, job->entry->fen, job->err, sizeof job->err, NULL);
        if (job->fen_ok)
            job->result = perft(pos, job->entry->depth[job->index]);
    }
    free(pos);
    return NULL;
}

static int by_size_descending(const void *a, const void *b)
{
    const PerftJob *x = a, *y = b;
    uint64_t nx = x->entry->nodes[x->index], ny = y->entry->nodes[y->index];
    return nx < ny ? 1 : nx > ny ? -1 : 0;
}

static int worker_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

/* Runs the file's positions; expected_positions guards against a truncated data file. */
static void run_perft_file_to(const char *name, int expected_positions, int max_depth)
{
    PerftEntry *entries;
    int n = perft_data_load(name, &entries);
    if (n < 0)
        return;
    CHECK_EQ(n, expected_positions);
    uint64_t limit = node_limit(), total_nodes = 0;
    int job_count = 0, max_jobs = n * PERFT_MAX_DEPTHS;
    PerftJob *jobs = calloc((size_t)max_jobs, sizeof *jobs);
    for (int e = 0; e < n; e++)
        for (int d = 0; d < entries[e].depth_count; d++)
            if (entries[e].depth[d] <= max_depth && (d == 0 || entries[e].nodes[d] <= limit)) {
                jobs[job_count++] = (PerftJob){ .entry = &entries[e], .index = d };
                total_nodes += entries[e].nodes[d];
            }
    qsort(jobs, (size_t)job_count, sizeof *jobs, by_size_descending);

    JobQueue queue = { .jobs = jobs, .count = job_count };
    atomic_init(&queue.next, 0);
    int workers = worker_count();
    pthread_t threads[MAX_WORKERS];
    int64_t start = time_now_ms();
    for (int i = 0; i < workers; i++)
        if (pthread_create(&threads[i], NULL, perft_worker, &queue)) {
            workers = i;
            break;
        }
    if (workers == 0)
        perft_worker(&queue);
    for (int i = 0; i < workers; i++)
        pthread_join(threads[i], NULL);
    int64_t ms = time_now_ms() - start;

    for (int i = 0; i < job_count; i++) {
        const PerftJob *j = &jobs[i];
        if (!CHECK_MSG(j->fen_ok, "%s: FEN rejected (%s): %s", name, j->err, j->entry->fen))
            continue;
        CHECK_MSG(j->result == j->entry->nodes[j->index], "%s: perft %d of %s: %llu, expected %llu",
                  name, j->entry->depth[j->index], j->entry->fen, (unsigned long long)j->result,
                  (unsigned long long)j->entry->nodes[j->index]);
    }
    printf("    %s: %d positions, %d counts, %.0f Mnodes, %d threads, %.1f s (node limit %s)\n", name, n,
           job_count, total_nodes / 1e6, workers > 0 ? workers : 1, ms / 1000.0,
           limit == UINT64_MAX ? "none" : "per position");
    free(jobs);
    free(entries);
}

static void run_perft_file(const char *name, int expected_positions)
{
    run_perft_file_to(name, expected_positions, PERFT_MAX_DEPTHS * 100);
}

TEST(perft_suite) { run_perft_file("perftsuite.epd", 128); }

/* Chess960: every position to depth 3 here (3 million nodes); `make perft-960` runs
 * every count to depth 5 (D6, 5 * 10^11 nodes, is left out). */
TEST(perft_fischer960) { run_perft_file_to("fischer.epd", 960, test_perft_full() ? 5 : 3); }

TEST(perft_cpw) { run_perft_file("cpw.epd", 7); }

/* perft(0) is the position itself; depth 1 counts legal moves without making them. */
TEST(perft_small_depths)
{
    Position pos;
    char err[160];
    if (!CHECK(position_from_fen(&pos, START_FEN, err, sizeof err, NULL)))
        return;
    CHECK_EQ(perft(&pos, 0), 1);
    CHECK_EQ(perft(&pos, 1), 20);
    CHECK_EQ(perft(&pos, 2), 400);
    /* Stalemate and checkmate have no moves. */
    if (CHECK(position_from_fen(&pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", err, sizeof err, NULL)))
        CHECK_EQ(perft(&pos, 1), 0);
    if (CHECK(position_from_fen(&pos, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", err, sizeof err, NULL)))
        CHECK_EQ(perft(&pos, 3), 0);
}
