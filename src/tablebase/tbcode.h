/* The compression of one Syzygy sub-table: its canonical code and symbol-pair tree,
 * checked as they are read, and the decoding of its blocks as the prober would decode
 * them (part of the table-file check, tbfile.h). */
#ifndef SAAVEDRA_TBCODE_H
#define SAAVEDRA_TBCODE_H

#include "tablebase/tbstate.h"

/* Reads sub-table t's compression header at *off into s (moving *off past it): a
 * constant value, or block and index parameters, the canonical code and the symbol tree,
 * each checked. False, with the reason in c, when something is out of range. */
bool tbcode_read_pairs(Checker *c, uint64_t *off, int t, Sub *s);

/* Decodes s's blocks (every block, or those near the file's end) and checks that each
 * holds its values within its own bytes. c->block must hold a block and 8 bytes more. */
bool tbcode_walk_blocks(Checker *c, int t, const Sub *s, TbWalk walk);

#endif
