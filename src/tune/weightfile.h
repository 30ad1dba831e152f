/* The tuner's weight files: "name value" text (names as params_name() gives them, '#'
 * comments), and a whole params.c made from a template. Errors go to stderr as one
 * line each, prefixed "tuner:"; files are written through util/outfile (temporary name,
 * then renamed). */
#ifndef SAAVEDRA_WEIGHTFILE_H
#define SAAVEDRA_WEIGHTFILE_H

#include <stdbool.h>

#include "tune/coeffs.h"

/* Writes every weight of theta, with K and the loss in the header line. */
bool weightfile_write(const char *path, const TuneLayout *layout, const double *theta, double k,
                      double loss);

/* Reads weights into theta: a file written by weightfile_write (weights it does not name
 * keep their values), or a params.c (its DEFAULT_PARAMS table, every weight). */
bool weightfile_read(const char *path, const TuneLayout *layout, double *theta);

/* Writes out_path: the template params.c with the table between its BEGIN/END TUNED
 * PARAMETERS markers replaced by theta's, preceded by the comment line given. */
bool weightfile_write_params_c(const char *template_path, const char *out_path,
                               const TuneLayout *layout, const double *theta, const char *comment);

#endif
