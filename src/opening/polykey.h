/* The Polyglot position key: a Zobrist key over the published Random64 table, the key
 * both Polyglot books and Saavedra's own book (docs/book-format.md) are indexed by. It
 * is a fact of the formats, independent of the engine's internal Zobrist keys, which may
 * change without invalidating any book.
 *
 * Table layout (781 entries): piece on square: 64 * kind + 8 * rank + file, kind = 2 *
 * piece type (pawn 0 .. king 5) + 1 for White, 0 for Black; castling rights 768 (White
 * O-O), 769 (White O-O-O), 770 (Black O-O), 771 (Black O-O-O); en-passant file 772 + file,
 * only when a pawn of the side to move stands beside the pawn that just advanced two
 * squares; 780 when White is to move. */
#ifndef SAAVEDRA_POLYKEY_H
#define SAAVEDRA_POLYKEY_H

#include <stdint.h>

#include "board/position.h"

#define POLYGLOT_RANDOM_COUNT 781

extern const uint64_t POLYGLOT_RANDOM64[POLYGLOT_RANDOM_COUNT];

uint64_t polyglot_key(const Position *pos);

#endif
