/* One game searched position by position for annotate: see annotate_game.h. */
#include "commands/annotate_game.h"

#include <string.h>
#include <time.h>

#include "board/movegen.h"
#include "eval/wdl.h"

/* What the reporter keeps of the search of one position: its last first-line report. */
typedef struct {
    bool valid;
    int score;
    int pv_length;
    Move pv[ANNOTATE_PV_MAX];
} LastLine;

static void on_iteration(void *ctx, const SearchReport *rep)
{
    LastLine *l = ctx;
    /* A fail-low line's move is not the best one; a bound's score is still the best known. */
    if (rep->multipv != 1)
        return;
    l->valid = true;
    l->score = rep->score;
    if (rep->bound == BOUND_UPPER && l->pv_length > 0)
        return;
    l->pv_length = rep->pv_length < ANNOTATE_PV_MAX ? rep->pv_length : ANNOTATE_PV_MAX;
    memcpy(l->pv, rep->pv, (size_t)l->pv_length * sizeof(Move));
}

static void on_currmove(void *ctx, int depth, Move move, int number)
{
    (void)ctx, (void)depth, (void)move, (void)number;
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    (void)ctx, (void)best, (void)ponder;
}

/* Searches the engine's game position; false (interrupted set) when stopped early. */
static bool search_position(Engine *e, const AnnotateLimits *lim, const AnnotateHooks *hooks,
                            LastLine *out, bool *interrupted, char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    const Position *pos = engine_position(e);
    if (count_legal_moves(pos) == 0) {
        out->valid = true;
        out->score = in_check(pos) ? -VALUE_MATE : VALUE_DRAW;
        return true;
    }
    SearchLimits limits;
    limits_init(&limits);
    if (lim->depth)
        limits.depth = lim->depth;
    else if (lim->nodes)
        limits.nodes = lim->nodes;
    else
        limits.movetime = lim->movetime_ms > 0 ? lim->movetime_ms : 1000;
    SearchReporter rep = {on_iteration, on_currmove, on_bestmove, out, NULL, NULL};
    if (!engine_go(e, &limits, &rep, err, err_size))
        return false;
    while (hooks && hooks->stop_requested && engine_is_searching(e)) {
        if (hooks->stop_requested(hooks->ctx)) {
            *interrupted = true;
            engine_stop(e);
            break;
        }
        struct timespec nap = {0, 20 * 1000000L};
        nanosleep(&nap, NULL);
    }
    engine_wait(e);
    if (!out->valid) {
        SearchResult r = engine_last_result(e);
        out->valid = true;
        out->score = r.score;
        out->pv[0] = r.best;
        out->pv_length = r.best != MOVE_NONE;
    }
    return !*interrupted;
}

static bool side_wanted(const AnnotateLimits *lim, const Position *pos)
{
    bool side = pos->side == WHITE ? lim->white : lim->black;
    return side && fullmove_number(pos) >= lim->from_move;
}

bool annotate_game(Engine *e, AnnotatedGame *g, const AnnotateLimits *limits,
                   const AnnotateHooks *hooks, char *err, size_t err_size)
{
    err[0] = '\0';
    g->interrupted = false;
    memset(g->side, 0, sizeof g->side);
    memset(g->score_known, 0, sizeof g->score_known);
    engine_new_game(e);
    engine_restore_position(e, &g->start);
    /* Which positions need a search: both ends of every analysed move. */
    Position walk = g->start;
    bool need[ANNOTATE_MAX_PLIES + 1] = {false};
    for (int i = 0; i < g->plies; i++) {
        AnnotatedMove *m = &g->moves[i];
        m->analysed = side_wanted(limits, &walk);
        m->mark = MARK_NONE;
        m->pv_length = 0;
        if (m->analysed)
            need[i] = need[i + 1] = true;
        make_move(&walk, m->move);
        position_bound_history(&walk, MAX_PLY + 16);
    }
    LastLine prev = {0}, cur;
    for (int i = 0; i <= g->plies; i++) {
        const Position *pos = engine_position(e);
        Color us = pos->side;
        int material = wdl_material(pos);
        if (need[i]) {
            if (!search_position(e, limits, hooks, &cur, &g->interrupted, err, err_size))
                return g->interrupted; /* stopped: not an error, the caller keeps the game
                                        * as it was */
            g->score_known[i] = true;
            g->white_score[i] = us == WHITE ? cur.score : -cur.score;
            if (i > 0 && g->moves[i - 1].analysed) {
                AnnotatedMove *m = &g->moves[i - 1];
                m->after = -cur.score;
                m->material_after = material;
                m->mark = side_summary_add(&g->side[!us], m->before, m->material_before, m->after,
                                           material);
                if (m->mark != MARK_NONE && prev.pv_length > 0 && prev.pv[0] != m->move) {
                    m->pv_length = prev.pv_length;
                    memcpy(m->pv, prev.pv, sizeof m->pv);
                }
            }
            if (i < g->plies && g->moves[i].analysed) {
                g->moves[i].before = cur.score;
                g->moves[i].material_before = material;
            }
            prev = cur;
            if (hooks && hooks->progress)
                hooks->progress(hooks->ctx, i, g->plies);
        }
        if (i < g->plies && !engine_make_move(e, g->moves[i].move)) {
            snprintf(err, err_size, "move %d is not legal", i / 2 + 1);
            return false;
        }
    }
    return true;
}
