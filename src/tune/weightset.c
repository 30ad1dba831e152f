/* Free, frozen and bounded weights of a tuning run: see weightset.h. */
#include "tune/weightset.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

bool weightset_name_matches(const char *name, const char *prefixes)
{
    if (!prefixes || !strcmp(prefixes, "none"))
        return false;
    for (const char *p = prefixes; *p;) {
        size_t len = strcspn(p, ",");
        if (len && !strncmp(name, p, len))
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

/* The range a weight's meaning allows. */
static void weight_range(const char *name, double *lo, double *hi)
{
    *lo = -DBL_MAX;
    *hi = DBL_MAX;
    if (!strncmp(name, "scale_", 6)) {
        /* Out of 64, up to no scaling at all. A scale of 0 is the evaluation's mark of a
         * dead draw (the whole score becomes 0, not only its endgame part), which no
         * weight may turn a position into: the smallest tunable scale is 1. */
        *lo = 1;
        *hi = 64;
    }
}

int weightset_init(WeightSet *w, const TuneLayout *layout, const char *tuned, const char *frozen)
{
    memset(w, 0, sizeof *w);
    w->count = layout->count;
    w->free_weight = malloc(sizeof(bool) * (size_t)w->count);
    w->lo = malloc(sizeof(double) * (size_t)w->count);
    w->hi = malloc(sizeof(double) * (size_t)w->count);
    if (!w->free_weight || !w->lo || !w->hi) {
        weightset_free(w);
        return -1;
    }
    int n = 0;
    char name[96];
    for (int k = 0; k < w->count; k++) {
        params_name(k, name, sizeof name);
        w->free_weight[k] = (!tuned || weightset_name_matches(name, tuned))
                         && !weightset_name_matches(name, frozen);
        weight_range(name, &w->lo[k], &w->hi[k]);
        n += w->free_weight[k];
    }
    return n;
}

void weightset_free(WeightSet *w)
{
    free(w->free_weight);
    free(w->lo);
    free(w->hi);
    memset(w, 0, sizeof *w);
}

void weightset_mask(const WeightSet *w, double *grad)
{
    for (int k = 0; k < w->count; k++)
        if (!w->free_weight[k])
            grad[k] = 0;
}

int weightset_project(const WeightSet *w, double *theta)
{
    int moved = 0;
    for (int k = 0; k < w->count; k++) {
        if (!w->free_weight[k])
            continue;
        if (theta[k] < w->lo[k]) {
            theta[k] = w->lo[k];
            moved++;
        } else if (theta[k] > w->hi[k]) {
            theta[k] = w->hi[k];
            moved++;
        }
    }
    return moved;
}
