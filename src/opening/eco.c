/* ECO recognizer: see eco.h. */
#include "opening/eco.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/notation.h"

/* Defined in the generated build/<ARCH>/opening/ecodata.c. Weak: makeeco itself is linked
 * without it (it makes it), and then has no built-in table. */
extern const EcoTable ECO_BUILTIN_TABLE __attribute__((weak));

static const char *const CHECK_LINE[] = {"e4", "c5", "Nf3", "d6", "d4",
                                         "cxd4", "Nxd4", "Nf6", "Nc3", "a6"};

Key eco_check_key(void)
{
    Position *pos = malloc(sizeof *pos); /* large: off the stack */
    char err[160];
    Key key = 0;
    if (pos && position_from_fen(pos, START_FEN, err, sizeof err, NULL)) {
        size_t i = 0;
        for (; i < sizeof CHECK_LINE / sizeof *CHECK_LINE; i++) {
            Move m = move_from_san(pos, CHECK_LINE[i]);
            if (m == MOVE_NONE)
                break;
            make_move(pos, m);
        }
        if (i == sizeof CHECK_LINE / sizeof *CHECK_LINE)
            key = pos_key(pos);
    }
    free(pos);
    return key;
}

const EcoTable *eco_builtin(char *why, size_t why_size)
{
    const EcoTable *t = &ECO_BUILTIN_TABLE;
    if (!t) {
        snprintf(why, why_size, "no ECO table compiled in");
        return NULL;
    }
    if (t->check_key != eco_check_key()) {
        snprintf(why, why_size,
                 "the ECO table was made with other Zobrist keys (rebuild with make)");
        return NULL;
    }
    why[0] = '\0';
    return t;
}

int eco_lookup(const EcoTable *t, Key key, int *depth)
{
    if (!t || t->count == 0)
        return ECO_NONE;
    size_t lo = 0, hi = t->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == t->count || t->keys[lo] != key)
        return ECO_NONE;
    if (depth)
        *depth = (int)(t->values[lo] & 0xFF);
    return (int)(t->values[lo] >> 8);
}

const EcoEntry *eco_entry(const EcoTable *t, int index)
{
    if (!t || index < 0 || (size_t)index >= t->entry_count)
        return NULL;
    return &t->entries[index];
}

/* Records the position at g->plies: its own entry and the best so far. */
static void record(EcoGame *g, Key key)
{
    int i = g->plies;
    int depth = 0;
    int here = eco_lookup(g->table, key, &depth);
    int best = i > 0 ? g->best[i - 1] : ECO_NONE;
    int best_depth = i > 0 ? g->best_depth[i - 1] : -1;
    if (here != ECO_NONE && depth >= best_depth) {
        best = here;
        best_depth = depth;
    }
    g->here[i] = here;
    g->best[i] = best;
    g->best_depth[i] = (int16_t)best_depth;
}

void eco_game_reset(EcoGame *g, const EcoTable *t, Key start_key)
{
    g->table = t;
    g->plies = 0;
    record(g, start_key);
}

void eco_game_push(EcoGame *g, Key key)
{
    g->plies++;
    if (g->plies <= ECO_GAME_PLIES)
        record(g, key);
}

void eco_game_pop(EcoGame *g)
{
    if (g->plies > 0)
        g->plies--;
}

int eco_game_current(const EcoGame *g)
{
    return g->plies <= ECO_GAME_PLIES ? g->here[g->plies] : ECO_NONE;
}

int eco_game_best(const EcoGame *g)
{
    return g->best[g->plies <= ECO_GAME_PLIES ? g->plies : ECO_GAME_PLIES];
}

void eco_split_name(const char *name, char *opening, size_t opening_size, char *variation,
                    size_t variation_size)
{
    const char *colon = strstr(name, ": ");
    if (!colon)
        colon = strstr(name, ", "); /* Arasan's "Opening, Variation" */
    size_t n = colon ? (size_t)(colon - name) : strlen(name);
    if (opening && opening_size)
        snprintf(opening, opening_size, "%.*s", (int)n, name);
    if (variation && variation_size)
        snprintf(variation, variation_size, "%s", colon ? colon + 2 : "");
}
