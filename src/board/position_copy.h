/* Position snapshots: a position reduced to its boards and its current state, with no
 * undo history. Used where many positions must be kept cheaply (PGN variation stacks,
 * codec benchmarks) and to keep long replays inside the fixed states[] array. */
#ifndef SAAVEDRA_POSITION_COPY_H
#define SAAVEDRA_POSITION_COPY_H

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

/* Bytes of a position that keeps `states` undo entries (states[] cut after them). */
#define POSITION_BYTES(n) (offsetof(Position, states) + (size_t)(n) * sizeof(StateInfo))

/* Copies the boards of src and its last undo entries into dst: the current state and as
 * many before it as repetition detection can still reach (back to the last irreversible
 * move or null move), at most max_states entries in all. dst may be memory of
 * POSITION_BYTES(max_states) (read-only use, as above) or a full Position, which may then
 * be searched from (make_move, unmake_move of moves made on it). Returns the number of
 * entries copied. */
int position_copy_recent(Position *dst, const Position *src, int max_states);
/* Copies the used part of src (boards and states[0..st_index]) into dst, which must have
 * room for them: a cheap full copy of a position with a short history. */
void position_copy_used(Position *dst, const Position *src);

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
