/* EPD test suites through the engine (see epdtest.h). */
#define _GNU_SOURCE
#include "commands/epdtest.h"
#include "commands/epdreport.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "formats/epd.h"
#include "board/movegen.h"
#include "board/notation.h"
#include "util/textline.h"
#include "util/timeutil.h"
#include "util/words.h"
#include "util/platform.h"

#define MAX_SOLUTIONS 16
#define MAX_VARIATIONS 8
#define EPD_LINE_MAX 65536 /* a record longer than this is refused with its line number */

typedef struct {
    const char *file;
    int depth;             /* 0: use seconds */
    double seconds;
    int hold;              /* -x: 0 = never stop early */
    int variations;
    const char *out_path;
    bool verbose;
} TestArgs;

/* Last report of one variation, with its PV copied out of the search. */
typedef struct {
    bool valid;
    SearchReport report;
    Move pv[MAX_PLY + 1];
} Line;

/* Everything the reporter callbacks need about the position being searched. */
typedef struct {
    Engine *engine;
    EpdReport *report;
    const TestArgs *args;
    Position root;         /* the test position (PV moves are converted to SAN from it) */
    Position scratch;
    Move bm[MAX_SOLUTIONS], am[MAX_SOLUTIONS];
    int bm_count, am_count;
    /* tracking */
    Move best;
    int held;              /* consecutive iterations with a correct best move */
    bool correct_now;
    int64_t solve_ms;
    uint64_t solve_nodes;
    int solve_depth;
    Line lines[MAX_VARIATIONS];
    Move final_best;
    const EpdTestInterrupt *interrupt;
    bool interrupted;
} PosRun;

static bool is_correct(const PosRun *r, Move m)
{
    if (m == MOVE_NONE)
        return false;
    for (int i = 0; i < r->am_count; i++)
        if (r->am[i] == m)
            return false;
    if (r->bm_count == 0)
        return true;
    for (int i = 0; i < r->bm_count; i++)
        if (r->bm[i] == m)
            return true;
    return false;
}

static void format_score(const SearchReport *rep, char *buf, size_t size)
{
    if (rep->is_mate)
        snprintf(buf, size, "#%d", rep->mate_moves);
    else
        snprintf(buf, size, "%+.2f", rep->cp / 100.0);
}

/* Writes the PV in SAN (with move numbers) into buf. */
static void format_pv(PosRun *r, const Move *pv, int length, char *buf, size_t size)
{
    r->scratch = r->root;
    buf[0] = '\0';
    line_to_san(&r->scratch, pv, length, true, buf, size);
}

static void move_san(PosRun *r, Move m, char *buf)
{
    r->scratch = r->root;
    if (m == MOVE_NONE || !move_is_legal(&r->scratch, m))
        strcpy(buf, "(none)");
    else
        move_to_san(&r->scratch, m, buf);
}

/* ---- reporter callbacks (search thread) ---- */

static void on_iteration(void *ctx, const SearchReport *rep)
{
    PosRun *r = ctx;
    int index = rep->multipv - 1;
    if (index < 0 || index >= MAX_VARIATIONS)
        return;
    Line *line = &r->lines[index];
    line->valid = true;
    line->report = *rep;
    int len = rep->pv_length < MAX_PLY ? rep->pv_length : MAX_PLY;
    memcpy(line->pv, rep->pv, (size_t)len * sizeof(Move));
    line->report.pv = line->pv;
    line->report.pv_length = len;

    if (r->args->verbose) {
        char score[16], pv[1024];
        format_score(rep, score, sizeof score);
        format_pv(r, line->pv, len, pv, sizeof pv);
        epdreport_printf(r->report, "      %2d/%-2d %s%-7s %7.2f %11llu  %s\n", rep->depth,
                   rep->seldepth, rep->multipv > 1 ? "#" : " ", score, rep->time_ms / 1000.0,
                   (unsigned long long)rep->nodes, pv);
    }
    /* The best move is the first line's; a fail-low does not change it. */
    if (index != 0 || len == 0 || rep->bound == BOUND_UPPER)
        return;
    r->best = line->pv[0];
    bool ok = is_correct(r, r->best);
    if (ok && !r->correct_now) {
        r->solve_ms = rep->time_ms;
        r->solve_nodes = rep->nodes;
        r->solve_depth = rep->depth;
    }
    r->correct_now = ok;
    if (rep->bound != BOUND_EXACT)
        return;
    r->held = ok ? r->held + 1 : 0;
    if (r->args->hold > 0 && r->held >= r->args->hold)
        engine_stop(r->engine);
}

static void on_currmove(void *ctx, int depth, Move move, int number)
{
    (void)ctx, (void)depth, (void)move, (void)number;
}

static void on_bestmove(void *ctx, Move best, Move ponder)
{
    (void)ponder;
    ((PosRun *)ctx)->final_best = best;
}

/* ---- arguments ---- */

static bool parse_args(int argc, char **argv, TestArgs *a, char *err, size_t size)
{
    *a = (TestArgs){.variations = 1};
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(s, "-v")) {
            a->verbose = true;
            continue;
        }
        if (s[0] != '-' || !s[1]) {
            if (a->file) {
                snprintf(err, size, "test: unexpected argument '%s'", s);
                return false;
            }
            a->file = s;
            continue;
        }
        if (!next) {
            snprintf(err, size, "test: %s needs a value", s);
            return false;
        }
        i++;
        errno = 0;
        if (!strcmp(s, "-d")) {
            if (!word_to_int(next, 1, MAX_PLY - 1, &a->depth)) {
                snprintf(err, size, "test: -d needs a depth 1..%d, got '%s'", MAX_PLY - 1, next);
                return false;
            }
        } else if (!strcmp(s, "-t")) {
            double v = strtod(next, &end);
            if (*end || errno || !(v > 0) || v > 86400) {
                snprintf(err, size, "test: -t needs seconds > 0, got '%s'", next);
                return false;
            }
            a->seconds = v;
        } else if (!strcmp(s, "-x") || !strcmp(s, "-N")) {
            bool variations = s[1] == 'N';
            int hi = variations ? MAX_VARIATIONS : MAX_PLY;
            if (!word_to_int(next, variations ? 1 : 0, hi,
                             variations ? &a->variations : &a->hold)) {
                snprintf(err, size, "test: %s needs a number up to %d, got '%s'", s, hi, next);
                return false;
            }
        } else if (!strcmp(s, "-o")) {
            a->out_path = next;
        } else {
            snprintf(err, size, "test: unknown switch '%s'", s);
            return false;
        }
    }
    if (!a->file) {
        snprintf(err, size,
                 "usage: test FILE.epd -d DEPTH | -t SECONDS [-x COUNT] [-N VARIATIONS] "
                 "[-o OUTFILE] [-v]");
        return false;
    }
    if (!a->depth && !a->seconds) {
        snprintf(err, size, "test: give -d DEPTH or -t SECONDS");
        return false;
    }
    return true;
}

/* ---- option overrides for the duration of a test ---- */

/* Variations, analysis mode, no strength limit, and every book or learning switch off. */
static void override_options(Options *opts, OptionOverrides *s, int variations)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%d", variations);
    s->count = 0;
    options_override(opts, s, OPT_MULTIPV, buf);
    options_override(opts, s, OPT_UCI_ANALYSE_MODE, "true");
    options_override(opts, s, OPT_UCI_LIMIT_STRENGTH, "false");
    /* -t is the search time asked for, not a clock to keep a GUI's reserve from. */
    options_override(opts, s, OPT_MOVE_OVERHEAD, "0");
    for (int i = 0; i < opts->count; i++) {
        const Option *o = &opts->items[i];
        if (o->type == OPT_CHECK && o->value
            && (strcasestr(o->name, "book") || strcasestr(o->name, "learn")))
            options_override(opts, s, i, "false");
    }
}

/* ---- one position ---- */

static void expected_text(PosRun *r, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    const Move *list = r->bm_count ? r->bm : r->am;
    int count = r->bm_count ? r->bm_count : r->am_count;
    if (!r->bm_count)
        n += (size_t)snprintf(buf, size, "not ");
    for (int i = 0; i < count && n + 12 < size; i++) {
        char san[16];
        move_san(r, list[i], san);
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "," : "", san);
    }
}

/* Waits for the search to end, polling the interrupt meanwhile. */
static void wait_or_interrupt(PosRun *r)
{
    Engine *e = r->engine;
    while (r->interrupt && !r->interrupted && engine_is_searching(e)) {
        if (r->interrupt->stop_requested(r->interrupt->ctx)) {
            r->interrupted = true;
            engine_stop(e);
            break;
        }
        struct timespec nap = {0, 20 * 1000000L};
        nanosleep(&nap, NULL);
    }
    engine_wait(e);
}

static bool run_position(PosRun *r, int number, const char *id, EpdOutcome *res)
{
    Engine *e = r->engine;
    char err[256];
    char fen[128];
    position_to_fen(&r->root, fen);
    engine_new_game(e);
    if (!engine_set_position(e, fen, NULL, 0, err, sizeof err)) {
        epdreport_printf(r->report, "%4d %-16s skipped: %s\n", number, id, err);
        return false;
    }
    memset(r->lines, 0, sizeof r->lines);
    r->best = r->final_best = MOVE_NONE;
    r->held = 0;
    r->correct_now = false;
    r->solve_ms = 0;
    r->solve_nodes = 0;
    r->solve_depth = 0;

    SearchLimits limits;
    limits_init(&limits);
    if (r->args->depth)
        limits.depth = r->args->depth;
    else
        limits.movetime = (int64_t)(r->args->seconds * 1000 + 0.5);
    SearchReporter rep = {on_iteration, on_currmove, on_bestmove, r, NULL, NULL};
    int64_t start = time_now_ms();
    if (!engine_go(e, &limits, &rep, err, sizeof err)) {
        epdreport_printf(r->report, "%4d %-16s skipped: %s\n", number, id, err);
        return false;
    }
    wait_or_interrupt(r);
    SearchResult sr = engine_last_result(e);
    Move found = r->final_best != MOVE_NONE ? r->final_best : sr.best;

    res->correct = is_correct(r, found);
    res->total_ms = sr.time_ms > 0 ? sr.time_ms : time_now_ms() - start;
    res->total_nodes = sr.nodes;
    res->depth = sr.depth;
    if (res->correct && !(r->correct_now && r->best == found)) {
        /* Changed its mind after the last report: solved only at the very end. */
        r->solve_ms = res->total_ms;
        r->solve_nodes = res->total_nodes;
        r->solve_depth = res->depth;
    }
    res->solve_ms = r->solve_ms;
    res->solve_nodes = r->solve_nodes;
    res->solve_depth = r->solve_depth;

    char expected[160], got[16], score[16] = "?", pv[1024] = "";
    expected_text(r, expected, sizeof expected);
    move_san(r, found, got);
    if (r->lines[0].valid) {
        format_score(&r->lines[0].report, score, sizeof score);
        format_pv(r, r->lines[0].pv, r->lines[0].report.pv_length, pv, sizeof pv);
    }
    if (res->correct)
        epdreport_printf(r->report, "%4d %-14s %-12s %-8s ok %7s %8.2f %11llu %5d  %s\n",
                   number, id, expected, got, score, res->solve_ms / 1000.0,
                   (unsigned long long)res->solve_nodes, res->solve_depth, pv);
    else
        epdreport_printf(r->report, "%4d %-14s %-12s %-8s -- %7s %8.2f %11llu %5d  %s\n",
                   number, id, expected, got, score, res->total_ms / 1000.0,
                   (unsigned long long)res->total_nodes, res->depth, pv);
    for (int v = 1; v < r->args->variations && v < MAX_VARIATIONS; v++) {
        if (!r->lines[v].valid)
            continue;
        format_score(&r->lines[v].report, score, sizeof score);
        format_pv(r, r->lines[v].pv, r->lines[v].report.pv_length, pv, sizeof pv);
        epdreport_printf(r->report, "%*s variation %d: %7s  %s\n", 36, "", v + 1, score, pv);
    }
    return true;
}

/* ---- driver ---- */

static bool run_suite(Engine *e, const TestArgs *args, FILE *in, EpdReport *report,
                      const EpdTestInterrupt *interrupt, EpdTestSummary *sum,
                      char *error, size_t error_size)
{
    PosRun *r = calloc(1, sizeof *r);
    int res_cap = 256;
    EpdOutcome *res = calloc((size_t)res_cap, sizeof *res); /* grows: no limit on records */
    EpdRecord *rec = malloc(sizeof *rec);
    char *line = malloc(EPD_LINE_MAX);
    if (!r || !res || !rec || !line) {
        free(r), free(res), free(rec), free(line);
        snprintf(error, error_size, "test: out of memory");
        return false;
    }
    r->engine = e;
    r->report = report;
    r->args = args;
    r->interrupt = interrupt;
    int n = 0, lineno = 0;
    char err[256];
    bool out_of_memory = false;
    LineStatus st;
    /* Whole lines or none: a tail past a buffer must not run as a ghost record. */
    while (!r->interrupted && (st = line_read(in, line, EPD_LINE_MAX)) != LINE_END
           && st != LINE_ERROR) {
        lineno++;
        if (st != LINE_OK) {
            epdreport_printf(report, "     %s:%d: skipped: %s\n", args->file, lineno,
                             st == LINE_TOO_LONG ? "line longer than 65535 characters"
                                                 : "NUL byte in the line");
            sum->skipped++;
            continue;
        }
        if (epd_is_blank(line))
            continue;
        if (n == res_cap) {
            EpdOutcome *grown = realloc(res, (size_t)res_cap * 2 * sizeof *res);
            if (!grown) {
                out_of_memory = true;
                break;
            }
            res = grown;
            res_cap *= 2;
        }
        if (!epd_parse(line, &r->root, rec, err, sizeof err)) {
            epdreport_printf(report, "     %s:%d: skipped: %s\n", args->file, lineno, err);
            sum->skipped++;
            continue;
        }
        r->bm_count = epd_moves(rec, &r->root, "bm", r->bm, MAX_SOLUTIONS, err, sizeof err);
        r->am_count = r->bm_count >= 0
                        ? epd_moves(rec, &r->root, "am", r->am, MAX_SOLUTIONS, err, sizeof err)
                        : 0;
        if (r->bm_count < 0 || r->am_count < 0 || (r->bm_count == 0 && r->am_count == 0)) {
            epdreport_printf(report, "     %s:%d: skipped: %s\n", args->file, lineno,
                       r->bm_count < 0 || r->am_count < 0 ? err : "no bm or am");
            sum->skipped++;
            continue;
        }
        const char *id = epd_string(rec, "id");
        char idbuf[64];
        snprintf(idbuf, sizeof idbuf, "%s", id ? id : "-");
        if (!run_position(r, n + 1, idbuf, &res[n])) {
            sum->skipped++;
            continue;
        }
        n++;
    }
    /* A directory or a failing disk reads as no records: say so, not "0/0". */
    int read_errno = errno;
    bool read_ok = !ferror(in) && !out_of_memory;
    if (out_of_memory)
        snprintf(error, error_size, "test: out of memory after %d positions of %s", n, args->file);
    else if (!read_ok)
        snprintf(error, error_size, "test: cannot read %s: %s", args->file, strerror(read_errno));
    sum->positions = n;
    sum->interrupted = r->interrupted;
    for (int i = 0; i < n; i++)
        sum->correct += res[i].correct;
    if (read_ok || n > 0)
        epdreport_summary(report, args->file, args->depth, args->seconds, res, n, sum->skipped,
                          r->interrupted);
    free(r), free(res), free(rec), free(line);
    return read_ok;
}

bool epdtest_run(Engine *e, int argc, char **argv, Writer *out, const EpdTestInterrupt *interrupt,
                 EpdTestSummary *summary, char *err, size_t err_size)
{
    TestArgs args;
    EpdTestSummary sum = {0, 0, 0, false};
    err[0] = '\0';
    if (summary)
        *summary = sum;
    if (!parse_args(argc, argv, &args, err, err_size))
        return false;
    if (engine_is_searching(e)) {
        snprintf(err, err_size, "test: a search is running");
        return false;
    }
    FILE *in = fopen(args.file, "r");
    if (!in) {
        snprintf(err, err_size, "test: cannot open %s: %s", args.file, strerror(errno));
        return false;
    }
    EpdReport report;
    if (!epdreport_open(&report, out, args.out_path, args.file, in, err, err_size)) {
        fclose(in);
        return false;
    }
    OptionOverrides *saved = malloc(sizeof *saved);
    Position *game = malloc(sizeof *game); /* the test borrows the engine: its game comes back */
    if (!saved || !game) {
        free(saved);
        free(game);
        fclose(in);
        epdreport_close(&report, false);
        snprintf(err, err_size, "test: out of memory");
        return false;
    }
    *game = *engine_position(e);
    Options *opts = engine_options(e);
    override_options(opts, saved, args.variations);
    epdreport_printf(
        &report,
        "   # id             expected     found       score     time       nodes depth  pv\n"
        "                                                    "
        "(time, nodes and depth to solution when ok)\n");
    bool ok = run_suite(e, &args, in, &report, interrupt, &sum, err, err_size);
    options_restore(opts, saved);
    engine_new_game(e);
    engine_restore_position(e, game);
    free(saved);
    free(game);
    fclose(in);
    if (!epdreport_close(&report, true)) {
        if (ok)
            snprintf(err, err_size, "test: cannot write %s", args.out_path);
        ok = false;
    }
    if (summary)
        *summary = sum;
    return ok;
}
