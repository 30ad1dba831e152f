/* What the Syzygy table-file check reads and reports (tbfile.h): the source of a file's
 * bytes, how many blocks to decode, and the counts of a check. */
#ifndef SAAVEDRA_TBSOURCE_H
#define SAAVEDRA_TBSOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the bytes come from: read(ctx, off, buf, len) fills buf with len bytes of the
 * file at off, or returns false. size is the file's size. */
typedef struct {
    bool (*read)(void *ctx, uint64_t off, void *buf, size_t len);
    void *ctx;
    uint64_t size;
} TbSource;

typedef enum {
    TBFILE_WALK_TAIL, /* decode only the blocks whose decoding could pass the file's end */
    TBFILE_WALK_ALL   /* decode every block (reads the whole file) */
} TbWalk;

typedef struct {
    uint64_t values;  /* positions stored, over all sub-tables */
    uint64_t blocks;  /* compressed blocks */
    uint64_t walked;  /* blocks decoded */
} TbFileStats;

#endif
