/* One self-play game at a fixed node count: the loop behind the self-play tools (selfplay
 * writes PGN for the tuner, datagen writes training data for the neural evaluation).
 * Each search runs on one thread with a node limit after a fresh hash table and fresh
 * histories, so a game depends only on its start and its opening moves. */
#ifndef SAAVEDRA_SELFGAME_H
#define SAAVEDRA_SELFGAME_H

#include <stdint.h>

#include "engine/engine.h"

#define SELFGAME_MAX_PLIES 600

typedef struct {
    uint64_t nodes;        /* nodes per move */
    int max_opening_score; /* the first search's |score| above this rejects the game (0: none) */
} SelfGameConfig;

typedef struct {
    char start_fen[128];   /* where moves[0] is played */
    int opening_plies;     /* moves[0 .. opening_plies) were given, not searched */
    int plies;
    Move moves[SELFGAME_MAX_PLIES];
    /* For searched moves (i >= opening_plies): the search's score from the side to move's
     * view, and whether the position is quiet for training: not in check, the move found
     * neither a capture nor a promotion. */
    int16_t score[SELFGAME_MAX_PLIES];
    bool quiet[SELFGAME_MAX_PLIES];
    int result;            /* 1 White won, 0 draw, -1 Black won */
    const char *reason;    /* "mate", "adjudicated win", "repetition", ... */
} SelfGame;

/* Plays from start_fen after the given opening moves (all must be legal,
 * else false with err). Games end by the rules, by adjudication when both sides agree on
 * a score of 10 pawns or more for 8 plies (a win) or within 0.05 for 40 plies after ply
 * 160 (a draw), or as a draw at SELFGAME_MAX_PLIES. Returns false when the game is
 * rejected (opening score, or a failure in err; err[0] is then '\0' for a rejection). */
bool selfgame_play(Engine *e, const SelfGameConfig *cfg, const char *start_fen, const Move *opening,
                   int opening_plies, SelfGame *out, char *err, size_t err_size);

#endif
