/* Engine options, independent of the protocol that shows them: UCI prints them as
 * `option name ...`, xboard as `feature option="..."`, engine.rc sets them by name.
 * Each value remembers where it came from; a lower-priority source (engine.rc) never
 * overrides a value a higher one (the GUI) has set. */
#ifndef SAAVEDRA_OPTIONS_H
#define SAAVEDRA_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { OPT_SPIN, OPT_CHECK, OPT_STRING, OPT_BUTTON, OPT_COMBO } OptionType;

/* Priority of the setter: a set from a lower source is ignored once a higher one set it. */
typedef enum { OPT_SOURCE_DEFAULT, OPT_SOURCE_RC, OPT_SOURCE_GUI } OptionSource;

#define OPTION_NAME_MAX 40
#define OPTION_STRING_MAX 256
#ifndef OPTIONS_MAX
#define OPTIONS_MAX 48 /* the tuning build raises it: a spin option per search parameter */
#endif

typedef struct Option Option;
/* Called after the value changed (and for buttons when pressed). Returns false, with a
 * message in err, to reject the new value; the previous value is then restored. A hook
 * that accepts the value may leave a warning in err (e.g. tables missing from a path). */
typedef bool (*OptionHook)(void *ctx, const Option *opt, char *err, size_t err_size);

struct Option {
    char name[OPTION_NAME_MAX];
    OptionType type;
    int64_t min, max, default_int;
    char default_str[OPTION_STRING_MAX];
    const char *combo_values; /* "a|b|c" for combos */
    int64_t value;            /* spin, check */
    char str[OPTION_STRING_MAX]; /* string, combo */
    OptionSource source;
    bool clamp;               /* spin: a value out of range is cut to it (with a warning) */
    OptionHook hook;
    void *ctx;
};

typedef struct {
    Option items[OPTIONS_MAX];
    int count;
} Options;

void options_init(Options *opts);
Option *option_add_spin(Options *opts, const char *name, int64_t def, int64_t min, int64_t max,
                        OptionHook hook, void *ctx);
Option *option_add_check(Options *opts, const char *name, bool def, OptionHook hook, void *ctx);
Option *option_add_string(Options *opts, const char *name, const char *def, OptionHook hook, void *ctx);
Option *option_add_button(Options *opts, const char *name, OptionHook hook, void *ctx);
Option *option_add_combo(Options *opts, const char *name, const char *def, const char *values,
                         OptionHook hook, void *ctx);

/* Case-insensitive lookup; NULL when absent. */
Option *options_find(Options *opts, const char *name);
const Option *options_find_const(const Options *opts, const char *name);

/* Parses and sets a value (a button ignores the value). Returns false with a one-line
 * message for an unknown name or a bad value; a set from a lower-priority source than the
 * current one is ignored and returns true. On success err is "" or a warning to show. */
bool options_set(Options *opts, const char *name, const char *value, OptionSource source,
                 char *err, size_t err_size);

/* Temporary settings (the EPD test turns books and strength limits off for its run):
 * options_override records each option's value and source before setting it as the GUI
 * would; options_restore sets them back in reverse order, through the hooks, and gives
 * each its original source again so engine.rc/GUI precedence is unchanged. Unknown
 * names are skipped. */
typedef struct {
    int count;
    int index[OPTIONS_MAX];
    Option saved[OPTIONS_MAX];
} OptionOverrides;

void options_override(Options *opts, OptionOverrides *ov, const char *name, const char *value);
void options_restore(Options *opts, OptionOverrides *ov);

/* Convenience getters (0 / false / "" when absent). */
int64_t options_int(const Options *opts, const char *name);
bool options_bool(const Options *opts, const char *name);
const char *options_str(const Options *opts, const char *name);

#endif
