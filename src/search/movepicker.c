/* Staged move picker: see movepicker.h. Bad captures are moved to the front of the list
 * while good ones are picked, so one array of MAX_MOVES holds every stage. */
#include "search/movepicker.h"

#include "board/movegen.h"
#include "board/movelegal.h"
#include "search/see.h"

enum {
    ST_TT, ST_CAPTURES_INIT, ST_GOOD_CAPTURES, ST_QUIETS_INIT, ST_QUIETS, ST_BAD_CAPTURES,
    EV_TT, EV_INIT, EV_MOVES,
    QS_TT, QS_CAPTURES_INIT, QS_CAPTURES, QS_CHECKS_INIT, QS_CHECKS,
    PC_TT, PC_CAPTURES_INIT, PC_CAPTURES,
    ST_DONE
};

#define KILLER_SCORE (1 << 28)

static int first_stage(const MovePicker *mp)
{
    if (in_check(mp->pos) && mp->mode != PICK_PROBCUT)
        return EV_TT;
    return mp->mode == PICK_MAIN ? ST_TT : mp->mode == PICK_QSEARCH ? QS_TT : PC_TT;
}

static void setup(MovePicker *mp, const Position *pos, const History *hist, Move tt_move,
                  PickMode mode)
{
    mp->pos = pos;
    mp->hist = hist;
    mp->cont[0] = mp->cont[1] = NULL;
    mp->killers[0] = mp->killers[1] = mp->counter = MOVE_NONE;
    mp->mode = mode;
    mp->checks = NULL;
    mp->threshold = 0;
    mp->tt_move = tt_move;
    mp->index = mp->end = mp->bad_end = 0;
}

/* Drops a hash move the picker would not produce in this mode (or that is illegal). */
static void validate_tt_move(MovePicker *mp)
{
    Move m = mp->tt_move;
    bool ok = m != MOVE_NONE && move_is_legal_fast(mp->pos, m);
    if (ok && !in_check(mp->pos)) {
        if (mp->mode == PICK_QSEARCH)
            ok = move_is_tactical(m)
              || (mp->checks && checkinfo_gives_check(mp->checks, mp->pos, m));
        else if (mp->mode == PICK_PROBCUT)
            ok = move_is_capture(m) && see_ge(mp->pos, m, mp->threshold);
    }
    if (!ok)
        mp->tt_move = MOVE_NONE;
    mp->stage = first_stage(mp);
}

void movepicker_init(MovePicker *mp, const Position *pos, const History *hist, Move tt_move,
                     const Move *killers, Move counter,
                     const int16_t (*cont1)[SQUARE_NB], const int16_t (*cont2)[SQUARE_NB])
{
    setup(mp, pos, hist, tt_move, PICK_MAIN);
    if (killers) {
        mp->killers[0] = killers[0];
        mp->killers[1] = killers[1];
    }
    mp->counter = counter;
    mp->cont[0] = cont1;
    mp->cont[1] = cont2;
    validate_tt_move(mp);
}

void movepicker_init_qsearch(MovePicker *mp, const Position *pos, const History *hist,
                             Move tt_move, const CheckInfo *checks)
{
    setup(mp, pos, hist, tt_move, PICK_QSEARCH);
    mp->checks = checks;
    validate_tt_move(mp);
}

void movepicker_init_probcut(MovePicker *mp, const Position *pos, const History *hist,
                             Move tt_move, int threshold)
{
    setup(mp, pos, hist, tt_move, PICK_PROBCUT);
    mp->threshold = threshold;
    validate_tt_move(mp);
}

bool movepicker_in_bad_captures(const MovePicker *mp)
{
    return mp->stage == ST_BAD_CAPTURES;
}

static int capture_score(const MovePicker *mp, Move m)
{
    const Position *pos = mp->pos;
    Piece pc = moved_piece(pos, m);
    PieceType victim = history_captured_type(pos, m);
    int score = move_is_capture(m) ? SEE_VALUE[victim] * 16 : 0;
    if (move_is_promotion(m))
        score += (SEE_VALUE[move_promo_type(m)] - SEE_VALUE[PAWN]) * 16;
    return score + mp->hist->capture[pc][move_to(m)][victim] / 16;
}

static int quiet_score(const MovePicker *mp, Move m)
{
    const Position *pos = mp->pos;
    Piece pc = moved_piece(pos, m);
    Square to = move_to(m);
    int score = mp->hist->butterfly[pos->side][move_from(m)][to];
    if (mp->cont[0])
        score += mp->cont[0][pc][to];
    if (mp->cont[1])
        score += mp->cont[1][pc][to];
    return score;
}

/* Generates moves of one kind at the end of the list, scored, skipping the hash move. */
static void generate_scored(MovePicker *mp, GenType type)
{
    Move buf[MAX_MOVES];
    Move *end = generate_moves(mp->pos, buf, type);
    int n = mp->end;
    for (Move *p = buf; p < end; p++) {
        Move m = *p;
        if (m == mp->tt_move)
            continue;
        int score;
        if (mp->stage == EV_INIT)
            score =
                move_is_tactical(m) ? KILLER_SCORE * 2 + capture_score(mp, m) : quiet_score(mp, m);
        else if (type == GEN_QUIETS) {
            if (m == mp->killers[0])
                score = KILLER_SCORE + 2;
            else if (m == mp->killers[1])
                score = KILLER_SCORE + 1;
            else if (m == mp->counter)
                score = KILLER_SCORE;
            else
                score = quiet_score(mp, m);
        } else
            score = capture_score(mp, m);
        mp->moves[n++] = (ScoredMove){ m, score };
    }
    mp->end = n;
}

/* Selection of the best remaining move (lists are short and usually cut off early). */
static ScoredMove pick_best(MovePicker *mp)
{
    int best = mp->index;
    for (int i = mp->index + 1; i < mp->end; i++)
        if (mp->moves[i].score > mp->moves[best].score)
            best = i;
    ScoredMove sm = mp->moves[best];
    mp->moves[best] = mp->moves[mp->index];
    mp->moves[mp->index++] = sm;
    return sm;
}

Move movepicker_next(MovePicker *mp, bool skip_quiets)
{
    for (;;) {
        switch (mp->stage) {
        case ST_TT:
        case EV_TT:
        case QS_TT:
        case PC_TT:
            mp->stage++;
            if (mp->tt_move != MOVE_NONE)
                return mp->tt_move;
            break;

        case ST_CAPTURES_INIT:
        case QS_CAPTURES_INIT:
        case PC_CAPTURES_INIT:
            mp->index = mp->end = mp->bad_end = 0;
            generate_scored(mp, GEN_CAPTURES);
            mp->stage++;
            break;

        case ST_GOOD_CAPTURES:
            while (mp->index < mp->end) {
                ScoredMove sm = pick_best(mp);
                if (see_ge(mp->pos, sm.move, 0))
                    return sm.move;
                mp->moves[mp->bad_end++] = sm; /* index > bad_end: the slot is free */
            }
            mp->stage++;
            break;

        case ST_QUIETS_INIT:
            if (skip_quiets) {
                mp->stage = ST_BAD_CAPTURES;
                mp->index = 0;
                break;
            }
            mp->index = mp->end; /* quiets follow the captures in the array */
            generate_scored(mp, GEN_QUIETS);
            mp->stage++;
            break;

        case ST_QUIETS:
            if (!skip_quiets && mp->index < mp->end)
                return pick_best(mp).move;
            mp->stage = ST_BAD_CAPTURES;
            mp->index = 0;
            break;

        case ST_BAD_CAPTURES:
            if (mp->index < mp->bad_end)
                return mp->moves[mp->index++].move;
            mp->stage = ST_DONE;
            break;

        case EV_INIT:
            mp->index = mp->end = 0;
            generate_scored(mp, GEN_ALL);
            mp->stage++;
            break;

        case EV_MOVES:
            while (mp->index < mp->end) {
                ScoredMove sm = pick_best(mp);
                /* Quiet evasions may be skipped by pruning, captures never. */
                if (!skip_quiets || move_is_tactical(sm.move) || mp->mode != PICK_MAIN)
                    return sm.move;
            }
            mp->stage = ST_DONE;
            break;

        case QS_CAPTURES:
            if (mp->index < mp->end)
                return pick_best(mp).move;
            mp->stage = mp->checks ? QS_CHECKS_INIT : ST_DONE;
            break;

        case QS_CHECKS_INIT: {
            /* Every leaf of the main search comes here: the node's check squares make
             * each move's test a few bit operations. */
            Move buf[MAX_MOVES];
            Move *end = generate_moves(mp->pos, buf, GEN_QUIETS);
            mp->index = mp->end = 0;
            for (Move *p = buf; p < end; p++)
                if (*p != mp->tt_move && !move_is_promotion(*p)
                    && checkinfo_gives_check(mp->checks, mp->pos, *p))
                    mp->moves[mp->end++] = (ScoredMove){ *p, quiet_score(mp, *p) };
            mp->stage++;
            break;
        }

        case QS_CHECKS:
            if (mp->index < mp->end)
                return pick_best(mp).move;
            mp->stage = ST_DONE;
            break;

        case PC_CAPTURES:
            while (mp->index < mp->end) {
                ScoredMove sm = pick_best(mp);
                if (move_is_capture(sm.move) && see_ge(mp->pos, sm.move, mp->threshold))
                    return sm.move;
            }
            mp->stage = ST_DONE;
            break;

        default:
            return MOVE_NONE;
        }
    }
}
