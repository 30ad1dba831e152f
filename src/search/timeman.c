/* Time allocation. The budget per move is the time left spread over the moves expected to
 * remain plus most of the increment; the hard limit allows a few times that when the
 * search is unstable but never more than a fixed share of the clock, and Move Overhead is
 * kept in reserve for the transmission of the move. */
#include "search/timeman.h"

#include <string.h>

/* Sudden death: the moves still to play are estimated from the move number, from
 * HORIZON_OPENING at the start down to HORIZON_ENDGAME (games rarely last as long as a
 * fixed horizon assumes once the middlegame is over, and time saved is time wasted).
 * The opening horizon is short enough to spend on the early middlegame, where a game
 * is decided more often than in a long endgame played on the increment. */
#define HORIZON_OPENING 35
#define HORIZON_ENDGAME 20

/* The best move's share of an iteration's nodes scales the time continuously: about
 * 0.4 of the time when it took all of them, NODE_SHARE_MAX when it took few. */
#define NODE_SHARE_BASE 0.4
#define NODE_SHARE_SLOPE 1.6
#define NODE_SHARE_MAX 1.6

void limits_init(SearchLimits *limits)
{
    memset(limits, 0, sizeof *limits);
    limits->time[WHITE] = limits->time[BLACK] = -1;
}

int64_t limits_clamp_ms(int64_t ms)
{
    return ms < 0 ? 0 : ms > LIMITS_MAX_MS ? LIMITS_MAX_MS : ms;
}

bool limits_use_time(const SearchLimits *limits)
{
    return limits->movetime > 0 || limits->time[WHITE] >= 0 || limits->time[BLACK] >= 0;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Moves to plan for: the moves to the control, or an estimate of the game's remaining
 * moves in sudden death. */
static int moves_to_plan(const SearchLimits *limits, int fullmove)
{
    if (limits->movestogo > 0)
        return limits->movestogo < 50 ? limits->movestogo : 50;
    int horizon = HORIZON_OPENING - (fullmove > 0 ? fullmove : 1) / 2;
    return horizon > HORIZON_ENDGAME ? horizon : HORIZON_ENDGAME;
}

void timeman_init(TimeManager *tm, const SearchLimits *limits, Color us, int fullmove,
                  int move_overhead_ms, int64_t now_ms)
{
    tm->start_ms = now_ms;
    tm->soft_ms = tm->hard_ms = -1;
    if (limits->infinite)
        return;
    if (limits->movetime > 0) {
        /* The time was asked for: use all of it (no soft limit, no early stop). */
        tm->hard_ms = max64(1, limits_clamp_ms(limits->movetime) - move_overhead_ms);
        return;
    }
    if (limits->time[us] < 0)
        return;

    int64_t inc = limits_clamp_ms(limits->inc[us]);
    int mtg = moves_to_plan(limits, fullmove);
    /* What may be spent without flagging: the clock less the overhead of every move to
     * the control (at least one). */
    int64_t avail = limits_clamp_ms(limits->time[us]) - move_overhead_ms * (mtg > 1 ? 2 : 1);
    avail = max64(1, avail);
    if (mtg == 1) {
        /* Last move before the control: use much of what is left, never all of it. */
        tm->soft_ms = max64(1, avail / 2);
        tm->hard_ms = max64(1, avail * 4 / 5);
        return;
    }
    /* The share of the clock plus the whole increment, which comes back after the move;
     * scaled up because timeman_stop_iterating() ends the search well before the soft
     * limit on average (an iteration is not started unless it can finish). */
    int64_t target = avail / mtg + inc;
    int64_t base = target * 5 / 4;
    tm->soft_ms = max64(1, min64(base, avail / 3));
    /* soft <= avail/3 (or 1 when nothing is left), so this is within 3/4 of avail too. */
    tm->hard_ms = max64(tm->soft_ms, min64(base * 4, avail * 3 / 4));
}

void timeman_restart(TimeManager *tm, int64_t now_ms)
{
    tm->start_ms = now_ms;
}

bool timeman_hard_expired(const TimeManager *tm, int64_t now_ms)
{
    return tm->hard_ms >= 0 && now_ms - tm->start_ms >= tm->hard_ms;
}

double timeman_scale(double best_move_changes, int score_drop, double best_move_share,
                     int stable_iterations)
{
    double scale = 1.0;
    /* Unstable best move: think longer. */
    scale *= 1.0 + 0.45 * (best_move_changes > 3.0 ? 3.0 : best_move_changes);
    /* Falling score: look for a rescue. */
    if (score_drop > 10)
        scale *= 1.0 + (score_drop > 120 ? 120 : score_drop) / 120.0;
    /* Effort: a best move that took nearly all the nodes is settled, one that took few
     * of them has rivals the next iteration may prefer. Young iterations' shares are
     * noise: the easy-move end applies once the move has held for a few iterations. */
    double share = best_move_share < 0 ? 0 : best_move_share > 1 ? 1 : best_move_share;
    double effort = NODE_SHARE_BASE + NODE_SHARE_SLOPE * (1.0 - share);
    if (effort > NODE_SHARE_MAX)
        effort = NODE_SHARE_MAX;
    if (effort < 1.0 && stable_iterations < 2)
        effort = 1.0;
    scale *= effort;
    if (scale < 0.35)
        scale = 0.35;
    if (scale > 3.0)
        scale = 3.0;
    return scale;
}

bool timeman_stop_iterating(const TimeManager *tm, int64_t now_ms, double scale)
{
    if (tm->soft_ms < 0)
        return false;
    int64_t elapsed = now_ms - tm->start_ms;
    double budget = (double)tm->soft_ms * scale;
    if (budget > (double)tm->hard_ms)
        budget = (double)tm->hard_ms;
    /* The next iteration usually costs more than all before it: do not start one that
     * has little chance to finish. */
    return elapsed >= budget * 0.6;
}
