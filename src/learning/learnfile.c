/* The learning file on disk: see learnfile.h. */
#include "learning/learnfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "learning/learnmerge.h"
#include "util/errmsg.h"
#include "util/grow.h"
#include "util/outfile.h"
#include "util/platform.h"

/* How long a load or a write waits for another process's lock on the file. */
#define LEARN_LOCK_WAIT_MS 2000

void learnfile_init(LearnFile *f, const char *path)
{
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", path);
}

size_t learnfile_size(const LearnFile *f)
{
    struct stat st;
    return stat(f->path, &st) == 0 && S_ISREG(st.st_mode) ? (size_t)st.st_size : 0;
}

/* Opens and locks the file the path names now. Returns the fd, -1 on error (err set), or
 * -2 when the file does not exist and create is false. *writable says whether it could
 * be opened for writing (a read-only file is still loaded). */
static int open_locked(const char *path, bool create, bool *writable, struct stat *st, char *err,
                       size_t err_size)
{
    for (int attempt = 0; attempt < 1000; attempt++) {
        /* O_NONBLOCK: opening a FIFO someone put there must not hang; refused below. */
        int fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK | (create ? O_CREAT : 0), 0644);
        *writable = fd >= 0;
        if (fd < 0 && (errno == EACCES || errno == EROFS) && !create)
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) {
            if (errno == ENOENT && !create)
                return -2;
            error_set(err, err_size, "cannot open %s: %s", path, strerror(errno));
            return -1;
        }
        if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
            close(fd);
            error_set(err, err_size, "%s is not a regular file", path);
            return -1;
        }
        /* A bounded wait: another process may hold the lock for long (stopped, or
         * compacting a large file), and the protocol thread must keep answering. */
        int r, waited_ms = 0;
        while ((r = flock(fd, LOCK_EX | LOCK_NB)) != 0 && (errno == EINTR || errno == EWOULDBLOCK)
               && waited_ms < LEARN_LOCK_WAIT_MS) {
            if (errno == EWOULDBLOCK) {
                struct timespec pause = { 0, 10 * 1000000L };
                nanosleep(&pause, NULL);
                waited_ms += 10;
            }
        }
        if (r != 0) {
            if (errno == EWOULDBLOCK)
                error_set(err, err_size,
                          "%s is locked by another process for over %d ms; left alone this time",
                          path, LEARN_LOCK_WAIT_MS);
            else
                error_set(err, err_size, "cannot lock %s: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
        /* Another process may have replaced the file while we waited for the lock. */
        struct stat now;
        if (fstat(fd, st) == 0 && stat(path, &now) == 0 && now.st_dev == st->st_dev
            && now.st_ino == st->st_ino)
            return fd;
        close(fd);
        if (!create && errno == ENOENT)
            return -2;
    }
    error_set(err, err_size, "%s keeps being replaced", path);
    return -1;
}

/* All size bytes at offset read into in, or written from out when in is NULL, again
 * after EINTR; false on an error or at the end of the file. */
static bool transfer_all(int fd, uint8_t *in, const uint8_t *out, size_t size, size_t offset)
{
    size_t done = 0;
    while (done < size) {
        off_t at = (off_t)(offset + done);
        ssize_t n =
            in ? pread(fd, in + done, size - done, at) : pwrite(fd, out + done, size - done, at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += (size_t)n;
    }
    return true;
}

static bool read_all(int fd, uint8_t *buf, size_t size, size_t offset)
{
    return transfer_all(fd, buf, NULL, size, offset);
}

static bool write_all(int fd, const uint8_t *buf, size_t size, size_t offset)
{
    return transfer_all(fd, NULL, buf, size, offset);
}

/* Writes data as a complete new file and renames it over path (or to path when path was
 * moved away): beside the file a link points to, with its mode and owner (outfile.h).
 * The file descriptor of the old file (and its lock) stays with the caller. */
static bool replace_file(const char *path, const uint8_t *data, size_t size, char *err,
                         size_t err_size)
{
    return outfile_write(path, data, size, err, err_size);
}

/* Keeps the damaged file under a new name (a hard link, so that path goes on naming it
 * until replace_file renames the fresh file over it). */
static bool keep_aside(const char *link_path, char *aside, size_t aside_size)
{
    char path[1024];
    if (!outfile_resolve(link_path, path, sizeof path))
        return false;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    for (int i = 0; i < 100; i++) {
        char suffix[16] = "";
        if (i)
            snprintf(suffix, sizeof suffix, "-%d", i);
        snprintf(aside, aside_size, "%s.bad-%04d%02d%02d-%02d%02d%02d%s", path, tm.tm_year + 1900,
                 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, suffix);
        if (link(path, aside) == 0) {
            outfile_sync_dir(aside); /* the name must survive a crash like the data */
            return true;
        }
        if (errno != EEXIST)
            return false;
    }
    return false;
}

/* Sets the damaged file aside and puts a fresh one with its intact records (the first
 * valid_end bytes, when the header was ours) in its place. */
static bool set_aside(const char *path, const uint8_t *data, const LearnParse *p, char *warn,
                      size_t warn_size)
{
    char aside[1100];
    if (!keep_aside(path, aside, sizeof aside))
        return error_set(warn, warn_size, "learning file %s: %s; cannot keep it aside (%s), "
                         "learning does not write to it",
                         path, p->why, strerror(errno));
    uint8_t header[LEARN_HEADER_SIZE];
    learn_header_make(header);
    bool salvage = p->status == LEARN_PARSE_DAMAGED && p->valid_end >= LEARN_HEADER_SIZE;
    char err[300];
    bool ok = salvage ? replace_file(path, data, p->valid_end, err, sizeof err)
                      : replace_file(path, header, sizeof header, err, sizeof err);
    int kept = p->positions + p->games + p->books + p->others;
    if (!ok) {
        unlink(aside);
        return error_set(warn, warn_size, "learning file %s: %s; %s", path, p->why, err);
    }
    error_set(warn, warn_size, "learning file %s: %s; set aside as %s, a fresh file keeps the %d "
              "intact records before it",
              path, p->why, aside, salvage ? kept : 0);
    return true;
}

typedef enum { SCAN_READY, SCAN_REPLACED, SCAN_FAILED } ScanOutcome;

/* Some other file under the learning file's name (a book, an rc file, a typo): not
 * ours to move or replace. Warns only the first time. */
static ScanOutcome refuse(LearnFile *f, const LearnParse *p, char *warn, size_t warn_size)
{
    if (!f->refused)
        error_set(warn, warn_size, "learning file %s: %s; left as it is, nothing is learned",
                  f->path, p->why);
    f->refused = true;
    f->known = false;
    return SCAN_FAILED;
}

/* Checks the locked file and repairs it. On SCAN_READY *end is where an append goes (0:
 * the header must be written first). SCAN_REPLACED: the file was set aside and a fresh one
 * is in place: the caller reopens. Visits records when v is set (whole-file scans). */
static ScanOutcome scan_locked(LearnFile *f, int fd, const struct stat *st, bool writable,
                               bool incremental, const LearnVisitor *v, LearnParse *p,
                               size_t *end, char *warn, size_t warn_size)
{
    size_t size = (size_t)st->st_size;
    if (size > LEARN_FILE_MAX_BYTES) {
        uint8_t magic[8];
        memset(p, 0, sizeof *p);
        if (!read_all(fd, magic, sizeof magic, 0) || memcmp(magic, LEARN_MAGIC, 8) != 0) {
            p->status = LEARN_PARSE_NOT_OURS;
            snprintf(p->why, sizeof p->why, "not a Saavedra learning file");
            return refuse(f, p, warn, warn_size);
        }
        p->status = LEARN_PARSE_FOREIGN;
        snprintf(p->why, sizeof p->why, "too large for a learning file (%zu bytes)", size);
        if (!writable)
            return error_set(warn, warn_size, "learning file %s: %s", f->path, p->why), SCAN_FAILED;
        return set_aside(f->path, NULL, p, warn, warn_size) ? SCAN_REPLACED : SCAN_FAILED;
    }
    size_t from = incremental && f->known && f->dev == st->st_dev && f->ino == st->st_ino
                          && f->verified >= LEARN_HEADER_SIZE && f->verified <= size
                      ? f->verified : 0;
    uint8_t *data = malloc(size - from + 1);
    if (!data || !read_all(fd, data, size - from, from)) {
        free(data);
        return error_set(warn, warn_size, "learning file %s: cannot read it", f->path), SCAN_FAILED;
    }
    if (from)
        learn_parse_from(data, size - from, from, v, p);
    else
        learn_parse(data, size, v, p);
    if (from && p->status == LEARN_PARSE_DAMAGED) {
        /* Damage in what others appended: salvage from the whole file. */
        free(data);
        f->known = false;
        return scan_locked(f, fd, st, writable, false, NULL, p, end, warn, warn_size);
    }
    if (p->status == LEARN_PARSE_NOT_OURS) {
        free(data);
        return refuse(f, p, warn, warn_size);
    }
    ScanOutcome out = SCAN_READY;
    f->refused = false;
    switch (p->status) {
    case LEARN_PARSE_OK:
        *end = size;
        break;
    case LEARN_PARSE_EMPTY:
        *end = 0;
        if (size && writable && ftruncate(fd, 0) != 0)
            out = SCAN_FAILED;
        break;
    case LEARN_PARSE_TORN:
        *end = p->valid_end;
        if (writable) {
            if (ftruncate(fd, (off_t)p->valid_end) != 0)
                out = SCAN_FAILED;
            else
                error_set(warn, warn_size, "learning file %s: dropped %s (%zu bytes)", f->path,
                          p->why, size - p->valid_end);
        }
        break;
    case LEARN_PARSE_DAMAGED:
    case LEARN_PARSE_FOREIGN:
    case LEARN_PARSE_NOT_OURS:
        if (!writable) {
            error_set(warn, warn_size,
                      "learning file %s: %s (read-only: only the records before it are used)",
                      f->path, p->why);
            *end = p->valid_end;
            break;
        }
        out = set_aside(f->path, data, p, warn, warn_size) ? SCAN_REPLACED : SCAN_FAILED;
        break;
    }
    if (out == SCAN_FAILED && !warn[0])
        error_set(warn, warn_size, "learning file %s: cannot repair it: %s", f->path,
                  strerror(errno));
    free(data);
    if (out == SCAN_READY) {
        f->known = true;
        f->dev = st->st_dev;
        f->ino = st->st_ino;
        f->verified = *end;
    } else
        f->known = false;
    return out;
}

bool learnfile_load(LearnFile *f, const LearnVisitor *v, LearnParse *stats, char *warn,
                    size_t warn_size)
{
    LearnParse local;
    LearnParse *p = stats ? stats : &local;
    memset(p, 0, sizeof *p);
    warn[0] = '\0';
    for (int attempt = 0; attempt < 3; attempt++) {
        bool writable;
        struct stat st;
        char err[300];
        int fd = open_locked(f->path, false, &writable, &st, err, sizeof err);
        if (fd == -2)
            return true;
        if (fd < 0)
            return error_set(warn, warn_size, "learning file: %s", err);
        if (writable)
            outfile_remove_stale(f->path); /* left by killed compactions */
        size_t end;
        /* A set-aside visits nothing here: the fresh file is read on the next turn. */
        char note[600] = "";
        ScanOutcome out = scan_locked(f, fd, &st, writable, false, v, p, &end, note, sizeof note);
        close(fd);
        if (note[0])
            snprintf(warn, warn_size, "%s", note);
        if (out == SCAN_FAILED)
            return false;
        if (out == SCAN_READY)
            return true;
        /* Replaced: the records were visited from the damaged file, and the fresh file
         * holds exactly those, so there is nothing more to read. */
        return true;
    }
    return true;
}

bool learnfile_append(LearnFile *f, const uint8_t *records, size_t len, bool sync, char *warn,
                      size_t warn_size)
{
    warn[0] = '\0';
    for (int attempt = 0; attempt < 4; attempt++) {
        bool writable;
        struct stat st;
        char err[300];
        int fd = open_locked(f->path, true, &writable, &st, err, sizeof err);
        if (fd < 0)
            return error_set(warn, warn_size, "learning file: %s", err);
        LearnParse p;
        size_t end = 0;
        ScanOutcome out = scan_locked(f, fd, &st, writable, true, NULL, &p, &end, warn, warn_size);
        if (out == SCAN_REPLACED) {
            close(fd);
            continue; /* append to the fresh file */
        }
        if (out == SCAN_FAILED) {
            close(fd);
            return false;
        }
        size_t head = end == 0 ? LEARN_HEADER_SIZE : 0;
        uint8_t *buf = malloc(head + len);
        if (!buf) {
            close(fd);
            return error_set(warn, warn_size, "learning file %s: out of memory", f->path);
        }
        if (head)
            learn_header_make(buf);
        memcpy(buf + head, records, len);
        bool ok = write_all(fd, buf, head + len, end);
        int saved = errno;
        free(buf);
        if (ok && sync && fsync(fd) != 0) {
            ok = false;
            saved = errno;
        }
        if (!ok) {
            /* Leave no partial record behind (a torn tail would also be caught later). */
            if (ftruncate(fd, (off_t)end) != 0)
                f->known = false;
            close(fd);
            return error_set(warn, warn_size, "learning file %s: cannot write: %s", f->path,
                             strerror(saved));
        }
        f->verified = end + head + len;
        close(fd);
        return true;
    }
    return error_set(warn, warn_size, "learning file %s: keeps being replaced", f->path);
}

/* ---- compaction (the merge rules: learnmerge.c) ---------------------------------- */

/* Everything a compaction gathers from the old file. */
typedef struct {
    LearnCollection rec;  /* first: the visitor's ctx serves learn_collect_* as well */
    uint8_t *games;       /* encoded game records, back to back */
    size_t games_size, games_cap;
    size_t *game_start;   /* offset of each game in games */
    int game_count;
    size_t game_cap;
} Gathered;

static void gather_game(void *ctx, const LearnGame *game)
{
    Gathered *g = ctx;
    if (!grow_array((void **)&g->games, &g->games_cap, g->games_size + LEARN_RECORD_MAX, 1)
        || !grow_array((void **)&g->game_start, &g->game_cap, (size_t)g->game_count + 1,
                       sizeof *g->game_start)) {
        g->rec.failed = true;
        return;
    }
    size_t n = learn_encode_game(game, g->games + g->games_size, g->games_cap - g->games_size);
    g->game_start[g->game_count++] = g->games_size;
    g->games_size += n;
}

bool learnfile_compact(LearnFile *f, const LearnLimits *lim, LearnParse *after, char *warn,
                       size_t warn_size)
{
    warn[0] = '\0';
    bool writable;
    struct stat st;
    char err[300];
    int fd = open_locked(f->path, false, &writable, &st, err, sizeof err);
    if (fd == -2)
        return true;
    if (fd < 0)
        return error_set(warn, warn_size, "learning file: %s", err);
    if (!writable) {
        close(fd);
        return error_set(warn, warn_size, "learning file %s: read-only, not compacted", f->path);
    }
    outfile_remove_stale(f->path);
    Gathered g;
    memset(&g, 0, sizeof g);
    LearnVisitor v = { learn_collect_position, gather_game, learn_collect_book, &g };
    LearnParse p;
    size_t end;
    ScanOutcome out = scan_locked(f, fd, &st, true, false, &v, &p, &end, warn, warn_size);
    bool ok = out != SCAN_FAILED && !g.rec.failed;
    if (ok) {
        /* After a set-aside the fresh file holds what was gathered: compact that. */
        int np = learn_merge_positions(g.rec.pos, g.rec.pos_count, lim->max_positions);
        int nb = learn_merge_books(g.rec.book, g.rec.book_count, lim->max_books);
        int first_game = g.game_count > lim->max_games ? g.game_count - lim->max_games : 0;
        size_t games_from = first_game < g.game_count ? g.game_start[first_game] : g.games_size;
        size_t size = LEARN_HEADER_SIZE + (size_t)np * LEARN_POSITION_SIZE
                    + (size_t)nb * LEARN_BOOK_SIZE + (g.games_size - games_from);
        uint8_t *img = malloc(size);
        if (!img)
            ok = error_set(warn, warn_size, "learning file %s: out of memory", f->path);
        else {
            size_t at = LEARN_HEADER_SIZE;
            learn_header_make(img);
            for (int i = 0; i < np; i++)
                at += learn_encode_position(&g.rec.pos[i], img + at, size - at);
            for (int i = 0; i < nb; i++)
                at += learn_encode_book(&g.rec.book[i], img + at, size - at);
            if (g.games_size > games_from) /* g.games is NULL when no game was read */
                memcpy(img + at, g.games + games_from, g.games_size - games_from);
            char werr[300];
            ok = replace_file(f->path, img, size, werr, sizeof werr);
            if (!ok)
                error_set(warn, warn_size, "learning file: %s", werr);
            else if (after)
                learn_parse(img, size, NULL, after);
            free(img);
        }
    }
    f->known = false;
    close(fd);
    learn_collection_free(&g.rec);
    free(g.games);
    free(g.game_start);
    return ok;
}
