/* The tuner's training set: labelled EPD positions (c2 "1.0" / "0.5" / "0.0", as
 * pgnselect writes them), each replaced by the packed trace of its quiet leaf (quiet_leaf.h,
 * coeffs.h) under the live weights. The leaves can be recomputed after the weights
 * change (tuner -R). */
#ifndef SAAVEDRA_DATASET_H
#define SAAVEDRA_DATASET_H

#include <stddef.h>
#include <stdio.h>

#include "tune/coeffs.h"

typedef struct {
    /* The labelled positions as read. */
    char *text;              /* FENs, NUL-separated */
    size_t text_used, text_capacity;
    size_t *fen_offset;
    float *label;
    long count, capacity;
    long read_errors;        /* lines that were neither a position with a result nor blank */
    /* The packed leaves of the positions that have one (mates have none). */
    TunePos *pos;
    long packed;
    TuneCoef *pool;
    size_t pool_used;
    long mates;              /* positions dropped because the search found a mate */
    uint64_t nodes;          /* quiescence nodes of the last build */
} TuneSet;

void tune_set_init(TuneSet *set);
void tune_set_free(TuneSet *set);

/* Reads labelled EPD lines from a file (at most max_positions in all; 0 = no limit).
 * Bad lines are reported on err_out (at most 10 per file, then a count) and skipped.
 * Returns false when the file cannot be read. */
bool tune_set_read(TuneSet *set, const char *path, long max_positions, FILE *err_out);
/* Adds one position (for tests and synthetic sets). */
bool tune_set_add(TuneSet *set, const char *fen, float label);

/* (Re)computes every leaf and its trace under the live weights (eval_set_params), with
 * `threads` threads. Returns false when memory runs out. */
bool tune_set_build(TuneSet *set, int threads);

#endif
