/* What the principal variation search (alphabeta.c, its move loop moveloop.c) and the
 * quiescence search (qsearch.c) share at every node: the draws by the rules and the draw
 * score, the static evaluation (raw and corrected), making a move with its stack entry, the
 * PV update, the hash probe and its cut-off test, the material test of the prunings.
 * Private to those three files. */
#ifndef SAAVEDRA_NODE_H
#define SAAVEDRA_NODE_H

#include "board/movegen.h"
#include "eval/evaluate.h"
#include "nnue/nnue_eval.h"
#include "search/correction.h"
#include "search/thread.h"
#include "search/transposition.h"

static inline int min_int(int a, int b) { return a < b ? a : b; }
static inline int max_int(int a, int b) { return a > b ? a : b; }

/* Pieces besides pawns and the king: without them zugzwang makes null moves and the
 * shallow prunings unsafe. */
static inline bool has_non_pawn_material(const Position *pos, Color c)
{
    return (pieces_c(pos, c) & ~(pos->by_type[PAWN] | pos->by_type[KING])) != 0;
}

/* Draw by the rules in this position at this distance from the root (repetition,
 * fifty moves, insufficient material). */
static inline bool search_is_draw(const Position *pos, int ply)
{
    if (position_insufficient_material(pos) || position_is_repetition(pos, ply))
        return true;
    /* Fifty moves, unless the last of them gave mate. */
    return rule50_count(pos) >= 100 && (!in_check(pos) || count_legal_moves(pos) > 0);
}

/* The static evaluation: the net when the search has one, else the hand-written one.
 * With a bare king on the board the hand-written rules decide even with a net: they know
 * those endgames exactly (mating patterns, the KPK bitbase, dead draws). */
static inline int static_eval(SearchThread *t, const Position *pos)
{
    if (!t->shared->net || !more_than_one(pieces_c(pos, WHITE))
        || !more_than_one(pieces_c(pos, BLACK)))
        return evaluate(pos, t->pawns);
    int v = nnue_evaluate(t->shared->net, t->nnue, pos);
    return t->shared->net_scale == 100 ? v : v * t->shared->net_scale / 100;
}

/* The static evaluation corrected by what earlier searches found (correction.h), kept
 * clear of mate and tablebase scores. */
static inline int corrected_eval(const SearchThread *t, const Position *pos, int raw)
{
    int v = raw + correction_value(t->hist, pos);
    return v >= VALUE_TB_WIN_IN_MAX_PLY ? VALUE_TB_WIN_IN_MAX_PLY - 1
         : v <= -VALUE_TB_WIN_IN_MAX_PLY ? -VALUE_TB_WIN_IN_MAX_PLY + 1 : v;
}

/* Contempt: a draw is worth -contempt to the side to move at the root. */
static inline int draw_score(const SearchThread *t)
{
    return t->pos.side == t->root_side ? -t->shared->contempt : t->shared->contempt;
}

static inline void update_pv(SearchThread *t, int ply, Move m)
{
    t->pv[ply][ply] = m;
    int len = t->pv_length[ply + 1];
    for (int i = ply + 1; i < len; i++)
        t->pv[ply][i] = t->pv[ply + 1][i];
    t->pv_length[ply] = len > ply + 1 ? len : ply + 1;
}

static inline void do_move(SearchThread *t, SearchStack *ss, Move m)
{
    Piece pc = moved_piece(&t->pos, m);
    ss->move = m;
    ss->piece = pc;
    ss->cont = t->hist->continuation[pc][move_to(m)];
    /* Before the move, so that the entry's memory arrives while make_move works. */
    tt_prefetch(t->shared->tt, key_after(&t->pos, m));
    make_move(&t->pos, m);
    thread_add_node(t);
}

/* The hash entry of the thread's position; learned entries (learning file) are counted
 * for the search's "learned positions hit" line. */
static inline bool probe_hash(SearchThread *t, int ply, TTData *tte)
{
    bool hit = tt_probe_position(t->shared->tt, &t->pos, ply, tte);
    if (hit && tte->learned)
        thread_add_learned_hit(t);
    return hit;
}

static inline bool tt_cutoff_allowed(const TTData *tte, int beta)
{
    return tte->bound == BOUND_EXACT
        || (tte->bound == BOUND_LOWER && tte->score >= beta)
        || (tte->bound == BOUND_UPPER && tte->score < beta);
}

#endif
