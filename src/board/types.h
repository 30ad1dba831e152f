/* Basic chess types shared by every module: squares, pieces, colours, moves. */
#ifndef SAAVEDRA_TYPES_H
#define SAAVEDRA_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t Bitboard;
typedef uint64_t Key;

enum { WHITE, BLACK, COLOR_NB };
typedef int Color;

/* Piece types start at 0 so they index arrays directly. */
enum { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB };
typedef int PieceType;

/* A coloured piece is colour * 8 + type; NO_PIECE marks an empty square. */
enum {
    W_PAWN = 0, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
    B_PAWN = 8, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
    NO_PIECE = 15, PIECE_NB = 16
};
typedef int Piece;

static inline Piece make_piece(Color c, PieceType pt) { return (c << 3) | pt; }
static inline PieceType type_of(Piece p) { return p & 7; }
static inline Color color_of(Piece p) { return p >> 3; }

/* Squares a1 = 0 ... h8 = 63, file-minor (rank-major) ordering. */
enum {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
    SQUARE_NB = 64, NO_SQUARE = 64
};
typedef int Square;

static inline int file_of(Square s) { return s & 7; }
static inline int rank_of(Square s) { return s >> 3; }
static inline Square make_square(int file, int rank) { return rank * 8 + file; }
/* Rank as seen from colour c (rank 0 is c's back rank). */
static inline int relative_rank(Color c, Square s)
{
    return c == WHITE ? rank_of(s) : 7 - rank_of(s);
}
static inline Square relative_square(Color c, Square s) { return c == WHITE ? s : s ^ 56; }
static inline int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

/* Castling rights: one bit each. */
enum { WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8, ALL_CASTLING = 15 };
/* Index of a castling right: 0 white O-O, 1 white O-O-O, 2 black O-O, 3 black O-O-O
 * (the right's bit is 1 << index). */
static inline int castle_index(Color c, bool queen_side) { return 2 * c + queen_side; }

/* A move is 16 bits: from (6) | to (6) | flags (4).
 * Flags follow the common "from-to-flags" layout: bit 2 = capture, bit 3 = promotion,
 * the low two bits pick the special kind or the promotion piece (N, B, R, Q). */
typedef uint16_t Move;
enum {
    MOVE_NONE = 0,
    MOVE_NULL = 65 /* from b1 to b1: never a legal move */
};
enum {
    FLAG_QUIET = 0, FLAG_DOUBLE_PUSH = 1, FLAG_CASTLE_KING = 2, FLAG_CASTLE_QUEEN = 3,
    FLAG_CAPTURE = 4, FLAG_EP = 5,
    FLAG_PROMO = 8, FLAG_PROMO_N = 8, FLAG_PROMO_B = 9, FLAG_PROMO_R = 10, FLAG_PROMO_Q = 11,
    FLAG_PROMO_CAPTURE = 12, FLAG_PC_N = 12, FLAG_PC_B = 13, FLAG_PC_R = 14, FLAG_PC_Q = 15
};

static inline Move move_create(Square from, Square to, int flags)
{
    return (Move)(from | (to << 6) | (flags << 12));
}
static inline Square move_from(Move m) { return m & 63; }
static inline Square move_to(Move m) { return (m >> 6) & 63; }
static inline int move_flags(Move m) { return m >> 12; }
static inline bool move_is_capture(Move m) { return (m >> 12) & FLAG_CAPTURE; }
static inline bool move_is_promotion(Move m) { return (m >> 12) & FLAG_PROMO; }
static inline bool move_is_castle(Move m)
{
    int f = m >> 12;
    return f == FLAG_CASTLE_KING || f == FLAG_CASTLE_QUEEN;
}
static inline bool move_is_ep(Move m) { return (m >> 12) == FLAG_EP; }
/* Promotion piece type (KNIGHT..QUEEN); only meaningful for promotions. */
static inline PieceType move_promo_type(Move m) { return KNIGHT + ((m >> 12) & 3); }
/* Captures and promotions: moves that change material. */
static inline bool move_is_tactical(Move m) { return (m >> 12) & (FLAG_CAPTURE | FLAG_PROMO); }

#define MAX_MOVES 256
#define MAX_PLY 128

typedef struct {
    Move moves[MAX_MOVES];
    int count;
} MoveList;

#endif
