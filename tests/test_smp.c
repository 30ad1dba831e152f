/* Tests of the parallel search (threads.c, split.c, Lazy SMP in search.c): the pool
 * resizes, YBWC really splits, mate distances do not depend on the thread count or the
 * SMP mode, every best move is legal, and go/stop cycles with 4 threads neither hang nor
 * leak. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board/movegen.h"
#include "board/movelegal.h"
#include "engine/engine.h"
#include "engine_fixture.h"
#include "formats/epd.h"
#include "search/search.h"
#include "search/split.h"
#include "test.h"
#include "util/timeutil.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

/* The result of a new game from fen searched to depth (all zero if it was refused). */
static SearchResult search_fen(Engine *e, const char *fen, int depth)
{
    SearchResult none = { 0 };
    return fixture_search(e, fen, depth) ? engine_last_result(e) : none;
}

static bool legal_in(const char *fen, Move m)
{
    Position pos;
    char err[160];
    return position_from_fen(&pos, fen, err, sizeof err, NULL) && m != MOVE_NONE && move_is_legal(&pos, m);
}

TEST(smp_pool_resizes_between_searches)
{
    Engine *e = fixture_engine(1, "YBWC");
    if (!e)
        return;
    /* (Each thread has 2 MB of histories: 256 threads are left to the option's range.) */
    static const int SIZES[] = {16, 2, 32, 4, 1, 3};
    const char *fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    char err[256], value[16];
    for (size_t i = 0; i < sizeof SIZES / sizeof *SIZES; i++) {
        snprintf(value, sizeof value, "%d", SIZES[i]);
        CHECK_MSG(engine_set_option_id(e, OPT_THREADS, value, OPT_SOURCE_GUI, err, sizeof err), "Threads %d: %s",
                  SIZES[i], err);
        SearchResult r = search_fen(e, fen, 9);
        CHECK_MSG(legal_in(fen, r.best), "Threads %d: no legal best move", SIZES[i]);
    }
    CHECK(!engine_set_option_id(e, OPT_THREADS, "257", OPT_SOURCE_GUI, err, sizeof err));
    CHECK(!engine_set_option_id(e, OPT_THREADS, "0", OPT_SOURCE_GUI, err, sizeof err));
    CHECK(!engine_set_option_id(e, OPT_SMP_MODE, "ABDADA", OPT_SOURCE_GUI, err, sizeof err));
    engine_free(e);
}

/* Up to the threads one split point takes, every node of SPLIT_MIN_DEPTH may split; each
 * doubling past that asks SPLIT_DEPTH_PER_DOUBLING plies more, so the split rate falls as
 * idle helpers stop being scarce. */
TEST(smp_split_depth_rises_with_the_threads)
{
    for (int n = 1; n <= SPLIT_MAX_HELPERS + 1; n++)
        CHECK_MSG(split_min_depth(n) == SPLIT_MIN_DEPTH, "%d threads: %d", n, split_min_depth(n));
    for (int n = SPLIT_MAX_HELPERS + 1; n <= 128; n *= 2) {
        CHECK_MSG(split_min_depth(2 * n) == split_min_depth(n) + SPLIT_DEPTH_PER_DOUBLING,
                  "%d threads: %d, %d threads: %d", n, split_min_depth(n), 2 * n,
                  split_min_depth(2 * n));
        CHECK(split_min_depth(n + 1) == split_min_depth(2 * n)); /* whole doublings */
    }
    CHECK(split_min_depth(256) < MAX_PLY);
}

/* The bench's middlegames at a depth where split points must occur with 4 threads; the
 * node counts of all threads are summed. */
TEST(smp_ybwc_splits_and_plays_legal_moves)
{
    static const char *const FENS[] = {
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "2r3k1/q4ppp/p3p3/pnNp4/2rP4/2P2P2/4R1PP/2R1Q1K1 b - - 0 1",
        "8/1p3p2/p4kpp/1PPp4/P7/7P/5K1P/8 b - - 0 1",
    };
    for (int mode = 0; mode < 2; mode++) {
        Engine *e = fixture_engine(4, mode ? "Lazy" : "YBWC");
        if (!e)
            return;
        SplitStats st;
        engine_smp_stats(e, &st, true);
        uint64_t nodes = 0;
        for (size_t i = 0; i < sizeof FENS / sizeof *FENS; i++) {
            SearchResult r = search_fen(e, FENS[i], 11);
            CHECK_MSG(legal_in(FENS[i], r.best), "%s, %s: illegal best move", mode ? "Lazy" : "YBWC", FENS[i]);
            CHECK_EQ(r.depth, 11);
            nodes += r.nodes;
        }
        engine_smp_stats(e, &st, false);
        CHECK(nodes > 0);
        if (mode == 0)
            CHECK_MSG(st.splits > 0 && st.helpers >= st.splits, "YBWC: %llu splits, %llu helpers",
                      (unsigned long long)st.splits, (unsigned long long)st.helpers);
        else
            CHECK_MSG(st.splits == 0, "Lazy made %llu splits", (unsigned long long)st.splits);
        engine_free(e);
    }
}

/* A mate's distance is exact at any thread count and in both modes, at a depth where the
 * search finds the mate whatever its move order. The cases are tests/data/smp-mates.epd
 * (acd: the depth, dm: the mate in moves), shared with tools/measure/smp-mates.py, which measures
 * how often a depth misses. WAC.001 (the quiet queen sacrifice Qg6) needs depth: below 14
 * the root's late move reduction can leave the node after Qg6 to reverse futility pruning,
 * depending on where Qg6 comes among the root moves, with one thread as well once its
 * histories differ (docs/smp.md). */
TEST(smp_same_mate_distance_with_1_2_4_16_threads)
{
    static const int THREADS[] = {1, 2, 4, 16};
    char path[512], line[512], err[200];
    FILE *f = fopen(test_data_path("smp-mates.epd", path, sizeof path), "r");
    if (!CHECK_MSG(f != NULL, "cannot open %s", path))
        return;
    Position *pos = malloc(sizeof *pos);
    EpdRecord *rec = malloc(sizeof *rec);
    int cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (epd_is_blank(line))
            continue;
        if (!CHECK_MSG(epd_parse(line, pos, rec, err, sizeof err), "%s: %s", path, err))
            continue;
        const char *acd = epd_string(rec, "acd"), *dm = epd_string(rec, "dm");
        if (!CHECK_MSG(acd && dm, "%s: a case without acd or dm: %s", path, line))
            continue;
        int depth = atoi(acd), mate = atoi(dm);
        cases++;
        for (size_t ti = 0; ti < sizeof THREADS / sizeof *THREADS; ti++)
            for (int mode = 0; mode < 2; mode++) {
                if (THREADS[ti] == 1 && mode == 1)
                    continue;
                Engine *e = fixture_engine(THREADS[ti], mode ? "Lazy" : "YBWC");
                if (!e)
                    break;
                SearchResult r = search_fen(e, rec->fen, depth);
                CHECK_MSG(legal_in(rec->fen, r.best), "%s: illegal best move", rec->fen);
                CHECK_MSG(r.score == VALUE_MATE - (2 * mate - 1),
                          "%s: %d threads %s: score %d, expected mate in %d", rec->fen, THREADS[ti],
                          mode ? "Lazy" : "YBWC", r.score, mate);
                engine_free(e);
            }
    }
    fclose(f);
    CHECK_MSG(cases >= 5, "only %d cases in %s", cases, path);
    free(pos);
    free(rec);
}

/* Bytes the allocator has handed out and not had back, in KB. Resident memory would also
 * grow as searches first touch hash and history pages, which is not a leak. Where malloc
 * cannot say (not glibc), 0: the thread count below still catches a pool that leaks. */
static long heap_in_use_kb(void)
{
#ifdef __GLIBC__
    struct mallinfo2 mi = mallinfo2();
    return (long)((mi.uordblks + mi.hblkhd) / 1024);
#else
    return 0;
#endif
}

/* 1000 go/stop cycles at random short intervals with 4 threads: every search ends and
 * gives a legal move, and memory stays flat. */
TEST(smp_go_stop_cycles_with_4_threads)
{
    static const char *const FENS[] = {
        START_FEN,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/1p3p2/p4kpp/1PPp4/P7/7P/5K1P/8 b - - 0 1",
    };
    for (int mode = 0; mode < 2; mode++) {
        Engine *e = fixture_engine(4, mode ? "Lazy" : "YBWC");
        if (!e)
            return;
        uint64_t seed = 0x2545F4914F6CDD1DULL + (uint64_t)mode;
        long heap_start = 0;
        long threads_start = 0;
        int bad = 0;
        for (int i = 0; i < 500; i++) {
            const char *fen = FENS[i % 3];
            char err[256];
            if (!engine_set_position(e, fen, NULL, 0, err, sizeof err))
                continue;
            SearchLimits limits;
            limits_init(&limits);
            limits.infinite = (i & 1) == 0;
            if (!limits.infinite)
                limits.movetime = 1 + (int64_t)(seed % 5);
            if (!engine_go(e, &limits, NULL, err, sizeof err)) {
                bad++;
                continue;
            }
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            struct timespec ts = {0, (long)(seed % 3000) * 1000};
            nanosleep(&ts, NULL);
            engine_stop(e);
            engine_wait(e);
            SearchResult r = engine_last_result(e);
            if (!legal_in(fen, r.best))
                bad++;
            if (i == 100)
                heap_start = heap_in_use_kb(), threads_start = test_proc_status("Threads");
        }
        long heap_end = heap_in_use_kb();
        long threads_end = test_proc_status("Threads");
        CHECK_MSG(bad == 0, "%s: %d of 500 go/stop cycles without a legal move", mode ? "Lazy" : "YBWC", bad);
        CHECK_MSG(heap_end - heap_start < 256, "%s: heap in use grew from %ld KB to %ld KB",
                  mode ? "Lazy" : "YBWC", heap_start, heap_end);
        CHECK_MSG(threads_end == threads_start, "%s: %ld threads after 400 cycles, %ld before",
                  mode ? "Lazy" : "YBWC", threads_end, threads_start);
        engine_free(e);
    }
}
