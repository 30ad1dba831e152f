/* Notation tests: UCI and SAN round trips for every legal move of every position within
 * two plies of the perft suites, SAN output on known positions, the tolerant readers. */
#include <stdlib.h>
#include <string.h>

#include "board/movegen.h"
#include "board/notation.h"
#include "perft_data.h"
#include "board/position.h"
#include "test.h"

typedef struct {
    long moves;
} RoundTripStats;

/* Checks SAN properties that do not depend on the SAN writer's own logic: the check
 * mark agrees with the position after the move, and a disambiguator appears exactly
 * when another piece of the same kind can reach the same square. */
static void check_san_shape(Position *pos, const MoveList *list, Move m, const char *san)
{
    size_t len = strlen(san);
    char last = len ? san[len - 1] : '\0';
    make_move(pos, m);
    bool check = in_check(pos), mate = check && count_legal_moves(pos) == 0;
    unmake_move(pos, m);
    CHECK_MSG(mate ? last == '#' : check ? last == '+' : last != '+' && last != '#', "check mark of %s", san);

    PieceType pt = type_of(moved_piece(pos, m));
    if (pt == PAWN || pt == KING || move_is_castle(m))
        return;
    int rivals = 0, same_file = 0, same_rank = 0;
    for (int i = 0; i < list->count; i++) {
        Move o = list->moves[i];
        if (move_from(o) == move_from(m) || move_to(o) != move_to(m) || type_of(moved_piece(pos, o)) != pt)
            continue;
        rivals++;
        same_file += file_of(move_from(o)) == file_of(move_from(m));
        same_rank += rank_of(move_from(o)) == rank_of(move_from(m));
    }
    /* Letter, optional disambiguation, optional 'x', target square. */
    size_t dis = strcspn(san + 1, "x") < strlen(san + 1) ? strcspn(san + 1, "x") : strcspn(san + 1, "+#") - 2;
    size_t expected = !rivals ? 0 : !same_file ? 1 : !same_rank ? 1 : 2;
    CHECK_MSG(dis == expected, "disambiguation of %s: %zu characters, %d rivals", san, dis, rivals);
}

static void round_trip_moves(Position *pos, int depth, RoundTripStats *rs)
{
    MoveList list;
    char uci[8], san[16], fen[128];
    char sans[MAX_MOVES][16];
    generate_legal(pos, &list);
    Key key = pos_key(pos);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        rs->moves++;
        move_to_uci_game(pos, m, uci);
        Move back = move_from_uci(pos, uci);
        move_to_san(pos, m, san);
        Move back_san = move_from_san(pos, san);
        if (back != m || back_san != m || pos_key(pos) != key) {
            position_to_fen(pos, fen);
            CHECK_MSG(back == m, "UCI %s does not read back in %s", uci, fen);
            CHECK_MSG(back_san == m, "SAN %s (%s) does not read back in %s", san, uci, fen);
            CHECK_MSG(pos_key(pos) == key, "move_to_san(%s) changed %s", san, fen);
        }
        check_san_shape(pos, &list, m, san);
        strcpy(sans[i], san);
        for (int j = 0; j < i; j++)
            CHECK_MSG(strcmp(sans[j], san) != 0, "two moves written %s", san);
    }
    if (depth == 0)
        return;
    for (int i = 0; i < list.count; i++) {
        make_move(pos, list.moves[i]);
        round_trip_moves(pos, depth - 1, rs);
        unmake_move(pos, list.moves[i]);
    }
}

TEST(notation_round_trip_suite)
{
    static const char *const files[] = { "perftsuite.epd", "cpw.epd" };
    Position *pos = malloc(sizeof *pos);
    char err[160];
    RoundTripStats rs = { 0 };
    for (int f = 0; f < 2; f++) {
        PerftEntry *entries;
        int n = perft_data_load(files[f], &entries);
        for (int i = 0; i < n; i++)
            if (CHECK_MSG(position_from_fen(pos, entries[i].fen, err, sizeof err, NULL), "%s", err))
                round_trip_moves(pos, 2, &rs);
        free(entries);
    }
    test_log("%ld moves round-tripped", rs.moves);
    CHECK(rs.moves > 700000);
    free(pos);
}

/* Chess960: castling read and written king-takes-rook, O-O in SAN, every move of every
 * fischer.epd position (two plies from every 32nd). */
TEST(notation_round_trip_chess960)
{
    Position *pos = malloc(sizeof *pos);
    char err[160];
    RoundTripStats rs = { 0 };
    PerftEntry *entries;
    int n = perft_data_load("fischer.epd", &entries);
    for (int i = 0; i < n; i++)
        if (CHECK_MSG(position_from_fen(pos, entries[i].fen, err, sizeof err, NULL), "%s", err)) {
            position_set_chess960(pos, true); /* (those without castling rights read as standard) */
            round_trip_moves(pos, i % 32 ? 1 : 2, &rs);
        }
    if (n > 0)
        free(entries);
    test_log("%ld moves round-tripped", rs.moves);
    CHECK(rs.moves > 40000);
    free(pos);
}

/* King-takes-rook in Chess960 mode; in standard mode the king's two-square move (and
 * king-takes-rook too, as some GUIs send it). */
TEST(uci_castling_chess960)
{
    Position pos;
    char err[160], uci[8], san[16];
    /* The king stays on g1 and the rook goes h1-f1: written g1h1, O-O. */
    if (!CHECK(position_from_fen(&pos, "r5kr/8/8/8/8/8/8/R5KR w HAha - 0 1", err, sizeof err, NULL)))
        return;
    Move m = move_from_uci(&pos, "g1h1");
    CHECK(m != MOVE_NONE && move_is_castle(m));
    CHECK_STR_EQ(move_to_uci_game(&pos, m, uci), "g1h1");
    CHECK_STR_EQ(move_to_san(&pos, m, san), "O-O");
    CHECK(move_from_san(&pos, "O-O") == m);
    Move qs = move_from_san(&pos, "O-O-O");
    CHECK(qs != MOVE_NONE && qs != m);
    CHECK_STR_EQ(move_to_uci_game(&pos, qs, uci), "g1a1");
    make_move(&pos, m);
    CHECK(piece_on(&pos, G1) == W_KING && piece_on(&pos, F1) == W_ROOK && piece_on(&pos, H1) == NO_PIECE);
    CHECK(pos_key(&pos) == position_compute_key(&pos));
    unmake_move(&pos, m);
    CHECK(piece_on(&pos, G1) == W_KING && piece_on(&pos, H1) == W_ROOK && piece_on(&pos, F1) == NO_PIECE);
    /* King f1 and rook g1 change places. */
    if (!CHECK(position_from_fen(&pos, "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", err, sizeof err, NULL)))
        return;
    m = move_from_uci(&pos, "f1g1");
    CHECK(m != MOVE_NONE && move_is_castle(m));
    make_move(&pos, m);
    CHECK(piece_on(&pos, G1) == W_KING && piece_on(&pos, F1) == W_ROOK);
    CHECK(pos_key(&pos) == position_compute_key(&pos));
    char fen[128];
    position_to_fen(&pos, fen);
    CHECK_STR_EQ(fen, "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRRKB b - - 2 9");
    /* Standard chess: e1g1, and e1h1 read as the same castling. */
    if (!CHECK(position_from_fen(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", err, sizeof err, NULL)))
        return;
    CHECK(!pos.chess960);
    m = move_from_uci(&pos, "e1g1");
    CHECK(m != MOVE_NONE && move_is_castle(m) && move_from_uci(&pos, "e1h1") == m);
    CHECK_STR_EQ(move_to_uci_game(&pos, m, uci), "e1g1");
    position_set_chess960(&pos, true);
    CHECK_STR_EQ(move_to_uci_game(&pos, m, uci), "e1h1");
    CHECK(move_from_uci(&pos, "e1h1") == m);
}

/* SAN written for known positions. */
TEST(san_output_known)
{
    static const struct {
        const char *fen, *uci, *san;
    } cases[] = {
        { START_FEN, "g1f3", "Nf3" },
        { START_FEN, "e2e4", "e4" },
        { "7k/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1e1", "Rae1" },
        { "7k/8/8/8/8/8/8/R4RK1 w - - 0 1", "f1e1", "Rfe1" },
        { "7k/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1a8", "Ra8+" },
        { "7k/8/8/8/8/4R3/8/4R1K1 w - - 0 1", "e1e2", "R1e2" },
        { "7k/8/8/8/8/4R3/8/4R1K1 w - - 0 1", "e3e2", "R3e2" },
        { "R7/8/8/8/8/8/7k/R3K3 w - - 0 1", "a1a5", "R1a5" },
        { "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1", "Qh4e1" },
        { "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1", "h1e1", "Q1e1" },
        { "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1", "e4e1", "Qee1" },
        { "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "b8d7", "Nbd7" },
        { "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "f6d7", "Nfd7" },
        { "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "f6e4", "Ne4" },
        /* A pinned rival does not force disambiguation. */
        { "4k3/8/8/1q6/8/3N1N2/8/5K2 w - - 0 1", "f3e5", "Ne5" },
        { "4k3/8/8/3p1p2/4P3/8/8/4K3 w - - 0 1", "e4d5", "exd5" },
        { "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "b2c3", "bxc3" },
        { "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "d2c3", "Bxc3" },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+" },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N" },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", "exd8=N" },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8r", "exd8=R+" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O" },
        { "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O+" },
        { "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#" },
        { "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e5d6", "exd6" },
        { "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2c3", "Nc3+" },
        { "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#" },
    };
    Position pos;
    char err[160], san[16];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (!CHECK_MSG(position_from_fen(&pos, cases[i].fen, err, sizeof err, NULL), "%s: %s", cases[i].fen, err))
            continue;
        Move m = move_from_uci(&pos, cases[i].uci);
        if (!CHECK_MSG(m != MOVE_NONE, "%s not legal in %s", cases[i].uci, cases[i].fen))
            continue;
        CHECK_STR_EQ(move_to_san(&pos, m, san), cases[i].san);
    }
}

/* Lines in SAN: numbering from either side to move, appending, stopping at an illegal
 * move, and never overflowing the buffer. */
TEST(line_to_san_numbering)
{
    Position pos;
    char err[160], buf[256];
    const char *black_fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    Move line[4];
    const char *uci[] = { "e7e5", "g1f3", "b8c6", "f1b5" };

    CHECK(position_from_fen(&pos, black_fen, err, sizeof err, NULL));
    Position scratch = pos;
    for (int i = 0; i < 4; i++) {
        line[i] = move_from_uci(&scratch, uci[i]);
        CHECK(line[i] != MOVE_NONE);
        make_move(&scratch, line[i]);
    }
    scratch = pos;
    buf[0] = '\0';
    CHECK_EQ(line_to_san(&scratch, line, 4, true, buf, sizeof buf), 4);
    CHECK_STR_EQ(buf, "1... e5 2. Nf3 Nc6 3. Bb5");

    scratch = pos;
    snprintf(buf, sizeof buf, "(e4)");
    CHECK_EQ(line_to_san(&scratch, line, 4, false, buf, sizeof buf), 4);
    CHECK_STR_EQ(buf, "(e4) e5 Nf3 Nc6 Bb5");

    /* An illegal third move ends the line there. */
    Move broken[4] = { line[0], line[1], line[3], line[2] };
    scratch = pos;
    buf[0] = '\0';
    CHECK_EQ(line_to_san(&scratch, broken, 4, false, buf, sizeof buf), 2);
    CHECK_STR_EQ(buf, "e5 Nf3");

    /* A buffer too small for the whole line holds a whole prefix, never a cut move. */
    char small[40];
    scratch = pos;
    small[0] = '\0';
    int written = line_to_san(&scratch, line, 4, true, small, sizeof small);
    CHECK(written >= 1 && written < 4);
    CHECK(strlen(small) < sizeof small);
    CHECK(strncmp(small, "1... e5 2. Nf3 Nc6 3. Bb5", strlen(small)) == 0);
}

/* The tolerant SAN reader: real-world spellings, and rejection of what is not one legal
 * move (NULL = must be rejected). */
TEST(san_reader_tolerance)
{
    static const struct {
        const char *fen, *text, *uci;
    } cases[] = {
        { START_FEN, "Nf3", "g1f3" },
        { START_FEN, "Nf3!?", "g1f3" },
        { START_FEN, "Nf3!!", "g1f3" },
        { START_FEN, "e4?!", "e2e4" },
        { START_FEN, "e2-e4", "e2e4" },
        { START_FEN, "Ng1f3", "g1f3" },
        { START_FEN, "Ng1-f3", "g1f3" },
        { START_FEN, "g1f3", "g1f3" },
        { START_FEN, "Nf6", NULL },
        { START_FEN, "Ke2", NULL },
        { START_FEN, "e5", NULL },
        { START_FEN, "", NULL },
        { START_FEN, "xyz", NULL },
        { START_FEN, "O-O", NULL },
        { START_FEN, "Zf3", NULL },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "e1g1" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1g1" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1" },
        { "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O", "e8c8" },
        { "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", "O-O-O", NULL },
        { "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "O-O-O+", "e1c1" },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8Q", "e7e8q" },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=Q+", "e7e8q" },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=N", "e7e8n" },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8(R)", "e7e8r" },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "exd8B", "e7d8b" },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e8=K", NULL },
        { "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "exd6e.p.", "e5d6" },
        { "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "exd6 e.p.", "e5d6" },
        { "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "exd6", "e5d6" },
        { "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "ed6", "e5d6" },
        { "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "Nbd7", "b8d7" },
        { "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "N8d7", "b8d7" },
        { "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "Nfd7", "f6d7" },
        { "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "Nb8d7", "b8d7" },
        { "1n2k3/8/5n2/8/8/8/8/4K3 b - - 0 1", "Nd7", NULL },
        { "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1", "Qh4e1", "h4e1" },
        { "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1", "Qee1", "e4e1" },
        { "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1", "Q1e1", "h1e1" },
        { "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1", "Qhe1", NULL },
        { "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1", "Q4e1", NULL },
        { "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1", "Qe1", NULL },
        { "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "bxc3", "b2c3" },
        { "4k3/8/8/8/8/2p5/1P1B4/4K3 w - - 0 1", "Bxc3", "d2c3" },
        { "4k3/8/8/1q6/8/3N1N2/8/5K2 w - - 0 1", "Ne5", "f3e5" },
        { "4k3/8/8/1q6/8/3N1N2/8/5K2 w - - 0 1", "Nde5", NULL },
    };
    Position pos;
    char err[160], uci[8];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (!CHECK_MSG(position_from_fen(&pos, cases[i].fen, err, sizeof err, NULL), "%s: %s", cases[i].fen, err))
            continue;
        Move m = move_from_san(&pos, cases[i].text);
        const char *got = m == MOVE_NONE ? "(none)" : move_to_uci(m, uci);
        CHECK_MSG(!strcmp(got, cases[i].uci ? cases[i].uci : "(none)"), "\"%s\" read as %s, expected %s in %s",
                  cases[i].text, got, cases[i].uci ? cases[i].uci : "(none)", cases[i].fen);
    }
}

TEST(uci_reader)
{
    static const struct {
        const char *fen, *text;
        int from, to, flags; /* from < 0: must be rejected */
    } cases[] = {
        { START_FEN, "e2e4", E2, E4, FLAG_DOUBLE_PUSH },
        { START_FEN, "g1f3", G1, F3, FLAG_QUIET },
        { START_FEN, "e2e5", -1, 0, 0 },
        { START_FEN, "e2e9", -1, 0, 0 },
        { START_FEN, "e2", -1, 0, 0 },
        { START_FEN, "", -1, 0, 0 },
        { START_FEN, "e2e4q", -1, 0, 0 },
        { START_FEN, "e2e4e4", -1, 0, 0 },
        { START_FEN, "0000", -1, 0, 0 },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", E1, G1, FLAG_CASTLE_KING },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", E1, G1, FLAG_CASTLE_KING },
        { "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1a1", E1, C1, FLAG_CASTLE_QUEEN },
        { "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", E8, C8, FLAG_CASTLE_QUEEN },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", E7, D8, FLAG_PC_N },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8Q", E7, E8, FLAG_PROMO_Q },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8", -1, 0, 0 },
        { "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8k", -1, 0, 0 },
        { "rnbqkbnr/ppp2ppp/4p3/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e5d6", E5, D6, FLAG_EP },
    };
    Position pos;
    char err[160], uci[8];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (!CHECK(position_from_fen(&pos, cases[i].fen, err, sizeof err, NULL)))
            continue;
        Move m = move_from_uci(&pos, cases[i].text);
        Move want = cases[i].from < 0 ? MOVE_NONE : move_create(cases[i].from, cases[i].to, cases[i].flags);
        CHECK_MSG(m == want, "\"%s\" read as %d, expected %d in %s", cases[i].text, m, want, cases[i].fen);
    }
    CHECK_STR_EQ(move_to_uci(MOVE_NONE, uci), "0000");
    CHECK_STR_EQ(move_to_uci(move_create(A7, B8, FLAG_PC_Q), uci), "a7b8q");
}
