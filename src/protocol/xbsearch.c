/* xboard searches and moves: see xbsearch.h. */
#include "protocol/xbsearch.h"

#include <stdlib.h>
#include <string.h>

#include "board/gameend.h"
#include "board/movegen.h"
#include "board/notation.h"
#include "util/timeutil.h"

bool xbsearch_init(XbSearch *s, XbOut *out, XbInput *events)
{
    memset(s, 0, sizeof *s);
    s->ponder_base = malloc(sizeof(Position));
    s->search_root = malloc(sizeof(Position));
    s->scratch = malloc(sizeof(Position));
    s->main_scratch = malloc(sizeof(Position));
    if (!s->ponder_base || !s->search_root || !s->scratch || !s->main_scratch) {
        free(s->ponder_base), free(s->search_root), free(s->scratch), free(s->main_scratch);
        return false;
    }
    s->kind = XS_IDLE;
    atomic_init(&s->post, false);
    pthread_mutex_init(&s->stat_lock, NULL);
    s->out = out;
    s->events = events;
    return true;
}

void xbsearch_free(XbSearch *s)
{
    free(s->ponder_base);
    free(s->search_root);
    free(s->scratch);
    free(s->main_scratch);
    pthread_mutex_destroy(&s->stat_lock);
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
    XbSearch *s = ctx;
    pthread_mutex_lock(&s->stat_lock);
    s->stat_depth = r->depth;
    s->stat_nodes = r->nodes;
    pthread_mutex_unlock(&s->stat_lock);
    if (!atomic_load(&s->post) || r->multipv != 1)
        return;
    char pv[4096];
    Position *pos = s->scratch;
    *pos = *s->search_root;
    pv[0] = '\0';
    const int score = xboard_score(r);
    if (s->output_prefix != MOVE_NONE && move_is_legal(pos, s->output_prefix)) {
        /* Pondering: show the predicted move first. The score stays as searched: the
         * engine is to move after the predicted move, so it is already from the
         * engine's side, as xboard wants (and as polyglot reports it). */
        char san[16];
        move_to_san(pos, s->output_prefix, san);
        snprintf(pv, sizeof pv, "(%s)", san);
        make_move(pos, s->output_prefix);
    }
    line_to_san(pos, r->pv, r->pv_length, false, pv, sizeof pv);
    const char *mark = r->bound == BOUND_UPPER ? "?" : r->bound == BOUND_LOWER ? "!" : "";
    xb_send(s->out, "%d %d %lld %llu %s%s", r->depth, score, (long long)(r->time_ms / 10),
            (unsigned long long)r->nodes, pv, mark);
}

static void on_currmove(void *ctx, int depth, Move move, int number)
{
    XbSearch *s = ctx;
    pthread_mutex_lock(&s->stat_lock);
    s->stat_depth = depth;
    s->stat_move = move;
    s->stat_move_number = number;
    pthread_mutex_unlock(&s->stat_lock);
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    XbSearch *s = ctx;
    xbinput_post_search_done(s->events, best, ponder);
}

/* A book move: a thinking line (depth, score, time and nodes 0) that names it. */
static void on_book(void *ctx, Move move, const char *detail)
{
    XbSearch *s = ctx;
    (void)move;
    if (atomic_load(&s->post))
        xb_send(s->out, "0 0 0 0 (book) %s", detail);
}

static void on_info(void *ctx, const char *text)
{
    XbSearch *s = ctx;
    xb_send(s->out, "# %s", text);
}

static const SearchReporter REPORTER_TEMPLATE = {on_iteration, on_currmove, on_bestmove, NULL,
                                                 on_book, on_info};

/* ---- starting and stopping ---- */

static bool go(XbSearch *s, Engine *e, SearchLimits *limits, XbSearchKind kind, Move prefix)
{
    *s->search_root = kind == XS_PONDER ? *s->ponder_base : *engine_position(e);
    s->output_prefix = prefix;
    xbinput_take_search_done(s->events, NULL, NULL);
    pthread_mutex_lock(&s->stat_lock);
    s->stat_depth = 0;
    s->stat_nodes = 0;
    s->stat_move = MOVE_NONE;
    s->stat_move_number = 0;
    pthread_mutex_unlock(&s->stat_lock);
    SearchReporter rep = REPORTER_TEMPLATE;
    rep.ctx = s;
    char err[200];
    if (s->kind == XS_IDLE && engine_is_searching(e)) { /* a perft gives way */
        engine_stop(e);
        engine_wait(e);
    }
    s->think_start_ms = time_now_ms();
    const EcoEntry *here;
    const EcoEntry *opening = engine_opening(e, &here);
    if (here && kind != XS_PONDER && atomic_load(&s->post)) /* while in known opening positions */
        xb_send(s->out, "0 0 0 0 (%s %s)", opening->code, opening->name);
    if (!engine_go(e, limits, &rep, err, sizeof err)) {
        xb_send(s->out, "tellusererror cannot start the search: %s", err);
        return false;
    }
    s->kind = kind;
    return true;
}

void xbsearch_think(XbSearch *s, Engine *e, XbGame *g, const XbClock *clock)
{
    const Position *pos = engine_position(e);
    if (!g->position_valid || g->game_over || xbgame_claim_if_over(g, pos, s->out))
        return;
    SearchLimits limits;
    xbclock_limits(clock, pos->side, xbgame_own_moves_since_level(g, pos->side), &limits);
    if (!xbgame_search_moves(g, pos, &limits))
        return; /* every move excluded: nothing to play */
    xb_trace(s->out, "thinking: time %lld ms, movestogo %d, movetime %lld, depth %d, nodes %llu",
             (long long)limits.time[pos->side], limits.movestogo, (long long)limits.movetime,
             limits.depth, (unsigned long long)limits.nodes);
    go(s, e, &limits, XS_THINK, MOVE_NONE);
}

void xbsearch_analyze(XbSearch *s, Engine *e, const XbGame *g)
{
    if (!g->position_valid || count_legal_moves(engine_position(e)) == 0)
        return;
    SearchLimits limits;
    limits_init(&limits);
    limits.infinite = true;
    if (!xbgame_search_moves(g, engine_position(e), &limits))
        return;
    go(s, e, &limits, XS_ANALYZE, MOVE_NONE);
}

/* Thinks on the opponent's time about our reply to the move we expect. */
static void start_ponder(XbSearch *s, Engine *e, const XbGame *g, const XbClock *clock,
                         Move predicted)
{
    const Position *pos = engine_position(e);
    if (predicted == MOVE_NONE || !move_is_legal(pos, predicted))
        return;
    *s->ponder_base = *pos;
    engine_make_move(e, predicted);
    if (game_end_status(engine_position(e)) != GAME_ONGOING) {
        engine_undo_move(e);
        return;
    }
    Color us = engine_position(e)->side;
    SearchLimits limits;
    xbclock_limits(clock, us, xbgame_own_moves_since_level(g, us), &limits);
    limits.ponder = true;
    s->ponder_move = predicted;
    char uci[6];
    xb_trace(s->out, "pondering on %s", move_to_uci(predicted, uci));
    if (!go(s, e, &limits, XS_PONDER, predicted)) {
        engine_undo_move(e);
        s->ponder_move = MOVE_NONE;
    }
}

void xbsearch_stop(XbSearch *s, Engine *e, const XbGame *g)
{
    if (s->kind == XS_IDLE) {
        if (engine_is_searching(e)) { /* a perft (console command) */
            engine_stop(e);
            engine_wait(e);
        }
        return;
    }
    engine_stop(e);
    engine_wait(e);
    xbinput_take_search_done(s->events, NULL, NULL);
    if (s->kind == XS_PONDER) {
        if (!engine_undo_move(e))
            xbgame_restore(g, e, s->out);
        s->ponder_move = MOVE_NONE;
    }
    s->kind = XS_IDLE;
}

bool xbsearch_ponder_hit(XbSearch *s, Engine *e, XbGame *g, Move played)
{
    if (s->kind != XS_PONDER)
        return false;
    if (played != s->ponder_move) {
        xbsearch_stop(s, e, g);
        return false;
    }
    /* The predicted move is already on the engine's board: record it and let the
     * search run on the clock from now. */
    engine_ponderhit(e);
    xbgame_push(g, played);
    s->kind = XS_THINK;
    s->ponder_move = MOVE_NONE;
    /* output_prefix stays: the search thread reads it, and the thinking output of this
     * search is still drawn from the position before the predicted move. */
    s->think_start_ms = time_now_ms();
    xb_trace(s->out, "ponder hit");
    return true;
}

/* ---- playing the move ---- */

static void play_move(XbSearch *s, Engine *e, XbGame *g, XbClock *clock, XbServer *server,
                      bool may_ponder, Move best, Move ponder)
{
    if (best == MOVE_NONE || !move_is_legal(engine_position(e), best)) {
        xbgame_claim_if_over(g, engine_position(e), s->out);
        return;
    }
    if (!xbserver_before_move(server, e, s->out, best)) {
        g->game_over = true; /* resigned */
        return;
    }
    char uci[6];
    /* Chess960 castling goes out as O-O / O-O-O, as xboard writes it too. */
    bool fischer_castle = engine_position(e)->chess960 && move_is_castle(best);
    if (fischer_castle)
        strcpy(uci, move_flags(best) == FLAG_CASTLE_QUEEN ? "O-O-O" : "O-O");
    else
        move_to_uci(best, uci);
    engine_make_move(e, best);
    xbgame_push(g, best);
    xb_send(s->out, "move %s", uci);
    xbclock_after_move(clock, time_now_ms() - s->think_start_ms);
    if (xbgame_claim_if_over(g, engine_position(e), s->out))
        return;
    g->hint_move = move_is_legal(engine_position(e), ponder) ? ponder : MOVE_NONE;
    if (may_ponder)
        start_ponder(s, e, g, clock, g->hint_move);
}

void xbsearch_finished(XbSearch *s, Engine *e, XbGame *g, XbClock *clock, XbServer *server,
                       bool may_ponder)
{
    engine_wait(e);
    Move best, ponder;
    xbinput_take_search_done(s->events, &best, &ponder);
    XbSearchKind kind = s->kind;
    s->kind = XS_IDLE;
    if (kind == XS_THINK)
        play_move(s, e, g, clock, server, may_ponder, best, ponder);
    /* An analysis or ponder search only ends when stopped, which xbsearch_stop
     * collects itself; nothing to do for a stray end. */
}

/* ---- status and hint ---- */

void xbsearch_send_status(XbSearch *s, Engine *e)
{
    if (s->kind != XS_ANALYZE)
        return;
    pthread_mutex_lock(&s->stat_lock);
    int depth = s->stat_depth, number = s->stat_move_number;
    uint64_t nodes = s->stat_nodes;
    Move move = s->stat_move;
    pthread_mutex_unlock(&s->stat_lock);
    const Position *pos = engine_position(e);
    int total = count_legal_moves(pos);
    int left = number > 0 && number <= total ? total - number : total;
    int64_t cs = (time_now_ms() - s->think_start_ms) / 10;
    if (move != MOVE_NONE && move_is_legal(pos, move)) {
        char uci[6];
        xb_send(s->out, "stat01: %lld %llu %d %d %d %s", (long long)cs, (unsigned long long)nodes,
                depth, left, total, move_to_uci_game(engine_position(e), move, uci));
    } else {
        xb_send(s->out, "stat01: %lld %llu %d %d %d", (long long)cs, (unsigned long long)nodes,
                depth, left, total);
    }
}

void xbsearch_send_book(XbSearch *s, Engine *e)
{
    BookMove moves[BOOK_MOVES_MAX];
    char warn[500], line[200];
    int n = engine_book_moves(e, moves, BOOK_MOVES_MAX, warn, sizeof warn);
    if (warn[0])
        xb_send(s->out, " warning: %s", warn);
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += moves[i].weight;
    for (int i = 0; i < n; i++) {
        *s->main_scratch = *engine_position(e);
        book_move_describe(s->main_scratch, &moves[i], line, sizeof line);
        xb_send(s->out, " %s (%.0f%%)", line, total ? 100.0 * moves[i].weight / total : 0.0);
    }
    if (n == 0)
        xb_send(s->out, " no book moves in this position");
    xb_send(s->out, "%s", "");
}

void xbsearch_send_hint(XbSearch *s, Engine *e, const XbGame *g)
{
    const Position *pos = s->kind == XS_PONDER ? s->ponder_base : engine_position(e);
    Move m = s->kind == XS_PONDER ? s->ponder_move : g->hint_move;
    if (m != MOVE_NONE && move_is_legal(pos, m)) {
        char san[16];
        Position *scratch = s->main_scratch;
        *scratch = *pos;
        xb_send(s->out, "Hint: %s", move_to_san(scratch, m, san));
    }
}
