/* Shared helpers of the move-code tests (see movecode_check.h). */
#include "movecode_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/movecode.h"
#include "board/movegen.h"
#include "board/notation.h"
#include "test.h"

/* ---- Positions ---- */

Position *test_position_new(const char *fen)
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

int perft_suite_load(char fens[][128], int max, long long *nodes)
{
    char path[256], line[512];
    FILE *f = fopen(test_data_path("perftsuite.epd", path, sizeof path), "r");
    if (!CHECK_MSG(f != NULL, "cannot open %s", path))
        return 0;
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        long long d1 = 0, d2 = 0, d3 = 0;
        if (nodes)
            nodes[n] = semi && sscanf(semi, ";D1 %lld ;D2 %lld ;D3 %lld", &d1, &d2, &d3) == 3 ? d1 + d2 + d3 : 0;
        if (semi)
            *semi = '\0';
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

/* ---- Reference encoder ---- */

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

int compare_strings(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

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

int movecode_reference_code(const Position *pos, Move m)
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

bool check_all_moves(const Position *pos, Tally *t)
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
        int ref = movecode_reference_code(pos, m);
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

bool check_all_bytes(const Position *pos)
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

uint64_t test_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

