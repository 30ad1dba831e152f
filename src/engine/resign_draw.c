/* Resign and draw decisions (see resign_draw.h). */
#include "engine/resign_draw.h"

#include "board/bitboard.h"
#include "engine/option_table.h"

/* Scores this close to the draw score count as "dead level". */
#define LEVEL_MARGIN 15
/* How many of our consecutive scores must be level before we offer a draw. */
#define LEVEL_MOVES 8
/* No offers before this move number, and at most one every OFFER_GAP of our moves. */
#define MIN_OFFER_MOVE 30
#define OFFER_GAP 10
/* Accepting: our score must not exceed the draw score by more than this. */
#define ACCEPT_MARGIN 25
#define MIN_ACCEPT_MOVE 20

MannersConfig manners_config(const Options *opts, int contempt)
{
    MannersConfig cfg = {
        .resign_threshold = (int)option_int(opts, OPT_RESIGN_THRESHOLD),
        .resign_moves = (int)option_int(opts, OPT_RESIGN_MOVES),
        .draw_offers = option_bool(opts, OPT_DRAW_OFFERS),
        .draw_contempt = -contempt,
    };
    return cfg;
}

void manners_reset(MannersState *st)
{
    st->count = 0;
    st->last_offer_move = -100;
    st->resigned = false;
}

void manners_record(MannersState *st, int score)
{
    st->scores[st->count % MANNERS_HISTORY] = score;
    st->count++;
}

/* The i-th most recent score (0 = last). */
static int recent(const MannersState *st, int i)
{
    return st->scores[(st->count - 1 - i) % MANNERS_HISTORY];
}

bool manners_should_resign(const MannersState *st, const MannersConfig *cfg)
{
    if (cfg->resign_threshold <= 0)
        return false;
    int need = cfg->resign_moves > 0 ? cfg->resign_moves : 1;
    if (need > MANNERS_HISTORY || st->count < need)
        return false;
    for (int i = 0; i < need; i++)
        if (recent(st, i) > -cfg->resign_threshold)
            return false;
    return true;
}

int manners_material(const Position *pos)
{
    return 3 * popcount(pos->by_type[KNIGHT] | pos->by_type[BISHOP])
         + 5 * popcount(pos->by_type[ROOK]) + 9 * popcount(pos->by_type[QUEEN]);
}

static bool level_for(const MannersState *st, const MannersConfig *cfg, int moves, int margin)
{
    if (st->count < moves)
        return false;
    for (int i = 0; i < moves; i++) {
        int s = recent(st, i);
        if (s > cfg->draw_contempt + margin || s < cfg->draw_contempt - margin)
            return false;
    }
    return true;
}

bool manners_offer_draw(MannersState *st, const MannersConfig *cfg, const Position *pos)
{
    if (!cfg->draw_offers || st->count - st->last_offer_move < OFFER_GAP)
        return false;
    int move_number = fullmove_number(pos);
    if (move_number < MIN_OFFER_MOVE)
        return false;
    /* With lots of material a level score can still turn; ask for a longer stretch. */
    bool little_material = manners_material(pos) <= 16;
    int moves = little_material ? LEVEL_MOVES : 2 * LEVEL_MOVES;
    if (!level_for(st, cfg, moves, LEVEL_MARGIN))
        return false;
    st->last_offer_move = st->count;
    return true;
}

bool manners_accept_draw(const MannersState *st, const MannersConfig *cfg, const Position *pos)
{
    if (!cfg->draw_offers || st->count == 0)
        return false;
    if (fullmove_number(pos) < MIN_ACCEPT_MOVE && manners_material(pos) > 16)
        return false;
    /* The last two scores, so a single optimistic or pessimistic search does not decide. */
    int n = st->count < 2 ? st->count : 2;
    for (int i = 0; i < n; i++)
        if (recent(st, i) > cfg->draw_contempt + ACCEPT_MARGIN)
            return false;
    return true;
}
