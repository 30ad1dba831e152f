/* Damaged Syzygy tables against the engine's defences (docs/tablebases.md, "Damaged
 * tables"): each trial copies a table set, damages one file, then, in a child process,
 * loads the set with the chosen checks and probes thousands of random positions of every
 * material (WDL, and a root DTZ ranking every tenth). It counts the trials whose probing
 * process crashed, hung, had a fault caught by the probe guard, or had files left out.
 *
 *   build/native/tools/tbstress [-s SEED] [-n TRIALS] [-p PROBES] [-c CHECK] [-g] [-t K] [-v] DIR
 *   build/native/tools/tbstress -x FILE:OFFSET [-f] [-p PROBES] [-c CHECK] [-g] [-v] DIR
 *
 * CHECK: cheap (size and magic only), probe (cheap + forked probe check: the defence
 * before the structure check), structure (cheap + structure check), default (all three,
 * what a load does), full (default with every block decoded). Without -g, Fathom is
 * called directly after the check (no guard: every fault is a crash); with -g, through
 * the engine's own guarded probes (tablebase/syzygy.c). A trial is reproducible alone:
 * -t K runs trial K of the seed (with -v, it prints what was damaged and the outcome).
 * Damage: 60% one byte anywhere in the file, 25% 2-16 bytes (scattered or in a run), 15%
 * truncation (half of them to a size the cheap size check accepts). With -x, the trials
 * are instead the 255 other values of one byte of one file (trial K sets the value the
 * file has + K + 1, modulo 256). With -f, every probe is of the damaged file's material
 * instead of a random one (so its decoder is met thousands of times a trial). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tbprobe.h>

#include "board/fen.h"
#include "board/movegen.h"
#include "board/position.h"
#include "tablebase/syzygy.h"
#include "tablebase/tbcheck.h"
#include "util/timeutil.h"
#include "util/words.h"

#define MAX_TABLES 1024
#define TRIAL_TIMEOUT_MS 20000

typedef struct {
    char name[32];
    long size;
} Table;

static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static int list_tables(const char *dir, Table *t, int max)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len < 6 || len >= sizeof t->name || (strcmp(e->d_name + len - 5, ".rtbw") && strcmp(e->d_name + len - 5, ".rtbz")))
            continue;
        char p[4200];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (stat(p, &st) != 0)
            continue;
        snprintf(t[n].name, sizeof t[n].name, "%s", e->d_name);
        t[n++].size = (long)st.st_size;
    }
    if (d)
        closedir(d);
    /* readdir's order is the file system's: sorted, so that a seed means the same damage */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(t[j - 1].name, t[j].name) > 0; j--) {
            Table x = t[j];
            t[j] = t[j - 1], t[j - 1] = x;
        }
    return n;
}

static bool copy_file(const char *from, const char *to, long keep)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    bool ok = in && out;
    char buf[65536];
    long done = 0;
    size_t n;
    while (ok && done < keep && (n = fread(buf, 1, sizeof buf, in)) > 0) {
        if ((long)n > keep - done)
            n = (size_t)(keep - done);
        ok = fwrite(buf, 1, n, out) == n;
        done += (long)n;
    }
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = false;
    return ok;
}

static void patch(const char *path, long off, int value)
{
    int fd = open(path, O_WRONLY);
    unsigned char b = (unsigned char)value;
    if (fd >= 0) {
        if (pwrite(fd, &b, 1, off) != 1)
            perror("pwrite");
        close(fd);
    }
}

static int read_byte(const char *path, long off)
{
    int fd = open(path, O_RDONLY);
    unsigned char b = 0;
    if (fd >= 0) {
        if (pread(fd, &b, 1, off) != 1)
            b = 0;
        close(fd);
    }
    return b;
}

typedef struct {
    int table;   /* -x: the file, or -1 for random damage */
    long offset;
} Exhaustive;

/* Builds dir as the set with one file damaged; describes the damage in what. */
static bool damage(const char *src, const char *dir, const Table *t, int n, uint64_t seed, const Exhaustive *x, int k,
                   char *what, size_t size, const char **victim_name)
{
    const Table *victim = x->table >= 0 ? &t[x->table] : &t[next(&seed) % (uint64_t)n];
    *victim_name = victim->name;
    char from[4200], to[4200];
    for (int i = 0; i < n; i++) {
        snprintf(from, sizeof from, "%s/%.31s", src, t[i].name);
        snprintf(to, sizeof to, "%s/%.31s", dir, t[i].name);
        if (&t[i] != victim) {
            char abs[4200];
            if (!realpath(from, abs) || symlink(abs, to) != 0)
                return false;
        }
    }
    snprintf(from, sizeof from, "%s/%s", src, victim->name);
    snprintf(to, sizeof to, "%s/%s", dir, victim->name);
    int kind = x->table >= 0 ? 0 : (int)(next(&seed) % 100);
    if (kind < 60) {
        long off = x->table >= 0 ? x->offset : (long)(next(&seed) % (uint64_t)victim->size);
        int old = read_byte(from, off);
        int value = (old + 1 + (x->table >= 0 ? k % 255 : (int)(next(&seed) % 255))) & 255;
        snprintf(what, size, "%s byte %ld: %d -> %d", victim->name, off, old, value);
        if (!copy_file(from, to, victim->size))
            return false;
        patch(to, off, value);
    } else if (kind < 85) {
        int count = 2 + (int)(next(&seed) % 15);
        bool run = next(&seed) & 1;
        long off = (long)(next(&seed) % (uint64_t)victim->size);
        if (!copy_file(from, to, victim->size))
            return false;
        for (int i = 0; i < count; i++) {
            long at = run ? off + i : (long)(next(&seed) % (uint64_t)victim->size);
            if (at < victim->size)
                patch(to, at, (int)(next(&seed) & 255));
        }
        snprintf(what, size, "%s: %d random bytes %s %ld", victim->name, count, run ? "in a run from" : "scattered, first pick", off);
    } else {
        long keep = (long)(next(&seed) % (uint64_t)victim->size);
        if (next(&seed) & 1)
            keep = keep / 64 * 64 + 16 < victim->size ? keep / 64 * 64 + 16 : 16;
        snprintf(what, size, "%s truncated from %ld to %ld bytes", victim->name, victim->size, keep);
        if (!copy_file(from, to, keep))
            return false;
    }
    return true;
}

/* A legal position with the material of a table name (no castling), or false. */
static bool random_position(const char *name, uint64_t *seed, Position *pos)
{
    for (int attempt = 0; attempt < 100; attempt++) {
        char board[64] = {0};
        bool black = false, ok = true;
        for (const char *c = name; *c && *c != '.' && ok; c++) {
            if (*c == 'v') {
                black = true;
                continue;
            }
            int sq = (int)(next(seed) % 64);
            if (board[sq] || (*c == 'P' && (sq < 8 || sq >= 56)))
                ok = false;
            else
                board[sq] = black ? (char)(*c - 'A' + 'a') : *c;
        }
        if (!ok)
            continue;
        char fen[100];
        fen_from_squares(board, (next(seed) & 1) ? WHITE : BLACK, fen);
        if (position_from_fen(pos, fen, NULL, 0, NULL))
            return true;
    }
    return false;
}

static void probe_raw(const Position *pos, bool root)
{
    static struct TbRootMoves ranked;
    tb_probe_wdl(pos->by_color[WHITE], pos->by_color[BLACK], pos->by_type[KING], pos->by_type[QUEEN],
                 pos->by_type[ROOK], pos->by_type[BISHOP], pos->by_type[KNIGHT], pos->by_type[PAWN], 0, 0, 0,
                 pos->side == WHITE);
    if (root)
        tb_probe_root_dtz(pos->by_color[WHITE], pos->by_color[BLACK], pos->by_type[KING], pos->by_type[QUEEN],
                          pos->by_type[ROOK], pos->by_type[BISHOP], pos->by_type[KNIGHT], pos->by_type[PAWN], 0, 0, 0,
                          pos->side == WHITE, false, true, &ranked);
}

/* The probing process: load dir with the checks, then probe; exits 0, or 10 when the
 * guard caught a fault. Writes the number of files left out to fd first. */
static void child(const char *dir, unsigned check, bool guarded, const Table *t, int n, const char *focus, int probes,
                  uint64_t seed, int fd)
{
    int null_fd = open("/dev/null", O_WRONLY);
    dup2(null_fd, STDERR_FILENO);
    dup2(null_fd, STDOUT_FILENO);
    char warning[4096] = "", use[4096], report[4096] = "";
    if (guarded) {
        syzygy_load_checked(dir, check, warning, sizeof warning);
    } else {
        tbcheck_path(dir, check, true, use, sizeof use, report, sizeof report, NULL, NULL);
        tb_init(use);
    }
    const char *text = guarded ? warning : report;
    int left = 0;
    for (const char *p = text; (p = strstr(p, ".rtb")); p++)
        left++;
    if (write(fd, &left, sizeof left) != sizeof left)
        _exit(3);
    static Position pos;
    SyzygyConfig cfg = {7, 1, true};
    static SyzygyRoot root;
    for (int i = 0; i < probes; i++) {
        const char *name = focus ? focus : t[next(&seed) % (uint64_t)n].name;
        if (!random_position(name, &seed, &pos))
            continue;
        bool at_root = i % 10 == 0;
        if (guarded) {
            int wdl;
            syzygy_probe_wdl(&pos, &wdl);
            if (at_root)
                syzygy_rank_root(&cfg, &pos, 0, &root);
        } else {
            probe_raw(&pos, at_root);
        }
    }
    char msg[300];
    _exit(guarded && syzygy_take_fault(msg, sizeof msg) ? 10 : 0);
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            char p[4200];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

static unsigned parse_check(const char *s)
{
    if (!strcmp(s, "cheap"))
        return 0;
    if (!strcmp(s, "probe"))
        return TBCHECK_PROBE;
    if (!strcmp(s, "structure"))
        return TBCHECK_STRUCTURE;
    if (!strcmp(s, "default"))
        return TBCHECK_DEFAULT;
    if (!strcmp(s, "full"))
        return TBCHECK_DEFAULT | TBCHECK_FULL;
    return ~0u;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    int trials = 300, probes = 3000, only = -1;
    const char *check_name = "default";
    bool guarded = false, verbose = false, focus = false;
    const char *exhaustive = NULL;
    int opt;
    long number;
    while ((opt = getopt(argc, argv, "s:n:p:c:gt:vx:f")) != -1) {
        switch (opt) {
        case 's':
            if (!word_to_long(optarg, 1, LONG_MAX, &number))
                goto usage;
            seed = (uint64_t)number;
            break;
        case 'n': if (!word_to_int(optarg, 1, 100000000, &trials)) goto usage; break;
        case 'p': if (!word_to_int(optarg, 0, 100000000, &probes)) goto usage; break;
        case 'c': check_name = optarg; break;
        case 'g': guarded = true; break;
        case 't': if (!word_to_int(optarg, 0, 1000000, &only)) goto usage; break;
        case 'v': verbose = true; break;
        case 'x': exhaustive = optarg; break;
        case 'f': focus = true; break;
        default: goto usage;
        }
    }
    unsigned check = parse_check(check_name);
    if (optind != argc - 1 || check == ~0u || trials < 1 || probes < 0 || seed == 0) {
    usage:
        fprintf(stderr, "usage: tbstress [-s SEED>0] [-n TRIALS | -x FILE:OFFSET] [-f] [-p PROBES] [-c cheap|probe|structure|default|full] [-g] [-t K] [-v] DIR\n");
        return 2;
    }
    position_init();
    static Table t[MAX_TABLES];
    int n = list_tables(argv[optind], t, MAX_TABLES);
    if (n == 0) {
        fprintf(stderr, "tbstress: no tables in %s\n", argv[optind]);
        return 1;
    }
    Exhaustive x = {-1, 0};
    if (exhaustive) {
        const char *colon = strchr(exhaustive, ':');
        for (int i = 0; colon && i < n; i++)
            if (strlen(t[i].name) == (size_t)(colon - exhaustive) && !strncmp(t[i].name, exhaustive, (size_t)(colon - exhaustive)))
                x.table = i;
        long offset = -1;
        x.offset = colon && word_to_long(colon + 1, 0, LONG_MAX, &offset) ? offset : -1;
        if (x.table < 0 || x.offset < 0 || x.offset >= t[x.table].size) {
            fprintf(stderr, "tbstress: -x wants FILE:OFFSET of a table in %s\n", argv[optind]);
            return 2;
        }
        trials = 255;
    }
    bool tty = isatty(STDERR_FILENO);
    int crashed = 0, hung = 0, caught = 0, left_out = 0, done = 0;
    int crashed_by_kind[3] = {0}, kind_count[3] = {0};
    int64_t start = time_now_us();
    for (int k = only >= 0 ? only : 0; k < (only >= 0 ? only + 1 : trials); k++) {
        uint64_t trial_seed = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)k * 0xbf58476d1ce4e5b9ULL + 1;
        char dir[] = "/tmp/saavedra-tbstress-XXXXXX", what[300] = "";
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            return 1;
        }
        const char *victim = NULL;
        if (!damage(argv[optind], dir, t, n, trial_seed, &x, k, what, sizeof what, &victim)) {
            fprintf(stderr, "tbstress: cannot build the damaged set in %s\n", dir);
            remove_tree(dir);
            return 1;
        }
        int kind = strstr(what, "truncated") ? 2 : strstr(what, "random bytes") ? 1 : 0;
        kind_count[kind]++;
        int fds[2];
        if (pipe(fds) != 0)
            return 1;
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            child(dir, check, guarded, t, n, focus ? victim : NULL, probes, trial_seed ^ 0x5555, fds[1]);
        }
        close(fds[1]);
        int left = 0, status = 0;
        bool timed_out = false;
        struct pollfd p = {fds[0], POLLIN, 0};
        if (poll(&p, 1, TRIAL_TIMEOUT_MS) > 0 && read(fds[0], &left, sizeof left) != sizeof left)
            left = 0;
        /* the child may still be probing: wait for its end, within the time limit */
        int64_t deadline = time_now_us() + (int64_t)TRIAL_TIMEOUT_MS * 1000;
        while (waitpid(pid, &status, WNOHANG) == 0) {
            if (time_now_us() > deadline) {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                timed_out = true;
                break;
            }
            usleep(2000);
        }
        close(fds[0]);
        remove_tree(dir);
        const char *outcome = "ok";
        char sigtext[64];
        if (timed_out)
            hung++, outcome = "HUNG";
        else if (WIFSIGNALED(status)) {
            crashed++, crashed_by_kind[kind]++;
            snprintf(sigtext, sizeof sigtext, "CRASHED (%s)", strsignal(WTERMSIG(status)));
            outcome = sigtext;
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == 10)
            caught++, outcome = "fault caught by the guard (tables off)";
        else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            outcome = "child failed";
        left_out += left > 0;
        done++;
        if (verbose)
            printf("trial %d: %s; %d file(s) left out; %s\n", k, what, left, outcome);
        else if (strcmp(outcome, "ok"))
            printf("trial %d: %s; %d file(s) left out; %s\n", k, what, left, outcome);
        if (tty)
            fprintf(stderr, "\r%d/%d trials, %d crashed", done, only >= 0 ? 1 : trials, crashed);
    }
    if (tty)
        fprintf(stderr, "\n");
    printf("tbstress: seed %llu, check %s, %s, %d probes a trial%s: %d trials (%d one-byte, %d multi-byte, %d truncations) "
           "in %.1f s; crashed %d (%d/%d/%d), hung %d, guard caught %d, trials with files left out %d\n",
           (unsigned long long)seed, check_name, guarded ? "guarded probes" : "unguarded probes", probes,
           focus ? " (of the damaged material)" : "", done,
           kind_count[0], kind_count[1], kind_count[2], (time_now_us() - start) / 1e6, crashed, crashed_by_kind[0],
           crashed_by_kind[1], crashed_by_kind[2], hung, caught, left_out);
    return crashed || hung ? 1 : 0;
}
