/* Syzygy tablebases through Fathom: see syzygy.h. */
#include "tablebase/syzygy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <tbprobe.h>

#include "board/movegen.h"
#include "tablebase/tbcheck.h"
#include "tablebase/tbguard.h"
#include "util/options.h"
#include "util/platform.h"

/* Mirrors Fathom's process-wide state, which it does not report reliably itself: after
 * tb_init("") the Debian build (2019) leaves TB_LARGEST at its old value although no
 * table can be probed any more. Written only by syzygy_load. */
static int largest_loaded;
static bool initialised_once;
/* A probe that faulted (tbguard.h): the signal, and whether the user has been told.
 * From then on nothing calls into Fathom again in this process. */
static atomic_int fault_signal;
static atomic_bool fault_told;

int syzygy_largest(void)
{
    return atomic_load_explicit(&fault_signal, memory_order_relaxed) ? 0 : largest_loaded;
}

/* Appends "dir (reason)" for every directory of path that cannot be read. */
static void check_directories(const char *path, char *bad, size_t size)
{
    bad[0] = '\0';
    const char *p = path;
    while (*p) {
        const char *colon = strchr(p, PF_PATH_LIST_SEP);
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (len > 0) {
            char dir[OPTION_STRING_MAX];
            snprintf(dir, sizeof dir, "%.*s", (int)len, p);
            DIR *d = opendir(dir);
            if (d)
                closedir(d);
            else {
                size_t used = strlen(bad);
                snprintf(bad + used, size - used, "%s%s (%s)", used ? ", " : "", dir,
                         strerror(errno));
            }
        }
        if (!colon)
            break;
        p = colon + 1;
    }
}

/* Fathom's re-initialisation prints a spurious perror("munmap") for every table it
 * unmaps (the unmapping itself succeeds): keep it off the protocol's stderr. */
static bool init_quietly(const char *path)
{
    int saved = -1, null_fd = -1;
    if (initialised_once) {
        fflush(stderr);
        saved = dup(STDERR_FILENO);
        null_fd = open(PF_NULL_DEVICE, O_WRONLY);
        if (saved >= 0 && null_fd >= 0)
            dup2(null_fd, STDERR_FILENO);
    }
    bool ok = tb_init(path);
    if (saved >= 0) {
        if (null_fd >= 0)
            dup2(saved, STDERR_FILENO);
        close(saved);
    }
    if (null_fd >= 0)
        close(null_fd);
    initialised_once = true;
    return ok;
}

bool syzygy_normalise_path(const char *path, char *out, size_t size)
{
    size_t used = 0;
    bool fits = size > 0;
    if (size)
        out[0] = '\0';
    const char *p = path ? path : "";
    while (*p) {
        const char *colon = strchr(p, PF_PATH_LIST_SEP);
        const char *end = colon ? colon : p + strlen(p);
        const char *a = p, *b = end;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b > a && fits) {
            size_t len = (size_t)(b - a);
            if (used + (used > 0) + len + 1 > size)
                fits = false;
            else {
                if (used > 0)
                    out[used++] = PF_PATH_LIST_SEP;
                memcpy(out + used, a, len);
                used += len;
                out[used] = '\0';
            }
        }
        p = colon ? colon + 1 : end;
    }
    return fits;
}

/* ---- guarded calls into Fathom ---- */

typedef struct {
    uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
    unsigned rule50, ep;
    bool white_to_move;
} TbPosition;

static void to_fathom(const Position *pos, TbPosition *tb)
{
    tb->white = pos->by_color[WHITE];
    tb->black = pos->by_color[BLACK];
    tb->kings = pos->by_type[KING];
    tb->queens = pos->by_type[QUEEN];
    tb->rooks = pos->by_type[ROOK];
    tb->bishops = pos->by_type[BISHOP];
    tb->knights = pos->by_type[KNIGHT];
    tb->pawns = pos->by_type[PAWN];
    int r50 = rule50_count(pos);
    tb->rule50 = r50 > 255 ? 255 : (unsigned)r50; /* Fathom keeps it in a byte */
    tb->ep = ep_square(pos) == NO_SQUARE ? 0 : (unsigned)ep_square(pos);
    tb->white_to_move = pos->side == WHITE;
}

static bool faulted(void)
{
    return atomic_load_explicit(&fault_signal, memory_order_relaxed) != 0;
}

static bool probeable(const Position *pos, int max_pieces)
{
    return largest_loaded > 0 && !faulted() && popcount(pieces(pos)) <= max_pieces
        && castling_rights(pos) == 0;
}

/* Every call into Fathom's probes goes through run_guarded: a fault switches the tables
 * off for the rest of the process (docs/tablebases.md, "Damaged tables"). */
typedef enum { CALL_WDL, CALL_ROOT, CALL_ROOT_DTZ, CALL_ROOT_WDL } CallKind;

typedef struct {
    CallKind kind;
    const TbPosition *tb;
    bool has_repeated, rule50;
    struct TbRootMoves *ranked;
    unsigned result;
} FathomCall;

static void call_fathom(void *ctx)
{
    FathomCall *c = ctx;
    const TbPosition *tb = c->tb;
    switch (c->kind) {
    case CALL_WDL:
        c->result =
            tb_probe_wdl(tb->white, tb->black, tb->kings, tb->queens, tb->rooks, tb->bishops,
                         tb->knights, tb->pawns, 0, 0, tb->ep, tb->white_to_move);
        break;
    case CALL_ROOT:
        c->result =
            tb_probe_root(tb->white, tb->black, tb->kings, tb->queens, tb->rooks, tb->bishops,
                          tb->knights, tb->pawns, tb->rule50, 0, tb->ep, tb->white_to_move, NULL);
        break;
    case CALL_ROOT_DTZ:
        c->result =
            (unsigned)tb_probe_root_dtz(tb->white, tb->black, tb->kings, tb->queens, tb->rooks,
                                        tb->bishops, tb->knights, tb->pawns, tb->rule50, 0, tb->ep,
                                        tb->white_to_move, c->has_repeated, c->rule50, c->ranked);
        break;
    case CALL_ROOT_WDL:
        c->result =
            (unsigned)tb_probe_root_wdl(tb->white, tb->black, tb->kings, tb->queens, tb->rooks,
                                        tb->bishops, tb->knights, tb->pawns, tb->rule50, 0, tb->ep,
                                        tb->white_to_move, c->rule50, c->ranked);
        break;
    }
}

/* False when the call faulted (or an earlier one did): then nothing was computed. */
static bool run_guarded(FathomCall *c)
{
    if (faulted())
        return false;
    int sig = tbguard_run(call_fathom, c);
    if (sig) {
        int none = 0;
        atomic_compare_exchange_strong(&fault_signal, &none, sig);
        return false;
    }
    return true;
}

bool syzygy_take_fault(char *msg, size_t size)
{
    int sig = atomic_load(&fault_signal);
    if (!sig || atomic_exchange(&fault_told, true))
        return false;
    snprintf(msg, size, "SyzygyPath: a tablebase probe failed (%s inside Fathom: "
             "a damaged or changed table file?); "
             "tablebases are off until the engine is restarted", strsignal(sig));
    return true;
}

/* Fathom builds a table's decoding structures at its first probe, and the Debian build
 * does so without a lock (TB_NO_THREADS): two search threads meeting a new table at once
 * would build it twice over each other. So every WDL table (the only kind the search
 * threads probe; DTZ is read at the root, by one thread) is built here, at load. */
static void warm_table(void *ctx, const Position *pos)
{
    (void)ctx;
    TbPosition tb;
    to_fathom(pos, &tb);
    FathomCall call = {.kind = CALL_WDL, .tb = &tb};
    run_guarded(&call);
}

int syzygy_load(const char *raw_path, char *warning, size_t warning_size)
{
    return syzygy_load_checked(raw_path, TBCHECK_DEFAULT, warning, warning_size);
}

int syzygy_load_checked(const char *raw_path, unsigned check, char *warning, size_t warning_size)
{
    if (warning && warning_size)
        warning[0] = '\0';
    /* Fathom reads past its buffer on an empty last component ("dir:", ":"), and opens
     * garbage names: it only ever sees the path without empty or blank components. */
    char path[OPTION_STRING_MAX];
    if (raw_path && !strcmp(raw_path, "<empty>"))
        raw_path = "";
    if (!syzygy_normalise_path(raw_path, path, sizeof path)) {
        if (warning && warning_size)
            snprintf(warning, warning_size,
                     "SyzygyPath: longer than %zu characters; searching without tablebases",
                     sizeof path - 1);
        path[0] = '\0';
    }
    if (faulted()) {
        /* Fathom's state is unknown after a fault: it is not called again. */
        if (warning && warning_size && path[0])
            snprintf(warning, warning_size,
                     "SyzygyPath: tablebases are off after a failed probe; "
                     "restart the engine to use them");
        largest_loaded = 0;
        return 0;
    }
    bool empty = !path[0];
    if (empty) {
        if (initialised_once)
            init_quietly("");
        tbcheck_release();
        largest_loaded = 0;
        return 0;
    }
    char bad[512];
    check_directories(path, bad, sizeof bad);
    /* A corrupt file crashes Fathom on its first probe: vetted first (tbcheck.h). */
    char use_path[4096], left_out[1024];
    tbcheck_path(path, check, true, use_path, sizeof use_path, left_out, sizeof left_out, NULL,
                 NULL);
    bool ok = init_quietly(use_path);
    largest_loaded = ok && TB_LARGEST <= SYZYGY_MAX_PIECES ? (int)TB_LARGEST : 0;
    if (largest_loaded > 0)
        tbcheck_each_material(use_path, warm_table, NULL);
    if (faulted()) {
        largest_loaded = 0;
        if (warning && warning_size)
            syzygy_take_fault(warning, warning_size);
        return 0;
    }
    if (warning && warning_size && left_out[0]) {
        snprintf(warning, warning_size,
                 "SyzygyPath: left out %s; using the other tables (up to %d pieces)", left_out,
                 largest_loaded);
    } else if (warning && warning_size) {
        if (!ok)
            snprintf(warning, warning_size,
                     "SyzygyPath: the tables in '%s' could not be loaded; "
                     "searching without tablebases", path);
        else if (largest_loaded == 0 && bad[0])
            snprintf(warning, warning_size,
                     "SyzygyPath: cannot read %s; no tables found, searching without tablebases",
                     bad);
        else if (largest_loaded == 0)
            snprintf(warning, warning_size,
                     "SyzygyPath: no Syzygy tables in '%s'; searching without tablebases", path);
        else if (bad[0])
            snprintf(warning, warning_size,
                     "SyzygyPath: cannot read %s; using the tables found elsewhere "
                     "(up to %d pieces)",
                     bad, largest_loaded);
    }
    return largest_loaded;
}

/* ---- probes ---- */

bool syzygy_probe_wdl(const Position *pos, int *wdl)
{
    if (!probeable(pos, largest_loaded) || rule50_count(pos) != 0)
        return false;
    TbPosition tb;
    to_fathom(pos, &tb);
    FathomCall call = {.kind = CALL_WDL, .tb = &tb};
    if (!run_guarded(&call) || call.result == TB_RESULT_FAILED)
        return false;
    *wdl = (int)call.result - 2;
    return true;
}

bool syzygy_probe_search(const SyzygyConfig *cfg, const Position *pos, int depth, int ply,
                         int draw, int *score, Bound *bound)
{
    int wdl;
    if (cfg->pieces <= 0 || depth < cfg->probe_depth || popcount(pieces(pos)) > cfg->pieces
        || !syzygy_probe_wdl(pos, &wdl))
        return false;
    /* Without the fifty-move rule a cursed win is simply a win. */
    int margin = cfg->rule50 ? SYZYGY_CURSED_WIN : SYZYGY_DRAW;
    if (wdl > margin) {
        *score = VALUE_TB_WIN - ply;
        *bound = BOUND_LOWER;  /* the search may still find a mate */
    } else if (wdl < -margin) {
        *score = -VALUE_TB_WIN + ply;
        *bound = BOUND_UPPER;
    } else {
        *score = draw + wdl;   /* cursed wins a little above a draw, blessed losses below */
        *bound = BOUND_EXACT;
    }
    return true;
}

/* ---- root ---- */

/* A position of the current phase (since the last capture or pawn move) has occurred
 * twice: Fathom then ranks wins strictly by distance, so the engine cannot go round in
 * circles into a threefold repetition. */
static bool has_repeated(const Position *pos)
{
    int window = rule50_count(pos) < pos->st_index ? rule50_count(pos) : pos->st_index;
    for (int back = 0; back <= window; back++) {
        int i = pos->st_index - back;
        for (int j = i - 4; j >= pos->st_index - window; j -= 2)
            if (pos->states[j].key == pos->states[i].key)
                return true;
    }
    return false;
}

static Move find_move(const MoveList *legal, TbMove tbm)
{
    Square from = (Square)TB_MOVE_FROM(tbm), to = (Square)TB_MOVE_TO(tbm);
    unsigned promotes = TB_MOVE_PROMOTES(tbm);
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i];
        if (move_from(m) != from || move_to(m) != to)
            continue;
        if (move_is_promotion(m) != (promotes != TB_PROMOTES_NONE))
            continue;
        /* Fathom: 1 queen, 2 rook, 3 bishop, 4 knight. */
        if (promotes && move_promo_type(m) != (PieceType)(QUEEN + 1 - (int)promotes))
            continue;
        return m;
    }
    return MOVE_NONE;
}

/* The root's value from the best rank's Fathom score and the root's distance to zero. */
static int root_value(const TbPosition *tb, int tb_score, int draw)
{
    const int win = TB_VALUE_MATE - TB_MAX_MATE_PLY - 1; /* Fathom's score of a sure win */
    if (tb_score > -win && tb_score < win)
        return draw + (tb_score > 0) - (tb_score < 0); /* draw, cursed win, blessed loss */
    FathomCall call = {.kind = CALL_ROOT, .tb = tb};
    unsigned r = run_guarded(&call) ? call.result : TB_RESULT_FAILED;
    int dtz = MAX_PLY - 1; /* unknown without the DTZ tables */
    if (r != TB_RESULT_FAILED && r != TB_RESULT_CHECKMATE && r != TB_RESULT_STALEMATE
        && (int)TB_GET_DTZ(r) < MAX_PLY)
        dtz = (int)TB_GET_DTZ(r);
    return tb_score > 0 ? VALUE_TB_WIN - dtz : -VALUE_TB_WIN + dtz;
}

bool syzygy_rank_root(const SyzygyConfig *cfg, const Position *pos, int draw, SyzygyRoot *out)
{
    out->active = false;
    out->count = 0;
    if (cfg->pieces <= 0 || !probeable(pos, cfg->pieces))
        return false;
    static _Thread_local struct TbRootMoves ranked; /* about 100 KB: off the stack */
    TbPosition tb;
    to_fathom(pos, &tb);
    FathomCall dtz = {.kind = CALL_ROOT_DTZ, .tb = &tb, .has_repeated = has_repeated(pos),
                      .rule50 = cfg->rule50, .ranked = &ranked};
    FathomCall wdl = {.kind = CALL_ROOT_WDL, .tb = &tb, .rule50 = cfg->rule50, .ranked = &ranked};
    if (!(run_guarded(&dtz) && dtz.result) && !(run_guarded(&wdl) && wdl.result))
        return false;

    MoveList legal;
    generate_legal(pos, &legal);
    if (legal.count == 0 || (int)ranked.size != legal.count)
        return false;
    for (unsigned i = 0; i < ranked.size; i++) {
        Move m = find_move(&legal, ranked.moves[i].move);
        if (m == MOVE_NONE)
            return false; /* cannot happen with a sound table; then trust the search alone */
        out->moves[i] = m;
        out->rank[i] = ranked.moves[i].tbRank;
        out->value[i] = root_value(&tb, ranked.moves[i].tbScore, draw);
    }
    out->count = (int)ranked.size;
    out->active = true;
    return true;
}

static int move_rank(const SyzygyRoot *root, Move m, bool *found)
{
    for (int i = 0; i < root->count; i++)
        if (root->moves[i] == m) {
            *found = true;
            return root->rank[i];
        }
    *found = false;
    return 0;
}

static bool listed(const Move *moves, int count, Move m)
{
    for (int i = 0; i < count; i++)
        if (moves[i] == m)
            return true;
    return false;
}

void syzygy_filter_root(const SyzygyRoot *root, MoveList *list, const Move *only, int only_count)
{
    if (!root->active)
        return;
    bool any_only = false;
    for (int i = 0; i < list->count && only_count > 0; i++)
        any_only |= listed(only, only_count, list->moves[i]);
    bool have_best = false;
    int best = 0;
    for (int i = 0; i < list->count; i++) {
        bool found;
        int r = move_rank(root, list->moves[i], &found);
        if (found && (!any_only || listed(only, only_count, list->moves[i]))
            && (!have_best || r > best)) {
            best = r;
            have_best = true;
        }
    }
    if (!have_best)
        return;
    int kept = 0;
    for (int i = 0; i < list->count; i++) {
        bool found;
        if (move_rank(root, list->moves[i], &found) == best && found)
            list->moves[kept++] = list->moves[i];
    }
    list->count = kept;
}

int syzygy_root_score(const SyzygyRoot *root, Move move, int search_score)
{
    if (!root->active || search_score >= VALUE_MATE_IN_MAX_PLY
        || search_score <= -VALUE_MATE_IN_MAX_PLY)
        return search_score;
    for (int i = 0; i < root->count; i++)
        if (root->moves[i] == move)
            return root->value[i];
    return search_score;
}
