/* Monotonic wall clock in milliseconds. */
#ifndef SAAVEDRA_TIMEUTIL_H
#define SAAVEDRA_TIMEUTIL_H

#include <stdint.h>
#include <time.h>

static inline int64_t time_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline int64_t time_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

#endif
