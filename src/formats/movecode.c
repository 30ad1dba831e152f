/* One-byte move codes: piece code + vector code and the sorted-index fallback, with
 * from-scratch or tracked numbering. Tables in docs/compressed-moves.md; the tracker's
 * upkeep is in movecode_tracker.c, whole-game conversion in movecode_game.c. */
#include "formats/movecode.h"

#include <assert.h>

#include "board/movegen.h"
#include "board/movelegal.h"

/* ---- File-major numbering (file_major_key in movecode_tracker.h) ---- */

/* Squares that come before s in file-major order. */
static inline Bitboard file_major_before(Square s)
{
    return (FILE_A_BB * ((1ULL << file_of(s)) - 1)) | (file_bb(file_of(s)) & (square_bb(s) - 1));
}

/* Number of the piece on s among the pieces of set. */
static inline int file_major_index(Bitboard set, Square s)
{
    return popcount(set & file_major_before(s));
}

/* Mirror about the a1-h8 diagonal, square (file, rank) -> (rank, file): the bit order of
 * the result is the file-major order of the input. Three delta swaps. */
static inline Bitboard transpose(Bitboard x)
{
    Bitboard t;
    t = 0x0F0F0F0F00000000ULL & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = 0x3333000033330000ULL & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = 0x5500550055005500ULL & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    return x;
}

/* Square of piece number n of set in file-major order, NO_SQUARE if there is none. */
static inline Square file_major_nth(Bitboard set, int n)
{
    Bitboard t = transpose(set);
#if defined(USE_PEXT)
    t = _pdep_u64(1ULL << n, t); /* ARCH=bmi2 assumes a fast PDEP, as it does PEXT */
#else
    for (; n > 0 && t; n--)
        t &= t - 1;
#endif
    if (!t)
        return NO_SQUARE;
    Square s = lsb(t);
    return make_square(rank_of(s), file_of(s));
}

/* ---- Vector tables ---- */

/* King directions N, NE, E, SE, S, SW, W, NW as (file, rank) steps. */
static const int8_t KING_DF[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
static const int8_t KING_DR[8] = { 1, 1, 0, -1, -1, -1, 0, 1 };
#define STEP_INDEX(df, dr) (((df) + 1) * 3 + (dr) + 1)
static const int8_t KING_VECTOR[9] = {
    [STEP_INDEX(0, 1)] = 0, [STEP_INDEX(1, 1)] = 1, [STEP_INDEX(1, 0)] = 2,
    [STEP_INDEX(1, -1)] = 3, [STEP_INDEX(0, -1)] = 4, [STEP_INDEX(-1, -1)] = 5,
    [STEP_INDEX(-1, 0)] = 6, [STEP_INDEX(-1, 1)] = 7,
};
/* Castling is the king stepping backwards-diagonally off the board from e1/e8, which no
 * king move can do: O-O towards h, O-O-O towards a. [colour][0 = O-O, 1 = O-O-O] */
static const int8_t CASTLE_VECTOR[COLOR_NB][2] = { { 3, 5 }, { 1, 7 } };

/* Knight jumps clockwise from north-north-east. */
static const int8_t KNIGHT_DF[8] = { 1, 2, 2, 1, -1, -2, -2, -1 };
static const int8_t KNIGHT_DR[8] = { 2, 1, -1, -2, -2, -1, 1, 2 };
#define JUMP_INDEX(df, dr) (((df) + 2) * 5 + (dr) + 2)
static const int8_t KNIGHT_VECTOR[25] = {
    [JUMP_INDEX(1, 2)] = 0, [JUMP_INDEX(2, 1)] = 1, [JUMP_INDEX(2, -1)] = 2,
    [JUMP_INDEX(1, -2)] = 3, [JUMP_INDEX(-1, -2)] = 4, [JUMP_INDEX(-2, -1)] = 5,
    [JUMP_INDEX(-2, 1)] = 6, [JUMP_INDEX(-1, 2)] = 7,
};

/* Pawn vector: kind << 2 | detail. Kind 0 = not promoting, detail = advance, double
 * advance, capture towards the a-file, capture towards the h-file (en passant included).
 * Kinds 1-3 = promoting advance / capture towards a / capture towards h, detail = the
 * promotion piece N, B, R, Q (the low bits of the move flags). */
enum { PAWN_ADVANCE, PAWN_DOUBLE, PAWN_LEFT, PAWN_RIGHT };

/* Rook-like vector: moves along the rank give the destination file (0-7), moves along
 * the file 8 + the destination rank. */
static inline int straight_vector(Square from, Square to)
{
    return rank_of(from) == rank_of(to) ? file_of(to) : 8 + rank_of(to);
}

/* Bishop-like vector: rising diagonals (a1-h8 direction) give the destination file (0-7),
 * falling ones (a8-h1 direction) 8 + the destination file. */
static inline int diagonal_vector(Square from, Square to)
{
    bool rising = file_of(to) - file_of(from) == rank_of(to) - rank_of(from);
    return rising ? file_of(to) : 8 + file_of(to);
}

static inline Square straight_target(Square from, int vector)
{
    Square to =
        vector < 8 ? make_square(vector, rank_of(from)) : make_square(file_of(from), vector - 8);
    return to == from ? NO_SQUARE : to;
}

static inline Square diagonal_target(Square from, int vector)
{
    int file = vector & 7, shift = file - file_of(from);
    int rank = vector < 8 ? rank_of(from) + shift : rank_of(from) - shift;
    return shift == 0 || rank < 0 || rank > 7 ? NO_SQUARE : make_square(file, rank);
}

static inline Square step_target(Square from, int df, int dr)
{
    int file = file_of(from) + df, rank = rank_of(from) + dr;
    return (unsigned)file > 7 || (unsigned)rank > 7 ? NO_SQUARE : make_square(file, rank);
}

/* ---- Fallback: index among the legal moves sorted by UCI text ---- */

/* Orders moves exactly as strcmp orders their UCI strings: from square, to square (each
 * file letter, then rank digit), then no promotion < b < n < q < r. A castling is the
 * king's move to g1/c1 and, in Chess960, may share its squares with a king step: it then
 * comes right after that step (the keys stay distinct; chess orders as before). */
static inline int uci_order_key(Move m)
{
    static const int8_t PROMO_ORDER[4] = { 2, 1, 4, 3 }; /* flags & 3: N, B, R, Q */
    int last = move_is_promotion(m) ? PROMO_ORDER[move_flags(m) & 3] : move_is_castle(m) ? 5 : 0;
    return (file_major_key(move_from(m)) * 64 + file_major_key(move_to(m))) * 6 + last;
}

static int fallback_encode(const Position *pos, Move m)
{
    MoveList list;
    generate_legal(pos, &list);
    int key = uci_order_key(m), index = 0;
    bool found = false;
    for (int i = 0; i < list.count; i++) {
        if (list.moves[i] == m)
            found = true;
        else if (uci_order_key(list.moves[i]) < key)
            index++;
    }
    return found ? index : MOVECODE_ERROR;
}

static Move fallback_decode(const Position *pos, int code)
{
    MoveList list;
    generate_legal(pos, &list);
    if (code >= list.count)
        return MOVE_NONE;
    /* Keys are distinct, so sorting key << 16 | move sorts the moves. */
    uint32_t sorted[MAX_MOVES];
    for (int i = 0; i < list.count; i++) {
        uint32_t v = (uint32_t)uci_order_key(list.moves[i]) << 16 | list.moves[i];
        int j = i;
        for (; j > 0 && sorted[j - 1] > v; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = v;
    }
    return (Move)(sorted[code] & 0xFFFF);
}

/* Whether the side to move, with these piece counts, cannot use piece codes. */
static inline bool counts_need_fallback(int pawns, int knights, int light, int dark, int rooks,
                                        int queens)
{
    /* Bitwise, not short-circuit: one predictable branch for the caller instead of six. */
    return (light > 1) | (dark > 1) | (knights > 2) | (rooks > 2) | (queens > 2)
         | ((queens == 2) & (pawns > 6));
}

static inline Bitboard more_than_two(Bitboard b) { b &= b - 1; return b & (b - 1); }

static inline bool side_needs_fallback(const Position *pos)
{
    Bitboard own = pos->by_color[pos->side];
    Bitboard bishops = own & pos->by_type[BISHOP], queens = own & pos->by_type[QUEEN];
    /* A cheap filter first (this runs for every code): only a second queen, a third
     * knight or rook, or a second bishop of one colour can make a fallback. */
    if (!(more_than_one(queens) | more_than_two(own & pos->by_type[KNIGHT])
          | more_than_two(own & pos->by_type[ROOK])
          | more_than_one(bishops & LIGHT_SQUARES) | more_than_one(bishops & DARK_SQUARES)))
        return false;
    return counts_need_fallback(popcount(own & pos->by_type[PAWN]),
                                popcount(own & pos->by_type[KNIGHT]),
                                popcount(bishops & LIGHT_SQUARES), popcount(bishops & DARK_SQUARES),
                                popcount(own & pos->by_type[ROOK]), popcount(queens));
}

bool movecode_fallback(const Position *pos) { return side_needs_fallback(pos); }

/* ---- Encoding with piece codes ---- */

/* Code of legal move m outside fallback mode; index is the file-major number of the
 * moving piece among its own kind (pawns, knights, rooks or queens). */
static inline int encode_piece_move(const Position *pos, Move m, int index)
{
    Square from = move_from(m), to = move_to(m);
    int flags = move_flags(m);
    int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);

    switch (type_of(pos->board[from])) {
    case PAWN: {
        int direction = df == 0 ? 0 : df < 0 ? 1 : 2;
        int vector = (flags & FLAG_PROMO) ? (direction + 1) << 2 | (flags & 3)
                   : direction ? PAWN_LEFT + direction - 1
                   : flags == FLAG_DOUBLE_PUSH ? PAWN_DOUBLE : PAWN_ADVANCE;
        return (MOVECODE_PAWN_0 + index) << 4 | vector;
    }
    case KNIGHT:
        return MOVECODE_KNIGHTS << 4 | index << 3 | KNIGHT_VECTOR[JUMP_INDEX(df, dr)];
    case BISHOP:
        return ((square_bb(from) & LIGHT_SQUARES) ? MOVECODE_LIGHT_BISHOP
                                                  : MOVECODE_DARK_BISHOP) << 4
             | diagonal_vector(from, to);
    case ROOK:
        return (MOVECODE_ROOK_0 + index) << 4 | straight_vector(from, to);
    case QUEEN:
        if (df && dr)
            return (index ? MOVECODE_QUEEN2_DIAGONAL : MOVECODE_QUEEN_DIAGONAL) << 4
                 | diagonal_vector(from, to);
        return (index ? MOVECODE_QUEEN2_STRAIGHT : MOVECODE_QUEEN_STRAIGHT) << 4
             | straight_vector(from, to);
    default: /* king */
        if (flags == FLAG_CASTLE_KING || flags == FLAG_CASTLE_QUEEN)
            return MOVECODE_KING << 4 | CASTLE_VECTOR[pos->side][flags == FLAG_CASTLE_QUEEN];
        return MOVECODE_KING << 4 | KING_VECTOR[STEP_INDEX(df, dr)];
    }
}

/* Cheap checks that keep the table lookups of encode_piece_move in range whatever m is:
 * an own piece on from, and a king or knight move of the right shape. */
static inline bool encodable(const Position *pos, Move m)
{
    Square from = move_from(m), to = move_to(m);
    Piece pc = pos->board[from];
    if (pc == NO_PIECE || color_of(pc) != pos->side || (from == to && !move_is_castle(m)))
        return false;
    if (type_of(pc) == KNIGHT)
        return (KNIGHT_ATTACKS[from] & square_bb(to)) != 0;
    if (type_of(pc) == KING && !move_is_castle(m))
        return (KING_ATTACKS[from] & square_bb(to)) != 0;
    return true;
}

int movecode_encode(const Position *pos, Move m)
{
    if (!encodable(pos, m))
        return MOVECODE_ERROR;
    if (side_needs_fallback(pos))
        return fallback_encode(pos, m);
    Square from = move_from(m);
    PieceType pt = type_of(pos->board[from]);
    int index = file_major_index(pieces_cp(pos, pos->side, pt), from);
    return encode_piece_move(pos, m, index);
}

int movecode_encode_checked(const Position *pos, Move m)
{
    return move_is_legal_fast(pos, m) ? movecode_encode(pos, m) : MOVECODE_ERROR;
}

/* ---- Decoding with piece codes ---- */

/* Empty-board line patterns from a1 for each slider step, shifted to the lower square to
 * get the squares between two aligned squares by arithmetic: the decoder stays out of
 * the 32 KB BETWEEN table, whose cache misses were a fifth of its time. */
#define LINE_STEP_1 (~0ULL)
#define LINE_STEP_7 0x0102040810204081ULL
#define LINE_STEP_8 FILE_A_BB
#define LINE_STEP_9 0x8040201008040201ULL

static inline Bitboard between_on_line(Square a, Square b, Bitboard line)
{
    Square lo = a < b ? a : b, hi = a < b ? b : a;
    return (line << lo) & (square_bb(hi) - (square_bb(lo) << 1));
}

/* Legality of a pseudo-legal non-king move: the common case (not in check, piece not
 * pinned) needs no test at all. */
static inline bool keeps_king_safe(const Position *pos, Move m)
{
    const StateInfo *st = pos_state(pos);
    if (!(st->checkers | (st->pinned & square_bb(move_from(m)))) && move_flags(m) != FLAG_EP)
        return true;
    return pseudo_legal_move_is_legal(pos, m);
}

/* Finishes a non-pawn move whose geometry is known and whose path is clear: the
 * destination must not hold an own piece (or a king), and the move must be legal. */
static inline Move finish_move(const Position *pos, Square from, Square to, bool king)
{
    if (to == NO_SQUARE)
        return MOVE_NONE;
    /* By side to move and piece on the destination: FLAG_QUIET (empty), FLAG_CAPTURE, or
     * 1 for an own piece or a king (no move); a lookup rather than branches. */
    enum { NO = 1, CAP = FLAG_CAPTURE, EMPTY = FLAG_QUIET };
    static const uint8_t TARGET[COLOR_NB][16] = {
        /* white P N B R Q K - -, black P N B R Q K -, empty */
        { NO, NO, NO, NO, NO, NO, NO, NO, CAP, CAP, CAP, CAP, CAP, NO, NO, EMPTY },
        { CAP, CAP, CAP, CAP, CAP, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, EMPTY },
    };
    int flags = TARGET[pos->side][pos->board[to]];
    if (flags == NO)
        return MOVE_NONE;
    Move m = move_create(from, to, flags);
    if (king)
        return pseudo_legal_move_is_legal(pos, m) ? m : MOVE_NONE;
    return keeps_king_safe(pos, m) ? m : MOVE_NONE;
}

static inline Move decode_diagonal(const Position *pos, Square from, int vector)
{
    Square to = diagonal_target(from, vector);
    if (to == NO_SQUARE
        || (between_on_line(from, to, vector < 8 ? LINE_STEP_9 : LINE_STEP_7) & pieces(pos)))
        return MOVE_NONE;
    return finish_move(pos, from, to, false);
}

static inline Move decode_straight(const Position *pos, Square from, int vector)
{
    Square to = straight_target(from, vector);
    if (to == NO_SQUARE
        || (between_on_line(from, to, vector < 8 ? LINE_STEP_1 : LINE_STEP_8) & pieces(pos)))
        return MOVE_NONE;
    return finish_move(pos, from, to, false);
}

static Move decode_king(const Position *pos, Square from, int vector)
{
    if (vector >= 8)
        return MOVE_NONE;
    Square to = step_target(from, KING_DF[vector], KING_DR[vector]);
    if (to != NO_SQUARE)
        return finish_move(pos, from, to, true);
    /* Castling: a step off the board from the first rank (any file, for Chess960). */
    Color us = pos->side;
    if (rank_of(from) != rank_of(relative_square(us, A1)))
        return MOVE_NONE;
    Move m = vector == CASTLE_VECTOR[us][0]
               ? move_create(from, castle_king_to(us, false), FLAG_CASTLE_KING)
           : vector == CASTLE_VECTOR[us][1]
               ? move_create(from, castle_king_to(us, true), FLAG_CASTLE_QUEEN)
               : MOVE_NONE;
    return m != MOVE_NONE && move_is_legal_fast(pos, m) ? m : MOVE_NONE;
}

static inline bool is_enemy_non_king(const Position *pos, Square s)
{
    Piece p = pos->board[s];
    return p != NO_PIECE && color_of(p) != pos->side && type_of(p) != KING;
}

static Move decode_pawn(const Position *pos, Square from, int vector)
{
    Color us = pos->side;
    int up = pawn_push(us), kind = vector >> 2, detail = vector & 3;
    bool promoting = relative_rank(us, from) == 6;
    if ((kind != 0) != promoting)
        return MOVE_NONE;
    /* Advances (kind 0 details 0-1, kind 1) or captures towards a / h. */
    bool advance = kind == 0 ? detail <= PAWN_DOUBLE : kind == 1;
    Square to;
    int flags;
    if (advance) {
        to = from + up;
        if (pos->board[to] != NO_PIECE)
            return MOVE_NONE;
        flags = promoting ? FLAG_PROMO | detail : FLAG_QUIET;
        if (kind == 0 && detail == PAWN_DOUBLE) {
            to += up;
            if (relative_rank(us, from) != 1 || pos->board[to] != NO_PIECE)
                return MOVE_NONE;
            flags = FLAG_DOUBLE_PUSH;
        }
    } else {
        bool left = kind == 0 ? detail == PAWN_LEFT : kind == 2;
        if (file_of(from) == (left ? 0 : 7))
            return MOVE_NONE;
        to = from + up + (left ? -1 : 1);
        if (promoting)
            flags = FLAG_PROMO_CAPTURE | detail;
        else if (to == ep_square(pos))
            flags = FLAG_EP;
        else
            flags = FLAG_CAPTURE;
        if (flags != FLAG_EP && !is_enemy_non_king(pos, to))
            return MOVE_NONE;
    }
    Move m = move_create(from, to, flags);
    return keeps_king_safe(pos, m) ? m : MOVE_NONE;
}

/* Decodes piece code `piece` (whose piece stands on from) with its vector; second_queen
 * tells that codes 14/15 name the second queen rather than pawns 6/7. */
static inline Move decode_at(const Position *pos, int piece, int vector, Square from,
                             bool second_queen)
{
    if (from == NO_SQUARE)
        return MOVE_NONE;
    switch (piece) {
    case MOVECODE_KING:
        return decode_king(pos, from, vector);
    case MOVECODE_QUEEN_DIAGONAL:
    case MOVECODE_LIGHT_BISHOP:
    case MOVECODE_DARK_BISHOP:
        return decode_diagonal(pos, from, vector);
    case MOVECODE_QUEEN_STRAIGHT:
    case MOVECODE_ROOK_0:
    case MOVECODE_ROOK_1:
        return decode_straight(pos, from, vector);
    case MOVECODE_KNIGHTS:
        return finish_move(pos, from,
                           step_target(from, KNIGHT_DF[vector & 7], KNIGHT_DR[vector & 7]), false);
    default:
        if (second_queen)
            return piece == MOVECODE_QUEEN2_DIAGONAL ? decode_diagonal(pos, from, vector)
                                                     : decode_straight(pos, from, vector);
        return decode_pawn(pos, from, vector);
    }
}

/* Member n (0 or 1) in file-major order of a set of at most two pieces (knights, rooks
 * or queens outside fallback mode), NO_SQUARE if there is none. */
static inline Square pair_member(Bitboard set, int n)
{
    if (!set)
        return NO_SQUARE;
    Square a = lsb(set), b = msb(set);
    if (a == b)
        return n == 0 ? a : NO_SQUARE;
    bool a_first = file_major_key(a) < file_major_key(b);
    return (n == 0) == a_first ? a : b;
}

static inline Square only_member(Bitboard set) { return set ? lsb(set) : NO_SQUARE; }

Move movecode_decode(const Position *pos, int code)
{
    if (code < 0 || code > 255)
        return MOVE_NONE;
    if (side_needs_fallback(pos))
        return fallback_decode(pos, code);
    int piece = code >> 4, vector = code & 15;
    Color us = pos->side;
    Bitboard queens = pieces_cp(pos, us, QUEEN);
    Bitboard bishops = pieces_cp(pos, us, BISHOP);
    Square from;
    /* One dispatch: find the piece and decode its vector in the same case. */
    switch (piece) {
    case MOVECODE_KING:
        return decode_king(pos, king_square(pos, us), vector);
    case MOVECODE_QUEEN_DIAGONAL:
        from = pair_member(queens, 0);
        return from == NO_SQUARE ? MOVE_NONE : decode_diagonal(pos, from, vector);
    case MOVECODE_QUEEN_STRAIGHT:
        from = pair_member(queens, 0);
        return from == NO_SQUARE ? MOVE_NONE : decode_straight(pos, from, vector);
    case MOVECODE_LIGHT_BISHOP:
        from = only_member(bishops & LIGHT_SQUARES);
        return from == NO_SQUARE ? MOVE_NONE : decode_diagonal(pos, from, vector);
    case MOVECODE_DARK_BISHOP:
        from = only_member(bishops & DARK_SQUARES);
        return from == NO_SQUARE ? MOVE_NONE : decode_diagonal(pos, from, vector);
    case MOVECODE_KNIGHTS:
        from = pair_member(pieces_cp(pos, us, KNIGHT), vector >> 3);
        return from == NO_SQUARE ? MOVE_NONE
             : finish_move(pos, from,
                           step_target(from, KNIGHT_DF[vector & 7], KNIGHT_DR[vector & 7]), false);
    case MOVECODE_ROOK_0:
    case MOVECODE_ROOK_1:
        from = pair_member(pieces_cp(pos, us, ROOK), piece - MOVECODE_ROOK_0);
        return from == NO_SQUARE ? MOVE_NONE : decode_straight(pos, from, vector);
    default:
        if (piece >= MOVECODE_QUEEN2_DIAGONAL && more_than_one(queens)) {
            from = pair_member(queens, 1);
            return piece == MOVECODE_QUEEN2_DIAGONAL ? decode_diagonal(pos, from, vector)
                                                     : decode_straight(pos, from, vector);
        }
        from = file_major_nth(pieces_cp(pos, us, PAWN), piece - MOVECODE_PAWN_0);
        return from == NO_SQUARE ? MOVE_NONE : decode_pawn(pos, from, vector);
    }
}

/* ---- With the tracker's numbering ---- */

static inline bool tracker_fallback(const MoveCodeTracker *t, Color us)
{
    const MoveCodeList *l = t->list[us];
    return counts_need_fallback(l[MC_PAWNS].count, l[MC_KNIGHTS].count, l[MC_LIGHT_BISHOPS].count,
                                l[MC_DARK_BISHOPS].count, l[MC_ROOKS].count, l[MC_QUEENS].count);
}

int movecode_encode_tracked(const MoveCodeTracker *t, const Position *pos, Move m)
{
    assert(movecode_tracker_matches(t, pos));
    if (!encodable(pos, m))
        return MOVECODE_ERROR;
    if (tracker_fallback(t, pos->side))
        return fallback_encode(pos, m);
    return encode_piece_move(pos, m, t->index[move_from(m)]);
}

/* Square of entry i of a list, NO_SQUARE past its end. */
static inline Square list_square(const MoveCodeList *list, int i)
{
    return i < list->count ? list->square[i] : NO_SQUARE;
}

Move movecode_decode_tracked(const MoveCodeTracker *t, const Position *pos, int code)
{
    assert(movecode_tracker_matches(t, pos));
    if (code < 0 || code > 255)
        return MOVE_NONE;
    Color us = pos->side;
    if (tracker_fallback(t, us))
        return fallback_decode(pos, code);
    const MoveCodeList *l = t->list[us];
    int piece = code >> 4, vector = code & 15;
    Square from;
    bool second_queen = false;
    switch (piece) {
    case MOVECODE_KING: from = king_square(pos, us); break;
    case MOVECODE_QUEEN_DIAGONAL:
    case MOVECODE_QUEEN_STRAIGHT: from = list_square(&l[MC_QUEENS], 0); break;
    case MOVECODE_LIGHT_BISHOP: from = list_square(&l[MC_LIGHT_BISHOPS], 0); break;
    case MOVECODE_DARK_BISHOP: from = list_square(&l[MC_DARK_BISHOPS], 0); break;
    case MOVECODE_KNIGHTS: from = list_square(&l[MC_KNIGHTS], vector >> 3); break;
    case MOVECODE_ROOK_0:
    case MOVECODE_ROOK_1: from = list_square(&l[MC_ROOKS], piece - MOVECODE_ROOK_0); break;
    default:
        second_queen = piece >= MOVECODE_QUEEN2_DIAGONAL && l[MC_QUEENS].count == 2;
        from = second_queen ? l[MC_QUEENS].square[1]
                            : list_square(&l[MC_PAWNS], piece - MOVECODE_PAWN_0);
        break;
    }
    return decode_at(pos, piece, vector, from, second_queen);
}
