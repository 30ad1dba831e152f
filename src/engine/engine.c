/* Engine controller: see engine.h. This file holds the Engine's lifetime, the warnings it
 * keeps for the protocol and the game; the option hooks are engine_options.c, starting and
 * stopping searches engine_go.c, the struct they share engine_internal.h. Searches, book
 * moves and perft run on thread 0 of the thread pool through engine/main_thread.c; the
 * book is engine/ownbook.c, the position with its history and opening engine/game.c. */
#include "engine/engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine_internal.h"
#include "engine/game.h"
#include "engine/main_thread.h"
#include "engine/ownbook.h"
#include "learning/learner.h"
#include "search/transposition.h"
#include "tablebase/syzygy.h"

/* A warning for the protocol to show; the same one twice in a row (a learning file that
 * cannot be written, at every game end) is shown once. */
void engine_add_message(Engine *e, const char *msg)
{
    if (!msg[0])
        return;
    pthread_mutex_lock(&e->message_lock);
    if (strcmp(msg, e->last_message) != 0 && e->message_count < 4) {
        snprintf(e->messages[e->message_count++], sizeof e->messages[0], "%s", msg);
        snprintf(e->last_message, sizeof e->last_message, "%s", msg);
    }
    pthread_mutex_unlock(&e->message_lock);
}

bool engine_take_message(Engine *e, char *out, size_t out_size)
{
    pthread_mutex_lock(&e->message_lock);
    bool any = e->message_count > 0;
    if (any) {
        snprintf(out, out_size, "%s", e->messages[0]);
        memmove(e->messages[0], e->messages[1], sizeof e->messages[0] * 3);
        e->message_count--;
    }
    pthread_mutex_unlock(&e->message_lock);
    return any;
}

Engine *engine_new(void)
{
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    if (!tt_init(&e->tt, ENGINE_DEFAULT_HASH_MB) || !runner_init(&e->run)
        || !(e->learner = learner_new())) {
        if (e->run.pool)
            runner_free(&e->run);
        tt_free(&e->tt);
        free(e);
        return NULL;
    }
    pthread_mutex_init(&e->message_lock, NULL);
    ownbook_init(&e->book, e->run.shared.seed ^ 0xB00C);
    char err[160];
    e->builtin_net = network_default(err, sizeof err);
    engine_options_init(e);
    const EcoTable *eco_table = eco_builtin(err, sizeof err);
    game_init(&e->game, eco_table);
    return e;
}

void engine_free(Engine *e)
{
    if (!e)
        return;
    engine_stop(e);
    engine_wait(e);
    if (e->tb_loaded)
        syzygy_load("", NULL, 0); /* the next engine of this process starts without them */
    runner_free(&e->run);
    learner_free(e->learner);
    ownbook_close(&e->book);
    network_free(e->file_net);
    network_free(e->builtin_net);
    tt_free(&e->tt);
    pthread_mutex_destroy(&e->message_lock);
    free(e);
}

void engine_new_game(Engine *e)
{
    engine_stop(e);
    engine_wait(e);
    tt_clear(&e->tt, (int)option_int(&e->options, OPT_THREADS));
    runner_clear(&e->run);
    game_new(&e->game, option_bool(&e->options, OPT_UCI_CHESS960));
    learner_new_game(e->learner);
    char msg[700];
    learner_load_into(e->learner, &e->tt, msg, sizeof msg);
    engine_add_message(e, msg);
    e->learn_reload = false;
}

void engine_game_over(Engine *e, int result)
{
    engine_stop(e);
    engine_wait(e);
    char msg[700];
    learner_game_over(e->learner, result, msg, sizeof msg);
    engine_add_message(e, msg);
}

bool engine_set_position(Engine *e, const char *fen, const char *const *moves, int move_count,
                         char *err, size_t err_size)
{
    /* The last search's thread may still be sending its move (which reads the game's
     * position) and writing what it learned: it ends before the game changes. */
    engine_wait(e);
    Move *list = malloc(((size_t)move_count + 1) * sizeof *list); /* for the game record */
    if (!game_set(&e->game, fen, moves, move_count, option_bool(&e->options, OPT_UCI_CHESS960),
                  list, err, err_size)) {
        free(list);
        return false;
    }
    if (list) {
        char msg[700];
        learner_set_game(e->learner, fen, list, move_count, msg, sizeof msg);
        engine_add_message(e, msg);
        free(list);
    }
    return true;
}

void engine_restore_position(Engine *e, const Position *saved)
{
    game_restore(&e->game, saved);
}

bool engine_make_move(Engine *e, Move m)
{
    if (!game_make_move(&e->game, m))
        return false;
    learner_push(e->learner, m);
    return true;
}

bool engine_undo_move(Engine *e)
{
    if (!game_undo_move(&e->game))
        return false;
    learner_pop(e->learner);
    return true;
}

const Position *engine_position(const Engine *e)
{
    return &e->game.pos;
}

const EcoEntry *engine_opening(const Engine *e, const EcoEntry **here)
{
    return game_opening(&e->game, here);
}

void engine_set_opponent(Engine *e, const OpponentInfo *opp, int own_rating)
{
    if (opp)
        e->opponent = *opp;
    else
        memset(&e->opponent, 0, sizeof e->opponent);
    e->own_rating = own_rating;
}

int engine_contempt(const Engine *e)
{
    if (option_bool(&e->options, OPT_UCI_ANALYSE_MODE))
        return 0;
    int own = e->own_rating;
    if (!own && option_bool(&e->options, OPT_UCI_LIMIT_STRENGTH))
        own = (int)option_int(&e->options, OPT_UCI_ELO);
    return contempt_for_opponent((int)option_int(&e->options, OPT_CONTEMPT), own, &e->opponent);
}

int engine_book_moves(Engine *e, BookMove *out, int max, char *warn, size_t warn_size)
{
    return ownbook_moves(&e->book, &e->options, e->learner, &e->game.pos, out, max, warn,
                         warn_size);
}
