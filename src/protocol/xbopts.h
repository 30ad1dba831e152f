/* xboard features and engine settings: the `feature` lines (with `option=` lines for the
 * engine's options), `option NAME=VALUE`, `memory`, `cores` and `egtpath`. No state of
 * its own: the settings are the engine's options. A setting refused, or kept with a
 * warning, is answered `Error (REASON): LINE`, line being the command as received. */
#ifndef SAAVEDRA_XBOPTS_H
#define SAAVEDRA_XBOPTS_H

#include "engine/engine.h"
#include "protocol/xbio.h"

/* The answer to `protover`. */
void xbopts_send_features(Engine *e, XbOut *out);
void xbopts_memory(Engine *e, XbOut *out, const char *megabytes, const char *line);
void xbopts_cores(Engine *e, XbOut *out, const char *count, const char *line);
/* `option NAME=VALUE` (arg is NAME=VALUE, or NAME for a button). */
void xbopts_option(Engine *e, XbOut *out, const char *arg, const char *line);
/* `egtpath TYPE PATH`. */
void xbopts_egtpath(Engine *e, XbOut *out, const char *type, const char *path, const char *line);

#endif
