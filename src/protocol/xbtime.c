/* xboard time controls to SearchLimits (see xbtime.h). */
#include "protocol/xbtime.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Moves assumed to remain when converting a clock into a node budget (nps mode). */
#define NPS_MOVES_GUESS 30
/* Node rates above this (nps) are cut to it: the node budget is rate times time. */
#define XB_MAX_NPS 1000000000LL

void xbclock_init(XbClock *c)
{
    *c = (XbClock){.mps = 40, .base_ms = 5 * 60 * 1000, .my_ms = -1, .opp_ms = -1};
}

void xbclock_new_game(XbClock *c)
{
    c->sd = 0;
    c->nps = 0;
    c->my_ms = c->opp_ms = c->st_ms > 0 ? -1 : c->base_ms;
}

/* Non-negative decimal with an optional fraction; trailing junk is ignored only when
 * allow_tail (the protocol reserves extra characters after the base time). */
static bool parse_decimal(const char *s, double *out, const char **end)
{
    if (!isdigit((unsigned char)*s) && *s != '.')
        return false;
    char *e;
    errno = 0;
    double v = strtod(s, &e);
    if (e == s || errno || v < 0 || v > 1e7)
        return false;
    *out = v;
    *end = e;
    return true;
}

bool xbclock_level(XbClock *c, const char *mps, const char *base, const char *inc,
                   char *err, size_t err_size)
{
    char *e;
    errno = 0;
    long moves = strtol(mps, &e, 10);
    if (e == mps || *e || errno || moves < 0 || moves > 1000) {
        snprintf(err, err_size, "bad moves per session '%s'", mps);
        return false;
    }
    /* BASE is minutes or minutes:seconds; characters after it are reserved, ignored. */
    double minutes, seconds = 0;
    const char *p;
    if (!parse_decimal(base, &minutes, &p)) {
        snprintf(err, err_size, "bad base time '%s'", base);
        return false;
    }
    if (*p == ':') {
        const char *q;
        if (!parse_decimal(p + 1, &seconds, &q)) {
            snprintf(err, err_size, "bad base time '%s'", base);
            return false;
        }
    }
    double inc_s;
    const char *r;
    if (!parse_decimal(inc, &inc_s, &r) || *r) {
        snprintf(err, err_size, "bad increment '%s'", inc);
        return false;
    }
    c->mps = (int)moves;
    c->base_ms = (int64_t)((minutes * 60 + seconds) * 1000 + 0.5);
    c->inc_ms = (int64_t)(inc_s * 1000 + 0.5);
    c->st_ms = 0;
    c->my_ms = c->opp_ms = c->base_ms;
    return true;
}

bool xbclock_is_command(const char *cmd)
{
    static const char *const COMMANDS[] = {"level", "st", "sd", "nps", "time", "otim"};
    for (size_t i = 0; i < sizeof COMMANDS / sizeof *COMMANDS; i++)
        if (!strcmp(cmd, COMMANDS[i]))
            return true;
    return false;
}

bool xbclock_command(XbClock *c, const char *cmd, const char *a1, const char *a2,
                     const char *a3, char *err, size_t err_size)
{
    if (!strcmp(cmd, "level")) {
        if (!a3[0]) {
            snprintf(err, err_size, "level needs MPS BASE INC");
            return false;
        }
        return xbclock_level(c, a1, a2, a3, err, err_size);
    }
    if (!strcmp(cmd, "st")) {
        char *end;
        double s = strtod(a1, &end);
        if (end == a1 || *end || !(s > 0) || s > 1e6) {
            snprintf(err, err_size, "bad time per move");
            return false;
        }
        c->st_ms = (int64_t)(s * 1000 + 0.5);
        return true;
    }
    /* sd, nps, time, otim: whole numbers; only the clocks may be negative */
    char *end;
    errno = 0;
    long long v = strtoll(a1, &end, 10);
    bool clock = !strcmp(cmd, "time") || !strcmp(cmd, "otim");
    if (end == a1 || *end || errno || v < (clock ? -1000000000LL : 0)) {
        snprintf(err, err_size, "bad number");
        return false;
    }
    if (!strcmp(cmd, "sd")) {
        c->sd = v >= MAX_PLY ? MAX_PLY - 1 : (int)v;
    } else if (!strcmp(cmd, "nps")) {
        c->nps = v < XB_MAX_NPS ? v : XB_MAX_NPS;
    } else {
        /* centiseconds; a negative clock (flag down, increment to come) counts as 0,
         * and one beyond any real game is cut before the conversion can overflow */
        int64_t ms = v < LIMITS_MAX_MS / 10 ? limits_clamp_ms(v * 10) : LIMITS_MAX_MS;
        if (!strcmp(cmd, "time"))
            c->my_ms = ms;
        else
            c->opp_ms = ms;
    }
    return true;
}

void xbclock_after_move(XbClock *c, int64_t used_ms)
{
    if (c->my_ms < 0)
        return;
    c->my_ms = c->my_ms - used_ms + c->inc_ms;
    if (c->my_ms < 0)
        c->my_ms = 0;
}

int xbclock_moves_to_go(const XbClock *c, int own_moves_since_level)
{
    if (c->mps <= 0)
        return 0;
    if (own_moves_since_level < 0)
        own_moves_since_level = 0;
    return c->mps - own_moves_since_level % c->mps;
}

void xbclock_limits(const XbClock *c, int us, int own_moves_since_level, SearchLimits *limits)
{
    limits_init(limits);
    limits->depth = c->sd;
    int them = us ^ 1;
    int64_t budget_ms;
    if (c->st_ms > 0) {
        limits->movetime = c->st_ms;
        budget_ms = c->st_ms;
    } else {
        int64_t mine = c->my_ms >= 0 ? c->my_ms : c->base_ms;
        int64_t theirs = c->opp_ms >= 0 ? c->opp_ms : c->base_ms;
        limits->time[us] = mine;
        limits->time[them] = theirs;
        limits->inc[us] = limits->inc[them] = c->inc_ms;
        limits->movestogo = xbclock_moves_to_go(c, own_moves_since_level);
        int mtg = limits->movestogo > 0 ? limits->movestogo : NPS_MOVES_GUESS;
        budget_ms = mine / mtg + c->inc_ms;
    }
    if (c->nps > 0) {
        /* Node-based timing: the budget becomes a node count, the clock is not read. */
        uint64_t nodes = (uint64_t)(budget_ms > 1 ? budget_ms : 1) * (uint64_t)c->nps / 1000;
        limits_init(limits);
        limits->depth = c->sd;
        limits->nodes = nodes > 0 ? nodes : 1;
    }
}
