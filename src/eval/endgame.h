/* Endgame knowledge: exact or mating evaluations for a few material signatures, and the
 * scale factor that pulls drawish endgames toward zero. */
#ifndef SAAVEDRA_ENDGAME_H
#define SAAVEDRA_ENDGAME_H

#include "board/position.h"
#include "eval/trace.h"

#define SCALE_NORMAL 64

/* Known wins (KPK by the bitbase, mating material against a bare king) score above this,
 * below evaluate.h's EVAL_MAX. */
#define EVAL_KNOWN_WIN 10000

/* Positions where one side has a bare king: KK and insufficient material (0), KPK by the
 * bitbase, KNNK (0), and mating material against a bare king (KQK, KRK, KBNK, KBBK...),
 * scored as a known win that grows as the defending king is driven to the edge (or, for
 * KBNK, to a corner of the bishop's colour) and the kings come closer. Returns true and
 * sets *score (White's point of view) when it applies. */
bool endgame_evaluate(const Position *pos, int *score TRACE_PARAM);

/* (Tuner build: endgame_evaluate records into an EvalCoeffs, endgame_scale into a
 * ScaleTrace, when given one; see eval/trace.h.) */
/* Scale factor (0..SCALE_NORMAL) of the endgame score, for the side that is ahead in it:
 * pawnless small advantages, opposite-coloured bishops, wrong-coloured bishop with rook
 * pawns, rook pawns held by the king in front of them. */
#ifdef EVAL_TRACE
#define SCALE_TRACE_PARAM , ScaleTrace *scale_trace
#else
#define SCALE_TRACE_PARAM
#endif
int endgame_scale(const Position *pos, Color strong, Bitboard strong_passed SCALE_TRACE_PARAM);

#endif
