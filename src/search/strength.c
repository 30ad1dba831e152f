/* Strength limitation and contempt: see strength.h. */
#include "search/strength.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/words.h"

bool opponent_parse(const char *text, OpponentInfo *out)
{
    memset(out, 0, sizeof *out);
    char title[16], rating[16], kind[16];
    if (!text || sscanf(text, "%15s %15s %15s", title, rating, kind) != 3)
        return false;
    static const char *const titles[] = { "GM", "IM", "FM", "WGM", "WIM", "WFM", "CM", "WCM",
                                          "none" };
    bool title_ok = false;
    for (size_t i = 0; i < sizeof titles / sizeof *titles; i++)
        if (!strcasecmp(title, titles[i]))
            title_ok = true;
    if (!title_ok)
        return false;
    int r = 0;
    if (strcasecmp(rating, "none") && !word_to_int(rating, 0, 4000, &r))
        return false;
    if (strcasecmp(kind, "computer") && strcasecmp(kind, "human"))
        return false;
    out->known = true;
    out->rating = r;
    out->computer = !strcasecmp(kind, "computer");
    if (strcasecmp(title, "none"))
        snprintf(out->title, sizeof out->title, "%s", title);
    return true;
}

int contempt_for_opponent(int base_contempt, int own_rating, const OpponentInfo *opp)
{
    if (!opp || !opp->known || opp->rating <= 0)
        return base_contempt;
    if (own_rating <= 0)
        own_rating = STRENGTH_NOMINAL_RATING;
    /* 1 cp per 10 rating points of advantage, at most half a pawn either way; half of
     * that against engines, whose ratings come from a different pool. */
    int diff = own_rating - opp->rating;
    int adjust = diff / 10;
    if (adjust > 50)
        adjust = 50;
    if (adjust < -50)
        adjust = -50;
    if (opp->computer)
        adjust /= 2;
    return base_contempt + adjust;
}

/* Measured calibration (docs/search.md): the strength each internal level plays at,
 * on the scale of Stockfish 15.1's own UCI_Elo (60-game matches against it on a clock,
 * tuned evaluation). A setting is turned into the level that plays at
 * that strength, by linear interpolation; below the first point the measured offset is
 * kept. The top setting is a level too: full strength is UCI_LimitStrength off, as in
 * Stockfish. */
static const struct {
    int strength;
    int level;
} CALIBRATION[] = {
    { 1460, 1400 },
    { 1901, 1800 }, /* two matches pooled, docs/search.md */
    { 2133, 2200 },
    { 2444, 2450 }, /* Stockfish on a 60+0.6 s clock, docs/search.md */
};
#define CALIBRATION_POINTS ((int)(sizeof CALIBRATION / sizeof *CALIBRATION))

static double internal_level(int elo)
{
    if (elo < STRENGTH_MIN_ELO)
        elo = STRENGTH_MIN_ELO;
    if (elo > STRENGTH_MAX_ELO)
        elo = STRENGTH_MAX_ELO;
    if (elo <= CALIBRATION[0].strength)
        return elo - (CALIBRATION[0].strength - CALIBRATION[0].level);
    for (int i = 1; i < CALIBRATION_POINTS; i++)
        if (elo <= CALIBRATION[i].strength) {
            double t = (double)(elo - CALIBRATION[i - 1].strength)
                     / (CALIBRATION[i].strength - CALIBRATION[i - 1].strength);
            return CALIBRATION[i - 1].level + t * (CALIBRATION[i].level - CALIBRATION[i - 1].level);
        }
    return CALIBRATION[CALIBRATION_POINTS - 1].level;
}

uint64_t strength_node_limit(int elo)
{
    /* 256 nodes at level 1000, doubling every 120 levels; at least 64. */
    double nodes = 256.0 * pow(2.0, (internal_level(elo) - 1000.0) / 120.0);
    return nodes < 64.0 ? 64 : (uint64_t)nodes;
}

/* Random bonus range in centipawns: 150 at level 1000, none from STRENGTH_NOISE_FREE. */
#define STRENGTH_NOISE_FREE 2350
static int noise_of(int elo)
{
    double noise =
        (STRENGTH_NOISE_FREE - internal_level(elo)) * 150.0 / (STRENGTH_NOISE_FREE - 1000);
    return noise > 0 ? (int)noise : 0;
}

/* Four lines while the noise is large, then one fewer for every 4 cp it shrinks below
 * 16, so that the top levels rise gradually to a single line instead of in one step
 * (each extra line costs about a doubling of the search). */
int strength_candidate_lines(int elo)
{
    int lines = 1 + noise_of(elo) / 4;
    return lines > 4 ? 4 : lines;
}

static uint64_t next_random(uint64_t *s)
{
    *s += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int strength_pick(const int *scores, int count, int elo, uint64_t *rng)
{
    int noise = noise_of(elo);
    if (noise <= 0 || count <= 1)
        return 0;
    int best = 0, best_value = -(1 << 30);
    for (int i = 0; i < count; i++) {
        int value = scores[i] + (int)(next_random(rng) % (uint64_t)(noise + 1));
        if (value > best_value) {
            best_value = value;
            best = i;
        }
    }
    return best;
}

int64_t strength_think_ms(const TimeManager *tm, const SearchLimits *limits)
{
    if (limits->infinite || tm->hard_ms < 0)
        return 0;
    if (limits->movetime > 0 || tm->soft_ms < 0)
        return tm->hard_ms;
    int64_t share = tm->soft_ms * 6 / 10;
    return share < tm->hard_ms ? share : tm->hard_ms;
}
