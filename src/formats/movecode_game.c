/* Whole-game conversion (see movecode_game.h). The replay drops undo history it no longer
 * needs, so a game of any length fits one Position. */
#include "formats/movecode_game.h"

#include <stdlib.h>

#include "board/movelegal.h"
#include "board/position_copy.h"
#include "formats/movecode.h"

int movecode_encode_game(const Position *start, const Move *moves, int n, uint8_t *codes)
{
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return -1;
    position_copy_current(pos, start);
    MoveCodeTracker t;
    movecode_tracker_init(&t, pos);
    int i = 0;
    for (; i < n; i++) {
        if (!move_is_legal_fast(pos, moves[i]))
            break;
        int code = movecode_encode_tracked(&t, pos, moves[i]);
        if (code == MOVECODE_ERROR)
            break;
        codes[i] = (uint8_t)code;
        movecode_tracker_update(&t, pos, moves[i]);
        make_move(pos, moves[i]);
        position_trim_history(pos);
    }
    free(pos);
    return i;
}

int movecode_decode_game(const Position *start, const uint8_t *codes, int n, Move *moves)
{
    Position *pos = malloc(sizeof *pos);
    if (!pos)
        return -1;
    position_copy_current(pos, start);
    MoveCodeTracker t;
    movecode_tracker_init(&t, pos);
    int i = 0;
    for (; i < n; i++) {
        Move m = movecode_decode_tracked(&t, pos, codes[i]);
        if (m == MOVE_NONE)
            break;
        moves[i] = m;
        movecode_tracker_update(&t, pos, m);
        make_move(pos, m);
        position_trim_history(pos);
    }
    free(pos);
    return i;
}
