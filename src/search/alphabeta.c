/* Principal variation search: the node (its move loop is moveloop.c, the quiescence
 * search qsearch.c).
 *
 * Node order: draw and mate-distance checks, hash probe (cut-offs at non-PV nodes),
 * static evaluation, then at non-PV nodes razoring, reverse futility, null move (with a
 * verification search at high depth) and ProbCut; internal iterative reduction without a
 * hash move; the singular test of the hash move; then the move loop (search_moves); after
 * it the statistics of a cut-off, the hash entry and the correction history. The static
 * evaluation is corrected by the correction history first. */
#include "search/alphabeta.h"

#include <stdlib.h>

#include "board/movegen.h"
#include "board/movelegal.h"
#include "search/checks.h"
#include "search/correction.h"
#include "search/movepicker.h"
#include "search/node.h"
#include "search/params.h"
#include "search/qsearch.h"
#include "search/singular.h"
#include "search/stopping.h"

/* Rewards the move that refuted this node and punishes the ones tried before it. */
static void update_statistics(SearchThread *t, int ply, Move best, int depth, const Move *quiets,
                              int quiet_count, const Move *captures, int capture_count)
{
    History *h = t->hist;
    Position *pos = &t->pos;
    SearchStack *ss = &t->stack[ply + STACK_OFFSET];
    int bonus = history_bonus(depth);

    if (!move_is_tactical(best)) {
        if (ss->killers[0] != best) {
            ss->killers[1] = ss->killers[0];
            ss->killers[0] = best;
        }
        if (ss[-1].move != MOVE_NONE && ss[-1].move != MOVE_NULL)
            h->countermove[ss[-1].piece][move_to(ss[-1].move)] = best;
        for (int i = -1; i < quiet_count; i++) {
            Move m = i < 0 ? best : quiets[i];
            int b = i < 0 ? bonus : -bonus;
            Piece pc = moved_piece(pos, m);
            Square to = move_to(m);
            history_update(&h->butterfly[pos->side][move_from(m)][to], b);
            history_update(&ss[-1].cont[pc][to], b);
            history_update(&ss[-2].cont[pc][to], b);
        }
    } else {
        history_update(
            &h->capture[moved_piece(pos, best)][move_to(best)][history_captured_type(pos, best)],
            bonus);
    }
    for (int i = 0; i < capture_count; i++) {
        Move m = captures[i];
        history_update(&h->capture[moved_piece(pos, m)][move_to(m)][history_captured_type(pos, m)],
                       -bonus);
    }
}

int alphabeta(SearchThread *t, int alpha, int beta, int depth, int ply, bool cut_node)
{
    Position *pos = &t->pos;
    SearchShared *sh = t->shared;
    const bool pv_node = beta - alpha > 1;
    const bool root = ply == 0;
    SearchStack *ss = &t->stack[ply + STACK_OFFSET];
    /* A singular verification searches this node again without its hash move: its result
     * is not the node's, so it neither cuts on nor fills the table. */
    const Move excluded = ss->excluded;
#if SEARCH_CHECKS
    if (excluded != MOVE_NONE && !t->verifying[ply])
        t->stats.stale_exclusions++;
    if (!root) {
        int added = ss->double_extensions - ss[-1].double_extensions;
        if (added < 0 || added > 1 || (added && ss[-1].move == MOVE_NULL))
            t->stats.bad_double_extensions++;
    }
#endif
    /* The child's entry may hold another node's exclusion (split points copy stack
     * entries between threads, split.c) and a double-extension count of another line.
     * Set here, every child of this node (null move, ProbCut, the move loop) starts
     * without an exclusion and with this node's count; the move loop adds its own
     * double extension. */
    ss[1].excluded = MOVE_NONE;
    ss[1].double_extensions = ss->double_extensions;

    if (depth <= 0)
        return qsearch(t, alpha, beta, ply, 0);

    t->pv_length[ply] = ply;
    if (search_should_stop(t))
        return 0;
    if (ply > t->seldepth)
        t->seldepth = ply;

    bool checked = in_check(pos);
    if (!root) {
        if (search_is_draw(pos, ply))
            return draw_score(t);
        if (ply >= MAX_PLY - 1 || pos->st_index >= MAX_STATES - 2)
            return checked ? draw_score(t) : static_eval(t, pos);
        /* Mate distance pruning: no line from here beats a mate already found nearer. */
        alpha = max_int(alpha, -VALUE_MATE + ply);
        beta = min_int(beta, VALUE_MATE - ply - 1);
        if (alpha >= beta)
            return alpha;
    }

    Key key = pos_key(pos);
    TTData tte = { MOVE_NONE, VALUE_NONE, VALUE_NONE, -TT_DEPTH_OFFSET, BOUND_NONE, false };
    bool hit = probe_hash(t, ply, &tte);
    Move tt_move = root ? t->root_moves[t->pv_index].move : hit ? tte.move : MOVE_NONE;
    /* A learned position's result (learning file) is trusted at PV nodes too: that is
     * what lets a search see a known danger or chance before its depth reaches it. */
    if ((!pv_node || (tt_cuts_at_pv(&tte) && !root)) && hit && !excluded && tte.depth >= depth
        && tt_cutoff_allowed(&tte, beta) && rule50_count(pos) < 90)
        return tte.score;

    /* Endgame tablebases: a draw is exact, a win a lower and a loss an upper bound; a
     * bound that does not cut narrows the window of a PV node instead. */
    int tb_floor = -VALUE_INFINITE, tb_ceiling = VALUE_INFINITE;
    if (!root && !excluded && sh->tb.pieces) {
        int v;
        Bound b;
        if (syzygy_probe_search(&sh->tb, pos, depth, ply, draw_score(t), &v, &b)) {
            thread_add_tbhits(t, 1);
            if (b == BOUND_EXACT || (b == BOUND_LOWER ? v >= beta : v <= alpha)) {
                tt_store(sh->tt, key, ply, MOVE_NONE, v, VALUE_NONE,
                         min_int(depth + 6, MAX_PLY - 1), b);
                return v;
            }
            if (pv_node && b == BOUND_LOWER) {
                tb_floor = v;
                alpha = max_int(alpha, v);
            } else if (pv_node)
                tb_ceiling = v;
        }
    }

    ss[1].killers[0] = ss[1].killers[1] = MOVE_NONE;

    int eval, raw_eval = VALUE_NONE;
    bool improving = false;
    if (checked) {
        ss->static_eval = eval = VALUE_NONE;
        goto moves_loop;
    }
    raw_eval = hit && tte.eval != VALUE_NONE ? tte.eval : static_eval(t, pos);
    ss->static_eval = eval = corrected_eval(t, pos, raw_eval);
    if (hit && tte.score != VALUE_NONE
        && (tte.bound & (tte.score > eval ? BOUND_LOWER : BOUND_UPPER)))
        eval = tte.score; /* the hash score is a better estimate */
    if (ss[-2].static_eval != VALUE_NONE)
        improving = ss->static_eval > ss[-2].static_eval;
    else if (ss[-4].static_eval != VALUE_NONE)
        improving = ss->static_eval > ss[-4].static_eval;
    else
        improving = true;

    if (!pv_node) {
        /* Razoring: hopeless even with a few plies to go; let the quiescence search decide. */
        if (depth <= RAZOR_DEPTH && eval + RAZOR_BASE + RAZOR_PER_DEPTH2 * depth * depth < alpha) {
            int v = qsearch(t, alpha - 1, alpha, ply, 0);
            if (v < alpha)
                return v;
        }
        /* Reverse futility (static null move): far enough above beta to stand pat. */
        if (depth <= RFP_DEPTH && eval - RFP_PER_DEPTH * (depth - improving) >= beta
            && eval < VALUE_TB_WIN_IN_MAX_PLY)
            return (eval + beta) / 2;

        /* Null move: give the opponent a free move; if we still fail high, cut. */
        if (cut_node && !excluded && eval >= beta
            && ss->static_eval >= beta - NMP_EVAL_PER_DEPTH * depth + NMP_EVAL_BASE
            && ss[-1].move != MOVE_NULL && ply >= t->nmp_min_ply
            && has_non_pawn_material(pos, pos->side) && beta > -VALUE_TB_WIN_IN_MAX_PLY) {
            int r = NMP_REDUCTION_BASE + depth / NMP_REDUCTION_DEPTH_DIVISOR
                  + min_int((eval - beta) / NMP_REDUCTION_EVAL_DIVISOR, NMP_REDUCTION_EVAL_MAX);
            ss->move = MOVE_NULL;
            ss->piece = NO_PIECE;
            ss->cont = t->hist->continuation[NO_PIECE][0];
            tt_prefetch(sh->tt, key_after_null(pos));
            make_null_move(pos);
            thread_add_node(t);
            int v = -alphabeta(t, -beta, -beta + 1, depth - r, ply + 1, false);
            unmake_null_move(pos);
            if (search_aborted(t))
                return 0;
            if (v >= beta) {
                if (v >= VALUE_TB_WIN_IN_MAX_PLY)
                    v = beta; /* a null move proves no mate and no tablebase win */
                if (t->nmp_min_ply || depth < NMP_VERIFY_DEPTH)
                    return v;
                /* Verification at high depth (zugzwang): the same reduced search with
                 * null moves disabled for the next plies. */
                t->nmp_min_ply = ply + 3 * (depth - r) / 4;
                int w = alphabeta(t, beta - 1, beta, depth - r, ply, false);
                t->nmp_min_ply = 0;
                if (w >= beta)
                    return v;
            }
        }

        /* ProbCut: a capture that beats beta by a margin at reduced depth very likely
         * beats beta at full depth. */
        int probcut_beta = beta + PROBCUT_MARGIN - PROBCUT_IMPROVING * improving;
        if (depth >= PROBCUT_DEPTH && !excluded && beta < VALUE_TB_WIN_IN_MAX_PLY
            && beta > -VALUE_TB_WIN_IN_MAX_PLY
            && !(hit && tte.depth >= depth - 3 && tte.score != VALUE_NONE
                 && tte.score < probcut_beta)) {
            MovePicker mp;
            movepicker_init_probcut(&mp, pos, t->hist, tt_move, probcut_beta - ss->static_eval);
            Move m;
            while ((m = movepicker_next(&mp, false)) != MOVE_NONE) {
                do_move(t, ss, m);
                int v = -qsearch(t, -probcut_beta, -probcut_beta + 1, ply + 1, 0);
                if (v >= probcut_beta)
                    v = -alphabeta(t, -probcut_beta, -probcut_beta + 1, depth - 4, ply + 1,
                                   !cut_node);
                unmake_move(pos, m);
                if (search_aborted(t))
                    return 0;
                if (v >= probcut_beta) {
                    tt_store(sh->tt, key, ply, m, v, raw_eval, depth - 3, BOUND_LOWER);
                    return v;
                }
            }
        }
    }

    /* Internal iterative reduction: without a hash move this node was never searched
     * deeply; a shallower search is cheaper and fills the table for the next iteration. */
    if (!root && tt_move == MOVE_NONE && depth >= IIR_DEPTH && (pv_node || cut_node))
        depth--;

moves_loop:;
    /* Singular extensions (singular.h): the hash move, tested against the others. */
    int tt_extension = 0;
    if (!root && !excluded && depth >= SINGULAR_DEPTH && tt_move != MOVE_NONE && hit && !tte.learned
        && tte.depth >= depth - 3 && (tte.bound & BOUND_LOWER)
        && abs(tte.score) < VALUE_TB_WIN_IN_MAX_PLY && ply < 2 * t->root_depth
        && move_is_legal_fast(pos, tt_move)) {
        int singular_beta = tte.score - SINGULAR_MARGIN * depth, node_eval = ss->static_eval;
        ss->excluded = tt_move;
#if SEARCH_CHECKS
        t->verifying[ply] = true;
#endif
        int v = alphabeta(t, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
#if SEARCH_CHECKS
        t->verifying[ply] = false;
#endif
        ss->excluded = MOVE_NONE;
        ss->static_eval = node_eval;
        if (search_aborted(t))
            return 0;
        tt_extension =
            singular_verdict(v, singular_beta, beta, tte.score, pv_node, ss->double_extensions);
        if (tt_extension == SINGULAR_MULTI_CUT)
            return singular_beta;
    }

    Move counter = MOVE_NONE;
    if (ss[-1].move != MOVE_NONE && ss[-1].move != MOVE_NULL)
        counter = t->hist->countermove[ss[-1].piece][move_to(ss[-1].move)];
    int old_alpha = alpha;
    MoveLoop ml;
    ml.depth = depth;
    ml.ply = ply;
    ml.beta = beta;
    ml.pv_node = pv_node;
    ml.cut_node = cut_node;
    ml.root = root;
    ml.checked = checked;
    ml.improving = improving;
    ml.tt_move = tt_move;
    ml.tt_extension = tt_extension;
    ml.alpha = alpha;
    ml.best = tb_floor;
    ml.move_count = 0;
    ml.best_move = MOVE_NONE;
    ml.skip_quiets = false;
    ml.quiet_count = ml.capture_count = 0;
    movepicker_init(&ml.mp, pos, t->hist, tt_move, ss->killers, counter, ss[-1].cont, ss[-2].cont);

    search_moves(t, &ml, NULL);
    if (search_aborted(t))
        return 0;

    /* Without the excluded move there may be no move at all: the hash move is then
     * singular, which a fail low says. */
    if (ml.move_count == 0)
        return excluded ? alpha : checked ? -VALUE_MATE + ply : draw_score(t);

    int best = ml.best;
    if (best >= beta && ml.best_move != MOVE_NONE)
        update_statistics(t, ply, ml.best_move, depth, ml.quiets, ml.quiet_count, ml.captures,
                          ml.capture_count);

    best = min_int(best, tb_ceiling);
    Bound bound = best >= beta                ? BOUND_LOWER
                : pv_node && best > old_alpha ? BOUND_EXACT
                                              : BOUND_UPPER;
    if (!(root && t->pv_index > 0) && !excluded)
        tt_store(sh->tt, key, ply, ml.best_move, best, raw_eval, depth, bound);
    /* What the search found corrects the static evaluation of similar positions, when the
     * bound says on which side of it the truth lies and no capture explains the gap. */
    if (!checked && !excluded && abs(best) < VALUE_TB_WIN_IN_MAX_PLY
        && (ml.best_move == MOVE_NONE || !move_is_tactical(ml.best_move))
        && !(bound == BOUND_LOWER && best <= ss->static_eval)
        && !(bound == BOUND_UPPER && best >= ss->static_eval))
        correction_update(t->hist, pos, depth, best, ss->static_eval);
    return best;
}
