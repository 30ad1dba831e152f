/* UCI protocol front end. Output comes from two threads (the search reports, this loop
 * answers isready); the writer (util/writer.h) keeps each line whole. */
#include "protocol/uci.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands.h"
#include "board/notation.h"
#include "eval/wdl.h"
#include "util/textline.h"
#include "util/words.h"

#define MAX_TOKENS 16384 /* more than any real command: 16384 moves need 80 KB */

typedef struct {
    Engine *engine;
    FILE *in;   /* read by the loop; a running test watches it for stop/quit */
    Writer *out;
    pthread_mutex_t info_lock;  /* guards last_info and ponderhit_unanswered */
    bool debug;
    bool show_wdl;  /* UCI_ShowWDL, read at go (the search thread prints) */
    int material;   /* of the searched position, for the WDL model */
    /* The last first-line info of the search, and whether a ponderhit came after it (a
     * ponder search that had already ended): the GUI then gets it again before bestmove,
     * or it records no score or time for the move. Both under info_lock. */
    char last_info[8192];
    bool ponderhit_unanswered;
} UciState;

static void uci_send(UciState *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void uci_send(UciState *u, const char *fmt, ...)
{
    char buf[8191]; /* a longer line is cut */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    writer_send(u->out, buf);
}

/* ---- reporter callbacks (run on the search thread) ---- */

static void on_iteration(void *ctx, const SearchReport *r)
{
    UciState *u = ctx;
    const Position *game = engine_position(u->engine);
    char line[8192], mv[8];
    char wdl[32] = "";
    if (u->show_wdl) {
        Wdl w = r->is_mate ? wdl_from_mate(r->mate_moves) : wdl_from_cp(r->cp, u->material);
        snprintf(wdl, sizeof wdl, " wdl %d %d %d", w.win, w.draw, w.loss);
    }
    int n = snprintf(line, sizeof line,
                     "info depth %d seldepth %d multipv %d score %s %d%s%s nodes %llu nps %llu "
                     "hashfull %d tbhits %llu time %lld",
                     r->depth, r->seldepth, r->multipv, r->is_mate ? "mate" : "cp",
                     r->is_mate ? r->mate_moves : r->cp,
                     r->bound == BOUND_LOWER   ? " lowerbound"
                     : r->bound == BOUND_UPPER ? " upperbound"
                                               : "",
                     wdl, (unsigned long long)r->nodes, (unsigned long long)r->nps, r->hashfull,
                     (unsigned long long)r->tbhits, (long long)r->time_ms);
    if (r->pv_length > 0)
        n += snprintf(line + n, sizeof line - (size_t)n, " pv");
    for (int i = 0; i < r->pv_length && n < (int)sizeof line - 8; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s",
                      move_to_uci_game(game, r->pv[i], mv));
    uci_send(u, "%s", line);
    pthread_mutex_lock(&u->info_lock);
    if (r->multipv == 1)
        memcpy(u->last_info, line, sizeof line);
    u->ponderhit_unanswered = false;
    pthread_mutex_unlock(&u->info_lock);
}

static void on_currmove(void *ctx, int depth, Move move, int number)
{
    UciState *u = ctx;
    char mv[8];
    uci_send(ctx, "info depth %d currmove %s currmovenumber %d", depth,
             move_to_uci_game(engine_position(u->engine), move, mv), number);
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    UciState *u = ctx;
    const Position *game = engine_position(u->engine);
    char b[8], p[8];
    char again[sizeof u->last_info];
    pthread_mutex_lock(&u->info_lock);
    bool repeat = u->ponderhit_unanswered && u->last_info[0];
    if (repeat)
        memcpy(again, u->last_info, sizeof again);
    u->ponderhit_unanswered = false;
    pthread_mutex_unlock(&u->info_lock);
    if (repeat)
        uci_send(u, "%s", again);
    if (best == MOVE_NONE)
        uci_send(ctx, "bestmove 0000");
    else if (ponder != MOVE_NONE)
        uci_send(ctx, "bestmove %s ponder %s", move_to_uci_game(game, best, b),
                 move_to_uci_game(game, ponder, p));
    else
        uci_send(ctx, "bestmove %s", move_to_uci_game(game, best, b));
}

static void on_book(void *ctx, Move move, const char *detail)
{
    char mv[8];
    uci_send(ctx, "info string book move %s: %s", move_to_uci(move, mv), detail);
}

static void on_info(void *ctx, const char *text)
{
    uci_send(ctx, "info string %s", text);
}

/* ---- commands ---- */

static void cmd_uci(UciState *u)
{
    uci_send(u, "id name %s %s", ENGINE_NAME, ENGINE_VERSION);
    uci_send(u, "id author %s", ENGINE_AUTHOR);
    Options *opts = engine_options(u->engine);
    for (int i = 0; i < opts->count; i++) {
        const Option *o = &opts->items[i];
        switch (o->type) {
        case OPT_SPIN:
            uci_send(u, "option name %s type spin default %lld min %lld max %lld", o->name,
                 (long long)o->value, (long long)o->min, (long long)o->max);
            break;
        case OPT_CHECK:
            uci_send(u, "option name %s type check default %s", o->name,
                     o->value ? "true" : "false");
            break;
        case OPT_STRING:
            uci_send(u, "option name %s type string default %s", o->name,
                     o->str[0] ? o->str : "<empty>");
            break;
        case OPT_BUTTON:
            uci_send(u, "option name %s type button", o->name);
            break;
        case OPT_COMBO: {
            char vars[1024] = "";
            const char *p = o->combo_values;
            while (p && *p) {
                const char *bar = strchr(p, '|');
                size_t len = bar ? (size_t)(bar - p) : strlen(p);
                size_t used = strlen(vars);
                snprintf(vars + used, sizeof vars - used, " var %.*s", (int)len, p);
                p = bar ? bar + 1 : p + len;
            }
            uci_send(u, "option name %s type combo default %s%s", o->name, o->str, vars);
            break;
        }
        }
    }
    uci_send(u, "uciok");
}

/* setoption name <name with spaces> [value <value with spaces>] */
static void cmd_setoption(UciState *u, char **tok, int n)
{
    if (n < 3 || strcmp(tok[1], "name")) {
        uci_send(u, "info string error: usage: setoption name <name> [value <value>]");
        return;
    }
    char name[256] = "", value[1024] = "";
    int i = 2;
    for (; i < n && strcmp(tok[i], "value"); i++) {
        if (name[0])
            strncat(name, " ", sizeof name - strlen(name) - 1);
        strncat(name, tok[i], sizeof name - strlen(name) - 1);
    }
    bool has_value = i < n;
    for (i++; i < n; i++) {
        if (value[0])
            strncat(value, " ", sizeof value - strlen(value) - 1);
        strncat(value, tok[i], sizeof value - strlen(value) - 1);
    }
    if (!strcmp(value, "<empty>"))
        value[0] = '\0';
    Option *o = options_find(engine_options(u->engine), name);
    if (o && o->type != OPT_BUTTON && o->type != OPT_STRING && !has_value) {
        uci_send(u, "info string error: option '%s' needs a value", o->name);
        return;
    }
    char err[256];
    if (!engine_set_option(u->engine, name, value, OPT_SOURCE_GUI, err, sizeof err))
        uci_send(u, "info string error: %s", err);
    else if (err[0])
        uci_send(u, "info string warning: %s", err);
    else if (u->debug)
        uci_send(u, "info string %s set", name);
}

/* position startpos|fen <fields> [moves <m1> <m2> ...] */
/* A search still running (or still winding down after `stop`) ends, with its bestmove,
 * before the position changes or a new search starts: a GUI that does not wait for
 * bestmove must not have its next `go` refused. */
static void finish_search(UciState *u)
{
    if (engine_is_searching(u->engine)) {
        if (!engine_perft_running(u->engine)) /* a perft is bounded: it finishes */
            engine_stop(u->engine);
        engine_wait(u->engine);
    }
}

static void cmd_position(UciState *u, char **tok, int n)
{
    if (n < 2) {
        uci_send(u, "info string error: usage: position startpos|fen <FEN> [moves ...]");
        return;
    }
    int i = 1;
    char fen[512] = "";
    bool startpos = false;
    if (!strcmp(tok[1], "startpos")) {
        startpos = true;
        i = 2;
    } else if (!strcmp(tok[1], "fen")) {
        for (i = 2; i < n && strcmp(tok[i], "moves"); i++) {
            if (fen[0])
                strncat(fen, " ", sizeof fen - strlen(fen) - 1);
            strncat(fen, tok[i], sizeof fen - strlen(fen) - 1);
        }
        if (!fen[0]) {
            uci_send(u, "info string error: position fen: missing FEN");
            return;
        }
    } else {
        uci_send(u, "info string error: position: expected 'startpos' or 'fen', got '%s'", tok[1]);
        return;
    }
    const char *const *moves = NULL;
    int move_count = 0;
    if (i < n) {
        if (strcmp(tok[i], "moves")) {
            uci_send(u, "info string error: position: unexpected '%s'", tok[i]);
            return;
        }
        moves = (const char *const *)&tok[i + 1];
        move_count = n - i - 1;
    }
    finish_search(u);
    char err[256];
    if (!engine_set_position(u->engine, startpos ? NULL : fen, moves, move_count, err, sizeof err))
        uci_send(u, "info string error: %s; position unchanged", err);
}

static bool parse_int64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno)
        return false;
    *out = v;
    return true;
}

static bool is_go_keyword(const char *s)
{
    static const char *const words[] = { "wtime", "btime", "winc", "binc", "movestogo", "movetime",
                                         "depth", "nodes", "mate", "infinite", "ponder",
                                         "searchmoves", "perft" };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (!strcmp(s, words[i]))
            return true;
    return false;
}

static void cmd_go(UciState *u, char **tok, int n)
{
    SearchLimits limits;
    limits_init(&limits);
    const Position *pos = engine_position(u->engine);
    bool malformed = false; /* a limit we could not read: see below */
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        if (!strcmp(k, "infinite"))
            limits.infinite = true;
        else if (!strcmp(k, "ponder"))
            limits.ponder = true;
        else if (!strcmp(k, "searchmoves")) {
            for (; i + 1 < n && !is_go_keyword(tok[i + 1]); i++) {
                Move m = move_from_uci(pos, tok[i + 1]);
                if (m == MOVE_NONE)
                    uci_send(u, "info string error: searchmoves: illegal move '%s' ignored",
                             tok[i + 1]);
                else if (limits.searchmoves_count < MAX_MOVES)
                    limits.searchmoves[limits.searchmoves_count++] = m;
            }
        } else if (is_go_keyword(k)) {
            int64_t v;
            /* A clock that went past zero (some GUIs send it) counts as zero: move at once. */
            bool clock = !strcmp(k, "wtime") || !strcmp(k, "btime");
            if (i + 1 >= n || !parse_int64(tok[i + 1], &v) || (v < 0 && !clock)) {
                uci_send(u, "info string error: go %s: expected a non-negative number%s%s", k,
                     i + 1 < n ? ", got " : "", i + 1 < n ? tok[i + 1] : "");
                if (i + 1 < n && !is_go_keyword(tok[i + 1]))
                    i++;
                malformed = true;
                continue;
            }
            i++;
            if (!strcmp(k, "perft")) {
                if (v < 1 || v > 20) {
                    uci_send(u, "info string error: perft depth must be 1..20");
                    return;
                }
                /* On the search thread: stop, isready and quit are answered meanwhile. */
                char err[160];
                finish_search(u);
                if (!engine_perft(u->engine, (int)v, u->out, err, sizeof err))
                    uci_send(u, "info string error: %s", err);
                return;
            }
            int64_t ms = limits_clamp_ms(v);
            /* 0 is "as little as possible", not "no limit": one ply, one node, 1 ms (the
             * search always completes depth 1, so there is a move to play). */
            if (!strcmp(k, "wtime")) limits.time[WHITE] = ms;
            else if (!strcmp(k, "btime")) limits.time[BLACK] = ms;
            else if (!strcmp(k, "winc")) limits.inc[WHITE] = ms;
            else if (!strcmp(k, "binc")) limits.inc[BLACK] = ms;
            else if (!strcmp(k, "movestogo")) limits.movestogo = (int)(v > 1000 ? 1000 : v);
            else if (!strcmp(k, "movetime")) limits.movetime = ms > 0 ? ms : 1;
            else if (!strcmp(k, "depth"))
                limits.depth = (int)(v >= MAX_PLY ? MAX_PLY - 1 : v > 0 ? v : 1);
            else if (!strcmp(k, "nodes")) limits.nodes = v > 0 ? (uint64_t)v : 1;
            else if (!strcmp(k, "mate") && v > 0)
                limits.mate = (int)(v > MAX_PLY / 2 ? MAX_PLY / 2 : v);
            else if (!strcmp(k, "mate")) limits.depth = 1; /* mate in 0: nothing to look for */
        } else {
            uci_send(u, "info string error: go: unknown parameter '%s'", k);
            malformed = true;
        }
    }
    /* The GUI meant a limit we could not read: searching without it could run forever or
     * past the clock, so the move comes at once (depth 1) instead. */
    if (malformed) {
        SearchLimits quick;
        limits_init(&quick);
        quick.depth = 1;
        quick.searchmoves_count = limits.searchmoves_count;
        memcpy(quick.searchmoves, limits.searchmoves, sizeof quick.searchmoves);
        limits = quick;
        uci_send(u, "info string error: go: malformed command, searching to depth 1 only");
    }
    static const SearchReporter reporter_template = { on_iteration, on_currmove, on_bestmove, NULL,
                                                      on_book, on_info };
    SearchReporter reporter = reporter_template;
    reporter.ctx = u;
    char err[160];
    finish_search(u);
    pthread_mutex_lock(&u->info_lock);
    u->last_info[0] = '\0';
    u->ponderhit_unanswered = false;
    pthread_mutex_unlock(&u->info_lock);
    const EcoEntry *here;
    const EcoEntry *opening = engine_opening(u->engine, &here);
    if (here) /* named only while the game is in known opening positions */
        uci_send(u, "info string opening %s %s", opening->code, opening->name);
    u->show_wdl = option_bool(engine_options(u->engine), OPT_UCI_SHOW_WDL);
    u->material = wdl_material(engine_position(u->engine));
    if (!engine_go(u->engine, &limits, &reporter, err, sizeof err))
        uci_send(u, "info string error: %s", err);
}

/* Returns false on quit. */
static bool handle_line(UciState *u, const char *raw)
{
    static _Thread_local char line[PROTOCOL_LINE_MAX];
    static _Thread_local char *tok[MAX_TOKENS];
    snprintf(line, sizeof line, "%s", raw);
    int n = words_split(line, tok, MAX_TOKENS);
    if (n < 0) {
        uci_send(u, "info string error: more than %d words in one command", MAX_TOKENS);
        return true;
    }
    if (n == 0)
        return true;
    const char *cmd = tok[0];
    Engine *e = u->engine;

    if (!strcmp(cmd, "uci"))
        cmd_uci(u);
    else if (!strcmp(cmd, "isready"))
        uci_send(u, "readyok");
    else if (!strcmp(cmd, "ucinewgame")) {
        engine_game_over(e, -1); /* the game seen through `position`, if any, is over */
        engine_new_game(e);
    }
    else if (!strcmp(cmd, "setoption"))
        cmd_setoption(u, tok, n);
    else if (!strcmp(cmd, "position"))
        cmd_position(u, tok, n);
    else if (!strcmp(cmd, "go"))
        cmd_go(u, tok, n);
    else if (!strcmp(cmd, "stop"))
        engine_stop(e);
    else if (!strcmp(cmd, "ponderhit")) {
        pthread_mutex_lock(&u->info_lock);
        u->ponderhit_unanswered = engine_is_searching(e);
        pthread_mutex_unlock(&u->info_lock);
        engine_ponderhit(e);
    }
    else if (!strcmp(cmd, "quit")) {
        engine_stop(e);
        engine_wait(e);
        engine_game_over(e, -1);
        return false;
    } else if (!strcmp(cmd, "debug")) {
        if (n >= 2 && !strcmp(tok[1], "on"))
            u->debug = true;
        else if (n >= 2 && !strcmp(tok[1], "off"))
            u->debug = false;
        else
            uci_send(u, "info string error: usage: debug on|off");
    } else {
        if (engine_perft_running(e))
            engine_wait(e); /* commands piped after a perft run after it */
        if (engine_is_searching(e)) {
            uci_send(u, "info string error: '%s' is not allowed during a search", cmd);
            return true;
        }
        char err[512];
        CommandInput input = {.in = u->in};
        bool handled = commands_run(e, raw, &input, u->out, err, sizeof err);
        if (input.quit)
            return false;
        if (!handled)
            uci_send(u, "info string error: unknown command '%s'", cmd);
        else if (err[0])
            uci_send(u, "info string error: %s", err);
    }
    return true;
}

int uci_loop(Engine *e, FILE *in, Writer *out, const char *first_line)
{
    UciState u;
    memset(&u, 0, sizeof u);
    u.engine = e;
    u.in = in;
    u.out = out;
    pthread_mutex_init(&u.info_lock, NULL);

    bool running = first_line ? handle_line(&u, first_line) : true;
    static char line[PROTOCOL_LINE_MAX];
    while (running) {
        /* The GUI gone (a write to it failed) is the end of input: the game is saved. */
        if (writer_failed(out))
            break;
        LineStatus st = iolog_read_line(out->log, in, line, sizeof line);
        if (st == LINE_END || st == LINE_ERROR)
            break;
        if (st == LINE_TOO_LONG)
            uci_send(&u, "info string error: line too long, ignored");
        else if (st == LINE_HAS_NUL)
            uci_send(&u, "info string error: line holds a NUL byte, ignored");
        else
            running = handle_line(&u, line);
        char msg[700];
        while (engine_take_message(e, msg, sizeof msg))
            uci_send(&u, "info string %s", msg);
    }
    if (running) {
        /* End of input means quit, at once: nobody is left to wait for the move. A
         * perft piped in (bounded work) is counted to its end. */
        if (!engine_perft_running(e))
            engine_stop(e);
        engine_wait(e);
        engine_game_over(e, -1);
    }
    pthread_mutex_destroy(&u.info_lock);
    return 0;
}
