/* splitmix64: a small, fast generator that gives the same numbers on every platform,
 * from any state (even 0). The engine's Zobrist keys, book choices and the tools'
 * sampling and seeds use it; nothing here needs unpredictable numbers. */
#ifndef SAAVEDRA_RANDOM_H
#define SAAVEDRA_RANDOM_H

#include <stdint.h>

/* The number splitmix64 gives from state z (the state itself is not kept). */
static inline uint64_t splitmix64_at(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The next number of the sequence *state holds (and advances). */
static inline uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = *state;
    *state += 0x9E3779B97F4A7C15ULL;
    return splitmix64_at(z);
}

#endif
