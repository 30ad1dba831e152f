/* The codec command (see codec_cmd.h). Moves are gathered with their positions (as
 * snapshots) in chunks small enough to stay in the L2 cache, as a position being coded
 * in real use is; each chunk is then encoded and decoded in a timed loop, so the rate
 * counts the codec alone, not PGN parsing. Times are thread CPU time. The files are read
 * CODEC_PASSES times and each chunk keeps its fastest time, which sheds the noise of a
 * shared machine; a chunk is never timed twice in a row, which would let the branch
 * predictor learn its moves. The first pass also checks everything. */
#include "commands/codec_cmd.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "formats/movecode.h"
#include "formats/movecode_tracker.h"
#include "board/notation.h"
#include "formats/pgn.h"
#include "board/position_copy.h"

#define CHUNK_MOVES 2048
#define CODEC_PASSES 3
#define MAX_ERRORS_SHOWN 10

typedef struct {
    long long moves, fallback, errors;
} Counts;

typedef struct {
    /* The chunk: positions (snapshots) and moves, codec results. */
    Position *positions;
    Move *moves;
    int16_t *codes;
    Move *decoded;
    size_t count;
    size_t game_first;      /* first entry of the game being read */

    Counts total, game;     /* finished games; the game being read */
    long games, skipped;
    int pass;               /* 0: time and check; later passes only time */
    int64_t *chunk_ns;      /* fastest time of each chunk so far */
    size_t chunks, chunk_capacity, chunk_index;
    long long timed_moves;
    int64_t pass_ns[CODEC_PASSES], pgn_ns;
    long long tracker_checked, tracker_errors, null_moves;
    long errors_shown;

    MoveCodeTracker current[PGN_MAX_DEPTH + 1], before[PGN_MAX_DEPTH + 1];
} Codec;

static inline int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void show_error(Codec *c, const Position *pos, Move m, int code, Move back, const char *what)
{
    if (c->errors_shown++ >= MAX_ERRORS_SHOWN)
        return;
    char fen[128], uci[8], uci_back[8];
    position_to_fen(pos, fen);
    fprintf(stderr, "codec: %s: %s in %s: code %d, decoded %s\n", what, move_to_uci(m, uci), fen,
            code, move_to_uci(back, uci_back));
}

/* Encodes and decodes every entry of the chunk (timed), then checks the results. */
static void flush_chunk(Codec *c)
{
    size_t n = c->count;
    int64_t start = now_ns();
    for (size_t i = 0; i < n; i++) {
        const Position *pos = snapshot_at(c->positions, i);
        int code = movecode_encode(pos, c->moves[i]);
        c->codes[i] = (int16_t)code;
        c->decoded[i] = movecode_decode(pos, code);
    }
    int64_t elapsed = now_ns() - start;
    c->pass_ns[c->pass] += elapsed;
    if (c->pass > 0) {
        size_t k = c->chunk_index++;
        if (k < c->chunks && elapsed < c->chunk_ns[k])
            c->chunk_ns[k] = elapsed;
        c->count = 0;
        c->game_first = 0;
        return;
    }
    if (c->chunks == c->chunk_capacity) {
        size_t capacity = c->chunk_capacity ? 2 * c->chunk_capacity : 1024;
        int64_t *grown = realloc(c->chunk_ns, capacity * sizeof *grown);
        if (grown) {
            c->chunk_ns = grown;
            c->chunk_capacity = capacity;
        }
    }
    if (c->chunks < c->chunk_capacity) {
        c->chunk_ns[c->chunks++] = elapsed;
        c->timed_moves += (long long)n;
    }

    for (size_t i = 0; i < n; i++) {
        const Position *pos = snapshot_at(c->positions, i);
        Counts *counts = i < c->game_first ? &c->total : &c->game;
        bool ok = c->codes[i] >= 0 && c->decoded[i] == c->moves[i];
        counts->moves++;
        counts->fallback += movecode_fallback(pos);
        if (!ok) {
            counts->errors++;
            show_error(c, pos, c->moves[i], c->codes[i], c->decoded[i], "round trip failed");
        }
    }
    c->count = 0;
    c->game_first = 0;
}

static void add_move(Codec *c, const Position *pos, Move m, int depth)
{
    if (m == MOVE_NULL) { /* no code for it: the numbering simply carries on */
        c->before[depth] = c->current[depth];
        c->null_moves += c->pass == 0;
        return;
    }
    if (c->count == CHUNK_MOVES)
        flush_chunk(c);
    position_copy_current(snapshot_at(c->positions, c->count), pos);
    c->moves[c->count++] = m;
    if (c->pass > 0)
        return;

    /* The tracker of this line against the stateless codec and from-scratch numbering. */
    MoveCodeTracker *t = &c->current[depth];
    int code = movecode_encode_tracked(t, pos, m);
    Move back = movecode_decode_tracked(t, pos, code);
    c->tracker_checked++;
    if (!movecode_tracker_matches(t, pos) || code != movecode_encode(pos, m) || back != m) {
        c->tracker_errors++;
        c->game.errors++;
        show_error(c, pos, m, code, back, "tracker disagrees");
    }
    c->before[depth] = *t;
    movecode_tracker_update(t, pos, m);
}

static void end_game(Codec *c, bool ok)
{
    if (!ok)
        c->count = c->game_first; /* drop what was gathered (already processed parts aside) */
    else
        c->game_first = c->count;
    if (c->pass == 0 && ok) {
        c->games++;
        c->total.moves += c->game.moves;
        c->total.fallback += c->game.fallback;
        c->total.errors += c->game.errors;
    } else if (c->pass == 0)
        c->skipped++;
    c->game = (Counts){ 0, 0, 0 };
}

static void ignore_message(void *ctx, const char *message)
{
    (void)ctx;
    (void)message;
}

static void read_file(Codec *c, const char *path, bool *io_ok)
{
    PgnReader *r = pgn_open(path, c->pass == 0 ? NULL : ignore_message, NULL); /* messages once */
    if (!r) {
        *io_ok = c->pass > 0 && *io_ok;
        return;
    }
    for (;;) {
        const PgnItem *it = pgn_next(r);
        if (it->event == PGN_EOF)
            break;
        switch (it->event) {
        case PGN_GAME_START:
            c->game_first = c->count;
            break;
        case PGN_MOVETEXT:
            movecode_tracker_init(&c->current[0], it->position);
            break;
        case PGN_MOVE:
            add_move(c, it->position, it->move, it->depth);
            break;
        case PGN_VARIATION_START:
            c->current[it->depth] = c->before[it->depth - 1];
            break;
        case PGN_GAME_END:
            end_game(c, true);
            break;
        case PGN_GAME_SKIPPED:
            end_game(c, false);
            break;
        default:
            break;
        }
    }
    if (pgn_read_failed(r))
        *io_ok = false; /* reported by the reader: not a short file */
    pgn_close(r);
}

/* Reading speed alone: a pass over the files that only reads (messages come in the
 * codec pass). Returns the thread CPU time in ns and the number of games read. */
static int64_t time_pgn_reading(int argc, char **argv, long *games)
{
    int64_t start = now_ns();
    *games = 0;
    for (int i = 0; i < argc; i++) {
        PgnReader *r = pgn_open(argv[i], ignore_message, NULL);
        if (!r)
            continue;
        while (pgn_next(r)->event != PGN_EOF)
            ;
        *games += pgn_games_read(r);
        pgn_close(r);
    }
    return now_ns() - start;
}

int cmd_codec(int argc, char **argv)
{
    if (argc < 1) {
        fprintf(stderr, "usage: saavedra codec FILE.pgn...\n");
        return 2;
    }
    Codec *c = calloc(1, sizeof *c);
    if (c) {
        c->positions = snapshot_array_alloc(CHUNK_MOVES);
        c->moves = malloc(CHUNK_MOVES * sizeof *c->moves);
        c->codes = malloc(CHUNK_MOVES * sizeof *c->codes);
        c->decoded = malloc(CHUNK_MOVES * sizeof *c->decoded);
    }
    if (!c || !c->positions || !c->moves || !c->codes || !c->decoded) {
        fprintf(stderr, "codec: out of memory\n");
        if (c) {
            free(c->positions);
            free(c->moves);
            free(c->codes);
            free(c->decoded);
            free(c);
        }
        return 1;
    }

    long pgn_games = 0;
    c->pgn_ns = time_pgn_reading(argc, argv, &pgn_games);
    bool io_ok = true;
    for (c->pass = 0; c->pass < CODEC_PASSES; c->pass++) {
        c->chunk_index = 0;
        for (int i = 0; i < argc; i++)
            read_file(c, argv[i], &io_ok);
        c->game_first = c->count;
        if (c->count)
            flush_chunk(c);
    }
    int64_t best_ns = 0;
    for (size_t k = 0; k < c->chunks; k++)
        best_ns += c->chunk_ns[k];

    double pgn_s = (double)c->pgn_ns / 1e9, codec_s = (double)best_ns / 1e9;
    printf("pgn: %ld games read (%ld skipped) in %.3f s CPU: %.0f games/s\n", pgn_games, c->skipped,
           pgn_s, pgn_s > 0 ? (double)pgn_games / pgn_s : 0.0);
    printf("tracker: %lld moves checked against from-scratch numbering, %lld disagreements; "
           "%lld null moves not coded\n",
           c->tracker_checked, c->tracker_errors, c->null_moves);
    printf("codec passes:");
    for (int p = 0; p < CODEC_PASSES; p++)
        printf(" %.1f", c->pass_ns[p] > 0
                            ? (double)c->timed_moves / ((double)c->pass_ns[p] / 1e9) / 1e6
                            : 0.0);
    printf(" Mmoves/s; rate below: each chunk's fastest pass, %lld moves in %zu chunks\n",
           c->timed_moves, c->chunks);
    printf("games: %ld  moves: %lld  fallback: %lld  roundtrip-errors: %lld  rate: %.1f Mmoves/s\n",
           c->games, c->total.moves, c->total.fallback, c->total.errors,
           codec_s > 0 ? (double)c->timed_moves / codec_s / 1e6 : 0.0);

    int status = c->total.errors == 0 && io_ok ? 0 : 1;
    free(c->positions);
    free(c->moves);
    free(c->codes);
    free(c->decoded);
    free(c->chunk_ns);
    free(c);
    return status;
}
