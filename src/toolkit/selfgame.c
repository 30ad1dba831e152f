/* The self-play game loop (selfgame.h). */
#include "toolkit/selfgame.h"

#include <stdio.h>
#include <string.h>

#include "board/gameend.h"

static const char *end_reason(GameEnd end)
{
    switch (end) {
    case GAME_WHITE_MATES:
    case GAME_BLACK_MATES: return "mate";
    case GAME_STALEMATE: return "stalemate";
    case GAME_REPETITION: return "repetition";
    case GAME_FIFTY_MOVES: return "fifty moves";
    default: return "insufficient material";
    }
}

static int16_t clamp16(int v) { return (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v); }

bool selfgame_play(Engine *e, const SelfGameConfig *cfg, const char *start_fen, const Move *opening,
                   int opening_plies, SelfGame *out, char *err, size_t err_size)
{
    err[0] = '\0';
    engine_new_game(e);
    if (!engine_set_position(e, start_fen, NULL, 0, err, err_size))
        return false;
    position_to_fen(engine_position(e), out->start_fen);
    out->opening_plies = 0;
    out->plies = 0;
    for (int i = 0; i < opening_plies && i < SELFGAME_MAX_PLIES; i++) {
        if (!engine_make_move(e, opening[i])) {
            snprintf(err, err_size, "opening move %d is not legal", i + 1);
            return false;
        }
        out->moves[out->plies] = opening[i];
        out->score[out->plies] = 0;
        out->quiet[out->plies++] = false;
    }
    out->opening_plies = out->plies;

    int result = 0, win_streak = 0, draw_streak = 0;
    const char *reason = "ply limit";
    SearchLimits limits;
    limits_init(&limits);
    limits.nodes = cfg->nodes;
    for (;;) {
        const Position *pos = engine_position(e);
        GameEnd end = game_end_status(pos);
        if (end != GAME_ONGOING) {
            result = end == GAME_WHITE_MATES ? 1 : end == GAME_BLACK_MATES ? -1 : 0;
            reason = end_reason(end);
            break;
        }
        if (out->plies >= SELFGAME_MAX_PLIES) {
            result = 0;
            break;
        }
        if (!engine_search(e, &limits, NULL, err, err_size))
            return false;
        engine_wait(e);
        SearchResult r = engine_last_result(e);
        if (r.best == MOVE_NONE) {
            snprintf(err, err_size, "the search returned no move");
            return false;
        }
        if (out->plies == out->opening_plies && cfg->max_opening_score
            && (r.score > cfg->max_opening_score || r.score < -cfg->max_opening_score))
            return false;
        int white_score = pos->side == WHITE ? r.score : -r.score;
        bool quiet = !in_check(pos) && !move_is_tactical(r.best);
        if (!engine_make_move(e, r.best)) {
            snprintf(err, err_size, "the search returned an illegal move");
            return false;
        }
        out->moves[out->plies] = r.best;
        out->score[out->plies] = clamp16(r.score);
        out->quiet[out->plies++] = quiet;
        /* Adjudication on the scores both sides report. */
        if (white_score >= 1000 || white_score <= -1000) {
            win_streak = win_streak && ((white_score > 0) == (result > 0)) ? win_streak + 1 : 1;
            result = white_score > 0 ? 1 : -1;
        } else {
            win_streak = 0;
            result = 0;
        }
        draw_streak = white_score >= -5 && white_score <= 5 ? draw_streak + 1 : 0;
        if (win_streak >= 8) {
            reason = "adjudicated win";
            break;
        }
        if (out->plies >= 160 && draw_streak >= 40) {
            result = 0;
            reason = "adjudicated draw";
            break;
        }
    }
    if (strcmp(reason, "adjudicated win") && strcmp(reason, "mate"))
        result = 0;
    out->result = result;
    out->reason = reason;
    return true;
}
