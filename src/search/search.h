/* Alpha-beta search: iterative deepening with aspiration windows over a PVS with
 * quiescence, the classic prunings and reductions, MultiPV and a triangular PV. The
 * search state (SearchThread, SearchShared, SearchReporter) is in thread.h. */
#ifndef SAAVEDRA_SEARCH_H
#define SAAVEDRA_SEARCH_H

#include "search/thread.h"

typedef struct {
    Move best, ponder;
    int score;
    int depth;
    uint64_t nodes;
    uint64_t learned_hits;   /* probes that found a learning-file entry, all threads */
    int64_t time_ms;
} SearchResult;

/* Builds the reduction table. Call once at start-up. */
void search_init(void);

/* Searches t->pos (set by the caller, with its game history) under t->shared and
 * returns the best move. Reports iterations through t->shared->reporter. */
SearchResult search_run(SearchThread *t);

/* Converts an internal score into the report's cp / mate fields. */
void search_score_to_report(int score, SearchReport *report);

#endif
