/* Position tests: incremental keys against recomputation at every node, exact restore
 * after unmake, FEN round trips, malformed FENs, en-passant legality. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "board/checkinfo.h"
#include "board/movegen.h"
#include "perft_data.h"
#include "board/position.h"
#include "test.h"

#define KIWIPETE "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

#define WALK_DEPTH 4

/* Position fields that make/unmake touch, in a form memcmp can compare. */
typedef struct {
    Bitboard by_type[PIECE_TYPE_NB];
    Bitboard by_color[COLOR_NB];
    uint8_t board[SQUARE_NB];
    Color side;
    int game_ply;
    int st_index;
    StateInfo state;
} Snapshot;

static void take_snapshot(const Position *pos, Snapshot *s)
{
    memset(s, 0, sizeof *s);
    memcpy(s->by_type, pos->by_type, sizeof s->by_type);
    memcpy(s->by_color, pos->by_color, sizeof s->by_color);
    memcpy(s->board, pos->board, sizeof s->board);
    s->side = pos->side;
    s->game_ply = pos->game_ply;
    s->st_index = pos->st_index;
    memcpy(&s->state, pos_state(pos), sizeof s->state);
}

/* Pieces of the side to move shielding their king from an enemy slider, found by
 * removing each piece in turn (independent of the position's own pin code). */
static Bitboard pinned_from_scratch(const Position *pos)
{
    Color us = pos->side, them = !us;
    Square ksq = king_square(pos, us);
    Bitboard occ = pieces(pos), result = 0;
    Bitboard rooks = pieces_cp(pos, them, ROOK) | pieces_cp(pos, them, QUEEN);
    Bitboard bishops = pieces_cp(pos, them, BISHOP) | pieces_cp(pos, them, QUEEN);
    Bitboard candidates = pos->by_color[us] & ~square_bb(ksq);
    while (candidates) {
        Square s = pop_lsb(&candidates);
        Bitboard without = occ ^ square_bb(s);
        if (((rook_attacks(ksq, without) & ~rook_attacks(ksq, occ)) & rooks)
            || ((bishop_attacks(ksq, without) & ~bishop_attacks(ksq, occ)) & bishops))
            result |= square_bb(s);
    }
    return result;
}

/* After a double push, whether some en-passant capture is legal, decided by playing each
 * candidate and looking at the mover's king (independent of the position's ep code). */
static bool ep_capture_possible(Position *pos)
{
    Move last = pos_state(pos)->move;
    if (last == MOVE_NONE || move_flags(last) != FLAG_DOUBLE_PUSH)
        return false;
    Color us = pos->side;
    Square to = move_to(last), ep = to + pawn_push(us);
    Bitboard capturers = (shift_east(square_bb(to)) | shift_west(square_bb(to))) & pieces_cp(pos, us, PAWN);
    bool legal = false;
    while (capturers) {
        Move m = move_create(pop_lsb(&capturers), ep, FLAG_EP);
        make_move(pos, m);
        legal |= !(attackers_to(pos, king_square(pos, us), pieces(pos)) & pos->by_color[!us]);
        unmake_move(pos, m);
    }
    return legal;
}

typedef struct {
    uint64_t nodes;
    bool reparse; /* also compare with a fresh parse of the node's FEN (slower) */
} WalkStats;

static void check_node(Position *pos, WalkStats *ws)
{
    const StateInfo *st = pos_state(pos);
    char fen[128];
    ws->nodes++;
    bool ok = st->key == position_compute_key(pos) && st->pawn_key == position_compute_pawn_key(pos);
    Color us = pos->side;
    Bitboard checkers_now = attackers_to(pos, king_square(pos, us), pieces(pos)) & pos->by_color[!us];
    ok = ok && st->checkers == checkers_now && st->pinned == pinned_from_scratch(pos);
    /* The ep square is kept only when an en-passant capture is legal. */
    if (st->ep_square != NO_SQUARE) {
        MoveList list;
        generate_legal(pos, &list);
        bool found = false;
        for (int i = 0; i < list.count; i++)
            found |= move_is_ep(list.moves[i]) && move_to(list.moves[i]) == st->ep_square;
        ok = ok && found;
    }
    if (pos->st_index > 0)
        ok = ok && (st->ep_square != NO_SQUARE) == ep_capture_possible(pos);
    if (!ok) {
        position_to_fen(pos, fen);
        CHECK_MSG(false, "keys/checkers/pins/ep differ from recomputation after %s", fen);
    }
    if (ws->reparse) {
        static _Thread_local Position fresh;
        char err[160];
        position_to_fen(pos, fen);
        if (CHECK_MSG(position_from_fen(&fresh, fen, err, sizeof err, NULL), "reparse of %s: %s", fen, err)) {
            CHECK_MSG(pos_key(&fresh) == st->key, "key differs from a fresh parse of %s", fen);
            CHECK_MSG(pos_state(&fresh)->pawn_key == st->pawn_key, "pawn key differs from a fresh parse of %s", fen);
            CHECK_MSG(ep_square(&fresh) == st->ep_square, "ep square differs from a fresh parse of %s", fen);
        }
    }
}

static void walk(Position *pos, int depth, WalkStats *ws)
{
    check_node(pos, ws);
    if (depth == 0)
        return;
    MoveList list;
    Snapshot before, after;
    char fen_before[128], fen_after[128];
    generate_legal(pos, &list);
    take_snapshot(pos, &before);
    position_to_fen(pos, fen_before);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        make_move(pos, m);
        walk(pos, depth - 1, ws);
        unmake_move(pos, m);
        take_snapshot(pos, &after);
        if (memcmp(&before, &after, sizeof before)) {
            CHECK_MSG(false, "position not restored after move %d of %s", m, fen_before);
            return;
        }
        if (depth >= 2) {
            position_to_fen(pos, fen_after);
            CHECK_STR_EQ(fen_after, fen_before);
        }
    }
}

static const char *const WALK_FENS[] = {
    START_FEN,
    KIWIPETE,
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
    "4k3/8/8/8/1p1p4/8/2P5/4K3 w - - 0 1",
    /* Chess960: king and rook swap places; king on g1 castling in place; inner rooks. */
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "r5kr/8/8/8/8/8/8/R5KR w HAha - 0 1",
    "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
};

TEST(zobrist_and_unmake_every_node)
{
    Position *pos = malloc(sizeof *pos);
    char err[160];
    WalkStats ws = { 0, false };
    for (size_t i = 0; i < sizeof WALK_FENS / sizeof *WALK_FENS; i++) {
        if (!CHECK_MSG(position_from_fen(pos, WALK_FENS[i], err, sizeof err, NULL), "%s: %s", WALK_FENS[i], err))
            continue;
        walk(pos, WALK_DEPTH, &ws);
    }
    test_log("%llu nodes checked", (unsigned long long)ws.nodes);
    CHECK(ws.nodes > 1000000);
    free(pos);
}

/* Keys against an independent fresh parse of each node's FEN (a different code path for
 * the en-passant and castling key parts). */
TEST(zobrist_matches_fresh_parse)
{
    Position *pos = malloc(sizeof *pos);
    char err[160];
    WalkStats ws = { 0, true };
    for (size_t i = 0; i < sizeof WALK_FENS / sizeof *WALK_FENS; i++)
        if (CHECK_MSG(position_from_fen(pos, WALK_FENS[i], err, sizeof err, NULL), "%s: %s", WALK_FENS[i], err))
            walk(pos, 3, &ws);
    free(pos);
}

/* What the search predicts of a move before making it matches the position after it, for
 * every legal move of every node of the walks: both check tests (the per-node CheckInfo
 * one and the plain one), through direct and discovered checks, castling, en passant and
 * promotions; and key_after, wherever it promises the exact key. */
typedef struct {
    uint64_t moves, exact_keys;
    int failures;
} PredictionWalk;

static void check_predictions(Position *pos, int depth, PredictionWalk *w)
{
    MoveList legal;
    generate_legal(pos, &legal);
    CheckInfo ci;
    checkinfo_init(&ci, pos);
    for (int i = 0; i < legal.count; i++) {
        Move m = legal.moves[i];
        bool fast = checkinfo_gives_check(&ci, pos, m), plain = move_gives_check(pos, m);
        Key predicted = key_after(pos, m);
        int rights_before = castling_rights(pos);
        make_move(pos, m);
        bool real = in_check(pos);
        bool exact = !move_is_castle(m) && !move_is_ep(m) && !move_is_promotion(m)
                  && castling_rights(pos) == rights_before && ep_square(pos) == NO_SQUARE;
        w->exact_keys += exact;
        bool key_wrong = exact && predicted != pos_key(pos);
        if ((fast != real || plain != real || key_wrong) && ++w->failures <= 5) {
            unmake_move(pos, m);
            char fen[128];
            position_to_fen(pos, fen);
            CHECK_MSG(false, "%s move %d: checks %d, CheckInfo says %d, move_gives_check %d; key_after %s",
                      fen, (int)m, real, fast, plain, key_wrong ? "wrong" : "right");
            make_move(pos, m);
        }
        w->moves++;
        if (depth > 1)
            check_predictions(pos, depth - 1, w);
        unmake_move(pos, m);
    }
}

TEST(gives_check_and_key_after_match_the_position_after_the_move)
{
    Position *pos = malloc(sizeof *pos);
    char err[160];
    PredictionWalk w = { 0, 0, 0 };
    for (size_t i = 0; i < sizeof WALK_FENS / sizeof *WALK_FENS; i++)
        if (CHECK_MSG(position_from_fen(pos, WALK_FENS[i], err, sizeof err, NULL), "%s: %s", WALK_FENS[i], err))
            check_predictions(pos, 3, &w);
    test_log("%llu moves checked, %llu of them with an exact key_after",
             (unsigned long long)w.moves, (unsigned long long)w.exact_keys);
    CHECK_EQ(w.failures, 0);
    CHECK(w.moves > 100000);
    CHECK(w.exact_keys > w.moves / 2);
    free(pos);
}

/* The null move flips the side, drops the ep square (the key key_after_null foresaw) and
 * restores everything. */
TEST(null_move_restores)
{
    Position pos;
    Snapshot before, after;
    char err[160];
    if (!CHECK(position_from_fen(&pos, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", err, sizeof err, NULL)))
        return;
    CHECK_EQ(ep_square(&pos), F6);
    take_snapshot(&pos, &before);
    Key predicted = key_after_null(&pos);
    make_null_move(&pos);
    CHECK(pos_key(&pos) == predicted);
    CHECK_EQ(pos.side, BLACK);
    CHECK_EQ(ep_square(&pos), NO_SQUARE);
    CHECK(pos_key(&pos) == position_compute_key(&pos));
    unmake_null_move(&pos);
    take_snapshot(&pos, &after);
    CHECK(memcmp(&before, &after, sizeof before) == 0);
}

/* FEN print -> parse -> print is the identity, with identical keys, for every suite
 * position and every position two plies from it. */
static void fen_round_trip(Position *pos, int depth, int *checked)
{
    static Position copy;
    char fen[128], fen2[128], err[160];
    position_to_fen(pos, fen);
    (*checked)++;
    if (CHECK_MSG(position_from_fen(&copy, fen, err, sizeof err, NULL), "%s: %s", fen, err)) {
        position_to_fen(&copy, fen2);
        CHECK_STR_EQ(fen2, fen);
        CHECK_MSG(pos_key(&copy) == pos_key(pos) && !memcmp(copy.board, pos->board, sizeof pos->board),
                  "round trip of %s changed the position", fen);
    }
    if (depth == 0)
        return;
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        make_move(pos, list.moves[i]);
        fen_round_trip(pos, depth - 1, checked);
        unmake_move(pos, list.moves[i]);
    }
}

TEST(fen_round_trip_suite)
{
    static const char *const files[] = { "perftsuite.epd", "cpw.epd", "fischer.epd" };
    Position *pos = malloc(sizeof *pos);
    char err[160];
    int checked = 0;
    for (int f = 0; f < 3; f++) {
        PerftEntry *entries;
        int n = perft_data_load(files[f], &entries);
        for (int i = 0; i < n; i++) {
            if (!CHECK_MSG(position_from_fen(pos, entries[i].fen, err, sizeof err, NULL), "%s", err))
                continue;
            char fen[128];
            position_to_fen(pos, fen);
            /* The suite's own FENs are canonical, so printing reproduces them. */
            CHECK_STR_EQ(fen, entries[i].fen);
            fen_round_trip(pos, f < 2 ? 2 : 1, &checked);
        }
        free(entries);
    }
    test_log("%d positions round-tripped", checked);
    CHECK(checked > 25000);
    free(pos);
}

/* Each malformed FEN is rejected with a message naming the problem (a word the message
 * must contain) and leaves the previous position untouched. */
static const struct {
    const char *fen;
    const char *word;
} BAD_FENS[] = {
    { "", "empty" },
    { "    ", "empty" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "side" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "castling" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "passant" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "castling" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "passant" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - z 1", "halfmove" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "fullmove" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk", "unexpected" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "rank" },
    { "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank" },
    { "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank" },
    { "rnbqkbnr/pppppppp/44p/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank" },
    { "rnbqkbnr//pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank" },
    { "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "character" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "character" },
    { "rnbqkbnr/pppppppp/8/8/4Q3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "too many" },
    { "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "too many" },
    { "QQQQQQQQ/QQ1k4/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", "too many" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1", "king" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "king" },
    { "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "king" },
    { "8/8/8/8/8/8/8/8 w - - 0 1", "king" },
    { "4k3/8/8/8/8/8/8/4K2P w - - 0 1", "pawn" },
    { "4k2p/8/8/8/8/8/8/4K3 b - - 0 1", "pawn" },
    { "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling" },
    { "4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "castling" },
    { "4k2r/8/8/8/8/8/8/R2K4 w K - 0 1", "castling" },   /* no rook on the king's h-side */
    { "4k2r/8/8/8/8/8/8/R2K3R w C - 0 1", "castling" },  /* no rook on the c-file */
    { "4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "passant" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "passant" },
    { "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 2", "passant" },
    { "rnbqk1nr/ppppbppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", "passant" }, /* e7 occupied */
    { "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "check" },
    { "8/8/8/8/8/8/8/3Kk3 b - - 0 1", "check" },
};

/* Case-insensitive substring test. */
static bool contains_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; *p; p++)
        if (!strncasecmp(p, word, n))
            return true;
    return false;
}

/* X-FEN: KQkq name the outermost rooks, a file letter an inner one; Chess960 positions
 * are written back in Shredder-FEN (rook files). */
TEST(fen_chess960_castling_forms)
{
    Position pos;
    char err[160], fen[128];
    if (!CHECK(position_from_fen(&pos, "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1", err, sizeof err, NULL)))
        return;
    CHECK(pos.chess960);
    CHECK(pos.castle_rook[0] == G1 && pos.castle_rook[1] == D1 && pos.castle_rook[2] == G8 && pos.castle_rook[3] == D8);
    position_to_fen(&pos, fen);
    CHECK_STR_EQ(fen, "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd - 0 1");
    /* Two rooks on the king's h-side: K is the outer one, the file letter the inner. */
    if (CHECK(position_from_fen(&pos, "4k3/8/8/8/8/8/8/1K3RR1 w K - 0 1", err, sizeof err, NULL)))
        CHECK(pos.castle_rook[0] == G1);
    if (CHECK(position_from_fen(&pos, "4k3/8/8/8/8/8/8/1K3RR1 w F - 0 1", err, sizeof err, NULL)))
        CHECK(pos.castle_rook[0] == F1);
    /* The standard position stays standard; UCI_Chess960 switches the writer. */
    if (!CHECK(position_from_fen(&pos, START_FEN, err, sizeof err, NULL)))
        return;
    CHECK(!pos.chess960);
    position_set_chess960(&pos, true);
    position_to_fen(&pos, fen);
    CHECK_STR_EQ(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    position_set_chess960(&pos, false);
    CHECK(!pos.chess960);
    /* A Chess960 geometry cannot be written in standard notation: it stays on. */
    if (CHECK(position_from_fen(&pos, "4k3/8/8/8/8/8/8/1K3RR1 w K - 0 1", err, sizeof err, NULL))) {
        position_set_chess960(&pos, false);
        CHECK(pos.chess960);
    }
}

TEST(malformed_fens_rejected)
{
    Position *pos = malloc(sizeof *pos), *saved = malloc(sizeof *pos);
    char err[160];
    memset(pos, 0, sizeof *pos);
    if (!CHECK(position_from_fen(pos, KIWIPETE, err, sizeof err, NULL)))
        return;
    memcpy(saved, pos, sizeof *pos);
    int count = (int)(sizeof BAD_FENS / sizeof *BAD_FENS);
    CHECK(count >= 25);
    for (int i = 0; i < count; i++) {
        strcpy(err, "");
        bool accepted = position_from_fen(pos, BAD_FENS[i].fen, err, sizeof err, NULL);
        if (!CHECK_MSG(!accepted, "accepted malformed FEN \"%s\"", BAD_FENS[i].fen)) {
            memcpy(pos, saved, sizeof *pos);
            continue;
        }
        CHECK_MSG(err[0] != '\0', "no message for \"%s\"", BAD_FENS[i].fen);
        CHECK_MSG(!strchr(err, '\n'), "message for \"%s\" is not one line", BAD_FENS[i].fen);
        CHECK_MSG(contains_word(err, BAD_FENS[i].word), "message for \"%s\" does not say \"%s\": %s",
                  BAD_FENS[i].fen, BAD_FENS[i].word, err);
        CHECK_MSG(!memcmp(pos, saved, sizeof *pos), "rejected FEN \"%s\" changed the position", BAD_FENS[i].fen);
        test_log("%-70s -> %s", BAD_FENS[i].fen, err);
    }
    /* A NULL or zero-size error buffer is allowed. */
    CHECK(!position_from_fen(pos, "nonsense", NULL, 0, NULL));
    free(pos);
    free(saved);
}

/* A field longer than the parser's buffer used to be cut silently: 200 zeros and "42"
 * read as a halfmove clock of 0. Over-long fields are now rejected, in FEN and EPD. */
TEST(fen_overlong_fields_rejected)
{
    static char fen[512];
    char err[160];
    Position *pos = malloc(sizeof *pos);
    const char *end = NULL;
    snprintf(fen, sizeof fen, "4k3/8/8/8/8/8/8/4K3 w - - %0*d 1", 202, 42);
    CHECK_MSG(!position_from_fen(pos, fen, err, sizeof err, NULL), "accepted a 202-digit halfmove clock");
    CHECK_MSG(strstr(err, "halfmove"), "message: %s", err);
    snprintf(fen, sizeof fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 %0*d", 202, 7);
    CHECK_MSG(!position_from_fen(pos, fen, err, sizeof err, NULL), "accepted a 202-digit fullmove number");
    /* EPD: the long field is not taken as a counter; the caller sees it as an operation. */
    snprintf(fen, sizeof fen, "4k3/8/8/8/8/8/8/4K3 w - - %0*d bm Kd2;", 202, 42);
    if (CHECK(position_from_fen(pos, fen, err, sizeof err, &end))) {
        CHECK_EQ(rule50_count(pos), 0);
        CHECK(end && !strncmp(end, " 000", 4));
    }
    free(pos);
}

/* Unusual but legal input is accepted. */
TEST(fen_tolerated_forms)
{
    Position pos;
    char err[160], fen[128];
    const char *end = NULL;
    /* EPD: four fields, the rest left to the caller. */
    const char *epd = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"x\";";
    if (CHECK_MSG(position_from_fen(&pos, epd, err, sizeof err, &end), "%s", err)) {
        CHECK(end && !strncmp(end, " bm e4;", 7));
        position_to_fen(&pos, fen);
        CHECK_STR_EQ(fen, START_FEN);
    }
    /* Counters in an EPD line are consumed. */
    if (CHECK(position_from_fen(&pos, "4k3/8/8/8/8/8/8/4K3 b - - 12 40 id \"y\";", err, sizeof err, &end))) {
        CHECK(end && !strncmp(end, " id", 3));
        CHECK_EQ(rule50_count(&pos), 12);
        CHECK_EQ(fullmove_number(&pos), 40);
    }
    /* Missing counters default to 0 1; extra blanks are fine. */
    if (CHECK(position_from_fen(&pos, "  4k3/8/8/8/8/8/8/4K3   w  -  -  ", err, sizeof err, NULL))) {
        position_to_fen(&pos, fen);
        CHECK_STR_EQ(fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }
    /* An ep square no pawn can use is valid but dropped, and does not enter the key. */
    Position plain;
    if (CHECK(position_from_fen(&pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", err, sizeof err, NULL))
        && CHECK(position_from_fen(&plain, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", err, sizeof err, NULL))) {
        CHECK_EQ(ep_square(&pos), NO_SQUARE);
        CHECK(pos_key(&pos) == pos_key(&plain));
    }
}

static bool has_ep_move(const Position *pos)
{
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        if (move_is_ep(list.moves[i]))
            return true;
    return false;
}

/* En passant where removing both pawns exposes the king, and where it is fine. */
TEST(en_passant_pins)
{
    static const struct {
        const char *fen;
        bool legal;
    } cases[] = {
        { "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", false },    /* horizontal pin, rook */
        { "8/8/8/rpP4K/8/8/8/4k3 w - b6 0 1", false },    /* the same from the other side */
        { "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1", false },   /* black to move, queen on the rank */
        { "8/8/1k6/8/3Pp3/8/5B2/4K3 b - d3 0 1", false }, /* captured pawn shields a diagonal */
        { "8/8/8/1Pp4r/K7/8/8/4k3 w - c6 0 1", true },    /* king off the rank: legal */
        { "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", true },    /* ep captures the checking pawn */
        { "4k3/8/8/KPp1r3/8/8/8/8 w - c6 0 1", false },   /* horizontal pin by a nearer rook */
        { "4k3/8/8/KPpn3r/8/8/8/8 w - c6 0 1", true },    /* a third piece still blocks */
    };
    Position pos;
    char err[160], fen[128];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (!CHECK_MSG(position_from_fen(&pos, cases[i].fen, err, sizeof err, NULL), "%s: %s", cases[i].fen, err))
            continue;
        CHECK_MSG(has_ep_move(&pos) == cases[i].legal, "ep capture %s in %s", cases[i].legal ? "missing" : "generated",
                  cases[i].fen);
        CHECK_MSG((ep_square(&pos) != NO_SQUARE) == cases[i].legal, "ep square %s in %s",
                  cases[i].legal ? "dropped" : "kept", cases[i].fen);
        position_to_fen(&pos, fen);
        CHECK_MSG(cases[i].legal == !strstr(fen, " - 0 1"), "printed FEN %s", fen);
    }
    /* Reached by a double push: c7c5 next to the pinned b5 pawn sets no ep square. */
    if (CHECK(position_from_fen(&pos, "8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1", err, sizeof err, NULL))) {
        make_move(&pos, move_create(C7, C5, FLAG_DOUBLE_PUSH));
        CHECK_EQ(ep_square(&pos), NO_SQUARE);
        CHECK(!has_ep_move(&pos));
        CHECK(pos_key(&pos) == position_compute_key(&pos));
    }
    if (CHECK(position_from_fen(&pos, "8/2p5/8/1P5r/K7/8/8/4k3 b - - 0 1", err, sizeof err, NULL))) {
        make_move(&pos, move_create(C7, C5, FLAG_DOUBLE_PUSH));
        CHECK_EQ(ep_square(&pos), C6);
        CHECK(has_ep_move(&pos));
    }
}

/* A short last rank used to be reported as "placement has 8 ranks, not 8". */
TEST(fen_short_last_rank_message)
{
    Position *pos = malloc(sizeof *pos);
    char err[160];
    CHECK(!position_from_fen(pos, "4k3/8/8/8/8/8/8/4K2 w - - 0 1", err, sizeof err, NULL));
    CHECK_MSG(strstr(err, "rank 1") && strstr(err, "7 squares"), "message: %s", err);
    CHECK_MSG(!strstr(err, "8 ranks, not 8"), "message: %s", err);
    CHECK(!position_from_fen(pos, "4k3/8/8/8/8/8/4K3 w - - 0 1", err, sizeof err, NULL));
    CHECK_MSG(strstr(err, "7 ranks"), "message: %s", err);
    free(pos);
}
