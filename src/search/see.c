/* Static exchange evaluation by the swap algorithm, answering only "at least threshold?"
 * so that most calls stop after one or two steps. X-ray attackers behind each capturer
 * join in as the occupancy shrinks. Pins are ignored (a cheap approximation). */
#include "search/see.h"

const int SEE_VALUE[PIECE_TYPE_NB] = { 100, 320, 330, 500, 950, 0 };

int see_gain(const Position *pos, Move m)
{
    int gain = 0;
    if (move_is_ep(m))
        gain = SEE_VALUE[PAWN];
    else if (move_is_capture(m))
        gain = SEE_VALUE[type_of(piece_on(pos, move_to(m)))];
    if (move_is_promotion(m))
        gain += SEE_VALUE[move_promo_type(m)] - SEE_VALUE[PAWN];
    return gain;
}

bool see_ge(const Position *pos, Move m, int threshold)
{
    if (move_is_castle(m))
        return 0 >= threshold;

    Square from = move_from(m), to = move_to(m);
    int swap = see_gain(pos, m) - threshold;
    if (swap < 0)
        return false;
    PieceType next = move_is_promotion(m) ? move_promo_type(m) : type_of(piece_on(pos, from));
    swap = SEE_VALUE[next] - swap;
    if (swap <= 0)
        return true; /* even losing the moved piece keeps us above the threshold */

    Bitboard occupied = pieces(pos) ^ square_bb(from) ^ square_bb(to);
    if (move_is_ep(m))
        occupied ^= square_bb(to - pawn_push(pos->side));
    Bitboard attackers = attackers_to(pos, to, occupied) & occupied;
    Bitboard diagonal = pos->by_type[BISHOP] | pos->by_type[QUEEN];
    Bitboard straight = pos->by_type[ROOK] | pos->by_type[QUEEN];
    Color stm = pos->side;
    bool result = true; /* true while the side that made the last capture is ahead */

    for (;;) {
        stm = !stm;
        attackers &= occupied;
        Bitboard mine = attackers & pos->by_color[stm];
        if (!mine)
            break;
        PieceType pt;
        for (pt = PAWN; pt < KING; pt++)
            if (mine & pos->by_type[pt])
                break;
        if (pt == KING) /* the king may recapture only if nothing defends the square */
            return (attackers & pos->by_color[!stm]) ? result : !result;
        result = !result;
        /* After this capture `swap` is what the capturer risks; stop when he is safe. */
        swap = SEE_VALUE[pt] - swap;
        if (swap < (int)result)
            break;
        occupied ^= square_bb(lsb(mine & pos->by_type[pt]));
        if (pt == PAWN || pt == BISHOP || pt == QUEEN)
            attackers |= bishop_attacks(to, occupied) & diagonal;
        if (pt == ROOK || pt == QUEEN)
            attackers |= rook_attacks(to, occupied) & straight;
    }
    return result;
}
