/* The engine's version, fixed at build time (Makefile, docs/build.md): the VERSION file
 * of a source archive, else `git describe --tags --always --dirty` of the checkout, with
 * a leading 'v' dropped ("0.2.0", "0.2.0-3-g1a2b3c4", "0.2.0-dirty"). */
#ifndef SAAVEDRA_VERSION_H
#define SAAVEDRA_VERSION_H

/* "0.2.0"; "unknown" when built outside git without a VERSION file. */
const char *version_string(void);
/* The commit it was built from (short hash, "-dirty" with uncommitted changes), or
 * "unknown". */
const char *version_commit(void);

#endif
