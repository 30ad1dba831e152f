/* Position: make/unmake, keys, FEN parsing with validation, draw detection. */
#include "board/position.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/errmsg.h"

Key ZOBRIST_PIECE[PIECE_NB][SQUARE_NB];
Key ZOBRIST_CASTLING[16];
Key ZOBRIST_EP_FILE[8];
Key ZOBRIST_SIDE;

static const char PIECE_CHARS[] = "PNBRQK  pnbrqk";

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

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
    Bitboard snipers = ((rook_attacks(ksq, 0) & (pieces_cp(pos, them, ROOK) | pieces_cp(pos, them, QUEEN)))
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
        Bitboard occupied = (pieces(pos) ^ square_bb(from) ^ square_bb(captured_sq)) | square_bb(ep);
        Bitboard attackers = attackers_to(pos, ksq, occupied) & pos->by_color[them] & ~square_bb(captured_sq);
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

/* ---- FEN ---- */

/* Copies the next whitespace-delimited field into out; returns false at end of input. */
/* Copies the next whitespace-separated field into out (size >= 4). A field too long for
 * out is cut and ends in "...", so that no check takes it for a shorter valid value (a
 * halfmove clock of 200 zeros and "42" is not 0). */
static bool next_field(const char **p, char *out, size_t size)
{
    while (**p && isspace((unsigned char)**p))
        (*p)++;
    if (!**p)
        return false;
    size_t n = 0;
    bool cut = false;
    while (**p && !isspace((unsigned char)**p)) {
        if (n + 1 < size)
            out[n++] = **p;
        else
            cut = true;
        (*p)++;
    }
    if (cut)
        memcpy(out + n - 3, "...", 3);
    out[n] = '\0';
    return true;
}

static bool parse_count(const char *s, int *out)
{
    if (!*s)
        return false;
    long v = 0;
    for (const char *c = s; *c; c++) {
        if (!isdigit((unsigned char)*c))
            return false;
        v = v * 10 + (*c - '0');
        if (v > 100000)
            return false;
    }
    *out = (int)v;
    return true;
}

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
        Square k = king_square(pos, c), kto = castle_king_to(c, queen_side), rto = castle_rook_to(c, queen_side);
        pos->castle_empty[i] = (BETWEEN[k][kto] | square_bb(kto) | BETWEEN[r][rto] | square_bb(rto))
                             & ~(square_bb(k) | square_bb(r));
        pos->castle_safe[i] = BETWEEN[k][kto] | square_bb(kto);
        pos->castling_keep[k] &= (uint8_t)~(c == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO);
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
    char field[128];
    const char *p = fen;
    uint8_t board[SQUARE_NB];
    int counts[PIECE_NB] = { 0 };

    if (!next_field(&p, field, sizeof field))
        return error_set(err, err_size, "empty FEN");

    /* 1. placement, rank 8 first */
    memset(board, NO_PIECE, sizeof board);
    int rank = 7, file = 0;
    for (const char *c = field; *c; c++) {
        if (*c == '/') {
            if (file != 8)
                return error_set(err, err_size, "rank %d of the placement has %d squares, not 8", rank + 1, file);
            if (--rank < 0)
                return error_set(err, err_size, "placement has more than 8 ranks");
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
            if (file > 8)
                return error_set(err, err_size, "rank %d of the placement has more than 8 squares", rank + 1);
        } else {
            const char *k = strchr(PIECE_CHARS, *c);
            if (!k || *c == ' ')
                return error_set(err, err_size, "invalid character '%c' in the placement", *c);
            if (file > 7)
                return error_set(err, err_size, "rank %d of the placement has more than 8 squares", rank + 1);
            Piece pc = (Piece)(k - PIECE_CHARS);
            board[make_square(file, rank)] = (uint8_t)pc;
            counts[pc]++;
            file++;
        }
    }
    if (rank != 0)
        return error_set(err, err_size, "placement has %d ranks, not 8", 8 - rank);
    if (file != 8)
        return error_set(err, err_size, "rank 1 of the placement has %d squares, not 8", file);

    for (Color c = WHITE; c <= BLACK; c++) {
        const char *name = c == WHITE ? "white" : "black";
        int total = 0;
        for (PieceType pt = PAWN; pt <= KING; pt++)
            total += counts[make_piece(c, pt)];
        if (counts[make_piece(c, KING)] != 1)
            return error_set(err, err_size, "%s has %d kings, must have exactly one", name, counts[make_piece(c, KING)]);
        if (total > 16)
            return error_set(err, err_size, "too many pieces: %s has %d", name, total);
        int pawns = counts[make_piece(c, PAWN)];
        if (pawns > 8)
            return error_set(err, err_size, "too many pieces: %s has %d pawns", name, pawns);
        /* Every piece beyond the initial set must be a promoted pawn. */
        int extra = 0;
        static const int initial[] = { 8, 2, 2, 2, 1 };
        for (PieceType pt = KNIGHT; pt <= QUEEN; pt++)
            if (counts[make_piece(c, pt)] > initial[pt])
                extra += counts[make_piece(c, pt)] - initial[pt];
        if (extra > 8 - pawns)
            return error_set(err, err_size, "too many pieces: %s has %d promoted pieces but only %d pawns missing", name, extra, 8 - pawns);
    }
    for (Square s = 0; s < SQUARE_NB; s++)
        if (board[s] != NO_PIECE && type_of(board[s]) == PAWN && (rank_of(s) == 0 || rank_of(s) == 7))
            return error_set(err, err_size, "pawn on rank %d", rank_of(s) + 1);

    /* 2. side to move */
    Color side;
    if (!next_field(&p, field, sizeof field))
        return error_set(err, err_size, "missing side-to-move field");
    if (!strcmp(field, "w"))
        side = WHITE;
    else if (!strcmp(field, "b"))
        side = BLACK;
    else
        return error_set(err, err_size, "bad side-to-move field '%s' (want w or b)", field);

    /* 3. castling: KQkq (X-FEN: the outermost rook on that side) or rook files */
    int castling = 0;
    bool files_used = false;
    Square rook_of[4] = { NO_SQUARE, NO_SQUARE, NO_SQUARE, NO_SQUARE };
    if (!next_field(&p, field, sizeof field))
        return error_set(err, err_size, "missing castling field");
    if (strcmp(field, "-")) {
        for (const char *c = field; *c; c++) {
            Color c_side = isupper((unsigned char)*c) ? WHITE : BLACK;
            char up = (char)toupper((unsigned char)*c);
            Square back = relative_square(c_side, A1);
            Square ksq = NO_SQUARE;
            for (int f = 0; f < 8; f++)
                if (board[back + f] == make_piece(c_side, KING))
                    ksq = back + f;
            if (ksq == NO_SQUARE)
                return error_set(err, err_size, "castling right %c without a king on its first rank", *c);
            Piece rook = make_piece(c_side, ROOK);
            Square rsq = NO_SQUARE;
            if (up == 'K' || up == 'Q') {
                int step = up == 'K' ? -1 : 1;
                for (int f = up == 'K' ? 7 : 0; f >= 0 && f < 8 && back + f != ksq; f += step)
                    if (board[back + f] == rook) {
                        rsq = back + f;
                        break;
                    }
            } else if (up >= 'A' && up <= 'H') {
                files_used = true;
                rsq = back + (up - 'A');
                if (board[rsq] != rook)
                    rsq = NO_SQUARE;
            } else
                return error_set(err, err_size, "bad castling field '%s'", field);
            if (rsq == NO_SQUARE || rsq == ksq)
                return error_set(err, err_size, "castling right %c without king and rook on their squares", *c);
            bool queen_side = rsq < ksq;
            int index = castle_index(c_side, queen_side);
            if (castling & (1 << index))
                return error_set(err, err_size, "bad castling field '%s' (repeated right)", field);
            castling |= 1 << index;
            rook_of[index] = rsq;
        }
        /* Both rights of a side must share one king (always true: one king a side). */
    }

    /* 4. en passant */
    Square ep = NO_SQUARE;
    if (!next_field(&p, field, sizeof field))
        return error_set(err, err_size, "missing en-passant field");
    if (strcmp(field, "-")) {
        if (strlen(field) != 2 || field[0] < 'a' || field[0] > 'h' || field[1] < '1' || field[1] > '8')
            return error_set(err, err_size, "bad en-passant field '%s'", field);
        ep = make_square(field[0] - 'a', field[1] - '1');
        Color them = !side;
        /* The enemy pawn must have just passed over ep from its start square. */
        if (relative_rank(side, ep) != 5
            || board[ep - pawn_push(side)] != make_piece(them, PAWN)
            || board[ep] != NO_PIECE || board[ep + pawn_push(side)] != NO_PIECE)
            return error_set(err, err_size, "impossible en-passant square %s", field);
    }

    /* 5-6. counters (optional, as in EPD) */
    int rule50 = 0, fullmove = 1;
    const char *before_counters = p;
    if (next_field(&p, field, sizeof field)) {
        if (parse_count(field, &rule50)) {
            before_counters = p;
            if (next_field(&p, field, sizeof field)) {
                if (!parse_count(field, &fullmove) || fullmove < 1)
                    return error_set(err, err_size, "bad fullmove number '%s'", field);
                before_counters = p;
            }
        } else if (!end)
            return error_set(err, err_size, "bad halfmove clock '%s'", field);
    }
    p = before_counters;
    if (end)
        *end = p;
    else if (next_field(&p, field, sizeof field))
        return error_set(err, err_size, "unexpected text after the FEN: '%s'", field);

    /* Build into a scratch copy of the fields, validate the check situation, then commit. */
    Position tmp;
    memset(&tmp, 0, offsetof(Position, states) + sizeof(StateInfo));
    for (Square s = 0; s < SQUARE_NB; s++) {
        tmp.board[s] = NO_PIECE;
        if (board[s] != NO_PIECE)
            put_piece(&tmp, board[s], s);
    }
    tmp.side = side;
    tmp.game_ply = 2 * (fullmove - 1) + (side == BLACK);
    set_castling_geometry(&tmp, rook_of, files_used);
    tmp.st_index = 0;
    StateInfo *st = &tmp.states[0];
    st->castling = castling;
    st->rule50 = rule50;
    st->plies_from_null = 0;
    st->captured = NO_PIECE;
    st->move = MOVE_NONE;
    st->ep_square = NO_SQUARE;

    Color them = !side;
    if (attackers_to(&tmp, king_square(&tmp, them), pieces(&tmp)) & tmp.by_color[side])
        return error_set(err, err_size, "the side not to move (%s) is in check", them == WHITE ? "white" : "black");
    set_check_info(&tmp, st);
    if (popcount(st->checkers) > 2)
        return error_set(err, err_size, "side to move is attacked by %d pieces at once", popcount(st->checkers));
    if (ep != NO_SQUARE && ep_capture_legal(&tmp, ep))
        st->ep_square = ep;
    st->key = position_compute_key(&tmp);
    st->pawn_key = position_compute_pawn_key(&tmp);

    memcpy(pos, &tmp, offsetof(Position, states) + sizeof(StateInfo));
    return true;
}

void position_to_fen(const Position *pos, char *buf)
{
    char *o = buf;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Piece pc = pos->board[make_square(file, rank)];
            if (pc == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                *o++ = (char)('0' + empty);
            empty = 0;
            *o++ = PIECE_CHARS[pc];
        }
        if (empty)
            *o++ = (char)('0' + empty);
        if (rank)
            *o++ = '/';
    }
    *o++ = ' ';
    *o++ = pos->side == WHITE ? 'w' : 'b';
    *o++ = ' ';
    int cr = castling_rights(pos);
    if (!cr)
        *o++ = '-';
    static const char STANDARD[] = "KQkq";
    for (int i = 0; i < 4; i++)
        if (cr & (1 << i)) {
            Square r = pos->castle_rook[i];
            *o++ = !pos->chess960 ? STANDARD[i] : (char)((i < 2 ? 'A' : 'a') + file_of(r));
        }
    *o++ = ' ';
    Square ep = ep_square(pos);
    if (ep == NO_SQUARE)
        *o++ = '-';
    else {
        *o++ = (char)('a' + file_of(ep));
        *o++ = (char)('1' + rank_of(ep));
    }
    sprintf(o, " %d %d", rule50_count(pos), fullmove_number(pos));
}

void position_print(const Position *pos, FILE *out)
{
    char fen[128];
    for (int rank = 7; rank >= 0; rank--) {
        fprintf(out, " +---+---+---+---+---+---+---+---+\n %d", rank + 1);
        for (int file = 0; file < 8; file++) {
            Piece pc = pos->board[make_square(file, rank)];
            fprintf(out, "| %c ", pc == NO_PIECE ? ' ' : PIECE_CHARS[pc]);
        }
        fprintf(out, "|\n");
    }
    fprintf(out, " +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n");
    position_to_fen(pos, fen);
    fprintf(out, "FEN: %s\nKey: %016llx\n", fen, (unsigned long long)pos_key(pos));
}
