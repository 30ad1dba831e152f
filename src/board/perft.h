/* Move-path enumeration: the move generator's correctness and speed test. */
#ifndef SAAVEDRA_PERFT_H
#define SAAVEDRA_PERFT_H

#include <stdatomic.h>
#include "board/position.h"
#include "util/writer.h"

/* Leaf count at depth (moves at the last ply are counted, not made). */
uint64_t perft(Position *pos, int depth);
/* Prints "move: count" per root move, then time, nodes/second and, last,
 * "Nodes searched: N". Returns the total. */
uint64_t perft_divide(Position *pos, int depth, Writer *out);
/* perft_divide that ends early once *stop becomes true (set by another thread; checked at
 * every node three or more plies from the leaves, so within milliseconds): the root moves
 * finished so far are printed, then "perft stopped" instead of the totals. Lines stay
 * whole among other threads' output (util/writer.h). */
uint64_t perft_divide_until(Position *pos, int depth, Writer *out, const atomic_bool *stop);

#endif
