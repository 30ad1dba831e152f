/* The Polyglot key of a position: see polykey.h. */
#include "opening/polykey.h"

/* The square a pawn that just advanced two squares passed over, or NO_SQUARE. The
 * position keeps an en-passant square only when the capture is legal, while the key wants
 * it whenever a capturing pawn stands beside; the last move tells the difference. */
static Square double_push_square(const Position *pos)
{
    if (ep_square(pos) != NO_SQUARE)
        return ep_square(pos);
    Move last = pos_state(pos)->move;
    if (last == MOVE_NONE || last == MOVE_NULL || move_flags(last) != FLAG_DOUBLE_PUSH)
        return NO_SQUARE;
    return (move_from(last) + move_to(last)) / 2;
}

uint64_t polyglot_key(const Position *pos)
{
    uint64_t key = 0;
    Bitboard occ = pieces(pos);
    while (occ) {
        Square s = pop_lsb(&occ);
        Piece p = piece_on(pos, s);
        int kind = 2 * type_of(p) + (color_of(p) == WHITE);
        key ^= POLYGLOT_RANDOM64[64 * kind + s]; /* s = 8 * rank + file */
    }
    int cr = castling_rights(pos);
    if (cr & WHITE_OO)
        key ^= POLYGLOT_RANDOM64[768];
    if (cr & WHITE_OOO)
        key ^= POLYGLOT_RANDOM64[769];
    if (cr & BLACK_OO)
        key ^= POLYGLOT_RANDOM64[770];
    if (cr & BLACK_OOO)
        key ^= POLYGLOT_RANDOM64[771];
    Square ep = double_push_square(pos);
    if (ep != NO_SQUARE) {
        /* The pawn that advanced stands one step beyond ep, seen from the side to move. */
        Square pawn = ep - pawn_push(pos->side);
        Bitboard beside = 0;
        if (file_of(pawn) > 0)
            beside |= 1ULL << (pawn - 1);
        if (file_of(pawn) < 7)
            beside |= 1ULL << (pawn + 1);
        if (beside & pieces_cp(pos, pos->side, PAWN))
            key ^= POLYGLOT_RANDOM64[772 + file_of(ep)];
    }
    if (pos->side == WHITE)
        key ^= POLYGLOT_RANDOM64[780];
    return key;
}
