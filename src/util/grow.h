/* Growing arrays, for readers that collect records of a file of unknown length. */
#ifndef SAAVEDRA_GROW_H
#define SAAVEDRA_GROW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Makes room in *items (an array of item_size-byte items, room for *cap of them) for
 * need items; the room doubles, from 1024 items. False when out of memory or the size
 * would overflow: *items and *cap are then unchanged. */
static inline bool grow_array(void **items, size_t *cap, size_t need, size_t item_size)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 1024;
    while (c < need) {
        if (c > SIZE_MAX / 2 / item_size)
            return false;
        c *= 2;
    }
    void *p = realloc(*items, c * item_size);
    if (!p)
        return false;
    *items = p;
    *cap = c;
    return true;
}

#endif
