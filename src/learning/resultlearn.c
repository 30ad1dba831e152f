/* Result learning: see resultlearn.h. */
#include "learning/resultlearn.h"

#include <stdlib.h>

#include "board/movegen.h"
#include "board/position_copy.h"
#include "formats/movecode.h"
#include "formats/movecode_game.h"
#include "learning/learnmerge.h"

void resultlearn_free(ResultLearn *rl)
{
    free(rl->stats);
    rl->stats = NULL;
    rl->count = 0;
    rl->cap = 0;
}

void resultlearn_clear(ResultLearn *rl)
{
    rl->count = 0;
}

static bool append(ResultLearn *rl, const LearnBookStat *s)
{
    if ((size_t)rl->count == rl->cap) {
        /* Raw entries past four times the limit: merge now (the most played stay). */
        if (rl->cap >= 4 * (size_t)RESULT_LEARN_MAX) {
            rl->count = learn_merge_books(rl->stats, rl->count, RESULT_LEARN_MAX);
        } else {
            size_t cap = rl->cap ? 2 * rl->cap : 4096;
            LearnBookStat *grown = realloc(rl->stats, cap * sizeof *grown);
            if (!grown)
                return false;
            rl->stats = grown;
            rl->cap = cap;
        }
    }
    rl->stats[rl->count++] = *s;
    return true;
}

bool resultlearn_add_game(ResultLearn *rl, const LearnGame *g)
{
    if (g->own_side > LEARN_SIDE_BLACK || g->result == LEARN_RESULT_UNKNOWN || g->ply_count <= 0)
        return true; /* nothing to learn from */
    Position *pos = malloc(sizeof *pos);
    Move *moves = malloc((size_t)g->ply_count * sizeof *moves);
    char err[160];
    bool ok = pos && moves
              && position_from_fen(pos, (g->flags & LEARN_GAME_STARTPOS) ? START_FEN : g->fen, err,
                                   sizeof err, NULL);
    int n = ok ? movecode_decode_game(pos, g->codes, g->ply_count, moves) : 0;
    ok = ok && n == g->ply_count;
    Color own = g->own_side == LEARN_SIDE_WHITE ? WHITE : BLACK;
    for (int i = 0; ok && i < n; i++) {
        if (pos->side == own) {
            LearnBookStat s = { pos_key(pos), g->codes[i], 0, 0, 0 };
            if (g->result == LEARN_RESULT_DRAW)
                s.draws = 1;
            else if ((g->result == LEARN_RESULT_WHITE) == (own == WHITE))
                s.wins = 1;
            else
                s.losses = 1;
            ok = append(rl, &s);
        }
        make_move(pos, moves[i]);
        position_trim_history(pos);
    }
    free(moves);
    free(pos);
    return ok;
}

void resultlearn_finish(ResultLearn *rl)
{
    rl->count = learn_merge_books(rl->stats, rl->count, RESULT_LEARN_MAX);
}

/* The index of the first entry of key (count when none). */
static int first_of(const ResultLearn *rl, Key key)
{
    int lo = 0, hi = rl->count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (rl->stats[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool resultlearn_replays(const LearnBookStat *s)
{
    long games = (long)s->wins + s->draws + s->losses;
    long half_points = 2L * s->wins + s->draws;
    return (long)s->wins - s->losses >= RESULT_REPLAY_MIN_NET
        && half_points * 100 >= 2L * RESULT_REPLAY_MIN_SCORE * games;
}

/* a's net result beats b's (more wins break a tie). */
static bool better_record(const LearnBookStat *a, const LearnBookStat *b)
{
    long net_a = (long)a->wins - a->losses, net_b = (long)b->wins - b->losses;
    return net_a != net_b ? net_a > net_b : a->wins > b->wins;
}

bool resultlearn_advise(const ResultLearn *rl, const Position *pos, ResultAdvice *out)
{
    out->replay = MOVE_NONE;
    out->lost_count = 0;
    Key key = pos_key(pos);
    int legal = count_legal_moves(pos);
    for (int i = first_of(rl, key); i < rl->count && rl->stats[i].key == key; i++) {
        const LearnBookStat *s = &rl->stats[i];
        Move m = movecode_decode(pos, s->code);
        if (m == MOVE_NONE)
            continue; /* another position with the same key */
        if (resultlearn_replays(s)) {
            if (out->replay == MOVE_NONE || better_record(s, &out->replay_stat)) {
                out->replay = m;
                out->replay_stat = *s;
            }
        } else if (s->wins == 0 && s->losses > s->draws && out->lost_count + 1 < legal) {
            out->lost_stat[out->lost_count] = *s;
            out->lost[out->lost_count++] = m;
        }
    }
    return out->replay != MOVE_NONE || out->lost_count > 0;
}
