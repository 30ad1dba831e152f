/* Incremental piece numbering for the move codes (movecode.h) over long move
 * sequences. Pieces are numbered per side and kind in file-major square order; the
 * tracker keeps each kind's squares in that order, and after a move only the moved piece
 * is re-sorted, by swaps with its neighbours (a pawn push never reorders, a pawn capture
 * moves one file), while captures and promotions remove or insert one entry. */
#ifndef SAAVEDRA_MOVECODE_TRACKER_H
#define SAAVEDRA_MOVECODE_TRACKER_H

#include <stdint.h>

#include "board/position.h"

/* File-major order: a1 = 0, a2 = 1, ..., a8 = 7, b1 = 8, ..., h8 = 63. */
static inline int file_major_key(Square s) { return file_of(s) * 8 + rank_of(s); }

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

#endif
