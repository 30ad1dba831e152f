/* Training-data records (traindata.h, docs/training-data.md). All numbers are
 * little-endian; a record's CRC-32 covers everything after its length field. */
#include "formats/traindata.h"

#include <stdio.h>
#include <string.h>

#include "formats/movecode.h"
#include "util/crc32.h"

enum { FLAG_FEN = 1, FLAG_CHESS960 = 2, FLAGS_KNOWN = 3 };

static void put16(uint8_t *p, unsigned v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v & 0xFFFF); put16(p + 2, v >> 16); }
static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}
static unsigned get16(const uint8_t *p) { return p[0] | (unsigned)p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | (uint32_t)get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

/* Header: magic[8], version u16, move-code version u16, nodes u32, seed u64,
 * first_game u64, games u32, eval_id u32, reserved u32 (0), CRC-32 of bytes 0..43. */
void train_header_encode(const TrainHeader *h, uint8_t *out)
{
    memcpy(out, TRAIN_MAGIC, 8);
    put16(out + 8, TRAIN_VERSION);
    put16(out + 10, MOVECODE_VERSION);
    put32(out + 12, h->nodes);
    put64(out + 16, h->seed);
    put64(out + 24, h->first_game);
    put32(out + 32, h->games);
    put32(out + 36, h->eval_id);
    put32(out + 40, 0);
    put32(out + 44, crc32_of(out, 44));
}

bool train_header_decode(const uint8_t *in, TrainHeader *h, char *err, size_t err_size)
{
    if (memcmp(in, TRAIN_MAGIC, 8)) {
        snprintf(err, err_size, "not a training-data file");
        return false;
    }
    if (get16(in + 8) != TRAIN_VERSION || get16(in + 10) != MOVECODE_VERSION) {
        snprintf(err, err_size,
                 "training-data version %u (move codes %u), this program reads %d (%d)",
                 get16(in + 8), get16(in + 10), TRAIN_VERSION, MOVECODE_VERSION);
        return false;
    }
    if (get32(in + 44) != crc32_of(in, 44)) {
        snprintf(err, err_size, "damaged header (checksum)");
        return false;
    }
    h->nodes = get32(in + 12);
    h->seed = get64(in + 16);
    h->first_game = get64(in + 24);
    h->games = get32(in + 32);
    h->eval_id = get32(in + 36);
    return true;
}

/* Record: length u16 (bytes that follow), flags u8, [FEN length u8, FEN], result u8,
 * plies u16, first_scored u16, codes[plies], scores i16[plies - first_scored], CRC u32. */
size_t train_game_encode(const TrainGame *g, uint8_t *out)
{
    size_t fen_len = g->standard_start ? 0 : strlen(g->fen);
    if (g->plies < 0 || g->plies > TRAIN_MAX_PLIES || g->first_scored < 0
        || g->first_scored > g->plies || fen_len > 127 || (!g->standard_start && fen_len == 0)
        || g->result < 0 || g->result > 2)
        return 0;
    uint8_t *p = out + 2;
    *p++ = (uint8_t)((g->standard_start ? 0 : FLAG_FEN) | (g->chess960 ? FLAG_CHESS960 : 0));
    if (!g->standard_start) {
        *p++ = (uint8_t)fen_len;
        memcpy(p, g->fen, fen_len);
        p += fen_len;
    }
    *p++ = (uint8_t)g->result;
    put16(p, (unsigned)g->plies);
    put16(p + 2, (unsigned)g->first_scored);
    p += 4;
    memcpy(p, g->codes, (size_t)g->plies);
    p += g->plies;
    for (int i = g->first_scored; i < g->plies; i++, p += 2)
        put16(p, (uint16_t)g->scores[i]);
    put32(p, crc32_of(out + 2, (size_t)(p - out - 2)));
    p += 4;
    put16(out, (unsigned)(p - out - 2));
    return (size_t)(p - out);
}

TrainStatus train_game_decode(const uint8_t *in, size_t size, TrainGame *g, size_t *used, char *err,
                              size_t err_size)
{
    *used = 0;
    if (size < 2) {
        snprintf(err, err_size, "record cut short");
        return TRAIN_TORN;
    }
    size_t len = get16(in);
    if (size < 2 + len) {
        snprintf(err, err_size, "record cut short");
        return TRAIN_TORN;
    }
    *used = 2 + len;
    const uint8_t *p = in + 2, *end = in + 2 + len;
    if (len < 1 + 1 + 4 + 4 || get32(end - 4) != crc32_of(p, len - 4)) {
        snprintf(err, err_size, "damaged record (checksum)");
        return TRAIN_DAMAGED;
    }
    end -= 4;
    int flags = *p++;
    if (flags & ~FLAGS_KNOWN) {
        snprintf(err, err_size, "damaged record (flags)");
        return TRAIN_DAMAGED;
    }
    g->standard_start = !(flags & FLAG_FEN);
    g->chess960 = flags & FLAG_CHESS960;
    g->fen[0] = '\0';
    if (!g->standard_start) {
        size_t n = *p++;
        if (n == 0 || n > 127 || (size_t)(end - p) < n) {
            snprintf(err, err_size, "damaged record (FEN)");
            return TRAIN_DAMAGED;
        }
        memcpy(g->fen, p, n);
        g->fen[n] = '\0';
        p += n;
    }
    if (end - p < 5) {
        snprintf(err, err_size, "damaged record (counts)");
        return TRAIN_DAMAGED;
    }
    g->result = *p++;
    g->plies = (int)get16(p);
    g->first_scored = (int)get16(p + 2);
    p += 4;
    if (g->result > 2 || g->plies > TRAIN_MAX_PLIES || g->first_scored > g->plies
        || end - p != g->plies + 2 * (g->plies - g->first_scored)) {
        snprintf(err, err_size, "damaged record (counts)");
        return TRAIN_DAMAGED;
    }
    memcpy(g->codes, p, (size_t)g->plies);
    p += g->plies;
    for (int i = 0; i < g->first_scored; i++)
        g->scores[i] = TRAIN_NO_SCORE;
    for (int i = g->first_scored; i < g->plies; i++, p += 2)
        g->scores[i] = (int16_t)get16(p);
    return TRAIN_OK;
}

bool train_game_start(const TrainGame *g, Position *pos, char *err, size_t err_size)
{
    if (!position_from_fen(pos, g->standard_start ? START_FEN : g->fen, err, err_size, NULL))
        return false;
    position_set_chess960(pos, g->chess960);
    return true;
}

int train_game_replay(const TrainGame *g, TrainVisit visit, void *ctx)
{
    static _Thread_local Position pos;
    char err[128];
    if (!train_game_start(g, &pos, err, sizeof err))
        return 0;
    MoveCodeTracker tracker;
    movecode_tracker_init(&tracker, &pos);
    bool visiting = true;
    for (int i = 0; i < g->plies; i++) {
        Move m = movecode_decode_tracked(&tracker, &pos, g->codes[i]);
        if (m == MOVE_NONE)
            return i;
        if (visiting && i >= g->first_scored && g->scores[i] != TRAIN_NO_SCORE)
            visiting = visit(ctx, &pos, g->scores[i], g->result);
        movecode_tracker_update(&tracker, &pos, m);
        make_move(&pos, m);
        position_bound_history(&pos, 16);
    }
    return g->plies;
}
