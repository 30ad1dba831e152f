/* Single-move legality test (see movelegal.h). The pseudo-legal part mirrors the rules
 * of movegen.c piece by piece; the legal part uses the pinned and checkers sets, with a
 * full occupancy test only for king moves, castling and en passant. */
#include "movelegal.h"

/* Whether `them` attacks s when the board is occupied by `occupied`. Sliders are tested
 * one by one by geometry and the squares between: there are few of them, and this keeps
 * the decoder away from the large magic tables, whose cache misses dominated. */
static inline bool attacked_by(const Position *pos, Color them, Square s, Bitboard occupied)
{
    if ((PAWN_ATTACKS[!them][s] & pieces_cp(pos, them, PAWN)) || (KNIGHT_ATTACKS[s] & pieces_cp(pos, them, KNIGHT))
        || (KING_ATTACKS[s] & pieces_cp(pos, them, KING)))
        return true;
    Bitboard queens = pieces_cp(pos, them, QUEEN);
    Bitboard diagonal = pieces_cp(pos, them, BISHOP) | queens, straight = pieces_cp(pos, them, ROOK) | queens;
    Bitboard sliders = (diagonal | straight) & ~square_bb(s); /* a piece on s is being captured */
    while (sliders) {
        Square a = pop_lsb(&sliders);
        int df = file_of(a) - file_of(s), dr = rank_of(a) - rank_of(s);
        Bitboard kind = df == dr || df == -dr ? diagonal : df == 0 || dr == 0 ? straight : 0;
        if ((kind & square_bb(a)) && !(BETWEEN[s][a] & occupied))
            return true;
    }
    return false;
}

static bool pawn_move_is_pseudo_legal(const Position *pos, Square from, Square to, int flags, Piece target)
{
    Color us = pos->side;
    int up = pawn_push(us);
    bool promotes = relative_rank(us, to) == 7;
    bool attacks = (PAWN_ATTACKS[us][from] & square_bb(to)) != 0;

    if (flags & FLAG_PROMO) {
        if (!promotes)
            return false;
        return (flags & FLAG_CAPTURE) ? target != NO_PIECE && attacks : target == NO_PIECE && to == from + up;
    }
    if (promotes)
        return false; /* a pawn reaching the last rank must promote */
    switch (flags) {
    case FLAG_QUIET:
        return target == NO_PIECE && to == from + up;
    case FLAG_DOUBLE_PUSH:
        return relative_rank(us, from) == 1 && to == from + 2 * up && target == NO_PIECE
            && pos->board[from + up] == NO_PIECE;
    case FLAG_CAPTURE:
        return target != NO_PIECE && attacks;
    case FLAG_EP:
        return to == ep_square(pos) && attacks;
    default:
        return false;
    }
}

static bool castling_is_pseudo_legal(const Position *pos, Square from, Square to, int flags)
{
    Color us = pos->side;
    bool king_side = flags == FLAG_CASTLE_KING;
    if (from != relative_square(us, E1) || to != (king_side ? from + 2 : from - 2))
        return false;
    int right = us == WHITE ? (king_side ? WHITE_OO : WHITE_OOO) : (king_side ? BLACK_OO : BLACK_OOO);
    Square rook_sq = king_side ? from + 3 : from - 4;
    return (castling_rights(pos) & right) && pos->board[rook_sq] == make_piece(us, ROOK)
        && !(BETWEEN[from][rook_sq] & pieces(pos));
}

bool move_is_pseudo_legal(const Position *pos, Move m)
{
    Color us = pos->side;
    Square from = move_from(m), to = move_to(m);
    int flags = move_flags(m);
    Piece pc = pos->board[from];
    if (pc == NO_PIECE || color_of(pc) != us || from == to)
        return false;
    PieceType pt = type_of(pc);
    if (flags == FLAG_CASTLE_KING || flags == FLAG_CASTLE_QUEEN)
        return pt == KING && castling_is_pseudo_legal(pos, from, to, flags);
    Piece target = pos->board[to];
    if (target != NO_PIECE && (color_of(target) == us || type_of(target) == KING))
        return false;
    if (pt == PAWN)
        return pawn_move_is_pseudo_legal(pos, from, to, flags, target);
    if (flags != (target != NO_PIECE ? FLAG_CAPTURE : FLAG_QUIET))
        return false;
    /* Sliders by geometry and the squares between, which avoids the large magic tables
     * (this test runs for every decoded byte). */
    int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
    bool diagonal = df == dr || df == -dr, straight = df == 0 || dr == 0;
    switch (pt) {
    case KNIGHT: return (KNIGHT_ATTACKS[from] & square_bb(to)) != 0;
    case KING: return (KING_ATTACKS[from] & square_bb(to)) != 0;
    case BISHOP: return diagonal && !(BETWEEN[from][to] & pieces(pos));
    case ROOK: return straight && !(BETWEEN[from][to] & pieces(pos));
    default: return (diagonal || straight) && !(BETWEEN[from][to] & pieces(pos));
    }
}

bool pseudo_legal_move_is_legal(const Position *pos, Move m)
{
    Color us = pos->side, them = !us;
    Square from = move_from(m), to = move_to(m);
    int flags = move_flags(m);
    const StateInfo *st = pos_state(pos);
    Square ksq = king_square(pos, us);
    Bitboard occupied = pieces(pos);

    if (flags == FLAG_CASTLE_KING || flags == FLAG_CASTLE_QUEEN) {
        Square step = to > from ? from + 1 : from - 1;
        return !st->checkers && !attacked_by(pos, them, step, occupied) && !attacked_by(pos, them, to, occupied);
    }
    if (from == ksq)
        return !attacked_by(pos, them, to, occupied ^ square_bb(from));
    if (more_than_one(st->checkers))
        return false;
    if (flags == FLAG_EP) {
        /* Two pawns leave the board (possibly the checker, possibly a rank pin): test the
         * resulting occupancy against every slider, and keep any other non-slider check. */
        Square cap_sq = to - pawn_push(us);
        Bitboard occ = (occupied ^ square_bb(from) ^ square_bb(cap_sq)) | square_bb(to);
        return !((bishop_attacks(ksq, occ) & (pieces_cp(pos, them, BISHOP) | pieces_cp(pos, them, QUEEN)))
              || (rook_attacks(ksq, occ) & (pieces_cp(pos, them, ROOK) | pieces_cp(pos, them, QUEEN)))
              || (st->checkers & ~square_bb(cap_sq) & (pos->by_type[KNIGHT] | pos->by_type[PAWN])));
    }
    if (st->checkers && !(square_bb(to) & (BETWEEN[ksq][lsb(st->checkers)] | st->checkers)))
        return false;
    return !(st->pinned & square_bb(from)) || (LINE[ksq][from] & square_bb(to));
}

bool move_is_legal_fast(const Position *pos, Move m)
{
    return move_is_pseudo_legal(pos, m) && pseudo_legal_move_is_legal(pos, m);
}
