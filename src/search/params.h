/* The search's margins, reductions and limits in one table. Margins are in centipawns of
 * the static evaluation's scale (the hand-written evaluation's; a net is brought to it,
 * docs/nnue.md), depths in plies. Each row gives the value and the range a tuner may try
 * it in (SPSA, docs/spsa.md); the search reads the value as a compile-time constant, so
 * naming it costs nothing. The tuning build (-DSEARCH_TUNE, make spsa-engine) makes each
 * row a variable instead, set by a UCI option of the row's name. */
#ifndef SAAVEDRA_SEARCH_PARAMS_H
#define SAAVEDRA_SEARCH_PARAMS_H

/* X(name, value, min, max) */
#define SEARCH_PARAMS(X)                                                                      \
    /* aspiration window: initial half-width, plus |previous score| / divisor */             \
    X(ASPIRATION_DELTA, 14, 5, 50)                                                            \
    X(ASPIRATION_SCORE_DIVISOR, 64, 16, 256)                                                  \
    /* quiescence: a capture's victim plus this margin must reach alpha */                   \
    X(QSEARCH_FUTILITY_MARGIN, 160, 50, 400)                                                  \
    /* razoring: depth <= limit, eval + base + per_depth2 * depth^2 below alpha */            \
    X(RAZOR_DEPTH, 3, 1, 6)                                                                   \
    X(RAZOR_BASE, 250, 0, 600)                                                                \
    X(RAZOR_PER_DEPTH2, 220, 50, 500)                                                         \
    /* reverse futility: depth <= limit, eval - per_depth * (depth - improving) >= beta */   \
    X(RFP_DEPTH, 8, 3, 12)                                                                    \
    X(RFP_PER_DEPTH, 85, 40, 200)                                                             \
    /* null move: static eval >= beta - per_depth * depth + base; reduction base +           \
     * depth / divisor + min((eval - beta) / eval_divisor, eval_max); verified at depth */   \
    X(NMP_EVAL_PER_DEPTH, 20, 0, 60)                                                          \
    X(NMP_EVAL_BASE, 160, 0, 400)                                                             \
    X(NMP_REDUCTION_BASE, 3, 2, 5)                                                            \
    X(NMP_REDUCTION_DEPTH_DIVISOR, 3, 2, 6)                                                   \
    X(NMP_REDUCTION_EVAL_DIVISOR, 200, 80, 400)                                               \
    X(NMP_REDUCTION_EVAL_MAX, 3, 1, 5)                                                        \
    X(NMP_VERIFY_DEPTH, 14, 8, 24)                                                            \
    /* ProbCut: beta + margin - improving_bonus * improving, from depth, searched 4 less */  \
    X(PROBCUT_MARGIN, 190, 80, 400)                                                           \
    X(PROBCUT_IMPROVING, 60, 0, 150)                                                          \
    X(PROBCUT_DEPTH, 5, 3, 8)                                                                 \
    /* internal iterative reduction: from depth, at PV and cut nodes without a hash move */  \
    X(IIR_DEPTH, 4, 2, 8)                                                                     \
    /* late move pruning: quiets after (base + depth^2) / (2 - improving) */                 \
    X(LMP_BASE, 3, 0, 8)                                                                      \
    /* history pruning: below this reduced depth, history under -per_depth * depth */        \
    X(HISTORY_PRUNE_DEPTH, 3, 1, 6)                                                           \
    X(HISTORY_PRUNE_PER_DEPTH, 3500, 1000, 8000)                                              \
    /* futility: below this reduced depth, eval + base + per_depth * lmr_depth <= alpha */   \
    X(FUTILITY_DEPTH, 7, 3, 12)                                                               \
    X(FUTILITY_BASE, 110, 30, 300)                                                            \
    X(FUTILITY_PER_DEPTH, 110, 30, 300)                                                       \
    /* SEE pruning: quiets below this reduced depth losing more than per_depth2 * d^2;       \
     * captures and checks up to depth losing more than per_depth * depth */                 \
    X(SEE_QUIET_DEPTH, 8, 3, 12)                                                              \
    X(SEE_QUIET_PER_DEPTH2, 25, 5, 80)                                                        \
    X(SEE_TACTICAL_DEPTH, 7, 3, 12)                                                           \
    X(SEE_TACTICAL_PER_DEPTH, 90, 30, 200)                                                    \
    /* check extension: checks that do not lose material, or any check above this depth */   \
    X(CHECK_EXTENSION_ANY_DEPTH, 5, 0, 12)                                                    \
    /* singular extensions: from depth, the others below hash score - margin * depth;        \
     * a double extension when also below by double_margin, at most double_limit a line */  \
    X(SINGULAR_DEPTH, 8, 5, 12)                                                               \
    X(SINGULAR_MARGIN, 1, 0, 4)                                                               \
    X(SINGULAR_DOUBLE_MARGIN, 20, 0, 60)                                                      \
    X(SINGULAR_DOUBLE_LIMIT, 6, 0, 12)                                                        \
    /* late move reductions: from depth; table 0.01 * (base + log(depth) log(move) *         \
     * 100 / divisor); history / divisor taken off */                                        \
    X(LMR_DEPTH, 3, 2, 5)                                                                     \
    X(LMR_BASE, 70, 0, 150)                                                                   \
    X(LMR_DIVISOR, 230, 150, 350)                                                             \
    X(LMR_HISTORY_DIVISOR, 7000, 3000, 15000)

#include <stdbool.h>

#ifdef SEARCH_TUNE
#define SEARCH_PARAM_DECLARE(name, value, min, max) extern int name;
SEARCH_PARAMS(SEARCH_PARAM_DECLARE)
#undef SEARCH_PARAM_DECLARE
#else
#define SEARCH_PARAM_ENUM(name, value, min, max) name = value,
enum { SEARCH_PARAMS(SEARCH_PARAM_ENUM) };
#undef SEARCH_PARAM_ENUM
#endif

/* The rows as data: name, default value, range. */
typedef struct {
    const char *name;
    int value, min, max;
} SearchParam;

extern const SearchParam SEARCH_PARAM_TABLE[];
extern const int SEARCH_PARAM_COUNT;

/* Tuning build: sets a row by name (case-insensitive) within its range. False for an
 * unknown name, a value out of range, or in a normal build (the rows are constants).
 * The caller re-initialises what is computed from them (alphabeta_init). */
bool search_param_set(const char *name, int value);

#endif
