/* Start-up configuration: engine.rc, then the command-line flags, applied to the engine's
 * options, and the protocol log. Precedence: engine.rc < command line < GUI
 * (setoption / option), because the rc file and the flags both set at OPT_SOURCE_RC
 * (the flags afterwards, so they win) and a GUI sets at OPT_SOURCE_GUI.
 *
 * engine.rc keys are option names matched loosely (rc_key_equal), plus the start-up-only
 * key `log file` (same as -l). The option Debug Log File (its hook is here) starts, moves
 * or ends the same log at any time: the protocol writer and the protocol loops' reads
 * always log into it, and it writes nowhere while it has no file. Warnings (bad lines,
 * rejected flags) go to stderr at once
 * and are kept in Config, which also copies them into the protocol log. */
#ifndef SAAVEDRA_CONFIG_H
#define SAAVEDRA_CONFIG_H

#include <stdbool.h>
#include <stdio.h>

#include "util/cmdline.h"
#include "engine/engine.h"
#include "util/iolog.h"
#include "util/writer.h"

#define CONFIG_MAX_WARNINGS 16

typedef struct {
    char rc_path[1024];      /* the rc file read, "" if none */
    char log_path[1024];     /* protocol log, "" if none */
    char *wanted_log;        /* during config_startup: the log -l or engine.rc asks for */
    int warning_count;
    char warnings[CONFIG_MAX_WARNINGS][300];
    IoLog *log;
    FILE *in;                /* protocol input: stdin (the loops log what they read) */
    Writer out;              /* protocol output: stdout and the log */
} Config;

/* Reads engine.rc (cl->rc_path or the default lookup) and applies the flags. Opens the
 * protocol log and sets up cfg->in and cfg->out. Returns false only when -rc names a file
 * that cannot be read or the log of -l cannot be opened (one line on stderr); other problems,
 * a bad `log file` in engine.rc among them, are warnings. */
bool config_startup(Engine *e, const CmdLine *cl, Config *cfg);
/* Ends the protocol writer and closes the log. */
void config_shutdown(Config *cfg);

/* Applies one `key = value` setting at rc priority (what engine.rc lines do). */
bool config_apply_setting(Engine *e, Config *cfg, const char *key, const char *value,
                          char *err, size_t err_size);

/* Trace (-t): set once at start-up, read-only afterwards. */
void config_set_trace(bool on);
bool config_trace(void);

#endif
