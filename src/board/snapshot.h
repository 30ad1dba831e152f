/* Position snapshots: a position reduced to its boards and its current state, with no
 * undo history. Used where many positions must be kept cheaply (PGN variation stacks,
 * codec benchmarks) and to keep long replays inside the fixed states[] array. */
#ifndef SAAVEDRA_SNAPSHOT_H
#define SAAVEDRA_SNAPSHOT_H

#include <stddef.h>

#include "board/position.h"

/* Bytes needed by a snapshot: a Position cut after states[0] (states[] is its last
 * member), rounded up so that arrays of snapshots stay aligned. */
#define SNAPSHOT_BYTES ((offsetof(Position, states) + sizeof(StateInfo) + 15) & ~(size_t)15)

/* Copies the boards and the current state of src into dst, as a position with an empty
 * history (dst->st_index == 0). dst may be a full Position or heap memory of
 * SNAPSHOT_BYTES: such a truncated position may be passed to read-only functions (move
 * generation, legality tests, the move codec) but never to make_move. src and dst may be
 * the same position. */
void position_copy_current(Position *dst, const Position *src);

/* Drops the undo history of pos once it nears the end of states[] (keeps the current
 * state only), so that arbitrarily long move sequences can be replayed. Repetition
 * detection across the drop is lost. */
void position_trim_history(Position *pos);

/* Allocates count snapshots in one block (free() it); NULL when out of memory. */
Position *snapshot_array_alloc(size_t count);
static inline Position *snapshot_at(Position *array, size_t index)
{
    return (Position *)((unsigned char *)array + index * SNAPSHOT_BYTES);
}

#endif
