/* Staged move picker. Main search order: hash move, good captures (by the victim's value,
 * MVV without an attacker term, plus capture history; each is SEE-checked as it is picked
 * and a losing one deferred), then quiets
 * (killers first, then the countermove, then history + continuation history), then losing
 * captures. Moves are produced lazily, so a cut-off on the hash move costs no generation.
 * In check every stage yields only evasions. A picker keeps its own move list, so it can
 * be copied (e.g. to a split point). */
#ifndef SAAVEDRA_MOVEPICKER_H
#define SAAVEDRA_MOVEPICKER_H

#include "board/checkinfo.h"
#include "board/position.h"
#include "search/history.h"

typedef struct {
    Move move;
    int score;
} ScoredMove;

typedef enum { PICK_MAIN, PICK_QSEARCH, PICK_PROBCUT } PickMode;

typedef struct {
    const Position *pos;
    const History *hist;
    const int16_t (*cont[2])[SQUARE_NB]; /* continuation tables 1 and 2 plies back, or NULL */
    Move tt_move, killers[2], counter;
    PickMode mode;
    const CheckInfo *checks; /* qsearch: also the quiet moves this says give check */
    int threshold;      /* probcut: minimum SEE of the captures returned */
    int stage;
    int index, end, bad_end;
    ScoredMove moves[MAX_MOVES];
} MovePicker;

/* Main search. killers may be NULL; cont1/cont2 may be NULL. */
void movepicker_init(MovePicker *mp, const Position *pos, const History *hist, Move tt_move,
                     const Move *killers, Move counter,
                     const int16_t (*cont1)[SQUARE_NB], const int16_t (*cont2)[SQUARE_NB]);
/* Quiescence: captures and queen promotions (all evasions when in check), and quiet
 * checks after them when checks (the node's CheckInfo, which must outlive the picker) is
 * given; NULL: no quiet moves. */
void movepicker_init_qsearch(MovePicker *mp, const Position *pos, const History *hist,
                             Move tt_move, const CheckInfo *checks);
/* ProbCut: captures whose exchange gains at least threshold. */
void movepicker_init_probcut(MovePicker *mp, const Position *pos, const History *hist,
                             Move tt_move, int threshold);

/* Next move, or MOVE_NONE when exhausted. With skip_quiets the quiet stage is passed over
 * (late move pruning); captures are still returned. */
Move movepicker_next(MovePicker *mp, bool skip_quiets);
/* Whether the last move returned came from the losing-captures stage. */
bool movepicker_in_bad_captures(const MovePicker *mp);

#endif
