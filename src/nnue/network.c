/* Reading, checking and writing nets (network.h, docs/nnue-format.md). */
#include "nnue/network.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/crc32.h"
#include "util/platform.h"

static uint32_t get32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}
static int16_t get16s(const uint8_t *p) { return (int16_t)(p[0] | p[1] << 8); }
static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16),
    p[3] = (uint8_t)(v >> 24);
}
static void put16(uint8_t *p, int16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)((uint16_t)v >> 8); }

/* The header after the version: inputs, hidden, buckets, QA, QB, SCALE. */
static const uint32_t SHAPE[6] = { NNUE_INPUTS, NNUE_HIDDEN, NNUE_BUCKETS, NNUE_QA, NNUE_QB,
                                   NNUE_SCALE };

Network *network_from_bytes(const void *bytes, size_t size, char *err, size_t err_size)
{
    const uint8_t *b = bytes;
    if (size < NNUE_HEADER_SIZE || memcmp(b, NNUE_MAGIC, 8)) {
        snprintf(err, err_size, "not a Saavedra net");
        return NULL;
    }
    uint32_t version = get32(b + 8);
    bool shape = version == NNUE_VERSION || version == NNUE_VERSION_MAPPING;
    for (int i = 0; i < 6; i++)
        shape = shape && get32(b + 12 + 4 * i) == SHAPE[i];
    if (!shape) {
        snprintf(err, err_size,
                 "a net of another architecture (version %u, %u inputs, %u hidden, %u buckets); "
                 "this engine reads versions %d and %d, %d-%d-%d",
                 version, get32(b + 12), get32(b + 16), get32(b + 20), NNUE_VERSION,
                 NNUE_VERSION_MAPPING, NNUE_INPUTS, NNUE_HIDDEN, NNUE_BUCKETS);
        return NULL;
    }
    bool v2 = version == NNUE_VERSION_MAPPING;
    size_t header = NNUE_HEADER_SIZE + (v2 ? 4 : 0),
           expected = v2 ? NNUE_FILE_SIZE_V2 : NNUE_FILE_SIZE;
    if (size != expected) {
        snprintf(err, err_size,
                 "a net of %zu bytes where %zu are expected (cut short or with extra bytes)", size,
                 expected);
        return NULL;
    }
    uint32_t crc = crc32_of(b, size - 4);
    if (crc != get32(b + size - 4)) {
        snprintf(err, err_size, "a damaged net (checksum)");
        return NULL;
    }
    uint32_t mapping = v2 ? get32(b + NNUE_HEADER_SIZE) : NNUE_MAP_PLAIN;
    if (mapping >= NNUE_MAP_COUNT) {
        snprintf(err, err_size, "a net with an input mapping this engine does not know (%u)",
                 mapping);
        return NULL;
    }
    Network *net = pf_aligned_alloc(64, sizeof *net);
    if (!net) {
        snprintf(err, err_size, "out of memory for the net");
        return NULL;
    }
    const uint8_t *p = b + header;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_HIDDEN; i++, p += 2)
            net->ft_weights[f][i] = get16s(p);
    for (int i = 0; i < NNUE_HIDDEN; i++, p += 2)
        net->ft_bias[i] = get16s(p);
    for (int k = 0; k < NNUE_BUCKETS; k++)
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++, p += 2)
            net->out_weights[k][i] = get16s(p);
    for (int k = 0; k < NNUE_BUCKETS; k++, p += 4)
        net->out_bias[k] = (int32_t)get32(p);
    /* The output layer multiplies clipped activations (at most NNUE_QA) by these weights
     * in 16 bits. */
    for (int k = 0; k < NNUE_BUCKETS; k++)
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++)
            if (net->out_weights[k][i] < -128 || net->out_weights[k][i] > 127) {
                snprintf(err, err_size, "a net with an output weight out of range (%d)",
                         net->out_weights[k][i]);
                pf_aligned_free(net);
                return NULL;
            }
    net->id = crc;
    net->mapping = (NnueMapping)mapping;
    return net;
}

size_t network_to_bytes(const Network *net, uint8_t *out)
{
    bool plain = net->mapping == NNUE_MAP_PLAIN;
    memcpy(out, NNUE_MAGIC, 8);
    put32(out + 8, plain ? NNUE_VERSION : NNUE_VERSION_MAPPING);
    for (int i = 0; i < 6; i++)
        put32(out + 12 + 4 * i, SHAPE[i]);
    uint8_t *p = out + NNUE_HEADER_SIZE;
    if (!plain) {
        put32(p, (uint32_t)net->mapping);
        p += 4;
    }
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_HIDDEN; i++, p += 2)
            put16(p, net->ft_weights[f][i]);
    for (int i = 0; i < NNUE_HIDDEN; i++, p += 2)
        put16(p, net->ft_bias[i]);
    for (int k = 0; k < NNUE_BUCKETS; k++)
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++, p += 2)
            put16(p, net->out_weights[k][i]);
    for (int k = 0; k < NNUE_BUCKETS; k++, p += 4)
        put32(p, (uint32_t)net->out_bias[k]);
    put32(p, crc32_of(out, (size_t)(p - out)));
    return (size_t)(p + 4 - out);
}

Network *network_load(const char *path, char *err, size_t err_size)
{
    /* Non-blocking, so that a FIFO cannot hang the engine; only a regular file of the
     * right size is read. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        snprintf(err, err_size, "%s is not a regular file", path);
        return NULL;
    }
    if (st.st_size != NNUE_FILE_SIZE && st.st_size != NNUE_FILE_SIZE_V2) {
        close(fd);
        snprintf(err, err_size,
                 "%s: %lld bytes, a net of this engine has %d (or %d with an input mapping)", path,
                 (long long)st.st_size, NNUE_FILE_SIZE, NNUE_FILE_SIZE_V2);
        return NULL;
    }
    size_t size = (size_t)st.st_size, got = 0;
    uint8_t *buf = malloc(size);
    while (buf && got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (!buf || got != size) {
        free(buf);
        snprintf(err, err_size, "cannot read %s", path);
        return NULL;
    }
    char why[200];
    Network *net = network_from_bytes(buf, got, why, sizeof why);
    free(buf);
    if (!net)
        snprintf(err, err_size, "%s: %s", path, why);
    return net;
}

void network_free(Network *net)
{
    pf_aligned_free(net);
}
