/* The root move list: see rootmoves.h. */
#include "search/rootmoves.h"

#include <string.h>

#include "board/movegen.h"

static bool in_list(const Move *moves, int count, Move m)
{
    for (int i = 0; i < count; i++)
        if (moves[i] == m)
            return true;
    return false;
}

void root_moves_init(SearchThread *t)
{
    const SearchLimits *limits = &t->shared->limits;
    MoveList list;
    generate_legal(&t->pos, &list);
    /* In the tables: only the moves that keep the best result (syzygy.c). */
    syzygy_filter_root(&t->shared->tb_root, &list, limits->searchmoves, limits->searchmoves_count);
    for (int pass = 0; pass < 2 && t->root_count == 0; pass++)
        for (int i = 0; i < list.count; i++) {
            /* Second pass: searchmoves named no legal move, so all are searched. */
            if (pass == 0 && limits->searchmoves_count
                && !in_list(limits->searchmoves, limits->searchmoves_count, list.moves[i]))
                continue;
            RootMove *rm = &t->root_moves[t->root_count++];
            memset(rm, 0, sizeof *rm);
            rm->move = list.moves[i];
            rm->penalty = in_list(limits->penalized, limits->penalized_count, rm->move)
                            ? limits->penalty_cp
                            : 0;
            rm->score = rm->previous_score = -VALUE_INFINITE;
            rm->pv[0] = rm->move;
            rm->pv_length = 1;
        }
}

void root_moves_sort(RootMove *moves, int count)
{
    for (int i = 1; i < count; i++) {
        RootMove tmp = moves[i];
        int j = i - 1;
        while (j >= 0 && (moves[j].score < tmp.score
                          || (moves[j].score == tmp.score
                              && moves[j].previous_score < tmp.previous_score))) {
            moves[j + 1] = moves[j];
            j--;
        }
        moves[j + 1] = tmp;
    }
}

bool root_move_allowed(const SearchThread *t, Move m)
{
    for (int i = t->pv_index; i < t->pv_last; i++)
        if (t->root_moves[i].move == m)
            return true;
    return false;
}

static RootMove *find_root_move(SearchThread *t, Move m)
{
    for (int i = 0; i < t->root_count; i++)
        if (t->root_moves[i].move == m)
            return &t->root_moves[i];
    return NULL;
}

int root_move_window(SearchThread *t, Move m, int *alpha, int *beta)
{
    if (t->shared->limits.penalized_count == 0)
        return 0;
    const RootMove *rm = find_root_move(t, m);
    int shift = rm ? rm->penalty : 0;
    if (shift) {
        *alpha = *alpha + shift < VALUE_INFINITE - 1 ? *alpha + shift : VALUE_INFINITE - 1;
        *beta = *beta + shift < VALUE_INFINITE ? *beta + shift : VALUE_INFINITE;
    }
    return shift;
}

void root_move_record(SearchThread *t, SearchThread *owner, Move m, int v, int alpha, int beta,
                      int move_count, uint64_t nodes_before)
{
    RootMove *rm = find_root_move(owner, m);
    rm->nodes += thread_tree_nodes(t) - nodes_before;
    if (move_count == 1 || v > alpha) {
        rm->score = v;
        rm->seldepth = t->seldepth;
        rm->bound = v >= beta ? BOUND_LOWER : v <= alpha ? BOUND_UPPER : BOUND_EXACT;
        rm->pv[0] = m;
        rm->pv_length = 1;
        for (int i = 1; i < t->pv_length[1]; i++)
            rm->pv[rm->pv_length++] = t->pv[1][i];
        if (move_count > 1 && owner->pv_index == 0)
            owner->best_move_changes += 1.0;
    } else
        rm->score = -VALUE_INFINITE;
}
