/* Singular extensions: what the verification search says about the hash move. The node
 * is searched again at half depth without its hash move, against a bound a little below
 * the hash move's score (singular_beta = hash score - SINGULAR_MARGIN * depth):
 * - every other move stays below it: the hash move is the only good one and gets one ply
 *   more, or two at a non-PV node when the others fall short by SINGULAR_DOUBLE_MARGIN
 *   more and the line has had fewer than SINGULAR_DOUBLE_LIMIT double extensions;
 * - another move reaches it, and it is at least beta: two moves beat beta, so the node
 *   fails high without searching the hash move (multi-cut);
 * - another move reaches it, and only the hash move's own bound beat beta: one ply less
 *   for the hash move, whose cut-off the others would likely provide anyway. */
#ifndef SAAVEDRA_SINGULAR_H
#define SAAVEDRA_SINGULAR_H

#include <stdbool.h>

#include "search/params.h"

/* The verdict: SINGULAR_MULTI_CUT, or the hash move's extension (-1, 0, 1 or 2). */
enum { SINGULAR_MULTI_CUT = 100 };

static inline int singular_verdict(int verification, int singular_beta, int beta, int tt_score,
                                   bool pv_node, int double_extensions)
{
    if (verification < singular_beta)
        return !pv_node && verification < singular_beta - SINGULAR_DOUBLE_MARGIN
               && double_extensions < SINGULAR_DOUBLE_LIMIT ? 2 : 1;
    if (singular_beta >= beta)
        return SINGULAR_MULTI_CUT;
    return tt_score >= beta ? -1 : 0;
}

#endif
