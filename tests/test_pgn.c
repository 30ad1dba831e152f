/* Streaming PGN reader: the copied real-world files (game counts checked against the
 * files' own [Event] tags, main-line lengths against PlyCount tags and the edge-case
 * index), format quirks on small inline texts, and malformed games in tests/data/pgn_bad. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/notation.h"
#include "formats/pgn.h"
#include "test.h"

/* Messages from the reader, kept for inspection. */
typedef struct {
    int count;
    char text[16][512];
} Messages;

static void collect(void *ctx, const char *message)
{
    Messages *m = ctx;
    if (m->count < 16)
        snprintf(m->text[m->count], sizeof m->text[0], "%s", message);
    m->count++;
}

/* Games in a file by counting lines with an "[Event " tag (one Arasan line is "R[Event",
 * a BOM precedes another). */
static int count_event_tags(const char *path)
{
    FILE *f = fopen(path, "rb");
    char line[4096];
    int n = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        n += strstr(line, "[Event ") != NULL;
    fclose(f);
    return n;
}

typedef struct {
    long games, skipped, moves, comments, nags, variations, null_moves;
    long plycount_checked, plycount_wrong;
    int mainline[64]; /* main-line plies of the first games */
} Summary;

/* Reads a whole stream; checks that every game with a PlyCount tag has that many
 * main-line plies. */
static void read_all(PgnReader *r, Summary *s)
{
    memset(s, 0, sizeof *s);
    long plycount = -1, plies = 0;
    int depth = 0;
    const PgnItem *it;
    while ((it = pgn_next(r))->event != PGN_EOF) {
        switch (it->event) {
        case PGN_GAME_START:
            plycount = -1;
            plies = 0;
            break;
        case PGN_TAG:
            if (!strcmp(it->tag_name, "PlyCount"))
                plycount = atol(it->tag_value);
            break;
        case PGN_MOVE:
            s->moves++;
            s->null_moves += it->move == MOVE_NULL;
            plies += it->depth == 0;
            CHECK_EQ(it->depth, depth);
            break;
        case PGN_COMMENT: s->comments++; break;
        case PGN_NAG: s->nags++; break;
        case PGN_VARIATION_START:
            depth++;
            s->variations++;
            CHECK_EQ(it->depth, depth);
            break;
        case PGN_VARIATION_END:
            depth--;
            CHECK_EQ(it->depth, depth);
            break;
        case PGN_GAME_END:
            if (s->games < 64)
                s->mainline[s->games] = (int)plies;
            s->games++;
            CHECK_EQ(depth, 0);
            if (plycount >= 0) {
                s->plycount_checked++;
                s->plycount_wrong += plycount != plies;
            }
            break;
        case PGN_GAME_SKIPPED:
            s->skipped++;
            depth = 0;
            break;
        default:
            break;
        }
    }
    CHECK_EQ(s->games, pgn_games_read(r));
    CHECK_EQ(s->skipped, pgn_games_skipped(r));
}

static bool read_file(const char *name, Summary *s, Messages *m)
{
    char path[256];
    memset(m, 0, sizeof *m);
    PgnReader *r = pgn_open(test_data_path(name, path, sizeof path), collect, m);
    if (!CHECK_MSG(r != NULL, "cannot open %s", path))
        return false;
    read_all(r, s);
    pgn_close(r);
    return true;
}

static bool read_text(const char *text, Summary *s, Messages *m)
{
    FILE *f = fmemopen((void *)text, strlen(text), "rb");
    memset(m, 0, sizeof *m);
    if (!CHECK(f != NULL))
        return false;
    PgnReader *r = pgn_open_stream(f, "inline", collect, m);
    if (r) {
        read_all(r, s);
        pgn_close(r);
    }
    fclose(f);
    return r != NULL;
}

TEST(pgn_copied_files_parse)
{
    static const struct { const char *name; int skipped; } FILES[] = {
        { "pgn/Nakamura.pgn", 0 }, { "pgn/edge_cases.pgn", 0 }, { "pgn/carballo_problems_easy.pgn", 0 },
        { "pgn/utf8-bom.pgn", 0 }, { "pgn/chessbase-empty-line.pgn", 0 }, { "pgn/stockfish-learning.pgn", 0 },
        { "pgn/uci-moves.pgn", 0 }, { "pgn/kasparov-deep-blue-1997.pgn", 0 }, { "pgn/molinari-bordais-1979.pgn", 0 },
        { "pgn/anastasian-lewis.pgn", 0 }, { "pgn/nepomniachtchi-liren-game1.pgn", 0 },
        { "pgn/arasan_basic_first320.pgn", 1 },      /* a stray "R" before game 300's tags */
        { "pgn/cutechess-fischerrandom.pgn", 0 },    /* Chess960 (X-FEN, O-O with the king on e/f) */
    };
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++) {
        char path[256];
        int events = count_event_tags(test_data_path(FILES[i].name, path, sizeof path));
        Summary s;
        Messages m;
        if (!read_file(FILES[i].name, &s, &m))
            continue;
        int expected_read = FILES[i].skipped == 4 ? 0 : events;
        CHECK_MSG(s.games == expected_read && s.skipped == FILES[i].skipped && m.count == FILES[i].skipped,
                  "%s: %ld games read, %ld skipped, %d messages; [Event] tags: %d", FILES[i].name, s.games,
                  s.skipped, m.count, events);
        CHECK_MSG(s.plycount_wrong == 0, "%s: %ld of %ld PlyCount tags disagree", FILES[i].name, s.plycount_wrong,
                  s.plycount_checked);
        test_log("%s: %ld games, %ld moves, %ld variations, %ld comments, %ld NAGs, PlyCount checked %ld",
                 FILES[i].name, s.games, s.moves, s.variations, s.comments, s.nags, s.plycount_checked);
        if (!strcmp(FILES[i].name, "pgn/arasan_basic_first320.pgn")) {
            CHECK(s.variations > 10000 && s.comments > 1000 && s.nags > 10000);
            CHECK(m.count >= 1 && strstr(m.text[0], "game 300, line 18607") && strstr(m.text[0], "'R'"));
        }
        if (!strcmp(FILES[i].name, "pgn/cutechess-fischerrandom.pgn"))
            CHECK_MSG(s.games == 4 && s.moves > 200 && s.plycount_checked == 4, "%ld games, %ld moves, %ld PlyCount",
                      s.games, s.moves, s.plycount_checked);
    }
}

/* edge_cases_index.tsv lists each game's main-line plies (fourth column). */
TEST(pgn_edge_cases_match_index)
{
    char path[256], line[1024];
    FILE *f = fopen(test_data_path("pgn/edge_cases_index.tsv", path, sizeof path), "r");
    if (!CHECK(f != NULL))
        return;
    int expected[64], n = 0;
    while (n < 64 && fgets(line, sizeof line, f)) {
        int game, plies;
        char source[128];
        if (sscanf(line, "%d\t%127s\t%*d\t%d", &game, source, &plies) == 3)
            expected[n++] = plies;
    }
    fclose(f);
    Summary s;
    Messages m;
    if (!read_file("pgn/edge_cases.pgn", &s, &m))
        return;
    CHECK_EQ(n, 39);
    CHECK_EQ(s.games, n);
    for (int i = 0; i < n && i < s.games; i++)
        CHECK_MSG(s.mainline[i] == expected[i], "game %d: %d plies, index says %d", i + 1, s.mainline[i], expected[i]);
}

TEST(pgn_format_quirks)
{
    Summary s;
    Messages m;
    /* BOM, CRLF, a Latin-1 byte in a tag, two blank lines between tags and movetext,
     * "%" escape line, move numbers glued and with dots, "12...", no result at the end. */
    const char *quirks = "\xEF\xBB\xBF[Event \"Quirks\"]\r\n[White \"W\xF6lbers\"]\r\n\r\n\r\n"
                         "% an escape line 1. h4\r\n1.e4 e5 2.Nf3 2...Nc6 3. Bb5 {Ruy} a6 4. Ba4\r\n";
    if (read_text(quirks, &s, &m)) {
        CHECK_EQ(s.games, 1);
        CHECK_EQ(s.skipped, 0);
        CHECK_EQ(s.mainline[0], 7);
        CHECK_EQ(s.comments, 1);
    }
    FILE *f = fmemopen((void *)quirks, strlen(quirks), "rb");
    PgnReader *r = f ? pgn_open_stream(f, "inline", collect, &m) : NULL;
    if (CHECK(r != NULL)) {
        const PgnItem *it;
        bool seen_white = false;
        while ((it = pgn_next(r))->event != PGN_EOF)
            if (it->event == PGN_TAG && !strcmp(it->tag_name, "White"))
                seen_white = CHECK_STR_EQ(it->tag_value, "W\xF6lbers");
            else if (it->event == PGN_GAME_END)
                CHECK_STR_EQ(it->result, "*");
        CHECK(seen_white);
        pgn_close(r);
    }
    if (f)
        fclose(f);

    /* Comments kept (with the book's weight), NAGs in every spelling, a ';' comment. */
    const char *annotated = "[Event \"A\"]\n\n1. e4!? {weight: 40} e5 $2 2. Nf3 !! Nc6?! ; rest of line\n"
                            "3. Bb5 a6 (3... Nf6 $14) 1-0\n";
    f = fmemopen((void *)annotated, strlen(annotated), "rb");
    r = f ? pgn_open_stream(f, "inline", collect, &m) : NULL;
    if (CHECK(r != NULL)) {
        int nags[8], n_nags = 0, comments = 0;
        const PgnItem *it;
        while ((it = pgn_next(r))->event != PGN_EOF) {
            if (it->event == PGN_NAG && n_nags < 8)
                nags[n_nags++] = it->nag;
            if (it->event == PGN_COMMENT) {
                if (comments == 0)
                    CHECK_STR_EQ(it->text, "weight: 40");
                else
                    CHECK_STR_EQ(it->text, " rest of line");
                comments++;
            }
            if (it->event == PGN_GAME_END)
                CHECK_STR_EQ(it->result, "1-0");
        }
        CHECK_EQ(comments, 2);
        CHECK_EQ(n_nags, 5);
        int expected[5] = { 5, 2, 3, 6, 14 };
        for (int i = 0; i < n_nags && i < 5; i++)
            CHECK_EQ(nags[i], expected[i]);
        pgn_close(r);
    }
    if (f)
        fclose(f);

    /* A game without a result followed by the next game's tags; a FEN game with Black to
     * move ("1..."); UCI movetext; a tags-only game at the end. */
    const char *several = "[Event \"1\"]\n\n1. d4 d5\n[Event \"2\"]\n[SetUp \"1\"]\n"
                          "[FEN \"6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1\"]\n\n1... h6 2. Rd8# 1-0\n\n"
                          "[Event \"3\"]\n\ng1f3 g8f6 e2e4 f6e4 *\n\n[Event \"4\"]\n[Result \"*\"]\n";
    if (read_text(several, &s, &m)) {
        CHECK_EQ(s.games, 4);
        CHECK_EQ(m.count, 0);
        CHECK_EQ(s.mainline[0], 2);
        CHECK_EQ(s.mainline[1], 2);
        CHECK_EQ(s.mainline[2], 4);
        CHECK_EQ(s.mainline[3], 0);
    }
}

TEST(pgn_variations_are_played_in_their_position)
{
    /* 2. exd5 is legal only after 1... d5 (the variation), 2. Nf3 only back on the main
     * line; 3. c4 only in the nested variation's position. */
    const char *text = "[Event \"v\"]\n\n1. e4 e5 (1... d5 2. exd5 Qxd5 (2... Nf6 3. c4)) 2. Nf3 *\n";
    FILE *f = fmemopen((void *)text, strlen(text), "rb");
    Messages m = { 0 };
    PgnReader *r = f ? pgn_open_stream(f, "inline", collect, &m) : NULL;
    if (!CHECK(r != NULL))
        return;
    const char *expected[] = { "e2e4", "e7e5", "d7d5", "e4d5", "d8d5", "g8f6", "c2c4", "g1f3" };
    int depths[] = { 0, 0, 1, 1, 1, 2, 2, 0 };
    int n = 0;
    const PgnItem *it;
    while ((it = pgn_next(r))->event != PGN_EOF) {
        if (it->event != PGN_MOVE)
            continue;
        char uci[8];
        if (n < 8) {
            CHECK_STR_EQ(move_to_uci(it->move, uci), expected[n]);
            CHECK_EQ(it->depth, depths[n]);
        }
        n++;
    }
    CHECK_EQ(n, 8);
    CHECK_EQ(m.count, 0);
    pgn_close(r);
    fclose(f);
}

TEST(pgn_long_game_and_deep_nesting)
{
    /* 1200 plies of knight shuffles: more than the position's undo stack holds. */
    size_t size = 64 * 1024;
    char *text = malloc(size);
    if (!CHECK(text != NULL))
        return;
    size_t n = (size_t)snprintf(text, size, "[Event \"long\"]\n\n");
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(text + n, size - n, "%d. Nf3 Nf6 %d. Ng1 Ng8 ", 2 * i + 1, 2 * i + 2);
    n += (size_t)snprintf(text + n, size - n, "1/2-1/2\n\n[Event \"deep\"]\n\n1. e4 e5 2. Nf3 Nc6 ");
    for (int i = 0; i < PGN_MAX_DEPTH + 2; i++)
        n += (size_t)snprintf(text + n, size - n, "(2... Nf6 "); /* each replaces the last 2... move */
    for (int i = 0; i < PGN_MAX_DEPTH + 2; i++)
        n += (size_t)snprintf(text + n, size - n, ") ");
    snprintf(text + n, size - n, "*\n\n[Event \"after\"]\n\n1. c4 *\n");
    Summary s;
    Messages m;
    if (read_text(text, &s, &m)) {
        CHECK_EQ(s.games, 2);
        CHECK_EQ(s.mainline[0], 1200);
        CHECK_EQ(s.mainline[1], 1);
        CHECK_EQ(s.skipped, 1);
        CHECK(m.count == 1 && strstr(m.text[0], "game 2") && strstr(m.text[0], "nested deeper"));
    }
    free(text);
}

TEST(pgn_malformed_games_reported_and_skipped)
{
    static const struct {
        const char *file;
        int read, game;
        long line;
        const char *what;
    } CASES[] = {
        { "pgn_bad/illegal_move.pgn", 2, 2, 10, "illegal or unreadable move 'Ke5' at 3." },
        { "pgn_bad/unreadable_token.pgn", 1, 1, 4, "'Xz9'" },
        { "pgn_bad/bad_fen.pgn", 1, 1, 3, "bad FEN tag" },
        { "pgn_bad/unclosed_variation.pgn", 1, 1, 6, "variation not closed" },
        { "pgn_bad/unbalanced_paren.pgn", 1, 1, 4, "')' without a matching '('" },
        { "pgn_bad/illegal_in_variation.pgn", 1, 1, 5, "'Nxe4' at 5." },
        { "pgn_bad/variation_first.pgn", 1, 1, 4, "before any move" },
        { "pgn_bad/null_in_check.pgn", 1, 1, 4, "null move '--' at 2... while in check" },
        { "pgn_bad/unterminated_comment.pgn", 1, 2, 9, "comment not closed" },
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Summary s;
        Messages m;
        if (!read_file(CASES[i].file, &s, &m))
            continue;
        char where[128];
        snprintf(where, sizeof where, "%s: game %d, line %ld: ", strchr(CASES[i].file, '/') + 1, CASES[i].game,
                 CASES[i].line);
        CHECK_MSG(s.games == CASES[i].read && s.skipped == 1 && m.count == 1, "%s: %ld read, %ld skipped, %d messages",
                  CASES[i].file, s.games, s.skipped, m.count);
        CHECK_MSG(m.count >= 1 && strstr(m.text[0], where) && strstr(m.text[0], CASES[i].what)
                      && strstr(m.text[0], "game skipped"),
                  "%s: message \"%s\" lacks \"%s\" or \"%s\"", CASES[i].file, m.count ? m.text[0] : "",
                  where, CASES[i].what);
    }
    /* The good game after the null-move error has two null moves of its own. */
    Summary s;
    Messages m;
    if (read_file("pgn_bad/null_in_check.pgn", &s, &m))
        CHECK_EQ(s.null_moves, 2);
    CHECK(pgn_open("tests/data/pgn_bad/no-such-file.pgn", collect, &m) == NULL);
}

TEST(pgn_read_error_is_not_the_end_of_the_file)
{
    /* fopen succeeds on a directory and every read fails: that used to read as an empty
     * file (0 games, no message). */
    Messages m = {0};
    PgnReader *r = pgn_open("/tmp", collect, &m);
    if (!CHECK(r != NULL))
        return;
    while (pgn_next(r)->event != PGN_EOF)
        ;
    CHECK(pgn_next(r)->event == PGN_EOF); /* reported once, however often EOF is asked for */
    CHECK(pgn_read_failed(r));
    CHECK_MSG(m.count == 1 && strstr(m.text[0], "/tmp") && strstr(m.text[0], "read error"),
              "%d messages: %s", m.count, m.count ? m.text[0] : "");
    pgn_close(r);
}
