/* Fork-join over threads (see fork_join.h). */
#include "util/fork_join.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

void fork_join(JobFn fn, void *jobs, size_t job_size, int count)
{
    if (count <= 0)
        return;
    char *base = jobs;
    pthread_t *ids = count > 1 ? malloc((size_t)count * sizeof *ids) : NULL;
    bool *started = count > 1 ? calloc((size_t)count, sizeof *started) : NULL;
    if (!ids || !started) { /* no memory for the handles: run everything here */
        free(ids);
        free(started);
        for (int i = 0; i < count; i++)
            fn(base + (size_t)i * job_size);
        return;
    }
    for (int i = 1; i < count; i++)
        started[i] = pthread_create(&ids[i], NULL, fn, base + (size_t)i * job_size) == 0;
    fn(base);
    for (int i = 1; i < count; i++) {
        if (started[i])
            pthread_join(ids[i], NULL);
        else
            fn(base + (size_t)i * job_size);
    }
    free(ids);
    free(started);
}
