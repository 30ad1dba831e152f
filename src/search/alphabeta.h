/* The recursive part of the search: principal variation search with the prunings,
 * reductions and extensions (the quiescence search is qsearch.h). The driver is search.c. */
#ifndef SAAVEDRA_ALPHABETA_H
#define SAAVEDRA_ALPHABETA_H

#include "search/thread.h"

/* Builds the late-move-reduction table. */
void alphabeta_init(void);

/* Searches t->pos to depth (plies) at distance ply from the root. At ply 0 only the root
 * moves t->root_moves[t->pv_index .. t->pv_last) are searched and their scores and PVs
 * updated. Returns a meaningless value once the search has been stopped. */
int alphabeta(SearchThread *t, int alpha, int beta, int depth, int ply, bool cut_node);

#endif
