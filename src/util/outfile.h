/* Writing a file safely: the text goes to a temporary name next to the target and is
 * renamed over it only when everything was written, and only over a regular file (or
 * no file), so that a failed or interrupted run never leaves a half-written file. */
#ifndef SAAVEDRA_OUTFILE_H
#define SAAVEDRA_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;
    char path[4096];
    char tmp[4200];
} OutFile;

/* Opens a temporary file for path; returns its stream, or NULL with a reason in err
 * (the target exists and is not a regular file, the directory is not writable...). */
FILE *outfile_open(OutFile *of, const char *path, char *err, size_t err_size);
/* Closes the stream and renames it over the target; false with a reason on any write
 * error (the temporary file is then removed and the target left as it was). */
bool outfile_commit(OutFile *of, char *err, size_t err_size);
/* Closes and removes the temporary file. */
void outfile_abort(OutFile *of);

#endif
