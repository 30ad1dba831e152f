/* Bitboard helpers and precomputed attack tables (magic or PEXT slider lookup). */
#ifndef SAAVEDRA_BITBOARD_H
#define SAAVEDRA_BITBOARD_H

#include "board/types.h"

#if defined(USE_PEXT)
#include <immintrin.h>
#endif

#define FILE_A_BB 0x0101010101010101ULL
#define FILE_H_BB (FILE_A_BB << 7)
#define RANK_1_BB 0xFFULL
#define RANK_8_BB (RANK_1_BB << 56)
/* Square colours: a1, c1, ..., b2, ... are dark. */
#define DARK_SQUARES 0xAA55AA55AA55AA55ULL
#define LIGHT_SQUARES (~DARK_SQUARES)

static inline Bitboard square_bb(Square s) { return 1ULL << s; }
static inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
static inline Square lsb(Bitboard b) { return __builtin_ctzll(b); }
static inline Square msb(Bitboard b) { return 63 ^ __builtin_clzll(b); }
static inline Square pop_lsb(Bitboard *b) { Square s = lsb(*b); *b &= *b - 1; return s; }
static inline bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }
static inline Bitboard file_bb(int file) { return FILE_A_BB << file; }
static inline Bitboard rank_bb(int rank) { return RANK_1_BB << (8 * rank); }

static inline Bitboard shift_east(Bitboard b) { return (b & ~FILE_H_BB) << 1; }
static inline Bitboard shift_west(Bitboard b) { return (b & ~FILE_A_BB) >> 1; }
/* Push a set of pawns one rank forward for colour c. */
static inline Bitboard pawn_push_bb(Color c, Bitboard b) { return c == WHITE ? b << 8 : b >> 8; }
/* All squares attacked by a set of pawns of colour c. */
static inline Bitboard pawn_attacks_bb(Color c, Bitboard b)
{
    return c == WHITE ? ((b & ~FILE_A_BB) << 7) | ((b & ~FILE_H_BB) << 9)
                      : ((b & ~FILE_A_BB) >> 9) | ((b & ~FILE_H_BB) >> 7);
}

/* One slider's lookup entry: mask of relevant occupancy, magic, shift and table slice. */
typedef struct {
    Bitboard mask;
    Bitboard magic;
    Bitboard *attacks;
    unsigned shift;
} Magic;

extern Magic ROOK_MAGICS[SQUARE_NB];
extern Magic BISHOP_MAGICS[SQUARE_NB];
extern Bitboard PAWN_ATTACKS[COLOR_NB][SQUARE_NB];
extern Bitboard KNIGHT_ATTACKS[SQUARE_NB];
extern Bitboard KING_ATTACKS[SQUARE_NB];
/* Squares strictly between two aligned squares (empty when not aligned). */
extern Bitboard BETWEEN[SQUARE_NB][SQUARE_NB];
/* The whole line through two aligned squares, edge to edge (empty when not aligned). */
extern Bitboard LINE[SQUARE_NB][SQUARE_NB];
extern int DISTANCE[SQUARE_NB][SQUARE_NB];

/* Builds every table above. Called once at start-up; the tables are read-only after. */
void bitboards_init(void);
/* Searches magic numbers from scratch with the fixed seed (for tools/recipes/gen_magics.c).
 * Overwrites the slider tables: call bitboards_init() afterwards only in a new process. */
void magics_search(Bitboard rook[SQUARE_NB], Bitboard bishop[SQUARE_NB]);

static inline unsigned magic_index(const Magic *m, Bitboard occupied)
{
#if defined(USE_PEXT)
    return (unsigned)_pext_u64(occupied, m->mask);
#else
    return (unsigned)(((occupied & m->mask) * m->magic) >> m->shift);
#endif
}

static inline Bitboard bishop_attacks(Square s, Bitboard occupied)
{
    const Magic *m = &BISHOP_MAGICS[s];
    return m->attacks[magic_index(m, occupied)];
}

static inline Bitboard rook_attacks(Square s, Bitboard occupied)
{
    const Magic *m = &ROOK_MAGICS[s];
    return m->attacks[magic_index(m, occupied)];
}

static inline Bitboard queen_attacks(Square s, Bitboard occupied)
{
    return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}

/* Attacks of a non-pawn piece type from s with the given occupancy. */
static inline Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied)
{
    switch (pt) {
    case KNIGHT: return KNIGHT_ATTACKS[s];
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    case KING: return KING_ATTACKS[s];
    default: return 0;
    }
}

static inline bool aligned(Square a, Square b, Square c)
{
    return (LINE[a][b] & square_bb(c)) != 0;
}

#endif
