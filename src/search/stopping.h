/* When a search stops: the stop flag, cutoffs at split points above a thread, the node
 * limit (counted over every thread) and the hard time limit (checked by thread 0 only,
 * every 1024 of its nodes). */
#ifndef SAAVEDRA_STOPPING_H
#define SAAVEDRA_STOPPING_H

#include "search/thread.h"

/* Nodes searched so far by every thread of the search. */
uint64_t search_total_nodes(const SearchThread *t);
/* Thread 0: restarts the clock once ponderhit has arrived (our own time starts then) and
 * says whether it runs, i.e. the search is not pondering any more. */
bool search_clock_running(SearchThread *t);
/* Called at every node: true when this thread must return at once. */
bool search_should_stop(SearchThread *t);
/* Thread 0 while it has no node to search (waiting for helpers at a split point):
 * the node and time limits, without the every-1024-nodes sampling. */
void search_poll_limits(SearchThread *t);

#endif
