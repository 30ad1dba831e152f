/* The tuning build's options (docs/spsa.md): a UCI spin option per row of the search
 * parameter table (search/params.h), named as the row, with its default and range. A
 * change is refused during a search and recomputes what the search derives from the rows.
 * A normal build (the rows are constants) adds nothing. */
#ifndef SAAVEDRA_PARAM_OPTIONS_H
#define SAAVEDRA_PARAM_OPTIONS_H

#include "engine/main_thread.h"
#include "util/options.h"

/* run: the engine's search thread, busy while a change must wait. */
void param_options_add(Options *o, Runner *run);

#endif
