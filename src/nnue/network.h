/* The neural evaluation's network (docs/nnue-format.md): 768 piece-square inputs per
 * perspective, a feature transformer to NNUE_HIDDEN int16 neurons per perspective, the
 * two perspectives (side to move first) through a squared clipped ReLU into one output
 * per material bucket. A net's input mapping says how a perspective sees the board: as
 * it is (plain), or mirrored a<->h whenever that perspective's king stands on files
 * e-h (HM), so that each perspective sees its king on files a-d.
 *
 * A Network is read once (from the net built into the binary or from a file), checked
 * whole, and then only read: any number of search threads may share it. */
#ifndef SAAVEDRA_NETWORK_H
#define SAAVEDRA_NETWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NNUE_INPUTS 768
/* The shape; a build for experiments may set others (EXTRA_CFLAGS=-DNNUE_HIDDEN=128), and
 * then reads and writes only nets of that shape. NNUE_HIDDEN must be a multiple of 32. */
#ifndef NNUE_HIDDEN
#define NNUE_HIDDEN 256
#endif
#ifndef NNUE_BUCKETS
#define NNUE_BUCKETS 8
#endif
/* Quantisation: the feature transformer's weights and biases are scaled by NNUE_QA
 * (its activations clip at NNUE_QA), the output weights by NNUE_QB; the output times
 * NNUE_SCALE is centipawns. */
#define NNUE_QA 255
#define NNUE_QB 64
#define NNUE_SCALE 400

#define NNUE_MAGIC "SVNNUE\r\n"
/* Version 1 has no input mapping (plain); version 2 adds it to the header. Plain nets
 * are written as version 1, which every engine that reads nets reads. */
#define NNUE_VERSION 1
#define NNUE_VERSION_MAPPING 2
#define NNUE_HEADER_SIZE 36
#define NNUE_FILE_SIZE (NNUE_HEADER_SIZE + 2 * (NNUE_INPUTS * NNUE_HIDDEN + NNUE_HIDDEN) \
                        + 2 * NNUE_BUCKETS * 2 * NNUE_HIDDEN + 4 * NNUE_BUCKETS + 4)
#define NNUE_FILE_SIZE_V2 (NNUE_FILE_SIZE + 4)
#define NNUE_FILE_MAX NNUE_FILE_SIZE_V2

typedef enum {
    NNUE_MAP_PLAIN = 0,     /* squares as they are (Black's flipped vertically) */
    NNUE_MAP_HM = 1,        /* and mirrored a<->h for a perspective whose king is on e-h */
    NNUE_MAP_COUNT
} NnueMapping;

typedef struct {
    _Alignas(64) int16_t ft_weights[NNUE_INPUTS][NNUE_HIDDEN];
    _Alignas(64) int16_t ft_bias[NNUE_HIDDEN];
    /* Per bucket: the side to move's NNUE_HIDDEN weights, then the other side's. */
    _Alignas(64) int16_t out_weights[NNUE_BUCKETS][2 * NNUE_HIDDEN];
    int32_t out_bias[NNUE_BUCKETS];
    uint32_t id;          /* the file's CRC-32: names the net in messages and data */
    NnueMapping mapping;
} Network;

/* Checks and reads a net from bytes; NULL with a one-line reason in err when they are
 * not a net of this architecture. The result is freed with network_free. */
Network *network_from_bytes(const void *bytes, size_t size, char *err, size_t err_size);
/* The same from a file (a regular file of exactly a net's size). */
Network *network_load(const char *path, char *err, size_t err_size);
void network_free(Network *net);

/* The net built into the binary; NULL when the build embedded none (err says why). */
Network *network_default(char *err, size_t err_size);
/* The built-in net's checksum (the CRC-32 its file ends with), its identity in
 * --version; false when the engine was built without a net. */
bool network_default_crc(uint32_t *crc);

/* Writes net to out (at least NNUE_FILE_MAX bytes) and returns the file's size:
 * NNUE_FILE_SIZE for a plain net (version 1), NNUE_FILE_SIZE_V2 for others. The trainer's
 * output goes through here. */
size_t network_to_bytes(const Network *net, uint8_t *out);

/* What a perspective whose king stands on king_sq xors its squares with: 7 (files a<->h)
 * for an HM net when the king is on files e-h, else 0. */
static inline int nnue_flip(NnueMapping mapping, int king_sq)
{
    return mapping == NNUE_MAP_HM && (king_sq & 4) ? 7 : 0;
}

/* The feature index of a piece of colour pc_color and type pt on sq, seen from
 * perspective with its flip (nnue_flip): own pieces first, squares mirrored vertically
 * for Black. */
static inline int nnue_feature(int perspective, int pc_color, int pt, int sq, int flip)
{
    return ((pc_color != perspective) * 6 + pt) * 64 + ((perspective ? sq ^ 56 : sq) ^ flip);
}

/* The output bucket of a position with this many pieces (kings included). */
static inline int nnue_bucket(int piece_count)
{
    return NNUE_BUCKETS == 1 ? 0 : (piece_count - 2) * NNUE_BUCKETS / 31;
}

#endif
