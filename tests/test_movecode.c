/* One-byte move codes: round trips over the perft trees against a reference encoder,
 * all 256 bytes in 10,000 positions, single-move legality, canonical codes under
 * transposition, hand-checked tables, the second queen and the fallback, errors.
 * Tracker and game tests are in test_movecode_games.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/movecode.h"
#include "formats/movecode_game.h"
#include "movecode_check.h"
#include "perft_data.h"
#include "board/movegen.h"
#include "board/movelegal.h"
#include "board/notation.h"
#include "board/position_copy.h"
#include "test.h"

/* ---- Perft trees ---- */

static bool perft_tree_check(Position *pos, int depth, Tally *t)
{
    if (!check_all_moves(pos, t))
        return false;
    if (depth <= 1)
        return true;
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        make_move(pos, list.moves[i]);
        bool ok = perft_tree_check(pos, depth - 1, t);
        unmake_move(pos, list.moves[i]);
        if (!ok)
            return false;
    }
    return true;
}

TEST(movecode_perft_trees_round_trip)
{
    static char fens[256][128];
    static long long listed[256];
    int n = perft_suite_load(fens, 256, listed);
    long long expected = 0, checked = 0;
    for (int i = 0; i < n; i++) {
        Position *pos = test_position_new(fens[i]);
        if (!pos || !listed[i]) {
            free(pos);
            continue;
        }
        Tally t = { 0, 0, 0 };
        bool ok = perft_tree_check(pos, 3, &t); /* every move of plies 1..3 */
        free(pos);
        if (!ok)
            break;
        /* The whole tree was visited: as many moves as the file's D1 + D2 + D3. */
        CHECK_MSG(t.moves == listed[i], "%s: %ld moves checked, D1+D2+D3 = %lld", fens[i], t.moves, listed[i]);
        expected += listed[i];
        checked += t.moves;
    }
    test_log("%lld moves checked", checked);
    CHECK(expected > 500000);
}

/* ---- 10,000 varied positions, all 256 bytes ---- */

/* Positions from the suite's first two plies and from random games played out from each
 * suite position (random games promote a lot: many queens, fallback positions). */
static int sample_positions(Position *out, int max)
{
    static char fens[256][128];
    int n = perft_suite_load(fens, 256, NULL), count = 0;
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return 0;
    for (int round = 0; count < max && round < 100; round++) {
        for (int i = 0; i < n && count < max; i++) {
            char err[160];
            if (!position_from_fen(pos, fens[i], err, sizeof err, NULL))
                continue;
            int length = round == 0 ? 2 : 40 + (int)(test_random(&seed) % 200);
            for (int ply = 0; ply < length && count < max; ply++) {
                MoveList list;
                generate_legal(pos, &list);
                if (!list.count)
                    break;
                if (round == 0 || ply % 3 == 0)
                    position_copy_current(snapshot_at(out, (size_t)count++), pos);
                make_move(pos, list.moves[test_random(&seed) % (uint64_t)list.count]);
                position_trim_history(pos);
            }
        }
    }
    free(pos);
    return count;
}

TEST(movecode_all_bytes_in_10000_positions)
{
    enum { COUNT = 10000 };
    Position *positions = snapshot_array_alloc(COUNT);
    if (!CHECK(positions != NULL))
        return;
    int n = sample_positions(positions, COUNT);
    CHECK_EQ(n, COUNT);
    Tally t = { 0, 0, 0 };
    for (int i = 0; i < n; i++) {
        const Position *pos = snapshot_at(positions, (size_t)i);
        if (!check_all_bytes(pos) || !check_all_moves(pos, &t))
            break;
    }
    test_log("%ld positions, %ld in fallback mode", t.positions, t.fallback_positions);
    CHECK_MSG(t.fallback_positions >= 50, "only %ld fallback positions sampled", t.fallback_positions);
    free(positions);
}

TEST(movelegal_matches_generator_on_every_16bit_value)
{
    enum { COUNT = 300 };
    Position *positions = snapshot_array_alloc(COUNT);
    if (!CHECK(positions != NULL))
        return;
    int n = sample_positions(positions, COUNT);
    static bool legal[65536];
    for (int i = 0; i < n; i++) {
        const Position *pos = snapshot_at(positions, (size_t)i);
        MoveList list;
        generate_legal(pos, &list);
        memset(legal, 0, sizeof legal);
        for (int k = 0; k < list.count; k++)
            legal[list.moves[k]] = true;
        for (int v = 0; v < 65536; v++)
            if (move_is_legal_fast(pos, (Move)v) != legal[v]) {
                char fen[128];
                position_to_fen(pos, fen);
                CHECK_MSG(false, "move_is_legal_fast(%s, 0x%04x) = %d, generator says %d", fen, v,
                          !legal[v], legal[v]);
                free(positions);
                return;
            }
    }
    free(positions);
}

/* ---- Chess960 ---- */

/* Castling from any king square (the king may stay where it is, the rook may jump over
 * it): every move of two plies from every 16th fischer.epd position round-trips, every
 * byte decodes to a legal move or none, and single-move legality agrees with the
 * generator on all 65,536 values (also along a random game from every 48th). */
TEST(movecode_chess960)
{
    PerftEntry *entries;
    int n = perft_data_load("fischer.epd", &entries);
    if (n <= 0)
        return;
    Tally t = { 0, 0, 0 };
    long castles = 0;
    bool ok = true;
    uint64_t seed = 960;
    static bool legal[65536];
    for (int i = 0; i < n; i += 16) {
        Position *pos = test_position_new(entries[i].fen);
        if (!CHECK(pos != NULL))
            continue;
        MoveList list;
        generate_legal(pos, &list);
        for (int k = 0; k < list.count; k++)
            castles += move_is_castle(list.moves[k]);
        ok = check_all_bytes(pos) && perft_tree_check(pos, 2, &t);
        for (int ply = 0; ok && i % 48 == 0 && ply < 30; ply++) {
            generate_legal(pos, &list);
            if (!list.count)
                break;
            memset(legal, 0, sizeof legal);
            for (int k = 0; k < list.count; k++)
                legal[list.moves[k]] = true;
            for (int v = 0; v < 65536 && ok; v++)
                ok = CHECK_MSG(move_is_legal_fast(pos, (Move)v) == legal[v], "%s ply %d: move 0x%04x",
                               entries[i].fen, ply, v);
            make_move(pos, list.moves[test_random(&seed) % (uint64_t)list.count]);
        }
        free(pos);
        if (!ok)
            break;
    }
    /* Fallback mode (three knights): the king step f1g1 and O-O (king f1 to g1, rook h1
     * to f1) share their squares and still get codes of their own. */
    Position *fb = test_position_new("4k3/8/8/8/8/8/NNN5/5K1R w H - 0 1");
    if (CHECK(fb != NULL)) {
        Move step = move_from_uci(fb, "f1g1"), castle = move_from_uci(fb, "f1h1");
        CHECK(step != MOVE_NONE && castle != MOVE_NONE && step != castle && move_is_castle(castle));
        int a = movecode_encode(fb, step), b = movecode_encode(fb, castle);
        CHECK_MSG(a >= 0 && b >= 0 && a != b, "codes %d and %d", a, b);
        CHECK(movecode_decode(fb, a) == step && movecode_decode(fb, b) == castle);
        ok = check_all_bytes(fb);
        free(fb);
    }
    test_log("%ld moves checked, %ld castlings at the roots", t.moves, castles);
    CHECK(t.moves > 30000 && castles >= 5);
    free(entries);
}

/* ---- Canonical codes ---- */

/* Plays UCI moves on a copy of the start position; NULL if one is illegal. */
static Position *play(const char *fen, const char *moves)
{
    Position *pos = test_position_new(fen);
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok_r(buf, " ", &save); pos && tok; tok = strtok_r(NULL, " ", &save)) {
        Move m = move_from_san(pos, tok);
        if (!CHECK_MSG(m != MOVE_NONE, "move %s not legal", tok)) {
            free(pos);
            return NULL;
        }
        make_move(pos, m);
    }
    return pos;
}

static bool same_codes(const Position *a, const Position *b)
{
    MoveList la, lb;
    generate_legal(a, &la);
    generate_legal(b, &lb);
    if (la.count != lb.count || pos_key(a) != pos_key(b))
        return false;
    for (int i = 0; i < la.count; i++)
        if (movecode_encode(a, la.moves[i]) != movecode_encode(b, la.moves[i]))
            return false;
    return true;
}

TEST(movecode_canonical_under_transposition)
{
    /* The pawn example: the capturing pawn began as an e-pawn in one order and
     * as a c-pawn in the other. White pawns a2 b2 d2 d5 f2 g2 h2: d5 is pawn 3 (code 11),
     * capture towards the a-file (vector 2): byte 0xB2. */
    Position *a = play(START_FEN, "e4 e6 c4 d5 cxd5 exd5 exd5 c6");
    Position *b = play(START_FEN, "e4 e6 c4 d5 exd5 exd5 cxd5 c6");
    if (a && b) {
        Move dxc6 = move_from_san(a, "dxc6");
        CHECK_EQ(movecode_encode(a, dxc6), 0xB2);
        CHECK_EQ(movecode_encode(b, move_from_san(b, "dxc6")), 0xB2);
        CHECK(same_codes(a, b));
    }
    free(a);
    free(b);

    /* Knights that swapped identities: b1 went to f3 and g1 to c3, or each went directly. */
    const char *knights = "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1";
    a = play(knights, "b1d2 e8d8 d2f3 d8e8 g1e2 e8d8 e2c3 d8e8");
    b = play(knights, "b1c3 e8d8 g1f3 d8e8");
    if (a && b)
        CHECK(same_codes(a, b));
    free(a);
    free(b);

    /* A queen's-gambit transposition. */
    a = play(START_FEN, "d4 Nf6 c4 e6 Nc3 d5");
    b = play(START_FEN, "c4 e6 Nc3 d5 d4 Nf6");
    if (a && b)
        CHECK(same_codes(a, b));
    free(a);
    free(b);
}

/* ---- Tables spot-checked by hand ---- */

TEST(movecode_hand_checked_bytes)
{
    Position *pos = test_position_new(START_FEN);
    if (!pos)
        return;
    /* e2e4: pawns a2..h2 are 0..7, e2 is pawn 4 (code 12), double advance: 0xC1. */
    CHECK_EQ(movecode_encode(pos, move_from_san(pos, "e4")), 0xC1);
    /* Ng1f3: knights b1 (0) and g1 (1): code 5, knight bit 8, jump NNW (-1,+2) = 7. */
    CHECK_EQ(movecode_encode(pos, move_from_san(pos, "Nf3")), 0x5F);
    /* Nb1c3: knight 0, jump NNE (+1,+2) = 0. */
    CHECK_EQ(movecode_encode(pos, move_from_san(pos, "Nc3")), 0x50);
    free(pos);

    /* Castling: White O-O is the king's SE step (3), O-O-O SW (5); Black NE (1), NW (7). */
    pos = test_position_new("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    if (pos) {
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "O-O")), 0x03);
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "O-O-O")), 0x05);
        /* Rooks a1 (0) and h1 (1); Rh1h5: code 7, along the file to rank 5: 8 + 4. */
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "Rh5")), 0x7C);
        make_move(pos, move_from_san(pos, "Kf1"));
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "O-O")), 0x01);
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "O-O-O")), 0x07);
        free(pos);
    }

    /* Promotions: pawn b7 (only pawn: code 8); b8=N advance 1<<2|0, bxa8=R left capture
     * 2<<2|2, bxc8=Q right capture 3<<2|3. Light bishop f1 (3): Bf1-a6 falls, file a: 8+0. */
    pos = test_position_new("r1n1k3/1P6/8/8/8/8/8/4KB2 w - - 0 1");
    if (pos) {
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "b8=N")), 0x84);
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "bxa8=R")), 0x8A);
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "bxc8=Q")), 0x8F);
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "Ba6")), 0x38);
        free(pos);
    }
}

/* ---- Second queen and fallback ---- */

TEST(movecode_second_queen_and_fallback)
{
    /* Queens a1 (queen 0) and h1 (queen 1) with six pawns: no fallback. */
    Position *pos = test_position_new("4k3/8/8/8/8/8/PPPPPP2/Q3K2Q w - - 0 1");
    if (pos) {
        CHECK(!movecode_fallback(pos));
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "Qh4")), 0xFB);  /* pawn-7 code, file h to rank 4 */
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "Qg2")), 0xEE);  /* pawn-6 code, falling diagonal, file g */
        CHECK_EQ(movecode_encode(pos, move_from_san(pos, "Qb1")), 0x21);  /* queen 0 along rank 1 to file b */
        Tally t = { 0, 0, 0 };
        check_all_moves(pos, &t);
        check_all_bytes(pos);
        free(pos);
    }
    /* Seven pawns and two queens: fallback for White only. */
    pos = test_position_new("4k3/8/8/8/8/8/PPPPPPP1/Q3K2Q w - - 0 1");
    if (pos) {
        CHECK(movecode_fallback(pos));
        Tally t = { 0, 0, 0 };
        check_all_moves(pos, &t);
        check_all_bytes(pos);
        make_move(pos, move_from_san(pos, "Kd1"));
        CHECK(!movecode_fallback(pos)); /* Black to move: normal codes */
        free(pos);
    }
    /* Fallback lasts only while its cause does: a third knight is captured. */
    pos = test_position_new("4k3/8/8/3r4/8/2N1N3/8/1N2K3 b - - 0 1");
    if (pos) {
        CHECK(!movecode_fallback(pos));
        make_move(pos, move_from_san(pos, "Rd8"));
        CHECK(movecode_fallback(pos));
        make_move(pos, move_from_san(pos, "Ncd5"));
        make_move(pos, move_from_san(pos, "Rxd5"));
        CHECK(!movecode_fallback(pos));
        free(pos);
    }
    /* One bishop of each colour is fine; two light or two dark ones, or three rooks, are
     * fallback for the side to move only. */
    const char *fens[] = { "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", "4k3/8/8/8/8/8/8/3BKB2 w - - 0 1",
                           "4k3/8/8/8/8/8/8/3BKB2 b - - 0 1", "4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1",
                           "4k3/8/8/8/8/8/8/RR2K2R w - - 0 1" };
    bool expected[] = { false, true, false, true, true };
    for (int i = 0; i < 5; i++) {
        pos = test_position_new(fens[i]);
        if (!pos)
            continue;
        CHECK_MSG(movecode_fallback(pos) == expected[i], "fallback(%s) should be %d", fens[i], expected[i]);
        free(pos);
    }
}

TEST(movecode_218_move_position)
{
    Position *pos = test_position_new("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
    if (!pos)
        return;
    MoveList list;
    generate_legal(pos, &list);
    CHECK_EQ(list.count, 218);
    CHECK(movecode_fallback(pos));
    /* Fallback codes are the indices in UCI-string order: 0..217 exactly. */
    char texts[MAX_MOVES][8];
    for (int i = 0; i < list.count; i++)
        move_to_uci(list.moves[i], texts[i]);
    qsort(texts, (size_t)list.count, sizeof texts[0], compare_strings);
    for (int code = 0; code < list.count; code++) {
        char uci[8];
        Move m = movecode_decode(pos, code);
        if (!CHECK_MSG(m != MOVE_NONE && !strcmp(move_to_uci(m, uci), texts[code]), "code %d", code))
            break;
        CHECK_EQ(movecode_encode(pos, m), code);
    }
    for (int code = list.count; code < 256; code++)
        CHECK_EQ(movecode_decode(pos, code), MOVE_NONE);
    Tally t = { 0, 0, 0 };
    CHECK(check_all_moves(pos, &t));
    free(pos);
}

/* ---- Bad input ---- */

TEST(movecode_bad_input)
{
    Position *pos = test_position_new(START_FEN);
    if (!pos)
        return;
    CHECK_EQ(movecode_encode(pos, MOVE_NONE), MOVECODE_ERROR);
    CHECK_EQ(movecode_encode(pos, move_create(E4, E5, FLAG_QUIET)), MOVECODE_ERROR);  /* empty square */
    CHECK_EQ(movecode_encode(pos, move_create(E7, E5, FLAG_DOUBLE_PUSH)), MOVECODE_ERROR); /* not our pawn */
    Move not_a_jump = move_create(G1, G4, FLAG_QUIET); /* unchecked encode: any byte but not this move */
    CHECK(movecode_decode(pos, movecode_encode(pos, not_a_jump)) != not_a_jump);
    CHECK_EQ(movecode_encode_checked(pos, not_a_jump), MOVECODE_ERROR);
    CHECK_EQ(movecode_encode_checked(pos, move_create(E2, E4, FLAG_QUIET)), MOVECODE_ERROR); /* wrong flag */
    CHECK_EQ(movecode_encode_checked(pos, move_create(A1, A3, FLAG_QUIET)), MOVECODE_ERROR); /* blocked */
    /* Any 16-bit value: never a crash, and never a byte that decodes to it unless legal. */
    for (int v = 0; v < 65536; v++) {
        int code = movecode_encode(pos, (Move)v);
        if (code != MOVECODE_ERROR && movecode_decode(pos, code) == (Move)v)
            CHECK_MSG(move_is_legal(pos, (Move)v), "illegal 0x%04x round-trips", v);
    }
    CHECK_EQ(movecode_decode(pos, -1), MOVE_NONE);
    CHECK_EQ(movecode_decode(pos, 256), MOVE_NONE);

    /* Whole games stop at the first bad element. */
    Move moves[3] = { move_from_san(pos, "e4"), MOVE_NONE, MOVE_NONE };
    make_move(pos, moves[0]);
    moves[1] = move_from_san(pos, "e5");
    moves[2] = move_create(E1, E3, FLAG_QUIET); /* Ke1-e3 is no move */
    unmake_move(pos, moves[0]);
    uint8_t codes[3];
    CHECK_EQ(movecode_encode_game(pos, moves, 3, codes), 2);
    Move back[3];
    codes[2] = 0x00; /* king north: e1-e2, empty after 1. e4 */
    int decoded = movecode_decode_game(pos, codes, 3, back);
    CHECK_EQ(decoded, 3);
    CHECK_EQ(back[2], move_create(E1, E2, FLAG_QUIET));
    codes[2] = 0x06; /* king west: d1 holds the queen */
    CHECK_EQ(movecode_decode_game(pos, codes, 3, back), 2);
    CHECK_EQ(MOVECODE_VERSION, 1); /* bump deliberately, together with docs and book readers */
    free(pos);
}
