/* The root move list of one search thread: built once per search (legal moves, narrowed
 * by `searchmoves` and the tablebase ranking), sorted after each line, and updated with
 * the score, bound and PV of each root move as the search of the root finishes it. */
#ifndef SAAVEDRA_ROOTMOVES_H
#define SAAVEDRA_ROOTMOVES_H

#include "search/thread.h"

/* Fills t->root_moves from t->pos: the legal moves, only those named by `searchmoves`
 * (all if it names no legal move), and in the tablebases only those that keep the best
 * result; the moves the limits penalize carry their penalty. t->root_count is 0 when
 * there is no legal move. */
void root_moves_init(SearchThread *t);

/* Stable insertion sort by score, then by the previous iteration's score. */
void root_moves_sort(RootMove *moves, int count);

/* The cp root move m of t's list is worth less than its search says (0 for most); when
 * not 0, *alpha and *beta are moved up by it (at most to VALUE_INFINITE): the window to
 * search the move with, whose score is then moved down by as much. */
int root_move_window(SearchThread *t, Move m, int *alpha, int *beta);

/* Whether m is one of the root moves of the current line, [pv_index, pv_last). */
bool root_move_allowed(const SearchThread *t, Move m);

/* Records what the search of root move m (the move_count-th of this iteration, searched
 * with the bounds alpha and beta by thread t) found: its score, bound, selective depth
 * and PV (t's PV row 1), and the nodes searched below it (thread_tree_nodes). A move that
 * failed low (after the first) gets -VALUE_INFINITE. The root moves are owner's: t
 * itself, or at a root split point the split point's owner (the caller then holds the
 * split point's lock). */
void root_move_record(SearchThread *t, SearchThread *owner, Move m, int v, int alpha, int beta,
                      int move_count, uint64_t nodes_before);

#endif
