/* Incremental piece numbering (see movecode_tracker.h): each kind's squares in
 * file-major order, re-sorted only for the piece that moved, by neighbour swaps. */
#include "formats/movecode_tracker.h"

#include <string.h>

/* List holding a piece type standing on s; -1 for the king (never numbered). */
static inline int tracker_kind(PieceType pt, Square s)
{
    switch (pt) {
    case PAWN: return MC_PAWNS;
    case KNIGHT: return MC_KNIGHTS;
    case BISHOP: return (square_bb(s) & LIGHT_SQUARES) ? MC_LIGHT_BISHOPS : MC_DARK_BISHOPS;
    case ROOK: return MC_ROOKS;
    case QUEEN: return MC_QUEENS;
    default: return -1;
    }
}

void movecode_tracker_init(MoveCodeTracker *t, const Position *pos)
{
    memset(t, 0, sizeof *t);
    for (int key = 0; key < SQUARE_NB; key++) {
        Square s = make_square(key / 8, key % 8); /* file-major order */
        Piece pc = pos->board[s];
        if (pc == NO_PIECE)
            continue;
        int kind = tracker_kind(type_of(pc), s);
        if (kind < 0)
            continue;
        MoveCodeList *list = &t->list[color_of(pc)][kind];
        if (list->count < MOVECODE_LIST_MAX) { /* always true in a valid position */
            t->index[s] = list->count;
            list->square[list->count++] = (uint8_t)s;
        }
    }
}

static void list_remove(MoveCodeTracker *t, MoveCodeList *list, Square s)
{
    int i = t->index[s];
    t->index[s] = 0;
    for (; i + 1 < list->count; i++) {
        list->square[i] = list->square[i + 1];
        t->index[list->square[i]] = (uint8_t)i;
    }
    list->square[--list->count] = 0;
}

static void list_insert(MoveCodeTracker *t, MoveCodeList *list, Square s)
{
    if (list->count >= MOVECODE_LIST_MAX)
        return;
    int i = list->count++;
    for (; i > 0 && file_major_key(list->square[i - 1]) > file_major_key(s); i--) {
        list->square[i] = list->square[i - 1];
        t->index[list->square[i]] = (uint8_t)i;
    }
    list->square[i] = (uint8_t)s;
    t->index[s] = (uint8_t)i;
}

/* The piece on from moves to to: swap it with its neighbours until the list is in
 * file-major order again (the article's pawn-capture reordering). */
static void list_move(MoveCodeTracker *t, MoveCodeList *list, Square from, Square to)
{
    int i = t->index[from];
    t->index[from] = 0;
    list->square[i] = (uint8_t)to;
    int key = file_major_key(to);
    while (i + 1 < list->count && file_major_key(list->square[i + 1]) < key) {
        list->square[i] = list->square[i + 1];
        t->index[list->square[i]] = (uint8_t)i;
        list->square[++i] = (uint8_t)to;
    }
    while (i > 0 && file_major_key(list->square[i - 1]) > key) {
        list->square[i] = list->square[i - 1];
        t->index[list->square[i]] = (uint8_t)i;
        list->square[--i] = (uint8_t)to;
    }
    t->index[to] = (uint8_t)i;
}

void movecode_tracker_update(MoveCodeTracker *t, const Position *pos, Move m)
{
    Color us = pos->side, them = !us;
    Square from = move_from(m), to = move_to(m);
    int flags = move_flags(m);
    PieceType pt = type_of(pos->board[from]);

    if (flags == FLAG_EP)
        list_remove(t, &t->list[them][MC_PAWNS], to - pawn_push(us));
    else if (flags & FLAG_CAPTURE) {
        int kind = tracker_kind(type_of(pos->board[to]), to);
        if (kind >= 0)
            list_remove(t, &t->list[them][kind], to);
    }
    if (flags == FLAG_CASTLE_KING || flags == FLAG_CASTLE_QUEEN) {
        bool queen_side = flags == FLAG_CASTLE_QUEEN;
        Square rook_from = pos->castle_rook[castle_index(us, queen_side)];
        Square rook_to = castle_rook_to(us, queen_side);
        if (rook_from != rook_to)
            list_move(t, &t->list[us][MC_ROOKS], rook_from, rook_to);
    } else if (flags & FLAG_PROMO) {
        list_remove(t, &t->list[us][MC_PAWNS], from);
        list_insert(t, &t->list[us][tracker_kind(move_promo_type(m), to)], to);
    } else if (pt != KING)
        list_move(t, &t->list[us][tracker_kind(pt, from)], from, to);
}

bool movecode_tracker_matches(const MoveCodeTracker *t, const Position *pos)
{
    MoveCodeTracker fresh;
    movecode_tracker_init(&fresh, pos);
    return memcmp(&fresh, t, sizeof fresh) == 0;
}
