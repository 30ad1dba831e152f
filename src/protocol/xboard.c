/* xboard protocol front end (see xboard.h): a reader thread queues input lines; the main
 * loop takes lines and search ends from that queue in order, so `ping` is answered only
 * after everything before it (including a move being thought about) is done, while `?`,
 * `force`, `new`, `result` and `quit` act at once during a search. */
#define _GNU_SOURCE
#include "protocol/xboard.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/commands.h"
#include "engine/config.h"
#include "board/movegen.h"
#include "board/notation.h"
#include "protocol/xbstate.h"
#include "util/words.h"

/* Node rates above this (nps) are cut to it: the node budget is rate times time. */
#define XB_MAX_NPS 1000000000LL

/* ---- helpers ---- */

static void error_reply(Xb *xb, const char *kind, const char *line)
{
    xb_send(xb, "Error (%s): %s", kind, line);
}

/* Whether text has the shape of a move (coordinate or SAN), legal or not. */
static bool looks_like_move(const char *s)
{
    size_t n = strlen(s);
    while (n > 0 && strchr("+#!?", s[n - 1]))
        n--;
    if (n == 0)
        return false;
    if ((n == 3 || n == 5) && (!strncmp(s, "O-O", n) || !strncmp(s, "0-0", n) || !strncmp(s, "O-O-O", n) || !strncmp(s, "0-0-0", n)))
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
        } else if (!(c == 'x' || c == '-' || c == '=' || (c >= 'a' && c <= 'h') || (c >= '1' && c <= '8')
                     || (i == n - 1 && strchr("NBRQnbrq", c))))
            return false;
    }
    return squares >= 1;
}

/* A rating as the protocol sends it: a whole number, 0 for unrated. */
static bool rating_value(const char *s, long *out)
{
    return word_to_long(s, 0, 9999, out);
}

static Move parse_move(const Position *pos, const char *text)
{
    Move m = move_from_uci(pos, text);
    return m != MOVE_NONE ? m : move_from_san(pos, text);
}

/* Sets the side to move (the obsolete white/black commands) keeping the pieces. */
static void set_side_to_move(Xb *xb, Color side)
{
    const Position *pos = engine_position(xb->engine);
    if (pos->side == side)
        return;
    char fen[128], board[100], castle[8];
    position_to_fen(pos, fen);
    if (sscanf(fen, "%99s %*s %7s", board, castle) != 2)
        return;
    snprintf(fen, sizeof fen, "%s %c %s - 0 1", board, side == WHITE ? 'w' : 'b', castle);
    char err[200];
    if (engine_set_position(xb->engine, fen, NULL, 0, err, sizeof err))
        xb_game_reset(xb, fen);
}

static void update_opponent(Xb *xb)
{
    engine_set_opponent(xb->engine, &xb->opponent, xb->own_rating);
    xb_trace(xb, "opponent %s rating %d%s, own rating %d: contempt %d", xb->opponent_name,
             xb->opponent.rating, xb->opponent.computer ? " (computer)" : "", xb->own_rating,
             engine_contempt(xb->engine));
}

/* ---- commands ---- */

static void cmd_new(Xb *xb)
{
    engine_new_game(xb->engine);
    xb_game_reset(xb, START_FEN);
    xb->force = false;
    xb->engine_side = BLACK;
    xbclock_new_game(&xb->clock);
    manners_reset(&xb->manners);
}

/* A move from the opponent (usermove or a bare move). */
static void cmd_move(Xb *xb, const char *text, const char *line)
{
    if (!xb->position_valid) {
        xb_send(xb, "Illegal move (no valid position): %s", text);
        return;
    }
    const Position *pos = xb->search == XS_PONDER ? xb->ponder_base : engine_position(xb->engine);
    Move m = parse_move(pos, text);
    if (m == MOVE_NONE) {
        if (looks_like_move(text))
            xb_send(xb, "Illegal move%s: %s", in_check(pos) ? " (in check)" : "", text);
        else
            error_reply(xb, "unknown command", line);
        return;
    }
    if (!xb_ponder_hit(xb, m)) {
        engine_make_move(xb->engine, m);
        xb_game_push(xb, m);
        xb->game_over = false; /* play goes on, whatever was claimed or sent before */
        if (xb_claim_if_over(xb))
            return;
        if (!xb->force && !xb->analyzing && engine_position(xb->engine)->side == xb->engine_side)
            xb_start_think(xb);
    } else if (xb_claim_if_over(xb)) {
        xb_stop_search(xb);
    }
}

static void cmd_exclude(Xb *xb, bool exclude, const char *arg, const char *line)
{
    const Position *pos = engine_position(xb->engine);
    if (!strcmp(arg, "all")) {
        xb->excluded_count = 0;
        if (exclude) {
            MoveList list;
            generate_legal(pos, &list);
            for (int i = 0; i < list.count; i++)
                xb->excluded[xb->excluded_count++] = list.moves[i];
        }
        return;
    }
    Move m = parse_move(pos, arg);
    if (m == MOVE_NONE) {
        xb_send(xb, "Illegal move: %s", arg);
        return;
    }
    int found = -1;
    for (int i = 0; i < xb->excluded_count; i++)
        if (xb->excluded[i] == m)
            found = i;
    if (exclude && found < 0 && xb->excluded_count < MAX_MOVES)
        xb->excluded[xb->excluded_count++] = m;
    else if (!exclude && found >= 0)
        xb->excluded[found] = xb->excluded[--xb->excluded_count];
    (void)line;
}

static void cmd_setboard(Xb *xb, const char *fen, const char *line)
{
    char err[200];
    if (!engine_set_position(xb->engine, fen, NULL, 0, err, sizeof err)) {
        xb_send(xb, "Error (illegal position: %s): %s", err, line);
        return;
    }
    char normal[128];
    position_to_fen(engine_position(xb->engine), normal);
    xb_game_reset(xb, normal);
    manners_reset(&xb->manners);
}

static void finish_edit(Xb *xb)
{
    xb->edit_mode = false;
    char fen[128], err[200];
    xbedit_fen(&xb->edit, engine_position(xb->engine)->side, fen, sizeof fen);
    if (!engine_set_position(xb->engine, fen, NULL, 0, err, sizeof err)) {
        xb_send(xb, "tellusererror Illegal position: %s", err);
        xb->position_valid = false;
        return;
    }
    xb_game_reset(xb, fen);
}

static void cmd_hint(Xb *xb)
{
    const Position *pos = engine_position(xb->engine);
    if (xb->search == XS_PONDER)
        pos = xb->ponder_base;
    Move m = xb->search == XS_PONDER ? xb->ponder_move : xb->hint_move;
    if (m != MOVE_NONE && move_is_legal(pos, m)) {
        char san[16];
        Position *scratch = xb->main_scratch;
        *scratch = *pos;
        xb_send(xb, "Hint: %s", move_to_san(scratch, m, san));
    }
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
        if (!xb->edit_mode && xb->analyzing && xb->search == XS_IDLE)
            xb_start_analyze(xb);
        return true;
    }
    bool harmless = is_one_of(cmd, HARMLESS);
    if (xb->search == XS_THINK && !harmless && !is_one_of(cmd, AT_ONCE_WHILE_THINKING)) {
        xb_defer(xb, line); /* ping, moves, ...: after our move */
        return true;
    }
    bool is_move = !strcmp(cmd, "usermove") || (!harmless && looks_like_move(cmd));
    if (xb->search == XS_PONDER && !harmless && !is_move && strcmp(cmd, "ping"))
        xb_stop_search(xb);
    /* In analyze mode a command that may change the board restarts the analysis, also
     * when none was running (the board had no legal move or was not valid). */
    bool restart = false;
    if (xb->analyzing && (xb->search == XS_ANALYZE || xb->search == XS_IDLE) && !harmless
        && strcmp(cmd, "ping")) {
        xb_stop_search(xb);
        restart = true;
    }
    bool running = dispatch(xb, line, cmd, rest);
    if (restart && running && xb->analyzing && !xb->edit_mode && xb->search == XS_IDLE)
        xb_start_analyze(xb);
    return running;
}

static bool dispatch(Xb *xb, const char *line, const char *cmd, const char *rest)
{
    Engine *e = xb->engine;
    char a1[64] = "", a2[64] = "", a3[64] = "";
    sscanf(rest, "%63s %63s %63s", a1, a2, a3);
    /* A number cut to fit a1..a3 would be read as another value ("sd 000...05"). */
    if ((strlen(a1) == 63 || strlen(a2) == 63 || strlen(a3) == 63) && is_one_of(cmd, NUMERIC_ARGS)) {
        if (!strcmp(cmd, "ping"))
            xb_send(xb, "pong %s", rest);
        else
            error_reply(xb, "argument too long", line);
        return true;
    }

    if (!strcmp(cmd, "xboard")) {
    } else if (!strcmp(cmd, "protover")) {
        xb_send_features(xb);
    } else if (!strcmp(cmd, "accepted") || !strcmp(cmd, "rejected")) {
        if (!strcmp(a1, "debug"))
            xb->debug_ok = cmd[0] == 'a';
    } else if (!strcmp(cmd, "new")) {
        xb_stop_search(xb);
        cmd_new(xb);
    } else if (!strcmp(cmd, "variant")) {
        if (strcmp(a1, "normal"))
            error_reply(xb, "unsupported variant", line);
    } else if (!strcmp(cmd, "force")) {
        xb_stop_search(xb);
        xb->force = true;
    } else if (!strcmp(cmd, "go")) {
        xb->force = false;
        xb->engine_side = engine_position(e)->side;
        if (!xb->position_valid)
            error_reply(xb, "no valid position: set one with setboard or edit", line);
        else
            xb_start_think(xb);
    } else if (!strcmp(cmd, "playother")) {
        xb->force = false;
        xb->engine_side = engine_position(e)->side ^ 1;
    } else if (!strcmp(cmd, "white") || !strcmp(cmd, "black")) {
        Color side = cmd[0] == 'w' ? WHITE : BLACK;
        set_side_to_move(xb, side);
        xb->engine_side = side ^ 1;
    } else if (!strcmp(cmd, "level")) {
        char err[160];
        if (!a3[0])
            error_reply(xb, "level needs MPS BASE INC", line);
        else if (!xbclock_level(&xb->clock, a1, a2, a3, err, sizeof err))
            xb_send(xb, "Error (%s): %s", err, line);
        else
            xb->level_ply = xb->move_count;
    } else if (!strcmp(cmd, "st")) {
        char *end;
        double s = strtod(a1, &end);
        if (end == a1 || *end || !(s > 0) || s > 1e6)
            error_reply(xb, "bad time per move", line);
        else
            xb->clock.st_ms = (int64_t)(s * 1000 + 0.5);
    } else if (!strcmp(cmd, "sd") || !strcmp(cmd, "nps") || !strcmp(cmd, "time") || !strcmp(cmd, "otim")) {
        char *end;
        errno = 0;
        long long v = strtoll(a1, &end, 10);
        if (end == a1 || *end || errno || v < (cmd[0] == 't' || cmd[0] == 'o' ? -1000000000LL : 0)) {
            error_reply(xb, "bad number", line);
        } else if (!strcmp(cmd, "sd")) {
            xb->clock.sd = v >= MAX_PLY ? MAX_PLY - 1 : (int)v;
        } else if (!strcmp(cmd, "nps")) {
            xb->clock.nps = v < XB_MAX_NPS ? v : XB_MAX_NPS;
        } else {
            /* centiseconds; a negative clock (flag down, increment to come) counts as 0,
             * and one beyond any real game is cut before the conversion can overflow */
            int64_t ms = v < LIMITS_MAX_MS / 10 ? limits_clamp_ms(v * 10) : LIMITS_MAX_MS;
            if (cmd[0] == 't')
                xb->clock.my_ms = ms;
            else
                xb->clock.opp_ms = ms;
        }
    } else if (!strcmp(cmd, "usermove")) {
        cmd_move(xb, a1, line);
    } else if (!strcmp(cmd, "?")) {
        if (xb->search == XS_THINK)
            engine_stop(e);
    } else if (!strcmp(cmd, "ping")) {
        xb_send(xb, "pong %s", a1);
    } else if (!strcmp(cmd, "draw")) {
        MannersConfig cfg = manners_config(engine_options(e), engine_contempt(e));
        if (!xb->game_over && manners_accept_draw(&xb->manners, &cfg, engine_position(e)))
            xb_send(xb, "offer draw");
    } else if (!strcmp(cmd, "result")) {
        xb_stop_search(xb);
        xb->game_over = true;
    } else if (!strcmp(cmd, "setboard")) {
        cmd_setboard(xb, rest, line);
    } else if (!strcmp(cmd, "edit")) {
        xb->edit_mode = true;
        xbedit_begin(&xb->edit, engine_position(e));
    } else if (!strcmp(cmd, "undo") || !strcmp(cmd, "remove")) {
        if (!xb_game_undo(xb, cmd[0] == 'u' ? 1 : 2))
            error_reply(xb, "command not legal now", line);
    } else if (!strcmp(cmd, "hint")) {
        cmd_hint(xb);
    } else if (!strcmp(cmd, "bk")) {
        xb_send(xb, " no opening book in this version");
        xb_send(xb, "%s", "");
    } else if (!strcmp(cmd, "hard") || !strcmp(cmd, "easy")) {
        xb->ponder_enabled = cmd[0] == 'h';
        if (!xb->ponder_enabled && xb->search == XS_PONDER)
            xb_stop_search(xb);
    } else if (!strcmp(cmd, "post") || !strcmp(cmd, "nopost")) {
        atomic_store(&xb->post, cmd[0] == 'p');
    } else if (!strcmp(cmd, "analyze")) {
        xb->analyzing = true;
        xb->force = true;
        if (!xb->position_valid) /* analysis starts once an edit or setboard gives one */
            error_reply(xb, "no valid position: set one with setboard or edit", line);
        else
            xb_start_analyze(xb);
    } else if (!strcmp(cmd, "exit")) {
        xb_stop_search(xb);
        xb->analyzing = false;
    } else if (!strcmp(cmd, ".")) {
        xb_send_status(xb);
    } else if (!strcmp(cmd, "name")) {
        snprintf(xb->opponent_name, sizeof xb->opponent_name, "%s", rest);
    } else if (!strcmp(cmd, "rating")) {
        long own, opp;
        if (!rating_value(a1, &own) || !rating_value(a2, &opp) || a3[0]) {
            error_reply(xb, "rating needs two ratings 0..9999", line);
        } else {
            xb->own_rating = (int)own;
            xb->opponent.rating = (int)opp;
            xb->opponent.known = xb->opponent.rating > 0 || xb->opponent.computer;
            update_opponent(xb);
        }
    } else if (!strcmp(cmd, "ics")) {
        xb->on_server = a1[0] && strcmp(a1, "-");
    } else if (!strcmp(cmd, "computer")) {
        xb->opponent.computer = true;
        xb->opponent.known = true;
        update_opponent(xb);
    } else if (!strcmp(cmd, "memory")) {
        xb_cmd_memory(xb, a1, line);
    } else if (!strcmp(cmd, "cores")) {
        xb_cmd_cores(xb, a1, line);
    } else if (!strcmp(cmd, "egtpath")) {
        const char *path = rest;
        while (*path && !isspace((unsigned char)*path))
            path++;
        while (isspace((unsigned char)*path))
            path++;
        xb_cmd_egtpath(xb, a1, path, line);
    } else if (!strcmp(cmd, "option")) {
        xb_cmd_option(xb, rest, line);
    } else if (!strcmp(cmd, "exclude") || !strcmp(cmd, "include")) {
        cmd_exclude(xb, cmd[0] == 'e', a1, line);
    } else if (!strcmp(cmd, "random")) {
    } else if (!strcmp(cmd, "quit")) {
        xb_stop_search(xb);
        return false;
    } else if (looks_like_move(cmd)) {
        cmd_move(xb, cmd, line);
    } else {
        char err[512];
        pthread_mutex_lock(&xb->out_lock);
        bool handled = commands_run(e, line, xb->out, err, sizeof err);
        fflush(xb->out);
        pthread_mutex_unlock(&xb->out_lock);
        if (!handled)
            error_reply(xb, "unknown command", line);
        else if (err[0])
            error_reply(xb, err, line);
    }
    return true;
}

/* ---- the loop ---- */

static void xb_free(Xb *xb)
{
    for (int i = 0; i < xb->line_count; i++)
        free(xb->lines[(xb->line_head + i) % xb->line_cap]);
    free(xb->lines);
    for (int i = 0; i < xb->deferred_count; i++)
        free(xb->deferred[i]);
    free(xb->deferred);
    free(xb->moves);
    free(xb->ponder_base);
    free(xb->search_root);
    free(xb->scratch);
    free(xb->main_scratch);
    pthread_mutex_destroy(&xb->out_lock);
    pthread_mutex_destroy(&xb->lock);
    pthread_cond_destroy(&xb->wake);
    free(xb);
}

static Xb *xb_new(Engine *e, FILE *out)
{
    Xb *xb = calloc(1, sizeof *xb);
    if (!xb)
        return NULL;
    xb->ponder_base = malloc(sizeof(Position));
    xb->search_root = malloc(sizeof(Position));
    xb->scratch = malloc(sizeof(Position));
    xb->main_scratch = malloc(sizeof(Position));
    if (!xb->ponder_base || !xb->search_root || !xb->scratch || !xb->main_scratch) {
        free(xb->ponder_base), free(xb->search_root), free(xb->scratch), free(xb->main_scratch);
        free(xb);
        return NULL;
    }
    xb->engine = e;
    xb->out = out;
    pthread_mutex_init(&xb->out_lock, NULL);
    pthread_mutex_init(&xb->lock, NULL);
    pthread_cond_init(&xb->wake, NULL);
    atomic_init(&xb->post, false);
    xbclock_init(&xb->clock);
    manners_reset(&xb->manners);
    char fen[128];
    position_to_fen(engine_position(e), fen);
    xb_game_reset(xb, fen);
    xb->engine_side = BLACK;
    xb->force = false;
    return xb;
}

/* Runs deferred commands once the engine is no longer thinking on its move. */
static bool run_deferred(Xb *xb)
{
    while (xb->deferred_count > 0 && xb->search != XS_THINK) {
        char *line = xb->deferred[0];
        memmove(xb->deferred, xb->deferred + 1, (size_t)(xb->deferred_count - 1) * sizeof *xb->deferred);
        xb->deferred_count--;
        bool running = handle_line(xb, line);
        free(line);
        if (!running)
            return false;
    }
    return true;
}

int xboard_loop(Engine *e, FILE *in, FILE *out, const char *first_line)
{
    Xb *xb = xb_new(e, out);
    if (!xb || !xb_input_start(xb, in)) {
        fprintf(out, "tellusererror cannot start the xboard session\n");
        fflush(out);
        if (xb)
            xb_free(xb);
        return 1;
    }
    signal(SIGINT, SIG_IGN); /* old GUIs may send it; we poll input anyway */

    bool running = first_line ? handle_line(xb, first_line) : true;
    while (running) {
        char *line = NULL;
        XbEvent ev = xb_input_wait(xb, &line);
        if (ev == XB_EVENT_SEARCH_DONE) {
            xb_search_finished(xb);
            running = run_deferred(xb);
        } else if (ev == XB_EVENT_LINE) {
            running = handle_line(xb, line);
            free(line);
            /* A search stopped without a move (force, new, result) releases what waited. */
            if (running)
                running = run_deferred(xb);
        } else if (xb->search == XS_THINK) {
            /* End of input: a move being thought about is finished and played (and the
             * commands held back behind it run); anything else stops. */
            engine_wait(e);
            xb_search_finished(xb);
            running = run_deferred(xb);
        } else {
            xb_stop_search(xb);
            running = false;
        }
    }
    xb_stop_search(xb);
    xb_input_stop(xb);
    xb_free(xb);
    return 0;
}
