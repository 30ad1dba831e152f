/* Polyglot opening books (.bin): 16-byte big-endian entries {u64 key, u16 move,
 * u16 weight, u32 learn} sorted by key, keyed by polyglot_key (polykey.h). Read-only:
 * Saavedra reads such books as they are, it writes its own format. */
#ifndef SAAVEDRA_POLYGLOT_H
#define SAAVEDRA_POLYGLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board/position.h"

#define POLYGLOT_ENTRY_SIZE 16

typedef struct {
    uint16_t move, weight;
    uint32_t learn;
} PolyglotEntry;

/* A checked Polyglot book in memory (the bytes are not owned). */
typedef struct {
    const uint8_t *bytes;
    size_t count;
} PolyglotImage;

/* Accepts a whole number of entries sorted by key (anything else is not a Polyglot book). */
bool polyglot_image_parse(PolyglotImage *img, const uint8_t *bytes, size_t size, char *err,
                          size_t err_size);
/* The entries for key, in file order (at most max). */
int polyglot_image_find(const PolyglotImage *img, uint64_t key, PolyglotEntry *out, int max);
/* The legal move a Polyglot move names in pos (castling is written king takes rook), or
 * MOVE_NONE. */
Move polyglot_decode_move(const Position *pos, uint16_t move);

#endif
