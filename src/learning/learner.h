/* What the engine learns from its games (docs/learning-format.md), between the engine
 * controller and the learning file (learning/learnfile.h):
 *
 * - the game record: the start position and every move of the game the engine is in,
 *   kept as the protocols set positions and make or take back moves (engine.c calls
 *   learner_set_game / learner_push / learner_pop), with the sides the engine searched
 *   for and its last scores;
 * - game records: learner_game_over appends the finished game (result given by xboard,
 *   or inferred: see learner_infer_result) to the learning file, with fsync;
 * - position learning: after a search whose last complete iteration (at depth
 *   LEARN_MIN_DEPTH or more) scores more than the threshold away from the score of the
 *   engine's previous own search two plies earlier, the root position (best move, score,
 *   depth) and the position after its best move are appended to the file;
 * - learned positions are loaded into the transposition table (learner_load_into) at
 *   start-up and each new game, protected for the search that follows;
 * - book learning (booklearn.h): the engine's own book moves (learner_book_played) get
 *   the game's result appended at its end (B records); learner_book_adjust merges the
 *   learned results into a probe's moves before the book chooses;
 * - result learning (resultlearn.h, when learner_set_results turned it on): the games'
 *   results counted for each own move of the file's games, loaded with the positions;
 *   learner_result_advice says which move to play again and which count less.
 *
 * Threads: learner_on_iteration and learner_search_done run on the search thread while
 * the protocol thread waits for the search (engine_go.c); learner_flush runs on the search
 * thread after the best move went out, and every other call that touches the file is
 * made only after the engine has joined that thread. */
#ifndef SAAVEDRA_LEARNER_H
#define SAAVEDRA_LEARNER_H

#include <stdbool.h>
#include <stddef.h>

#include "board/position.h"
#include "learning/booklearn.h"
#include "learning/resultlearn.h"
#include "opening/book.h"
#include "learning/learnfile.h"
#include "search/search.h"
#include "search/transposition.h"

#define LEARN_DEFAULT_FILE "saavedra.lrn"
#define LEARN_DEFAULT_THRESHOLD 150
/* Position learning looks at complete iterations of at least this depth. */
#define LEARN_MIN_DEPTH 10
/* UCI results inferred from scores: the engine's last two own scores both at least this
 * far from 0 (centipawns) decide a game that did not end on the board. */
#define LEARN_DECISIVE_CP 500
/* Result learning: what a move that lost here (and never won) counts less than its
 * score in the search, in centipawns. Enough to choose another of moves that score
 * alike, too little to leave out a move that is clearly best (a recapture). */
#ifndef LEARN_RESULT_PENALTY
/* EXTRA_CFLAGS=-DLEARN_RESULT_PENALTY=N builds another size to measure */
#define LEARN_RESULT_PENALTY 50
#endif
/* Compaction runs when a game end finds the file larger than this; its limits. */
#define LEARN_COMPACT_BYTES (6u << 20)
#define LEARN_MAX_POSITIONS 200000
#define LEARN_MAX_GAMES 5000
#define LEARN_MAX_BOOK 50000

typedef struct Learner Learner;

Learner *learner_new(void);
void learner_free(Learner *l);

/* Where the learning file named name is: an absolute name as it is ("" = none); a
 * relative one beside the executable, unless that folder cannot be written (an
 * installed engine in /usr/local/bin) and the file is not already there: then in
 * $XDG_DATA_HOME/saavedra (default ~/.local/share/saavedra), created when missing. Never
 * the working directory. False when the executable's folder is unknown. */
bool learner_resolve_path(const char *name, char *out, size_t out_size);

/* Learning on or off, the file (already resolved to a full path; "" = none) and the
 * threshold in centipawns. A new path is loaded by the next learner_load_into. */
void learner_configure(Learner *l, bool enabled, const char *path, int threshold);
bool learner_enabled(const Learner *l);
/* Result learning on or off (loaded by the next learner_load_into). */
void learner_set_results(Learner *l, bool on);

/* The game record. fen NULL = the start position. A position that continues (or takes
 * back moves of) the recorded game keeps it; any other starts a new record, after the
 * previous game is finished as by learner_game_over with an inferred result. */
void learner_set_game(Learner *l, const char *fen, const Move *moves, int count, char *msg,
                      size_t msg_size);
void learner_push(Learner *l, Move m);
void learner_pop(Learner *l);
/* Forgets the game without recording it (a new game; the start position). */
void learner_new_game(Learner *l);

/* A search of pos starts (own: a game search, not analysis); its iterations; its end. */
void learner_search_start(Learner *l, const Position *pos, bool own);
void learner_on_iteration(Learner *l, const SearchReport *r);
void learner_search_done(Learner *l, const Position *pos, const SearchResult *r);
/* Writes what the last search learned (no fsync). msg gets a warning or "". */
void learner_flush(Learner *l, char *msg, size_t msg_size);

/* The game is over: result is a LearnResult, or -1 to infer it (learner_infer_result).
 * Appends the game (if the engine searched in it) and fsyncs; compacts a large file.
 * The record is then empty, so a game is written once. msg gets a warning or "". */
void learner_game_over(Learner *l, int result, char *msg, size_t msg_size);
/* The rule for UCI: mate, stalemate or a rule draw (50 moves, threefold repetition,
 * insufficient material) on the board of the final position; otherwise the engine's last
 * two own scores, both >= LEARN_DECISIVE_CP (it won) or both <= -LEARN_DECISIVE_CP (it
 * lost); otherwise unknown. */
int learner_infer_result(const Learner *l);

/* Loads the learned positions of the file into tt (protected for the next search), and
 * the book results into memory, if learning is on. msg gets a warning or "". Returns the
 * number of positions stored. */
int learner_load_into(Learner *l, TranspositionTable *tt, char *msg, size_t msg_size);

/* Book learning. The engine plays book move m in pos (its own move in the game). */
void learner_book_played(Learner *l, const Position *pos, Move m);
/* Merges the learned results of pos's book moves (as book_probe returned them) into
 * moves, if learning is on: each move's wins/draws/losses and count get the learned
 * ones added, and a weight above 0 is multiplied by
 *     (wins + draws/2 + 1) / (losses + draws/2 + 1)   (learned counts, kept in 1/16..16)
 * and stays at least 1; a weight of 0 stays 0. The moves are then re-sorted, heaviest
 * first (stable). */
void learner_book_adjust(const Learner *l, const Position *pos, BookMove *moves, int n);
/* Result learning for a go in pos (game_move: a move of the engine's game, not analysis
 * nor limited strength), if learning and result learning are on; never for infinite,
 * ponder, mate or searchmoves searches:
 * - LEARN_GO_REPLAY (only when may_replay): play *replay at once, a move whose results
 *   resultlearn_replays accepts; detail describes it; the learner counts it as the
 *   engine's own move;
 * - LEARN_GO_PENALIZED: search with learned_limits, limits in which the moves that lost here
 *   count LEARN_RESULT_PENALTY cp less than their score, so that one of them is played
 *   only when it is that much better than every other (each is told through rep's
 *   on_info);
 * - LEARN_GO_SEARCH: nothing learned; search with limits. */
typedef enum { LEARN_GO_SEARCH, LEARN_GO_REPLAY, LEARN_GO_PENALIZED } LearnGo;
LearnGo learner_result_go(Learner *l, const Position *pos, bool game_move, bool may_replay,
                          const SearchLimits *limits, SearchLimits *learned_limits, Move *replay,
                          char *detail, size_t detail_size, const SearchReporter *rep);
/* The learned results of one book move (false when there are none). */
bool learner_book_stat(const Learner *l, Key key, int code, LearnBookStat *out);

#endif
