/* Move-path enumeration: the move generator's correctness and speed test. */
#ifndef SAAVEDRA_PERFT_H
#define SAAVEDRA_PERFT_H

#include <stdio.h>

#include "board/position.h"

/* Leaf count at depth (moves at the last ply are counted, not made). */
uint64_t perft(Position *pos, int depth);
/* Prints "move: count" per root move, then time, nodes/second and, last,
 * "Nodes searched: N". Returns the total. */
uint64_t perft_divide(Position *pos, int depth, FILE *out);

#endif
