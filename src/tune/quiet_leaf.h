/* The tuner's shallow search: a quiescence search (captures and queen promotions, all
 * evasions when in check) whose principal variation ends in a quiet position; that
 * leaf's static evaluation stands for the position, as in Texel tuning. */
#ifndef SAAVEDRA_QUIET_LEAF_H
#define SAAVEDRA_QUIET_LEAF_H

#include <stdint.h>

#include "board/position.h"
#include "eval/pawns.h"

/* Scores at or beyond this (in absolute value) are mates found by the search. */
#define QLEAF_MATE 30000

typedef struct {
    PawnTable *pawns;      /* may be NULL */
    uint64_t nodes;
} QLeafSearch;

/* Searches pos (left unchanged) and stores its principal variation; returns the score
 * from the side to move's point of view (|score| > QLEAF_MATE - 256: mate). */
int qleaf_search(QLeafSearch *qs, Position *pos, Move *pv, int *pv_length);

/* Plays the principal variation on pos, so that pos becomes the quiet leaf; returns
 * false (pos unchanged) when the search found a mate, which has no quiet leaf. */
bool qleaf_advance(QLeafSearch *qs, Position *pos);

#endif
