/* The learning file on disk (format: learnrec.h, docs/learning-format.md), shared safely
 * by several engine processes:
 *
 * - every operation holds an exclusive flock() on the file, and checks after locking
 *   that the path still names the file it locked (a compaction or a set-aside by another
 *   process replaces it: then it opens the new one);
 * - appends are one write() of whole records at the end of the intact data; a torn last
 *   record (a crash during an append) is cut off first; fsync() when asked (game ends);
 * - a file that does not start with our magic is not ours: it is refused with one
 *   warning (nothing is learned), never written, moved or replaced;
 * - a damaged file of ours (or one of another version) is set aside as
 *   PATH.bad-YYYYMMDD-HHMMSS (kept, never deleted) and replaced by a fresh file holding
 *   the intact records found before the damage, with one warning;
 * - compaction and the fresh file are written safely (util/outfile.h: a temporary file
 *   beside the file a link points to, fsync, rename, folder fsync), so the path always
 *   names a complete file; temporary files of killed processes are removed on load and
 *   compaction.
 * Only regular files are written, read or renamed. */
#ifndef SAAVEDRA_LEARNFILE_H
#define SAAVEDRA_LEARNFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "learning/learnrec.h"

/* Files larger than this are not learning files Saavedra wrote (compaction keeps them far
 * smaller): they are set aside like foreign ones. */
#define LEARN_FILE_MAX_BYTES (64u << 20)

typedef struct {
    char path[1024];
    /* What this process last verified: the file (device, inode) and how many bytes of
     * it hold intact records, so an append only checks what others added since. */
    bool known;
    dev_t dev;
    ino_t ino;
    size_t verified;
    /* The path names a file that is not a learning file: it is never written or moved,
     * and the warning is given once. */
    bool refused;
} LearnFile;

/* Compaction limits: position records merged by key (the deepest kept, then the
 * shallowest dropped beyond max_positions), book results merged by position and move,
 * the latest max_games games kept. */
typedef struct {
    int max_positions, max_games, max_books;
} LearnLimits;

void learnfile_init(LearnFile *f, const char *path);

/* Visits every intact record (v may be NULL) and repairs what it finds: a torn tail is cut
 * off, a damaged or foreign file set aside. A missing file is not an error (0 records,
 * nothing created). Returns false, with the reason in warn, if the file cannot be read;
 * otherwise warn is "" or one line to show (damage found and what was done). stats may
 * be NULL. */
bool learnfile_load(LearnFile *f, const LearnVisitor *v, LearnParse *stats, char *warn,
                    size_t warn_size);

/* Appends len bytes of whole records (learnrec.h encoders) with one write, creating the
 * file (with its header) if needed; fsync() when sync. False with warn if they could
 * not be written (nothing partial is left behind). */
bool learnfile_append(LearnFile *f, const uint8_t *records, size_t len, bool sync, char *warn,
                      size_t warn_size);

/* Rewrites the file merged and bounded by lim (to a temporary file, renamed over it).
 * after (may be NULL) gets the counts of the new file. */
bool learnfile_compact(LearnFile *f, const LearnLimits *lim, LearnParse *after, char *warn,
                       size_t warn_size);

/* Size of the file in bytes (0 if missing). */
size_t learnfile_size(const LearnFile *f);

#endif
