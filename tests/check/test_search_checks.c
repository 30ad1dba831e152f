/* Tests of the check build (src/search/checks.h): the search compiled with its invariants
 * counted, searching with several threads. Each invariant is counted per thread and
 * summed by engine_smp_stats; any count above zero fails. */
#include <stdio.h>

#include "engine/engine.h"
#include "engine_fixture.h"
#include "search/checks.h"
#include "search/search.h"
#include "test.h"

/* The build compiles src/search/ with the checks on, or every test here is vacuous. */
TEST(checks_are_compiled_in)
{
    CHECK_EQ(SEARCH_CHECKS, 1);
}

/* Middlegames of the bench, each searched to CHECK_DEPTH with 1, 2, 4 and 8 YBWC threads
 * and 2 Lazy ones; every invariant must hold:
 * - No node sees another node's excluded move. A helper that joined a split point below a
 *   singular verification search used to keep the owner's exclusion in its stack and take
 *   it to the split points it joined later: in four runs at this depth, each run found
 *   such nodes with at least one thread count (33 to 1,844). A shallower search has too
 *   few verification searches deep enough to hold a split point (the mates of
 *   smp-mates.epd have none).
 * - A node's double-extension count is its parent's, plus one after a double extension.
 *   Null-move and ProbCut children used to inherit whatever count a sibling line had
 *   left in their stack entry (42,507 nodes in the one-thread bench).
 * - The root moves' node counts add up to at most their iteration's, and thread 0's tree
 *   count ends as every thread's nodes (YBWC) or its own (Lazy). When the root moves
 *   counted helpers' nodes and the iteration only thread 0's, 46, 70 and 65 of the 90
 *   iterations at 2, 4 and 8 threads held more than the iteration; a helpful master
 *   whose nodes count for both owners ends every YBWC search with the wrong total.
 * The sanitizer builds search two plies less (ASan's run of depth 15 takes some 80 s):
 * the optimised check build of make test is the one that must find a stale exclusion. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CHECK_DEPTH 13
#else
#define CHECK_DEPTH 15
#endif
TEST(checks_hold_with_1_2_4_8_ybwc_and_2_lazy_threads)
{
    static const char *const FENS[] = {
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "2r3k1/q4ppp/p3p3/pnNp4/2rP4/2P2P2/4R1PP/2R1Q1K1 b - - 0 1",
        "r1bq1rk1/1p2ppbp/p2p1np1/6B1/2P1P3/2N5/PP1QBPPP/R3K2R w KQ - 0 1",
        "r3r1k1/1pqn1pbp/p2p2p1/2nP2B1/P1P1P3/2NB3P/5PP1/R2QR1K1 w - - 0 1",
        "1qr3k1/p2nbppp/bp2p3/3p4/3P4/1P2PNP1/P2Q1PBP/1N2R1K1 b - - 0 1",
    };
    static const struct { int threads; const char *mode; } CONFIGS[] = {
        {1, "YBWC"}, {2, "YBWC"}, {4, "YBWC"}, {8, "YBWC"}, {2, "Lazy"},
    };
    for (size_t c = 0; c < sizeof CONFIGS / sizeof *CONFIGS; c++) {
        int threads = CONFIGS[c].threads;
        const char *mode = CONFIGS[c].mode;
        Engine *e = fixture_engine(threads, mode);
        if (!e)
            return;
        SplitStats st;
        engine_smp_stats(e, &st, true);
        for (size_t i = 0; i < sizeof FENS / sizeof *FENS; i++)
            fixture_search(e, FENS[i], CHECK_DEPTH);
        engine_smp_stats(e, &st, false);
        CHECK_MSG(st.stale_exclusions == 0, "%d threads %s: %llu stale exclusions", threads, mode,
                  (unsigned long long)st.stale_exclusions);
        CHECK_MSG(st.bad_double_extensions == 0, "%d threads %s: %llu wrong double-extension counts", threads,
                  mode, (unsigned long long)st.bad_double_extensions);
        CHECK_MSG(st.bad_node_counts == 0, "%d threads %s: %llu wrong node counts", threads, mode,
                  (unsigned long long)st.bad_node_counts);
        /* Without split points the parallel search was not tested. */
        if (threads > 1 && mode[0] == 'Y')
            CHECK_MSG(st.splits > 0, "%d threads YBWC: no split point", threads);
        engine_free(e);
    }
}
