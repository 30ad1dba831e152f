/* Learning-file header and records in memory: see learnrec.h and
 * docs/learning-format.md. */
#include "learning/learnrec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/position.h"
#include "formats/movecode.h"
#include "util/crc32.h"

static void put16(uint8_t *p, unsigned v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static unsigned get16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }
static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(const uint8_t *p)
{
    return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* The key of the start position: it changes whenever the Zobrist scheme does. */
static Key start_position_key(void)
{
    Position *pos = malloc(sizeof *pos);
    Key key = 0;
    char err[160];
    if (pos && position_from_fen(pos, START_FEN, err, sizeof err, NULL))
        key = pos_key(pos);
    free(pos);
    return key;
}

void learn_header_make(uint8_t out[LEARN_HEADER_SIZE])
{
    memset(out, 0, LEARN_HEADER_SIZE);
    memcpy(out, LEARN_MAGIC, 8);
    put16(out + 8, LEARN_FORMAT_VERSION);
    put16(out + 10, MOVECODE_VERSION);
    put16(out + 12, LEARN_ZOBRIST_SCHEME);
    put16(out + 14, LEARN_HEADER_SIZE);
    put64(out + 16, start_position_key());
    put32(out + 28, crc32_of(out, 28));
}

/* Frames a payload already written at out + 4: record header and CRC. */
static size_t finish_record(uint8_t *out, int kind, size_t payload)
{
    size_t len = payload + LEARN_RECORD_OVERHEAD;
    out[0] = (uint8_t)kind;
    out[1] = 0;
    put16(out + 2, (unsigned)len);
    put32(out + len - 4, crc32_of(out, len - 4));
    return len;
}

size_t learn_encode_position(const LearnPosition *p, uint8_t *out, size_t cap)
{
    if (cap < LEARN_POSITION_SIZE)
        return 0;
    uint8_t *q = out + 4;
    put64(q, p->key);
    q[8] = p->has_move ? p->code : 0;
    q[9] = p->has_move ? 1 : 0;
    put16(q + 10, (uint16_t)p->score);
    q[12] = p->depth;
    return finish_record(out, LEARN_KIND_POSITION, 13);
}

size_t learn_encode_book(const LearnBookStat *b, uint8_t *out, size_t cap)
{
    if (cap < LEARN_BOOK_SIZE)
        return 0;
    uint8_t *q = out + 4;
    put64(q, b->key);
    q[8] = b->code;
    put16(q + 9, b->wins);
    put16(q + 11, b->draws);
    put16(q + 13, b->losses);
    return finish_record(out, LEARN_KIND_BOOK, 15);
}

size_t learn_encode_game(const LearnGame *g, uint8_t *out, size_t cap)
{
    size_t fen_len = (g->flags & LEARN_GAME_STARTPOS) ? 0 : strlen(g->fen);
    if (fen_len > LEARN_FEN_MAX || g->ply_count < 0 || g->ply_count > LEARN_GAME_PLIES_MAX)
        return 0;
    size_t payload = 6 + fen_len + (size_t)g->ply_count;
    if (payload + LEARN_RECORD_OVERHEAD > cap)
        return 0;
    uint8_t *q = out + 4;
    q[0] = g->result;
    q[1] = g->own_side;
    q[2] = g->flags;
    q[3] = (uint8_t)fen_len;
    memcpy(q + 4, g->fen, fen_len);
    put16(q + 4 + fen_len, (unsigned)g->ply_count);
    if (g->ply_count)
        memcpy(q + 6 + fen_len, g->codes, (size_t)g->ply_count);
    return finish_record(out, LEARN_KIND_GAME, payload);
}

/* Decodes the payload of an intact record; false if it does not fit its kind. */
static bool visit_record(const uint8_t *r, size_t len, const LearnVisitor *v, LearnParse *out)
{
    const uint8_t *q = r + 4;
    size_t payload = len - LEARN_RECORD_OVERHEAD;
    switch (r[0]) {
    case LEARN_KIND_POSITION: {
        if (len != LEARN_POSITION_SIZE || q[9] > 1)
            return false;
        LearnPosition p = { get64(q), q[8], q[9] == 1, (int16_t)get16(q + 10), q[12] };
        out->positions++;
        if (v && v->on_position)
            v->on_position(v->ctx, &p);
        return true;
    }
    case LEARN_KIND_BOOK: {
        if (len != LEARN_BOOK_SIZE)
            return false;
        LearnBookStat b = { get64(q), q[8], (uint16_t)get16(q + 9), (uint16_t)get16(q + 11),
                            (uint16_t)get16(q + 13) };
        out->books++;
        if (v && v->on_book)
            v->on_book(v->ctx, &b);
        return true;
    }
    case LEARN_KIND_GAME: {
        if (payload < 6)
            return false;
        size_t fen_len = q[3];
        if (fen_len > LEARN_FEN_MAX || 6 + fen_len > payload || q[0] > LEARN_RESULT_DRAW
            || q[1] > LEARN_SIDE_NONE)
            return false;
        size_t plies = get16(q + 4 + fen_len);
        if (6 + fen_len + plies != payload || plies > LEARN_GAME_PLIES_MAX)
            return false;
        if (((q[2] & LEARN_GAME_STARTPOS) != 0) == (fen_len != 0))
            return false; /* exactly one of the two start descriptions */
        LearnGame g;
        g.result = q[0];
        g.own_side = q[1];
        g.flags = q[2];
        memcpy(g.fen, q + 4, fen_len);
        g.fen[fen_len] = '\0';
        if (memchr(g.fen, '\0', fen_len))
            return false;
        g.ply_count = (int)plies;
        g.codes = q + 6 + fen_len;
        out->games++;
        if (v && v->on_game)
            v->on_game(v->ctx, &g);
        return true;
    }
    default:
        out->others++; /* a later version's kind: kept, not understood */
        return true;
    }
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* The length a record of a known kind must have, judged from the bytes present (0 when
 * they do not tell: an unknown kind, or a game record cut before its counts). */
static size_t expected_length(const uint8_t *r, size_t left)
{
    switch (r[0]) {
    case LEARN_KIND_POSITION:
        return LEARN_POSITION_SIZE;
    case LEARN_KIND_BOOK:
        return LEARN_BOOK_SIZE;
    case LEARN_KIND_GAME: {
        if (left < 8)
            return 0;
        size_t fen_len = r[7];
        if (left < 4 + 4 + fen_len + 2)
            return 0;
        return LEARN_RECORD_OVERHEAD + 6 + fen_len + get16(r + 8 + fen_len);
    }
    default:
        return 0;
    }
}

/* Whether an intact record of a known kind starts anywhere in the n bytes at p: then a
 * record that seems to run past the end is not a torn append but a damaged length. */
static bool intact_record_within(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + LEARN_POSITION_SIZE <= n; i++) {
        const uint8_t *r = p + i;
        if ((r[0] != LEARN_KIND_POSITION && r[0] != LEARN_KIND_BOOK && r[0] != LEARN_KIND_GAME)
            || r[1] != 0)
            continue;
        size_t len = get16(r + 2);
        if (len < LEARN_POSITION_SIZE || len > n - i || expected_length(r, n - i) != len)
            continue;
        if (get32(r + len - 4) == crc32_of(r, len - 4))
            return true;
    }
    return false;
}

/* A record whose length runs past the end is a torn last append only if nothing says
 * otherwise: its length fits its kind and no intact record follows in the bytes it
 * would cover. Anything else is damage (a flipped length byte must not cut the file). */
static bool torn_append(const uint8_t *r, size_t left, size_t len)
{
    size_t want = expected_length(r, left);
    if (want && want != len)
        return false;
    return !intact_record_within(r + 1, left - 1);
}

void learn_parse_from(const uint8_t *data, size_t size, size_t base, const LearnVisitor *v,
                      LearnParse *out)
{
    memset(out, 0, sizeof *out);
    out->status = LEARN_PARSE_OK;
    size_t off = 0;
    while (off < size) {
        size_t left = size - off;
        const uint8_t *r = data + off;
        const char *why = NULL;
        bool at_end = false;
        if (left < 4) {
            why = "a record header cut short";
            at_end = true;
        } else {
            size_t len = get16(r + 2);
            if (r[1] != 0 || len < LEARN_RECORD_OVERHEAD)
                why = "a record with a bad length";
            else if (len > left) {
                why = "a record cut short";
                at_end = torn_append(r, left, len);
            } else if (get32(r + len - 4) != crc32_of(r, len - 4)) {
                why = "a record failing its checksum";
                size_t want = expected_length(r, left);
                at_end = len == left && (want == 0 || want == len);
            } else if (!visit_record(r, len, v, out))
                why = "a record whose contents do not fit its kind";
            else {
                off += len;
                continue;
            }
        }
        /* A crash during an append leaves the end of the file cut or zero-filled. */
        if (!at_end && all_zero(r, left))
            at_end = true;
        out->status = at_end ? LEARN_PARSE_TORN : LEARN_PARSE_DAMAGED;
        snprintf(out->why, sizeof out->why, "%s at byte %zu", why, base + off);
        break;
    }
    out->valid_end = base + off;
}

void learn_parse(const uint8_t *data, size_t size, const LearnVisitor *v, LearnParse *out)
{
    uint8_t header[LEARN_HEADER_SIZE];
    learn_header_make(header);
    if (size < LEARN_HEADER_SIZE) {
        memset(out, 0, sizeof *out);
        if (size == 0 || memcmp(data, header, size) == 0)
            out->status = LEARN_PARSE_EMPTY;
        else if (size < 8 || memcmp(data, LEARN_MAGIC, 8) != 0) {
            out->status = LEARN_PARSE_NOT_OURS;
            snprintf(out->why, sizeof out->why, "not a Saavedra learning file");
        } else {
            out->status = LEARN_PARSE_FOREIGN;
            snprintf(out->why, sizeof out->why, "too short for a learning file (%zu bytes)", size);
        }
        return;
    }
    if (memcmp(data, header, LEARN_HEADER_SIZE) != 0) {
        memset(out, 0, sizeof *out);
        out->status = LEARN_PARSE_FOREIGN;
        if (memcmp(data, LEARN_MAGIC, 8) != 0) {
            out->status = LEARN_PARSE_NOT_OURS;
            snprintf(out->why, sizeof out->why, "not a Saavedra learning file");
        } else if (get32(data + 28) != crc32_of(data, 28))
            snprintf(out->why, sizeof out->why, "damaged header");
        else
            snprintf(out->why, sizeof out->why,
                     "written for format %u, move code %u, key scheme %u "
                     "(this build: %d, %d, %d%s)",
                     get16(data + 8), get16(data + 10), get16(data + 12), LEARN_FORMAT_VERSION,
                     MOVECODE_VERSION, LEARN_ZOBRIST_SCHEME,
                     get64(data + 16) != get64(header + 16) ? ", other Zobrist keys" : "");
        return;
    }
    learn_parse_from(data + LEARN_HEADER_SIZE, size - LEARN_HEADER_SIZE, LEARN_HEADER_SIZE, v, out);
}
