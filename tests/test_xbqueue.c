/* The xboard input queue: a flood of input is read ahead only up to XB_QUEUE_MAX lines
 * (the reader then waits for room), and every line arrives, in order. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "protocol/xbio.h"
#include "test.h"

#define FLOOD (XB_QUEUE_MAX + 5000)

static void *write_flood(void *arg)
{
    FILE *w = arg;
    for (int i = 0; i < FLOOD; i++)
        fprintf(w, "ping %d\n", i);
    fclose(w);
    return NULL;
}

TEST(xbinput_flood_is_bounded_and_nothing_lost)
{
    int fds[2];
    if (!CHECK(pipe(fds) == 0))
        return;
    FILE *r = fdopen(fds[0], "r"), *w = fdopen(fds[1], "w");
    XbInput q;
    xbinput_init(&q);
    if (!CHECK(xbinput_start(&q, r, NULL)))
        return;
    pthread_t writer;
    CHECK(pthread_create(&writer, NULL, write_flood, w) == 0);
    /* Nobody takes lines for a while: the queue must stop at its bound. */
    int most = 0;
    for (int i = 0; i < 300; i++) {
        nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
        pthread_mutex_lock(&q.lock);
        if (q.line_count > most)
            most = q.line_count;
        pthread_mutex_unlock(&q.lock);
    }
    CHECK_MSG(most <= XB_QUEUE_MAX, "%d lines queued", most);
    /* Then every line comes out, in order. */
    int next = 0;
    bool in_order = true;
    for (;;) {
        char *line = NULL;
        XbEvent ev = xbinput_wait(&q, &line);
        if (ev == XB_EVENT_INPUT_CLOSED)
            break;
        char want[32];
        snprintf(want, sizeof want, "ping %d", next++);
        in_order &= ev == XB_EVENT_LINE && line && !strcmp(line, want);
        free(line);
    }
    CHECK(in_order);
    CHECK_EQ(next, FLOOD);
    pthread_join(writer, NULL);
    xbinput_stop(&q);
    xbinput_destroy(&q);
    fclose(r);
}
