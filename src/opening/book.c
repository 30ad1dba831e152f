/* The opening book as the engine uses it: see book.h. */
#include "opening/book.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board/notation.h"
#include "formats/movecode.h"
#include "opening/book_format.h"
#include "opening/polyglot.h"
#include "opening/polykey.h"
#include "util/platform.h"
#include "util/random.h"
#include "util/rcfile.h"

#define BOOK_FILE_MAX (1ull << 31) /* larger files are refused rather than read */

struct Book {
    BookKind kind;
    uint8_t *bytes;
    size_t size;
    BookImage own;
    PolyglotImage polyglot;
};

Book *book_open_bytes(const void *bytes, size_t size, const char *name, char *err, size_t err_size)
{
    Book *b = calloc(1, sizeof *b);
    if (!b || !(b->bytes = malloc(size ? size : 1))) {
        free(b);
        snprintf(err, err_size, "%s: out of memory", name);
        return NULL;
    }
    memcpy(b->bytes, bytes, size);
    b->size = size;
    char why[200];
    bool ok;
    if (book_format_is_ours(b->bytes, size)) {
        b->kind = BOOK_KIND_SAAVEDRA;
        ok = book_image_parse(&b->own, b->bytes, size, why, sizeof why);
    } else {
        b->kind = BOOK_KIND_POLYGLOT;
        ok = polyglot_image_parse(&b->polyglot, b->bytes, size, why, sizeof why);
    }
    if (!ok) {
        snprintf(err, err_size, "%s: %s", name, why);
        book_close(b);
        return NULL;
    }
    return b;
}

Book *book_open(const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f) {
        snprintf(err, err_size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        snprintf(err, err_size, "%s: not a regular file", path);
        return NULL;
    }
    /* Judged before anything is read: a huge (or sparse) file is refused at once, and a
     * zero-filled one by its first entry (no book starts with a zero key and move). */
    if ((uint64_t)st.st_size >= BOOK_FILE_MAX) {
        fclose(f);
        snprintf(err, err_size, "%s: too large for a book (%lld bytes)", path,
                 (long long)st.st_size);
        return NULL;
    }
    uint8_t first[16];
    if (st.st_size >= 16
        && (fread(first, 1, sizeof first, f) != sizeof first || fseek(f, 0, SEEK_SET) != 0)) {
        fclose(f);
        snprintf(err, err_size, "%s: read error", path);
        return NULL;
    }
    static const uint8_t ZERO[16];
    if (st.st_size >= 16 && memcmp(first, ZERO, sizeof first) == 0) {
        fclose(f);
        snprintf(err, err_size,
                 "%s: not a book: its first entry is all zero bytes (a zero-filled file?)", path);
        return NULL;
    }
    /* Read to the end rather than trusting the size: another process may be writing it. */
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 1 << 16;
    size_t size = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size += fread(buf + size, 1, cap - size, f);
        if (size < cap || cap >= BOOK_FILE_MAX)
            break;
        uint8_t *grown = realloc(buf, cap * 2);
        if (!grown)
            free(buf);
        buf = grown;
        cap *= 2;
    }
    bool read_error = ferror(f);
    fclose(f);
    if (!buf || read_error || size >= BOOK_FILE_MAX) {
        free(buf);
        snprintf(err, err_size, "%s: %s", path,
                 !buf         ? "out of memory"
                 : read_error ? "read error"
                              : "too large for a book");
        return NULL;
    }
    Book *b = book_open_bytes(buf, size, path, err, err_size);
    free(buf);
    return b;
}

void book_close(Book *book)
{
    if (!book)
        return;
    free(book->bytes);
    free(book);
}

BookKind book_kind(const Book *book)
{
    return book->kind;
}

uint32_t book_position_count(const Book *book)
{
    return book->kind == BOOK_KIND_SAAVEDRA ? book->own.header.positions : 0;
}

uint32_t book_entry_count(const Book *book)
{
    return book->kind == BOOK_KIND_SAAVEDRA ? book->own.header.entries
                                            : (uint32_t)book->polyglot.count;
}

/* Keeps a legal move that is not already in out (a Polyglot book may repeat one). */
static bool add_move(BookMove *out, int n, const BookMove *m)
{
    if (m->move == MOVE_NONE)
        return false;
    for (int i = 0; i < n; i++)
        if (out[i].move == m->move)
            return false;
    out[n] = *m;
    return true;
}

int book_probe(const Book *book, const Position *pos, BookMove *out, int max)
{
    uint64_t key = polyglot_key(pos);
    int n = 0;
    if (max > BOOK_MOVES_MAX)
        max = BOOK_MOVES_MAX;
    if (book->kind == BOOK_KIND_SAAVEDRA) {
        BookEntry e[BOOK_MAX_ENTRIES];
        int found = book_image_find(&book->own, key, e, BOOK_MAX_ENTRIES);
        for (int i = 0; i < found && n < max; i++) {
            BookMove m = { movecode_decode(pos, e[i].code), e[i].code, e[i].weight,
                           e[i].count, e[i].wins, e[i].draws, e[i].losses };
            n += add_move(out, n, &m);
        }
    } else {
        PolyglotEntry e[BOOK_MOVES_MAX];
        int found = polyglot_image_find(&book->polyglot, key, e, BOOK_MOVES_MAX);
        for (int i = 0; i < found && n < max; i++) {
            BookMove m = { polyglot_decode_move(pos, e[i].move), -1, e[i].weight, 0, 0, 0, 0 };
            n += add_move(out, n, &m);
        }
    }
    /* Best weight first; insertion sort keeps the book's order among equals. */
    for (int i = 1; i < n; i++) {
        BookMove m = out[i];
        int j = i;
        for (; j > 0 && out[j - 1].weight < m.weight; j--)
            out[j] = out[j - 1];
        out[j] = m;
    }
    return n;
}

int book_choose(const BookMove *moves, int n, int variety, uint64_t *rng)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (moves[i].weight > 0 && (best < 0 || moves[i].weight > moves[best].weight))
            best = i;
    if (best < 0 || variety <= 0)
        return best;
    if (variety > 100)
        variety = 100;
    double exponent = 100.0 / variety, total = 0, share[BOOK_MOVES_MAX];
    for (int i = 0; i < n && i < BOOK_MOVES_MAX; i++) {
        share[i] =
            moves[i].weight ? pow((double)moves[i].weight / moves[best].weight, exponent) : 0;
        total += share[i];
    }
    double r = (double)(splitmix64(rng) >> 11) * 0x1p-53 * total;
    for (int i = 0; i < n && i < BOOK_MOVES_MAX; i++) {
        if (share[i] > 0 && r < share[i])
            return i;
        r -= share[i];
    }
    return best; /* rounding at the very end of the range */
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool book_locate(const char *name, char *out, size_t out_size)
{
    if (pf_path_is_absolute(name)) {
        snprintf(out, out_size, "%s", name);
        return is_file(out);
    }
    char dir[4096], path[8300];
    if (!executable_dir(dir, sizeof dir)) {
        snprintf(out, out_size, "%s (the executable's directory is unknown)", name);
        return false;
    }
    /* Beside the executable or installed with it (PREFIX/share/saavedra) ... */
    if (data_file_locate(name, path, sizeof path) && is_file(path)) {
        snprintf(out, out_size, "%s", path);
        return true;
    }
    /* ... or in a repository checkout, where the binary sits above book/. */
    snprintf(path, sizeof path, "%s/book/%s", dir, name);
    if (is_file(path)) {
        snprintf(out, out_size, "%s", path);
        return true;
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(out, out_size, "%s", path);
    return false;
}

void book_move_describe(Position *pos, const BookMove *m, char *buf, size_t size)
{
    char san[16];
    move_to_san(pos, m->move, san);
    if (m->count == 0) {
        snprintf(buf, size, "%s weight %u", san, m->weight);
        return;
    }
    uint32_t decided = m->wins + m->draws + m->losses;
    if (decided == 0) {
        snprintf(buf, size, "%s weight %u, %u games", san, m->weight, m->count);
        return;
    }
    snprintf(buf, size, "%s weight %u, %u games +%u%% =%u%% -%u%%", san, m->weight, m->count,
             (unsigned)(100.0 * m->wins / decided + 0.5),
             (unsigned)(100.0 * m->draws / decided + 0.5),
             (unsigned)(100.0 * m->losses / decided + 0.5));
}
