/* Option registry: see options.h. */
#include "util/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/errmsg.h"

void options_init(Options *opts)
{
    memset(opts, 0, sizeof *opts);
}

static Option *add(Options *opts, const char *name, OptionType type, OptionHook hook, void *ctx)
{
    if (opts->count >= OPTIONS_MAX) {
        fprintf(stderr, "options: too many options, dropping %s\n", name);
        return NULL;
    }
    Option *o = &opts->items[opts->count++];
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "%s", name);
    o->type = type;
    o->hook = hook;
    o->ctx = ctx;
    o->source = OPT_SOURCE_DEFAULT;
    return o;
}

Option *option_add_spin(Options *opts, const char *name, int64_t def, int64_t min, int64_t max,
                        OptionHook hook, void *ctx)
{
    Option *o = add(opts, name, OPT_SPIN, hook, ctx);
    if (o) {
        o->min = min;
        o->max = max;
        o->default_int = o->value = def;
    }
    return o;
}

Option *option_add_check(Options *opts, const char *name, bool def, OptionHook hook, void *ctx)
{
    Option *o = add(opts, name, OPT_CHECK, hook, ctx);
    if (o)
        o->default_int = o->value = def;
    return o;
}

Option *option_add_string(Options *opts, const char *name, const char *def, OptionHook hook, void *ctx)
{
    Option *o = add(opts, name, OPT_STRING, hook, ctx);
    if (o) {
        snprintf(o->default_str, sizeof o->default_str, "%s", def);
        snprintf(o->str, sizeof o->str, "%s", def);
    }
    return o;
}

Option *option_add_button(Options *opts, const char *name, OptionHook hook, void *ctx)
{
    return add(opts, name, OPT_BUTTON, hook, ctx);
}

Option *option_add_combo(Options *opts, const char *name, const char *def, const char *values,
                         OptionHook hook, void *ctx)
{
    Option *o = add(opts, name, OPT_COMBO, hook, ctx);
    if (o) {
        o->combo_values = values;
        snprintf(o->default_str, sizeof o->default_str, "%s", def);
        snprintf(o->str, sizeof o->str, "%s", def);
    }
    return o;
}

Option *options_find(Options *opts, const char *name)
{
    for (int i = 0; i < opts->count; i++)
        if (!strcasecmp(opts->items[i].name, name))
            return &opts->items[i];
    return NULL;
}

const Option *options_find_const(const Options *opts, const char *name)
{
    return options_find((Options *)opts, name);
}

/* Finds value in the "a|b|c" list, case-insensitively; copies the canonical spelling. */
static bool combo_match(const char *values, const char *value, char *out, size_t size)
{
    const char *p = values;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == strlen(value) && !strncasecmp(p, value, len)) {
            snprintf(out, size, "%.*s", (int)len, p);
            return true;
        }
        if (!bar)
            break;
        p = bar + 1;
    }
    return false;
}

bool options_set(Options *opts, const char *name, const char *value, OptionSource source,
                 char *err, size_t err_size)
{
    if (err && err_size)
        err[0] = '\0'; /* a hook may accept the value and still leave a warning here */
    Option *o = options_find(opts, name);
    if (!o)
        return error_set(err, err_size, "unknown option '%s'", name);
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
                snprintf(err, err_size, "option '%s': %lld cut to %lld (range %lld..%lld)", o->name, v,
                         cut, (long long)o->min, (long long)o->max);
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
            return error_set(err, err_size, "option '%s': '%s' is not true or false", o->name, value);
        break;
    case OPT_STRING:
        if (strlen(value) >= sizeof o->str)
            return error_set(err, err_size, "option '%s': value too long", o->name);
        snprintf(o->str, sizeof o->str, "%s", value);
        break;
    case OPT_COMBO:
        if (!combo_match(o->combo_values, value, o->str, sizeof o->str))
            return error_set(err, err_size, "option '%s': '%s' is not one of the choices", o->name, value);
        break;
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

void options_override(Options *opts, OptionOverrides *ov, const char *name, const char *value)
{
    Option *o = options_find(opts, name);
    if (!o || ov->count >= OPTIONS_MAX)
        return;
    ov->index[ov->count] = (int)(o - opts->items);
    ov->saved[ov->count++] = *o;
    char err[160];
    options_set(opts, name, value, OPT_SOURCE_GUI, err, sizeof err);
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
            options_set(opts, o->name, value, OPT_SOURCE_GUI, err, sizeof err);
        o->source = old->source;
    }
    ov->count = 0;
}

int64_t options_int(const Options *opts, const char *name)
{
    const Option *o = options_find_const(opts, name);
    return o ? o->value : 0;
}

bool options_bool(const Options *opts, const char *name)
{
    return options_int(opts, name) != 0;
}

const char *options_str(const Options *opts, const char *name)
{
    const Option *o = options_find_const(opts, name);
    return o ? o->str : "";
}
