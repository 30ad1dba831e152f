/* One-byte move codes (format described in docs/compressed-moves.md).
 *
 * A code is piece << 4 | vector. The piece code names one piece of the side to move,
 * numbered from the position alone; the vector code names one of its moves. When the
 * side to move has more pieces of a kind than the piece codes allow, the whole byte is
 * instead the index of the move among the legal moves sorted by UCI text (fallback).
 * The same move in the same position always gets the same byte, however the position
 * arose. The opening book and the learning file record MOVECODE_VERSION in their
 * headers. */
#ifndef SAAVEDRA_MOVECODE_H
#define SAAVEDRA_MOVECODE_H

#include <stdint.h>

#include "board/position.h"

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

/* Whole games: n moves played one after the other from start. The functions return the
 * number of moves converted: n on success, i < n when moves[i] is not legal (encode) or
 * codes[i] names no legal move (decode), the first i outputs being valid. They keep
 * piece numbers with a MoveCodeTracker, checked against from-scratch numbering in
 * debug builds. */
int movecode_encode_game(const Position *start, const Move *moves, int n, uint8_t *codes);
int movecode_decode_game(const Position *start, const uint8_t *codes, int n, Move *moves);

/* Incremental piece numbering for long move sequences. Each kind's squares are kept
 * in file-major order; after a move only the moved piece is re-sorted, by swaps with its
 * neighbours (a pawn push never reorders, a pawn capture moves one file), and captures
 * and promotions remove or insert one entry. */
#define MOVECODE_LIST_MAX 10 /* 2 originals + 8 promotions */
enum { MC_PAWNS, MC_KNIGHTS, MC_LIGHT_BISHOPS, MC_DARK_BISHOPS, MC_ROOKS, MC_QUEENS, MC_KIND_NB };

typedef struct {
    uint8_t count;
    uint8_t square[MOVECODE_LIST_MAX];
} MoveCodeList;

typedef struct {
    MoveCodeList list[COLOR_NB][MC_KIND_NB];
    uint8_t index[SQUARE_NB]; /* index of the piece on a square within its list */
} MoveCodeTracker;

/* Numbers the pieces of pos from scratch. */
void movecode_tracker_init(MoveCodeTracker *t, const Position *pos);
/* Updates t for legal move m, to be called before make_move(pos, m). */
void movecode_tracker_update(MoveCodeTracker *t, const Position *pos, Move m);
/* Whether t numbers the pieces of pos exactly as from-scratch numbering does. */
bool movecode_tracker_matches(const MoveCodeTracker *t, const Position *pos);
/* movecode_encode and movecode_decode with the tracker's numbering (t must be up to
 * date for pos; asserted in debug builds). Same results. */
int movecode_encode_tracked(const MoveCodeTracker *t, const Position *pos, Move m);
Move movecode_decode_tracked(const MoveCodeTracker *t, const Position *pos, int code);

#endif
