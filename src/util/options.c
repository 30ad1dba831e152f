/* Option tables: see options.h. */
#include "util/options.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/errmsg.h"

/* The position of value in the "a|b|c" list, case-insensitively, with its spelling there
 * copied to out (if not NULL); -1 when it is not one of them. */
static int combo_match(const char *values, const char *value, char *out, size_t size)
{
    const char *p = values;
    for (int i = 0; p && *p; i++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == strlen(value) && !strncasecmp(p, value, len)) {
            if (out)
                snprintf(out, size, "%.*s", (int)len, p);
            return i;
        }
        if (!bar)
            break;
        p = bar + 1;
    }
    return -1;
}

static bool add(Options *opts, const OptionSpec *spec, void *ctx)
{
    if (opts->count >= OPTIONS_MAX) {
        fprintf(stderr, "options: too many options, dropping %s\n", spec->name);
        return false;
    }
    Option *o = &opts->items[opts->count];
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "%s", spec->name);
    o->type = spec->type;
    o->min = spec->min;
    o->max = spec->max;
    o->clamp = spec->clamp;
    o->combo_values = spec->choices;
    o->hook = spec->hook;
    o->ctx = ctx;
    o->source = OPT_SOURCE_DEFAULT;
    if (o->type == OPT_SPIN || o->type == OPT_CHECK)
        o->value = spec->def;
    if (o->type == OPT_STRING || o->type == OPT_COMBO)
        snprintf(o->str, sizeof o->str, "%s", spec->def_str ? spec->def_str : "");
    if (o->type == OPT_COMBO && (o->value = combo_match(o->combo_values, o->str, NULL, 0)) < 0) {
        fprintf(stderr, "options: %s: the default '%s' is not one of its choices\n", o->name,
                o->str);
        return false;
    }
    opts->count++;
    return true;
}

bool options_init(Options *opts, const OptionSpec *specs, int count, void *ctx)
{
    memset(opts, 0, sizeof *opts);
    for (int i = 0; i < count; i++)
        if (!add(opts, &specs[i], ctx))
            return false;
    return true;
}

void options_set_hook(Options *opts, int id, OptionHook hook, void *ctx)
{
    assert(id >= 0 && id < opts->count);
    opts->items[id].hook = hook;
    opts->items[id].ctx = ctx;
}

int options_index(const Options *opts, const char *name)
{
    for (int i = 0; i < opts->count; i++)
        if (!strcasecmp(opts->items[i].name, name))
            return i;
    return -1;
}

Option *options_find(Options *opts, const char *name)
{
    int i = options_index(opts, name);
    return i < 0 ? NULL : &opts->items[i];
}

bool options_set(Options *opts, const char *name, const char *value, OptionSource source,
                 char *err, size_t err_size)
{
    int id = options_index(opts, name);
    if (id < 0)
        return error_set(err, err_size, "unknown option '%s'", name);
    return options_set_id(opts, id, value, source, err, err_size);
}

bool options_set_id(Options *opts, int id, const char *value, OptionSource source, char *err,
                    size_t err_size)
{
    assert(id >= 0 && id < opts->count);
    if (err && err_size)
        err[0] = '\0'; /* a hook may accept the value and still leave a warning here */
    Option *o = &opts->items[id];
    if (source < o->source && o->type != OPT_BUTTON)
        return true;
    if (!value)
        value = "";
    Option saved = *o;
    switch (o->type) {
    case OPT_SPIN: {
        char *end;
        errno = 0;
        long long v = strtoll(value, &end, 10);
        while (*end == ' ')
            end++;
        if (end == value || *end || errno)
            return error_set(err, err_size, "option '%s': '%s' is not a number", o->name, value);
        if ((v < o->min || v > o->max) && o->clamp) {
            long long cut = v < o->min ? o->min : o->max;
            if (err && err_size)
                snprintf(err, err_size, "option '%s': %lld cut to %lld (range %lld..%lld)", o->name,
                         v, cut, (long long)o->min, (long long)o->max);
            v = cut;
        }
        if (v < o->min || v > o->max) {
            char range[64];
            snprintf(range, sizeof range, "%lld..%lld", (long long)o->min, (long long)o->max);
            return error_set(err, err_size, "option '%s': value out of range %s", o->name, range);
        }
        o->value = v;
        break;
    }
    case OPT_CHECK:
        if (!strcasecmp(value, "true") || !strcmp(value, "1") || !strcasecmp(value, "on"))
            o->value = 1;
        else if (!strcasecmp(value, "false") || !strcmp(value, "0") || !strcasecmp(value, "off"))
            o->value = 0;
        else
            return error_set(err, err_size, "option '%s': '%s' is not true or false", o->name,
                             value);
        break;
    case OPT_STRING:
        if (strlen(value) >= sizeof o->str)
            return error_set(err, err_size, "option '%s': value too long", o->name);
        snprintf(o->str, sizeof o->str, "%s", value);
        break;
    case OPT_COMBO: {
        int choice = combo_match(o->combo_values, value, o->str, sizeof o->str);
        if (choice < 0)
            return error_set(err, err_size, "option '%s': '%s' is not one of the choices", o->name,
                             value);
        o->value = choice;
        break;
    }
    case OPT_BUTTON:
        break;
    }
    o->source = source;
    if (o->hook && !o->hook(o->ctx, o, err, err_size)) {
        *o = saved;
        return false;
    }
    return true;
}

void options_override(Options *opts, OptionOverrides *ov, int id, const char *value)
{
    if (ov->count >= OPTIONS_MAX)
        return;
    ov->index[ov->count] = id;
    ov->saved[ov->count++] = opts->items[id];
    char err[160];
    options_set_id(opts, id, value, OPT_SOURCE_GUI, err, sizeof err);
}

void options_restore(Options *opts, OptionOverrides *ov)
{
    char err[160];
    for (int i = ov->count - 1; i >= 0; i--) {
        Option *o = &opts->items[ov->index[i]];
        const Option *old = &ov->saved[i];
        char value[OPTION_STRING_MAX];
        if (o->type == OPT_CHECK)
            snprintf(value, sizeof value, "%s", old->value ? "true" : "false");
        else if (o->type == OPT_SPIN)
            snprintf(value, sizeof value, "%lld", (long long)old->value);
        else
            snprintf(value, sizeof value, "%s", old->str);
        if (o->type != OPT_BUTTON)
            options_set_id(opts, ov->index[i], value, OPT_SOURCE_GUI, err, sizeof err);
        o->source = old->source;
    }
    ov->count = 0;
}

/* Reading an option as the wrong type is a bug of the reader: the debug build stops. */
int64_t option_int(const Options *opts, int id)
{
    assert(id >= 0 && id < opts->count);
    assert(opts->items[id].type == OPT_SPIN || opts->items[id].type == OPT_CHECK
           || opts->items[id].type == OPT_COMBO);
    return opts->items[id].value;
}

bool option_bool(const Options *opts, int id)
{
    assert(id >= 0 && id < opts->count && opts->items[id].type == OPT_CHECK);
    return opts->items[id].value != 0;
}

const char *option_str(const Options *opts, int id)
{
    assert(id >= 0 && id < opts->count);
    assert(opts->items[id].type == OPT_STRING || opts->items[id].type == OPT_COMBO);
    return opts->items[id].str;
}
