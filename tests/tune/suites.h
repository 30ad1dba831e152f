/* The positions of the EPD suites in tests/data/epd, which the tuner's tests use as a
 * varied set of real positions. */
#ifndef SAAVEDRA_TEST_SUITES_H
#define SAAVEDRA_TEST_SUITES_H

#include "board/position.h"

/* Calls visit(ctx, pos) for every record of every .epd file there, in directory order
 * (visit may play and take back moves on pos). A folder or file that cannot be opened
 * fails the running test. */
void for_each_suite_position(void (*visit)(void *ctx, Position *pos), void *ctx);

#endif
