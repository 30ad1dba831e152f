/* Game-end detection (see gameend.h). */
#include "board/gameend.h"

#include "board/movegen.h"

/* Only the material draws xboard accepts as claims (FIDE): K v K, K+minor v K, and
 * K+B v K+B with the bishops on one colour. Other dead positions are played out. */
static bool claimable_material_draw(const Position *pos)
{
    if (pos->by_type[PAWN] | pos->by_type[ROOK] | pos->by_type[QUEEN])
        return false;
    Bitboard minors = pos->by_type[KNIGHT] | pos->by_type[BISHOP];
    if (popcount(minors) <= 1)
        return true;
    Bitboard bishops = pos->by_type[BISHOP];
    return !pos->by_type[KNIGHT] && popcount(bishops) == 2
        && popcount(pieces_c(pos, WHITE) & bishops) == 1
        && (!(bishops & DARK_SQUARES) || !(bishops & LIGHT_SQUARES));
}

GameEnd game_end_status(const Position *pos)
{
    if (count_legal_moves(pos) == 0) {
        if (!in_check(pos))
            return GAME_STALEMATE;
        return pos->side == WHITE ? GAME_BLACK_MATES : GAME_WHITE_MATES;
    }
    if (claimable_material_draw(pos))
        return GAME_INSUFFICIENT_MATERIAL;
    if (rule50_count(pos) >= 100)
        return GAME_FIFTY_MOVES;
    if (position_is_threefold(pos))
        return GAME_REPETITION;
    return GAME_ONGOING;
}

const char *game_end_result(GameEnd end)
{
    switch (end) {
    case GAME_WHITE_MATES: return "1-0 {White mates}";
    case GAME_BLACK_MATES: return "0-1 {Black mates}";
    case GAME_STALEMATE: return "1/2-1/2 {Stalemate}";
    case GAME_REPETITION: return "1/2-1/2 {Draw by repetition}";
    case GAME_FIFTY_MOVES: return "1/2-1/2 {Draw by fifty move rule}";
    case GAME_INSUFFICIENT_MATERIAL: return "1/2-1/2 {Insufficient material}";
    case GAME_ONGOING: break;
    }
    return NULL;
}
