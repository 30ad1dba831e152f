/* xboard searches and moves: thinking, pondering on the predicted reply, analysis,
 * thinking output in xboard units, playing the move with the server manners around it
 * (resign, draw offers, result claims). See xbstate.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/config.h"
#include "board/movegen.h"
#include "board/notation.h"
#include "util/timeutil.h"
#include "protocol/xbstate.h"

/* ---- output ---- */

static void send_va(Xb *xb, const char *prefix, const char *fmt, va_list ap)
{
    char line[8192];
    size_t p = strlen(prefix);
    memcpy(line, prefix, p + 1);
    vsnprintf(line + p, sizeof line - p, fmt, ap);
    pthread_mutex_lock(&xb->out_lock);
    fputs(line, xb->out);
    fputc('\n', xb->out);
    fflush(xb->out);
    pthread_mutex_unlock(&xb->out_lock);
}

void xb_send(Xb *xb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    send_va(xb, "", fmt, ap);
    va_end(ap);
}

void xb_trace(Xb *xb, const char *fmt, ...)
{
    if (!config_trace())
        return;
    va_list ap;
    va_start(ap, fmt);
    send_va(xb, "# ", fmt, ap);
    va_end(ap);
}

/* ---- game record ---- */

void xb_game_reset(Xb *xb, const char *fen)
{
    snprintf(xb->start_fen, sizeof xb->start_fen, "%s", fen);
    xb->start_side = engine_position(xb->engine)->side;
    xb->move_count = 0;
    xb->level_ply = 0;
    xb->game_over = false;
    xb->position_valid = true;
    xb->excluded_count = 0;
    xb->hint_move = MOVE_NONE;
}

void xb_game_push(Xb *xb, Move m)
{
    if (xb->move_count == xb->move_cap) {
        int cap = xb->move_cap ? xb->move_cap * 2 : 256;
        Move *grown = realloc(xb->moves, (size_t)cap * sizeof *grown);
        if (!grown)
            return; /* the record stops growing; undo past this point rebuilds less */
        xb->moves = grown;
        xb->move_cap = cap;
    }
    xb->moves[xb->move_count++] = m;
    xb->excluded_count = 0;
}

/* Replays the record from the start position (when the engine's history was compacted). */
static bool rebuild(Xb *xb)
{
    char (*uci)[6] = malloc((size_t)(xb->move_count ? xb->move_count : 1) * sizeof *uci);
    const char **list = malloc((size_t)(xb->move_count ? xb->move_count : 1) * sizeof *list);
    bool ok = uci && list;
    for (int i = 0; ok && i < xb->move_count; i++)
        list[i] = move_to_uci(xb->moves[i], uci[i]);
    char err[200];
    if (ok && !engine_set_position(xb->engine, xb->start_fen, list, xb->move_count, err, sizeof err)) {
        xb_send(xb, "tellusererror cannot restore the game: %s", err);
        ok = false;
    }
    free(uci);
    free(list);
    return ok;
}

bool xb_game_undo(Xb *xb, int n)
{
    if (n > xb->move_count)
        return false;
    bool need_rebuild = false;
    for (int i = 0; i < n; i++) {
        xb->move_count--;
        if (!need_rebuild && !engine_undo_move(xb->engine))
            need_rebuild = true;
    }
    if (need_rebuild)
        rebuild(xb);
    if (xb->level_ply > xb->move_count)
        xb->level_ply = xb->move_count;
    xb->excluded_count = 0;
    xb->game_over = false;
    xb->hint_move = MOVE_NONE;
    return true;
}

int xb_own_moves_since_level(const Xb *xb, Color us)
{
    int count = 0;
    for (int ply = xb->level_ply; ply < xb->move_count; ply++)
        if ((xb->start_side ^ (ply & 1)) == us)
            count++;
    return count;
}

/* ---- thinking output (search thread) ---- */

/* xboard scores: centipawns, or 100000 + N for mate in N moves (negative when mated). */
static int xboard_score(const SearchReport *r)
{
    if (!r->is_mate)
        return r->cp;
    return r->mate_moves > 0 ? 100000 + r->mate_moves : -100000 + r->mate_moves;
}

static void on_iteration(void *ctx, const SearchReport *r)
{
    Xb *xb = ctx;
    pthread_mutex_lock(&xb->lock);
    xb->stat_depth = r->depth;
    xb->stat_nodes = r->nodes;
    pthread_mutex_unlock(&xb->lock);
    if (!atomic_load(&xb->post) || r->multipv != 1)
        return;
    char pv[4096];
    Position *pos = xb->scratch;
    *pos = *xb->search_root;
    pv[0] = '\0';
    const int score = xboard_score(r);
    if (xb->output_prefix != MOVE_NONE && move_is_legal(pos, xb->output_prefix)) {
        /* Pondering: show the predicted move first. The score stays as searched: the
         * engine is to move after the predicted move, so it is already from the
         * engine's side, as xboard wants (and as polyglot reports it). */
        char san[16];
        move_to_san(pos, xb->output_prefix, san);
        snprintf(pv, sizeof pv, "(%s)", san);
        make_move(pos, xb->output_prefix);
    }
    line_to_san(pos, r->pv, r->pv_length, false, pv, sizeof pv);
    const char *mark = r->bound == BOUND_UPPER ? "?" : r->bound == BOUND_LOWER ? "!" : "";
    xb_send(xb, "%d %d %lld %llu %s%s", r->depth, score, (long long)(r->time_ms / 10),
            (unsigned long long)r->nodes, pv, mark);
}

static void on_currmove(void *ctx, int depth, Move move, int number)
{
    Xb *xb = ctx;
    pthread_mutex_lock(&xb->lock);
    xb->stat_depth = depth;
    xb->stat_move = move;
    xb->stat_move_number = number;
    pthread_mutex_unlock(&xb->lock);
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    Xb *xb = ctx;
    pthread_mutex_lock(&xb->lock);
    xb->done_best = best;
    xb->done_ponder = ponder;
    xb->search_done = true;
    pthread_cond_broadcast(&xb->wake);
    pthread_mutex_unlock(&xb->lock);
}

static const SearchReporter REPORTER_TEMPLATE = {on_iteration, on_currmove, on_bestmove, NULL};

/* ---- starting and stopping ---- */

static void apply_exclusions(Xb *xb, SearchLimits *limits)
{
    if (!xb->excluded_count)
        return;
    MoveList list;
    generate_legal(engine_position(xb->engine), &list);
    for (int i = 0; i < list.count; i++) {
        bool out = false;
        for (int j = 0; j < xb->excluded_count; j++)
            out |= xb->excluded[j] == list.moves[i];
        if (!out)
            limits->searchmoves[limits->searchmoves_count++] = list.moves[i];
    }
}

static bool go(Xb *xb, SearchLimits *limits, XbSearch kind, Move prefix)
{
    *xb->search_root = kind == XS_PONDER ? *xb->ponder_base : *engine_position(xb->engine);
    xb->output_prefix = prefix;
    pthread_mutex_lock(&xb->lock);
    xb->search_done = false;
    xb->stat_depth = 0;
    xb->stat_nodes = 0;
    xb->stat_move = MOVE_NONE;
    xb->stat_move_number = 0;
    pthread_mutex_unlock(&xb->lock);
    SearchReporter rep = REPORTER_TEMPLATE;
    rep.ctx = xb;
    char err[200];
    xb->think_start_ms = time_now_ms();
    if (!engine_go(xb->engine, limits, &rep, err, sizeof err)) {
        xb_send(xb, "tellusererror cannot start the search: %s", err);
        return false;
    }
    xb->search = kind;
    return true;
}

bool xb_claim_if_over(Xb *xb)
{
    GameEnd end = game_end_status(engine_position(xb->engine));
    if (end == GAME_ONGOING)
        return false;
    if (!xb->game_over)
        xb_send(xb, "%s", game_end_result(end));
    xb->game_over = true;
    return true;
}

void xb_start_think(Xb *xb)
{
    if (!xb->position_valid || xb->game_over || xb_claim_if_over(xb))
        return;
    const Position *pos = engine_position(xb->engine);
    SearchLimits limits;
    xbclock_limits(&xb->clock, pos->side, xb_own_moves_since_level(xb, pos->side), &limits);
    apply_exclusions(xb, &limits);
    if (xb->excluded_count && !limits.searchmoves_count)
        return; /* every move excluded: nothing to play */
    xb_trace(xb, "thinking: time %lld ms, movestogo %d, movetime %lld, depth %d, nodes %llu",
             (long long)limits.time[pos->side], limits.movestogo, (long long)limits.movetime,
             limits.depth, (unsigned long long)limits.nodes);
    go(xb, &limits, XS_THINK, MOVE_NONE);
}

void xb_start_analyze(Xb *xb)
{
    if (!xb->position_valid || count_legal_moves(engine_position(xb->engine)) == 0)
        return;
    SearchLimits limits;
    limits_init(&limits);
    limits.infinite = true;
    apply_exclusions(xb, &limits);
    if (xb->excluded_count && !limits.searchmoves_count)
        return;
    go(xb, &limits, XS_ANALYZE, MOVE_NONE);
}

/* Thinks on the opponent's time about our reply to the move we expect. */
static void start_ponder(Xb *xb, Move predicted)
{
    const Position *pos = engine_position(xb->engine);
    if (predicted == MOVE_NONE || !move_is_legal(pos, predicted))
        return;
    *xb->ponder_base = *pos;
    engine_make_move(xb->engine, predicted);
    if (game_end_status(engine_position(xb->engine)) != GAME_ONGOING) {
        engine_undo_move(xb->engine);
        return;
    }
    Color us = engine_position(xb->engine)->side;
    SearchLimits limits;
    xbclock_limits(&xb->clock, us, xb_own_moves_since_level(xb, us), &limits);
    limits.ponder = true;
    xb->ponder_move = predicted;
    char uci[6];
    xb_trace(xb, "pondering on %s", move_to_uci(predicted, uci));
    if (!go(xb, &limits, XS_PONDER, predicted)) {
        engine_undo_move(xb->engine);
        xb->ponder_move = MOVE_NONE;
    }
}

void xb_stop_search(Xb *xb)
{
    if (xb->search == XS_IDLE)
        return;
    engine_stop(xb->engine);
    engine_wait(xb->engine);
    pthread_mutex_lock(&xb->lock);
    xb->search_done = false;
    pthread_mutex_unlock(&xb->lock);
    if (xb->search == XS_PONDER) {
        if (!engine_undo_move(xb->engine))
            rebuild(xb);
        xb->ponder_move = MOVE_NONE;
    }
    xb->search = XS_IDLE;
}

bool xb_ponder_hit(Xb *xb, Move played)
{
    if (xb->search != XS_PONDER)
        return false;
    if (played != xb->ponder_move) {
        xb_stop_search(xb);
        return false;
    }
    /* The predicted move is already on the engine's board: record it and let the
     * search run on the clock from now. */
    engine_ponderhit(xb->engine);
    xb_game_push(xb, played);
    xb->search = XS_THINK;
    xb->ponder_move = MOVE_NONE;
    /* output_prefix stays: the search thread reads it, and the thinking output of this
     * search is still drawn from the position before the predicted move. */
    xb->think_start_ms = time_now_ms();
    xb_trace(xb, "ponder hit");
    return true;
}

/* ---- playing the move ---- */

static int manners_score(const SearchResult *r)
{
    SearchReport rep;
    search_score_to_report(r->score, &rep);
    if (!rep.is_mate)
        return rep.cp;
    return rep.mate_moves > 0 ? MANNERS_DECISIVE + 1000 - rep.mate_moves
                              : -MANNERS_DECISIVE - 1000 - rep.mate_moves;
}

static void play_move(Xb *xb, Move best, Move ponder)
{
    Engine *e = xb->engine;
    if (best == MOVE_NONE || !move_is_legal(engine_position(e), best)) {
        xb_claim_if_over(xb);
        return;
    }
    SearchResult result = engine_last_result(e);
    manners_record(&xb->manners, manners_score(&result));
    MannersConfig cfg = manners_config(engine_options(e), engine_contempt(e));
    if (manners_should_resign(&xb->manners, &cfg)) {
        xb_send(xb, "resign");
        xb->game_over = true;
        return;
    }
    /* A draw we could claim after this move (repetition, fifty moves) is claimed with an
     * offer before it; a plain offer comes from the score and the material left. */
    Position *after = xb->main_scratch;
    *after = *engine_position(e);
    make_move(after, best);
    GameEnd end = game_end_status(after);
    bool claimable = end == GAME_REPETITION || end == GAME_FIFTY_MOVES;
    if (claimable || manners_offer_draw(&xb->manners, &cfg, after))
        xb_send(xb, "offer draw");

    char uci[6];
    engine_make_move(e, best);
    xb_game_push(xb, best);
    xb_send(xb, "move %s", move_to_uci(best, uci));
    /* Our clock as xboard will see it, for pondering (time/otim will correct it). */
    if (xb->clock.my_ms >= 0) {
        int64_t used = time_now_ms() - xb->think_start_ms;
        xb->clock.my_ms = xb->clock.my_ms - used + xb->clock.inc_ms;
        if (xb->clock.my_ms < 0)
            xb->clock.my_ms = 0;
    }
    if (xb_claim_if_over(xb))
        return;
    xb->hint_move = move_is_legal(engine_position(e), ponder) ? ponder : MOVE_NONE;
    if (xb->ponder_enabled && !xb->force)
        start_ponder(xb, xb->hint_move);
}

void xb_search_finished(Xb *xb)
{
    engine_wait(xb->engine);
    pthread_mutex_lock(&xb->lock);
    Move best = xb->done_best, ponder = xb->done_ponder;
    xb->search_done = false;
    pthread_mutex_unlock(&xb->lock);
    XbSearch kind = xb->search;
    xb->search = XS_IDLE;
    if (kind == XS_THINK)
        play_move(xb, best, ponder);
    /* An analysis or ponder search only ends when stopped, which xb_stop_search
     * collects itself; nothing to do for a stray end. */
}

void xb_send_status(Xb *xb)
{
    if (xb->search != XS_ANALYZE)
        return;
    pthread_mutex_lock(&xb->lock);
    int depth = xb->stat_depth, number = xb->stat_move_number;
    uint64_t nodes = xb->stat_nodes;
    Move move = xb->stat_move;
    pthread_mutex_unlock(&xb->lock);
    const Position *pos = engine_position(xb->engine);
    int total = count_legal_moves(pos);
    int left = number > 0 && number <= total ? total - number : total;
    int64_t cs = (time_now_ms() - xb->think_start_ms) / 10;
    if (move != MOVE_NONE && move_is_legal(pos, move)) {
        char uci[6];
        xb_send(xb, "stat01: %lld %llu %d %d %d %s", (long long)cs, (unsigned long long)nodes,
                depth, left, total, move_to_uci(move, uci));
    } else {
        xb_send(xb, "stat01: %lld %llu %d %d %d", (long long)cs, (unsigned long long)nodes,
                depth, left, total);
    }
}
