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
 *
 * Each line is the position's four FEN fields and c2 "1.0" (White won), "0.5" or "0.0".
 * Games without a result ("*") give nothing; games the reader cannot follow (an illegal
 * move, a bad FEN tag) are skipped with one line on stderr each. Positions are those
 * before a move of the main line; ply 0 is the game's first move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/movegen.h"
#include "formats/pgn.h"
#include "util/outfile.h"
#include "util/random.h"
#include "util/timeutil.h"

typedef struct {
    int min_ply, max_ply, min_gap, max_gap;
    bool random_move, ids;
    uint64_t seed;
    const char *out_path;
} Options;

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
    bool progress;
    int64_t last_progress_ms;
} Counts;

static void sample(const Options *o, Rng *rng, const Position *game_pos, long game, int ply, Buffer *out)
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

static bool read_games(const Options *o, Rng *rng, PgnReader *r, FILE *out, Counts *c)
{
    Buffer buf = { 0 };
    int next_ply = 0;
    const PgnItem *it;
    while ((it = pgn_next(r))->event != PGN_EOF) {
        switch (it->event) {
        case PGN_GAME_START:
            buf.length = 0;
            if (buf.text)
                buf.text[0] = '\0';
            next_ply = o->min_ply + rng_between(rng, 0, o->max_gap - o->min_gap);
            break;
        case PGN_MOVE:
            if (it->depth == 0 && it->move != MOVE_NULL && it->ply == next_ply && it->ply <= o->max_ply) {
                sample(o, rng, it->position, it->game, it->ply, &buf);
                next_ply = it->ply + rng_between(rng, o->min_gap, o->max_gap);
            }
            break;
        case PGN_GAME_END: {
            c->games++;
            const char *label = !strcmp(it->result, "1-0") ? "1.0" : !strcmp(it->result, "0-1") ? "0.0"
                              : !strcmp(it->result, "1/2-1/2") ? "0.5" : NULL;
            if (label)
                c->positions += flush_game(&buf, label, out);
            else
                c->unfinished++;
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
    fprintf(stderr, "usage: pgnselect [-min N] [-max N] [-d N] [-s N] [-r] [--seed N] [--id] [-o FILE] [FILE.pgn ...]\n");
}

static bool parse_int(const char *s, int *v)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || *end || x < 0 || x > 1000000)
        return false;
    *v = (int)x;
    return true;
}

int main(int argc, char **argv)
{
    Options o = { 30, 150, 3, 10, false, false, 1, NULL };
    int first_file = argc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int *target = !strcmp(a, "-min") ? &o.min_ply : !strcmp(a, "-max") ? &o.max_ply
                    : !strcmp(a, "-d") ? &o.min_gap : !strcmp(a, "-s") ? &o.max_gap : NULL;
        if (target) {
            if (i + 1 >= argc || !parse_int(argv[i + 1], target)) {
                fprintf(stderr, "pgnselect: %s needs a number from 0 to 1000000\n", a);
                return 2;
            }
            i++;
        } else if (!strcmp(a, "-r")) {
            o.random_move = true;
        } else if (!strcmp(a, "--id")) {
            o.ids = true;
        } else if (!strcmp(a, "--seed") || !strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "pgnselect: %s needs a value\n", a);
                return 2;
            }
            if (!strcmp(a, "-o")) {
                o.out_path = argv[++i];
            } else {
                char *end;
                o.seed = strtoull(argv[++i], &end, 10);
                if (end == argv[i] || *end) {
                    fprintf(stderr, "pgnselect: --seed needs a number\n");
                    return 2;
                }
            }
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "pgnselect: unknown option %s\n", a);
            usage();
            return 2;
        } else {
            first_file = i;
            break;
        }
    }
    if (o.min_gap < 1 || o.max_gap < o.min_gap || o.max_ply < o.min_ply) {
        fprintf(stderr, "pgnselect: need 1 <= -d <= -s and -min <= -max\n");
        return 2;
    }
    position_init();

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
        ok &= read_games(&o, &rng, r, out, &c);
        pgn_close(r);
    }
    show_progress(&c, true);
    fprintf(stderr, "pgnselect: %ld games (%ld skipped, %ld without result), %ld positions\n", c.games + c.skipped,
            c.skipped, c.unfinished, c.positions);
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
