/* The annotate command: arguments, the input read whole and cut into games, the engine's
 * options for analysis, progress, Ctrl-C and the output file (see annotate.h). */
#define _GNU_SOURCE
#include "commands/annotate.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "commands/annotate_pgn.h"
#include "commands/annotate_plot.h"
#include "formats/pgn.h"
#include "util/outfile.h"
#include "util/timeutil.h"
#include "util/words.h"
#include "util/platform.h"

#define INPUT_MAX (1L << 30) /* a PGN file larger than this is refused */

typedef struct {
    const char *file, *out_path, *plot_dir;
    AnnotateLimits limits;
    int threads;
    bool svg;
} Args;

/* A game as the reader saw it, and where its text is in the input. */
typedef struct {
    long first_line, tags_last_line; /* 1-based; tags_last_line 0: no tags */
    bool readable;
    char start_fen[128];   /* a Position is 57 KB: games keep their start as text */
    bool chess960;
    int plies;
    Move *moves;
    char result[8];
    char white[64], black[64];
} GameText;

typedef struct {
    GameText *games;
    int count, capacity;
    bool overflow;    /* a game longer than ANNOTATE_MAX_PLIES */
} GameList;

/* Ctrl-C: a signal handler can reach only static storage. */
static volatile sig_atomic_t interrupted_by_signal;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted_by_signal = 1;
}

static bool parse_args(int argc, char **argv, Args *a, char *err, size_t size)
{
    *a = (Args){.limits = {.white = true, .black = true, .from_move = 1}};
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(s, "--svg")) {
            a->svg = true;
            continue;
        }
        if (s[0] != '-' || !s[1]) {
            if (a->file) {
                snprintf(err, size, "annotate: unexpected argument '%s'", s);
                return false;
            }
            a->file = s;
            continue;
        }
        if (!v) {
            snprintf(err, size, "annotate: %s needs a value", s);
            return false;
        }
        i++;
        bool ok = true;
        if (!strcmp(s, "-t")) {
            char *end;
            errno = 0;
            double t = strtod(v, &end);
            ok = !*end && !errno && t > 0 && t <= 86400;
            a->limits.movetime_ms = ok ? (int64_t)(t * 1000 + 0.5) : 0;
            ok = ok && a->limits.movetime_ms > 0;
        } else if (!strcmp(s, "-d"))
            ok = word_to_int(v, 1, MAX_PLY - 1, &a->limits.depth);
        else if (!strcmp(s, "-n")) {
            int n;
            ok = word_to_int(v, 1, 2000000000, &n);
            a->limits.nodes = ok ? (uint64_t)n : 0;
        } else if (!strcmp(s, "-o"))
            a->out_path = v;
        else if (!strcmp(s, "--plot"))
            a->plot_dir = v;
        else if (!strcmp(s, "--from"))
            ok = word_to_int(v, 1, 10000, &a->limits.from_move);
        else if (!strcmp(s, "--threads"))
            ok = word_to_int(v, 1, 256, &a->threads);
        else if (!strcmp(s, "--side")) {
            ok = !strcmp(v, "white") || !strcmp(v, "black") || !strcmp(v, "both");
            a->limits.white = strcmp(v, "black") != 0;
            a->limits.black = strcmp(v, "white") != 0;
        } else {
            snprintf(err, size, "annotate: unknown switch '%s'", s);
            return false;
        }
        if (!ok) {
            snprintf(err, size, "annotate: bad value '%s' for %s", v, s);
            return false;
        }
    }
    if (!a->file) {
        snprintf(err, size,
                 "usage: annotate GAMES.pgn [-t SECONDS | -d DEPTH | -n NODES] [-o OUT.pgn] "
                 "[--side white|black|both] [--from MOVE] [--threads N] [--plot DIR] [--svg]");
        return false;
    }
    if (!a->limits.depth && !a->limits.nodes && !a->limits.movetime_ms)
        a->limits.movetime_ms = 1000;
    return true;
}

/* ---- input ---- */

static char *read_all(const char *path, size_t *len, char *err, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, size, "annotate: cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            if (cap >= (size_t)INPUT_MAX) {
                snprintf(err, size, "annotate: %s is larger than %ld MB", path, INPUT_MAX >> 20);
                free(buf);
                fclose(f);
                return NULL;
            }
            char *grown = realloc(buf, cap * 2 + 1);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (!buf || ferror(f)) {
        snprintf(err, size, "annotate: cannot read %s: %s", path,
                 buf ? strerror(errno) : "out of memory");
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static GameText *add_game(GameList *l)
{
    if (l->count == l->capacity) {
        int cap = l->capacity ? l->capacity * 2 : 16;
        GameText *g = realloc(l->games, (size_t)cap * sizeof *g);
        if (!g)
            return NULL;
        l->games = g;
        l->capacity = cap;
    }
    GameText *g = &l->games[l->count++];
    memset(g, 0, sizeof *g);
    return g;
}

/* Reads every game: its lines, start position, main line and result. */
static bool read_games(const char *text, size_t len, const char *name, GameList *l, char *err,
                       size_t size)
{
    FILE *in = fmemopen((void *)text, len ? len : 1, "r");
    PgnReader *r = in ? pgn_open_stream(in, name, NULL, NULL) : NULL;
    if (!r) {
        if (in)
            fclose(in);
        snprintf(err, size, "annotate: out of memory");
        return false;
    }
    GameText *g = NULL;
    int cap = 0;
    const PgnItem *it;
    bool ok = true;
    while (ok && (it = pgn_next(r))->event != PGN_EOF) {
        switch (it->event) {
        case PGN_GAME_START:
            g = add_game(l);
            ok = g != NULL;
            if (ok)
                g->first_line = it->line, cap = 0;
            break;
        case PGN_TAG:
            g->tags_last_line = it->line;
            if (!strcmp(it->tag_name, "White"))
                snprintf(g->white, sizeof g->white, "%s", it->tag_value);
            else if (!strcmp(it->tag_name, "Black"))
                snprintf(g->black, sizeof g->black, "%s", it->tag_value);
            break;
        case PGN_MOVETEXT:
            position_to_fen(it->position, g->start_fen);
            g->chess960 = it->position->chess960;
            break;
        case PGN_MOVE:
            if (it->depth != 0)
                break;
            if (g->plies >= ANNOTATE_MAX_PLIES || it->move == MOVE_NULL) {
                g->plies = -1; /* written unchanged */
                break;
            }
            if (g->plies < 0)
                break;
            if (g->plies == cap) {
                cap = cap ? cap * 2 : 128;
                Move *m = realloc(g->moves, (size_t)cap * sizeof *m);
                ok = m != NULL;
                if (!ok)
                    break;
                g->moves = m;
            }
            g->moves[g->plies++] = it->move;
            break;
        case PGN_GAME_END:
            g->readable = g->plies > 0;
            snprintf(g->result, sizeof g->result, "%s", it->result);
            break;
        default:
            break;
        }
    }
    if (!ok)
        snprintf(err, size, "annotate: out of memory");
    pgn_close(r);
    fclose(in);
    return ok;
}

/* Byte offset of each line start (line k at lines[k - 1]); lines[count] = len. */
static size_t *line_offsets(const char *text, size_t len, long *count)
{
    long n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n' && i + 1 < len;
    size_t *off = malloc((size_t)(n + 1) * sizeof *off);
    if (!off)
        return NULL;
    long k = 0;
    off[k++] = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' && i + 1 < len)
            off[k++] = i + 1;
    off[n] = len;
    *count = n;
    return off;
}

/* ---- engine options for the analysis ---- */

static void override_options(Options *opts, OptionOverrides *s, int threads)
{
    s->count = 0;
    options_override(opts, s, OPT_MULTIPV, "1");
    options_override(opts, s, OPT_UCI_ANALYSE_MODE, "true");
    options_override(opts, s, OPT_UCI_LIMIT_STRENGTH, "false");
    options_override(opts, s, OPT_MOVE_OVERHEAD, "0");
    if (threads > 0) {
        char buf[16];
        snprintf(buf, sizeof buf, "%d", threads);
        options_override(opts, s, OPT_THREADS, buf);
    }
    for (int i = 0; i < opts->count; i++) {
        const Option *o = &opts->items[i];
        if (o->type == OPT_CHECK && o->value
            && (strcasestr(o->name, "book") || strcasestr(o->name, "learn")))
            options_override(opts, s, i, "false");
    }
}

/* ---- progress and stopping ---- */

typedef struct {
    bool (*stop)(void *ctx);
    void *stop_ctx;
    bool show;
    int game, games;
    long searched, total;   /* positions, for the ETA */
    int64_t start_ms;
} Progress;

static bool stop_requested(void *ctx)
{
    Progress *p = ctx;
    return interrupted_by_signal || (p->stop && p->stop(p->stop_ctx));
}

static void progress(void *ctx, int ply, int plies)
{
    Progress *p = ctx;
    p->searched++;
    if (!p->show)
        return;
    int64_t spent = time_now_ms() - p->start_ms;
    double eta = p->searched
                   ? (double)spent / (double)p->searched * (double)(p->total - p->searched) / 1000.0
                   : 0;
    fprintf(stderr, "\rannotate: game %d of %d, move %d of %d, ETA %.0f s   ", p->game, p->games,
            ply / 2 + 1, (plies + 1) / 2, eta > 0 ? eta : 0);
    fflush(stderr);
}

/* ---- driver ---- */

static void limits_text(const AnnotateLimits *l, char *buf, size_t size)
{
    if (l->depth)
        snprintf(buf, size, "%s %s, depth %d", ENGINE_NAME, ENGINE_VERSION, l->depth);
    else if (l->nodes)
        snprintf(buf, size, "%s %s, %llu nodes", ENGINE_NAME, ENGINE_VERSION,
                 (unsigned long long)l->nodes);
    else
        snprintf(buf, size, "%s %s, %g s", ENGINE_NAME, ENGINE_VERSION, l->movetime_ms / 1000.0);
}

static void write_lines(FILE *out, const char *text, const size_t *off, long from, long to)
{
    if (to >= from)
        fwrite(text + off[from - 1], 1, off[to] - off[from - 1], out);
}

/* Writes every game to out; a graph that could not be drawn is told on stderr at once
 * and counted in sum. */
static void annotate_all(Engine *e, const Args *a, const char *text, const size_t *off, long lines,
                         GameList *l, AnnotatedGame *ag, FILE *out, Progress *pr,
                         AnnotateSummary *sum)
{
    char why[160];
    const EcoTable *eco = eco_builtin(why, sizeof why);
    char annotator[128];
    limits_text(&a->limits, annotator, sizeof annotator);
    AnnotateHooks hooks = {stop_requested, pr, progress};
    for (int i = 0; i < l->count; i++)
        pr->total += l->games[i].readable ? l->games[i].plies + 1 : 0;
    if (l->count == 0 || l->games[0].first_line > 1)
        write_lines(out, text, off, 1, l->count ? l->games[0].first_line - 1 : lines);
    for (int i = 0; i < l->count; i++) {
        GameText *g = &l->games[i];
        long last = i + 1 < l->count ? l->games[i + 1].first_line - 1 : lines;
        bool done = false;
        if (g->readable && !sum->interrupted) {
            pr->game = i + 1;
            char ferr[160];
            if (!position_from_fen(&ag->start, g->start_fen, ferr, sizeof ferr, NULL)) {
                fprintf(stderr, "annotate: game %d: %s; written unchanged\n", i + 1, ferr);
                write_lines(out, text, off, g->first_line, last);
                sum->unchanged++;
                continue;
            }
            position_set_chess960(&ag->start, g->chess960);
            ag->plies = g->plies;
            for (int k = 0; k < g->plies; k++)
                ag->moves[k].move = g->moves[k];
            char gerr[256];
            if (!annotate_game(e, ag, &a->limits, &hooks, gerr, sizeof gerr))
                fprintf(stderr, "annotate: game %d: %s; written unchanged\n", i + 1, gerr);
            else if (ag->interrupted)
                sum->interrupted = true;
            else {
                long tag_from = g->first_line, tag_to = g->tags_last_line;
                size_t tlen = tag_to >= tag_from ? off[tag_to] - off[tag_from - 1] : 0;
                annotate_write_game(out, text + off[tag_from - 1], tlen, ag, annotator, g->result,
                                    eco);
                done = true;
                if (a->plot_dir && !sum->no_gnuplot) {
                    char title[160], perr[300];
                    snprintf(title, sizeof title, "%s - %s", g->white[0] ? g->white : "?",
                             g->black[0] ? g->black : "?");
                    PlotStatus st =
                        annotate_plot(ag, a->plot_dir, i + 1, a->svg, title, perr, sizeof perr);
                    if (st != PLOT_DRAWN) {
                        /* Said at once: each game's reason, or once that gnuplot is missing. */
                        fprintf(stderr, "%sannotate: game %d: %s\n", pr->show ? "\n" : "", i + 1,
                                perr);
                        sum->graphs_failed++;
                        sum->no_gnuplot = st == PLOT_NO_GNUPLOT;
                    }
                }
            }
        }
        if (done)
            sum->annotated++;
        else {
            write_lines(out, text, off, g->first_line, last);
            sum->unchanged++;
        }
    }
    if (pr->show)
        fputs("\n", stderr);
}

bool annotate_run(Engine *e, int argc, char **argv, FILE *out, bool (*stop)(void *ctx),
                  void *stop_ctx, AnnotateSummary *summary, char *err, size_t err_size)
{
    AnnotateSummary sum = {0, 0, 0, 0, false, false};
    err[0] = '\0';
    if (summary)
        *summary = sum;
    Args a;
    if (!parse_args(argc, argv, &a, err, err_size))
        return false;
    if (engine_is_searching(e)) {
        snprintf(err, err_size, "annotate: a search is running");
        return false;
    }
    size_t len;
    char *text = read_all(a.file, &len, err, err_size);
    if (!text)
        return false;
    GameList list = {0};
    long lines = 0;
    size_t *off = line_offsets(text, len, &lines);
    bool ok = off && read_games(text, len, a.file, &list, err, err_size);
    if (!off)
        snprintf(err, err_size, "annotate: out of memory");
    /* Everything that could fail is had before the output file is opened. */
    OptionOverrides *saved = ok ? malloc(sizeof *saved) : NULL;
    AnnotatedGame *ag = ok ? malloc(sizeof *ag) : NULL;
    Position *game = ok ? malloc(sizeof *game) : NULL;
    if (ok && (!saved || !ag || !game)) {
        snprintf(err, err_size, "annotate: out of memory");
        ok = false;
    }
    OutFile of;
    FILE *dest = out;
    if (ok && a.plot_dir && !annotate_plot_folder(a.plot_dir, err, err_size)) {
        char why[600];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, err_size, "annotate: --plot: %s", why);
        ok = false;
    }
    if (ok && a.out_path && !(dest = outfile_open(&of, a.out_path, err, err_size)))
        ok = false;
    if (ok) {
        *game = *engine_position(e);
        override_options(engine_options(e), saved, a.threads);
        struct sigaction act = {.sa_handler = on_sigint}, old;
        sigemptyset(&act.sa_mask);
        interrupted_by_signal = 0;
        sigaction(SIGINT, &act, &old);
        Progress pr = {stop, stop_ctx, isatty(STDERR_FILENO), 0, list.count, 0, 0, time_now_ms()};
        sum.games = list.count;
        annotate_all(e, &a, text, off, lines, &list, ag, dest, &pr, &sum);
        sigaction(SIGINT, &old, NULL);
        options_restore(engine_options(e), saved);
        engine_new_game(e);
        engine_restore_position(e, game);
        if (a.out_path && !outfile_commit(&of, err, err_size))
            ok = false;
        else if (!a.out_path && (fflush(out) != 0 || ferror(out))) {
            snprintf(err, err_size, "annotate: cannot write the games: %s", strerror(errno));
            ok = false;
        }
        if (ok && sum.graphs_failed) {
            snprintf(err, err_size, "annotate: %d of %d graphs not drawn (reasons above)",
                     sum.graphs_failed, sum.games);
            ok = false;
        }
        if (sum.interrupted)
            fprintf(stderr,
                    "annotate: stopped: %d of %d games annotated, the others written unchanged\n",
                    sum.annotated, sum.games);
    }
    free(saved);
    free(ag);
    free(game);
    for (int i = 0; i < list.count; i++)
        free(list.games[i].moves);
    free(list.games);
    free(off);
    free(text);
    if (summary)
        *summary = sum;
    return ok;
}
