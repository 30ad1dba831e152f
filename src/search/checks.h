/* Search invariants checked in debug builds. SEARCH_CHECKS is on wherever NDEBUG is not
 * defined (make debug, make test-debug, make tsan) and in the check build of make test
 * (mk/test.mk), which compiles src/search/ again with -DSEARCH_CHECKS=1; the release
 * build does not count anything. A violation is counted in the thread's SplitStats
 * (summed by pool_stats; bench prints them in such builds) rather than aborting, so a
 * test or a bench run can say how often it happens.
 *
 * Stale exclusion: a node entered with an excluded move (SearchStack.excluded) must be
 * the singular verification search of that same node on this thread's own call chain.
 * Stack entries travel between threads with split points (split.c), so the entry alone
 * cannot tell; SearchThread.verifying, which no split point copies, records which plies
 * of the thread's own chain are inside their verification search. */
#ifndef SAAVEDRA_CHECKS_H
#define SAAVEDRA_CHECKS_H

#ifndef SEARCH_CHECKS
#ifdef NDEBUG
#define SEARCH_CHECKS 0
#else
#define SEARCH_CHECKS 1
#endif
#endif

#endif
