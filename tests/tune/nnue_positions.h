/* Positions for the net trainer's tests: the ends of random games, labelled with the
 * material balance, a known function a net can learn in a few epochs. */
#ifndef SAAVEDRA_TEST_NNUE_POSITIONS_H
#define SAAVEDRA_TEST_NNUE_POSITIONS_H

#include <stdint.h>

#include "nnue/train/nnue_data.h"

/* The material of colour c: pawn 100, knight and bishop 300, rook 500, queen 900. */
int nnue_test_material(const Position *pos, Color c);
/* Adds positions to set until it holds count: random games of 10-119 plies from the
 * start, scored with the balance (side to move) when it is within 15 pawns. */
void nnue_test_material_set(PosSet *set, int count, uint64_t seed);

#endif
