/* The engine controller that every protocol drives: it owns the game position (with its
 * move history, for repetitions), the transposition table, the options and the search
 * thread. A search runs on a background thread so that the protocol loop keeps reading
 * commands (stop, isready, ponderhit) while it thinks. */
#ifndef SAAVEDRA_ENGINE_H
#define SAAVEDRA_ENGINE_H

#include <stddef.h>
#include <stdio.h>

#include "engine/option_table.h"
#include "opening/book.h"
#include "opening/eco.h"
#include "util/options.h"
#include "util/version.h"
#include "util/writer.h"
#include "search/search.h"
#include "search/strength.h"
#include "search/timeman.h"

#define ENGINE_NAME "Saavedra"
#define ENGINE_AUTHOR "the Saavedra developers"
#define ENGINE_VERSION version_string()
#define ENGINE_DEFAULT_HASH_MB 16

typedef struct Engine Engine;

/* NULL if memory for the default hash table cannot be had. */
Engine *engine_new(void);
void engine_free(Engine *e);

/* The options, indexed by EngineOption (option_table.h). */
Options *engine_options(Engine *e);
/* Sets an option by its name as a GUI gives it (stops nothing: options that cannot
 * change during a search are refused with a message while one runs). */
bool engine_set_option(Engine *e, const char *name, const char *value, OptionSource source,
                       char *err, size_t err_size);
/* The same for the code's own settings. */
bool engine_set_option_id(Engine *e, EngineOption id, const char *value, OptionSource source,
                          char *err, size_t err_size);

/* Forgets the game: start position, empty hash table and histories; the learned
 * positions are loaded into the table again. */
void engine_new_game(Engine *e);
/* The game the engine has seen ended: result is a LearnResult (learnrec.h: 0 unknown,
 * 1 White won, 2 Black won, 3 draw) or -1 to infer it from the board and the engine's
 * scores (learner.h). With learning on, it goes to the learning file once. */
void engine_game_over(Engine *e, int result);
/* Takes the oldest warning the engine has for the user (learning file trouble); false
 * when there is none. Protocols show them after each command. */
bool engine_take_message(Engine *e, char *out, size_t out_size);
/* fen NULL means the start position; moves in UCI notation. On failure nothing changes
 * and err says which part was wrong. Must not be called during a search. */
bool engine_set_position(Engine *e, const char *fen, const char *const *moves, int move_count,
                         char *err, size_t err_size);
/* Puts back a game position copied earlier from engine_position (with its history), as
 * after a command that borrowed the engine. Must not be called during a search. */
void engine_restore_position(Engine *e, const Position *saved);
/* Plays one legal move on the game position (false if illegal). */
bool engine_make_move(Engine *e, Move m);
/* Takes back the last move of the game, if the history still has it. */
bool engine_undo_move(Engine *e);
const Position *engine_position(const Engine *e);
/* The game's opening (docs/eco.md): the classification of the deepest known position
 * reached, NULL if none; *here (if not NULL) gets the current position's own entry, NULL
 * when it is not in the ECO table. */
const EcoEntry *engine_opening(const Engine *e, const EcoEntry **here);

/* Starts a search of the game position. Fails (with err) while another one runs. */
bool engine_go(Engine *e, const SearchLimits *limits, const SearchReporter *reporter,
               char *err, size_t err_size);
/* Starts a search of the game position and nothing else: unlike engine_go it asks neither
 * the book nor the learner, whatever the options say, and no learner hears the search.
 * For the programs that play games by search alone (toolkit/selfgame.c: selfplay,
 * datagen). Fails (with err) while another search runs; reporter may be NULL. */
bool engine_search(Engine *e, const SearchLimits *limits, const SearchReporter *reporter,
                   char *err, size_t err_size);
/* Counts the move paths of the game position to depth (perft, printed to out as
 * perft_divide does) on the search thread, so that the protocol loop keeps answering:
 * engine_stop, engine_wait and engine_is_searching apply to it as to a search (no best
 * move is reported). Fails (with err) while a search or perft runs. */
bool engine_perft(Engine *e, int depth, Writer *out, char *err, size_t err_size);
/* Whether what runs on the search thread is a perft (bounded work that a script piping
 * commands expects to finish: the protocols wait for it where they stop a search). */
bool engine_perft_running(Engine *e);
/* Ends the search as soon as possible; the best move is then reported. */
void engine_stop(Engine *e);
/* The opponent played the expected move: the ponder search becomes a normal one. */
void engine_ponderhit(Engine *e);
/* Waits until the current search (if any) has reported its best move. */
void engine_wait(Engine *e);
bool engine_is_searching(Engine *e);
/* Parallel-search counters summed over the threads since the last reset (read them
 * between searches). */
void engine_smp_stats(Engine *e, SplitStats *sum, bool reset);

/* The net the engine evaluates with when "Use NNUE" is on: EvalFile's, else the one
 * built into the binary; NULL when there is neither. */
const Network *engine_net(const Engine *e);

/* Result of the last finished search. */
SearchResult engine_last_result(Engine *e);

/* The book moves of the game position (best weight first; 0 when no book can be read,
 * with the reason in warn the first time, else warn ""). engine_go plays from the book
 * itself when OwnBook is on: a book move is reported through on_book, then on_bestmove
 * like a searched one, only for a game move on a clock (ownbook_may_answer: never when
 * the limits hold a depth, nodes, mate, movetime, infinite, ponder or searchmoves, nor in
 * UCI_AnalyseMode, nor past Book Depth plies). A learned replay (learner.h) answers the
 * same goes, with OwnBook or Replay Without Book on. */
int engine_book_moves(Engine *e, BookMove *out, int max, char *warn, size_t warn_size);

/* Opponent and own rating for contempt (own_rating 0: unknown). */
void engine_set_opponent(Engine *e, const OpponentInfo *opp, int own_rating);
/* The draw penalty the next search will use. */
int engine_contempt(const Engine *e);

#endif
