/* Position snapshots (see snapshot.h). */
#include "board/snapshot.h"

#include <stdlib.h>
#include <string.h>

/* The truncation trick needs states[] to be the last member of Position. */
_Static_assert(offsetof(Position, states) + sizeof(StateInfo) * MAX_STATES == sizeof(Position),
               "Position.states must be the last member");

void position_copy_current(Position *dst, const Position *src)
{
    StateInfo current = src->states[src->st_index];
    if (dst != src)
        memcpy(dst, src, offsetof(Position, states));
    dst->states[0] = current;
    dst->st_index = 0;
}

void position_trim_history(Position *pos)
{
    if (pos->st_index >= MAX_STATES - 4)
        position_copy_current(pos, pos);
}

Position *snapshot_array_alloc(size_t count)
{
    if (count == 0 || count > ((size_t)-1) / SNAPSHOT_BYTES)
        return NULL;
    return malloc(count * SNAPSHOT_BYTES);
}
