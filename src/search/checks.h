/* Search invariants checked in debug builds. SEARCH_CHECKS is on wherever NDEBUG is not
 * defined (make debug, make test-debug, make tsan) and in the check build of make test
 * (mk/test.mk), which compiles src/search/ again with -DSEARCH_CHECKS=1; the release
 * build does not count anything. A violation is counted in the thread's SplitStats
 * (summed by pool_stats; bench prints them in such builds) rather than aborting, so a
 * test or a bench run can say how often it happens.
 *
 * The invariants (SplitStats fields):
 * - stale_exclusions: a node entered with an excluded move (SearchStack.excluded) must be
 *   the singular verification search of that same node on this thread's own call chain.
 *   Stack entries travel between threads with split points (split.c), so the entry
 *   alone cannot tell; SearchThread.verifying, which no split point copies, records
 *   which plies of the thread's own chain are inside their verification search.
 * - bad_double_extensions: a node's double-extension count is its parent's, plus one
 *   when the move to it was double-extended (never after a null move).
 * - bad_node_counts: the root moves' node counts of a completed iteration add up to at
 *   most the iteration's nodes, both counted with thread_tree_nodes; at the end of a
 *   search thread 0's tree count is every thread's nodes with YBWC, its own in Lazy
 *   mode (split.c's accounting neither loses nor double-counts a node). */
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
