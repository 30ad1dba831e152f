/* Single-move legality test (see movelegal.h). The pseudo-legal part mirrors the rules
 * of movegen.c piece by piece; the legal part uses the pinned and checkers sets, with a
 * full occupancy test only for king moves, castling and en passant. */
#include "board/movelegal.h"

#define DIAGONAL_A1H8 0x8040201008040201ULL
#define DIAGONAL_A8H1 0x0102040810204080ULL

/* Squares strictly between a and b on a line of the given empty-board pattern (the
 * line's squares from a1 onwards: rank 0xFF.., file 0x0101.., diagonals), by arithmetic. */
static inline Bitboard between_on(Square a, Square b, Bitboard pattern)
{
    Square lo = a < b ? a : b, hi = a < b ? b : a;
    return (pattern << lo) & (square_bb(hi) - (square_bb(lo) << 1));
}

/* Whether one of `attackers` (all on one line through s, of that pattern) sees s. */
static inline bool line_hits(Bitboard attackers, Square s, Bitboard pattern, Bitboard occupied)
{
    while (attackers) {
        Square a = pop_lsb(&attackers);
        if (!(between_on(s, a, pattern) & occupied))
            return true;
    }
    return false;
}

/* Whether `them` attacks s when the board is occupied by `occupied`. Sliders are first
 * filtered by the four lines through s (usually none is left), then checked by the
 * squares between: this keeps the decoder away from the large magic and BETWEEN tables,
 * whose cache misses dominated its time. */
static inline bool attacked_by(const Position *pos, Color them, Square s, Bitboard occupied)
{
    if ((PAWN_ATTACKS[!them][s] & pieces_cp(pos, them, PAWN))
        || (KNIGHT_ATTACKS[s] & pieces_cp(pos, them, KNIGHT))
        || (KING_ATTACKS[s] & pieces_cp(pos, them, KING)))
        return true;
    Bitboard queens = pieces_cp(pos, them, QUEEN),
             others = ~square_bb(s); /* a piece on s is being captured */
    Bitboard diagonal = (pieces_cp(pos, them, BISHOP) | queens) & others;
    Bitboard straight = (pieces_cp(pos, them, ROOK) | queens) & others;
    int file = file_of(s), rank = rank_of(s), d = file - rank, sum = file + rank;
    Bitboard rising = d >= 0 ? DIAGONAL_A1H8 >> (8 * d) : DIAGONAL_A1H8 << (-8 * d);
    Bitboard falling =
        sum >= 7 ? DIAGONAL_A8H1 << (8 * (sum - 7)) : DIAGONAL_A8H1 >> (8 * (7 - sum));
    Bitboard on_rank = rank_bb(rank), on_file = file_bb(file);
    if (!((diagonal & (rising | falling)) | (straight & (on_rank | on_file))))
        return false;
    return line_hits(diagonal & rising, s, DIAGONAL_A1H8, occupied)
        || line_hits(diagonal & falling, s, 0x0102040810204081ULL, occupied) /* steps of 7 */
        || line_hits(straight & on_rank, s, ~0ULL, occupied)
        || line_hits(straight & on_file, s, FILE_A_BB, occupied);
}

static bool pawn_move_is_pseudo_legal(const Position *pos, Square from, Square to, int flags,
                                      Piece target)
{
    Color us = pos->side;
    int up = pawn_push(us);
    bool promotes = relative_rank(us, to) == 7;
    bool attacks = (PAWN_ATTACKS[us][from] & square_bb(to)) != 0;

    if (flags & FLAG_PROMO) {
        if (!promotes)
            return false;
        return (flags & FLAG_CAPTURE) ? target != NO_PIECE && attacks
                                      : target == NO_PIECE && to == from + up;
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
    bool queen_side = flags == FLAG_CASTLE_QUEEN;
    int index = castle_index(us, queen_side);
    if (!(castling_rights(pos) & (1 << index)) || from != king_square(pos, us)
        || to != castle_king_to(us, queen_side))
        return false;
    return pos->board[pos->castle_rook[index]] == make_piece(us, ROOK)
        && !(pos->castle_empty[index] & pieces(pos));
}

bool move_is_pseudo_legal(const Position *pos, Move m)
{
    Color us = pos->side;
    Square from = move_from(m), to = move_to(m);
    int flags = move_flags(m);
    Piece pc = pos->board[from];
    if (pc == NO_PIECE || color_of(pc) != us)
        return false;
    PieceType pt = type_of(pc);
    /* (A Chess960 castling may leave the king where it stands.) */
    if (flags == FLAG_CASTLE_KING || flags == FLAG_CASTLE_QUEEN)
        return pt == KING && castling_is_pseudo_legal(pos, from, to, flags);
    if (from == to)
        return false;
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
        int index = castle_index(us, flags == FLAG_CASTLE_QUEEN);
        if (st->checkers)
            return false;
        for (Bitboard path = pos->castle_safe[index]; path;)
            if (attacked_by(pos, them, pop_lsb(&path), occupied))
                return false;
        /* Chess960: the castling rook may have screened the destination (movegen.c). */
        return !pos->chess960
            || !(rook_attacks(to, occupied ^ square_bb(pos->castle_rook[index]))
                 & (pieces_cp(pos, them, ROOK) | pieces_cp(pos, them, QUEEN)));
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
        return !((bishop_attacks(ksq, occ)
                  & (pieces_cp(pos, them, BISHOP) | pieces_cp(pos, them, QUEEN)))
              || (rook_attacks(ksq, occ)
                  & (pieces_cp(pos, them, ROOK) | pieces_cp(pos, them, QUEEN)))
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
