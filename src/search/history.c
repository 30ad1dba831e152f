/* Move-ordering statistics: allocation and the shared update rule. */
#include "search/history.h"

#include <stdlib.h>
#include <string.h>

History *history_new(void)
{
    History *h = malloc(sizeof *h);
    if (h)
        history_clear(h);
    return h;
}

void history_free(History *h)
{
    free(h);
}

void history_clear(History *h)
{
    memset(h, 0, sizeof *h);
}

int history_bonus(int depth)
{
    int b = depth * depth * 16 + depth * 32 - 16;
    return b > 1600 ? 1600 : b;
}

void history_update(int16_t *entry, int bonus)
{
    /* Large entries move less, so values stay inside +-HISTORY_MAX without clamping. */
    int abs_bonus = bonus < 0 ? -bonus : bonus;
    int v = *entry + bonus - *entry * abs_bonus / HISTORY_MAX;
    *entry = (int16_t)v;
}
