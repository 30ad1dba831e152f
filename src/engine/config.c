/* Start-up configuration (see config.h). */
#include "engine/config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/platform.h"
#include "util/rcfile.h"

static bool trace_on; /* written once by main before any thread starts */

void config_set_trace(bool on)
{
    trace_on = on;
}

bool config_trace(void)
{
    return trace_on;
}

static void keep_warning(Config *cfg, const char *msg)
{
    fprintf(stderr, "%s\n", msg);
    if (cfg->warning_count < CONFIG_MAX_WARNINGS)
    {
        char *slot = cfg->warnings[cfg->warning_count++];
        size_t n =
            strlen(msg) < sizeof cfg->warnings[0] - 1 ? strlen(msg) : sizeof cfg->warnings[0] - 1;
        memcpy(slot, msg, n); /* long warnings are cut in the copy only */
        slot[n] = '\0';
    }
}

typedef struct {
    Engine *engine;
    Config *cfg;
} RcContext;

bool config_apply_setting(Engine *e, Config *cfg, const char *key, const char *value,
                          char *err, size_t err_size)
{
    if (rc_key_equal(key, "log file") || rc_key_equal(key, "logfile")) {
        if (cfg->wanted_log && !cfg->wanted_log[0]) /* -l on the command line wins */
            snprintf(cfg->wanted_log, 1024, "%s", value);
        return true;
    }
    Options *opts = engine_options(e);
    for (int i = 0; i < opts->count; i++) {
        Option *o = &opts->items[i];
        if (!rc_key_equal(o->name, key))
            continue;
        if (o->type == OPT_BUTTON) {
            snprintf(err, err_size, "'%s' is a button, not a setting", o->name);
            return false;
        }
        bool ok = options_set_id(opts, i, value, OPT_SOURCE_RC, err, err_size);
        if (ok && err[0]) {
            char msg[400];
            snprintf(msg, sizeof msg, "warning: %s", err); /* kept, with a warning */
            keep_warning(cfg, msg);
            err[0] = '\0';
        }
        return ok;
    }
    snprintf(err, err_size, "unknown option '%s'", key);
    return false;
}

static bool rc_apply(void *ctx, const char *key, const char *value, char *err, size_t err_size)
{
    RcContext *c = ctx;
    return config_apply_setting(c->engine, c->cfg, key, value, err, err_size);
}

static void rc_warn(void *ctx, const char *msg)
{
    keep_warning(((RcContext *)ctx)->cfg, msg);
}

static void apply_flag(Engine *e, Config *cfg, const char *flag, EngineOption id, long long value)
{
    char text[32], err[256], msg[400];
    snprintf(text, sizeof text, "%lld", value);
    if (!engine_set_option_id(e, id, text, OPT_SOURCE_RC, err, sizeof err)) {
        snprintf(msg, sizeof msg, "warning: %s %s ignored: %s", flag, text, err);
        keep_warning(cfg, msg);
    }
}

/* Points the protocol log at path (cfg->log_path gets it; "" = no log) and notes the
 * start-up's warnings in it; false with a reason in err. */
static bool open_log(Config *cfg, const char *path, char *err, size_t err_size)
{
    if (!cfg->log) {
        snprintf(err, err_size, "out of memory for the protocol log");
        return false;
    }
    if (!iolog_retarget(cfg->log, path, err, err_size))
        return false;
    snprintf(cfg->log_path, sizeof cfg->log_path, "%s", path);
    if (!path[0])
        return true;
    char note[1200];
    snprintf(note, sizeof note, "%s %s, rc file: %s", ENGINE_NAME, ENGINE_VERSION,
             cfg->rc_path[0] ? cfg->rc_path : "(none)");
    iolog_note(cfg->log, note);
    for (int i = 0; i < cfg->warning_count; i++)
        iolog_note(cfg->log, cfg->warnings[i]);
    return true;
}

/* Debug Log File: the same log as -l, from a GUI. A relative name is beside the
 * executable, as the engine's other files; "" ends the log. */
static bool on_debug_log(void *ctx, const Option *opt, char *err, size_t size)
{
    Config *cfg = ctx;
    char path[1200];
    if (!opt->str[0] || !strcmp(opt->str, "<empty>"))
        path[0] = '\0';
    else if (pf_path_is_absolute(opt->str))
        snprintf(path, sizeof path, "%s", opt->str);
    else {
        char dir[900];
        if (!executable_dir(dir, sizeof dir)) {
            snprintf(err, size,
                     "Debug Log File: the executable's directory is unknown; give a full path");
            return false;
        }
        snprintf(path, sizeof path, "%s/%s", dir, opt->str);
    }
    if (strlen(path) >= sizeof cfg->log_path) {
        snprintf(err, size, "Debug Log File: the path is too long");
        return false;
    }
    if (!strcmp(path, cfg->log_path))
        return true;
    return open_log(cfg, path, err, size);
}

bool config_startup(Engine *e, const CmdLine *cl, Config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->in = stdin;
    config_set_trace(cl->trace);
    char wanted_log[1024] = ""; /* -l, else engine.rc's `log file` */
    if (cl->log_path)
        snprintf(wanted_log, sizeof wanted_log, "%s", cl->log_path);
    cfg->wanted_log = wanted_log;
    cfg->log = iolog_new();
    /* Debug Log File starts as the -l log, so that a GUI that sends every option keeps
     * it; set without the hook, which would open the log before the warnings are in. */
    Option *debug_log = &engine_options(e)->items[OPT_DEBUG_LOG_FILE];
    snprintf(debug_log->str, sizeof debug_log->str, "%.255s", wanted_log);
    options_set_hook(engine_options(e), OPT_DEBUG_LOG_FILE, on_debug_log, cfg);

    if (rcfile_locate(cl->rc_path, cfg->rc_path, sizeof cfg->rc_path)) {
        RcContext ctx = {e, cfg};
        RcSink sink = {rc_apply, &ctx, rc_warn, &ctx};
        rcfile_read(cfg->rc_path, &sink, NULL);
    } else if (cl->rc_path) {
        fprintf(stderr, "error: cannot read rc file %s: %s\n", cl->rc_path,
                errno == ENODEV ? "not a regular file" : strerror(errno));
        return false;
    }

    if (cl->hash_mb > 0)
        apply_flag(e, cfg, "-H", OPT_HASH, cl->hash_mb);
    if (cl->threads > 0)
        apply_flag(e, cfg, "-c", OPT_THREADS, cl->threads);

    cfg->wanted_log = NULL;
    if (wanted_log[0] && strcmp(wanted_log, cfg->log_path) != 0) {
        char err[300];
        if (!open_log(cfg, wanted_log, err, sizeof err)) {
            if (cl->log_path) { /* asked for on the command line: a log or nothing */
                fprintf(stderr, "error: %s\n", err);
                iolog_close(cfg->log);
                cfg->log = NULL;
                return false;
            }
            char msg[400];
            snprintf(msg, sizeof msg, "warning: engine.rc: %s; running without a protocol log",
                     err);
            keep_warning(cfg, msg);
        }
    }
    /* Logs into cfg->log even while it has no file, so that the Debug Log File option
     * can start a log at any time. */
    writer_init(&cfg->out, stdout, cfg->log);
    return true;
}

void config_shutdown(Config *cfg)
{
    /* The protocol loops have stopped reading (xboard joins its reader thread). */
    writer_destroy(&cfg->out);
    if (cfg->log) {
        iolog_close(cfg->log);
        cfg->log = NULL;
    }
}
