/* bookbench: probe time of an opening book (docs/book-format.md, "Measured").
 *
 *   bookbench BOOK GAMES.pgn [RANDOM_COUNT] [SEED]
 *
 * Book positions: every main-line position of the first 30 plies of the games that the
 * book has moves for. Other positions: RANDOM_COUNT (default 100000) positions reached by
 * 4 to 40 random legal moves from the start (SEED fixed, default 1), those the book does
 * not know. Each probe (book_probe: key, lookup, decoding and legality of every move) is
 * timed alone with the monotonic clock, in a shuffled order so that neither the branch
 * predictor nor the cache sees the same position twice in a row; the median, 10th and
 * 90th percentiles are printed for each kind. The clock's own cost (two reads) is
 * measured the same way and printed, not subtracted. Also: the time to open the book
 * (read and check the whole file), best of five. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board/movegen.h"
#include "board/position.h"
#include "board/position_copy.h"
#include "formats/pgn.h"
#include "opening/book.h"
#include "util/words.h"

typedef struct {
    unsigned char *v;   /* snapshots (board/position_copy.h), SNAPSHOT_BYTES each */
    size_t n, cap;
} Positions;

static const Position *at(const Positions *p, size_t i)
{
    return (const Position *)(p->v + i * SNAPSHOT_BYTES);
}

static void add(Positions *p, const Position *pos)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 4096;
        p->v = realloc(p->v, p->cap * SNAPSHOT_BYTES);
        if (!p->v) {
            fprintf(stderr, "bookbench: out of memory\n");
            exit(1);
        }
    }
    position_copy_current((Position *)(p->v + p->n++ * SNAPSHOT_BYTES), pos);
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void timed(const char *label, const Book *book, Positions *p, uint64_t *seed, bool clock_only)
{
    if (p->n == 0) {
        printf("%-10s no positions\n", label);
        return;
    }
    size_t *order = malloc(p->n * sizeof *order);
    int64_t *t = malloc(p->n * sizeof *t);
    for (size_t i = 0; i < p->n; i++)
        order[i] = i;
    for (size_t i = p->n - 1; i > 0; i--) {
        size_t j = rng_next(seed) % (i + 1), x = order[i];
        order[i] = order[j], order[j] = x;
    }
    BookMove m[BOOK_MOVES_MAX];
    long found = 0;
    for (size_t k = 0; k < p->n; k++) {
        const Position *pos = at(p, order[k]);
        int64_t a = now_ns();
        int n = clock_only ? 0 : book_probe(book, pos, m, BOOK_MOVES_MAX);
        int64_t b = now_ns();
        t[k] = b - a;
        found += n;
    }
    qsort(t, p->n, sizeof *t, cmp64);
    printf("%-10s %8zu probes  median %5lld ns  p10 %5lld  p90 %5lld  (%.2f moves each)\n", label, p->n,
           (long long)t[p->n / 2], (long long)t[p->n / 10], (long long)t[p->n * 9 / 10], (double)found / p->n);
    free(order);
    free(t);
}

static void quiet(void *ctx, const char *m)
{
    (void)ctx, (void)m;
}

int main(int argc, char **argv)
{
    long random_count = 100000, seed_arg = 1;
    if (argc < 3 || argc > 5 || (argc > 3 && !word_to_long(argv[3], 0, 1000000000, &random_count))
        || (argc > 4 && !word_to_long(argv[4], 1, LONG_MAX, &seed_arg))) {
        fprintf(stderr, "usage: bookbench BOOK GAMES.pgn [RANDOM_COUNT (0..1000000000)] [SEED (1..)]\n");
        return 2;
    }
    uint64_t seed = (uint64_t)seed_arg;
    position_init();
    char err[400];
    Book *book = NULL;
    int64_t best_open = INT64_MAX;
    for (int i = 0; i < 5; i++) { /* opening = reading + checking the whole file */
        book_close(book);
        int64_t a = now_ns();
        book = book_open(argv[1], err, sizeof err);
        int64_t b = now_ns();
        if (!book) {
            fprintf(stderr, "bookbench: %s\n", err);
            return 1;
        }
        if (b - a < best_open)
            best_open = b - a;
    }
    Positions in_book = {0}, out_book = {0};
    BookMove m[BOOK_MOVES_MAX];
    PgnReader *r = pgn_open(argv[2], quiet, NULL);
    if (!r)
        return 1;
    const PgnItem *it;
    while ((it = pgn_next(r))->event != PGN_EOF)
        if (it->event == PGN_MOVE && it->depth == 0 && it->ply < 30
            && book_probe(book, it->position, m, BOOK_MOVES_MAX) > 0)
            add(&in_book, it->position);
    pgn_close(r);
    static Position pos;
    for (long i = 0; i < random_count; i++) {
        position_from_fen(&pos, START_FEN, err, sizeof err, NULL);
        int plies = 4 + (int)(rng_next(&seed) % 37);
        for (int k = 0; k < plies; k++) {
            MoveList list;
            generate_legal(&pos, &list);
            if (list.count == 0)
                break;
            make_move(&pos, list.moves[rng_next(&seed) % list.count]);
            if (pos.st_index > MAX_STATES - 8)
                position_compact(&pos);
        }
        if (book_probe(book, &pos, m, BOOK_MOVES_MAX) == 0)
            add(&out_book, &pos);
    }
    printf("%s: %s book, %u entries, opened and checked in %.1f ms (best of 5)\n", argv[1],
           book_kind(book) == BOOK_KIND_SAAVEDRA ? "Saavedra" : "Polyglot", book_entry_count(book), best_open / 1e6);
    for (int pass = 0; pass < 2; pass++) { /* the first pass warms the caches up */
        if (pass == 1)
            printf("-- timed pass\n");
        timed("in book", book, &in_book, &seed, false);
        timed("not in book", book, &out_book, &seed, false);
        timed("clock only", book, &in_book, &seed, true);
    }
    free(in_book.v);
    free(out_book.v);
    book_close(book);
    return 0;
}
