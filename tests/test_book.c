/* Opening book: Polyglot keys, the file format, makebook's rules, probing, choosing,
 * damaged files, and Polyglot books against `polyglot make-book`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/movegen.h"
#include "board/notation.h"
#include "formats/pgn.h"
#include "opening/book.h"
#include "opening/book_format.h"
#include "toolkit/bookbuild.h"
#include "opening/polyglot.h"
#include "opening/polykey.h"
#include "test.h"
#include "util/crc32.h"
#include "util/timeutil.h"

static const char *data(const char *name)
{
    static _Thread_local char buf[4][1024];
    static _Thread_local int next;
    next = (next + 1) % 4;
    return test_data_path(name, buf[next], sizeof buf[next]);
}

/* ---- helpers ---- */

static Position *pos_after(const char *moves)
{
    static _Thread_local Position pos;
    char err[160];
    position_from_fen(&pos, START_FEN, err, sizeof err, NULL);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        Move m = move_from_uci(&pos, t);
        if (!CHECK_MSG(m != MOVE_NONE, "bad test move %s", t))
            break;
        make_move(&pos, m);
    }
    return &pos;
}

static void ignore(void *ctx, const char *msg)
{
    (void)ctx, (void)msg;
}

/* Builds a book from PGN texts (the first one annotated) into a temporary file and opens it. */
static Book *build(const char *annotated, const char *games, int min_freq, int max_ply, BookBuildStats *stats)
{
    BookBuildOptions o = { min_freq, max_ply };
    BookBuilder *b = bookbuild_new(&o);
    char err[300];
    const char *texts[2] = { annotated, games };
    for (int i = 0; i < 2; i++) {
        if (!texts[i])
            continue;
        FILE *f = fmemopen((void *)texts[i], strlen(texts[i]), "r");
        CHECK(bookbuild_add_stream(b, f, i ? "games" : "annotated", i == 0, ignore, NULL, NULL, NULL, err, sizeof err));
        fclose(f);
    }
    if (stats)
        *stats = *bookbuild_stats(b);
    char path[] = "/tmp/saavedra-test-book-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    BookBuildSummary sum;
    bool ok = CHECK(bookbuild_write(b, path, 0, &sum, err, sizeof err));
    bookbuild_free(b);
    Book *book = ok ? book_open(path, err, sizeof err) : NULL;
    CHECK_MSG(book != NULL, "open: %s", err);
    unlink(path);
    return book;
}

/* The book move written m (UCI) in the probe of pos, or NULL. */
static const BookMove *find(const BookMove *moves, int n, const char *uci)
{
    char buf[6];
    for (int i = 0; i < n; i++)
        if (!strcmp(move_to_uci(moves[i].move, buf), uci))
            return &moves[i];
    return NULL;
}

static void check_entry(const Book *book, const char *line, const char *uci, int weight, int count,
                        int wins, int draws, int losses)
{
    BookMove m[BOOK_MOVES_MAX];
    int n = book_probe(book, pos_after(line), m, BOOK_MOVES_MAX);
    const BookMove *e = find(m, n, uci);
    if (!CHECK_MSG(e != NULL, "after '%s': %s not in the book", line, uci))
        return;
    CHECK_MSG((int)e->weight == weight && (int)e->count == count && (int)e->wins == wins
                  && (int)e->draws == draws && (int)e->losses == losses,
              "after '%s' %s: weight %u count %u +%u =%u -%u, expected %d %d +%d =%d -%d", line, uci,
              e->weight, e->count, e->wins, e->draws, e->losses, weight, count, wins, draws, losses);
}

static int probe_count(const Book *book, const char *line)
{
    BookMove m[BOOK_MOVES_MAX];
    return book_probe(book, pos_after(line), m, BOOK_MOVES_MAX);
}

/* ---- keys and checksums ---- */

TEST(crc32_check_value)
{
    CHECK_EQ(crc32_update(0, "123456789", 9), 0xCBF43926u);
    CHECK_EQ(crc32_update(crc32_update(0, "1234", 4), "56789", 5), 0xCBF43926u);
}

/* The example keys published with the Polyglot book format. */
TEST(polyglot_key_published_examples)
{
    static const struct { const char *moves; uint64_t key; } cases[] = {
        { "", 0x463b96181691fc9cULL },
        { "e2e4", 0x823c9b50fd114196ULL },
        { "e2e4 d7d5", 0x0756b94461c50fb0ULL },
        { "e2e4 d7d5 e4e5", 0x662fafb965db29d4ULL },
        { "e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78ULL },
        { "e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1ULL },
        { "e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9ULL },
        { "a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637ULL },
        { "a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560ULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        CHECK_MSG(polyglot_key(pos_after(cases[i].moves)) == cases[i].key, "key after '%s'", cases[i].moves);
    /* The same position from a FEN, with the en-passant square given. */
    Position pos;
    char err[160];
    position_from_fen(&pos, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", err, sizeof err, NULL);
    CHECK(polyglot_key(&pos) == 0x22a48b5a8e47ff78ULL);
}

/* ---- makebook's rules ---- */

static const char GAMES[] =
    "[Result \"1-0\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n"
    "[Result \"0-1\"]\n1. Nf3 Nc6 2. e4 e5 3. Bb5 Nf6 0-1\n\n"      /* transposes at ply 4 */
    "[Result \"1/2-1/2\"]\n1. e4 c5 1/2-1/2\n\n"
    "[Result \"*\"]\n1. e4 e5 2. Nf3 Nc6 3. Bc4 *\n\n"
    "[Result \"1-0\"]\n1. h4 h5 2. h5 1-0\n\n"                    /* illegal: skipped */
    "[Result \"0-1\"]\n1. g3 *\n\n";          /* cut short: the Result tag counts */

TEST(makebook_counts_results_and_transpositions)
{
    BookBuildStats st;
    Book *book = build("", GAMES, 1, 0, &st);
    if (!book)
        return;
    CHECK_EQ(st.games, 5);
    CHECK_EQ(st.skipped, 1);
    check_entry(book, "", "e2e4", 100, 3, 1, 1, 0);
    check_entry(book, "", "g1f3", 9, 1, 0, 0, 1);
    check_entry(book, "", "g2g3", 9, 1, 0, 0, 1);
    CHECK_EQ(probe_count(book, ""), 3); /* h4 came from the skipped game only */
    /* e5 scored 0 of 1 decided game, c5 a draw: c5 is the stronger */
    check_entry(book, "e2e4", "e7e5", 89, 2, 0, 0, 1);
    check_entry(book, "e2e4", "c7c5", 100, 1, 0, 1, 0);
    /* 1.e4 e5 2.Nf3 Nc6 and 1.Nf3 Nc6 2.e4 e5 reach one position. */
    check_entry(book, "e2e4 e7e5 g1f3 b8c6", "f1b5", 100, 2, 1, 0, 1);
    check_entry(book, "g1f3 b8c6 e2e4 e7e5", "f1b5", 100, 2, 1, 0, 1);
    check_entry(book, "e2e4 e7e5 g1f3 b8c6", "f1c4", 50, 1, 0, 0, 0);
    CHECK_EQ(probe_count(book, "e2e4 e7e5 g1f3 b8c6 f1b5"), 2);
    CHECK_EQ(book_position_count(book), 9);
    CHECK_EQ(book_entry_count(book), 14);
    book_close(book);
}

TEST(makebook_min_freq_and_max_ply)
{
    Book *book = build("", GAMES, 2, 0, NULL);
    if (book) {
        check_entry(book, "", "e2e4", 100, 3, 1, 1, 0);
        CHECK_EQ(probe_count(book, ""), 1);           /* Nf3: one game */
        CHECK_EQ(probe_count(book, "e2e4"), 1);       /* c5: one game */
        CHECK_EQ(probe_count(book, "e2e4 e7e5 g1f3 b8c6"), 1);
        book_close(book);
    }
    book = build("", GAMES, 1, 2, NULL);
    if (book) {
        CHECK_EQ(probe_count(book, ""), 3);
        CHECK_EQ(probe_count(book, "e2e4"), 2);
        CHECK_EQ(probe_count(book, "e2e4 e7e5"), 0);  /* ply 2 and later left out */
        book_close(book);
    }
}

static const char ANNOTATED[] =
    "[Event \"a\"]\n1. e4 {weight: 80} e5 (1... c5 $2 2. Nf3) 2. Nf3 $1 Nc6 $14 *\n\n"
    "[Event \"b\"]\n1. d4 $3 d5 2. c4 $5 (2. Nf3 {Weight:0}) (2. Bf4 $6) *\n\n"
    "[Event \"c\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5!! a6 4. Ba4 $18 *\n\n";

TEST(makebook_annotations)
{
    Book *book = build(ANNOTATED, NULL, 1, 1, NULL); /* -p does not cut the annotated file */
    if (!book)
        return;
    check_entry(book, "", "e2e4", 80, 0, 0, 0, 0);
    check_entry(book, "", "d2d4", 100, 0, 0, 0, 0);
    /* e5 lies on two evaluated lines: += and +- for White, so x2^-(0.32+1)/2 for Black. */
    check_entry(book, "e2e4", "e7e5", 32, 0, 0, 0, 0);
    check_entry(book, "e2e4", "c7c5", 0, 0, 0, 0, 0);        /* ?: never played, still known */
    check_entry(book, "e2e4 c7c5", "g1f3", 50, 0, 0, 0, 0);  /* no evaluation on that line */
    check_entry(book, "e2e4 e7e5", "g1f3", 100, 0, 0, 0, 0); /* 50 x 1.57 x 1.5, capped */
    check_entry(book, "e2e4 e7e5 g1f3", "b8c6", 32, 0, 0, 0, 0);
    check_entry(book, "e2e4 e7e5 g1f3 b8c6", "f1b5", 100, 0, 0, 0, 0);
    check_entry(book, "e2e4 e7e5 g1f3 b8c6 f1b5", "a7a6", 25, 0, 0, 0, 0);
    check_entry(book, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6", "b5a4", 100, 0, 0, 0, 0);
    check_entry(book, "d2d4", "d7d5", 50, 0, 0, 0, 0);
    check_entry(book, "d2d4 d7d5", "c2c4", 63, 0, 0, 0, 0);  /* !?: x1.25 */
    check_entry(book, "d2d4 d7d5", "g1f3", 0, 0, 0, 0, 0);   /* explicit weight 0 */
    check_entry(book, "d2d4 d7d5", "c1f4", 25, 0, 0, 0, 0);  /* ?!: x0.5 */
    BookMove m[BOOK_MOVES_MAX];
    int n = book_probe(book, pos_after("d2d4 d7d5"), m, BOOK_MOVES_MAX);
    CHECK_EQ(n, 3);
    CHECK(m[0].weight >= m[1].weight && m[1].weight >= m[2].weight); /* best first */
    uint64_t rng = 1;
    for (int i = 0; i < 1000; i++) {
        int k = book_choose(m, n, 100, &rng);
        CHECK(k >= 0 && m[k].weight > 0);
    }
    book_close(book);
}

/* An annotated move the games know well takes its weight from them; one they hardly
 * know gets the neutral 50. Statistics always come from the games. */
TEST(makebook_annotated_with_games)
{
    char games[4096] = "";
    for (int i = 0; i < 6; i++)
        strcat(games, "[Result \"1-0\"]\n1. e4 e5 1-0\n\n");
    strcat(games, "[Result \"0-1\"]\n1. d4 d5 0-1\n\n");
    Book *book = build("1. e4 e5 (1... c5) *\n1. d4 *\n", games, 1, 0, NULL);
    if (!book)
        return;
    check_entry(book, "", "e2e4", 100, 6, 6, 0, 0);
    check_entry(book, "", "d2d4", 50, 1, 0, 0, 1);
    check_entry(book, "e2e4", "c7c5", 50, 0, 0, 0, 0);
    book_close(book);
}

/* ---- choosing ---- */

TEST(book_choose_variety)
{
    BookMove m[4] = { { .weight = 60 }, { .weight = 30 }, { .weight = 10 }, { .weight = 0 } };
    uint64_t rng = 12345;
    for (int i = 0; i < 1000; i++)
        CHECK_EQ(book_choose(m, 4, 0, &rng), 0);
    const int draws = 200000;
    for (int variety = 50; variety <= 100; variety += 50) {
        int hits[4] = {0};
        for (int i = 0; i < draws; i++)
            hits[book_choose(m, 4, variety, &rng)]++;
        double e = variety == 100 ? 1.0 : 2.0, total = 0, p[3];
        for (int k = 0; k < 3; k++)
            total += p[k] = __builtin_pow(m[k].weight, e);
        CHECK_EQ(hits[3], 0); /* weight 0 never */
        for (int k = 0; k < 3; k++) {
            double expected = draws * p[k] / total;
            /* well over five standard deviations of a binomial count */
            CHECK_MSG(__builtin_fabs(hits[k] - expected) < 6 * __builtin_sqrt(expected) + 1,
                      "variety %d move %d: %d draws, expected %.0f", variety, k, hits[k], expected);
        }
    }
    BookMove none[2] = { { .weight = 0 }, { .weight = 0 } };
    CHECK_EQ(book_choose(none, 2, 100, &rng), -1);
    CHECK_EQ(book_choose(none, 0, 0, &rng), -1);
    /* The same seed gives the same choices. */
    uint64_t a = 77, b = 77;
    for (int i = 0; i < 100; i++)
        CHECK_EQ(book_choose(m, 4, 100, &a), book_choose(m, 4, 100, &b));
}

/* ---- probing only legal moves, damaged files ---- */

/* A book whose start-position record holds every move code 0..254: only the 20 legal
 * moves come back. */
TEST(book_probe_returns_legal_moves_only)
{
    BookEntry e[255];
    for (int i = 0; i < 255; i++)
        e[i] = (BookEntry){ (uint8_t)i, 50, 1, 0, 1, 0 };
    BookWritePosition p = { polyglot_key(pos_after("")), 0, 255 };
    BookHeader h = {0};
    char path[] = "/tmp/saavedra-test-book-XXXXXX", err[200];
    close(mkstemp(path));
    CHECK(book_write_file(path, &p, 1, e, 1, &h, err, sizeof err) > 0);
    Book *book = book_open(path, err, sizeof err);
    unlink(path);
    if (!CHECK_MSG(book != NULL, "%s", err))
        return;
    BookMove m[BOOK_MOVES_MAX];
    Position *pos = pos_after("");
    int n = book_probe(book, pos, m, BOOK_MOVES_MAX);
    CHECK_EQ(n, 20);
    for (int i = 0; i < n; i++)
        CHECK(move_is_legal(pos, m[i].move));
    book_close(book);
}

/* Every probe along real games (annotated file plus master games) gives legal moves. */
TEST(book_probe_along_games_is_legal)
{
    BookBuildOptions o = { 1, 30 };
    BookBuilder *b = bookbuild_new(&o);
    char err[300], path[] = "/tmp/saavedra-test-book-XXXXXX";
    CHECK(bookbuild_add_file(b, data("pgn/arasan_basic_first320.pgn"), true, ignore, NULL, NULL, NULL, err, sizeof err));
    CHECK(bookbuild_add_file(b, data("pgn/Nakamura.pgn"), false, ignore, NULL, NULL, NULL, err, sizeof err));
    close(mkstemp(path));
    BookBuildSummary sum;
    CHECK(bookbuild_write(b, path, 0, &sum, err, sizeof err));
    bookbuild_free(b);
    Book *book = book_open(path, err, sizeof err);
    unlink(path);
    if (!CHECK_MSG(book != NULL, "%s", err))
        return;
    PgnReader *r = pgn_open(data("pgn/Nakamura.pgn"), ignore, NULL);
    const PgnItem *it;
    long probes = 0, hits = 0;
    BookMove m[BOOK_MOVES_MAX];
    while ((it = pgn_next(r))->event != PGN_EOF) {
        if (it->event != PGN_MOVE || it->depth || it->ply >= 30)
            continue;
        int n = book_probe(book, it->position, m, BOOK_MOVES_MAX);
        probes++;
        hits += n > 0;
        CHECK(find(m, n, "0000") == NULL);
        for (int i = 0; i < n; i++)
            CHECK(move_is_legal(it->position, m[i].move));
        /* The move played is in the book (every game move up to ply 30 went in). */
        char uci[6];
        CHECK_MSG(find(m, n, move_to_uci(it->move, uci)) != NULL, "game %ld ply %d", it->game, it->ply);
    }
    pgn_close(r);
    CHECK(probes > 30000 && hits == probes);
    book_close(book);
}

/* A book cut at every length, or with any one byte changed, is refused with a message. */
TEST(book_damaged_files_are_refused)
{
    const char *games = "[Result \"1-0\"]\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n"
                        "[Result \"0-1\"]\n1. d4 Nf6 2. c4 e6 0-1\n";
    BookBuildOptions o = { 1, 0 };
    BookBuilder *b = bookbuild_new(&o);
    char err[300], path[] = "/tmp/saavedra-test-book-XXXXXX";
    FILE *f = fmemopen((void *)games, strlen(games), "r");
    bookbuild_add_stream(b, f, "g", false, ignore, NULL, NULL, NULL, err, sizeof err);
    fclose(f);
    close(mkstemp(path));
    BookBuildSummary sum;
    CHECK(bookbuild_write(b, path, 0, &sum, err, sizeof err));
    bookbuild_free(b);
    f = fopen(path, "rb");
    uint8_t bytes[4096];
    size_t size = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    unlink(path);
    CHECK(size == sum.bytes && size < sizeof bytes);
    Book *book = book_open_bytes(bytes, size, "whole", err, sizeof err);
    CHECK_MSG(book != NULL, "%s", err);
    book_close(book);
    for (size_t cut = 0; cut < size; cut++) {
        err[0] = '\0';
        book = book_open_bytes(bytes, cut, "cut", err, sizeof err);
        CHECK_MSG(book == NULL && err[0], "cut at %zu accepted", cut);
        book_close(book);
    }
    for (size_t at = 0; at < size; at++) {
        uint8_t copy[4096];
        memcpy(copy, bytes, size);
        copy[at] ^= 0x5A;
        book = book_open_bytes(copy, size, "changed", err, sizeof err);
        CHECK_MSG(book == NULL, "byte %zu changed accepted", at);
        book_close(book);
    }
}

/* Random bytes: refused, or (a whole number of sorted 16-byte records is a Polyglot
 * book) probed without harm and legal moves only. */
TEST(book_random_bytes)
{
    uint64_t s = 99;
    uint8_t buf[2048];
    Position *pos = pos_after("");
    int accepted = 0;
    for (int round = 0; round < 3000; round++) {
        size_t size = (size_t)(round % 3 == 0 ? 16 * (round % 5) : round % 2048);
        for (size_t i = 0; i < size; i++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            buf[i] = (uint8_t)(s >> 56);
        }
        if (round % 4 == 1 && size >= 8)
            memcpy(buf, BOOK_MAGIC, 8);
        if (round % 7 == 2 && size >= 16) /* the start position's key: some probes hit */
            for (int i = 0; i < 8; i++)
                buf[i] = (uint8_t)(0x463b96181691fc9cULL >> (56 - 8 * i));
        char err[200] = "";
        Book *book = book_open_bytes(buf, size, "random", err, sizeof err);
        if (!book) {
            CHECK(err[0] != '\0');
            continue;
        }
        accepted++;
        CHECK(book_kind(book) == BOOK_KIND_POLYGLOT && size % 16 == 0);
        BookMove m[BOOK_MOVES_MAX];
        int n = book_probe(book, pos, m, BOOK_MOVES_MAX);
        for (int i = 0; i < n; i++)
            CHECK(move_is_legal(pos, m[i].move));
        book_close(book);
    }
    CHECK(accepted > 0 && accepted < 1500);
    char err[200];
    CHECK(book_open("/nonexistent/book.bin", err, sizeof err) == NULL && strstr(err, "/nonexistent"));
    CHECK(book_open("/tmp", err, sizeof err) == NULL);
}

/* ---- Polyglot books ---- */

/* tests/data/book/nakamura-polyglot-p12.bin was built by Debian's polyglot 2.0.4:
 *   polyglot make-book -pgn tests/data/pgn/Nakamura.pgn -bin nakamura-polyglot-p12.bin \
 *       -max-ply 12 -min-game 1
 * Polyglot weighs a move by its score for the side that played it (2 per win, 1 per
 * draw) over the games' first 12 plies. Our builder sees the same games: for every
 * position of those games, the Polyglot book read by our reader must give exactly the
 * moves our book has with a score above 0, with weight = 2 wins + draws. */
TEST(polyglot_book_matches_polyglot_make_book)
{
    char err[300], path[] = "/tmp/saavedra-test-book-XXXXXX";
    Book *poly = book_open(data("book/nakamura-polyglot-p12.bin"), err, sizeof err);
    if (!CHECK_MSG(poly != NULL, "%s", err))
        return;
    CHECK(book_kind(poly) == BOOK_KIND_POLYGLOT);
    BookBuildOptions o = { 1, 12 };
    BookBuilder *b = bookbuild_new(&o);
    CHECK(bookbuild_add_file(b, data("pgn/Nakamura.pgn"), false, ignore, NULL, NULL, NULL, err, sizeof err));
    close(mkstemp(path));
    BookBuildSummary sum;
    CHECK(bookbuild_write(b, path, 0, &sum, err, sizeof err));
    bookbuild_free(b);
    Book *own = book_open(path, err, sizeof err);
    unlink(path);
    if (!CHECK_MSG(own != NULL, "%s", err)) {
        book_close(poly);
        return;
    }
    PgnReader *r = pgn_open(data("pgn/Nakamura.pgn"), ignore, NULL);
    const PgnItem *it;
    long positions = 0, moves = 0, mismatches = 0;
    while ((it = pgn_next(r))->event != PGN_EOF) {
        if (it->event != PGN_MOVE || it->depth || it->ply >= 12)
            continue;
        BookMove pm[BOOK_MOVES_MAX], om[BOOK_MOVES_MAX];
        int pn = book_probe(poly, it->position, pm, BOOK_MOVES_MAX);
        int on = book_probe(own, it->position, om, BOOK_MOVES_MAX);
        int scored = 0;
        for (int i = 0; i < on; i++) {
            uint32_t score = 2 * om[i].wins + om[i].draws;
            if (score == 0)
                continue;
            scored++;
            char uci[6];
            const BookMove *p = find(pm, pn, move_to_uci(om[i].move, uci));
            if (!p || p->weight != score) {
                if (mismatches++ < 5)
                    CHECK_MSG(false, "game %ld ply %d: %s polyglot weight %d, expected %u", it->game,
                              it->ply, uci, p ? (int)p->weight : -1, score);
            }
        }
        if (scored != pn && mismatches++ < 5)
            CHECK_MSG(false, "game %ld ply %d: polyglot has %d moves, we %d with a score", it->game, it->ply, pn, scored);
        positions++;
        moves += pn;
    }
    pgn_close(r);
    CHECK_EQ(mismatches, 0);
    CHECK(positions > 14000 && moves > positions);
    book_close(poly);
    book_close(own);
}

TEST(polyglot_decode_castling_and_promotion)
{
    Position pos;
    char err[160], uci[6];
    position_from_fen(&pos, "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1", err, sizeof err, NULL);
    /* e1h1 = O-O, e1a1 = O-O-O, b7a8 promoting to a queen (4), to a knight (1). */
    CHECK_STR_EQ(move_to_uci(polyglot_decode_move(&pos, (uint16_t)(E1 << 6 | H1)), uci), "e1g1");
    CHECK_STR_EQ(move_to_uci(polyglot_decode_move(&pos, (uint16_t)(E1 << 6 | A1)), uci), "e1c1");
    CHECK_STR_EQ(move_to_uci(polyglot_decode_move(&pos, (uint16_t)(4 << 12 | B7 << 6 | A8)), uci), "b7a8q");
    CHECK_STR_EQ(move_to_uci(polyglot_decode_move(&pos, (uint16_t)(1 << 12 | B7 << 6 | B8)), uci), "b7b8n");
    CHECK(polyglot_decode_move(&pos, (uint16_t)(E1 << 6 | E3)) == MOVE_NONE);
    CHECK(polyglot_decode_move(&pos, (uint16_t)(5 << 12 | B7 << 6 | B8)) == MOVE_NONE);
}

TEST(book_pages_option)
{
    char note[200];
    CHECK_EQ(book_pages_for(0, 1000, note, sizeof note), 1000 / BOOK_PAGE_TARGET + 1);
    CHECK(note[0] == '\0');
    CHECK_EQ(book_pages_for(1, 100000, note, sizeof note), 100000 / BOOK_PAGE_MAX + 1);
    CHECK(strstr(note, "too few") != NULL);
    CHECK_EQ(book_pages_for(5000, 10, note, sizeof note), 10);
    CHECK(note[0] != '\0');
    CHECK_EQ(book_pages_for(7, 1000, note, sizeof note), 7);
    CHECK_EQ(book_pages_for(3, 0, note, sizeof note), 1);
}

/* The book writer used a guessable temporary name (PATH.tmpPID) opened without O_EXCL:
 * a link planted there had its target overwritten. */
TEST(book_write_never_writes_through_a_planted_link)
{
    char dir[] = "/tmp/saavedra-outfile-XXXXXX";
    if (!CHECK(mkdtemp(dir)))
        return;
    char path[300], victim[300], planted[400], text[100], err[300];
    snprintf(path, sizeof path, "%s/book.bin", dir);
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    FILE *vf = fopen(victim, "w");
    if (!CHECK(vf))
        return;
    fputs("precious", vf);
    fclose(vf);
    const char *forms[] = { "%s.tmp%ld", "%s.tmp-%ld", "%s.tmp" };
    for (int i = 0; i < 3; i++) {
        snprintf(planted, sizeof planted, forms[i], path, (long)getpid());
        CHECK(symlink(victim, planted) == 0);
    }
    BookEntry e = { 0, 50, 1, 0, 1, 0 };
    BookWritePosition p = { 0x1234, 0, 1 };
    BookHeader h = {0};
    CHECK_MSG(book_write_file(path, &p, 1, &e, 1, &h, err, sizeof err) > 0, "%s", err);
    vf = fopen(victim, "r");
    size_t n = vf ? fread(text, 1, sizeof text - 1, vf) : 0;
    text[n] = '\0';
    if (vf)
        fclose(vf);
    CHECK_STR_EQ(text, "precious");
    for (int i = 0; i < 3; i++) {
        snprintf(planted, sizeof planted, forms[i], path, (long)getpid());
        unlink(planted);
    }
    unlink(victim);
    unlink(path);
    rmdir(dir);
}

/* A huge (here sparse) file is refused before it is read; a zero-filled one is not taken
 * for a Polyglot book. */
TEST(book_huge_or_zero_file_refused_at_once)
{
    char path[] = "/tmp/saavedra-test-book-XXXXXX", err[300];
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    CHECK(ftruncate(fd, (off_t)3 << 30) == 0); /* 3 GB, no blocks */
    int64_t start = time_now_ms();
    Book *book = book_open(path, err, sizeof err);
    CHECK(book == NULL && strstr(err, "too large"));
    CHECK_MSG(time_now_ms() - start < 1000, "%lld ms to refuse a 3 GB file", (long long)(time_now_ms() - start));
    book_close(book);
    CHECK(ftruncate(fd, 0) == 0 && ftruncate(fd, 1 << 20) == 0); /* 1 MB of zeros */
    book = book_open(path, err, sizeof err);
    CHECK_MSG(book == NULL && strstr(err, "zero"), "a zero-filled file opened as a book");
    book_close(book);
    static uint8_t zeros[4096];
    book = book_open_bytes(zeros, sizeof zeros, "zeros", err, sizeof err);
    CHECK(book == NULL && strstr(err, "zero"));
    book_close(book);
    close(fd);
    unlink(path);
}
