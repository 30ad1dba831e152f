/* Position: make/unmake, keys, set-up from FEN (the text is board/fen.c), draw detection. */
#include "board/position.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "board/fen.h"
#include "util/errmsg.h"
#include "util/random.h"

Key ZOBRIST_PIECE[PIECE_NB][SQUARE_NB];
Key ZOBRIST_CASTLING[16];
Key ZOBRIST_EP_FILE[8];
Key ZOBRIST_SIDE;

void position_init(void)
{
    static bool done = false;
    if (done)
        return;
    done = true;
    bitboards_init();
    uint64_t seed = 0x5AA7ED4AULL; /* fixed: keys (and bench) are identical every run */
    for (int p = 0; p < PIECE_NB; p++)
        for (Square s = 0; s < SQUARE_NB; s++)
            ZOBRIST_PIECE[p][s] = (p == NO_PIECE || (p & 7) > KING) ? 0 : splitmix64(&seed);
    /* Castling keys are xor-combinations of four base keys so that removing one right
     * is always the same xor, whatever the others. */
    Key base[4];
    for (int i = 0; i < 4; i++)
        base[i] = splitmix64(&seed);
    for (int cr = 0; cr < 16; cr++) {
        ZOBRIST_CASTLING[cr] = 0;
        for (int i = 0; i < 4; i++)
            if (cr & (1 << i))
                ZOBRIST_CASTLING[cr] ^= base[i];
    }
    for (int f = 0; f < 8; f++)
        ZOBRIST_EP_FILE[f] = splitmix64(&seed);
    ZOBRIST_SIDE = splitmix64(&seed);
}

static inline void put_piece(Position *pos, Piece p, Square s)
{
    Bitboard b = square_bb(s);
    pos->board[s] = (uint8_t)p;
    pos->by_type[type_of(p)] |= b;
    pos->by_color[color_of(p)] |= b;
}

static inline void remove_piece(Position *pos, Square s)
{
    Piece p = pos->board[s];
    Bitboard b = square_bb(s);
    pos->by_type[type_of(p)] ^= b;
    pos->by_color[color_of(p)] ^= b;
    pos->board[s] = NO_PIECE;
}

static inline void move_piece(Position *pos, Square from, Square to)
{
    Piece p = pos->board[from];
    Bitboard b = square_bb(from) | square_bb(to);
    pos->by_type[type_of(p)] ^= b;
    pos->by_color[color_of(p)] ^= b;
    pos->board[from] = NO_PIECE;
    pos->board[to] = (uint8_t)p;
}

/* Pieces of colour `us` that stand alone between their king and an enemy slider. */
static Bitboard compute_pinned(const Position *pos, Color us)
{
    Square ksq = king_square(pos, us);
    Color them = !us;
    Bitboard occupied = pieces(pos);
    Bitboard snipers =
        ((rook_attacks(ksq, 0) & (pieces_cp(pos, them, ROOK) | pieces_cp(pos, them, QUEEN)))
         | (bishop_attacks(ksq, 0) & (pieces_cp(pos, them, BISHOP) | pieces_cp(pos, them, QUEEN))));
    Bitboard pinned = 0;
    while (snipers) {
        Square s = pop_lsb(&snipers);
        Bitboard between = BETWEEN[ksq][s] & occupied;
        if (between && !more_than_one(between))
            pinned |= between & pos->by_color[us];
    }
    return pinned;
}

/* Whether the side to move can legally capture en passant on ep (ep is the square the
 * enemy pawn passed over). Done exactly, so the ep square enters the key only when it
 * changes the set of legal moves. */
static bool ep_capture_legal(const Position *pos, Square ep)
{
    Color us = pos->side, them = !us;
    Square captured_sq = ep - pawn_push(us);
    Bitboard capturers = PAWN_ATTACKS[them][ep] & pieces_cp(pos, us, PAWN);
    Square ksq = king_square(pos, us);
    while (capturers) {
        Square from = pop_lsb(&capturers);
        Bitboard occupied =
            (pieces(pos) ^ square_bb(from) ^ square_bb(captured_sq)) | square_bb(ep);
        Bitboard attackers =
            attackers_to(pos, ksq, occupied) & pos->by_color[them] & ~square_bb(captured_sq);
        if (!attackers)
            return true;
    }
    return false;
}

static void set_check_info(Position *pos, StateInfo *st)
{
    Color us = pos->side;
    st->checkers = attackers_to(pos, king_square(pos, us), pieces(pos)) & pos->by_color[!us];
    st->pinned = compute_pinned(pos, us);
}

void make_move(Position *pos, Move m)
{
    StateInfo *prev = &pos->states[pos->st_index];
    StateInfo *st = prev + 1;
    Color us = pos->side, them = !us;
    Square from = move_from(m), to = move_to(m);
    int flags = move_flags(m);
    Piece pc = pos->board[from];
    Key key = prev->key ^ ZOBRIST_SIDE;
    Key pawn_key = prev->pawn_key;

    pos->st_index++;
    pos->game_ply++;
    st->castling = prev->castling;
    st->rule50 = prev->rule50 + 1;
    st->plies_from_null = prev->plies_from_null + 1;
    st->move = m;
    st->moved = (uint8_t)pc;
    st->captured = NO_PIECE;
    st->ep_square = NO_SQUARE;
    if (prev->ep_square != NO_SQUARE)
        key ^= ZOBRIST_EP_FILE[file_of(prev->ep_square)];

    if (flags == FLAG_CASTLE_KING || flags == FLAG_CASTLE_QUEEN) {
        bool queen_side = flags == FLAG_CASTLE_QUEEN;
        Square rook_from = pos->castle_rook[castle_index(us, queen_side)];
        Square rook_to = castle_rook_to(us, queen_side);
        Piece rook = make_piece(us, ROOK);
        if (!pos->chess960) {
            move_piece(pos, from, to);
            move_piece(pos, rook_from, rook_to);
        } else {
            /* Both off, then both on: a destination may be the other's origin. */
            remove_piece(pos, from);
            remove_piece(pos, rook_from);
            put_piece(pos, pc, to);
            put_piece(pos, rook, rook_to);
        }
        key ^= ZOBRIST_PIECE[pc][from] ^ ZOBRIST_PIECE[pc][to]
             ^ ZOBRIST_PIECE[rook][rook_from] ^ ZOBRIST_PIECE[rook][rook_to];
    } else {
        if (flags & FLAG_CAPTURE) {
            Square cap_sq = flags == FLAG_EP ? to - pawn_push(us) : to;
            Piece captured = pos->board[cap_sq];
            st->captured = captured;
            remove_piece(pos, cap_sq);
            key ^= ZOBRIST_PIECE[captured][cap_sq];
            if (type_of(captured) == PAWN)
                pawn_key ^= ZOBRIST_PIECE[captured][cap_sq];
            st->rule50 = 0;
        }
        move_piece(pos, from, to);
        key ^= ZOBRIST_PIECE[pc][from] ^ ZOBRIST_PIECE[pc][to];
        if (type_of(pc) == PAWN) {
            st->rule50 = 0;
            pawn_key ^= ZOBRIST_PIECE[pc][from];
            if (flags & FLAG_PROMO) {
                Piece promoted = make_piece(us, move_promo_type(m));
                remove_piece(pos, to);
                put_piece(pos, promoted, to);
                key ^= ZOBRIST_PIECE[pc][to] ^ ZOBRIST_PIECE[promoted][to];
            } else
                pawn_key ^= ZOBRIST_PIECE[pc][to];
        }
    }

    int castling = st->castling & pos->castling_keep[from] & pos->castling_keep[to];
    if (castling != st->castling) {
        key ^= ZOBRIST_CASTLING[st->castling] ^ ZOBRIST_CASTLING[castling];
        st->castling = castling;
    }

    pos->side = them;
    set_check_info(pos, st);

    if (flags == FLAG_DOUBLE_PUSH) {
        Square ep = from + pawn_push(us);
        if ((PAWN_ATTACKS[us][ep] & pieces_cp(pos, them, PAWN)) && ep_capture_legal(pos, ep)) {
            st->ep_square = ep;
            key ^= ZOBRIST_EP_FILE[file_of(ep)];
        }
    }
    st->key = key;
    st->pawn_key = pawn_key;
}

void unmake_move(Position *pos, Move m)
{
    StateInfo *st = &pos->states[pos->st_index];
    Square from = move_from(m), to = move_to(m);
    int flags = move_flags(m);
    pos->side = !pos->side;
    Color us = pos->side;

    if (flags == FLAG_CASTLE_KING || flags == FLAG_CASTLE_QUEEN) {
        bool queen_side = flags == FLAG_CASTLE_QUEEN;
        Square rook_to = castle_rook_to(us, queen_side);
        Square rook_from = pos->castle_rook[castle_index(us, queen_side)];
        if (!pos->chess960) {
            move_piece(pos, to, from);
            move_piece(pos, rook_to, rook_from);
        } else {
            Piece king = pos->board[to];
            remove_piece(pos, to);
            remove_piece(pos, rook_to);
            put_piece(pos, king, from);
            put_piece(pos, make_piece(us, ROOK), rook_from);
        }
    } else {
        if (flags & FLAG_PROMO) {
            remove_piece(pos, to);
            put_piece(pos, make_piece(us, PAWN), to);
        }
        move_piece(pos, to, from);
        if (st->captured != NO_PIECE)
            put_piece(pos, st->captured, flags == FLAG_EP ? to - pawn_push(us) : to);
    }
    pos->st_index--;
    pos->game_ply--;
}

void make_null_move(Position *pos)
{
    StateInfo *prev = &pos->states[pos->st_index];
    StateInfo *st = prev + 1;
    *st = *prev;
    pos->st_index++;
    pos->game_ply++;
    st->key ^= ZOBRIST_SIDE;
    if (st->ep_square != NO_SQUARE) {
        st->key ^= ZOBRIST_EP_FILE[file_of(st->ep_square)];
        st->ep_square = NO_SQUARE;
    }
    st->rule50++;
    st->plies_from_null = 0;
    st->captured = NO_PIECE;
    st->move = MOVE_NULL;
    st->moved = NO_PIECE;
    pos->side = !pos->side;
    st->checkers = 0;
    st->pinned = compute_pinned(pos, pos->side);
}

void unmake_null_move(Position *pos)
{
    pos->side = !pos->side;
    pos->st_index--;
    pos->game_ply--;
}

void position_compact(Position *pos)
{
    const StateInfo *st = pos_state(pos);
    int keep = st->rule50 < st->plies_from_null ? st->rule50 : st->plies_from_null;
    int first = pos->st_index - keep;
    if (first <= 0)
        return;
    memmove(&pos->states[0], &pos->states[first], (size_t)(keep + 1) * sizeof(StateInfo));
    pos->st_index = keep;
}

#define HISTORY_KEEP 256

void position_bound_history(Position *pos, int room)
{
    if (pos->st_index <= MAX_STATES - room)
        return;
    position_compact(pos);
    if (pos->st_index <= MAX_STATES - room)
        return;
    int first = pos->st_index - (HISTORY_KEEP - 1);
    memmove(&pos->states[0], &pos->states[first], HISTORY_KEEP * sizeof(StateInfo));
    pos->st_index = HISTORY_KEEP - 1;
}

Key position_compute_key(const Position *pos)
{
    Key key = 0;
    for (Square s = 0; s < SQUARE_NB; s++)
        if (pos->board[s] != NO_PIECE)
            key ^= ZOBRIST_PIECE[pos->board[s]][s];
    const StateInfo *st = pos_state(pos);
    key ^= ZOBRIST_CASTLING[st->castling];
    if (st->ep_square != NO_SQUARE)
        key ^= ZOBRIST_EP_FILE[file_of(st->ep_square)];
    if (pos->side == BLACK)
        key ^= ZOBRIST_SIDE;
    return key;
}

Key position_compute_pawn_key(const Position *pos)
{
    Key key = 0;
    Bitboard pawns = pos->by_type[PAWN];
    while (pawns) {
        Square s = pop_lsb(&pawns);
        key ^= ZOBRIST_PIECE[pos->board[s]][s];
    }
    return key;
}

bool position_is_repetition(const Position *pos, int ply)
{
    const StateInfo *st = pos_state(pos);
    int end = st->rule50 < st->plies_from_null ? st->rule50 : st->plies_from_null;
    if (end > pos->st_index)
        end = pos->st_index;
    int count = 0;
    for (int i = 4; i <= end; i += 2) {
        if (pos->states[pos->st_index - i].key != st->key)
            continue;
        /* Inside the search tree one repetition is a draw; reaching back to the root
         * or before it, the position must have occurred twice already. */
        if (i < ply || ++count >= 2)
            return true;
    }
    return false;
}

bool position_is_threefold(const Position *pos)
{
    return position_is_repetition(pos, 0);
}

bool position_insufficient_material(const Position *pos)
{
    if (pos->by_type[PAWN] | pos->by_type[ROOK] | pos->by_type[QUEEN])
        return false;
    Bitboard minors = pos->by_type[KNIGHT] | pos->by_type[BISHOP];
    if (!more_than_one(minors))
        return true; /* K v K, K+minor v K */
    /* Only bishops, all on one colour: no mate is possible. */
    if (!pos->by_type[KNIGHT]) {
        Bitboard b = pos->by_type[BISHOP];
        return !(b & DARK_SQUARES) || !(b & LIGHT_SQUARES);
    }
    return false;
}

/* ---- set-up from FEN fields (the text itself: fen.c) ---- */

/* Fills the castling geometry of a position whose pieces are placed: rook_of[i] is the
 * rook of right i or NO_SQUARE. Chess960 when files were written or any right is not the
 * standard one (king on e1/e8, rook on a/h). */
static void set_castling_geometry(Position *pos, const Square rook_of[4], bool files_used)
{
    bool standard = true;
    for (Square s = 0; s < SQUARE_NB; s++)
        pos->castling_keep[s] = ALL_CASTLING;
    for (int i = 0; i < 4; i++) {
        Color c = i < 2 ? WHITE : BLACK;
        bool queen_side = i & 1;
        Square r = rook_of[i];
        pos->castle_rook[i] = r;
        pos->castle_empty[i] = pos->castle_safe[i] = 0;
        if (r == NO_SQUARE)
            continue;
        Square k = king_square(pos, c), kto = castle_king_to(c, queen_side),
               rto = castle_rook_to(c, queen_side);
        pos->castle_empty[i] = (BETWEEN[k][kto] | square_bb(kto) | BETWEEN[r][rto] | square_bb(rto))
                             & ~(square_bb(k) | square_bb(r));
        pos->castle_safe[i] = BETWEEN[k][kto] | square_bb(kto);
        pos->castling_keep[k] &=
            (uint8_t)~(c == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO);
        pos->castling_keep[r] &= (uint8_t)~(1 << i);
        standard &= k == relative_square(c, E1) && r == relative_square(c, queen_side ? A1 : H1);
    }
    pos->chess960 = files_used || !standard;
}

void position_set_chess960(Position *pos, bool on)
{
    if (on) {
        pos->chess960 = true;
        return;
    }
    for (int i = 0; i < 4; i++) {
        Color c = i < 2 ? WHITE : BLACK;
        Square r = pos->castle_rook[i];
        if (r != NO_SQUARE && (pos->castling_keep[relative_square(c, E1)] & (1 << i)
                               || r != relative_square(c, (i & 1) ? A1 : H1)))
            return; /* not writable as standard castling */
    }
    pos->chess960 = false;
}

bool position_from_fen(Position *pos, const char *fen, char *err, size_t err_size, const char **end)
{
    FenFields f;
    if (!fen_read(fen, &f, err, err_size, end))
        return false;

    /* Build into a scratch copy of the fields, validate the check situation, then commit. */
    Position tmp;
    memset(&tmp, 0, offsetof(Position, states) + sizeof(StateInfo));
    for (Square s = 0; s < SQUARE_NB; s++) {
        tmp.board[s] = NO_PIECE;
        if (f.board[s] != NO_PIECE)
            put_piece(&tmp, f.board[s], s);
    }
    Color side = f.side;
    tmp.side = side;
    tmp.game_ply = 2 * (f.fullmove - 1) + (side == BLACK);
    set_castling_geometry(&tmp, f.castle_rook, f.files_used);
    tmp.st_index = 0;
    StateInfo *st = &tmp.states[0];
    st->castling = f.castling;
    st->rule50 = f.rule50;
    st->plies_from_null = 0;
    st->captured = NO_PIECE;
    st->move = MOVE_NONE;
    st->moved = NO_PIECE;
    st->ep_square = NO_SQUARE;

    Color them = !side;
    if (attackers_to(&tmp, king_square(&tmp, them), pieces(&tmp)) & tmp.by_color[side])
        return error_set(err, err_size, "the side not to move (%s) is in check",
                         them == WHITE ? "white" : "black");
    set_check_info(&tmp, st);
    if (popcount(st->checkers) > 2)
        return error_set(err, err_size, "side to move is attacked by %d pieces at once",
                         popcount(st->checkers));
    if (f.ep != NO_SQUARE && ep_capture_legal(&tmp, f.ep))
        st->ep_square = f.ep;
    st->key = position_compute_key(&tmp);
    st->pawn_key = position_compute_pawn_key(&tmp);

    memcpy(pos, &tmp, offsetof(Position, states) + sizeof(StateInfo));
    return true;
}

void position_to_fen(const Position *pos, char *buf)
{
    FenFields f;
    memcpy(f.board, pos->board, sizeof f.board);
    f.side = pos->side;
    f.castling = castling_rights(pos);
    memcpy(f.castle_rook, pos->castle_rook, sizeof f.castle_rook);
    f.files_used = pos->chess960;
    f.ep = ep_square(pos);
    f.rule50 = rule50_count(pos);
    f.fullmove = fullmove_number(pos);
    fen_write(&f, pos->chess960, buf);
}

void position_print(const Position *pos, Writer *out)
{
    char fen[128];
    for (int rank = 7; rank >= 0; rank--) {
        writer_printf(out, " +---+---+---+---+---+---+---+---+\n %d", rank + 1);
        for (int file = 0; file < 8; file++) {
            Piece pc = pos->board[make_square(file, rank)];
            writer_printf(out, "| %c ", fen_piece_char(pc));
        }
        writer_printf(out, "|\n");
    }
    writer_printf(out, " +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n");
    position_to_fen(pos, fen);
    writer_printf(out, "FEN: %s\nKey: %016llx\n", fen, (unsigned long long)pos_key(pos));
}
