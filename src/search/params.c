/* The search parameter table as data, and the tuning build's variables (params.h). */
#include "search/params.h"

#include <strings.h>

#define SEARCH_PARAM_ROW(name, value, min, max) { #name, value, min, max },
const SearchParam SEARCH_PARAM_TABLE[] = { SEARCH_PARAMS(SEARCH_PARAM_ROW) };
#undef SEARCH_PARAM_ROW
const int SEARCH_PARAM_COUNT = sizeof SEARCH_PARAM_TABLE / sizeof *SEARCH_PARAM_TABLE;

#ifdef SEARCH_TUNE
#define SEARCH_PARAM_DEFINE(name, value, min, max) int name = value;
SEARCH_PARAMS(SEARCH_PARAM_DEFINE)
#undef SEARCH_PARAM_DEFINE

/* The variables in table order, so that a row's index finds its variable. */
#define SEARCH_PARAM_ADDRESS(name, value, min, max) &name,
static int *const VARIABLES[] = { SEARCH_PARAMS(SEARCH_PARAM_ADDRESS) };
#undef SEARCH_PARAM_ADDRESS

bool search_param_set(const char *name, int value)
{
    for (int i = 0; i < SEARCH_PARAM_COUNT; i++) {
        const SearchParam *p = &SEARCH_PARAM_TABLE[i];
        if (strcasecmp(p->name, name) == 0) {
            if (value < p->min || value > p->max)
                return false;
            *VARIABLES[i] = value;
            return true;
        }
    }
    return false;
}
#else
bool search_param_set(const char *name, int value)
{
    (void)name;
    (void)value;
    return false;
}
#endif
