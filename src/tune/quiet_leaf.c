/* Quiescence search to a quiet leaf, with its own principal variation: fail-hard on the
 * window only at the root's bounds, captures ordered by victim then attacker (MVV-LVA),
 * losing captures (static exchange) skipped outside check. */
#include "tune/quiet_leaf.h"

#include "board/movegen.h"
#include "eval/evaluate.h"
#include "search/see.h"

#define QLEAF_MAX_PLY 32

static int move_order_key(const Position *pos, Move m)
{
    int victim = move_is_ep(m) ? PAWN : type_of(piece_on(pos, move_to(m)));
    if (!move_is_capture(m))
        victim = 0;
    int promo = move_is_promotion(m) ? move_promo_type(m) : 0;
    return 64 * (victim + promo) - type_of(moved_piece(pos, m));
}

static int search(QLeafSearch *qs, Position *pos, int alpha, int beta, int ply, Move *pv,
                  int *pv_length)
{
    Move child_pv[QLEAF_MAX_PLY + 1];
    int child_length = 0;
    bool check = in_check(pos);
    int best;

    qs->nodes++;
    *pv_length = 0;
    if (check) {
        best = -QLEAF_MATE + ply;
    } else {
        best = evaluate(pos, qs->pawns);
        if (best >= beta || ply >= QLEAF_MAX_PLY)
            return best;
        if (best > alpha)
            alpha = best;
    }
    if (ply >= QLEAF_MAX_PLY) /* in check this deep: stop with the static score */
        return evaluate(pos, qs->pawns);

    Move moves[MAX_MOVES];
    int keys[MAX_MOVES];
    int n = (int)(generate_moves(pos, moves, check ? GEN_ALL : GEN_CAPTURES) - moves);
    for (int i = 0; i < n; i++)
        keys[i] = move_order_key(pos, moves[i]);
    for (int i = 0; i < n; i++) {
        int top = i; /* selection sort: lists are short */
        for (int j = i + 1; j < n; j++)
            if (keys[j] > keys[top])
                top = j;
        Move m = moves[top];
        moves[top] = moves[i];
        keys[top] = keys[i];
        moves[i] = m;
        if (!check && !see_ge(pos, m, 0))
            continue;
        make_move(pos, m);
        int score = -search(qs, pos, -beta, -alpha, ply + 1, child_pv, &child_length);
        unmake_move(pos, m);
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                pv[0] = m;
                for (int j = 0; j < child_length; j++)
                    pv[j + 1] = child_pv[j];
                *pv_length = child_length + 1;
                if (score >= beta)
                    break;
            }
        }
    }
    return best;
}

int qleaf_search(QLeafSearch *qs, Position *pos, Move *pv, int *pv_length)
{
    return search(qs, pos, -QLEAF_MATE - 1, QLEAF_MATE + 1, 0, pv, pv_length);
}

bool qleaf_advance(QLeafSearch *qs, Position *pos)
{
    Move pv[QLEAF_MAX_PLY + 1];
    int length = 0;
    int score = qleaf_search(qs, pos, pv, &length);
    if (score > QLEAF_MATE - 256 || score < -QLEAF_MATE + 256)
        return false;
    for (int i = 0; i < length; i++)
        make_move(pos, pv[i]);
    return true;
}
