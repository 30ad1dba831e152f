/* The quiescence search: what the principal variation search (alphabeta.c) calls at
 * depth 0 and for its razoring and ProbCut verifications. */
#ifndef SAAVEDRA_QSEARCH_H
#define SAAVEDRA_QSEARCH_H

#include "search/thread.h"

/* Searches t->pos at distance ply from the root until it is quiet: captures and queen
 * promotions, quiet checks too at qdepth 0 (the first quiescence ply, which alphabeta
 * calls), every evasion when in check. Returns a meaningless value once the search has
 * been stopped. */
int qsearch(SearchThread *t, int alpha, int beta, int ply, int qdepth);

#endif
