/* datagen: training data for the neural evaluation. Saavedra plays itself at a fixed node
 * count from varied openings and stores every game in the training-data format
 * (docs/training-data.md): the moves as one-byte codes, a 16-bit score for every training
 * position, the result.
 *
 *   datagen [-o DIR] [-games N] [-nodes N] [-c THREADS] [-book FILE] [-random N]
 *           [-chunk N] [-net FILE|builtin] [-hash MB] [--seed N]
 *     -o DIR      where the files go (default: the generation's folder under the data
 *                 root, src/toolkit/datafolder.h)
 *     -games N    games under this seed, counted from game 0 (default 1000)
 *     -nodes N    nodes per move (default 5000)
 *     -c N        threads, each playing its own games (default 2)
 *     -book FILE  half the games follow this book (a random weighted line) before the
 *                 random plies; the other half start with random plies only
 *     -random N   random legal plies from the start position (N or N+1; default 8);
 *                 after a book line, 2 to 4
 *     -chunk N    games per file (default 250)
 *     -net F      evaluate with the net in file F ("builtin": the engine's own) instead of
 *                 the hand-written evaluation; the files record the net's id
 *     -hash MB    each thread's hash table (default 2); the games depend on it
 *     --seed N    (default 1)
 *
 * Game g of seed S depends on S and g alone, so the data are reproducible and a run can
 * be resumed or extended: games are written in files of -chunk games named
 * sS-FIRST.svt, appended one durable game at a time; a run checks the files there
 * before it starts, keeps the whole ones, sets damaged ones aside and resumes files cut
 * short after their last whole game (src/toolkit/datachunk.h). Positions in check, positions whose best move is a capture
 * or promotion, and mate or tablebase scores are not training positions (stored as
 * TRAIN_NO_SCORE). An opening whose first search scores beyond 4 pawns is replaced by
 * another. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "board/movegen.h"
#include "engine/engine.h"
#include "toolkit/datachunk.h"
#include "toolkit/datafolder.h"
#include "toolkit/selfgame.h"
#include "formats/movecode_game.h"
#include "formats/traindata.h"
#include "opening/book.h"
#include "search/transposition.h"
#include "util/args.h"
#include "util/fork_join.h"
#include "util/random.h"
#include "util/timeutil.h"
#include "util/version.h"

#define OPENING_MAX 40
#define BOOK_LINE_MAX 24
#define MAX_OPENING_SCORE 400

/* A game of fixed-node searches (about 200,000 nodes, a fresh table each game) fills
 * little of the engine's 16 MB, whose probes then miss the cache: 2 MB per thread makes
 * its positions with about 13% less CPU (docs/training-data.md). */
#define DATAGEN_HASH_MB 2

typedef struct {
    const char *dir, *book_path, *net;
    uint64_t games, nodes, seed;
    int threads, random_plies, chunk, hash_mb;
    Book *book;
    uint32_t eval_id;   /* 0: the hand-written evaluation, else the net's id */
} Config;

typedef struct {
    const Config *cfg;
    const DataPlan *plan;
    atomic_uint_fast64_t next_chunk;
    pthread_mutex_t lock;
    uint64_t games_done, games_todo, positions, bytes, files;
    int64_t start_ms;
    time_t started;
    bool progress;
    atomic_bool failed;
} Shared;

/* The opening of one attempt: a book line (when the coin says so) then random plies. */
static int choose_opening(const Config *cfg, Position *pos, uint64_t *rng, Move *moves)
{
    int n = 0, randoms = cfg->random_plies + (int)(splitmix64(rng) & 1);
    if (cfg->book && (splitmix64(rng) & 1)) {
        BookMove bm[BOOK_MOVES_MAX];
        while (n < BOOK_LINE_MAX) {
            int count = book_probe(cfg->book, pos, bm, BOOK_MOVES_MAX);
            int pick = count ? book_choose(bm, count, 100, rng) : -1;
            if (pick < 0)
                break;
            moves[n++] = bm[pick].move;
            make_move(pos, bm[pick].move);
        }
        randoms = 2 + (int)(splitmix64(rng) % 3);
    }
    for (int i = 0; i < randoms && n < OPENING_MAX; i++) {
        MoveList list;
        generate_legal(pos, &list);
        if (list.count == 0)
            return -1;
        Move m = list.moves[splitmix64(rng) % (uint64_t)list.count];
        moves[n++] = m;
        make_move(pos, m);
    }
    return n;
}

/* Plays game g into *tg; false when it could not be played at all. */
static bool play_one(const Config *cfg, Engine *e, uint64_t g, TrainGame *tg, uint64_t *positions)
{
    static _Thread_local SelfGame game;
    static _Thread_local Position pos;
    uint64_t rng = splitmix64_at(cfg->seed * 1000003ULL + g);
    SelfGameConfig sg = { cfg->nodes, MAX_OPENING_SCORE };
    char err[256];
    for (int attempt = 0; attempt < 100; attempt++) {
        Move opening[OPENING_MAX];
        position_from_fen(&pos, START_FEN, err, sizeof err, NULL);
        int n = choose_opening(cfg, &pos, &rng, opening);
        if (n < 0)
            continue;
        if (!selfgame_play(e, &sg, START_FEN, opening, n, &game, err, sizeof err)) {
            if (err[0]) {
                fprintf(stderr, "datagen: game %llu: %s\n", (unsigned long long)g, err);
                return false;
            }
            continue;
        }
        position_from_fen(&pos, START_FEN, err, sizeof err, NULL);
        if (movecode_encode_game(&pos, game.moves, game.plies, tg->codes) != game.plies) {
            fprintf(stderr, "datagen: game %llu: a move has no code\n", (unsigned long long)g);
            return false;
        }
        tg->standard_start = true;
        tg->chess960 = false;
        tg->fen[0] = '\0';
        tg->plies = game.plies;
        tg->first_scored = game.opening_plies;
        tg->result = game.result > 0 ? TRAIN_WHITE_WON : game.result < 0 ? TRAIN_BLACK_WON : TRAIN_DRAW;
        for (int i = game.opening_plies; i < game.plies; i++) {
            int s = game.score[i];
            bool usable = game.quiet[i] && s < VALUE_TB_WIN_IN_MAX_PLY && s > -VALUE_TB_WIN_IN_MAX_PLY;
            bool white_to_move = (i & 1) == 0; /* every game starts from the start position */
            tg->scores[i] = usable ? (int16_t)(white_to_move ? s : -s) : TRAIN_NO_SCORE;
            *positions += usable;
        }
        return true;
    }
    fprintf(stderr, "datagen: game %llu: no balanced opening in 100 tries\n", (unsigned long long)g);
    return false;
}

static void report(Shared *sh, bool final)
{
    double s = (time_now_ms() - sh->start_ms) / 1000.0;
    double rate = s > 0 ? sh->positions / s : 0;
    double games_rate = s > 0 ? sh->games_done / s : 0;
    double eta = games_rate > 0 ? (sh->games_todo - sh->games_done) / games_rate : 0;
    fprintf(stderr, "%sdatagen: %llu/%llu games, %llu positions, %.0f positions/s, %.1f bytes/position, ETA %.0f min%s",
            sh->progress ? "\r" : "", (unsigned long long)sh->games_done, (unsigned long long)sh->games_todo,
            (unsigned long long)sh->positions, rate, sh->positions ? (double)sh->bytes / sh->positions : 0.0,
            eta / 60, sh->progress && !final ? "   " : "\n");
}

/* CPU seconds of the whole process: the rate of a run on a machine that does other work. */
static double cpu_seconds(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0)
        return 0;
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

/* The run record after a finished file (under sh->lock): what nnue-status reports. */
static void record_run(Shared *sh)
{
    const Config *cfg = sh->cfg;
    DataRun run = { cfg->seed, cfg->nodes, cfg->games, cfg->eval_id, cfg->threads, (int64_t)sh->started,
                    (time_now_ms() - sh->start_ms) / 1000.0, cpu_seconds(), sh->games_done, sh->positions,
                    sh->files, "" };
    snprintf(run.version, sizeof run.version, "%s", version_commit());
    char err[256];
    if (!datafolder_write_run(cfg->dir, &run, err, sizeof err))
        fprintf(stderr, "datagen: %s\n", err);
}

/* Plays the rest of file c, appending each game as it ends. */
static bool play_chunk(Shared *sh, Engine *e, TrainGame *tg, uint8_t *record, uint64_t c)
{
    const Config *cfg = sh->cfg;
    ChunkWriter w;
    char err[256];
    if (!chunk_writer_open(&w, sh->plan, c, err, sizeof err)) {
        fprintf(stderr, "datagen: %s\n", err);
        return false;
    }
    uint64_t first = dataplan_chunk_first(sh->plan, c);
    for (uint32_t i = w.written; i < w.games; i++) {
        uint64_t positions = 0;
        if (sh->failed || !play_one(cfg, e, first + i, tg, &positions)) {
            chunk_writer_close(&w);
            return false;
        }
        size_t n = train_game_encode(tg, record);
        if (!chunk_writer_append(&w, record, n, err, sizeof err)) {
            fprintf(stderr, "datagen: %s\n", err);
            chunk_writer_close(&w);
            return false;
        }
        pthread_mutex_lock(&sh->lock);
        sh->games_done++;
        sh->positions += positions;
        sh->bytes += n;
        if (sh->progress)
            report(sh, false);
        pthread_mutex_unlock(&sh->lock);
    }
    if (!chunk_writer_finish(&w, err, sizeof err)) {
        fprintf(stderr, "datagen: %s\n", err);
        return false;
    }
    pthread_mutex_lock(&sh->lock);
    sh->files++;
    record_run(sh);
    if (!sh->progress)
        report(sh, false);
    pthread_mutex_unlock(&sh->lock);
    return true;
}

static void *worker(void *arg)
{
    Shared *sh = arg;
    const Config *cfg = sh->cfg;
    Engine *e = engine_new();
    uint8_t *record = malloc(TRAIN_RECORD_MAX);
    TrainGame *tg = malloc(sizeof *tg);
    char err[256];
    if (!e || !record || !tg) {
        fprintf(stderr, "datagen: out of memory\n");
        sh->failed = true;
        goto done;
    }
    engine_set_option_id(e, OPT_THREADS, "1", OPT_SOURCE_GUI, err, sizeof err);
    char hash[16];
    snprintf(hash, sizeof hash, "%d", cfg->hash_mb);
    if (!engine_set_option_id(e, OPT_HASH, hash, OPT_SOURCE_GUI, err, sizeof err)) {
        fprintf(stderr, "datagen: -hash: %s\n", err);
        sh->failed = true;
        goto done;
    }
    engine_set_option_id(e, OPT_OWN_BOOK, "false", OPT_SOURCE_GUI, err, sizeof err);
    engine_set_option_id(e, OPT_LEARNING, "false", OPT_SOURCE_GUI, err, sizeof err);
    /* Without -net the hand-written evaluation, whatever the build's default. */
    if (!cfg->net)
        engine_set_option_id(e, OPT_USE_NNUE, "false", OPT_SOURCE_GUI, err, sizeof err);
    if (cfg->net && ((strcmp(cfg->net, "builtin")
                      && !engine_set_option_id(e, OPT_EVAL_FILE, cfg->net, OPT_SOURCE_GUI, err, sizeof err))
                     || !engine_set_option_id(e, OPT_USE_NNUE, "true", OPT_SOURCE_GUI, err, sizeof err)
                     || !engine_net(e) || engine_net(e)->id != cfg->eval_id)) {
        fprintf(stderr, "datagen: %s\n", err[0] ? err : "no net");
        sh->failed = true;
        goto done;
    }
    for (;;) {
        uint64_t c = atomic_fetch_add(&sh->next_chunk, 1);
        if (c >= sh->plan->chunks || sh->failed)
            break;
        if (sh->plan->done[c] == dataplan_chunk_games(sh->plan, c))
            continue;
        if (!play_chunk(sh, e, tg, record, c)) {
            sh->failed = true;
            break;
        }
    }
done:
    free(tg);
    free(record);
    if (e)
        engine_free(e);
    return NULL;
}

static const char USAGE[] =
    "usage: datagen [-o DIR] [-games N] [-nodes N] [-c N] [-book FILE] [-net FILE|builtin] [-random N] [-chunk N] "
    "[-hash MB] [--seed N]\n";

/* The folder the run writes: -o as given, else the generation's folder under the data
 * root, made with its parents. */
static bool output_folder(Config *cfg, char *buf, size_t size, char *err, size_t err_size)
{
    if (!cfg->dir) {
        char gen[64];
        if (!datafolder_root(buf, size, err, err_size))
            return false;
        datafolder_generation(cfg->eval_id, cfg->nodes, gen, sizeof gen);
        size_t len = strlen(buf);
        if (len + 1 + strlen(gen) >= size) {
            snprintf(err, err_size, "the data folder's name is too long");
            return false;
        }
        snprintf(buf + len, size - len, "/%s", gen);
        cfg->dir = buf;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s", cfg->dir);
    for (char *p = path + 1; *p; p++) {   /* mkdir -p */
        if (*p != '/')
            continue;
        *p = '\0';
        mkdir(path, 0777);
        *p = '/';
    }
    struct stat st;
    if ((mkdir(path, 0777) != 0 && errno != EEXIST) || stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "cannot create the folder %s", cfg->dir);
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    Config cfg = { NULL, NULL, NULL, 1000, 5000, 1, 2, 8, 250, DATAGEN_HASH_MB, NULL, 0 };
    const ArgSpec specs[] = {
        { "-o", ARG_TEXT, &cfg.dir, 0, 0 },          { "-book", ARG_TEXT, &cfg.book_path, 0, 0 },
        { "-net", ARG_TEXT, &cfg.net, 0, 0 },        { "-games", ARG_U64, &cfg.games, 1, 1e9 },
        { "-nodes", ARG_U64, &cfg.nodes, 1, 1e8 },   { "-c", ARG_INT, &cfg.threads, 1, 256 },
        { "-random", ARG_INT, &cfg.random_plies, 0, 30 }, { "-chunk", ARG_INT, &cfg.chunk, 1, 100000 },
        { "-hash", ARG_INT, &cfg.hash_mb, TT_MIN_MB, TT_MAX_MB },
        { "--seed", ARG_U64, &cfg.seed, 0, 0 },
    };
    char err[256];
    if (!args_parse_all(argc, argv, specs, ARGS_COUNT(specs), err, sizeof err)) {
        fprintf(stderr, "datagen: %s\n%s", err, USAGE);
        return 2;
    }
    if (cfg.dir && !cfg.dir[0]) {
        fprintf(stderr, "datagen: -o: an empty folder name\n%s", USAGE);
        return 2;
    }
    position_init();
    search_init();
    eval_init();
    if (cfg.net) {
        /* EvalFile takes a relative name as beside the executable: pass a full path. The
         * net's id goes into every file header and names the generation's folder. */
        bool builtin = !strcmp(cfg.net, "builtin");
        char *full = builtin || cfg.net[0] == '/' ? NULL : realpath(cfg.net, NULL);
        if (full)
            cfg.net = full;
        Network *net = builtin ? network_default(err, sizeof err) : network_load(cfg.net, err, sizeof err);
        if (!net) {
            fprintf(stderr, "datagen: %s\n", err);
            return 1;
        }
        cfg.eval_id = net->id;
        network_free(net);
    }
    char folder[4096];
    if (!output_folder(&cfg, folder, sizeof folder, err, sizeof err)) {
        fprintf(stderr, "datagen: %s\n", err);
        return cfg.dir ? 1 : 2;
    }
    if (cfg.book_path && !(cfg.book = book_open(cfg.book_path, err, sizeof err))) {
        fprintf(stderr, "datagen: %s\n", err);
        return 1;
    }
    /* One run a folder: two would write the same files. The lock lasts as long as the
     * process, and dies with it. */
    if (datafolder_lock(cfg.dir, err, sizeof err) < 0) {
        fprintf(stderr, "datagen: %s\n", err);
        return 1;
    }
    DataRunSpec spec = { cfg.dir, cfg.seed, cfg.games, (uint32_t)cfg.chunk, (uint32_t)cfg.nodes, cfg.eval_id };
    DataPlan plan;
    if (!dataplan_make(&plan, &spec, err, sizeof err)) {
        fprintf(stderr, "datagen: %s\n", err);
        return 1;
    }
    Shared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = &cfg;
    sh.plan = &plan;
    sh.games_todo = cfg.games - plan.games_done;
    pthread_mutex_init(&sh.lock, NULL);
    sh.progress = isatty(STDERR_FILENO);
    sh.start_ms = time_now_ms();
    sh.started = time(NULL);
    fprintf(stderr, "datagen: seed %llu, games 0..%llu, %llu to play, %llu nodes a move, %d threads, into %s\n",
            (unsigned long long)cfg.seed, (unsigned long long)cfg.games - 1, (unsigned long long)sh.games_todo,
            (unsigned long long)cfg.nodes, cfg.threads, cfg.dir);
    if (plan.whole_files || plan.resumed_files)
        fprintf(stderr, "datagen: kept %llu whole files; resuming %llu files cut short after their last whole game\n",
                (unsigned long long)plan.whole_files, (unsigned long long)plan.resumed_files);
    fork_join(worker, &sh, 0, cfg.threads);
    report(&sh, true);
    dataplan_free(&plan);
    if (cfg.book)
        book_close(cfg.book);
    return sh.failed ? 1 : 0;
}
