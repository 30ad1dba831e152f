/* Monotonic wall clock in milliseconds, microseconds or nanoseconds, and a short sleep. */
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

static inline int64_t time_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline void time_sleep_ms(int ms)
{
    struct timespec nap = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&nap, NULL);
}

#endif
