/* The board: bitboards plus a mailbox, incremental Zobrist keys, make/unmake with an
 * undo stack, FEN input/output with validation (the text itself: fen.h). */
#ifndef SAAVEDRA_POSITION_H
#define SAAVEDRA_POSITION_H

#include <stddef.h>

#include "board/bitboard.h"
#include "board/types.h"
#include "util/writer.h"

/* Everything make_move changes that unmake_move cannot recompute cheaply. */
typedef struct {
    Key key;            /* Zobrist key of the whole position */
    Key pawn_key;       /* Zobrist key of pawns (and kings' absence: pawns only) */
    Bitboard checkers;  /* enemy pieces giving check to the side to move */
    Bitboard pinned;    /* side-to-move pieces pinned to their own king */
    int castling;       /* WHITE_OO | ... */
    Square ep_square;   /* NO_SQUARE unless an en-passant capture is legal */
    int rule50;         /* plies since the last capture or pawn move */
    int plies_from_null;/* plies since the last null move (bounds repetition search) */
    Piece captured;     /* piece captured by the move that led here */
    Move move;          /* the move that led here (MOVE_NONE at the root) */
    uint8_t moved;      /* the piece that made it, before any promotion (NO_PIECE: none) */
} StateInfo;

/* Game history plus search depth; longer histories are compacted (see position_compact). */
#define MAX_STATES 1024

typedef struct {
    Bitboard by_type[PIECE_TYPE_NB];
    Bitboard by_color[COLOR_NB];
    uint8_t board[SQUARE_NB];
    Color side;
    int game_ply;      /* plies since the start of the game (gives the fullmove number) */
    /* Castling geometry, from the FEN and fixed for the game (standard chess is the case
     * king e1, rooks a1/h1). Indexed by castle_index(); a castling move is encoded as the
     * king's move to its destination (g1/c1) with FLAG_CASTLE_KING/QUEEN, which may be
     * the king's own square in Chess960. */
    bool chess960;                  /* castling written king-takes-rook, Shredder-FEN */
    Square castle_rook[4];          /* the rook of each right */
    Bitboard castle_empty[4];       /* must be empty: king and rook paths, less the two */
    Bitboard castle_safe[4];        /* the king crosses or lands on: must not be attacked */
    uint8_t castling_keep[SQUARE_NB]; /* rights that survive a move from or to a square */
    int st_index;      /* current entry of states[] */
    StateInfo states[MAX_STATES];
} Position;

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Zobrist keys, built once by position_init(). Exported for modules that hash partial
 * positions (pawn hash, book). */
extern Key ZOBRIST_PIECE[PIECE_NB][SQUARE_NB];
extern Key ZOBRIST_CASTLING[16];
extern Key ZOBRIST_EP_FILE[8];
extern Key ZOBRIST_SIDE;

void position_init(void);

/* King and rook destinations of a castling (the same in Chess960 as in chess). */
static inline Square castle_king_to(Color c, bool queen_side)
{
    return relative_square(c, queen_side ? C1 : G1);
}
static inline Square castle_rook_to(Color c, bool queen_side)
{
    return relative_square(c, queen_side ? D1 : F1);
}
/* Chess960 notation on or off for this game (UCI_Chess960, xboard variant fischerandom).
 * A position whose castling cannot be written in standard notation stays on. */
void position_set_chess960(Position *pos, bool on);

/* Parses a FEN (or the first four fields of an EPD line). Castling rights may be
 * written as KQkq (X-FEN: K the outermost rook on the king's h-side, Q on its a-side) or
 * as rook files (Shredder-FEN HAha, or X-FEN's letter for an inner rook); pos->chess960
 * is set when the field uses files or the king or a rook is not on its standard square.
 * On success fills *pos and returns true; on failure leaves *pos untouched and writes a
 * one-line reason to err.
 * If end is not NULL it receives a pointer just past the fields consumed. */
bool position_from_fen(Position *pos, const char *fen, char *err, size_t err_size,
                       const char **end);
/* Writes the FEN of pos into buf (at least 100 bytes); castling as KQkq, or as rook
 * files (Shredder-FEN) when pos->chess960. */
void position_to_fen(const Position *pos, char *buf);
/* Prints an ASCII diagram, the FEN and the key. */
void position_print(const Position *pos, Writer *out);

void make_move(Position *pos, Move m);
void unmake_move(Position *pos, Move m);
void make_null_move(Position *pos);
void unmake_null_move(Position *pos);

/* Drops undo entries that can no longer matter (before the last irreversible move),
 * so that a long game never overflows states[]. Only call between searches. */
void position_compact(Position *pos);
/* For a game's position (a long replay or an endless game): when fewer than room entries
 * of states[] are left, compacts; when that cannot drop enough (past the fifty-move
 * limit), keeps only the last 256 entries, all that repetition detection looks at in
 * practice. */
void position_bound_history(Position *pos, int room);

/* Recomputes both keys from scratch (for tests and consistency checks). */
Key position_compute_key(const Position *pos);
Key position_compute_pawn_key(const Position *pos);

/* Draw by the 50-move rule or repetition (once within the search tree, twice before
 * it; ply is the distance from the search root). */
bool position_is_repetition(const Position *pos, int ply);
/* The position has occurred at least twice before (threefold repetition for claims). */
bool position_is_threefold(const Position *pos);
bool position_insufficient_material(const Position *pos);

static inline const StateInfo *pos_state(const Position *pos)
{
    return &pos->states[pos->st_index];
}
static inline Bitboard pieces(const Position *pos)
{
    return pos->by_color[WHITE] | pos->by_color[BLACK];
}
static inline Bitboard pieces_c(const Position *pos, Color c) { return pos->by_color[c]; }
static inline Bitboard pieces_p(const Position *pos, PieceType pt) { return pos->by_type[pt]; }
static inline Bitboard pieces_cp(const Position *pos, Color c, PieceType pt)
{
    return pos->by_color[c] & pos->by_type[pt];
}
static inline Piece piece_on(const Position *pos, Square s) { return pos->board[s]; }
static inline Square king_square(const Position *pos, Color c)
{
    return lsb(pieces_cp(pos, c, KING));
}
static inline Key pos_key(const Position *pos) { return pos->states[pos->st_index].key; }
static inline Bitboard checkers(const Position *pos) { return pos->states[pos->st_index].checkers; }
static inline bool in_check(const Position *pos)
{
    return pos->states[pos->st_index].checkers != 0;
}
static inline Square ep_square(const Position *pos) { return pos->states[pos->st_index].ep_square; }
static inline int castling_rights(const Position *pos)
{
    return pos->states[pos->st_index].castling;
}
static inline int rule50_count(const Position *pos) { return pos->states[pos->st_index].rule50; }
static inline int fullmove_number(const Position *pos) { return 1 + pos->game_ply / 2; }

/* All pieces of both colours attacking s, given an occupancy. */
static inline Bitboard attackers_to(const Position *pos, Square s, Bitboard occupied)
{
    return (PAWN_ATTACKS[BLACK][s] & pieces_cp(pos, WHITE, PAWN))
         | (PAWN_ATTACKS[WHITE][s] & pieces_cp(pos, BLACK, PAWN))
         | (KNIGHT_ATTACKS[s] & pos->by_type[KNIGHT])
         | (bishop_attacks(s, occupied) & (pos->by_type[BISHOP] | pos->by_type[QUEEN]))
         | (rook_attacks(s, occupied) & (pos->by_type[ROOK] | pos->by_type[QUEEN]))
         | (KING_ATTACKS[s] & pos->by_type[KING]);
}

/* Piece moved by m in the current position. */
static inline Piece moved_piece(const Position *pos, Move m) { return pos->board[move_from(m)]; }

/* The key make_null_move(pos) will give (exact): the side flips, an en-passant square goes. */
static inline Key key_after_null(const Position *pos)
{
    const StateInfo *st = pos_state(pos);
    Key key = st->key ^ ZOBRIST_SIDE;
    if (st->ep_square != NO_SQUARE)
        key ^= ZOBRIST_EP_FILE[file_of(st->ep_square)];
    return key;
}

/* The key make_move(pos, m) will give, computed before the move so that the hash table
 * can start fetching its entry early. Exact for every move that neither castles, takes en
 * passant, promotes, changes castling rights nor allows an en-passant capture; otherwise
 * only a hint (a wrong one costs a useless prefetch). */
static inline Key key_after(const Position *pos, Move m)
{
    Square from = move_from(m), to = move_to(m);
    Piece pc = pos->board[from], captured = pos->board[to];
    Key key = key_after_null(pos) ^ ZOBRIST_PIECE[pc][from] ^ ZOBRIST_PIECE[pc][to];
    if (captured != NO_PIECE)
        key ^= ZOBRIST_PIECE[captured][to];
    return key;
}

#endif
