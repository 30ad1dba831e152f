/* The engine's options in one list: name, kind (type, default, range), hook, in the
 * order UCI prints them and xboard lists them. Each row gives an EngineOption constant,
 * which is the option's index in the engine's Options (util/options.h): code reads a
 * value with option_int(opts, OPT_HASH) and the like, so a misspelt option does not
 * compile; GUIs and engine.rc still name options as the list spells them.
 *
 * X(id, name, kind, hook) is an option of every build. The constants and hooks a row
 * names are engine_options.c's, which alone turns the rows into OptionSpecs; every hook is
 * called with the Engine. P(name, value, min, max) is a row of the search parameter
 * table (search/params.h): the tuning build (-DSEARCH_TUNE, docs/spsa.md) makes each a
 * spin option of the row's name, range and default, OPT_<name>; other builds have none. */
#ifndef SAAVEDRA_OPTION_TABLE_H
#define SAAVEDRA_OPTION_TABLE_H

#include "search/params.h"
#include "util/options.h"

#ifdef SEARCH_TUNE
#define ENGINE_TUNING_OPTIONS(P) SEARCH_PARAMS(P)
#else
#define ENGINE_TUNING_OPTIONS(P)
#endif

#define ENGINE_OPTIONS(X, P)                                                                   \
    X(OPT_HASH, "Hash", OPTION_SPIN(ENGINE_DEFAULT_HASH_MB, TT_MIN_MB, TT_MAX_MB), on_hash)    \
    X(OPT_THREADS, "Threads", OPTION_SPIN(1, 1, POOL_MAX_THREADS), on_threads)                 \
    /* the choices in the order of SmpMode (search/thread.h) */                               \
    X(OPT_SMP_MODE, "SMP Mode", OPTION_COMBO("Lazy", "YBWC|Lazy"), NULL)                       \
    X(OPT_MULTIPV, "MultiPV", OPTION_SPIN(1, 1, MAX_MOVES), NULL)                              \
    X(OPT_PONDER, "Ponder", OPTION_CHECK(false), NULL)                                         \
    X(OPT_MOVE_OVERHEAD, "Move Overhead", OPTION_SPIN(50, 0, 5000), NULL)                      \
    X(OPT_CLEAR_HASH, "Clear Hash", OPTION_BUTTON(), on_clear_hash)                            \
    X(OPT_CONTEMPT, "Contempt", OPTION_SPIN(0, -100, 100), NULL)                               \
    X(OPT_UCI_ANALYSE_MODE, "UCI_AnalyseMode", OPTION_CHECK(false), NULL)                      \
    X(OPT_UCI_CHESS960, "UCI_Chess960", OPTION_CHECK(false), on_chess960)                      \
    /* read by the UCI front end */                                                            \
    X(OPT_UCI_SHOW_WDL, "UCI_ShowWDL", OPTION_CHECK(false), NULL)                              \
    X(OPT_UCI_OPPONENT, "UCI_Opponent", OPTION_STRING(""), on_opponent)                        \
    X(OPT_UCI_LIMIT_STRENGTH, "UCI_LimitStrength", OPTION_CHECK(false), NULL)                  \
    /* GUIs offer ratings from their own range (Stockfish's reaches 2850): cut, not refuse */ \
    X(OPT_UCI_ELO, "UCI_Elo", OPTION_SPIN_CUT(1500, STRENGTH_MIN_ELO, STRENGTH_MAX_ELO), NULL) \
    X(OPT_SYZYGY_PATH, "SyzygyPath", OPTION_STRING(""), on_syzygy_path)                        \
    X(OPT_SYZYGY_PROBE_DEPTH, "SyzygyProbeDepth", OPTION_SPIN(1, 1, 100), NULL)                \
    X(OPT_SYZYGY_PROBE_LIMIT, "SyzygyProbeLimit",                                              \
      OPTION_SPIN(SYZYGY_MAX_PIECES, 0, SYZYGY_MAX_PIECES), NULL)                              \
    X(OPT_SYZYGY_50_MOVE_RULE, "Syzygy50MoveRule", OPTION_CHECK(true), NULL)                   \
    X(OPT_LEARNING, "Learning", OPTION_CHECK(true), on_learning)                               \
    X(OPT_LEARNING_FILE, "LearningFile", OPTION_STRING(LEARN_DEFAULT_FILE), on_learning)       \
    X(OPT_LEARNING_THRESHOLD, "Learning Threshold",                                            \
      OPTION_SPIN(LEARN_DEFAULT_THRESHOLD, 10, 2000), on_learning)                             \
    X(OPT_LEARNING_RESULTS, "Learning Results", OPTION_CHECK(true), on_learning)               \
    /* learned wins are replayed with the book; this replays them with OwnBook off too */     \
    X(OPT_REPLAY_WITHOUT_BOOK, "Replay Without Book", OPTION_CHECK(false), NULL)               \
    X(OPT_OWN_BOOK, "OwnBook", OPTION_CHECK(true), NULL)                                       \
    X(OPT_BOOK_FILE, "BookFile", OPTION_STRING(OWNBOOK_DEFAULT_FILE), on_book_file)            \
    X(OPT_BOOK_VARIETY, "Book Variety", OPTION_SPIN(50, 0, 100), NULL)                         \
    X(OPT_BOOK_DEPTH, "Book Depth", OPTION_SPIN(40, 0, 1000), NULL)                            \
    /* a build without a net built in starts with it off (engine_new) */                      \
    X(OPT_USE_NNUE, "Use NNUE", OPTION_CHECK(true), on_use_nnue)                               \
    X(OPT_EVAL_FILE, "EvalFile", OPTION_STRING(""), on_eval_file)                              \
    /* the search's margins were tuned on the hand-written evaluation's scale; a net on      \
     * another scale is brought to it here (eval-loss measures both) */                       \
    X(OPT_NNUE_SCALE, "NNUE Scale", OPTION_SPIN(100, 10, 400), NULL)                           \
    ENGINE_TUNING_OPTIONS(P)                                                                   \
    /* server manners (resign_draw.h); 0 never resigns */                                     \
    X(OPT_RESIGN_THRESHOLD, "Resign Threshold", OPTION_SPIN(0, 0, 10000), NULL)                \
    X(OPT_RESIGN_MOVES, "Resign Moves", OPTION_SPIN(3, 1, MANNERS_HISTORY), NULL)              \
    X(OPT_DRAW_OFFERS, "Draw Offers", OPTION_CHECK(true), NULL)                                \
    /* the protocol log: config.c gives it its hook and starting value (-l) */                \
    X(OPT_DEBUG_LOG_FILE, "Debug Log File", OPTION_STRING(""), NULL)

#define ENGINE_OPTION_ID(id, name, kind, hook) id,
#define ENGINE_PARAM_OPTION_ID(name, value, min, max) OPT_##name,
typedef enum {
    ENGINE_OPTIONS(ENGINE_OPTION_ID, ENGINE_PARAM_OPTION_ID)
    ENGINE_OPTION_COUNT
} EngineOption;
#undef ENGINE_OPTION_ID
#undef ENGINE_PARAM_OPTION_ID

#endif
