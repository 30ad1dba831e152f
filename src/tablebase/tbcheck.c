/* Syzygy table vetting: see tbcheck.h. */
#define _GNU_SOURCE
#include "tablebase/tbcheck.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tbprobe.h>

#include "board/fen.h"
#include "board/movegen.h"
#include "board/position.h"
#include "tablebase/tbfile.h"
#include "util/timeutil.h"
#include "util/platform.h"

#define MAX_FILES 1024          /* 7-piece sets have 1,022 files */
#define NAME_MAX_LEN 16         /* "KQRBNvKQRB.rtbw" */
#define STEP_TIMEOUT_MS 10000
#define PROBES_PER_CLASS 8      /* positions per side to move (and pawn file) */

static const uint8_t WDL_MAGIC[4] = { 0x71, 0xe8, 0x23, 0x5d };
static const uint8_t DTZ_MAGIC[4] = { 0xd7, 0x66, 0x0c, 0xa5 };

typedef struct {
    char name[NAME_MAX_LEN];    /* file name, e.g. KPvK.rtbz */
    char dir[4096];             /* the first directory of the path that has it */
    int pieces, pawns;
    bool dtz;
    bool bad;                   /* left out */
    char why[200];              /* why */
} TbFile;

/* The private directory of links handed to Fathom when files are left out (one per
 * process, replaced by the next load, removed at exit). */
static char active_dir[64];

static void remove_dir(char *dir)
{
    if (!dir[0])
        return;
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *ent;
        while ((ent = readdir(d)))
            if (ent->d_name[0] != '.') {
                char p[400];
                int k = snprintf(p, sizeof p, "%s/%s", dir, ent->d_name);
                if (k > 0 && (size_t)k < sizeof p)
                    unlink(p);
            }
        closedir(d);
    }
    rmdir(dir);
    dir[0] = '\0';
}

static void remove_active_dir(void)
{
    remove_dir(active_dir);
}

/* "KQPvKR.rtbw" -> pieces and pawns; false when it is not a table name. */
static bool parse_name(const char *name, int *pieces, int *pawns, bool *dtz)
{
    size_t len = strlen(name);
    if (len < 8 || len >= NAME_MAX_LEN || name[0] != 'K')
        return false;
    const char *dot = name + len - 5;
    if (!strcmp(dot, ".rtbw"))
        *dtz = false;
    else if (!strcmp(dot, ".rtbz"))
        *dtz = true;
    else
        return false;
    int kings = 0, v = 0;
    *pieces = *pawns = 0;
    for (const char *c = name; c < dot; c++) {
        if (*c == 'v') {
            if (++v > 1 || c[1] != 'K')
                return false;
            continue;
        }
        if (!strchr("KQRBNP", *c))
            return false;
        kings += *c == 'K';
        *pawns += *c == 'P';
        (*pieces)++;
    }
    return v == 1 && kings == 2 && *pieces <= 7;
}

static const char *cheap_check(const char *dir, const char *name, bool dtz)
{
    char p[4200];
    int k = snprintf(p, sizeof p, "%s/%s", dir, name);
    struct stat st;
    if (k < 0 || (size_t)k >= sizeof p)
        return "path too long";
    if (stat(p, &st) != 0)
        return "cannot be read";
    if (!S_ISREG(st.st_mode))
        return "not a regular file";
    if (st.st_size % 64 != 16)
        return "wrong size (a Syzygy file is 16 bytes past a multiple of 64: truncated?)";
    int fd = open(p, O_RDONLY);
    uint8_t magic[4];
    bool read_ok = fd >= 0 && read(fd, magic, 4) == 4;
    if (fd >= 0)
        close(fd);
    if (!read_ok)
        return "cannot be read";
    if (memcmp(magic, dtz ? DTZ_MAGIC : WDL_MAGIC, 4))
        return "not a Syzygy file of its kind (bad magic number)";
    return NULL;
}

/* Smaller tables first (a probe of a larger one may reach into them), pawnless before
 * pawns (promotions lead into them), WDL before DTZ. */
static int by_probe_order(const void *a, const void *b)
{
    const TbFile *x = a, *y = b;
    if (x->pieces != y->pieces)
        return x->pieces - y->pieces;
    if ((x->pawns > 0) != (y->pawns > 0))
        return (x->pawns > 0) - (y->pawns > 0);
    int c = strncmp(x->name, y->name, strlen(x->name) - 5);
    if (c)
        return c;
    return (int)x->dtz - (int)y->dtz;
}

/* Every table file of the path; a name found in two directories is Fathom's first. */
static int list_files(const char *path, TbFile *files, int max)
{
    int n = 0;
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    for (char *save = NULL, *dir = strtok_r(copy, PF_PATH_LIST_SEPS, &save); dir;
         dir = strtok_r(NULL, PF_PATH_LIST_SEPS, &save)) {
        DIR *d = opendir(dir);
        if (!d)
            continue;
        struct dirent *ent;
        while ((ent = readdir(d)) && n < max) {
            TbFile f;
            memset(&f, 0, sizeof f);
            if (!parse_name(ent->d_name, &f.pieces, &f.pawns, &f.dtz))
                continue;
            bool seen = false;
            for (int i = 0; i < n && !seen; i++)
                seen = !strcmp(files[i].name, ent->d_name);
            if (seen)
                continue;
            size_t len = strlen(ent->d_name); /* < NAME_MAX_LEN: parse_name checked */
            if (len >= sizeof f.name)
                continue;
            memcpy(f.name, ent->d_name, len + 1);
            snprintf(f.dir, sizeof f.dir, "%s", dir);
            files[n++] = f;
        }
        closedir(d);
    }
    qsort(files, (size_t)n, sizeof *files, by_probe_order);
    return n;
}

/* A legal position with the material of name (side to move stm), every pawn on file
 * pawn_file or its mirror (-1: anywhere), or false; *seed moves on, so that the next call
 * gives another one. */
static bool material_position(const char *name, Color stm, int pawn_file, uint64_t *seed_state,
                              Position *pos)
{
    uint64_t seed = *seed_state;
    for (int attempt = 0; attempt < 2000; attempt++) {
        char board[64];
        memset(board, 0, sizeof board);
        bool ok = true;
        Color side = WHITE;
        for (const char *c = name; *c && *c != '.' && ok; c++) {
            if (*c == 'v') {
                side = BLACK;
                continue;
            }
            int sq = -1;
            for (int tries = 0; tries < 64 && sq < 0; tries++) {
                seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
                int s = (int)(seed % 64);
                bool back_rank = s < 8 || s >= 56;
                bool on_file = pawn_file < 0 || s % 8 == pawn_file || s % 8 == 7 - pawn_file;
                if (!board[s] && !(*c == 'P' && (back_rank || !on_file)))
                    sq = s;
            }
            if (sq < 0)
                ok = false;
            else
                board[sq] = side == WHITE ? *c : (char)(*c - 'A' + 'a');
        }
        if (!ok)
            continue;
        char fen[100];
        fen_from_squares(board, stm, fen);
        if (position_from_fen(pos, fen, NULL, 0, NULL)) {
            *seed_state = seed;
            return true;
        }
    }
    *seed_state = seed;
    return false;
}

static unsigned probe_wdl(const Position *pos)
{
    return tb_probe_wdl(pos->by_color[WHITE], pos->by_color[BLACK], pos->by_type[KING],
                        pos->by_type[QUEEN], pos->by_type[ROOK], pos->by_type[BISHOP],
                        pos->by_type[KNIGHT], pos->by_type[PAWN], 0, 0, 0, pos->side == WHITE);
}

/* Probes the file's material for both sides to move. A table with pawns has separate
 * structures per file of the leading pawn: positions with the pawns on each of the four
 * files (and mirrors) are probed. Fathom reads a DTZ table only for a position that is
 * not a draw, so DTZ probes are made at such positions. */
static void probe_material(const TbFile *f)
{
    static Position pos;
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (int c = 0; c < 2; c++)
        for (int file = f->pawns ? 0 : -1; file < (f->pawns ? 4 : 0); file++) {
            int done = 0;
            for (int tries = 0; tries < 64 && done < PROBES_PER_CLASS; tries++) {
                if (!material_position(f->name, (Color)c, file, &seed, &pos))
                    break;
                unsigned wdl = probe_wdl(&pos);
                if (!f->dtz) {
                    done++;
                    continue;
                }
                if (wdl != TB_RESULT_FAILED && TB_GET_WDL(wdl) != TB_DRAW) {
                    tb_probe_root(pos.by_color[WHITE], pos.by_color[BLACK], pos.by_type[KING],
                                  pos.by_type[QUEEN], pos.by_type[ROOK], pos.by_type[BISHOP],
                                  pos.by_type[KNIGHT], pos.by_type[PAWN], 0, 0, 0,
                                  pos.side == WHITE, NULL);
                    done++;
                }
            }
        }
}

/* The child: loads path, then probes file after file, telling the parent the index of
 * each before it starts, and -1 at the end. Never returns. */
static void child_main(const char *path, const TbFile *files, int n, int out_fd)
{
    int null_fd = open(PF_NULL_DEVICE, O_WRONLY);
    if (null_fd >= 0) { /* Fathom's and a crash's messages stay off the protocol */
        dup2(null_fd, STDOUT_FILENO);
        dup2(null_fd, STDERR_FILENO);
    }
    if (!tb_init(path))
        _exit(2);
    for (int i = 0; i < n; i++) {
        if (files[i].bad)
            continue;
        int32_t step = i;
        if (write(out_fd, &step, sizeof step) != sizeof step)
            _exit(3);
        probe_material(&files[i]);
    }
    int32_t done = -1;
    _exit(write(out_fd, &done, sizeof done) == sizeof done ? 0 : 3);
}

/* One forked probe run over files not yet bad. Returns the index of the file it died on,
 * -1 when it ran to the end, -2 when it could not run. */
static int probe_run(const char *path, const TbFile *files, int n)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -2;
    /* No fflush(NULL) before fork: the xboard reader thread holds stdin's lock while it
     * waits for input. The child never flushes (it leaves with _exit). */
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]), close(fds[1]);
        return -2;
    }
    if (pid == 0) {
        close(fds[0]);
        child_main(path, files, n, fds[1]);
    }
    close(fds[1]);
    int32_t last = -2, step;
    bool done = false, timed_out = false;
    for (;;) {
        struct pollfd p = { fds[0], POLLIN, 0 };
        int r = poll(&p, 1, STEP_TIMEOUT_MS);
        if (r == 0) {
            timed_out = true;
            kill(pid, SIGKILL);
            break;
        }
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 || read(fds[0], &step, sizeof step) != sizeof step)
            break;
        if (step == -1) {
            done = true;
            break;
        }
        last = step;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (done && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return -1;
    (void)timed_out;
    return last >= 0 ? last : -2;
}

/* Links the good files into a fresh private directory, whose name goes to dir. */
static bool make_private_dir(const TbFile *files, int n, char *dir, size_t dir_size)
{
    char tmp[4096];
    pf_temp_dir(tmp, sizeof tmp);
    int m = snprintf(dir, dir_size, "%s/saavedra-tb-XXXXXX", strlen(tmp) < 40 ? tmp : "/tmp");
    if (m < 0 || (size_t)m >= dir_size || !mkdtemp(dir)) {
        dir[0] = '\0';
        return false;
    }
    for (int i = 0; i < n; i++) {
        if (files[i].bad)
            continue;
        char target[8192], link_path[128], cwd[2048] = "";
        if (!pf_path_is_absolute(files[i].dir) && !getcwd(cwd, sizeof cwd))
            return false;
        int k = snprintf(target, sizeof target, "%s%s%s/%s", cwd, cwd[0] ? "/" : "", files[i].dir,
                         files[i].name);
        int l = snprintf(link_path, sizeof link_path, "%s/%s", dir, files[i].name);
        if (k < 0 || (size_t)k >= sizeof target || l < 0 || (size_t)l >= sizeof link_path
            || symlink(target, link_path) != 0)
            return false;
    }
    return true;
}

static bool has_capture(const Position *pos)
{
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        if (move_is_capture(list.moves[i]))
            return true;
    return false;
}

void tbcheck_each_material(const char *path, void (*fn)(void *ctx, const Position *pos), void *ctx)
{
    TbFile *files = calloc(MAX_FILES, sizeof *files);
    Position *pos = malloc(sizeof *pos);
    int n = files && pos ? list_files(path, files, MAX_FILES) : 0;
    for (int i = 0; i < n; i++) {
        if (files[i].dtz)
            continue;
        uint64_t seed = 0x2545f4914f6cdd1dULL;
        for (int tries = 0; tries < 200; tries++)
            if (material_position(files[i].name, tries & 1 ? BLACK : WHITE, -1, &seed, pos)
                && !has_capture(pos)) {
                fn(ctx, pos);
                break;
            }
    }
    free(files);
    free(pos);
}

void tbcheck_release(void)
{
    remove_active_dir();
}

static bool active_dir_in(const char *use_path)
{
    return active_dir[0] && !strcmp(use_path, active_dir);
}

bool tbcheck_path(const char *path, unsigned what, bool for_loading, char *use_path,
                  size_t use_size, char *report, size_t report_size, Writer *verbose,
                  TbCheckStats *stats)
{
    int64_t start = time_now_us();
    if (!PF_CAN_FORK)
        what &= ~(unsigned)TBCHECK_PROBE; /* stages 1 and 2 guard alone (tbguard_windows.c) */
    TbCheckStats st = { 0, 0, 0, false, 0, 0 };
    snprintf(use_path, use_size, "%s", path);
    report[0] = '\0';
    static TbFile files[MAX_FILES];
    int n = list_files(path, files, MAX_FILES);
    st.files = n;
    for (int i = 0; i < n; i++) {
        const char *why = cheap_check(files[i].dir, files[i].name, files[i].dtz);
        files[i].bad = why != NULL;
        snprintf(files[i].why, sizeof files[i].why, "%s", why ? why : "");
    }
    int64_t structure_start = time_now_us();
    for (int i = 0; i < n && (what & TBCHECK_STRUCTURE); i++) {
        char p[4200], why[160];
        if (files[i].bad
            || snprintf(p, sizeof p, "%s/%s", files[i].dir, files[i].name) >= (int)sizeof p)
            continue;
        if (!tbfile_check_path(p, what & TBCHECK_FULL ? TBFILE_WALK_ALL : TBFILE_WALK_TAIL, why,
                               sizeof why, NULL)) {
            files[i].bad = true;
            st.bad_structure++;
            snprintf(files[i].why, sizeof files[i].why, "corrupt: %s", why);
        }
    }
    st.structure_us = time_now_us() - structure_start;
    /* Probe runs until one goes through: each crash leaves one more material out. */
    bool ran = n == 0 || !(what & TBCHECK_PROBE);
    char made[64] = "";
    for (int round = 0; round < 32 && n > 0 && (what & TBCHECK_PROBE); round++) {
        bool any_bad = false;
        for (int i = 0; i < n; i++)
            any_bad |= files[i].bad;
        remove_dir(made);
        if (any_bad && !make_private_dir(files, n, made, sizeof made)) {
            remove_dir(made);
            break;
        }
        int died = probe_run(any_bad ? made : path, files, n);
        if (died == -2)
            break;
        if (died == -1) {
            ran = true;
            break;
        }
        /* A DTZ probe reads the WDL table too: both files of the material go. */
        for (int i = 0; i < n; i++)
            if (!files[i].bad && files[i].pieces == files[died].pieces
                && !strncmp(files[i].name, files[died].name, strlen(files[died].name) - 5)) {
                files[i].bad = true;
                snprintf(files[i].why, sizeof files[i].why,
                         "corrupt: a probe of its material crashed the check");
            }
    }
    if (!(what & TBCHECK_PROBE) && n > 0) {
        /* no probe run: the private directory is still needed when files were left out */
        bool any_bad = false;
        for (int i = 0; i < n; i++)
            any_bad |= files[i].bad;
        if (any_bad && !make_private_dir(files, n, made, sizeof made)) {
            remove_dir(made);
            ran = false;
        }
    }
    if (ran && made[0] && for_loading) {
        /* Fathom opens the files lazily from here: it lives until the next load. */
        remove_active_dir();
        memcpy(active_dir, made, sizeof active_dir);
        static bool registered;
        if (!registered)
            registered = atexit(remove_active_dir) == 0;
        snprintf(use_path, use_size, "%s", active_dir);
    } else {
        remove_dir(made);
        snprintf(use_path, use_size, "%s", path);
    }
    if (for_loading && !active_dir_in(use_path))
        remove_active_dir();
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        if (verbose)
            writer_printf(verbose, "%s/%s: %s\n", files[i].dir, files[i].name,
                          files[i].bad ? files[i].why : "ok");
        if (!files[i].bad)
            continue;
        st.bad++;
        if (used < report_size)
            used += (size_t)snprintf(report + used, report_size - used, "%s%s/%s (%s)",
                                     used ? ", " : "", files[i].dir, files[i].name, files[i].why);
    }
    if (!ran && n > 0 && used < report_size)
        snprintf(report + used, report_size - used, "%sthe probe check could not run",
                 used ? "; " : "");
    st.probed = ran;
    st.elapsed_us = time_now_us() - start;
    if (stats)
        *stats = st;
    return ran;
}
