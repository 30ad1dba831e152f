/* Correction history: what the searches found about the static evaluation's error,
 * learnt per pawn structure and per material balance, and added to the static evaluation
 * wherever the search prunes on it. A structure the evaluation misjudges (a blocked
 * centre the net rates too high, a material imbalance it underrates) is misjudged in
 * every position that shares it, so the error seen in one search of it corrects the
 * others. The tables are per search thread (History) and survive between searches of one
 * game. */
#ifndef SAAVEDRA_CORRECTION_H
#define SAAVEDRA_CORRECTION_H

#include "board/position.h"
#include "search/history.h"

/* The correction for the side to move, in centipawns, at most CORRECTION_BOUND either way. */
enum { CORRECTION_BOUND = 96 };
int correction_value(const History *h, const Position *pos);

/* A search of depth found best where the corrected static evaluation was eval (both from
 * the side to move's view, best not a mate score): every table moves toward the
 * difference, by more after deeper searches. */
void correction_update(History *h, const Position *pos, int depth, int best, int eval);

#endif
