/* pgnselect: samples positions from PGN games into EPD lines labelled with the game's
 * result, the input of the tuner (docs/tuning.md).
 *
 *   pgnselect [options] [FILE.pgn ...]      (no file or "-": standard input)
 *     -min N      first ply that may be sampled (default 30)
 *     -max N      last ply that may be sampled (default 150)
 *     -d N        least distance in plies between two samples of a game (default 3)
 *     -s N        greatest distance (default 10)
 *     -r          play a random legal move from each sampled position (the Giraffe trick:
 *                 more varied, less balanced positions)
 *     --seed N    random seed (default 1): the same input and seed give the same output
 *     --id        add id "GAME:PLY" (game number in the input, ply sampled)
 *     -o FILE     write there (through a temporary file) instead of standard output
 *   The training-game filter (games that fail it give no position):
 *     --min-plies N  drop games shorter than N plies (default 0: keep all)
 *     --agree CP     keep a game only when its result agrees with the evaluation of its
 *                    final position, searched to --agree-nodes nodes (default 20000):
 *                    a win is dropped when the loser stands CP centipawns or more better
 *                    (lost on time or resigned in a won position), a draw when either
 *                    side does (a mate counts as more than any CP)
 *
 * Each line is the position's four FEN fields and c2 "1.0" (White won), "0.5" or "0.0".
 * Games without a result ("*") give nothing; games the reader cannot follow (an illegal
 * move, a bad FEN tag) are skipped with one line on stderr each. Positions are those
 * before a move of the main line; ply 0 is the game's first move. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/movegen.h"
#include "board/position_copy.h"
#include "engine/engine.h"
#include "eval/evaluate.h"
#include "formats/pgn.h"
#include "util/args.h"
#include "util/outfile.h"
#include "util/random.h"
#include "util/timeutil.h"

typedef struct {
    int min_ply, max_ply, min_gap, max_gap;
    bool random_move, ids;
    uint64_t seed;
    const char *out_path;
    int min_plies;
    int agree_cp;       /* < 0: no agreement check */
    int agree_nodes;
} SelectOptions;

typedef struct {
    uint64_t state;
} Rng;

static uint64_t rng_next(Rng *r)
{
    return splitmix64(&r->state);
}

/* Uniform in [lo, hi]. */
static int rng_between(Rng *r, int lo, int hi)
{
    return lo + (int)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* The sampled lines of the game being read, written out at its end. */
typedef struct {
    char *text;
    size_t length, capacity;
} Buffer;

static void buffer_add(Buffer *b, const char *s)
{
    size_t n = strlen(s);
    if (b->length + n + 1 > b->capacity) {
        b->capacity = (b->length + n + 1) * 2;
        b->text = realloc(b->text, b->capacity);
        if (!b->text) {
            fprintf(stderr, "pgnselect: out of memory\n");
            exit(1);
        }
    }
    memcpy(b->text + b->length, s, n + 1);
    b->length += n;
}

typedef struct {
    long games, skipped, unfinished, positions;
    long short_games, disagreeing;
    bool progress;
    int64_t last_progress_ms;
} Counts;

static void sample(const SelectOptions *o, Rng *rng, const Position *game_pos, long game, int ply, Buffer *out)
{
    static Position pos;
    pos = *game_pos;
    if (o->random_move) {
        MoveList list;
        generate_legal(&pos, &list);
        if (list.count == 0)
            return;
        make_move(&pos, list.moves[rng_between(rng, 0, list.count - 1)]);
    }
    if (count_legal_moves(&pos) == 0)
        return; /* mate or stalemate: nothing to evaluate */
    char fen[128], line[256];
    position_to_fen(&pos, fen);
    /* Keep the four EPD fields: drop the two counters. */
    char *end = fen + strlen(fen);
    for (int spaces = 0; end > fen && spaces < 2; end--)
        if (end[-1] == ' ')
            spaces++;
    *end = '\0';
    if (o->ids)
        snprintf(line, sizeof line, "%s id \"%ld:%d\";\n", fen, game, ply);
    else
        snprintf(line, sizeof line, "%s\n", fen);
    buffer_add(out, line);
}

/* Writes the buffered lines with the result filled in. */
static long flush_game(Buffer *b, const char *label, FILE *out)
{
    long n = 0;
    char *p = b->text;
    while (p && *p) {
        char *nl = strchr(p, '\n');
        *nl = '\0';
        fprintf(out, "%s c2 \"%s\";\n", p, label);
        p = nl + 1;
        n++;
    }
    b->length = 0;
    if (b->text)
        b->text[0] = '\0';
    return n;
}

static void show_progress(Counts *c, bool final)
{
    if (!c->progress)
        return;
    int64_t now = time_now_ms();
    if (!final && now - c->last_progress_ms < 500)
        return;
    c->last_progress_ms = now;
    fprintf(stderr, "\rpgnselect: %ld games, %ld positions%s", c->games, c->positions, final ? "\n" : "");
}

/* The final position's evaluation from White's side (centipawns; a mate is +-100000), by
 * a search of o->agree_nodes nodes. */
static int final_eval(Engine *e, const SelectOptions *o, const Position *final)
{
    engine_new_game(e);
    engine_restore_position(e, final);
    if (count_legal_moves(final) == 0) {
        int score = in_check(final) ? -100000 : 0;
        return final->side == WHITE ? score : -score;
    }
    SearchLimits limits;
    limits_init(&limits);
    limits.nodes = (uint64_t)o->agree_nodes;
    SearchReporter quiet = { 0 };
    char err[256];
    if (!engine_go(e, &limits, &quiet, err, sizeof err)) {
        fprintf(stderr, "pgnselect: %s\n", err);
        exit(1);
    }
    engine_wait(e);
    int score = engine_last_result(e).score;
    if (score >= VALUE_MATE_IN_MAX_PLY)
        score = 100000;
    else if (score <= -VALUE_MATE_IN_MAX_PLY)
        score = -100000;
    return final->side == WHITE ? score : -score;
}

/* Whether a finished game may teach its result: long enough, and (with --agree) not
 * contradicted by the evaluation of where it ended. */
static bool game_usable(Engine *e, const SelectOptions *o, const char *label, const Position *final, int plies, Counts *c)
{
    if (plies < o->min_plies) {
        c->short_games++;
        return false;
    }
    if (o->agree_cp < 0 || !final)
        return true;
    int white = final_eval(e, o, final);
    bool agrees = label[0] == '1' ? white > -o->agree_cp : label[2] == '0' ? white < o->agree_cp
                                                                            : white < o->agree_cp && white > -o->agree_cp;
    c->disagreeing += !agrees;
    return agrees;
}

static bool read_games(const SelectOptions *o, Rng *rng, PgnReader *r, FILE *out, Counts *c, Engine *e)
{
    Buffer buf = { 0 };
    int next_ply = 0, plies = 0;
    static Position final; /* after the last main-line move */
    bool have_final = false;
    const PgnItem *it;
    while ((it = pgn_next(r))->event != PGN_EOF) {
        switch (it->event) {
        case PGN_MOVETEXT:
            position_copy_used(&final, it->position);
            have_final = true;
            break;
        case PGN_GAME_START:
            plies = 0;
            have_final = false;
            buf.length = 0;
            if (buf.text)
                buf.text[0] = '\0';
            next_ply = o->min_ply + rng_between(rng, 0, o->max_gap - o->min_gap);
            break;
        case PGN_MOVE:
            if (it->depth == 0)
                plies = it->ply + 1;
            if (it->depth == 0 && o->agree_cp >= 0) {
                position_copy_used(&final, it->position);
                if (it->move == MOVE_NULL)
                    make_null_move(&final);
                else
                    make_move(&final, it->move);
                position_bound_history(&final, MAX_PLY + 16);
            }
            if (it->depth == 0 && it->move != MOVE_NULL && it->ply == next_ply && it->ply <= o->max_ply) {
                sample(o, rng, it->position, it->game, it->ply, &buf);
                next_ply = it->ply + rng_between(rng, o->min_gap, o->max_gap);
            }
            break;
        case PGN_GAME_END: {
            c->games++;
            const char *label = !strcmp(it->result, "1-0") ? "1.0" : !strcmp(it->result, "0-1") ? "0.0"
                              : !strcmp(it->result, "1/2-1/2") ? "0.5" : NULL;
            if (!label)
                c->unfinished++;
            else if (game_usable(e, o, label, have_final ? &final : NULL, plies, c))
                c->positions += flush_game(&buf, label, out);
            else {
                buf.length = 0;
                if (buf.text)
                    buf.text[0] = '\0';
            }
            show_progress(c, false);
            break;
        }
        case PGN_GAME_SKIPPED:
            c->skipped++;
            break;
        default:
            break;
        }
    }
    free(buf.text);
    return !pgn_read_failed(r);
}

static void usage(void)
{
    fprintf(stderr, "usage: pgnselect [-min N] [-max N] [-d N] [-s N] [-r] [--seed N] [--id] [-o FILE]\n"
                    "                 [--min-plies N] [--agree CP [--agree-nodes N]] [FILE.pgn ...]\n");
}

int main(int argc, char **argv)
{
    SelectOptions o = { 30, 150, 3, 10, false, false, 1, NULL, 0, -1, 20000 };
    bool help = false;
    const ArgSpec specs[] = {
        { "-min", ARG_INT, &o.min_ply, 0, 1e6 },          { "-max", ARG_INT, &o.max_ply, 0, 1e6 },
        { "-d", ARG_INT, &o.min_gap, 0, 1e6 },            { "-s", ARG_INT, &o.max_gap, 0, 1e6 },
        { "--min-plies", ARG_INT, &o.min_plies, 0, 1e6 }, { "--agree", ARG_INT, &o.agree_cp, 0, 1e6 },
        { "--agree-nodes", ARG_INT, &o.agree_nodes, 0, 1e6 }, { "-r", ARG_SWITCH, &o.random_move, 0, 0 },
        { "--id", ARG_SWITCH, &o.ids, 0, 0 },            { "--seed", ARG_U64, &o.seed, 0, 0 },
        { "-o", ARG_TEXT, &o.out_path, 0, 0 },           { "-h", ARG_SWITCH, &help, 0, 0 },
        { "--help", ARG_SWITCH, &help, 0, 0 },
    };
    char reason[160];
    int first_file = args_parse(argc, argv, specs, ARGS_COUNT(specs), reason, sizeof reason);
    if (first_file < 0 || help) {
        if (!help)
            fprintf(stderr, "pgnselect: %s\n", reason);
        usage();
        return help ? 0 : 2;
    }
    if (o.min_gap < 1 || o.max_gap < o.min_gap || o.max_ply < o.min_ply) {
        fprintf(stderr, "pgnselect: need 1 <= -d <= -s and -min <= -max\n");
        return 2;
    }
    if (o.agree_nodes < 1) {
        fprintf(stderr, "pgnselect: --agree-nodes needs at least 1 node\n");
        return 2;
    }
    position_init();
    Engine *engine = NULL;
    if (o.agree_cp >= 0) {
        eval_init();
        search_init();
        engine = engine_new();
        char why[256];
        /* Analysis: no book move, no learning, full strength. */
        if (!engine || !engine_set_option_id(engine, OPT_UCI_ANALYSE_MODE, "true", OPT_SOURCE_GUI, why, sizeof why)) {
            fprintf(stderr, "pgnselect: cannot set up the engine for --agree\n");
            return 1;
        }
        Options *opts = engine_options(engine);
        for (int k = 0; k < opts->count; k++) {
            const Option *op = &opts->items[k];
            if (op->type == OPT_CHECK && op->value && (strcasestr(op->name, "book") || strcasestr(op->name, "learn")))
                engine_set_option_id(engine, (EngineOption)k, "false", OPT_SOURCE_GUI, why, sizeof why);
        }
    }

    OutFile of;
    FILE *out = stdout;
    char err[256];
    if (o.out_path && !(out = outfile_open(&of, o.out_path, err, sizeof err))) {
        fprintf(stderr, "pgnselect: %s\n", err);
        return 1;
    }
    Rng rng = { o.seed };
    Counts c = { 0 };
    c.progress = isatty(STDERR_FILENO) && (o.out_path || !isatty(STDOUT_FILENO));
    bool ok = true;
    for (int i = first_file; i <= argc; i++) {
        if (i == argc && first_file < argc)
            break;
        const char *path = i < argc ? argv[i] : "-";
        PgnReader *r = strcmp(path, "-") ? pgn_open(path, NULL, NULL) : pgn_open_stream(stdin, "stdin", NULL, NULL);
        if (!r) {
            ok = false;
            continue;
        }
        ok &= read_games(&o, &rng, r, out, &c, engine);
        pgn_close(r);
    }
    show_progress(&c, true);
    char filtered[96] = "";
    if (o.min_plies > 0 || o.agree_cp >= 0)
        snprintf(filtered, sizeof filtered, ", %ld short, %ld disagreeing", c.short_games, c.disagreeing);
    fprintf(stderr, "pgnselect: %ld games (%ld skipped, %ld without result%s), %ld positions\n", c.games + c.skipped,
            c.skipped, c.unfinished, filtered, c.positions);
    if (engine)
        engine_free(engine);
    if (o.out_path) {
        if (!outfile_commit(&of, err, sizeof err)) {
            fprintf(stderr, "pgnselect: %s\n", err);
            return 1;
        }
    } else if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "pgnselect: cannot write the output\n");
        return 1;
    }
    return ok ? 0 : 1;
}
