/* The opening-book file layout: see book_format.h and docs/book-format.md. */
#include "opening/book_format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/movecode.h"
#include "util/crc32.h"
#include "util/outfile.h"

/* Header offsets. */
enum {
    H_MAGIC = 0, H_FORMAT = 8, H_MOVECODE = 10, H_KEYS = 11, H_POSITIONS = 12,
    H_ENTRIES = 16, H_PAGES = 20, H_DATA = 24, H_GAMES = 28, H_MAX_PLY = 32,
    H_BODY_CRC = 36, H_HEADER_CRC = 60
};

#define LAST_FLAG 0x80 /* weight byte: this is the last move of its position */
#define VARINT_MAX_BYTES 5

static uint32_t get32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}
static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> 8 * i);
}

bool book_format_is_ours(const uint8_t *bytes, size_t size)
{
    return size >= BOOK_MAGIC_SIZE && memcmp(bytes, BOOK_MAGIC, BOOK_MAGIC_SIZE) == 0;
}

/* One LEB128 number of at most 32 bits from p[*at .. end); false when cut or too big. */
static bool read_varint(const uint8_t *p, size_t end, size_t *at, uint32_t *out)
{
    uint64_t v = 0;
    for (int i = 0; i < VARINT_MAX_BYTES; i++) {
        if (*at >= end)
            return false;
        uint8_t b = p[(*at)++];
        v |= (uint64_t)(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) {
            if (v > UINT32_MAX)
                return false;
            *out = (uint32_t)v;
            return true;
        }
    }
    return false;
}

/* One move record at *at; false when malformed. */
static bool read_entry(const uint8_t *p, size_t end, size_t *at, BookEntry *e, bool *last)
{
    if (end - *at < 2)
        return false;
    e->code = p[(*at)++];
    uint8_t w = p[(*at)++];
    *last = w & LAST_FLAG;
    e->weight = w & ~LAST_FLAG;
    e->wins = e->draws = e->losses = 0;
    if (e->weight > BOOK_MAX_WEIGHT || !read_varint(p, end, at, &e->count))
        return false;
    if (e->count == 0) /* a move known from the annotations only: no results follow */
        return true;
    return read_varint(p, end, at, &e->wins) && read_varint(p, end, at, &e->draws)
        && read_varint(p, end, at, &e->losses)
        && (uint64_t)e->wins + e->draws + e->losses <= e->count;
}

/* Reads the entries of one position (all of them when out is NULL, keeping none). */
static int read_position(const uint8_t *p, size_t end, size_t *at, BookEntry *out, int max,
                         bool *ok)
{
    uint64_t seen[4] = {0};
    int n = 0;
    bool last = false;
    *ok = false;
    while (!last) {
        BookEntry e;
        if (n >= BOOK_MAX_ENTRIES || !read_entry(p, end, at, &e, &last))
            return n;
        if (seen[e.code >> 6] >> (e.code & 63) & 1)
            return n; /* the same code twice */
        seen[e.code >> 6] |= 1ULL << (e.code & 63);
        if (out && n < max)
            out[n] = e;
        n++;
    }
    *ok = true;
    return n;
}

static bool fail(char *err, size_t size, const char *msg)
{
    snprintf(err, size, "%s", msg);
    return false;
}

bool book_image_parse(BookImage *img, const uint8_t *bytes, size_t size, char *err, size_t err_size)
{
    if (!book_format_is_ours(bytes, size))
        return fail(err, err_size, "not a Saavedra book (no SAAVBOOK magic)");
    if (size < BOOK_HEADER_SIZE)
        return fail(err, err_size, "truncated book header");
    if (crc32_update(0, bytes, H_HEADER_CRC) != get32(bytes + H_HEADER_CRC))
        return fail(err, err_size, "book header checksum mismatch");
    BookHeader *h = &img->header;
    h->format_version = (uint16_t)(bytes[H_FORMAT] | bytes[H_FORMAT + 1] << 8);
    h->movecode_version = bytes[H_MOVECODE];
    h->key_scheme = bytes[H_KEYS];
    h->positions = get32(bytes + H_POSITIONS);
    h->entries = get32(bytes + H_ENTRIES);
    h->pages = get32(bytes + H_PAGES);
    h->data_bytes = get32(bytes + H_DATA);
    h->games = get32(bytes + H_GAMES);
    h->max_ply = get32(bytes + H_MAX_PLY);
    if (h->format_version != BOOK_FORMAT_VERSION)
        return snprintf(err, err_size, "book format version %u, this engine reads %d",
                        h->format_version, BOOK_FORMAT_VERSION), false;
    if (h->movecode_version != MOVECODE_VERSION)
        return snprintf(err, err_size, "book move-code version %u, this engine reads %d",
                        h->movecode_version, MOVECODE_VERSION), false;
    if (h->key_scheme != BOOK_KEY_SCHEME)
        return snprintf(err, err_size, "book key scheme %u, this engine reads %d",
                        h->key_scheme, BOOK_KEY_SCHEME), false;
    if (h->pages == 0)
        return fail(err, err_size, "book has no pages");
    uint64_t expect = BOOK_HEADER_SIZE + 8ull * ((uint64_t)h->pages + 1) + 8ull * h->positions
                    + h->data_bytes;
    if (expect != size)
        return snprintf(err, err_size,
                        "book size %zu bytes, header says %llu (truncated or damaged)",
                        size, (unsigned long long)expect), false;
    if (crc32_update(0, bytes + BOOK_HEADER_SIZE, size - BOOK_HEADER_SIZE)
        != get32(bytes + H_BODY_CRC))
        return fail(err, err_size, "book checksum mismatch (damaged file)");

    img->dir = bytes + BOOK_HEADER_SIZE;
    img->keys = img->dir + 8ull * (h->pages + 1);
    img->data = img->keys + 8ull * h->positions;
    if (get32(img->dir) != 0 || get32(img->dir + 4) != 0
        || get32(img->dir + 8ull * h->pages) != h->positions
        || get32(img->dir + 8ull * h->pages + 4) != h->data_bytes)
        return fail(err, err_size, "book page directory does not cover the book");
    uint64_t entries = 0;
    for (uint32_t p = 0; p < h->pages; p++) {
        uint32_t first = get32(img->dir + 8ull * p), next = get32(img->dir + 8ull * (p + 1));
        size_t at = get32(img->dir + 8ull * p + 4), end = get32(img->dir + 8ull * (p + 1) + 4);
        if (next < first || end < at || end > h->data_bytes)
            return fail(err, err_size, "book page directory out of order");
        for (uint32_t i = first; i < next; i++) {
            uint64_t key = get64(img->keys + 8ull * i);
            if ((i > 0 && key <= get64(img->keys + 8ull * (i - 1)))
                || book_page_of(key, h->pages) != p)
                return fail(err, err_size, "book keys out of order");
            bool ok;
            entries += (uint64_t)read_position(img->data, end, &at, NULL, 0, &ok);
            if (!ok)
                return fail(err, err_size, "book move data damaged");
        }
        if (at != end)
            return fail(err, err_size, "book move data does not match the directory");
    }
    if (entries != h->entries)
        return fail(err, err_size, "book entry count does not match the header");
    return true;
}

int book_image_find(const BookImage *img, uint64_t key, BookEntry *out, int max)
{
    const BookHeader *h = &img->header;
    uint32_t p = book_page_of(key, h->pages);
    uint32_t first = get32(img->dir + 8ull * p), lo = first, hi = get32(img->dir + 8ull * (p + 1));
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        uint64_t k = get64(img->keys + 8ull * mid);
        if (k == key) {
            size_t at = get32(img->dir + 8ull * p + 4);
            size_t end = get32(img->dir + 8ull * (p + 1) + 4);
            bool ok = true;
            for (uint32_t i = first; i < mid && ok; i++)
                read_position(img->data, end, &at, NULL, 0, &ok);
            int n = ok ? read_position(img->data, end, &at, out, max, &ok) : 0;
            return ok ? (n < max ? n : max) : 0;
        }
        if (k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

uint32_t book_pages_for(uint32_t requested, uint32_t positions, char *note, size_t note_size)
{
    uint32_t least = positions / BOOK_PAGE_MAX + 1;
    uint32_t most = positions > 1 ? positions : 1;
    note[0] = '\0';
    if (requested == 0)
        return positions / BOOK_PAGE_TARGET + 1;
    if (requested < least) {
        snprintf(note, note_size,
                 "%u pages are too few for %u positions (at most %d a page): using %u", requested,
                 positions, BOOK_PAGE_MAX, least);
        return least;
    }
    if (requested > most) {
        snprintf(note, note_size, "%u pages are more than the %u positions need: using %u",
                 requested, positions, most);
        return most;
    }
    return requested;
}

/* ---- writing ---- */

static size_t put_varint(uint8_t *p, uint32_t v)
{
    size_t n = 0;
    do {
        uint8_t b = v & 0x7F;
        v >>= 7;
        p[n++] = b | (v ? 0x80 : 0);
    } while (v);
    return n;
}

/* The move data of all positions, with the directory filled in; NULL when out of memory. */
static uint8_t *encode_body(const BookWritePosition *pos, uint32_t npos, const BookEntry *entries,
                            uint32_t pages, size_t *size_out, BookHeader *h)
{
    size_t dir_size = 8ull * (pages + 1), keys_size = 8ull * npos;
    uint64_t total_entries = 0;
    for (uint32_t i = 0; i < npos; i++)
        total_entries += pos[i].count;
    size_t cap = dir_size + keys_size + total_entries * (2 + 4 * VARINT_MAX_BYTES);
    uint8_t *body = calloc(1, cap ? cap : 1);
    if (!body)
        return NULL;
    uint8_t *dir = body, *keys = body + dir_size, *data = keys + keys_size;
    size_t at = 0;
    uint32_t page = 0;
    put32(dir, 0), put32(dir + 4, 0);
    for (uint32_t i = 0; i < npos; i++) {
        uint32_t p = book_page_of(pos[i].key, pages);
        while (page < p) { /* pages before this key's one end here */
            page++;
            put32(dir + 8ull * page, i), put32(dir + 8ull * page + 4, (uint32_t)at);
        }
        put64(keys + 8ull * i, pos[i].key);
        for (uint32_t k = 0; k < pos[i].count; k++) {
            const BookEntry *e = &entries[pos[i].first + k];
            data[at++] = e->code;
            data[at++] = (uint8_t)(e->weight | (k + 1 == pos[i].count ? LAST_FLAG : 0));
            at += put_varint(data + at, e->count);
            if (e->count == 0)
                continue;
            at += put_varint(data + at, e->wins);
            at += put_varint(data + at, e->draws);
            at += put_varint(data + at, e->losses);
        }
    }
    while (page < pages) {
        page++;
        put32(dir + 8ull * page, npos), put32(dir + 8ull * page + 4, (uint32_t)at);
    }
    h->positions = npos;
    h->entries = (uint32_t)total_entries;
    h->pages = pages;
    h->data_bytes = (uint32_t)at;
    *size_out = dir_size + keys_size + at;
    return body;
}

size_t book_write_file(const char *path, const BookWritePosition *positions,
                       uint32_t position_count, const BookEntry *entries, uint32_t pages,
                       BookHeader *h, char *err, size_t err_size)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return snprintf(err, err_size, "%s exists and is not a regular file", path), 0;
    for (uint32_t i = 0; i < position_count; i++) {
        if ((i > 0 && positions[i].key <= positions[i - 1].key) || positions[i].count == 0
            || positions[i].count > BOOK_MAX_ENTRIES)
            return snprintf(err, err_size, "internal error: book positions not sorted or empty"), 0;
        for (uint32_t k = 0; k < positions[i].count; k++) {
            const BookEntry *e = &entries[positions[i].first + k];
            if (e->weight > BOOK_MAX_WEIGHT || (uint64_t)e->wins + e->draws + e->losses > e->count)
                return snprintf(err, err_size, "internal error: book entry out of range"), 0;
        }
    }
    size_t body_size;
    uint8_t *body = encode_body(positions, position_count, entries, pages, &body_size, h);
    if (!body)
        return snprintf(err, err_size, "out of memory writing the book"), 0;
    if (h->data_bytes != body_size - 8ull * (pages + 1) - 8ull * position_count
        || body_size > UINT32_MAX) {
        free(body);
        return snprintf(err, err_size, "book too large for the format"), 0;
    }
    uint8_t head[BOOK_HEADER_SIZE] = {0};
    memcpy(head, BOOK_MAGIC, BOOK_MAGIC_SIZE);
    h->format_version = BOOK_FORMAT_VERSION;
    h->movecode_version = MOVECODE_VERSION;
    h->key_scheme = BOOK_KEY_SCHEME;
    head[H_FORMAT] = BOOK_FORMAT_VERSION & 0xFF, head[H_FORMAT + 1] = BOOK_FORMAT_VERSION >> 8;
    head[H_MOVECODE] = MOVECODE_VERSION;
    head[H_KEYS] = BOOK_KEY_SCHEME;
    put32(head + H_POSITIONS, h->positions);
    put32(head + H_ENTRIES, h->entries);
    put32(head + H_PAGES, h->pages);
    put32(head + H_DATA, h->data_bytes);
    put32(head + H_GAMES, h->games);
    put32(head + H_MAX_PLY, h->max_ply);
    put32(head + H_BODY_CRC, crc32_update(0, body, body_size));
    put32(head + H_HEADER_CRC, crc32_update(0, head, H_HEADER_CRC));

    OutFile of;
    char why[4400];
    FILE *f = outfile_open(&of, path, why, sizeof why);
    if (!f) {
        free(body);
        return snprintf(err, err_size, "%s", why), 0;
    }
    bool ok = fwrite(head, 1, sizeof head, f) == sizeof head
           && fwrite(body, 1, body_size, f) == body_size;
    free(body);
    if (!ok) {
        snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
        outfile_abort(&of);
        return 0;
    }
    if (!outfile_commit(&of, why, sizeof why))
        return snprintf(err, err_size, "%s", why), 0;
    return BOOK_HEADER_SIZE + body_size;
}
