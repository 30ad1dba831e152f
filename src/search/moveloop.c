/* The move loop of a principal variation search node: search_moves, declared in
 * alphabeta.h because it and alphabeta call each other. Each move gets late move, history,
 * futility and SEE pruning, the singular extension (decided in alphabeta.c) or a check
 * extension, late move reductions (their table, alphabeta_init, is here) and the PVS
 * re-searches. The loop runs either alone or from a split point, where several threads
 * share it (split.c). */
#include "search/alphabeta.h"

#include <math.h>
#include <stdlib.h>

#include "board/checkinfo.h"
#include "search/movepicker.h"
#include "search/node.h"
#include "search/params.h"
#include "search/rootmoves.h"
#include "search/see.h"
#include "search/split.h"
#include "search/stopping.h"
#include "util/timeutil.h"

static int REDUCTIONS[MAX_PLY][MAX_MOVES];

void alphabeta_init(void)
{
    for (int d = 1; d < MAX_PLY; d++)
        for (int m = 1; m < MAX_MOVES; m++)
            REDUCTIONS[d][m] = (int)(LMR_BASE / 100.0 + log(d) * log(m) / (LMR_DIVISOR / 100.0));
}

/* The split point's lock around the shared move loop; nothing without a split point. */
static inline void sp_lock(SplitPoint *sp)
{
    if (sp)
        split_lock(sp);
}

static inline void sp_unlock(SplitPoint *sp)
{
    if (sp)
        split_unlock(sp);
}

static inline void set_skip_quiets(MoveLoop *ml, SplitPoint *sp)
{
    sp_lock(sp);
    ml->skip_quiets = true;
    sp_unlock(sp);
}

/* See alphabeta.h. At a split point, picking a move and recording its result happen under
 * the split point's lock, and the loop state is the split point's. */
void search_moves(SearchThread *t, MoveLoop *ml, SplitPoint *sp)
{
    Position *pos = &t->pos;
    SearchShared *sh = t->shared;
    const int depth = ml->depth, ply = ml->ply, beta = ml->beta;
    const bool pv_node = ml->pv_node, cut_node = ml->cut_node, root = ml->root;
    const bool checked = ml->checked, improving = ml->improving;
    SearchStack *ss = &t->stack[ply + STACK_OFFSET];
    SearchThread *owner = sp ? sp->owner : t; /* whose root moves these are */
    int64_t start_ms = root && t->id == 0 ? sh->tm.start_ms : 0; /* tm: thread 0 only */
    CheckInfo ci;
    checkinfo_init(&ci, pos);

    for (;;) {
        sp_lock(sp);
        if (sp) {
            /* The shared picker works on the calling thread's position and tables. */
            ml->mp.pos = pos;
            ml->mp.hist = t->hist;
            ml->mp.cont[0] = ss[-1].cont;
            ml->mp.cont[1] = ss[-2].cont;
        }
        Move m;
        do
            m = sp && atomic_load(&sp->cutoff) ? MOVE_NONE
                                               : movepicker_next(&ml->mp, ml->skip_quiets);
        while (m != MOVE_NONE && ((root && !root_move_allowed(owner, m)) || m == ss->excluded));
        if (m == MOVE_NONE) {
            sp_unlock(sp);
            return;
        }
        int move_count = ++ml->move_count;
        int alpha = ml->alpha, best = ml->best;
        bool bad_capture = movepicker_in_bad_captures(&ml->mp);
        sp_unlock(sp);

        if (root && t->id == 0 && sh->reporter && sh->reporter->on_currmove
            && time_now_ms() - start_ms > 1000)
            sh->reporter->on_currmove(sh->reporter->ctx, depth, m, move_count + t->pv_index);

        bool tactical = move_is_tactical(m);
        bool gives_check = checkinfo_gives_check(&ci, pos, m);
        Piece pc = moved_piece(pos, m);
        Square to = move_to(m);
        int hist_score = tactical
            ? t->hist->capture[pc][to][history_captured_type(pos, m)]
            : t->hist->butterfly[pos->side][move_from(m)][to]
              + ss[-1].cont[pc][to] + ss[-2].cont[pc][to];

        /* Shallow-depth pruning, once a move has saved us from being mated or a tablebase loss. */
        if (!root && best > -VALUE_TB_WIN_IN_MAX_PLY && has_non_pawn_material(pos, pos->side)) {
            int lmr_depth = max_int(
                depth - 1
                    - REDUCTIONS[min_int(depth, MAX_PLY - 1)][min_int(move_count, MAX_MOVES - 1)],
                0);
            if (!tactical && !gives_check) {
                /* Late move pruning: the remaining quiets rarely refute anything. */
                if (move_count >= (LMP_BASE + depth * depth) / (2 - improving)) {
                    set_skip_quiets(ml, sp);
                    continue;
                }
                /* History pruning: moves that failed everywhere recently. */
                if (lmr_depth < HISTORY_PRUNE_DEPTH
                    && hist_score < -HISTORY_PRUNE_PER_DEPTH * depth)
                    continue;
                /* Futility: a quiet move will not lift the static eval above alpha. Only
                 * this move: skipping the remaining quiets would skip the quiet checks
                 * this rule spares, mates in one among them (docs/smp.md). */
                if (!checked && lmr_depth < FUTILITY_DEPTH
                    && ss->static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth <= alpha)
                    continue;
                /* SEE: a quiet move that loses material. */
                if (lmr_depth < SEE_QUIET_DEPTH
                    && !see_ge(pos, m, -SEE_QUIET_PER_DEPTH2 * lmr_depth * lmr_depth))
                    continue;
            } else if (depth <= SEE_TACTICAL_DEPTH
                       && !see_ge(pos, m, -SEE_TACTICAL_PER_DEPTH * depth)) {
                continue; /* losing capture or checking sacrifice at low depth */
            }
        }

        /* The hash move's extension comes from the singular verification (alphabeta);
         * otherwise a check extension, bounded so that perpetual checks cannot explode the
         * tree. */
        int extension = m == ml->tt_move ? ml->tt_extension : 0;
        if (extension == 0 && gives_check && ply < 2 * t->root_depth
            && (depth > CHECK_EXTENSION_ANY_DEPTH || see_ge(pos, m, 0)))
            extension = 1;
        int new_depth = depth - 1 + extension;
        ss[1].double_extensions = ss->double_extensions + (extension > 1);

        /* A root move learned to lose: searched in a window moved up, its score moved down. */
        int lo = alpha, hi = beta;
        int shift = root ? root_move_window(owner, m, &lo, &hi) : 0;

        uint64_t nodes_before = thread_tree_nodes(t);
        do_move(t, ss, m);
        int v = 0;
        bool full_search;
        /* Late move reductions for moves after the first few. */
        if (depth >= LMR_DEPTH && move_count > 1 + (pv_node ? 1 : 0)
            && (!tactical || bad_capture || cut_node)) {
            int r = REDUCTIONS[min_int(depth, MAX_PLY - 1)][min_int(move_count, MAX_MOVES - 1)];
            r -= pv_node;
            r += cut_node;
            r += !improving;
            r -= gives_check;
            r -= hist_score / LMR_HISTORY_DIVISOR;
            if (tactical)
                r = r / 2;
            int d = max_int(1, min_int(new_depth, new_depth - r));
            v = -alphabeta(t, -lo - 1, -lo, d, ply + 1, true);
            full_search = v > lo && d < new_depth;
        } else
            full_search = !pv_node || move_count > 1;
        if (full_search)
            v = -alphabeta(t, -lo - 1, -lo, new_depth, ply + 1, !cut_node);
        if (pv_node && (move_count == 1 || (v > lo && (root || v < hi))))
            v = -alphabeta(t, -hi, -lo, new_depth, ply + 1, false);
        unmake_move(pos, m);
        if (shift && abs(v) < VALUE_TB_WIN_IN_MAX_PLY)
            v -= shift; /* mates and tablebase results stay what they are */

        if (search_aborted(t))
            return;

        sp_lock(sp);
        if (root)
            root_move_record(t, owner, m, v, alpha, beta, move_count, nodes_before);
        if (v > ml->best) {
            ml->best = v;
            if (v > ml->alpha) {
                ml->best_move = m;
                if (pv_node && !root) {
                    update_pv(t, ply, m);
                    if (sp)
                        split_record_pv(t, sp);
                }
                if (v >= beta) {
                    if (sp)
                        atomic_store(&sp->cutoff, true);
                    sp_unlock(sp);
                    return;
                }
                ml->alpha = v;
            }
        }
        if (m != ml->best_move) {
            if (!tactical && ml->quiet_count < 64)
                ml->quiets[ml->quiet_count++] = m;
            else if (tactical && ml->capture_count < 32)
                ml->captures[ml->capture_count++] = m;
        }
        sp_unlock(sp);
        if (!sp && ss->excluded == MOVE_NONE && (!cut_node || ml->move_count >= SPLIT_CUT_MOVES)
            && split_worthwhile(t, depth)
            && split_node(t, ml, search_moves))
            return; /* the split point has searched the remaining moves */
    }
}
