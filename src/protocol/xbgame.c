/* The xboard game record: see xbgame.h. */
#include "protocol/xbgame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/gameend.h"
#include "board/movegen.h"
#include "board/notation.h"

void xbgame_free(XbGame *g)
{
    free(g->moves);
    g->moves = NULL;
    g->move_count = g->move_cap = 0;
}

void xbgame_reset(XbGame *g, const char *fen, Color side)
{
    snprintf(g->start_fen, sizeof g->start_fen, "%s", fen);
    g->start_side = side;
    g->move_count = 0;
    g->level_ply = 0;
    g->game_over = false;
    g->position_valid = true;
    g->excluded_count = 0;
    g->hint_move = MOVE_NONE;
}

void xbgame_push(XbGame *g, Move m)
{
    if (g->move_count == g->move_cap) {
        int cap = g->move_cap ? g->move_cap * 2 : 256;
        Move *grown = realloc(g->moves, (size_t)cap * sizeof *grown);
        if (!grown)
            return; /* the record stops growing; undo past this point rebuilds less */
        g->moves = grown;
        g->move_cap = cap;
    }
    g->moves[g->move_count++] = m;
    g->excluded_count = 0;
}

void xbgame_set_side(XbGame *g, Engine *e, Color side)
{
    const Position *pos = engine_position(e);
    if (pos->side == side)
        return;
    char fen[128], board[100], castle[8];
    position_to_fen(pos, fen);
    if (sscanf(fen, "%99s %*s %7s", board, castle) != 2)
        return;
    snprintf(fen, sizeof fen, "%s %c %s - 0 1", board, side == WHITE ? 'w' : 'b', castle);
    char err[200];
    if (engine_set_position(e, fen, NULL, 0, err, sizeof err))
        xbgame_reset(g, fen, side);
}

bool xbgame_restore(const XbGame *g, Engine *e, XbOut *out)
{
    char (*uci)[6] = malloc((size_t)(g->move_count ? g->move_count : 1) * sizeof *uci);
    const char **list = malloc((size_t)(g->move_count ? g->move_count : 1) * sizeof *list);
    bool ok = uci && list;
    for (int i = 0; ok && i < g->move_count; i++) /* (castling king-takes-rook in Chess960) */
        list[i] = move_to_uci_game(engine_position(e), g->moves[i], uci[i]);
    char err[200];
    if (ok && !engine_set_position(e, g->start_fen, list, g->move_count, err, sizeof err)) {
        xb_send(out, "tellusererror cannot restore the game: %s", err);
        ok = false;
    }
    free(uci);
    free(list);
    return ok;
}

bool xbgame_undo(XbGame *g, Engine *e, XbOut *out, int n)
{
    if (n > g->move_count)
        return false;
    bool need_rebuild = false;
    for (int i = 0; i < n; i++) {
        g->move_count--;
        if (!need_rebuild && !engine_undo_move(e))
            need_rebuild = true;
    }
    if (need_rebuild)
        xbgame_restore(g, e, out);
    if (g->level_ply > g->move_count)
        g->level_ply = g->move_count;
    g->excluded_count = 0;
    g->game_over = false;
    g->hint_move = MOVE_NONE;
    return true;
}

int xbgame_own_moves_since_level(const XbGame *g, Color us)
{
    int count = 0;
    for (int ply = g->level_ply; ply < g->move_count; ply++)
        if ((g->start_side ^ (ply & 1)) == us)
            count++;
    return count;
}

bool xbgame_claim_if_over(XbGame *g, const Position *pos, XbOut *out)
{
    GameEnd end = game_end_status(pos);
    if (end == GAME_ONGOING)
        return false;
    if (!g->game_over)
        xb_send(out, "%s", game_end_result(end));
    g->game_over = true;
    return true;
}

void xbgame_exclude(XbGame *g, Move m, bool exclude)
{
    int found = -1;
    for (int i = 0; i < g->excluded_count; i++)
        if (g->excluded[i] == m)
            found = i;
    if (exclude && found < 0 && g->excluded_count < MAX_MOVES)
        g->excluded[g->excluded_count++] = m;
    else if (!exclude && found >= 0)
        g->excluded[found] = g->excluded[--g->excluded_count];
}

void xbgame_exclude_all(XbGame *g, const Position *pos, bool exclude)
{
    g->excluded_count = 0;
    if (!exclude)
        return;
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        g->excluded[g->excluded_count++] = list.moves[i];
}

bool xbgame_search_moves(const XbGame *g, const Position *pos, SearchLimits *limits)
{
    if (!g->excluded_count)
        return true;
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        bool out = false;
        for (int j = 0; j < g->excluded_count; j++)
            out |= g->excluded[j] == list.moves[i];
        if (!out)
            limits->searchmoves[limits->searchmoves_count++] = list.moves[i];
    }
    return limits->searchmoves_count > 0;
}

/* ---- moves as the GUI writes them ---- */

bool xbgame_looks_like_move(const char *s)
{
    size_t n = strlen(s);
    while (n > 0 && strchr("+#!?", s[n - 1]))
        n--;
    if (n == 0)
        return false;
    if ((n == 3 || n == 5)
        && (!strncmp(s, "O-O", n) || !strncmp(s, "0-0", n) || !strncmp(s, "O-O-O", n)
            || !strncmp(s, "0-0-0", n)))
        return true;
    /* coordinate: e2e4, e7e8q */
    if ((n == 4 || n == 5) && s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8'
        && s[2] >= 'a' && s[2] <= 'h' && s[3] >= '1' && s[3] <= '8')
        return n == 4 || strchr("qrbnQRBN", s[4]);
    /* SAN: optional piece, optional disambiguation, optional x, square, optional =P */
    size_t i = 0;
    if (strchr("NBRQK", s[i]))
        i++;
    size_t squares = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (c >= 'a' && c <= 'h' && i + 1 < n && s[i + 1] >= '1' && s[i + 1] <= '8') {
            squares++;
            i++;
        } else if (!(c == 'x' || c == '-' || c == '=' || (c >= 'a' && c <= 'h')
                     || (c >= '1' && c <= '8') || (i == n - 1 && strchr("NBRQnbrq", c))))
            return false;
    }
    return squares >= 1;
}

Move xbgame_parse_move(const Position *pos, const char *text)
{
    Move m = move_from_uci(pos, text);
    return m != MOVE_NONE ? m : move_from_san(pos, text);
}
