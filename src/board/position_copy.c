/* Position snapshots and cheap copies (see position_copy.h). */
#include "board/position_copy.h"

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

int position_copy_recent(Position *dst, const Position *src, int max_states)
{
    const StateInfo *st = pos_state(src);
    int keep = st->rule50 < st->plies_from_null ? st->rule50 : st->plies_from_null;
    if (keep > src->st_index)
        keep = src->st_index;
    if (keep > max_states - 1)
        keep = max_states - 1;
    memcpy(dst, src, offsetof(Position, states));
    memcpy(dst->states, &src->states[src->st_index - keep], (size_t)(keep + 1) * sizeof(StateInfo));
    dst->st_index = keep;
    return keep + 1;
}

void position_copy_used(Position *dst, const Position *src)
{
    memcpy(dst, src, POSITION_BYTES(src->st_index + 1));
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
