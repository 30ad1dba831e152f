/* Static evaluation: tapered middlegame/endgame score in centipawns from the side to
 * move's point of view. The pawn-structure cache (pawns.h) is per search thread. */
#ifndef SAAVEDRA_EVALUATE_H
#define SAAVEDRA_EVALUATE_H

#include "board/position.h"
#include "eval/params.h"
#include "eval/pawns.h"
#include "eval/trace.h"
#include "util/writer.h"

/* No evaluation exceeds this in absolute value: above endgame.h's known wins, far
 * below any mate score. */
#define EVAL_MAX 20000

/* Builds read-only tables (KPK bitbase, masks, piece-square tables from the default
 * weights). Call once at start-up; calling again does nothing. */
void eval_init(void);

/* Replaces the weights (for tools such as the tuner; never during a search). Every pawn
 * table must be cleared afterwards, as its entries hold scores of the old weights. */
void eval_set_params(const EvalParams *params);

/* pawns may be NULL (no caching). */
int evaluate(const Position *pos, PawnTable *pawns);

#ifdef EVAL_TRACE
/* The tuner build only (eval/trace.h): evaluates without the pawn cache and records how
 * often each weight was used. Returns what evaluate() returns. */
int evaluate_traced(const Position *pos, EvalCoeffs *coeffs);
#endif

/* The terms of the evaluation, each scored for both sides (the `eval` command's rows). */
typedef enum {
    TERM_MATERIAL, TERM_PSQT, TERM_IMBALANCE, TERM_PAWNS, TERM_KNIGHTS, TERM_BISHOPS, TERM_ROOKS,
    TERM_MOBILITY, TERM_KING, TERM_THREATS, TERM_PASSED, TERM_TEMPO, TERM_NB
} EvalTerm;

/* Game phase runs from 0 (bare kings and pawns) to this (all pieces on). */
#define EVAL_PHASE_MAX 24

typedef struct {
    Score terms[TERM_NB][COLOR_NB];
    int mg, eg, phase, scale;
    bool special;   /* decided by a specialised endgame evaluation: terms unset */
    int value;      /* White's point of view */
} EvalBreakdown;

/* Evaluates pos (without a pawn cache) and fills out term by term. Returns what
 * evaluate() returns. */
int evaluate_breakdown(const Position *pos, EvalBreakdown *out);

/* Term-by-term table for the `eval` console command (eval/breakdown.c). */
void eval_print(const Position *pos, Writer *out);

#endif
