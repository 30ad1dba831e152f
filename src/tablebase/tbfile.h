/* Syzygy table files (*.rtbw win/draw/loss, *.rtbz distance to zeroing) checked against
 * their own structure before the prober (Fathom) trusts them. Fathom reads every offset,
 * count and code table of a file without a bounds check, so one changed byte can make it
 * recurse without end, read or write outside its buffers, or fail an assertion. This
 * reader follows the documented layout (docs/tablebases.md, "The file format") with a
 * bounds check on every read and accepts a file only when:
 *   - the header, the piece and encoding data match the material of the file name;
 *   - each sub-table's compression header is in range: block size, index spacing,
 *     code lengths, symbol count; its canonical code maps every bit pattern to a symbol
 *     that exists; its symbol-pair tree is acyclic with children in range and expansions
 *     of at most 256 values; every literal is a value Fathom can use (WDL 0..4, a DTZ
 *     value inside its map);
 *   - the sections (DTZ maps, index, block sizes, compressed blocks) lie where the
 *     layout puts them and end exactly where the file's 16-byte checksum begins;
 *   - the index agrees with the block sizes: each entry points at exactly the value its
 *     place in the table stands for, and the blocks hold exactly the table's values;
 *   - the compressed blocks that are decoded (every block with TBFILE_WALK_ALL; with
 *     TBFILE_WALK_TAIL those near the end of the file, whose over-long decoding could
 *     read past the mapping) hold exactly their number of values within their bytes.
 * The reader never maps the file (a file truncated meanwhile cannot fault it). */
#ifndef SAAVEDRA_TBFILE_H
#define SAAVEDRA_TBFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "tablebase/tbsource.h"

/* Checks the file called name (its base name, e.g. "KPvK.rtbw": material and kind come
 * from it) read through src. Returns true when it is sound; otherwise false with the
 * first problem, one line, in why. stats may be NULL. */
bool tbfile_check(const char *name, const TbSource *src, TbWalk walk, char *why, size_t why_size,
                  TbFileStats *stats);

/* The same for the file at path (read with pread); name is taken from path's last
 * component. */
bool tbfile_check_path(const char *path, TbWalk walk, char *why, size_t why_size,
                       TbFileStats *stats);

#endif
