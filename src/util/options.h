/* Engine options, independent of the protocol that shows them: UCI prints them as
 * `option name ...`, xboard as `feature option="..."`, engine.rc sets them by name.
 * The owner declares them as a table of OptionSpec rows (the engine's is the X-macro
 * list of engine/option_table.h); option i is row i, so code reads a value by the row's
 * index, an enum constant whose misspelling does not compile. Only text from outside
 * (a GUI, engine.rc) is looked up by name, case-insensitively.
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

/* One row of an option table, its kind written with an OPTION_* initialiser below:
 *   { .name = "Hash", OPTION_SPIN(16, 1, 65536), .hook = on_hash } */
typedef struct {
    const char *name;
    OptionType type;
    int64_t def, min, max;   /* spin; check (def 0 or 1) */
    const char *def_str;     /* string, combo */
    const char *choices;     /* combo: "a|b|c" */
    bool clamp;              /* spin: a value out of range is cut to it (with a warning) */
    OptionHook hook;
} OptionSpec;

#define OPTION_SPIN(d, lo, hi) .type = OPT_SPIN, .def = (d), .min = (lo), .max = (hi)
#define OPTION_SPIN_CUT(d, lo, hi) OPTION_SPIN(d, lo, hi), .clamp = true
#define OPTION_CHECK(d) .type = OPT_CHECK, .def = (d)
#define OPTION_STRING(d) .type = OPT_STRING, .def_str = (d)
#define OPTION_COMBO(d, list) .type = OPT_COMBO, .def_str = (d), .choices = (list)
#define OPTION_BUTTON() .type = OPT_BUTTON

struct Option {
    char name[OPTION_NAME_MAX];
    OptionType type;
    int64_t min, max;
    const char *combo_values; /* "a|b|c" for combos */
    int64_t value;            /* spin, check; a combo's choice, counted from 0 */
    char str[OPTION_STRING_MAX]; /* string, combo */
    OptionSource source;
    bool clamp;
    OptionHook hook;
    void *ctx;
};

typedef struct {
    Option items[OPTIONS_MAX];
    int count;
} Options;

/* The options of specs[0..count), option i from row i, every hook called with ctx; each
 * holds its default (no hook runs). False, with a line on stderr, when a row cannot be
 * used (too many rows, a combo default that is not one of its choices); the rows before
 * it are kept. */
bool options_init(Options *opts, const OptionSpec *specs, int count, void *ctx);
/* Gives option id the hook (and its ctx) that the table could not name. */
void options_set_hook(Options *opts, int id, OptionHook hook, void *ctx);

/* The index of the option of that name, case-insensitively; -1 when there is none. */
int options_index(const Options *opts, const char *name);
/* The same as a pointer; NULL when absent. */
Option *options_find(Options *opts, const char *name);

/* Parses and sets the named option (a name from a GUI or engine.rc); a button ignores the
 * value. Returns false with a one-line message for an unknown name or a bad value; a set
 * from a lower-priority source than the current one is ignored and returns true. On
 * success err is "" or a warning to show. */
bool options_set(Options *opts, const char *name, const char *value, OptionSource source,
                 char *err, size_t err_size);
/* The same for option id (the code's own settings). */
bool options_set_id(Options *opts, int id, const char *value, OptionSource source, char *err,
                    size_t err_size);

/* Temporary settings (the EPD test turns books and strength limits off for its run):
 * options_override records option id's value and source before setting it as the GUI
 * would; options_restore sets them back in reverse order, through the hooks, and gives
 * each its original source again so engine.rc/GUI precedence is unchanged. */
typedef struct {
    int count;
    int index[OPTIONS_MAX];
    Option saved[OPTIONS_MAX];
} OptionOverrides;

void options_override(Options *opts, OptionOverrides *ov, int id, const char *value);
void options_restore(Options *opts, OptionOverrides *ov);

/* Option id's value: a spin's number, a check's 0 or 1, a combo's choice (from 0); a
 * check's as a bool; a string's or a combo's text. */
int64_t option_int(const Options *opts, int id);
bool option_bool(const Options *opts, int id);
const char *option_str(const Options *opts, int id);

#endif
