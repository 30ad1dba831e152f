/* FEN text and its fields: see fen.h. */
#include "board/fen.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "util/errmsg.h"

static const char PIECE_CHARS[] = "PNBRQK  pnbrqk";

char fen_piece_char(Piece p)
{
    return p == NO_PIECE ? ' ' : PIECE_CHARS[p];
}

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

bool fen_read(const char *fen, FenFields *out, char *err, size_t err_size, const char **end)
{
    char field[128];
    const char *p = fen;
    uint8_t *board = out->board;
    int counts[PIECE_NB] = { 0 };

    if (!next_field(&p, field, sizeof field))
        return error_set(err, err_size, "empty FEN");

    /* 1. placement, rank 8 first */
    memset(board, NO_PIECE, sizeof out->board);
    int rank = 7, file = 0;
    for (const char *c = field; *c; c++) {
        if (*c == '/') {
            if (file != 8)
                return error_set(err, err_size, "rank %d of the placement has %d squares, not 8",
                                 rank + 1, file);
            if (--rank < 0)
                return error_set(err, err_size, "placement has more than 8 ranks");
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
            if (file > 8)
                return error_set(err, err_size, "rank %d of the placement has more than 8 squares",
                                 rank + 1);
        } else {
            const char *k = strchr(PIECE_CHARS, *c);
            if (!k || *c == ' ')
                return error_set(err, err_size, "invalid character '%c' in the placement", *c);
            if (file > 7)
                return error_set(err, err_size, "rank %d of the placement has more than 8 squares",
                                 rank + 1);
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
            return error_set(err, err_size, "%s has %d kings, must have exactly one", name,
                             counts[make_piece(c, KING)]);
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
            return error_set(err, err_size,
                             "too many pieces: %s has %d promoted pieces but only %d pawns missing",
                             name, extra, 8 - pawns);
    }
    for (Square s = 0; s < SQUARE_NB; s++)
        if (board[s] != NO_PIECE && type_of(board[s]) == PAWN
            && (rank_of(s) == 0 || rank_of(s) == 7))
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
                return error_set(err, err_size,
                                 "castling right %c without a king on its first rank", *c);
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
                return error_set(err, err_size,
                                 "castling right %c without king and rook on their squares", *c);
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
        if (strlen(field) != 2 || field[0] < 'a' || field[0] > 'h' || field[1] < '1'
            || field[1] > '8')
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

    out->side = side;
    out->castling = castling;
    memcpy(out->castle_rook, rook_of, sizeof rook_of);
    out->files_used = files_used;
    out->ep = ep;
    out->rule50 = rule50;
    out->fullmove = fullmove;
    return true;
}

void fen_write(const FenFields *f, bool chess960, char *buf)
{
    char *o = buf;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Piece pc = f->board[make_square(file, rank)];
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
    *o++ = f->side == WHITE ? 'w' : 'b';
    *o++ = ' ';
    int cr = f->castling;
    if (!cr)
        *o++ = '-';
    static const char STANDARD[] = "KQkq";
    for (int i = 0; i < 4; i++)
        if (cr & (1 << i)) {
            Square r = f->castle_rook[i];
            *o++ = !chess960 ? STANDARD[i] : (char)((i < 2 ? 'A' : 'a') + file_of(r));
        }
    *o++ = ' ';
    Square ep = f->ep;
    if (ep == NO_SQUARE)
        *o++ = '-';
    else {
        *o++ = (char)('a' + file_of(ep));
        *o++ = (char)('1' + rank_of(ep));
    }
    sprintf(o, " %d %d", f->rule50, f->fullmove);
}

size_t fen_placement_from_squares(const char squares[64], char *buf)
{
    size_t k = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char pc = squares[make_square(file, rank)];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                buf[k++] = (char)('0' + empty), empty = 0;
            buf[k++] = pc;
        }
        if (empty)
            buf[k++] = (char)('0' + empty);
        if (rank)
            buf[k++] = '/';
    }
    buf[k] = '\0';
    return k;
}

void fen_from_squares(const char squares[64], Color stm, char *buf)
{
    size_t k = fen_placement_from_squares(squares, buf);
    snprintf(buf + k, 100 - k, " %c - - 0 1", stm == WHITE ? 'w' : 'b');
}
