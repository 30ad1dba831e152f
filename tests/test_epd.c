/* EPD parsing: operations and quoted operands, move opcodes read as moves, errors that
 * leave the position untouched, the writer, and every record of the WAC suite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/epd.h"
#include "board/notation.h"
#include "test.h"

/* Lines copied from the suites in epd/ (wacnew, eet, sbd, pet, lapuce2, wcsac). */
#define WAC_001 "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";"
#define WAC_252 "1rb1r1k1/p1p2ppp/5n2/2pP4/5P2/2QB4/qNP3PP/2KRB2R b - - bm Bg4 Re2; " \
                "c0 \"Bg4 wins, but Re2 is far better.\"; id \"WAC.252\";"
#define EET_011 "6k1/5p2/P3p1p1/2Qp4/5q2/2K5/8/8 b - - am Qc1+ Qe5+; id \"E_E_T 011 - D vs D\";"
#define EET_073 "3kB3/R4P2/8/8/1p6/pp6/5r2/1K6 w - - bm f8=Q f8=R; id \"E_E_T 073 - T&L vs T&B\";"
#define SBD_003 "2b1k2r/2p2ppp/1qp4n/7B/1p2P3/5Q2/PPPr2PP/R2N1R1K b k - bm O-O; id \"sbd.003\";"
#define PET_001 "8/7p/2k1Pp2/pp1p2p1/3P2P1/4P3/P3K2P/8 w - - bm e4;             id \"PET001: Pawn endgame\";"
#define LCT_001 "r3kb1r/3n1pp1/p6p/2pPp2q/Pp2N3/3B2PP/1PQ2P2/R3K2R w KQkq - bm d6; id \"LCTPOS01 (d6!)\";"
#define WCSAC_121 "5rr1/pp1b1P1p/5Q2/3p3k/5K2/8/2P3P1/8 w - - bm fxg8=N; id \"WCSAC.121\";\r\n"

/* Parses line and checks that opcode's moves are exactly the given UCI moves. */
static void check_moves(const char *line, const char *opcode, const char *const *uci, int n)
{
    Position pos;
    EpdRecord rec;
    Move moves[8];
    char err[200], buf[8];
    if (!CHECK_MSG(epd_parse(line, &pos, &rec, err, sizeof err), "%s: %s", line, err))
        return;
    int count = epd_moves(&rec, &pos, opcode, moves, 8, err, sizeof err);
    if (!CHECK_MSG(count == n, "%s: %d %s moves (%s)", line, count, opcode, count < 0 ? err : ""))
        return;
    for (int i = 0; i < n; i++)
        CHECK_STR_EQ(move_to_uci(moves[i], buf), uci[i]);
}

TEST(epd_operations)
{
    Position pos;
    EpdRecord rec;
    char err[200];
    if (!CHECK_MSG(epd_parse(WAC_252, &pos, &rec, err, sizeof err), "%s", err))
        return;
    CHECK_STR_EQ(rec.fen, "1rb1r1k1/p1p2ppp/5n2/2pP4/5P2/2QB4/qNP3PP/2KRB2R b - - 0 1");
    CHECK_EQ(pos.side, BLACK);
    CHECK_EQ(rec.operation_count, 3);
    CHECK_STR_EQ(epd_opcode(&rec, 0), "bm");
    CHECK_EQ(epd_operand_count(&rec, 0), 2);
    CHECK_STR_EQ(epd_operand(&rec, 0, 0), "Bg4");
    CHECK_STR_EQ(epd_operand(&rec, 0, 1), "Re2");
    CHECK_STR_EQ(epd_string(&rec, "c0"), "Bg4 wins, but Re2 is far better.");
    CHECK_STR_EQ(epd_string(&rec, "id"), "WAC.252");
    CHECK_EQ(epd_find(&rec, "id"), 2);
    CHECK_EQ(epd_find(&rec, "am"), -1);
    CHECK(epd_string(&rec, "am") == NULL);
    CHECK(epd_operand(&rec, 0, 2) == NULL);
    CHECK(epd_opcode(&rec, 3) == NULL);

    /* Quoted strings may hold ';', the last ';' may be missing, blanks are free. */
    if (CHECK(epd_parse("4k3/8/8/8/8/8/8/4K3 w - -   c0 \"a; b\" ;c1 x y ; id   last", &pos, &rec, err, sizeof err))) {
        CHECK_EQ(rec.operation_count, 3);
        CHECK_STR_EQ(epd_string(&rec, "c0"), "a; b");
        CHECK_EQ(epd_operand_count(&rec, 1), 2);
        CHECK_STR_EQ(epd_operand(&rec, 1, 1), "y");
        CHECK_STR_EQ(epd_string(&rec, "id"), "last");
    }
    /* An opcode with no operand, an empty string operand. */
    if (CHECK(epd_parse("4k3/8/8/8/8/8/8/4K3 w - - noop; c0 \"\";", &pos, &rec, err, sizeof err))) {
        CHECK_EQ(epd_operand_count(&rec, 0), 0);
        CHECK_STR_EQ(epd_string(&rec, "c0"), "");
    }
    /* No operations at all; FEN counters before the operations. */
    if (CHECK(epd_parse("4k3/8/8/8/8/8/8/4K3 b - -", &pos, &rec, err, sizeof err)))
        CHECK_EQ(rec.operation_count, 0);
    if (CHECK(epd_parse("4k3/8/8/8/8/8/8/4K3 b - - 7 30 id \"x\";", &pos, &rec, err, sizeof err))) {
        CHECK_EQ(rule50_count(&pos), 7);
        CHECK_EQ(fullmove_number(&pos), 30);
        CHECK_STR_EQ(epd_string(&rec, "id"), "x");
    }
    /* hmvc and fmvn set the counters. */
    if (CHECK(epd_parse("4k3/8/8/8/8/8/8/4K3 b - - hmvc 12; fmvn 41;", &pos, &rec, err, sizeof err))) {
        CHECK_EQ(rule50_count(&pos), 12);
        CHECK_EQ(fullmove_number(&pos), 41);
        CHECK_STR_EQ(rec.fen, "4k3/8/8/8/8/8/8/4K3 b - - 12 41");
    }
    CHECK(epd_is_blank(""));
    CHECK(epd_is_blank("  \r\n"));
    CHECK(epd_is_blank("# comment"));
    CHECK(!epd_is_blank(WAC_001));
}

TEST(epd_move_opcodes)
{
    check_moves(WAC_001, "bm", (const char *const[]){ "g3g6" }, 1);
    check_moves(WAC_252, "bm", (const char *const[]){ "c8g4", "e8e2" }, 2);
    check_moves(EET_011, "am", (const char *const[]){ "f4c1", "f4e5" }, 2);
    check_moves(EET_073, "bm", (const char *const[]){ "f7f8q", "f7f8r" }, 2);
    check_moves(SBD_003, "bm", (const char *const[]){ "e8g8" }, 1);
    check_moves(PET_001, "bm", (const char *const[]){ "e3e4" }, 1);
    check_moves(LCT_001, "bm", (const char *const[]){ "d5d6" }, 1);
    check_moves(WCSAC_121, "bm", (const char *const[]){ "f7g8n" }, 1);
    check_moves(WAC_001, "am", NULL, 0);
    /* Comma-separated alternatives, as some suites write them. */
    check_moves("1rb1r1k1/p1p2ppp/5n2/2pP4/5P2/2QB4/qNP3PP/2KRB2R b - - bm Bg4, Re2;", "bm",
                (const char *const[]){ "c8g4", "e8e2" }, 2);

    Position pos;
    EpdRecord rec;
    Move moves[4];
    char err[200];
    if (CHECK(epd_parse(SBD_003, &pos, &rec, err, sizeof err)))
        CHECK_STR_EQ(epd_string(&rec, "id"), "sbd.003");
    if (CHECK(epd_parse(LCT_001, &pos, &rec, err, sizeof err)))
        CHECK_STR_EQ(epd_string(&rec, "id"), "LCTPOS01 (d6!)");
    if (CHECK(epd_parse(WCSAC_121, &pos, &rec, err, sizeof err)))
        CHECK_STR_EQ(epd_string(&rec, "id"), "WCSAC.121");
    /* An operand that is not a legal move is an error naming it. */
    if (CHECK(epd_parse("4k3/8/8/8/8/8/8/4K3 w - - bm Qg6;", &pos, &rec, err, sizeof err))) {
        err[0] = '\0';
        CHECK_EQ(epd_moves(&rec, &pos, "bm", moves, 4, err, sizeof err), -1);
        CHECK(strstr(err, "Qg6") != NULL);
    }
}

TEST(epd_errors_keep_position)
{
    static const char *const bad[] = {
        "",
        "not a fen",
        "4k3/8/8/8/8/8/8/4K3 w - - bm",                     /* fine: shows the good case below */
        "4k3/8/8/8/8/8/8/4K3 w - - id \"unterminated;",
        "4k3/8/8/8/8/8/8/4K3 w - - 1bm e4;",
        "4k3/8/8/8/8/8/8/4K3 w - - b-m e4;",
        "4k3/8/8/8/8/8/8/4K3 w - - \"id\" x;",
        "4k3/8/8/8/8/8/8/4K3 w - - hmvc x;",
        "4k3/8/8/8/8/8/8/4K3 w - - fmvn 0;",
        "4k3/8/8/8/8/8/8/4K3 w - - averyveryverylongopcode 1;",
        "4k3/8/8/8/8/8/8/4K2P w - - bm Kd2;",
        "4k3/4R3/8/8/8/8/8/4K3 w - - bm Kd2;",
    };
    Position *pos = malloc(sizeof *pos), *saved = malloc(sizeof *pos);
    EpdRecord rec;
    char err[200];
    memset(pos, 0, sizeof *pos);
    if (!CHECK(epd_parse(WAC_001, pos, &rec, err, sizeof err)))
        return;
    memcpy(saved, pos, sizeof *pos);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        bool ok = epd_parse(bad[i], pos, &rec, err, sizeof err);
        if (i == 2) {
            /* An opcode with no operands and no ';' is valid. */
            if (CHECK_MSG(ok, "%s: %s", bad[i], err))
                memcpy(pos, saved, sizeof *pos);
            continue;
        }
        CHECK_MSG(!ok, "accepted \"%s\"", bad[i]);
        CHECK_MSG(err[0] && !strchr(err, '\n'), "no one-line message for \"%s\"", bad[i]);
        CHECK_MSG(!memcmp(pos, saved, sizeof *pos), "\"%s\" changed the position", bad[i]);
        test_log("%-55s -> %s", bad[i], err);
    }
    free(pos);
    free(saved);
}

/* Formatting a record and parsing it again gives the same record. */
static bool same_record(const EpdRecord *a, const EpdRecord *b)
{
    if (strcmp(a->fen, b->fen) || a->operation_count != b->operation_count)
        return false;
    for (int i = 0; i < a->operation_count; i++) {
        if (strcmp(epd_opcode(a, i), epd_opcode(b, i)) || epd_operand_count(a, i) != epd_operand_count(b, i))
            return false;
        for (int j = 0; j < epd_operand_count(a, i); j++)
            if (strcmp(epd_operand(a, i, j), epd_operand(b, i, j)))
                return false;
    }
    return true;
}

TEST(epd_format_round_trip)
{
    Position pos;
    EpdRecord rec, again;
    char err[200], line[1024];
    if (!CHECK(epd_parse(WAC_252, &pos, &rec, err, sizeof err)))
        return;
    if (CHECK(epd_format(&rec, line, sizeof line)))
        CHECK_STR_EQ(line, "1rb1r1k1/p1p2ppp/5n2/2pP4/5P2/2QB4/qNP3PP/2KRB2R b - - bm Bg4 Re2; "
                           "c0 \"Bg4 wins, but Re2 is far better.\"; id WAC.252;");
    CHECK(!epd_format(&rec, line, 40)); /* too small: refused, not truncated */
    if (CHECK(epd_parse(line, &pos, &again, err, sizeof err)))
        CHECK(same_record(&rec, &again));
    /* Copies by assignment stay valid (offsets, not pointers). */
    EpdRecord copy = rec;
    CHECK_STR_EQ(epd_string(&copy, "c0"), "Bg4 wins, but Re2 is far better.");
}

/* Every record of the WAC suite parses, its bm/am moves are legal, and it survives a
 * format/parse round trip. */
TEST(epd_wac_suite)
{
    char path[512], line[1024], formatted[1024], err[200];
    FILE *f = fopen(test_data_path("wacnew.epd", path, sizeof path), "r");
    if (!CHECK_MSG(f != NULL, "cannot open %s", path))
        return;
    Position *pos = malloc(sizeof *pos);
    EpdRecord *rec = malloc(sizeof *rec), *again = malloc(sizeof *again);
    int records = 0, with_moves = 0, line_no = 0;
    Move moves[8];
    while (fgets(line, sizeof line, f)) {
        line_no++;
        if (epd_is_blank(line))
            continue;
        records++;
        if (!CHECK_MSG(epd_parse(line, pos, rec, err, sizeof err), "line %d: %s", line_no, err))
            continue;
        int bm = epd_moves(rec, pos, "bm", moves, 8, err, sizeof err);
        CHECK_MSG(bm >= 0, "line %d: %s", line_no, err);
        int am = epd_moves(rec, pos, "am", moves, 8, err, sizeof err);
        CHECK_MSG(am >= 0, "line %d: %s", line_no, err);
        with_moves += bm > 0 || am > 0;
        CHECK_MSG(epd_string(rec, "id") != NULL, "line %d has no id", line_no);
        if (CHECK(epd_format(rec, formatted, sizeof formatted))
            && CHECK_MSG(epd_parse(formatted, pos, again, err, sizeof err), "%s: %s", formatted, err))
            CHECK_MSG(same_record(rec, again), "line %d changed by a round trip: %s", line_no, formatted);
    }
    fclose(f);
    CHECK_EQ(records, 300);
    CHECK_EQ(with_moves, 300);
    free(pos);
    free(rec);
    free(again);
}

/* Found by fuzz_epd: a bad opcode quoted with the input's newline made a two-line error. */
TEST(epd_error_messages_stay_one_line)
{
    static Position pos;
    static EpdRecord rec;
    char err[256];
    CHECK(!epd_parse("2R5/r3b1k1/p2p4/P1pPp2p/6q1/2P2N1r/4Q1P1/5RK1 w - - bm\xfd\n\x90\xb7 d \"x\";", &pos, &rec,
                     err, sizeof err));
    CHECK_MSG(err[0] && !strchr(err, '\n'), "message: %s", err);
    CHECK(!position_from_fen(&pos, "8/8/8/8/8/8/8/K6k \x1b[2J w - - 0 1", err, sizeof err, NULL));
    CHECK_MSG(!strchr(err, '\x1b'), "message: %s", err);
}
