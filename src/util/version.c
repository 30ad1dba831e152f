/* Build-time version strings: see version.h. The Makefile passes them in and compiles
 * only this file again when they change. */
#include "util/version.h"

#ifndef SAAVEDRA_VERSION
#define SAAVEDRA_VERSION "unknown"
#endif
#ifndef SAAVEDRA_COMMIT
#define SAAVEDRA_COMMIT "unknown"
#endif

const char *version_string(void)
{
    return SAAVEDRA_VERSION;
}

const char *version_commit(void)
{
    return SAAVEDRA_COMMIT;
}
