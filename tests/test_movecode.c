/* One-byte move codes: round trips over perft trees and games, an independent reference
 * encoder written from docs/compressed-moves.md, canonical codes under transposition,
 * the fallback, all 256 bytes in 10,000 positions, the tracker, errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movecode.h"
#include "movegen.h"
#include "movelegal.h"
#include "notation.h"
#include "pgn.h"
#include "snapshot.h"
#include "test.h"

/* ---- Positions ---- */

static Position *new_position(const char *fen)
{
    Position *pos = malloc(sizeof *pos);
    char err[160];
    if (!pos)
        return NULL;
    if (!position_from_fen(pos, fen, err, sizeof err, NULL)) {
        CHECK_MSG(false, "bad FEN %s: %s", fen, err);
        free(pos);
        return NULL;
    }
    return pos;
}

/* FENs of tests/data/perftsuite.epd (text before the first ';'); when nodes is not NULL
 * it receives the sum of the D1-D3 counts listed (0 when the line lists fewer). */
static int load_suite_counts(char fens[][128], int max, long long *nodes);
static int load_suite(char fens[][128], int max) { return load_suite_counts(fens, max, NULL); }

static int load_suite_counts(char fens[][128], int max, long long *nodes)
{
    char path[256], line[512];
    FILE *f = fopen(test_data_path("perftsuite.epd", path, sizeof path), "r");
    if (!CHECK_MSG(f != NULL, "cannot open %s", path))
        return 0;
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (semi) {
            long long d1 = 0, d2 = 0, d3 = 0;
            if (nodes && sscanf(semi, ";D1 %lld ;D2 %lld ;D3 %lld", &d1, &d2, &d3) == 3)
                nodes[n] = d1 + d2 + d3;
            else if (nodes)
                nodes[n] = 0;
            *semi = '\0';
        }
        size_t len = strlen(line);
        while (len && (line[len - 1] == ' ' || line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len && len < 128)
            strcpy(fens[n++], line);
    }
    fclose(f);
    CHECK_MSG(n >= 100, "only %d positions in perftsuite.epd", n);
    return n;
}

/* ---- Reference encoder: the documented format, written plainly and independently ---- */

static int ref_file_major(Square s) { return file_of(s) * 8 + rank_of(s); }
static bool ref_light(Square s) { return (file_of(s) + rank_of(s)) % 2 == 1; }

/* Same-kind pieces before s in file-major order (bishops: same square colour). */
static int ref_index(const Position *pos, Square s)
{
    Piece pc = piece_on(pos, s);
    int n = 0;
    for (Square t = 0; t < 64; t++)
        if (piece_on(pos, t) == pc && ref_file_major(t) < ref_file_major(s)
            && (type_of(pc) != BISHOP || ref_light(t) == ref_light(s)))
            n++;
    return n;
}

static bool ref_fallback(const Position *pos)
{
    int count[PIECE_TYPE_NB] = { 0 }, light = 0, dark = 0;
    for (Square s = 0; s < 64; s++) {
        Piece pc = piece_on(pos, s);
        if (pc == NO_PIECE || color_of(pc) != pos->side)
            continue;
        count[type_of(pc)]++;
        if (type_of(pc) == BISHOP && ref_light(s))
            light++;
        else if (type_of(pc) == BISHOP)
            dark++;
    }
    return light > 1 || dark > 1 || count[KNIGHT] > 2 || count[ROOK] > 2 || count[QUEEN] > 2
        || (count[QUEEN] == 2 && count[PAWN] >= 7);
}

static int compare_strings(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

/* Index of m among the legal moves sorted by their UCI strings (strcmp). */
static int ref_sorted_index(const Position *pos, Move m)
{
    MoveList list;
    generate_legal(pos, &list);
    char texts[MAX_MOVES][8], mine[8];
    for (int i = 0; i < list.count; i++)
        move_to_uci(list.moves[i], texts[i]);
    qsort(texts, (size_t)list.count, sizeof texts[0], compare_strings);
    move_to_uci(m, mine);
    for (int i = 0; i < list.count; i++)
        if (!strcmp(texts[i], mine))
            return i;
    return -1;
}

static int ref_direction(int df, int dr, const int (*steps)[2], int n)
{
    for (int i = 0; i < n; i++)
        if (steps[i][0] == df && steps[i][1] == dr)
            return i;
    return -100;
}

static int reference_code(const Position *pos, Move m)
{
    static const int KING_STEPS[8][2] = { { 0, 1 }, { 1, 1 }, { 1, 0 }, { 1, -1 }, { 0, -1 }, { -1, -1 }, { -1, 0 }, { -1, 1 } };
    static const int KNIGHT_STEPS[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 }, { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
    if (ref_fallback(pos))
        return ref_sorted_index(pos, m);
    Square from = move_from(m), to = move_to(m);
    int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
    int straight = rank_of(from) == rank_of(to) ? file_of(to) : 8 + rank_of(to);
    int diagonal = df == dr ? file_of(to) : 8 + file_of(to);
    int index = ref_index(pos, from);
    switch (type_of(piece_on(pos, from))) {
    case KING:
        if (move_flags(m) == FLAG_CASTLE_KING)
            return pos->side == WHITE ? 3 : 1; /* SE from e1, NE from e8 */
        if (move_flags(m) == FLAG_CASTLE_QUEEN)
            return pos->side == WHITE ? 5 : 7; /* SW, NW */
        return ref_direction(df, dr, KING_STEPS, 8);
    case QUEEN:
        if (df != 0 && dr != 0)
            return (index == 1 ? 14 : 1) * 16 + diagonal;
        return (index == 1 ? 15 : 2) * 16 + straight;
    case BISHOP:
        return (ref_light(from) ? 3 : 4) * 16 + diagonal;
    case KNIGHT:
        return 5 * 16 + index * 8 + ref_direction(df, dr, KNIGHT_STEPS, 8);
    case ROOK:
        return (6 + index) * 16 + straight;
    default: { /* pawn */
        int side = df == 0 ? 0 : df < 0 ? 1 : 2; /* straight, towards a, towards h */
        int vector;
        if (move_is_promotion(m))
            vector = (side + 1) * 4 + (move_promo_type(m) - KNIGHT); /* N B R Q */
        else
            vector = side == 0 ? (move_flags(m) == FLAG_DOUBLE_PUSH ? 1 : 0) : side + 1;
        return (8 + index) * 16 + vector;
    }
    }
}

/* ---- Checks on one position ---- */

typedef struct {
    long moves, positions, fallback_positions;
} Tally;

/* Every legal move: encode == reference, decode(encode) == move, codes distinct; the
 * checked encoder agrees. Returns false after the first failing position. */
static bool check_all_moves(const Position *pos, Tally *t)
{
    MoveList list;
    generate_legal(pos, &list);
    bool used[256] = { false };
    char fen[128], uci[8];
    t->positions++;
    t->fallback_positions += movecode_fallback(pos);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        int code = movecode_encode(pos, m);
        int ref = reference_code(pos, m);
        Move back = code >= 0 ? movecode_decode(pos, code) : MOVE_NONE;
        bool ok = code >= 0 && code < 256 && code == ref && back == m && !used[code]
               && movecode_encode_checked(pos, m) == code;
        if (!ok) {
            position_to_fen(pos, fen);
            CHECK_MSG(false, "%s in %s: code %d, reference %d, decoded %d, duplicate %d", move_to_uci(m, uci), fen,
                      code, ref, back, code >= 0 && code < 256 && used[code]);
            return false;
        }
        used[code] = true;
        t->moves++;
    }
    return true;
}

/* Every byte decodes to MOVE_NONE or to a legal move whose code is that byte; exactly
 * as many bytes decode as there are legal moves. */
static bool check_all_bytes(const Position *pos)
{
    MoveList list;
    generate_legal(pos, &list);
    int decoded = 0;
    char fen[128];
    for (int b = 0; b < 256; b++) {
        Move m = movecode_decode(pos, b);
        if (m == MOVE_NONE)
            continue;
        bool legal = false;
        for (int i = 0; i < list.count; i++)
            legal |= list.moves[i] == m;
        if (!legal || movecode_encode(pos, m) != b) {
            position_to_fen(pos, fen);
            CHECK_MSG(false, "byte %d in %s decodes to %s move %d whose code is %d", b, fen,
                      legal ? "legal" : "ILLEGAL", m, movecode_encode(pos, m));
            return false;
        }
        decoded++;
    }
    if (decoded != list.count) {
        position_to_fen(pos, fen);
        CHECK_MSG(false, "%d bytes decode in %s, which has %d legal moves", decoded, fen, list.count);
        return false;
    }
    return true;
}

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
    int n = load_suite_counts(fens, 256, listed);
    long long expected = 0, checked = 0;
    for (int i = 0; i < n; i++) {
        Position *pos = new_position(fens[i]);
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

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Positions from the suite's first two plies and from random games played out from each
 * suite position (random games promote a lot: many queens, fallback positions). */
static int sample_positions(Position *out, int max)
{
    static char fens[256][128];
    int n = load_suite(fens, 256), count = 0;
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return 0;
    for (int round = 0; count < max && round < 100; round++) {
        for (int i = 0; i < n && count < max; i++) {
            char err[160];
            if (!position_from_fen(pos, fens[i], err, sizeof err, NULL))
                continue;
            int length = round == 0 ? 2 : 40 + (int)(next_random(&seed) % 200);
            for (int ply = 0; ply < length && count < max; ply++) {
                MoveList list;
                generate_legal(pos, &list);
                if (!list.count)
                    break;
                if (round == 0 || ply % 3 == 0)
                    position_copy_current(snapshot_at(out, (size_t)count++), pos);
                make_move(pos, list.moves[next_random(&seed) % (uint64_t)list.count]);
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

/* ---- Canonical codes ---- */

/* Plays UCI moves on a copy of the start position; NULL if one is illegal. */
static Position *play(const char *fen, const char *moves)
{
    Position *pos = new_position(fen);
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
    /* The issue's pawn example: the capturing pawn began as an e-pawn in one order and
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
    Position *pos = new_position(START_FEN);
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
    pos = new_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
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
    pos = new_position("r1n1k3/1P6/8/8/8/8/8/4KB2 w - - 0 1");
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
    Position *pos = new_position("4k3/8/8/8/8/8/PPPPPP2/Q3K2Q w - - 0 1");
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
    pos = new_position("4k3/8/8/8/8/8/PPPPPPP1/Q3K2Q w - - 0 1");
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
    pos = new_position("4k3/8/8/3r4/8/2N1N3/8/1N2K3 b - - 0 1");
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
        pos = new_position(fens[i]);
        if (!pos)
            continue;
        CHECK_MSG(movecode_fallback(pos) == expected[i], "fallback(%s) should be %d", fens[i], expected[i]);
        free(pos);
    }
}

TEST(movecode_218_move_position)
{
    Position *pos = new_position("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
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

/* ---- Tracker ---- */

static bool tracker_pawns_are(const MoveCodeTracker *t, Color c, const char *squares)
{
    const MoveCodeList *l = &t->list[c][MC_PAWNS];
    char got[64] = "";
    for (int i = 0; i < l->count; i++) {
        char sq[4] = { (char)('a' + file_of(l->square[i])), (char)('1' + rank_of(l->square[i])), ' ', 0 };
        strcat(got, sq);
    }
    return CHECK_MSG(!strcmp(got, squares), "pawns \"%s\", expected \"%s\"", got, squares);
}

TEST(movecode_tracker_article_examples)
{
    static const struct { const char *fen, *move, *before, *after; } CASES[] = {
        { "4k3/8/8/8/8/1p6/PPP5/4K3 w - - 0 1", "axb3", "a2 b2 c2 ", "b2 b3 c2 " },
        { "4k3/8/2p5/1PP2P2/8/2P5/2P5/4K3 w - - 0 1", "bxc6", "b5 c2 c3 c5 f5 ", "c2 c3 c5 c6 f5 " },
        { "4k3/8/8/8/PP6/1n6/2P5/4K3 w - - 0 1", "cxb3", "a4 b4 c2 ", "a4 b3 b4 " },
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Position *pos = new_position(CASES[i].fen);
        if (!pos)
            continue;
        MoveCodeTracker t;
        movecode_tracker_init(&t, pos);
        tracker_pawns_are(&t, WHITE, CASES[i].before);
        Move m = move_from_san(pos, CASES[i].move);
        movecode_tracker_update(&t, pos, m);
        make_move(pos, m);
        tracker_pawns_are(&t, WHITE, CASES[i].after);
        CHECK(movecode_tracker_matches(&t, pos));
        free(pos);
    }
}

/* Plays a whole game through the tracker: after every move it must match from-scratch
 * numbering and give the same codes; the game functions must agree. */
static bool check_game(const Position *start, const Move *moves, int n)
{
    Position *pos = malloc(sizeof *pos);
    uint8_t *codes = malloc((size_t)n + 1);
    Move *back = malloc(((size_t)n + 1) * sizeof *back);
    bool ok = pos && codes && back;
    if (ok) {
        position_copy_current(pos, start);
        MoveCodeTracker t;
        movecode_tracker_init(&t, pos);
        for (int i = 0; ok && i < n; i++) {
            int code = movecode_encode(pos, moves[i]);
            ok = CHECK_MSG(movecode_encode_tracked(&t, pos, moves[i]) == code
                               && movecode_decode_tracked(&t, pos, code) == moves[i],
                           "tracked codes differ at ply %d", i);
            movecode_tracker_update(&t, pos, moves[i]);
            make_move(pos, moves[i]);
            position_trim_history(pos);
            ok = ok && CHECK_MSG(movecode_tracker_matches(&t, pos), "tracker wrong after ply %d", i);
        }
        ok = ok && CHECK_EQ(movecode_encode_game(start, moves, n, codes), n);
        ok = ok && CHECK_EQ(movecode_decode_game(start, codes, n, back), n);
        for (int i = 0; ok && i < n; i++)
            ok = CHECK_EQ(back[i], moves[i]);
    }
    free(pos);
    free(codes);
    free(back);
    return ok;
}

TEST(movecode_tracker_over_random_games)
{
    static char fens[256][128];
    int n = load_suite(fens, 256);
    uint64_t seed = 12345;
    static Move moves[2000];
    Position *pos = malloc(sizeof *pos), *start = malloc(sizeof *start);
    int promotions = 0, games = 0;
    for (int round = 0; pos && start && round < 8; round++)
        for (int i = 0; i < n; i++) {
            char err[160];
            if (!position_from_fen(start, fens[i], err, sizeof err, NULL))
                continue;
            position_copy_current(pos, start);
            int len = 0;
            for (; len < 1500; len++) { /* long games: the tracker must not drift */
                MoveList list;
                generate_legal(pos, &list);
                if (!list.count || position_insufficient_material(pos))
                    break;
                moves[len] = list.moves[next_random(&seed) % (uint64_t)list.count];
                promotions += move_is_promotion(moves[len]);
                make_move(pos, moves[len]);
                position_trim_history(pos);
            }
            games++;
            if (!check_game(start, moves, len))
                goto done;
        }
done:
    test_log("%d random games, %d promotions", games, promotions);
    CHECK(promotions > 100);
    free(pos);
    free(start);
}

/* ---- PGN games: every legal move of every position, all variations ---- */

static void count_message(void *ctx, const char *message)
{
    (void)message;
    ++*(int *)ctx; /* the PGN tests check the messages themselves */
}

static void check_pgn_file(const char *name, Tally *t, long *games)
{
    char path[256];
    int messages = 0;
    PgnReader *r = pgn_open(test_data_path(name, path, sizeof path), count_message, &messages);
    if (!CHECK_MSG(r != NULL, "cannot open %s", path))
        return;
    static Move line[4096];
    int plies = 0;
    Position *start = malloc(sizeof *start);
    const PgnItem *it;
    while (start && (it = pgn_next(r))->event != PGN_EOF) {
        if (it->event == PGN_MOVETEXT) {
            position_copy_current(start, it->position);
            plies = 0;
        } else if (it->event == PGN_MOVE && it->move != MOVE_NULL) {
            if (!check_all_moves(it->position, t))
                break;
            if (it->depth == 0 && plies < 4096)
                line[plies++] = it->move;
        } else if (it->event == PGN_MOVE) {
            plies = 4096; /* a null move: the main line cannot be coded as a whole */
        } else if (it->event == PGN_GAME_END) {
            ++*games;
            if (plies < 4096 && !check_game(start, line, plies))
                break;
        }
    }
    free(start);
    pgn_close(r);
    CHECK_MSG(messages <= 1, "%s: %d games skipped", name, messages);
}

TEST(movecode_pgn_games_all_positions)
{
    static const char *FILES[] = { "pgn/edge_cases.pgn", "pgn/carballo_problems_easy.pgn", "pgn/Nakamura.pgn",
                                   "pgn/arasan_basic_first320.pgn", "pgn/kasparov-deep-blue-1997.pgn",
                                   "pgn/uci-moves.pgn", "pgn/anastasian-lewis.pgn" };
    Tally t = { 0, 0, 0 };
    long games = 0;
    for (size_t i = 0; i < sizeof FILES / sizeof FILES[0]; i++)
        check_pgn_file(FILES[i], &t, &games);
    test_log("%ld games, %ld positions, %ld moves checked", games, t.positions, t.moves);
    CHECK(games > 1800);
}

/* ---- Bad input ---- */

TEST(movecode_bad_input)
{
    Position *pos = new_position(START_FEN);
    if (!pos)
        return;
    CHECK_EQ(movecode_encode(pos, MOVE_NONE), MOVECODE_ERROR);
    CHECK_EQ(movecode_encode(pos, move_create(E4, E5, FLAG_QUIET)), MOVECODE_ERROR);  /* empty square */
    CHECK_EQ(movecode_encode(pos, move_create(E7, E5, FLAG_DOUBLE_PUSH)), MOVECODE_ERROR); /* not our pawn */
    CHECK_EQ(movecode_encode(pos, move_create(G1, G4, FLAG_QUIET)), MOVECODE_ERROR); /* no knight jump */
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
