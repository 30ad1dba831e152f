/* The engine's game: see game.h. */
#include "engine/game.h"

#include <stdio.h>

#include "board/movegen.h"
#include "board/notation.h"

void game_init(Game *g, const EcoTable *eco_table)
{
    char err[160];
    position_from_fen(&g->pos, START_FEN, err, sizeof err, NULL);
    g->eco_table = eco_table;
    eco_game_reset(&g->eco, g->eco_table, pos_key(&g->pos));
}

void game_new(Game *g, bool chess960)
{
    char err[160];
    position_from_fen(&g->pos, START_FEN, err, sizeof err, NULL);
    position_set_chess960(&g->pos, chess960);
    eco_game_reset(&g->eco, g->eco_table, pos_key(&g->pos));
}

/* Room in states[] for a search from the game position. */
#define SEARCH_ROOM (MAX_PLY + 64)

bool game_set(Game *g, const char *fen, const char *const *moves, int count, bool chess960,
              Move *played, char *err, size_t err_size)
{
    static _Thread_local Position next; /* large: keep it off the stack */
    char why[160];
    if (!position_from_fen(&next, fen ? fen : START_FEN, why, sizeof why, NULL)) {
        snprintf(err, err_size, "bad FEN: %s", why);
        return false;
    }
    position_set_chess960(&next, chess960);
    eco_game_reset(&g->eco_next, g->eco_table, pos_key(&next));
    for (int i = 0; i < count; i++) {
        Move m = move_from_uci(&next, moves[i]);
        if (m == MOVE_NONE) {
            snprintf(err, err_size, "illegal move '%s' (move %d of the list)", moves[i], i + 1);
            return false;
        }
        if (played)
            played[i] = m;
        make_move(&next, m);
        position_bound_history(&next, SEARCH_ROOM);
        eco_game_push(&g->eco_next, pos_key(&next));
    }
    position_compact(&next);
    g->pos = next;
    g->eco = g->eco_next;
    return true;
}

void game_restore(Game *g, const Position *saved)
{
    g->pos = *saved;
    /* The moves before it are not known here: the opening is that of the position. */
    eco_game_reset(&g->eco, g->eco_table, pos_key(&g->pos));
}

bool game_make_move(Game *g, Move m)
{
    if (!move_is_legal(&g->pos, m))
        return false;
    make_move(&g->pos, m);
    position_bound_history(&g->pos, SEARCH_ROOM);
    eco_game_push(&g->eco, pos_key(&g->pos));
    return true;
}

bool game_undo_move(Game *g)
{
    if (g->pos.st_index == 0)
        return false;
    unmake_move(&g->pos, pos_state(&g->pos)->move);
    eco_game_pop(&g->eco);
    return true;
}

const EcoEntry *game_opening(const Game *g, const EcoEntry **here)
{
    if (here)
        *here = eco_entry(g->eco_table, eco_game_current(&g->eco));
    return eco_entry(g->eco_table, eco_game_best(&g->eco));
}
