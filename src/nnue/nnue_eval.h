/* Evaluating positions with a net (network.h): the feature transformer's output kept per
 * search thread as accumulators, updated incrementally along the move path.
 *
 * The accumulators sit in a small ring indexed by the position's undo-stack index, each
 * tagged with the Zobrist key of the position it holds. An evaluation looks back along
 * the position's own states for the nearest accumulator whose key matches, and replays
 * the moves since (their pieces are in StateInfo), or refreshes from scratch when none
 * is near (with an HM net, a perspective whose king crossed the d/e line is refreshed,
 * the other updated). A key names a position, so an accumulator is valid wherever its
 * key matches, in whatever path or thread: no make/unmake hook, nothing to carry into
 * YBWC split points or Lazy helpers (each thread's first evaluation refreshes). */
#ifndef SAAVEDRA_NNUE_EVAL_H
#define SAAVEDRA_NNUE_EVAL_H

#include "board/position.h"
#include "nnue/network.h"
#include "util/writer.h"

#define NNUE_RING 64            /* accumulators per thread (a power of two) */
#define NNUE_MAX_REPLAY 8       /* moves replayed before a refresh is cheaper */

typedef struct {
    int16_t v[COLOR_NB][NNUE_HIDDEN];
    Key key;
    bool valid;
} Accumulator;

typedef struct {
    Accumulator ring[NNUE_RING];
    uint32_t net_id;            /* the net the ring was computed with */
    uint64_t refreshes, updates;
} NnueState;

/* Forgets every accumulator (a new net, a new thread). */
void nnue_state_reset(NnueState *s);

/* The net's evaluation of pos in centipawns, side to move's point of view, within
 * +-(NNUE_EVAL_LIMIT). */
#define NNUE_EVAL_LIMIT 15000
int nnue_evaluate(const Network *net, NnueState *s, const Position *pos);

/* From scratch, no state: the accumulators of pos (for tests and the eval command). */
void nnue_refresh(const Network *net, const Position *pos, int16_t out[COLOR_NB][NNUE_HIDDEN]);
/* The output for given accumulators with side to move stm and piece_count pieces. */
int nnue_output(const Network *net, const int16_t acc[COLOR_NB][NNUE_HIDDEN], Color stm,
                int piece_count);
/* One line for the eval command: the net's score of pos beside the hand-written one
 * (side to move, pawns) and the net's id, or why there is no net. */
void nnue_print(const Network *net, const Position *pos, Writer *out);
/* The accumulator nnue_evaluate used for pos's last evaluation (tests). */
const Accumulator *nnue_current(const NnueState *s, const Position *pos);

#endif
