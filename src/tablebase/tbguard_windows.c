/* Guarded calls into Fathom on Windows: see tbguard.h. Windows has no signals to catch a
 * fault inside a probe and return from it, so the call runs unguarded; the tables were
 * vetted before Fathom saw them by the checks of tbcheck.h that need no fork (each file's
 * size, magic number and whole structure). The Makefile builds this file instead of
 * tbguard.c for Windows. */
#include "tablebase/tbguard.h"

int tbguard_run(TbGuardFn fn, void *ctx)
{
    fn(ctx);
    return 0;
}
