/* Private to src/engine/engine*.c: the Engine object's definition and what its three
 * files share. engine.c holds its lifetime, the warnings for the protocol and the game;
 * engine_options.c the option hooks; engine_go.c starting and stopping searches. Every
 * other file sees the Engine only through engine.h. This header leaves engine.h out
 * (engine.c includes both, and a module may not include one that includes it back). */
#ifndef SAAVEDRA_ENGINE_INTERNAL_H
#define SAAVEDRA_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>

#include "engine/game.h"
#include "engine/main_thread.h"
#include "engine/ownbook.h"
#include "learning/learner.h"
#include "nnue/network.h"
#include "search/strength.h"
#include "search/timeman.h"
#include "search/transposition.h"
#include "util/options.h"

struct Engine {
    Game game;        /* the position with its history, and the opening */
    TranspositionTable tt;
    Options options;
    Runner run;       /* thread 0's jobs: search, book move, perft */
    OwnBook book;
    OpponentInfo opponent;
    int own_rating;
    bool tb_loaded;   /* this engine loaded the (process-wide) tablebases */
    Learner *learner;
    Network *builtin_net;         /* the net built into the binary (NULL: none) */
    Network *file_net;            /* EvalFile's net (NULL: the built-in one) */
    bool learn_reload;            /* the TT lacks the learned positions (start-up, cleared) */
    SearchLimits learned_limits;  /* a go's limits with what result learning adds */
    char messages[4][700];        /* warnings for the protocol (engine_take_message) */
    char last_message[700];
    int message_count;
    pthread_mutex_t message_lock;
};

/* Queues a warning for engine_take_message ("" is none; engine.c). */
void engine_add_message(struct Engine *e, const char *msg);

/* Builds e->options from option_table.h (e->builtin_net already set, for Use NNUE's
 * default) and applies the learning options' defaults to the learner
 * (engine_options.c). */
void engine_options_init(struct Engine *e);

#endif
