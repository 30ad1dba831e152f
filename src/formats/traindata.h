/* Training data for the neural evaluation: self-play games stored with the one-byte move
 * code, a 16-bit search score per position and the game's result (docs/training-data.md).
 *
 * A file is a 48-byte header followed by game records. A game is its start position (the
 * standard one, or a FEN), its moves as move codes, and the scores of the positions from
 * which the engine searched (a position that is not a training position has the score
 * TRAIN_NO_SCORE). Each record carries its length and a CRC-32, so a reader can step over
 * a damaged record and a torn last record is recognised as such. */
#ifndef SAAVEDRA_TRAINDATA_H
#define SAAVEDRA_TRAINDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board/position.h"

#define TRAIN_MAGIC "SVTRAIN\x1a"
#define TRAIN_VERSION 1
#define TRAIN_HEADER_SIZE 48
#define TRAIN_MAX_PLIES 1000
#define TRAIN_NO_SCORE INT16_MIN
/* The largest record: length field, flags, FEN, result, counts, codes, scores, CRC. */
#define TRAIN_RECORD_MAX (2 + 1 + 1 + 127 + 1 + 2 + 2 + 3 * TRAIN_MAX_PLIES + 4)

/* Game results, White's point of view. */
enum { TRAIN_BLACK_WON = 0, TRAIN_DRAW = 1, TRAIN_WHITE_WON = 2 };

typedef struct {
    uint32_t nodes;       /* nodes searched per move */
    uint64_t seed;        /* the generator's seed */
    uint64_t first_game;  /* index of the file's first game under that seed */
    uint32_t games;       /* games in the file */
    uint32_t eval_id;     /* what scored the positions: 0 hand-written, else a net's id */
} TrainHeader;

typedef struct {
    bool standard_start;  /* the standard start position; else fen */
    bool chess960;
    char fen[128];
    int result;           /* TRAIN_BLACK_WON, TRAIN_DRAW or TRAIN_WHITE_WON */
    int plies;            /* moves in codes[] */
    int first_scored;     /* moves before it are the opening: no scores */
    uint8_t codes[TRAIN_MAX_PLIES];
    /* scores[i]: the position before move i, White's point of view, centipawns, for
     * first_scored <= i < plies; TRAIN_NO_SCORE when it is not a training position. */
    int16_t scores[TRAIN_MAX_PLIES];
} TrainGame;

/* The header as bytes (TRAIN_HEADER_SIZE) and back; false when the bytes are not a
 * training-data header of this version (bad magic, version or checksum). */
void train_header_encode(const TrainHeader *h, uint8_t *out);
bool train_header_decode(const uint8_t *in, TrainHeader *h, char *err, size_t err_size);

/* Writes g as a record into out (at least TRAIN_RECORD_MAX bytes); returns its size, or
 * 0 when g cannot be stored (too many plies, a FEN too long, scores out of place). */
size_t train_game_encode(const TrainGame *g, uint8_t *out);

typedef enum { TRAIN_OK, TRAIN_TORN, TRAIN_DAMAGED } TrainStatus;
/* Reads the record at in (size bytes available). TRAIN_OK: *used is its size. TRAIN_TORN:
 * the bytes end inside the record (a torn last append). TRAIN_DAMAGED: the record's
 * length is readable (*used) but its contents are not (checksum, counts); a reader may
 * step over it. */
TrainStatus train_game_decode(const uint8_t *in, size_t size, TrainGame *g, size_t *used, char *err,
                              size_t err_size);

/* The start position of g into *pos; false (with err) when its FEN is not valid. */
bool train_game_start(const TrainGame *g, Position *pos, char *err, size_t err_size);

/* Calls visit for every scored position of g (score White's point of view), in game
 * order; pos is the position itself (with its history). Stops early when visit returns
 * false. Returns the number of moves replayed: g->plies, or fewer when a code names no
 * legal move (damaged data). */
typedef bool (*TrainVisit)(void *ctx, const Position *pos, int score, int result);
int train_game_replay(const TrainGame *g, TrainVisit visit, void *ctx);

#endif
