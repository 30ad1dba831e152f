/* Move-ordering statistics learnt during the search, one set per search thread:
 * butterfly history (side, from, to), continuation history (the previous move's piece and
 * destination against this move's), capture history, countermoves, and the static
 * evaluation's correction tables (correction.h). Killers live in the search stack because
 * they belong to a ply. */
#ifndef SAAVEDRA_HISTORY_H
#define SAAVEDRA_HISTORY_H

#include "board/position.h"

#define HISTORY_MAX 16384
#define CORRECTION_ENTRIES 16384

/* One continuation table: indexed by [piece][to] of the current move. */
typedef int16_t ContinuationTable[PIECE_NB][SQUARE_NB];

typedef struct {
    int16_t butterfly[COLOR_NB][SQUARE_NB][SQUARE_NB];
    int16_t capture[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];
    Move countermove[PIECE_NB][SQUARE_NB];
    /* [previous piece][previous to] -> table for the next move; the NO_PIECE row serves
     * plies without a previous move (root, after a null move). */
    ContinuationTable continuation[PIECE_NB][SQUARE_NB];
    /* Static evaluation corrections (correction.h), by side to move. */
    int16_t pawn_correction[COLOR_NB][CORRECTION_ENTRIES];
    int16_t material_correction[COLOR_NB][CORRECTION_ENTRIES];
} History;

History *history_new(void);
void history_free(History *h);
void history_clear(History *h);

/* Bonus for a move that caused a cut-off at this depth (penalties are its negative). */
int history_bonus(int depth);
/* Gravity update: the entry moves toward +-HISTORY_MAX by bonus, saturating smoothly. */
void history_update(int16_t *entry, int bonus);

/* Captured piece type of a capture (PAWN for en passant and plain promotions). */
static inline PieceType history_captured_type(const Position *pos, Move m)
{
    Piece p = piece_on(pos, move_to(m));
    return p == NO_PIECE ? PAWN : type_of(p);
}

#endif
