/* Loader for the perft files in tests/data ("FEN ;D1 n ;D2 n ..."), shared by the perft,
 * position and notation tests. */
#ifndef SAAVEDRA_TESTS_PERFT_DATA_H
#define SAAVEDRA_TESTS_PERFT_DATA_H

#include <stdint.h>

#define PERFT_MAX_DEPTHS 16

typedef struct {
    char fen[128];
    int depth_count;
    int depth[PERFT_MAX_DEPTHS];      /* ascending, as listed */
    uint64_t nodes[PERFT_MAX_DEPTHS];
} PerftEntry;

/* Reads tests/data/<name>. Returns the number of entries (*out is malloc'ed, free it) or
 * -1 after reporting a test failure when the file is missing or a line is malformed. */
int perft_data_load(const char *name, PerftEntry **out);

#endif
