/* xboard protocol front end (see xboard.h): a reader thread queues input lines; the main
 * loop takes lines and search ends from that queue in order, so `ping` is answered only
 * after everything before it (including a move being thought about) is done, while `?`,
 * `force`, `new`, `result` and `quit` act at once during a search. */
#include "protocol/xboard.h"

#include <ctype.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "commands/commands.h"
#include "protocol/xbedit.h"
#include "protocol/xbgame.h"
#include "protocol/xbio.h"
#include "protocol/xbopts.h"
#include "protocol/xbsearch.h"
#include "protocol/xbserver.h"
#include "protocol/xbtime.h"

/* One xboard session: the parts, each owned by its file, and the mode kept here. */
typedef struct {
    Engine *engine;
    XbOut out;                   /* xbio.c */
    XbInput input;               /* xbio.c */
    XbGame game;                 /* xbgame.c */
    XbClock clock;               /* xbtime.c */
    XbSearch search;             /* xbsearch.c */
    XbServer server;             /* xbserver.c */

    /* Who plays what. */
    bool force;
    Color engine_side;
    bool analyzing;
    bool ponder_enabled;         /* hard / easy */
    bool edit_mode;
    XbEdit edit;
    bool debug_ok;               /* GUI accepted feature debug=1 */
} Xb;

/* ---- helpers ---- */

static void error_reply(Xb *xb, const char *kind, const char *line)
{
    xb_send(&xb->out, "Error (%s): %s", kind, line);
}

/* The game starts again from fen, the engine's position now. */
static void reset_game(Xb *xb, const char *fen)
{
    xbgame_reset(&xb->game, fen, engine_position(xb->engine)->side);
}

static void stop_search(Xb *xb)
{
    xbsearch_stop(&xb->search, xb->engine, &xb->game);
}

/* ---- commands ---- */

static void cmd_new(Xb *xb)
{
    char err[160];
    /* new: normal chess */
    engine_set_option_id(xb->engine, OPT_UCI_CHESS960, "false", OPT_SOURCE_GUI, err, sizeof err);
    engine_new_game(xb->engine);
    reset_game(xb, START_FEN);
    xb->force = false;
    xb->engine_side = BLACK;
    xbclock_new_game(&xb->clock);
    xbserver_new_game(&xb->server);
}

/* A move from the opponent (usermove or a bare move). */
static void cmd_move(Xb *xb, const char *text, const char *line)
{
    Engine *e = xb->engine;
    XbGame *g = &xb->game;
    if (!g->position_valid) {
        xb_send(&xb->out, "Illegal move (no valid position): %s", text);
        return;
    }
    const Position *pos =
        xb->search.kind == XS_PONDER ? xb->search.ponder_base : engine_position(e);
    Move m = xbgame_parse_move(pos, text);
    if (m == MOVE_NONE) {
        if (xbgame_looks_like_move(text))
            xb_send(&xb->out, "Illegal move%s: %s", in_check(pos) ? " (in check)" : "", text);
        else
            error_reply(xb, "unknown command", line);
        return;
    }
    if (!xbsearch_ponder_hit(&xb->search, e, g, m)) {
        engine_make_move(e, m);
        xbgame_push(g, m);
        g->game_over = false; /* play goes on, whatever was claimed or sent before */
        if (xbgame_claim_if_over(g, engine_position(e), &xb->out))
            return;
        if (!xb->force && !xb->analyzing && engine_position(e)->side == xb->engine_side)
            xbsearch_think(&xb->search, e, g, &xb->clock);
    } else if (xbgame_claim_if_over(g, engine_position(e), &xb->out)) {
        stop_search(xb);
    }
}

static void cmd_exclude(Xb *xb, bool exclude, const char *arg)
{
    const Position *pos = engine_position(xb->engine);
    if (!strcmp(arg, "all")) {
        xbgame_exclude_all(&xb->game, pos, exclude);
        return;
    }
    Move m = xbgame_parse_move(pos, arg);
    if (m == MOVE_NONE)
        xb_send(&xb->out, "Illegal move: %s", arg);
    else
        xbgame_exclude(&xb->game, m, exclude);
}

static void cmd_setboard(Xb *xb, const char *fen, const char *line)
{
    char err[200];
    if (!engine_set_position(xb->engine, fen, NULL, 0, err, sizeof err)) {
        xb_send(&xb->out, "Error (illegal position: %s): %s", err, line);
        return;
    }
    char normal[128];
    position_to_fen(engine_position(xb->engine), normal);
    reset_game(xb, normal);
    xbserver_new_game(&xb->server);
}

static void finish_edit(Xb *xb)
{
    xb->edit_mode = false;
    char fen[128], err[200];
    xbedit_fen(&xb->edit, engine_position(xb->engine)->side, fen, sizeof fen);
    if (!engine_set_position(xb->engine, fen, NULL, 0, err, sizeof err)) {
        xb_send(&xb->out, "tellusererror Illegal position: %s", err);
        xb->game.position_valid = false;
        return;
    }
    reset_game(xb, fen);
}

/* Splits "cmd rest": writes the command word to cmd, returns the rest (trimmed). */
static const char *split(const char *line, char *cmd, size_t size)
{
    while (isspace((unsigned char)*line))
        line++;
    size_t n = 0;
    while (line[n] && !isspace((unsigned char)line[n]) && n + 1 < size) {
        cmd[n] = line[n];
        n++;
    }
    cmd[n] = '\0';
    const char *rest = line + n;
    while (*rest && !isspace((unsigned char)*rest))
        rest++; /* an over-long command word */
    while (isspace((unsigned char)*rest))
        rest++;
    return rest;
}

static bool is_one_of(const char *cmd, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(cmd, *list))
            return true;
    return false;
}

/* Commands that never touch the board or the search: fine during any search. */
static const char *const HARMLESS[] = {"time", "otim", "post", "nopost", "hint", "bk", "computer",
                                       "name", "rating", "ics", "accepted", "rejected", "random",
                                       "draw", "hard", "xboard", "protover", ".", NULL};
/* Commands handled at once while thinking on our move (the rest waits for the move). */
static const char *const AT_ONCE_WHILE_THINKING[] = {"?", "force", "new", "result", "quit",
                                                     "easy", "exit", NULL};

/* Commands whose arguments are short words or numbers (see dispatch). */
static const char *const NUMERIC_ARGS[] = {"level", "st", "sd", "nps", "time", "otim", "ping",
                                           "rating", "memory", "cores", NULL};

/* Commands that keep their meaning in edit mode (no edit subcommand looks like them). */
static const char *const EDIT_PASSTHROUGH[] = {"quit", "ping", "force", NULL};

static bool dispatch(Xb *xb, const char *line, const char *cmd, const char *rest);

static void start_analyze(Xb *xb)
{
    xbsearch_analyze(&xb->search, xb->engine, &xb->game);
}

/* Handles one input line; false on quit. */
static bool handle_line(Xb *xb, const char *line)
{
    char cmd[64];
    const char *rest = split(line, cmd, sizeof cmd);
    if (!cmd[0])
        return true;
    /* Mid-edit the protocol's own commands still work: quit, ping and force at once
     * (the edit goes on), new and setboard drop the edit (they replace the board). */
    if (xb->edit_mode && (!strcmp(cmd, "new") || !strcmp(cmd, "setboard")))
        xb->edit_mode = false;
    if (xb->edit_mode && !is_one_of(cmd, EDIT_PASSTHROUGH)) {
        if (!strcmp(cmd, "."))
            finish_edit(xb);
        else if (!xbedit_command(&xb->edit, cmd))
            error_reply(xb, "bad edit command", line);
        if (!xb->edit_mode && xb->analyzing && xb->search.kind == XS_IDLE)
            start_analyze(xb);
        return true;
    }
    bool harmless = is_one_of(cmd, HARMLESS);
    if (xb->search.kind == XS_THINK && !harmless && !is_one_of(cmd, AT_ONCE_WHILE_THINKING)) {
        xbinput_defer(&xb->input, line); /* ping, moves, ...: after our move */
        return true;
    }
    bool is_move = !strcmp(cmd, "usermove") || (!harmless && xbgame_looks_like_move(cmd));
    if (xb->search.kind == XS_PONDER && !harmless && !is_move && strcmp(cmd, "ping"))
        stop_search(xb);
    /* In analyze mode a command that may change the board restarts the analysis, also
     * when none was running (the board had no legal move or was not valid). */
    bool restart = false;
    XbSearchKind search = xb->search.kind;
    if (xb->analyzing && (search == XS_ANALYZE || search == XS_IDLE) && !harmless
        && strcmp(cmd, "ping")) {
        stop_search(xb);
        restart = true;
    }
    bool running = dispatch(xb, line, cmd, rest);
    if (restart && running && xb->analyzing && !xb->edit_mode && xb->search.kind == XS_IDLE)
        start_analyze(xb);
    char msg[700];
    while (engine_take_message(xb->engine, msg, sizeof msg))
        xb_send(&xb->out, "# %s", msg);
    return running;
}

/* A line no xboard command claims: one of the console commands, or unknown. */
static void console_command(Xb *xb, const char *line)
{
    char err[512];
    XbWatch watch = {&xb->input, xb->out.writer, false};
    CommandInput input = {.stop_requested = xbwatch_stop_requested, .ctx = &watch};
    bool handled = commands_run(xb->engine, line, &input, watch.out, err, sizeof err);
    if (!handled)
        error_reply(xb, "unknown command", line);
    else if (err[0])
        error_reply(xb, err, line);
}

static bool dispatch(Xb *xb, const char *line, const char *cmd, const char *rest)
{
    Engine *e = xb->engine;
    XbOut *out = &xb->out;
    char a1[64] = "", a2[64] = "", a3[64] = "";
    sscanf(rest, "%63s %63s %63s", a1, a2, a3);
    /* A number cut to fit a1..a3 would be read as another value ("sd 000...05"). */
    if ((strlen(a1) == 63 || strlen(a2) == 63 || strlen(a3) == 63)
        && is_one_of(cmd, NUMERIC_ARGS)) {
        if (!strcmp(cmd, "ping"))
            xb_send(out, "pong %s", rest);
        else
            error_reply(xb, "argument too long", line);
        return true;
    }

    if (!strcmp(cmd, "xboard")) {
    } else if (!strcmp(cmd, "protover")) {
        xbopts_send_features(e, out);
    } else if (!strcmp(cmd, "accepted") || !strcmp(cmd, "rejected")) {
        if (!strcmp(a1, "debug"))
            xb->debug_ok = cmd[0] == 'a';
    } else if (!strcmp(cmd, "new")) {
        stop_search(xb);
        cmd_new(xb);
    } else if (!strcmp(cmd, "variant")) {
        /* Chess960 (its start position comes with setboard): castling as O-O/O-O-O. */
        char err[160];
        bool fischer = !strcmp(a1, "fischerandom");
        if (strcmp(a1, "normal") && !fischer)
            error_reply(xb, "unsupported variant", line);
        else if (!engine_set_option_id(e, OPT_UCI_CHESS960, fischer ? "true" : "false",
                                       OPT_SOURCE_GUI, err, sizeof err))
            error_reply(xb, err, line);
    } else if (!strcmp(cmd, "force")) {
        stop_search(xb);
        xb->force = true;
    } else if (!strcmp(cmd, "go")) {
        xb->force = false;
        xb->engine_side = engine_position(e)->side;
        if (!xb->game.position_valid)
            error_reply(xb, "no valid position: set one with setboard or edit", line);
        else
            xbsearch_think(&xb->search, e, &xb->game, &xb->clock);
    } else if (!strcmp(cmd, "playother")) {
        xb->force = false;
        xb->engine_side = engine_position(e)->side ^ 1;
    } else if (!strcmp(cmd, "white") || !strcmp(cmd, "black")) {
        Color side = cmd[0] == 'w' ? WHITE : BLACK;
        xbgame_set_side(&xb->game, e, side);
        xb->engine_side = side ^ 1;
    } else if (xbclock_is_command(cmd)) {
        char err[160];
        if (!xbclock_command(&xb->clock, cmd, a1, a2, a3, err, sizeof err))
            error_reply(xb, err, line);
        else if (!strcmp(cmd, "level"))
            xb->game.level_ply = xb->game.move_count;
    } else if (!strcmp(cmd, "usermove")) {
        cmd_move(xb, a1, line);
    } else if (!strcmp(cmd, "?")) {
        if (xb->search.kind == XS_THINK)
            engine_stop(e);
    } else if (!strcmp(cmd, "ping")) {
        xb_send(out, "pong %s", a1);
    } else if (!strcmp(cmd, "draw")) {
        if (!xb->game.game_over)
            xbserver_draw_offered(&xb->server, e, out);
    } else if (!strcmp(cmd, "result")) {
        stop_search(xb);
        xb->game.game_over = true;
        /* Into the learning file: 1 White won, 2 Black won, 3 draw, 0 unknown. */
        engine_game_over(e, !strcmp(a1, "1-0")       ? 1
                            : !strcmp(a1, "0-1")     ? 2
                            : !strcmp(a1, "1/2-1/2") ? 3
                                                     : 0);
    } else if (!strcmp(cmd, "setboard")) {
        cmd_setboard(xb, rest, line);
    } else if (!strcmp(cmd, "edit")) {
        xb->edit_mode = true;
        xbedit_begin(&xb->edit, engine_position(e));
    } else if (!strcmp(cmd, "undo") || !strcmp(cmd, "remove")) {
        if (!xbgame_undo(&xb->game, e, out, cmd[0] == 'u' ? 1 : 2))
            error_reply(xb, "command not legal now", line);
    } else if (!strcmp(cmd, "hint")) {
        xbsearch_send_hint(&xb->search, e, &xb->game);
    } else if (!strcmp(cmd, "bk")) {
        xbsearch_send_book(&xb->search, e);
    } else if (!strcmp(cmd, "hard") || !strcmp(cmd, "easy")) {
        xb->ponder_enabled = cmd[0] == 'h';
        if (!xb->ponder_enabled && xb->search.kind == XS_PONDER)
            stop_search(xb);
    } else if (!strcmp(cmd, "post") || !strcmp(cmd, "nopost")) {
        atomic_store(&xb->search.post, cmd[0] == 'p');
    } else if (!strcmp(cmd, "analyze")) {
        xb->analyzing = true;
        xb->force = true;
        if (!xb->game.position_valid) /* analysis starts once an edit or setboard gives one */
            error_reply(xb, "no valid position: set one with setboard or edit", line);
        else
            start_analyze(xb);
    } else if (!strcmp(cmd, "exit")) {
        stop_search(xb);
        xb->analyzing = false;
    } else if (!strcmp(cmd, ".")) {
        xbsearch_send_status(&xb->search, e);
    } else if (!strcmp(cmd, "name")) {
        xbserver_name(&xb->server, rest);
    } else if (!strcmp(cmd, "rating")) {
        xbserver_rating(&xb->server, e, out, a1, a2, a3, line);
    } else if (!strcmp(cmd, "ics")) {
        xbserver_ics(&xb->server, a1);
    } else if (!strcmp(cmd, "computer")) {
        xbserver_computer(&xb->server, e, out);
    } else if (!strcmp(cmd, "memory")) {
        xbopts_memory(e, out, a1, line);
    } else if (!strcmp(cmd, "cores")) {
        xbopts_cores(e, out, a1, line);
    } else if (!strcmp(cmd, "egtpath")) {
        const char *path = rest;
        while (*path && !isspace((unsigned char)*path))
            path++;
        while (isspace((unsigned char)*path))
            path++;
        xbopts_egtpath(e, out, a1, path, line);
    } else if (!strcmp(cmd, "option")) {
        xbopts_option(e, out, rest, line);
    } else if (!strcmp(cmd, "exclude") || !strcmp(cmd, "include")) {
        cmd_exclude(xb, cmd[0] == 'e', a1);
    } else if (!strcmp(cmd, "random")) {
    } else if (!strcmp(cmd, "quit")) {
        stop_search(xb);
        return false;
    } else if (xbgame_looks_like_move(cmd)) {
        cmd_move(xb, cmd, line);
    } else {
        console_command(xb, line);
    }
    return true;
}

/* ---- the loop ---- */

static void xb_free(Xb *xb)
{
    xbsearch_free(&xb->search);
    xbserver_free(&xb->server);
    xbgame_free(&xb->game);
    xbinput_destroy(&xb->input);
    free(xb);
}

static Xb *xb_new(Engine *e, Writer *out)
{
    Xb *xb = calloc(1, sizeof *xb);
    if (!xb)
        return NULL;
    xb->engine = e;
    xbout_init(&xb->out, out);
    xbinput_init(&xb->input);
    bool search_ok = xbsearch_init(&xb->search, &xb->out, &xb->input);
    bool server_ok = xbserver_init(&xb->server);
    if (!search_ok || !server_ok) {
        if (search_ok)
            xbsearch_free(&xb->search);
        xbserver_free(&xb->server);
        xbinput_destroy(&xb->input);
        free(xb);
        return NULL;
    }
    xbclock_init(&xb->clock);
    char fen[128];
    position_to_fen(engine_position(e), fen);
    reset_game(xb, fen);
    xb->engine_side = BLACK;
    xb->force = false;
    return xb;
}

/* Runs deferred commands once the engine is no longer thinking on its move. */
static bool run_deferred(Xb *xb)
{
    while (xb->search.kind != XS_THINK) {
        char *line = xbinput_next_deferred(&xb->input);
        if (!line)
            break;
        bool running = handle_line(xb, line);
        free(line);
        if (!running)
            return false;
    }
    return true;
}

static void search_finished(Xb *xb)
{
    xbsearch_finished(&xb->search, xb->engine, &xb->game, &xb->clock, &xb->server,
                      xb->ponder_enabled && !xb->force);
}

int xboard_loop(Engine *e, FILE *in, Writer *out, const char *first_line)
{
    Xb *xb = xb_new(e, out);
    if (!xb || !xbinput_start(&xb->input, in, out->log)) {
        writer_send(out, "tellusererror cannot start the xboard session");
        if (xb)
            xb_free(xb);
        return 1;
    }
    signal(SIGINT, SIG_IGN); /* old GUIs may send it; we poll input anyway */

    bool running = first_line ? handle_line(xb, first_line) : true;
    while (running) {
        char *line = NULL;
        /* The GUI gone (a write to it failed) is the end of input: the game is saved. */
        XbEvent ev = writer_failed(out) ? XB_EVENT_INPUT_CLOSED : xbinput_wait(&xb->input, &line);
        if (ev == XB_EVENT_SEARCH_DONE) {
            search_finished(xb);
            running = run_deferred(xb);
        } else if (ev == XB_EVENT_LINE_REFUSED) {
            xb_send(&xb->out, "Error (%s): ignored", line);
            free(line);
        } else if (ev == XB_EVENT_LINE) {
            running = handle_line(xb, line);
            free(line);
            /* A search stopped without a move (force, new, result) releases what waited. */
            if (running)
                running = run_deferred(xb);
        } else if (xb->search.kind == XS_THINK) {
            /* End of input means quit, at once: the move being thought about is cut
             * short and played (and the commands held back behind it run). */
            engine_stop(e);
            engine_wait(e);
            search_finished(xb);
            running = run_deferred(xb);
        } else {
            if (xb->search.kind == XS_IDLE && engine_perft_running(e))
                engine_wait(e); /* a perft piped in is counted to its end */
            stop_search(xb);
            running = false;
        }
    }
    stop_search(xb);
    xbinput_stop(&xb->input);
    xb_free(xb);
    return 0;
}
