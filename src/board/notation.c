/* UCI and SAN conversion. SAN output disambiguates by file, then rank, then both,
 * considering only legal moves, as the PGN standard requires. */
#include "board/notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "board/movegen.h"

static const char PROMO_CHARS[] = "nbrq";
static const char PIECE_LETTERS[] = "PNBRQK";

char *move_to_uci(Move m, char *buf)
{
    if (m == MOVE_NONE || m == MOVE_NULL) {
        strcpy(buf, "0000");
        return buf;
    }
    Square from = move_from(m), to = move_to(m);
    buf[0] = (char)('a' + file_of(from));
    buf[1] = (char)('1' + rank_of(from));
    buf[2] = (char)('a' + file_of(to));
    buf[3] = (char)('1' + rank_of(to));
    int n = 4;
    if (move_is_promotion(m))
        buf[n++] = PROMO_CHARS[move_promo_type(m) - KNIGHT];
    buf[n] = '\0';
    return buf;
}

char *move_to_uci_game(const Position *game, Move m, char *buf)
{
    move_to_uci(m, buf);
    if (game->chess960 && m != MOVE_NONE && m != MOVE_NULL && move_is_castle(m)) {
        Color c = rank_of(move_from(m)) == 0 ? WHITE : BLACK;
        Square rook = game->castle_rook[castle_index(c, move_flags(m) == FLAG_CASTLE_QUEEN)];
        buf[2] = (char)('a' + file_of(rook));
        buf[3] = (char)('1' + rank_of(rook));
    }
    return buf;
}

Move move_from_uci(const Position *pos, const char *text)
{
    size_t len = strlen(text);
    if (len < 4 || len > 5)
        return MOVE_NONE;
    if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8'
        || text[2] < 'a' || text[2] > 'h' || text[3] < '1' || text[3] > '8')
        return MOVE_NONE;
    Square from = make_square(text[0] - 'a', text[1] - '1');
    Square to = make_square(text[2] - 'a', text[3] - '1');
    int promo = -1;
    if (len == 5) {
        const char *k = strchr(PROMO_CHARS, tolower((unsigned char)text[4]));
        if (!k || !text[4])
            return MOVE_NONE;
        promo = (int)(k - PROMO_CHARS) + KNIGHT;
    }
    /* King-takes-own-rook castling notation. */
    Piece pc = piece_on(pos, from);
    int castle = -1;
    if (pc != NO_PIECE && type_of(pc) == KING && piece_on(pos, to) == make_piece(pos->side, ROOK)
        && rank_of(from) == rank_of(to)) {
        bool queen_side = to < from;
        if (pos->castle_rook[castle_index(pos->side, queen_side)] == to)
            castle = queen_side ? FLAG_CASTLE_QUEEN : FLAG_CASTLE_KING;
    }

    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (castle >= 0) {
            if (move_flags(m) == castle)
                return m;
            continue;
        }
        if (move_from(m) != from || move_to(m) != to || (pos->chess960 && move_is_castle(m)))
            continue;
        if (move_is_promotion(m) ? (int)move_promo_type(m) == promo : promo < 0)
            return m;
    }
    return MOVE_NONE;
}

char *move_to_san(Position *pos, Move m, char *buf)
{
    char *o = buf;
    Square from = move_from(m), to = move_to(m);
    PieceType pt = type_of(piece_on(pos, from));

    if (move_is_castle(m)) {
        strcpy(o, move_flags(m) == FLAG_CASTLE_KING ? "O-O" : "O-O-O");
        o += strlen(o);
    } else {
        if (pt == PAWN) {
            if (move_is_capture(m))
                *o++ = (char)('a' + file_of(from));
        } else {
            *o++ = PIECE_LETTERS[pt];
            /* Other legal moves of the same piece kind to the same square. */
            MoveList list;
            generate_legal(pos, &list);
            bool ambiguous = false, same_file = false, same_rank = false;
            for (int i = 0; i < list.count; i++) {
                Move o2 = list.moves[i];
                Square f2 = move_from(o2);
                if (o2 == m || move_to(o2) != to || f2 == from || type_of(piece_on(pos, f2)) != pt)
                    continue;
                ambiguous = true;
                same_file |= file_of(f2) == file_of(from);
                same_rank |= rank_of(f2) == rank_of(from);
            }
            if (ambiguous) {
                if (!same_file)
                    *o++ = (char)('a' + file_of(from));
                else if (!same_rank)
                    *o++ = (char)('1' + rank_of(from));
                else {
                    *o++ = (char)('a' + file_of(from));
                    *o++ = (char)('1' + rank_of(from));
                }
            }
        }
        if (move_is_capture(m))
            *o++ = 'x';
        *o++ = (char)('a' + file_of(to));
        *o++ = (char)('1' + rank_of(to));
        if (move_is_promotion(m)) {
            *o++ = '=';
            *o++ = PIECE_LETTERS[move_promo_type(m)];
        }
    }
    if (move_gives_check(pos, m)) {
        make_move(pos, m);
        *o++ = count_legal_moves(pos) ? '+' : '#';
        unmake_move(pos, m);
    }
    *o = '\0';
    return buf;
}

Move move_from_san(const Position *pos, const char *text)
{
    char s[32];
    size_t n = 0;
    /* Copy, dropping characters that never carry meaning: annotation marks, '=', '(', ')', '-'
     * inside squares ("e2-e4"), and an "e.p." suffix. */
    for (const char *c = text; *c && n < sizeof s - 1; c++) {
        if (*c == '+' || *c == '#' || *c == '!' || *c == '?' || *c == '=' || *c == '(' || *c == ')')
            continue;
        s[n++] = *c;
    }
    s[n] = '\0';
    char *ep = strstr(s, "e.p.");
    if (ep)
        *ep = '\0';
    n = strlen(s);
    while (n && (s[n - 1] == '.' || isspace((unsigned char)s[n - 1])))
        s[--n] = '\0';
    if (!n)
        return MOVE_NONE;

    MoveList list;
    generate_legal(pos, &list);

    /* Castling, with letter O or digit 0. */
    if (s[0] == 'O' || s[0] == '0' || s[0] == 'o') {
        bool kingside =
            !strcmp(s, "O-O") || !strcmp(s, "0-0") || !strcmp(s, "o-o") || !strcmp(s, "OO");
        bool queenside =
            !strcmp(s, "O-O-O") || !strcmp(s, "0-0-0") || !strcmp(s, "o-o-o") || !strcmp(s, "OOO");
        if (!kingside && !queenside)
            return MOVE_NONE;
        for (int i = 0; i < list.count; i++)
            if (move_flags(list.moves[i]) == (kingside ? FLAG_CASTLE_KING : FLAG_CASTLE_QUEEN))
                return list.moves[i];
        return MOVE_NONE;
    }

    /* UCI coordinates ("g1f3", "e7e8q") are accepted too. */
    Move uci = move_from_uci(pos, s);
    if (uci != MOVE_NONE)
        return uci;

    PieceType pt = PAWN;
    const char *c = s;
    if (strchr("NBRQK", *c)) {
        pt = (PieceType)(strchr(PIECE_LETTERS, *c) - PIECE_LETTERS);
        c++;
    }
    /* Remaining: [file][rank][x|-][file rank][promotion]. Collect squares from the end. */
    char body[32];
    size_t bn = 0;
    for (; *c; c++)
        if (*c != 'x' && *c != ':' && *c != '-')
            body[bn++] = *c;
    body[bn] = '\0';
    int promo = -1;
    if (bn && strchr("NBRQnbrq", body[bn - 1]) && !(bn >= 1 && body[bn - 1] == 'b' && bn == 1)) {
        char p = (char)toupper((unsigned char)body[bn - 1]);
        /* A trailing 'b' can be a file ("axb"); a promotion needs a rank before it. */
        if (bn >= 2 && isdigit((unsigned char)body[bn - 2])) {
            promo = (int)(strchr(PIECE_LETTERS, p) - PIECE_LETTERS);
            body[--bn] = '\0';
        }
    }
    if (bn < 2 || body[bn - 2] < 'a' || body[bn - 2] > 'h' || body[bn - 1] < '1'
        || body[bn - 1] > '8')
        return MOVE_NONE;
    Square to = make_square(body[bn - 2] - 'a', body[bn - 1] - '1');
    int from_file = -1, from_rank = -1;
    for (size_t i = 0; i + 2 < bn; i++) {
        if (body[i] >= 'a' && body[i] <= 'h')
            from_file = body[i] - 'a';
        else if (body[i] >= '1' && body[i] <= '8')
            from_rank = body[i] - '1';
        else
            return MOVE_NONE;
    }

    Move found = MOVE_NONE;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        Square from = move_from(m);
        if (move_to(m) != to || type_of(piece_on(pos, from)) != pt || move_is_castle(m))
            continue;
        if ((from_file >= 0 && file_of(from) != from_file)
            || (from_rank >= 0 && rank_of(from) != from_rank))
            continue;
        if (move_is_promotion(m) ? (int)move_promo_type(m) != (promo < 0 ? QUEEN : promo)
                                 : promo >= 0)
            continue;
        if (found != MOVE_NONE)
            return MOVE_NONE; /* ambiguous */
        found = m;
    }
    return found;
}

int line_to_san(Position *pos, const Move *line, int length, bool numbered, char *buf, size_t size)
{
    size_t n = strlen(buf);
    int written = 0;
    /* 32 bytes hold a separator, a move number and the longest SAN move */
    for (; written < length && n + 32 < size; written++) {
        Move m = line[written];
        if (!move_is_legal(pos, m))
            break;
        char san[16];
        move_to_san(pos, m, san);
        const char *sep = n ? " " : "";
        if (numbered && pos->side == WHITE)
            n += (size_t)snprintf(buf + n, size - n, "%s%d. %s", sep, fullmove_number(pos), san);
        else if (numbered && written == 0)
            n += (size_t)snprintf(buf + n, size - n, "%s%d... %s", sep, fullmove_number(pos), san);
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%s", sep, san);
        make_move(pos, m);
    }
    return written;
}
