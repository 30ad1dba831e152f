/* Saavedra's opening-book file: the byte layout, its validation, lookups by key, and the
 * writer. The layout is described in docs/book-format.md (readable from that page alone):
 * a 64-byte header (magic, versions, counts, two CRC-32s), a page directory, the sorted
 * 64-bit position keys, and the move data (per move: its one-byte move code, a weight
 * 0..100 and the game statistics count / wins / draws / losses as LEB128 numbers).
 * Everything is little-endian. This module knows bytes and keys only; book.c turns codes
 * into moves. */
#ifndef SAAVEDRA_BOOK_FORMAT_H
#define SAAVEDRA_BOOK_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOOK_MAGIC "SAAVBOOK"
#define BOOK_MAGIC_SIZE 8
#define BOOK_FORMAT_VERSION 1
#define BOOK_KEY_SCHEME 1           /* 1 = Polyglot Random64 keys (opening/polykey.h) */
#define BOOK_HEADER_SIZE 64
#define BOOK_MAX_WEIGHT 100
#define BOOK_MAX_ENTRIES 255        /* moves of one position (a position has at most 218) */
#define BOOK_PAGE_TARGET 32         /* positions per page when -n is not given */
#define BOOK_PAGE_MAX 512           /* fewer pages than positions / this are grown */

/* One move of a position as stored: its move code, weight and statistics. Wins, draws
 * and losses are counted for the side that plays the move; count (games that played the
 * move) is at least their sum (games without a result count only there). */
typedef struct {
    uint8_t code;
    uint8_t weight;                 /* 0..100; 0 = never played, still known */
    uint32_t count, wins, draws, losses;
} BookEntry;

typedef struct {
    uint16_t format_version;
    uint8_t movecode_version, key_scheme;
    uint32_t positions, entries, pages, data_bytes;
    uint32_t games;                 /* games the statistics were gathered from */
    uint32_t max_ply;               /* the builder's ply limit (0 = none); informative */
} BookHeader;

/* A checked book in memory (the bytes are not owned). */
typedef struct {
    BookHeader header;
    const uint8_t *dir;             /* (pages + 1) x {u32 first position, u32 data offset} */
    const uint8_t *keys;            /* positions x u64, strictly increasing */
    const uint8_t *data;            /* data_bytes of move records */
} BookImage;

/* Whether the bytes start with the book magic (the file is meant to be ours). */
bool book_format_is_ours(const uint8_t *bytes, size_t size);
/* Checks every byte's meaning: header and body checksums, versions, sizes, key order,
 * the directory, and that the move data parses exactly, with weights <= 100 and no move
 * code twice in a position. On failure err says what is wrong. */
bool book_image_parse(BookImage *img, const uint8_t *bytes, size_t size, char *err,
                      size_t err_size);
/* The entries stored for key (at most max; they are stored best first). */
int book_image_find(const BookImage *img, uint64_t key, BookEntry *out, int max);

/* The page of a key among pages: keys are spread by their top 32 bits, in key order. */
static inline uint32_t book_page_of(uint64_t key, uint32_t pages)
{
    return (uint32_t)(((key >> 32) * (uint64_t)pages) >> 32);
}
/* The page count to use for a book of `positions` positions when `requested` were asked
 * for (0: the default). Too few are grown and too many cut, with a note saying so
 * ("" when the request stands). */
uint32_t book_pages_for(uint32_t requested, uint32_t positions, char *note, size_t note_size);

/* A book to write: positions sorted by key, each with its entries (best first) at
 * entries[first .. first + count). */
typedef struct {
    uint64_t key;
    uint32_t first, count;
} BookWritePosition;

/* Writes the book to path through a temporary file in the same directory renamed over
 * it, so the final name never holds a half-written book (a non-regular file under that
 * name is refused). header supplies games and max_ply; the other fields are filled in
 * (and returned there). Returns the file size, 0 on failure with err set. */
size_t book_write_file(const char *path, const BookWritePosition *positions,
                       uint32_t position_count, const BookEntry *entries, uint32_t pages,
                       BookHeader *header, char *err, size_t err_size);

#endif
