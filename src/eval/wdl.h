/* Win/draw/loss expectation of a search score (UCI_ShowWDL): a model fitted to master
 * games by tools/programs/wdlfit (fit, data and accuracy in docs/search.md). */
#ifndef SAAVEDRA_WDL_H
#define SAAVEDRA_WDL_H

#include "board/position.h"

typedef struct {
    int win, draw, loss; /* per mille, summing to 1000, for the side to move */
} Wdl;

/* The model's constants A0, A1, B0, B1 (a = A0 + A1 t, b = B0 + B1 t with t = material / 58),
 * for wdlfit to score the shipped model beside a new fit. */
extern const double WDL_MODEL[4];

/* Material on the board for the model: pawns 1, minors 3, rooks 5, queens 9 (both sides). */
int wdl_material(const Position *pos);
/* Expectation of a score in centipawns (side to move's view) with that much material. */
Wdl wdl_from_cp(int cp, int material);
/* A mate for the side to move (moves > 0) or against it. */
Wdl wdl_from_mate(int moves);

#endif
