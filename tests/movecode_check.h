/* Helpers shared by the move-code tests: positions, the perft suite, a reference
 * encoder written plainly from docs/compressed-moves.md (independent of src/movecode.c),
 * and whole-position checks that report through test.h. */
#ifndef SAAVEDRA_TESTS_MOVECODE_CHECK_H
#define SAAVEDRA_TESTS_MOVECODE_CHECK_H

#include <stdint.h>

#include "board/position.h"

/* A heap position from a FEN (free() it); NULL after a failed check. */
Position *test_position_new(const char *fen);
/* FENs of tests/data/perftsuite.epd (text before the first ';'); when nodes is not NULL
 * it receives, per line, the sum of the D1-D3 counts listed (0 when there are fewer). */
int perft_suite_load(char fens[][128], int max, long long *nodes);
/* xorshift64 */
uint64_t test_random(uint64_t *state);
/* strcmp for qsort over char[8] UCI strings. */
int compare_strings(const void *a, const void *b);

/* The code of legal move m by the documented format. */
int movecode_reference_code(const Position *pos, Move m);

typedef struct {
    long moves, positions, fallback_positions;
} Tally;

/* Every legal move: encode == reference, decode(encode) == move, codes distinct, the
 * checked encoder agrees. False (after a failed check) at the first problem. */
bool check_all_moves(const Position *pos, Tally *t);
/* Every byte decodes to MOVE_NONE or to a legal move whose code is that byte, and as
 * many bytes decode as there are legal moves. */
bool check_all_bytes(const Position *pos);

#endif
