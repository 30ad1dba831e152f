/* Runs a function over a set of jobs on threads of their own and waits for all of them:
 * the fork-join step of the table clear, the tuners, the trainer and the data programs. */
#ifndef SAAVEDRA_FORK_JOIN_H
#define SAAVEDRA_FORK_JOIN_H

#include <stddef.h>

typedef void *(*JobFn)(void *job);

/* Calls fn on each of count jobs laid out job_size bytes apart from jobs (job_size 0: all
 * count calls get the same jobs pointer, for workers that share a queue). Job 0 runs on
 * the calling thread, the others on new threads; a job whose thread cannot be created runs
 * on the calling thread after the others, so every job runs once whatever the system allows.
 * Returns when all have finished. */
void fork_join(JobFn fn, void *jobs, size_t job_size, int count);

#endif
