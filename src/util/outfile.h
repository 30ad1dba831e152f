/* Writing a file safely, the one way every file Saavedra writes whole is written (books,
 * the learning file's compactions, EPD reports, ECO tables, tuner output):
 *
 * - the data goes to a temporary file in the target's own folder (the folder of the file
 *   a symbolic link points to, so the link stays a link), named TARGET.tmp-PID-XXXXXX and
 *   created with O_EXCL (mkstemp), with the target's mode and, where allowed, its owner;
 * - it is flushed and fsync()ed, renamed over the target only when everything was
 *   written, and only over a regular file (or no file), then the folder is fsync()ed so
 *   that the rename itself survives a crash;
 * - a failed or interrupted run never leaves a half-written target; the temporary file
 *   of a killed process is removed by outfile_remove_stale (under the caller's lock). */
#ifndef SAAVEDRA_OUTFILE_H
#define SAAVEDRA_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;
    char path[4096];   /* the file renamed over: the target with links resolved */
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

/* The whole of size bytes at data as the new content of path (open, write, commit). */
bool outfile_write(const char *path, const void *data, size_t size, char *err, size_t err_size);

/* The file path names after following symbolic links (path itself when it does not
 * exist yet); false when the result does not fit. */
bool outfile_resolve(const char *path, char *out, size_t out_size);

/* Removes the temporary files of path (after resolving links) left by processes that
 * no longer exist; returns how many. Call it holding whatever lock guards path. */
int outfile_remove_stale(const char *path);

/* fsync() of the folder holding path, so that a rename or link in it is durable. */
bool outfile_sync_dir(const char *path);

#endif
