/* Server manners: when to resign, offer a draw, or accept one, from the engine's own
 * search scores and the material left. Protocol-neutral; xboard.c asks and prints.
 *
 * Scores are the engine's own root scores in centipawns from its point of view, recorded
 * once per move it plays; anything beyond +-MANNERS_DECISIVE counts as a mate score. */
#ifndef SAAVEDRA_RESIGN_DRAW_H
#define SAAVEDRA_RESIGN_DRAW_H

#include <stdbool.h>

#include "util/options.h"
#include "board/position.h"

#define MANNERS_HISTORY 64
#define MANNERS_DECISIVE 20000

typedef struct {
    int resign_threshold;   /* resign when this many cp behind (0: never resign) */
    int resign_moves;       /* ... for this many consecutive own moves */
    bool draw_offers;       /* offer and accept draws at all */
    int draw_contempt;      /* score of a draw for us (negative: we prefer to play on) */
} MannersConfig;

typedef struct {
    int scores[MANNERS_HISTORY];  /* ring buffer of our recent scores */
    int count;                    /* scores recorded this game */
    int last_offer_move;          /* our move count at our last draw offer (-100: none) */
    bool resigned;
} MannersState;

void manners_reset(MannersState *st);
/* Records the score of the move we are about to play. */
void manners_record(MannersState *st, int score);

/* True when the last resign_moves scores were all at or below -resign_threshold
 * (and the threshold is on). */
bool manners_should_resign(const MannersState *st, const MannersConfig *cfg);

/* True when we should offer a draw with the move we are about to play: the position is
 * dead level (the recent scores all within a small margin of the draw score) and either
 * little material is left or the game is long, and we have not offered recently. Marks
 * the offer as made when it returns true. */
bool manners_offer_draw(MannersState *st, const MannersConfig *cfg, const Position *pos);

/* True when an opponent's draw offer should be accepted: our recent scores say we are
 * not better than a draw is worth to us, and the game is past the opening. */
bool manners_accept_draw(const MannersState *st, const MannersConfig *cfg, const Position *pos);

/* MannersConfig from the engine's options (option_table.h) "Resign Threshold" (cp,
 * 0 = never, the default), "Resign Moves" and "Draw Offers"; draw_contempt is the draw
 * score for us (minus the search contempt). */
MannersConfig manners_config(const Options *opts, int contempt);

/* Non-pawn material of both sides in pawn units (N/B 3, R 5, Q 9). */
int manners_material(const Position *pos);

#endif
