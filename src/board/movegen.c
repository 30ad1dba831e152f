/* Legal move generator. Unpinned pawns are moved set-wise with shifts; pinned pieces
 * are confined to the line through their king; king steps are tested against the
 * occupancy without the king so that it cannot step along a checking ray. */
#include "board/movegen.h"

static inline Move *add_promotions(Move *list, Square from, Square to, bool capture, GenType type)
{
    int base = capture ? FLAG_PROMO_CAPTURE : FLAG_PROMO;
    if (type != GEN_QUIETS)
        *list++ = move_create(from, to, base | 3);
    if (type != GEN_CAPTURES) {
        *list++ = move_create(from, to, base | 0);
        *list++ = move_create(from, to, base | 1);
        *list++ = move_create(from, to, base | 2);
    }
    return list;
}

static inline Move *add_targets(Move *list, Square from, Bitboard targets, Bitboard enemies)
{
    while (targets) {
        Square to = pop_lsb(&targets);
        *list++ = move_create(from, to, (square_bb(to) & enemies) ? FLAG_CAPTURE : FLAG_QUIET);
    }
    return list;
}

/* King of `us` would be safe on `to` with the given occupancy (king already removed). */
static inline bool square_safe(const Position *pos, Color us, Square to, Bitboard occupied)
{
    Color them = !us;
    return !((PAWN_ATTACKS[us][to] & pieces_cp(pos, them, PAWN))
          || (KNIGHT_ATTACKS[to] & pieces_cp(pos, them, KNIGHT))
          || (KING_ATTACKS[to] & pieces_cp(pos, them, KING))
          || (bishop_attacks(to, occupied)
              & (pieces_cp(pos, them, BISHOP) | pieces_cp(pos, them, QUEEN)))
          || (rook_attacks(to, occupied)
              & (pieces_cp(pos, them, ROOK) | pieces_cp(pos, them, QUEEN))));
}

static inline __attribute__((always_inline)) Move *generate_pawn_moves(const Position *pos,
                                        Move *list, GenType type,
                                        Bitboard target, Bitboard pinned, Square ksq)
{
    Color us = pos->side, them = !us;
    int up = pawn_push(us);
    Bitboard occupied = pieces(pos), empty = ~occupied;
    Bitboard enemies = pos->by_color[them];
    Bitboard rank7 = rank_bb(us == WHITE ? 6 : 1), rank3 = rank_bb(us == WHITE ? 2 : 5);
    Bitboard pawns = pieces_cp(pos, us, PAWN);
    Bitboard free_pawns = pawns & ~pinned;
    /* Left/right are from White's point of view: west captures and east captures. */
    int west = us == WHITE ? 7 : -9, east = us == WHITE ? 9 : -7;

    /* Non-promoting pawns, set-wise. */
    Bitboard movers = free_pawns & ~rank7;
    if (type != GEN_CAPTURES) {
        Bitboard single = pawn_push_bb(us, movers) & empty;
        Bitboard dbl = pawn_push_bb(us, single & rank3) & empty & target;
        single &= target;
        while (single) {
            Square to = pop_lsb(&single);
            *list++ = move_create(to - up, to, FLAG_QUIET);
        }
        while (dbl) {
            Square to = pop_lsb(&dbl);
            *list++ = move_create(to - 2 * up, to, FLAG_DOUBLE_PUSH);
        }
    }
    if (type != GEN_QUIETS) {
        Bitboard w = (us == WHITE ? (movers & ~FILE_A_BB) << 7 : (movers & ~FILE_A_BB) >> 9)
                   & enemies & target;
        Bitboard e = (us == WHITE ? (movers & ~FILE_H_BB) << 9 : (movers & ~FILE_H_BB) >> 7)
                   & enemies & target;
        while (w) {
            Square to = pop_lsb(&w);
            *list++ = move_create(to - west, to, FLAG_CAPTURE);
        }
        while (e) {
            Square to = pop_lsb(&e);
            *list++ = move_create(to - east, to, FLAG_CAPTURE);
        }
    }

    /* Promotions, set-wise for unpinned pawns. */
    Bitboard promoters = free_pawns & rank7;
    if (promoters) {
        Bitboard push = pawn_push_bb(us, promoters) & empty & target;
        Bitboard w = (us == WHITE ? (promoters & ~FILE_A_BB) << 7 : (promoters & ~FILE_A_BB) >> 9)
                   & enemies & target;
        Bitboard e = (us == WHITE ? (promoters & ~FILE_H_BB) << 9 : (promoters & ~FILE_H_BB) >> 7)
                   & enemies & target;
        while (push) {
            Square to = pop_lsb(&push);
            list = add_promotions(list, to - up, to, false, type);
        }
        while (w) {
            Square to = pop_lsb(&w);
            list = add_promotions(list, to - west, to, true, type);
        }
        while (e) {
            Square to = pop_lsb(&e);
            list = add_promotions(list, to - east, to, true, type);
        }
    }

    /* Pinned pawns, one by one, along the pin line. */
    Bitboard pinned_pawns = pawns & pinned;
    while (pinned_pawns) {
        Square from = pop_lsb(&pinned_pawns);
        Bitboard line = LINE[ksq][from];
        bool promo = relative_rank(us, from) == 6;
        Bitboard caps = PAWN_ATTACKS[us][from] & enemies & target & line;
        while (caps) {
            Square to = pop_lsb(&caps);
            if (promo)
                list = add_promotions(list, from, to, true, type);
            else if (type != GEN_QUIETS)
                *list++ = move_create(from, to, FLAG_CAPTURE);
        }
        Square to = from + up;
        if ((square_bb(to) & empty & line)) {
            if (promo) {
                if (square_bb(to) & target)
                    list = add_promotions(list, from, to, false, type);
            } else if (type != GEN_CAPTURES) {
                if (square_bb(to) & target)
                    *list++ = move_create(from, to, FLAG_QUIET);
                if (relative_rank(us, from) == 1 && (square_bb(to + up) & empty & target))
                    *list++ = move_create(from, to + up, FLAG_DOUBLE_PUSH);
            }
        }
    }

    /* En passant: the state holds the square only when some capture is legal, but each
     * capturer is still checked, since removing two pawns from a rank can expose the king. */
    Square ep = ep_square(pos);
    if (ep != NO_SQUARE && type != GEN_QUIETS) {
        Bitboard capturers = PAWN_ATTACKS[them][ep] & pawns;
        Square cap_sq = ep - up;
        while (capturers) {
            Square from = pop_lsb(&capturers);
            Bitboard occ = (occupied ^ square_bb(from) ^ square_bb(cap_sq)) | square_bb(ep);
            Bitboard attackers = ((bishop_attacks(ksq, occ)
                                   & (pieces_cp(pos, them, BISHOP) | pieces_cp(pos, them, QUEEN)))
                                  | (rook_attacks(ksq, occ)
                                     & (pieces_cp(pos, them, ROOK) | pieces_cp(pos, them, QUEEN)))
                                  | (checkers(pos) & ~square_bb(cap_sq)
                                     & (pos->by_type[KNIGHT] | pos->by_type[PAWN])));
            if (!attackers)
                *list++ = move_create(from, ep, FLAG_EP);
        }
    }
    return list;
}

/* Whether the king of `us` may cross or land on every square of path (Chess960 also
 * asks that the castling rook did not screen the destination from the first rank). */
static inline bool castle_path_safe(const Position *pos, Color us, int index, Bitboard occupied)
{
    Color them = !us;
    Bitboard pawns = pieces_cp(pos, them, PAWN), knights = pieces_cp(pos, them, KNIGHT);
    Bitboard kings = pieces_cp(pos, them, KING), queens = pieces_cp(pos, them, QUEEN);
    Bitboard diagonal = pieces_cp(pos, them, BISHOP) | queens,
             straight = pieces_cp(pos, them, ROOK) | queens;
    for (Bitboard path = pos->castle_safe[index]; path;) {
        Square s = pop_lsb(&path);
        if ((PAWN_ATTACKS[us][s] & pawns) || (KNIGHT_ATTACKS[s] & knights)
            || (KING_ATTACKS[s] & kings) || (bishop_attacks(s, occupied) & diagonal)
            || (rook_attacks(s, occupied) & straight))
            return false;
    }
    return !pos->chess960
        || !(rook_attacks(castle_king_to(us, index & 1),
                          occupied ^ square_bb(pos->castle_rook[index]))
             & straight);
}

/* Castling moves of `us` (not in check, some right left): the king's move to g1/c1. */
static inline Move *generate_castling(const Position *pos, Move *list, Color us, Square ksq,
                                      Bitboard occupied)
{
    int rights = pos_state(pos)->castling, oo = castle_index(us, false), ooo = oo + 1;
    if ((rights & (1 << oo)) && !(occupied & pos->castle_empty[oo])
        && castle_path_safe(pos, us, oo, occupied))
        *list++ = move_create(ksq, castle_king_to(us, false), FLAG_CASTLE_KING);
    if ((rights & (1 << ooo)) && !(occupied & pos->castle_empty[ooo])
        && castle_path_safe(pos, us, ooo, occupied))
        *list++ = move_create(ksq, castle_king_to(us, true), FLAG_CASTLE_QUEEN);
    return list;
}

static inline Move *generate_all_kind(const Position *pos, Move *list, GenType type)
{
    Color us = pos->side, them = !us;
    const StateInfo *st = pos_state(pos);
    Square ksq = king_square(pos, us);
    Bitboard occupied = pieces(pos);
    Bitboard enemies = pos->by_color[them];
    Bitboard kind_mask = type == GEN_CAPTURES ? enemies
                       : type == GEN_QUIETS   ? ~occupied
                                              : ~pos->by_color[us];

    /* King steps. */
    Bitboard king_targets = KING_ATTACKS[ksq] & kind_mask;
    Bitboard occ_no_king = occupied ^ square_bb(ksq);
    while (king_targets) {
        Square to = pop_lsb(&king_targets);
        if (square_safe(pos, us, to, occ_no_king))
            *list++ = move_create(ksq, to, (square_bb(to) & enemies) ? FLAG_CAPTURE : FLAG_QUIET);
    }
    if (more_than_one(st->checkers))
        return list; /* double check: only the king moves */

    /* Non-king moves must land on the check line when in check. */
    Bitboard target = st->checkers ? BETWEEN[ksq][lsb(st->checkers)] | st->checkers : ~0ULL;
    Bitboard pinned = st->pinned;

    list = generate_pawn_moves(pos, list, type, target, pinned, ksq);

    Bitboard piece_target = target & kind_mask;
    Bitboard knights = pieces_cp(pos, us, KNIGHT) & ~pinned;
    while (knights) {
        Square from = pop_lsb(&knights);
        list = add_targets(list, from, KNIGHT_ATTACKS[from] & piece_target, enemies);
    }
    Bitboard diagonal = (pieces_cp(pos, us, BISHOP) | pieces_cp(pos, us, QUEEN));
    Bitboard straight = (pieces_cp(pos, us, ROOK) | pieces_cp(pos, us, QUEEN));
    Bitboard b = diagonal;
    while (b) {
        Square from = pop_lsb(&b);
        Bitboard t = bishop_attacks(from, occupied) & piece_target;
        if (square_bb(from) & pinned)
            t &= LINE[ksq][from];
        list = add_targets(list, from, t, enemies);
    }
    b = straight;
    while (b) {
        Square from = pop_lsb(&b);
        Bitboard t = rook_attacks(from, occupied) & piece_target;
        if (square_bb(from) & pinned)
            t &= LINE[ksq][from];
        list = add_targets(list, from, t, enemies);
    }

    /* Castling: never out of check, never through or into an attacked square. */
    if (type != GEN_CAPTURES && !st->checkers
        && (st->castling & (us == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO)))
        list = generate_castling(pos, list, us, ksq, occupied);
    return list;
}

Move *generate_moves(const Position *pos, Move *list, GenType type)
{
    switch (type) {
    case GEN_CAPTURES: return generate_all_kind(pos, list, GEN_CAPTURES);
    case GEN_QUIETS: return generate_all_kind(pos, list, GEN_QUIETS);
    default: return generate_all_kind(pos, list, GEN_ALL);
    }
}

void generate_legal(const Position *pos, MoveList *list)
{
    list->count = (int)(generate_all_kind(pos, list->moves, GEN_ALL) - list->moves);
}

int count_legal_moves(const Position *pos)
{
    Move moves[MAX_MOVES];
    return (int)(generate_all_kind(pos, moves, GEN_ALL) - moves);
}

bool move_is_legal(const Position *pos, Move m)
{
    Square from = move_from(m);
    Piece pc = pos->board[from];
    if (m == MOVE_NONE || m == MOVE_NULL || pc == NO_PIECE || color_of(pc) != pos->side)
        return false;
    Move moves[MAX_MOVES];
    Move *end = generate_all_kind(pos, moves,
                                  move_is_tactical(m) && !move_is_promotion(m) ? GEN_CAPTURES
                                  : move_is_promotion(m)                       ? GEN_ALL
                                                                               : GEN_QUIETS);
    for (Move *p = moves; p < end; p++)
        if (*p == m)
            return true;
    return false;
}

bool move_gives_check(const Position *pos, Move m)
{
    Color us = pos->side, them = !us;
    Square from = move_from(m), to = move_to(m);
    Square ksq = king_square(pos, them);
    Bitboard occupied = pieces(pos);
    PieceType pt = type_of(pos->board[from]);
    int flags = move_flags(m);

    if (move_is_castle(m)) {
        bool queen_side = flags == FLAG_CASTLE_QUEEN;
        Square rook_to = castle_rook_to(us, queen_side);
        Square rook_from = pos->castle_rook[castle_index(us, queen_side)];
        Bitboard occ = (occupied ^ square_bb(from) ^ square_bb(rook_from)) | square_bb(to)
                     | square_bb(rook_to);
        return (rook_attacks(rook_to, occ) & square_bb(ksq)) != 0;
    }
    Bitboard occ = (occupied ^ square_bb(from)) | square_bb(to);
    if (flags == FLAG_EP)
        occ ^= square_bb(to - pawn_push(us));
    PieceType moved = move_is_promotion(m) ? move_promo_type(m) : pt;
    /* Direct check from the destination. */
    Bitboard direct = moved == PAWN ? PAWN_ATTACKS[us][to] : piece_attacks(moved, to, occ);
    if (direct & square_bb(ksq))
        return true;
    /* Discovered check by a slider behind the moved (or captured en passant) pawn. */
    Bitboard sliders_d =
        (pieces_cp(pos, us, BISHOP) | pieces_cp(pos, us, QUEEN)) & ~square_bb(from);
    Bitboard sliders_s = (pieces_cp(pos, us, ROOK) | pieces_cp(pos, us, QUEEN)) & ~square_bb(from);
    return ((bishop_attacks(ksq, occ) & sliders_d) | (rook_attacks(ksq, occ) & sliders_s)) != 0;
}
