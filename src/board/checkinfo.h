/* Per-node check detection: the squares from which each piece type would check the enemy
 * king and the pieces whose move uncovers a check, computed once per node so that
 * testing each move is a couple of bit tests. Special moves (castling, en passant,
 * promotions) fall back to move_gives_check. */
#ifndef SAAVEDRA_CHECKINFO_H
#define SAAVEDRA_CHECKINFO_H

#include "board/movegen.h"
#include "board/position.h"

typedef struct {
    Bitboard check_squares[PIECE_TYPE_NB];
    Bitboard discoverers; /* our pieces between one of our sliders and their king */
    Square king;
} CheckInfo;

static inline void checkinfo_init(CheckInfo *ci, const Position *pos)
{
    Color us = pos->side, them = !us;
    Square ksq = king_square(pos, them);
    Bitboard occupied = pieces(pos);
    ci->king = ksq;
    ci->check_squares[PAWN] = PAWN_ATTACKS[them][ksq];
    ci->check_squares[KNIGHT] = KNIGHT_ATTACKS[ksq];
    ci->check_squares[BISHOP] = bishop_attacks(ksq, occupied);
    ci->check_squares[ROOK] = rook_attacks(ksq, occupied);
    ci->check_squares[QUEEN] = ci->check_squares[BISHOP] | ci->check_squares[ROOK];
    ci->check_squares[KING] = 0;
    ci->discoverers = 0;
    Bitboard snipers =
        (bishop_attacks(ksq, 0) & (pieces_cp(pos, us, BISHOP) | pieces_cp(pos, us, QUEEN)))
        | (rook_attacks(ksq, 0) & (pieces_cp(pos, us, ROOK) | pieces_cp(pos, us, QUEEN)));
    while (snipers) {
        Bitboard between = BETWEEN[ksq][pop_lsb(&snipers)] & occupied;
        if (between && !more_than_one(between) && (between & pos->by_color[us]))
            ci->discoverers |= between;
    }
}

static inline bool checkinfo_gives_check(const CheckInfo *ci, const Position *pos, Move m)
{
    int flags = move_flags(m);
    if (flags == FLAG_EP || flags == FLAG_CASTLE_KING || flags == FLAG_CASTLE_QUEEN
        || (flags & FLAG_PROMO))
        return move_gives_check(pos, m);
    Square from = move_from(m), to = move_to(m);
    if (ci->check_squares[type_of(piece_on(pos, from))] & square_bb(to))
        return true;
    return (ci->discoverers & square_bb(from)) && !aligned(from, to, ci->king);
}

#endif
