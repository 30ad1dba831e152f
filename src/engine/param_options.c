/* The tuning build's search-parameter options: see param_options.h. */
#include "engine/param_options.h"

#include <stdio.h>

#include "search/params.h"
#include "search/search.h"

#ifdef SEARCH_TUNE
static bool on_search_param(void *ctx, const Option *opt, char *err, size_t size)
{
    if (runner_busy(ctx)) {
        snprintf(err, size, "option '%s' cannot change during a search", opt->name);
        return false;
    }
    if (!search_param_set(opt->name, (int)opt->value)) {
        snprintf(err, size, "%s: not a search parameter of this build", opt->name);
        return false;
    }
    search_init(); /* the reduction table is computed from the rows */
    return true;
}

void param_options_add(Options *o, Runner *run)
{
    for (int i = 0; i < SEARCH_PARAM_COUNT; i++) {
        const SearchParam *p = &SEARCH_PARAM_TABLE[i];
        option_add_spin(o, p->name, p->value, p->min, p->max, on_search_param, run);
    }
}
#else
void param_options_add(Options *o, Runner *run)
{
    (void)o;
    (void)run;
}
#endif
