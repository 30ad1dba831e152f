/* xboard features and engine settings: see xbopts.h. */
#define _GNU_SOURCE
#include "protocol/xbopts.h"

#include <limits.h>
#include <string.h>
#include <strings.h>

#include "util/words.h"
#include "util/platform.h"

void xbopts_send_features(Engine *e, XbOut *out)
{
    xb_send(out, "feature done=0");
    xb_send(out, "feature myname=\"%s %s\" ping=1 setboard=1 playother=1 usermove=1 time=1 draw=1"
                " sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 name=1 ics=1 memory=1 smp=1"
                " egt=\"syzygy\" debug=1 exclude=1 nps=1 pause=0 san=0"
                " variants=\"normal,fischerandom\"",
            ENGINE_NAME, ENGINE_VERSION);
    /* Options the GUI can set with `option NAME=VALUE`; those with their own xboard
     * command (memory, cores, hard/easy, rating) or meaning only in UCI are left out. */
    static const EngineOption HIDDEN[] = {OPT_HASH, OPT_THREADS, OPT_PONDER, OPT_UCI_ANALYSE_MODE,
                                          OPT_UCI_OPPONENT,
                                          OPT_UCI_CHESS960 /* variant fischerandom */,
                                          OPT_UCI_SHOW_WDL};
    const Options *opts = engine_options(e);
    for (int i = 0; i < opts->count; i++) {
        const Option *o = &opts->items[i];
        bool hidden = false;
        for (size_t h = 0; h < sizeof HIDDEN / sizeof *HIDDEN; h++)
            hidden |= i == (int)HIDDEN[h];
        if (hidden)
            continue;
        switch (o->type) {
        case OPT_SPIN:
            xb_send(out, "feature option=\"%s -spin %lld %lld %lld\"", o->name, (long long)o->value,
                    (long long)o->min, (long long)o->max);
            break;
        case OPT_CHECK:
            xb_send(out, "feature option=\"%s -check %d\"", o->name, o->value ? 1 : 0);
            break;
        case OPT_STRING: {
            const char *kind = strcasestr(o->name, "path") ? "-path"
                             : strcasestr(o->name, "file") ? "-file"
                                                           : "-string";
            xb_send(out, "feature option=\"%s %s %s\"", o->name, kind, o->str);
            break;
        }
        case OPT_BUTTON:
            xb_send(out, "feature option=\"%s -button\"", o->name);
            break;
        case OPT_COMBO: {
            char list[1024] = "";
            const char *p = o->combo_values;
            while (p && *p) {
                const char *bar = strchr(p, '|');
                size_t len = bar ? (size_t)(bar - p) : strlen(p);
                size_t used = strlen(list);
                bool current = len == strlen(o->str) && !strncasecmp(p, o->str, len);
                snprintf(list + used, sizeof list - used, "%s%s%.*s", used ? " /// " : "",
                         current ? "*" : "", (int)len, p);
                p = bar ? bar + 1 : p + len;
            }
            xb_send(out, "feature option=\"%s -combo %s\"", o->name, list);
            break;
        }
        }
    }
    xb_send(out, "feature done=1");
}

/* Sets an option as the GUI does. */
static void set_option(Engine *e, XbOut *out, const char *name, const char *value,
                       const char *line)
{
    char err[256];
    if (!engine_set_option(e, name, value, OPT_SOURCE_GUI, err, sizeof err))
        xb_send(out, "Error (%s): %s", err, line);
    else if (err[0])
        /* A warning (the value was taken, e.g. a tablebase directory that is missing):
         * `Error` would tell the GUI the command was not understood. */
        xb_send(out, "# warning: %s", err);
}

/* memory and cores: a whole positive number ("12abc" is not 12) for a spin option,
 * cut to the option's maximum (the GUI gives the most we may use). An unchanged value
 * set by the GUI before is not set again: re-setting Hash would reallocate the table. */
static void set_count_option(Engine *e, XbOut *out, EngineOption id, const char *arg,
                             const char *line, const char *error_kind)
{
    long n;
    const Option *o = &engine_options(e)->items[id];
    if (!word_to_long(arg, 1, LONG_MAX, &n)) {
        xb_send(out, "Error (%s): %s", error_kind, line);
        return;
    }
    if (n > o->max)
        n = (long)o->max;
    if (n != o->value || o->source != OPT_SOURCE_GUI) {
        char v[32];
        snprintf(v, sizeof v, "%ld", n);
        set_option(e, out, o->name, v, line);
    }
}

void xbopts_memory(Engine *e, XbOut *out, const char *megabytes, const char *line)
{
    set_count_option(e, out, OPT_HASH, megabytes, line, "bad memory size");
}

void xbopts_cores(Engine *e, XbOut *out, const char *count, const char *line)
{
    set_count_option(e, out, OPT_THREADS, count, line, "bad core count");
}

void xbopts_option(Engine *e, XbOut *out, const char *arg, const char *line)
{
    char name[OPTION_NAME_MAX + 1];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (len == 0 || len > OPTION_NAME_MAX) {
        xb_send(out, "Error (bad option): %s", line);
        return;
    }
    memcpy(name, arg, len);
    name[len] = '\0';
    set_option(e, out, name, eq ? eq + 1 : "", line);
}

void xbopts_egtpath(Engine *e, XbOut *out, const char *type, const char *path, const char *line)
{
    if (strcasecmp(type, "syzygy")) {
        xb_send(out, "Error (unsupported tablebase type): %s", line);
        return;
    }
    /* xboard repeats egtpath before every game: only a new path is (re)loaded and, if
     * bad, reported, so a missing default path warns once. */
    const Option *o = &engine_options(e)->items[OPT_SYZYGY_PATH];
    if (o->source == OPT_SOURCE_GUI && !strcmp(o->str, path))
        return;
    set_option(e, out, o->name, path, line);
}
