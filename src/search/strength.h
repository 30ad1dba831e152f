/* Playing-strength limitation (UCI_LimitStrength / UCI_Elo) and opponent-aware contempt.
 * Protocol-neutral: UCI_Opponent and xboard's `rating` both end up in OpponentInfo. */
#ifndef SAAVEDRA_STRENGTH_H
#define SAAVEDRA_STRENGTH_H

#include <stdbool.h>
#include <stdint.h>

#include "search/timeman.h"

#define STRENGTH_MIN_ELO 1000
#define STRENGTH_MAX_ELO 2440 /* within the calibration; full strength is no limit at all */
/* The rating assumed for ourselves when the protocol does not tell (UCI). */
#define STRENGTH_NOMINAL_RATING 2700

typedef struct {
    bool known;        /* anything known about the opponent */
    int rating;        /* 0 when unknown */
    bool computer;     /* an engine (ratings on a different scale: weaker adjustment) */
    char title[16];    /* "GM", "IM", ... or "" */
} OpponentInfo;

/* Parses the value of UCI_Opponent: "[GM|IM|FM|WGM|WIM|none] <rating|none>
 * <computer|human> <name...>". Returns false (out cleared) when malformed. */
bool opponent_parse(const char *text, OpponentInfo *out);

/* Draw score penalty in centipawns for the side to move at the root: the base Contempt
 * option plus a term growing with our rating advantage (negative against stronger
 * opponents, so that draws become welcome). own_rating 0 means STRENGTH_NOMINAL_RATING. */
int contempt_for_opponent(int base_contempt, int own_rating, const OpponentInfo *opp);

/* Nodes per move allowed at a given Elo when strength is limited (never 0: every
 * setting, the top one too, is a node cap). */
uint64_t strength_node_limit(int elo);
/* Root lines considered for the weakened choice. */
int strength_candidate_lines(int elo);
/* Picks the move to play among `count` root candidates, scores[0] being the best:
 * a random bonus of up to the Elo's noise is added to every score. Returns an index. */
int strength_pick(const int *scores, int count, int elo, uint64_t *rng);

/* How long a strength-limited move should take, in ms from the clock's start: the node
 * cap ends its search within milliseconds, which no human opponent does. All of a fixed
 * movetime; with a clock, the share a full-strength search spends on an average move
 * (60% of the soft budget). 0 when the search has no time limit. */
int64_t strength_think_ms(const TimeManager *tm, const SearchLimits *limits);

#endif
