/* Polyglot books: see polyglot.h. */
#include "opening/polyglot.h"

#include <stdio.h>
#include <string.h>

#include "board/notation.h"

static uint64_t get64be(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static uint64_t key_at(const PolyglotImage *img, size_t i)
{
    return get64be(img->bytes + i * POLYGLOT_ENTRY_SIZE);
}

bool polyglot_image_parse(PolyglotImage *img, const uint8_t *bytes, size_t size, char *err,
                          size_t err_size)
{
    if (size == 0 || size % POLYGLOT_ENTRY_SIZE) {
        snprintf(err, err_size, "not a book: %zu bytes is not a whole number of Polyglot entries",
                 size);
        return false;
    }
    /* Entries are sorted by key, so an all-zero entry (key 0, move a1a1: never a real
     * one) would come first: a zero-filled file is not taken for a book. */
    static const uint8_t ZERO[POLYGLOT_ENTRY_SIZE];
    if (memcmp(bytes, ZERO, POLYGLOT_ENTRY_SIZE) == 0) {
        snprintf(err, err_size,
                 "not a book: its first entry is all zero bytes (a zero-filled file?)");
        return false;
    }
    img->bytes = bytes;
    img->count = size / POLYGLOT_ENTRY_SIZE;
    for (size_t i = 1; i < img->count; i++) {
        if (key_at(img, i) < key_at(img, i - 1)) {
            snprintf(err, err_size, "not a book: Polyglot entries out of key order at entry %zu",
                     i);
            return false;
        }
    }
    return true;
}

int polyglot_image_find(const PolyglotImage *img, uint64_t key, PolyglotEntry *out, int max)
{
    size_t lo = 0, hi = img->count;
    while (lo < hi) { /* the first entry with a key >= key */
        size_t mid = lo + (hi - lo) / 2;
        if (key_at(img, mid) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    int n = 0;
    for (size_t i = lo; i < img->count && n < max && key_at(img, i) == key; i++) {
        const uint8_t *p = img->bytes + i * POLYGLOT_ENTRY_SIZE + 8;
        out[n].move = (uint16_t)(p[0] << 8 | p[1]);
        out[n].weight = (uint16_t)(p[2] << 8 | p[3]);
        out[n].learn = (uint32_t)p[4] << 24 | p[5] << 16 | p[6] << 8 | p[7];
        n++;
    }
    return n;
}

Move polyglot_decode_move(const Position *pos, uint16_t move)
{
    /* to: bits 0-5, from: bits 6-11 (square = 8 * rank + file), promotion: bits 12-14
     * (0 none, 1 knight, 2 bishop, 3 rook, 4 queen). */
    int to = move & 63, from = (move >> 6) & 63, promo = (move >> 12) & 7;
    if (promo > 4 || (move >> 15))
        return MOVE_NONE;
    char text[6] = {
        (char)('a' + from % 8), (char)('1' + from / 8), (char)('a' + to % 8), (char)('1' + to / 8),
        promo ? " nbrq"[promo] : '\0', '\0'
    };
    /* move_from_uci reads e1h1 as castling when the king and rook stand there, as
     * Polyglot writes it, and returns only legal moves. */
    return move_from_uci(pos, text);
}
