/* Quiescence search: stand pat, then captures and queen promotions (quiet checks too at
 * the first ply), with delta pruning and SEE pruning; every evasion when in check. */
#include "search/qsearch.h"

#include "board/checkinfo.h"
#include "search/movepicker.h"
#include "search/node.h"
#include "search/params.h"
#include "search/see.h"
#include "search/stopping.h"

int qsearch(SearchThread *t, int alpha, int beta, int ply, int qdepth)
{
    Position *pos = &t->pos;
    const bool pv_node = beta - alpha > 1;
    SearchStack *ss = &t->stack[ply + STACK_OFFSET];
    t->pv_length[ply] = ply;

    if (search_should_stop(t))
        return 0;
    if (ply > t->seldepth)
        t->seldepth = ply;
    if (search_is_draw(pos, ply))
        return draw_score(t);
    bool checked = in_check(pos);
    if (ply >= MAX_PLY - 1 || pos->st_index >= MAX_STATES - 2)
        return checked ? draw_score(t) : static_eval(t, pos);

    /* Entries from the first quiescence ply (which searches checks) are worth more. */
    int tt_depth = checked || qdepth == 0 ? 0 : -1;
    TTData tte;
    bool hit = probe_hash(t, ply, &tte);
    if (hit && (!pv_node || tt_cuts_at_pv(&tte)) && tte.depth >= tt_depth
        && tt_cutoff_allowed(&tte, beta))
        return tte.score;

    int best, futility_base = -VALUE_INFINITE, raw_eval = VALUE_NONE;
    if (checked) {
        ss->static_eval = VALUE_NONE;
        best = -VALUE_INFINITE;
    } else {
        raw_eval = hit && tte.eval != VALUE_NONE ? tte.eval : static_eval(t, pos);
        best = ss->static_eval = corrected_eval(t, pos, raw_eval);
        /* The hash score refines stand pat, but not at PV nodes: there it would hide
         * the move that produced it and cut the PV short. */
        if (hit && !pv_node && (tte.bound & (tte.score > best ? BOUND_LOWER : BOUND_UPPER)))
            best = tte.score;
        if (best >= beta) {
            if (!hit)
                tt_store(t->shared->tt, pos_key(pos), ply, MOVE_NONE, best, raw_eval,
                         tt_depth, BOUND_LOWER);
            return best;
        }
        if (best > alpha)
            alpha = best;
        futility_base = ss->static_eval + QSEARCH_FUTILITY_MARGIN;
    }

    CheckInfo ci;
    checkinfo_init(&ci, pos);
    MovePicker mp;
    movepicker_init_qsearch(&mp, pos, t->hist, hit ? tte.move : MOVE_NONE,
                            qdepth == 0 && !checked ? &ci : NULL);
    Move best_move = MOVE_NONE, m;
    int old_alpha = alpha;
    while ((m = movepicker_next(&mp, false)) != MOVE_NONE) {
        bool gives_check = checkinfo_gives_check(&ci, pos, m);
        if (!checked && best > -VALUE_TB_WIN_IN_MAX_PLY) {
            /* Delta pruning: even winning the victim cannot reach alpha. */
            if (!gives_check && !move_is_promotion(m)) {
                int optimistic = futility_base + see_gain(pos, m);
                if (optimistic <= alpha) {
                    best = max_int(best, optimistic);
                    continue;
                }
                if (futility_base <= alpha && !see_ge(pos, m, 1)) {
                    best = max_int(best, futility_base);
                    continue;
                }
            }
            if (!see_ge(pos, m, 0))
                continue;
        }
        do_move(t, ss, m);
        int v = -qsearch(t, -beta, -alpha, ply + 1, qdepth - 1);
        unmake_move(pos, m);
        if (search_aborted(t))
            return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                if (pv_node)
                    update_pv(t, ply, m);
                if (v >= beta)
                    break;
                alpha = v;
            }
        }
    }
    if (checked && best == -VALUE_INFINITE)
        return -VALUE_MATE + ply; /* every evasion was tried: mate */

    Bound bound = best >= beta                ? BOUND_LOWER
                : pv_node && best > old_alpha ? BOUND_EXACT
                                              : BOUND_UPPER;
    tt_store(t->shared->tt, pos_key(pos), ply, best_move, best, raw_eval, tt_depth, bound);
    return best;
}
