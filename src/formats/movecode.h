/* One-byte move codes (format described in docs/compressed-moves.md).
 *
 * A code is piece << 4 | vector. The piece code names one piece of the side to move,
 * numbered from the position alone; the vector code names one of its moves. When the
 * side to move has more pieces of a kind than the piece codes allow, the whole byte is
 * instead the index of the move among the legal moves sorted by UCI text (fallback).
 * The same move in the same position always gets the same byte, however the position
 * arose. The opening book and the learning file record MOVECODE_VERSION in their
 * headers. Over long move sequences a MoveCodeTracker (movecode_tracker.h) keeps the
 * piece numbers incrementally; movecode_game.h converts whole games. */
#ifndef SAAVEDRA_MOVECODE_H
#define SAAVEDRA_MOVECODE_H

#include <stdint.h>

#include "board/position.h"
#include "formats/movecode_tracker.h"

/* Bump whenever any table below or in the docs changes meaning. */
#define MOVECODE_VERSION 1

#define MOVECODE_ERROR (-1)

/* Piece codes (high nibble). Knights share one code: vector bit 3 picks the knight.
 * Pawns, knights, rooks and two queens are numbered in file-major square order
 * (a1, a2, ..., a8, b1, ...). With two queens and at most six pawns the codes of pawns
 * 6 and 7 belong to the second queen. */
enum {
    MOVECODE_KING = 0,
    MOVECODE_QUEEN_DIAGONAL = 1,  /* the queen moving as a bishop */
    MOVECODE_QUEEN_STRAIGHT = 2,  /* the queen moving as a rook */
    MOVECODE_LIGHT_BISHOP = 3,
    MOVECODE_DARK_BISHOP = 4,
    MOVECODE_KNIGHTS = 5,
    MOVECODE_ROOK_0 = 6,
    MOVECODE_ROOK_1 = 7,
    MOVECODE_PAWN_0 = 8,          /* pawns 0..7: codes 8..15 */
    MOVECODE_QUEEN2_DIAGONAL = 14, /* = pawn 6, when the side has a second queen */
    MOVECODE_QUEEN2_STRAIGHT = 15  /* = pawn 7 */
};

/* Whether the side to move is in fallback mode: more than one light- or dark-squared
 * bishop, more than two knights or rooks, more than two queens, or two queens with
 * seven or more pawns. */
bool movecode_fallback(const Position *pos);

/* The code of legal move m in pos (0..255). m must be legal (from the generator, the
 * PGN reader, or checked with move_is_legal_fast): for any other value the result is
 * MOVECODE_ERROR or a byte that does not decode to m, never a crash. */
int movecode_encode(const Position *pos, Move m);
/* Same, but MOVECODE_ERROR for any m that is not a legal move (a few ns more). */
int movecode_encode_checked(const Position *pos, Move m);

/* The legal move that code names in pos, or MOVE_NONE when it names none. Never
 * returns a move that is not legal, whatever the byte. */
Move movecode_decode(const Position *pos, int code);

/* movecode_encode and movecode_decode with the tracker's numbering (t must be up to
 * date for pos; asserted in debug builds). Same results. */
int movecode_encode_tracked(const MoveCodeTracker *t, const Position *pos, Move m);
Move movecode_decode_tracked(const MoveCodeTracker *t, const Position *pos, int code);

#endif
