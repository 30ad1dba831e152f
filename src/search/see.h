/* Static exchange evaluation: the material balance of the capture sequence on one square,
 * each side always recapturing with its least valuable piece and free to stop. */
#ifndef SAAVEDRA_SEE_H
#define SAAVEDRA_SEE_H

#include "board/position.h"

/* Piece values used by exchange evaluation and capture ordering (king 0: never captured). */
extern const int SEE_VALUE[PIECE_TYPE_NB];

/* Whether move m wins at least `threshold` centipawns of material in the exchange. */
bool see_ge(const Position *pos, Move m, int threshold);

/* Material the move captures (plus the promotion gain), before any recapture. */
int see_gain(const Position *pos, Move m);

#endif
