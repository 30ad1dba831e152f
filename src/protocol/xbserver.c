/* xboard server manners: see xbserver.h. */
#include "protocol/xbserver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/gameend.h"
#include "search/search.h"
#include "util/words.h"

bool xbserver_init(XbServer *s)
{
    memset(s, 0, sizeof *s);
    s->after = malloc(sizeof(Position));
    manners_reset(&s->manners);
    return s->after != NULL;
}

void xbserver_free(XbServer *s)
{
    free(s->after);
    s->after = NULL;
}

void xbserver_new_game(XbServer *s)
{
    manners_reset(&s->manners);
}

/* ---- the players ---- */

static void update_opponent(XbServer *s, Engine *e, XbOut *out)
{
    engine_set_opponent(e, &s->opponent, s->own_rating);
    xb_trace(out, "opponent %s rating %d%s, own rating %d: contempt %d", s->opponent_name,
             s->opponent.rating, s->opponent.computer ? " (computer)" : "", s->own_rating,
             engine_contempt(e));
}

/* A rating as the protocol sends it: a whole number, 0 for unrated. */
static bool rating_value(const char *text, long *out)
{
    return word_to_long(text, 0, 9999, out);
}

void xbserver_name(XbServer *s, const char *name)
{
    snprintf(s->opponent_name, sizeof s->opponent_name, "%s", name);
}

void xbserver_rating(XbServer *s, Engine *e, XbOut *out, const char *own, const char *opp,
                     const char *extra, const char *line)
{
    long own_rating, opp_rating;
    if (!rating_value(own, &own_rating) || !rating_value(opp, &opp_rating) || extra[0]) {
        xb_send(out, "Error (rating needs two ratings 0..9999): %s", line);
        return;
    }
    s->own_rating = (int)own_rating;
    s->opponent.rating = (int)opp_rating;
    s->opponent.known = s->opponent.rating > 0 || s->opponent.computer;
    update_opponent(s, e, out);
}

void xbserver_computer(XbServer *s, Engine *e, XbOut *out)
{
    s->opponent.computer = true;
    s->opponent.known = true;
    update_opponent(s, e, out);
}

void xbserver_ics(XbServer *s, const char *host)
{
    s->on_server = host[0] && strcmp(host, "-");
}

/* ---- draws and resignation ---- */

void xbserver_draw_offered(const XbServer *s, Engine *e, XbOut *out)
{
    MannersConfig cfg = manners_config(engine_options(e), engine_contempt(e));
    if (manners_accept_draw(&s->manners, &cfg, engine_position(e)))
        xb_send(out, "offer draw");
}

/* The search's score for the manners: centipawns, mates beyond MANNERS_DECISIVE. */
static int manners_score(const SearchResult *r)
{
    SearchReport rep;
    search_score_to_report(r->score, &rep);
    if (!rep.is_mate)
        return rep.cp;
    return rep.mate_moves > 0 ? MANNERS_DECISIVE + 1000 - rep.mate_moves
                              : -MANNERS_DECISIVE - 1000 - rep.mate_moves;
}

bool xbserver_before_move(XbServer *s, Engine *e, XbOut *out, Move best)
{
    SearchResult result = engine_last_result(e);
    manners_record(&s->manners, manners_score(&result));
    MannersConfig cfg = manners_config(engine_options(e), engine_contempt(e));
    if (manners_should_resign(&s->manners, &cfg)) {
        xb_send(out, "resign");
        return false;
    }
    /* A draw we could claim after this move (repetition, fifty moves) is claimed with an
     * offer before it; a plain offer comes from the score and the material left. */
    Position *after = s->after;
    *after = *engine_position(e);
    make_move(after, best);
    GameEnd end = game_end_status(after);
    bool claimable = end == GAME_REPETITION || end == GAME_FIFTY_MOVES;
    if (claimable || manners_offer_draw(&s->manners, &cfg, after))
        xb_send(out, "offer draw");
    return true;
}
