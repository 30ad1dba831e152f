/* Which weights a tuning run may move, and within what range.
 *
 * Some weights cannot be learnt from game results and are frozen by default: the mating
 * gradients (mate_*) only steer the winning side towards mate in endgames that are won
 * whatever their value, so the data says nothing about them (a free run pushes them to
 * absurd values that break the mating technique). Others have a meaning that bounds
 * them: an endgame scale (scale_*) is a fraction of 64 between 1 and 64 (0 would mean a
 * dead draw to the evaluation, which zeroes the whole score). After every
 * optimiser step the weights are projected back into their range. */
#ifndef SAAVEDRA_WEIGHTSET_H
#define SAAVEDRA_WEIGHTSET_H

#include <stdbool.h>

#include "tune/coeffs.h"

#define WEIGHTSET_DEFAULT_FROZEN "mate_"

typedef struct {
    int count;
    bool *free_weight; /* tuned at all */
    double *lo, *hi;   /* the range a free weight is kept in */
} WeightSet;

/* Weights whose names start with one of the comma-separated prefixes in `tuned` (all
 * when NULL), less those starting with one of `frozen` (none when NULL or "none").
 * Returns the number of free weights, -1 when out of memory. */
int weightset_init(WeightSet *w, const TuneLayout *layout, const char *tuned, const char *frozen);
void weightset_free(WeightSet *w);
/* Zeroes the gradient of the weights that are not free. */
void weightset_mask(const WeightSet *w, double *grad);
/* Puts every weight back into its range; returns how many were moved. */
int weightset_project(const WeightSet *w, double *theta);
/* Whether name starts with one of the comma-separated prefixes (false for NULL/"none"). */
bool weightset_name_matches(const char *name, const char *prefixes);

#endif
