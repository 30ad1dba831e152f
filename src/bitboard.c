/* Attack tables. Magic numbers are searched at start-up with a fixed-seed generator,
 * so every run builds identical tables in a few milliseconds; under ARCH=bmi2 the
 * same tables are indexed with PEXT and no magic is needed. */
#include "bitboard.h"

#include <stdlib.h>
#include <string.h>

Magic ROOK_MAGICS[SQUARE_NB];
Magic BISHOP_MAGICS[SQUARE_NB];
Bitboard PAWN_ATTACKS[COLOR_NB][SQUARE_NB];
Bitboard KNIGHT_ATTACKS[SQUARE_NB];
Bitboard KING_ATTACKS[SQUARE_NB];
Bitboard BETWEEN[SQUARE_NB][SQUARE_NB];
Bitboard LINE[SQUARE_NB][SQUARE_NB];
int DISTANCE[SQUARE_NB][SQUARE_NB];

/* Fancy magic tables: 102400 rook entries and 5248 bishop entries in total. */
static Bitboard ROOK_TABLE[0x19000];
static Bitboard BISHOP_TABLE[0x1480];

static const int ROOK_DIRS[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int BISHOP_DIRS[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };

static bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

/* Slow reference ray walk, used only to fill the tables. */
static Bitboard sliding_attacks(const int dirs[4][2], Square s, Bitboard occupied)
{
    Bitboard attacks = 0;
    for (int d = 0; d < 4; d++) {
        int f = file_of(s) + dirs[d][0], r = rank_of(s) + dirs[d][1];
        while (on_board(f, r)) {
            Square to = make_square(f, r);
            attacks |= square_bb(to);
            if (occupied & square_bb(to))
                break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return attacks;
}

/* xorshift64*: small, fast and fully determined by its seed. */
static uint64_t rng_next(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

/* Candidate magics need few set bits; and-ing three random words gives that. */
static uint64_t sparse_random(uint64_t *state)
{
    return rng_next(state) & rng_next(state) & rng_next(state);
}

static void init_sliders(Magic magics[SQUARE_NB], Bitboard *table, const int dirs[4][2])
{
    static Bitboard occupancy[4096], reference[4096];
    static int epoch[4096];
    int current_epoch = 0;
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    Bitboard *next_slice = table;

    for (Square s = 0; s < SQUARE_NB; s++) {
        Magic *m = &magics[s];
        /* Edges matter only when the slider stands on them. */
        Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(rank_of(s)))
                       | ((FILE_A_BB | FILE_H_BB) & ~file_bb(file_of(s)));
        m->mask = sliding_attacks(dirs, s, 0) & ~edges;
        m->shift = 64 - popcount(m->mask);
        m->attacks = next_slice;

        /* Carry-rippler enumeration of every subset of the mask. */
        int size = 0;
        Bitboard b = 0;
        do {
            occupancy[size] = b;
            reference[size] = sliding_attacks(dirs, s, b);
#if defined(USE_PEXT)
            m->attacks[_pext_u64(b, m->mask)] = reference[size];
#endif
            size++;
            b = (b - m->mask) & m->mask;
        } while (b);
        next_slice += size;

#if !defined(USE_PEXT)
        for (;;) {
            do
                m->magic = sparse_random(&seed);
            while (popcount((m->mask * m->magic) >> 56) < 6);
            current_epoch++;
            int i;
            for (i = 0; i < size; i++) {
                unsigned idx = magic_index(m, occupancy[i]);
                if (epoch[idx] < current_epoch) {
                    epoch[idx] = current_epoch;
                    m->attacks[idx] = reference[i];
                } else if (m->attacks[idx] != reference[i])
                    break;
            }
            if (i == size)
                break;
        }
#endif
    }
}

void bitboards_init(void)
{
    static bool done = false;
    if (done)
        return;
    done = true;

    for (Square s = 0; s < SQUARE_NB; s++) {
        Bitboard b = square_bb(s);
        PAWN_ATTACKS[WHITE][s] = pawn_attacks_bb(WHITE, b);
        PAWN_ATTACKS[BLACK][s] = pawn_attacks_bb(BLACK, b);
        static const int knight_jumps[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 },
                                                { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
        KNIGHT_ATTACKS[s] = KING_ATTACKS[s] = 0;
        for (int i = 0; i < 8; i++) {
            int f = file_of(s) + knight_jumps[i][0], r = rank_of(s) + knight_jumps[i][1];
            if (on_board(f, r))
                KNIGHT_ATTACKS[s] |= square_bb(make_square(f, r));
        }
        for (int df = -1; df <= 1; df++)
            for (int dr = -1; dr <= 1; dr++) {
                int f = file_of(s) + df, r = rank_of(s) + dr;
                if ((df || dr) && on_board(f, r))
                    KING_ATTACKS[s] |= square_bb(make_square(f, r));
            }
    }

    init_sliders(ROOK_MAGICS, ROOK_TABLE, ROOK_DIRS);
    init_sliders(BISHOP_MAGICS, BISHOP_TABLE, BISHOP_DIRS);

    for (Square a = 0; a < SQUARE_NB; a++)
        for (Square b = 0; b < SQUARE_NB; b++) {
            int df = abs(file_of(a) - file_of(b)), dr = abs(rank_of(a) - rank_of(b));
            DISTANCE[a][b] = df > dr ? df : dr;
            BETWEEN[a][b] = LINE[a][b] = 0;
            if (a == b)
                continue;
            Bitboard ba = square_bb(a), bb = square_bb(b);
            if (sliding_attacks(BISHOP_DIRS, a, 0) & bb) {
                LINE[a][b] = (bishop_attacks(a, 0) & bishop_attacks(b, 0)) | ba | bb;
                BETWEEN[a][b] = bishop_attacks(a, bb) & bishop_attacks(b, ba);
            } else if (sliding_attacks(ROOK_DIRS, a, 0) & bb) {
                LINE[a][b] = (rook_attacks(a, 0) & rook_attacks(b, 0)) | ba | bb;
                BETWEEN[a][b] = rook_attacks(a, bb) & rook_attacks(b, ba);
            }
        }
}
