/* The recursive part of the search: principal variation search with the prunings,
 * reductions and extensions (the quiescence search is qsearch.h). The driver is search.c.
 * Two files: alphabeta.c the node, moveloop.c its move loop and the reduction table. */
#ifndef SAAVEDRA_ALPHABETA_H
#define SAAVEDRA_ALPHABETA_H

#include "search/thread.h"

/* Builds the late-move-reduction table. */
void alphabeta_init(void);

/* Searches t->pos to depth (plies) at distance ply from the root. At ply 0 only the root
 * moves t->root_moves[t->pv_index .. t->pv_last) are searched and their scores and PVs
 * updated. Returns a meaningless value once the search has been stopped. */
int alphabeta(SearchThread *t, int alpha, int beta, int depth, int ply, bool cut_node);

/* The move loop of a node, for alphabeta and split points only (split.c runs it as a
 * MoveLoopFn): alone (sp NULL) or as one of the threads at a split point. Returns when the
 * moves are exhausted, at a beta cutoff, or when the search is aborted (the caller then
 * discards everything). Declared here, not in a header of its own: it and alphabeta call
 * each other, and two modules may not include each other (tools/ci/check-includes.py). */
void search_moves(SearchThread *t, MoveLoop *ml, SplitPoint *sp);

#endif
