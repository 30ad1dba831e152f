/* Training positions for the net trainer: the scored positions of training-data files
 * (formats/traindata.h) unpacked once into a compact array in memory, with a held-out
 * share of whole games for validation. */
#ifndef SAAVEDRA_NNUE_DATA_H
#define SAAVEDRA_NNUE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board/position.h"
#include "nnue/network.h"

/* One position: its pieces (4 bits each, in square order of occ) and its labels. */
typedef struct {
    uint64_t occ;
    uint8_t pieces[16];
    int16_t score;      /* the search score, side to move's point of view, centipawns */
    uint8_t result;     /* the game's result for the side to move: 0 lost, 1 draw, 2 won */
    uint8_t stm;        /* the side to move (WHITE, BLACK) */
    uint8_t mirrored;   /* seen with files a-h swapped (training augmentation) */
} PackedPos;

typedef struct {
    PackedPos *pos;
    size_t count, capacity;
} PosSet;

typedef struct {
    PosSet train, valid;
    uint64_t games, files, damaged; /* read; records or files refused (reported on stderr) */
} NnueData;

void posset_free(PosSet *s);
bool posset_add(PosSet *s, const Position *pos, int score_stm, int result_stm);

/* Reads every *.svt file of each folder of dirs, a list separated by ':' (or the one file
 * an entry names), in that order. Games whose index hashes below valid_share (0..1) go to
 * validation. At most max_positions are kept (0: all). False (with err) when nothing can
 * be read. */
bool nnue_data_load(const char *dirs, double valid_share, size_t max_positions, NnueData *out,
                    char *err, size_t err_size);
void nnue_data_free(NnueData *d);

/* The position of a packed record: its pieces and side to move, no castling rights or
 * en-passant square (which the record does not keep). False if it is not a legal board. */
bool packed_position(const PackedPos *p, Position *pos);

/* The features of p from each perspective (nnue_feature) in the input mapping, of the
 * board mirrored a<->h when p->mirrored; returns the piece count. With the HM mapping
 * the mirror changes no feature: each perspective's view already has its king on a-d. */
int packed_features(const PackedPos *p, NnueMapping mapping, int us[32], int them[32]);

#endif
