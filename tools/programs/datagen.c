/* datagen: training data for the neural evaluation. Saavedra plays itself at a fixed node
 * count from varied openings and stores every game in the training-data format
 * (docs/training-data.md): the moves as one-byte codes, a 16-bit score for every training
 * position, the result.
 *
 *   datagen [-o DIR] [-games N] [-nodes N] [-c THREADS] [-book FILE] [-random N]
 *           [-chunk N] [-net FILE|builtin] [--seed N]
 *     -o DIR      where the files go (default: $SAAVEDRA_DATA)
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
 *     --seed N    (default 1)
 *
 * Game g of seed S depends on S and g alone, so the data are reproducible and a run can
 * be resumed or extended: games are written in files of -chunk games named
 * sS-FIRST.svt, each written whole (temporary name, then rename), and the files that
 * already exist are skipped. Positions in check, positions whose best move is a capture
 * or promotion, and mate or tablebase scores are not training positions (stored as
 * TRAIN_NO_SCORE). An opening whose first search scores beyond 4 pawns is replaced by
 * another. */
#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board/movegen.h"
#include "engine/engine.h"
#include "toolkit/selfgame.h"
#include "formats/movecode_game.h"
#include "formats/traindata.h"
#include "opening/book.h"
#include "search/transposition.h"
#include "util/args.h"
#include "util/fork_join.h"
#include "util/outfile.h"
#include "util/random.h"
#include "util/timeutil.h"

#define OPENING_MAX 40
#define BOOK_LINE_MAX 24
#define MAX_OPENING_SCORE 400

typedef struct {
    const char *dir, *book_path, *net;
    uint64_t games, nodes, seed;
    int threads, random_plies, chunk;
    Book *book;
    uint32_t eval_id;   /* 0: the hand-written evaluation, else the net's id */
} Config;

typedef struct {
    const Config *cfg;
    uint64_t chunks;
    atomic_uint_fast64_t next_chunk;
    pthread_mutex_t lock;
    uint64_t games_done, games_todo, positions, bytes;
    int64_t start_ms;
    bool progress;
    atomic_bool failed;
} Shared;

static void chunk_path(const Config *cfg, uint64_t first, char *out, size_t size)
{
    snprintf(out, size, "%s/s%llu-%09llu.svt", cfg->dir, (unsigned long long)cfg->seed,
             (unsigned long long)first);
}

/* Whether the chunk's file exists with a readable header; a header that disagrees with
 * this run's settings is reported and the file left alone. */
static bool chunk_exists(const Config *cfg, uint64_t first, uint32_t games)
{
    char path[4096];
    chunk_path(cfg, first, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    uint8_t buf[TRAIN_HEADER_SIZE];
    TrainHeader h;
    char err[160];
    bool ok = fread(buf, 1, sizeof buf, f) == sizeof buf && train_header_decode(buf, &h, err, sizeof err);
    fclose(f);
    if (ok && (h.nodes != cfg->nodes || h.seed != cfg->seed || h.first_game != first || h.games != games))
        fprintf(stderr, "datagen: %s was made with other settings (%u nodes, %u games); left as it is\n", path,
                h.nodes, h.games);
    return ok;
}

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

static bool write_chunk(const Config *cfg, uint64_t first, uint32_t games, const uint8_t *data, size_t size)
{
    char path[4096], err[256];
    chunk_path(cfg, first, path, sizeof path);
    OutFile of;
    FILE *f = outfile_open(&of, path, err, sizeof err);
    if (!f) {
        fprintf(stderr, "datagen: %s\n", err);
        return false;
    }
    TrainHeader h = { (uint32_t)cfg->nodes, cfg->seed, first, games, cfg->eval_id };
    uint8_t head[TRAIN_HEADER_SIZE];
    train_header_encode(&h, head);
    if (fwrite(head, 1, sizeof head, f) != sizeof head || fwrite(data, 1, size, f) != size) {
        outfile_abort(&of);
        fprintf(stderr, "datagen: cannot write %s\n", path);
        return false;
    }
    if (!outfile_commit(&of, err, sizeof err)) {
        fprintf(stderr, "datagen: %s\n", err);
        return false;
    }
    return true;
}

static void *worker(void *arg)
{
    Shared *sh = arg;
    const Config *cfg = sh->cfg;
    Engine *e = engine_new();
    uint8_t *data = malloc((size_t)cfg->chunk * TRAIN_RECORD_MAX);
    TrainGame *tg = malloc(sizeof *tg);
    char err[256];
    if (!e || !data || !tg) {
        fprintf(stderr, "datagen: out of memory\n");
        sh->failed = true;
        goto done;
    }
    engine_set_option_id(e, OPT_THREADS, "1", OPT_SOURCE_GUI, err, sizeof err);
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
        if (c >= sh->chunks || sh->failed)
            break;
        uint64_t first = c * (uint64_t)cfg->chunk;
        uint32_t games = (uint32_t)(cfg->games - first < (uint64_t)cfg->chunk ? cfg->games - first : (uint64_t)cfg->chunk);
        if (chunk_exists(cfg, first, games))
            continue;
        size_t size = 0;
        for (uint32_t i = 0; i < games; i++) {
            uint64_t positions = 0;
            if (!play_one(cfg, e, first + i, tg, &positions)) {
                sh->failed = true;
                break;
            }
            size_t n = train_game_encode(tg, data + size);
            size += n;
            pthread_mutex_lock(&sh->lock);
            sh->games_done++;
            sh->positions += positions;
            sh->bytes += n;
            if (sh->progress)
                report(sh, false);
            pthread_mutex_unlock(&sh->lock);
        }
        if (sh->failed || !write_chunk(cfg, first, games, data, size)) {
            sh->failed = true;
            break;
        }
        if (!sh->progress) {
            pthread_mutex_lock(&sh->lock);
            report(sh, false);
            pthread_mutex_unlock(&sh->lock);
        }
    }
done:
    free(tg);
    free(data);
    if (e)
        engine_free(e);
    return NULL;
}

static const char USAGE[] =
    "usage: datagen [-o DIR] [-games N] [-nodes N] [-c N] [-book FILE] [-net FILE|builtin] [-random N] [-chunk N] "
    "[--seed N]\n";

int main(int argc, char **argv)
{
    Config cfg = { getenv("SAAVEDRA_DATA"), NULL, NULL, 1000, 5000, 1, 2, 8, 250, NULL, 0 };
    const ArgSpec specs[] = {
        { "-o", ARG_TEXT, &cfg.dir, 0, 0 },          { "-book", ARG_TEXT, &cfg.book_path, 0, 0 },
        { "-net", ARG_TEXT, &cfg.net, 0, 0 },        { "-games", ARG_U64, &cfg.games, 1, 1e9 },
        { "-nodes", ARG_U64, &cfg.nodes, 1, 1e8 },   { "-c", ARG_INT, &cfg.threads, 1, 256 },
        { "-random", ARG_INT, &cfg.random_plies, 0, 30 }, { "-chunk", ARG_INT, &cfg.chunk, 1, 100000 },
        { "--seed", ARG_U64, &cfg.seed, 0, 0 },
    };
    char err[256];
    if (!args_parse_all(argc, argv, specs, ARGS_COUNT(specs), err, sizeof err)) {
        fprintf(stderr, "datagen: %s\n%s", err, USAGE);
        return 2;
    }
    if (!cfg.dir || !cfg.dir[0]) {
        fprintf(stderr, "datagen: no output folder: give -o DIR or set SAAVEDRA_DATA\n");
        return 2;
    }
    struct stat st;
    if (stat(cfg.dir, &st) != 0 && mkdir(cfg.dir, 0777) != 0) {
        fprintf(stderr, "datagen: cannot create %s\n", cfg.dir);
        return 1;
    }
    position_init();
    search_init();
    eval_init();
    if (cfg.book_path && !(cfg.book = book_open(cfg.book_path, err, sizeof err))) {
        fprintf(stderr, "datagen: %s\n", err);
        return 1;
    }
    if (cfg.net) {
        /* EvalFile takes a relative name as beside the executable: pass a full path. The
         * net's id goes into every file header. */
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
    Shared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = &cfg;
    sh.chunks = (cfg.games + (uint64_t)cfg.chunk - 1) / (uint64_t)cfg.chunk;
    for (uint64_t c = 0; c < sh.chunks; c++) {
        uint64_t first = c * (uint64_t)cfg.chunk;
        uint64_t n = cfg.games - first < (uint64_t)cfg.chunk ? cfg.games - first : (uint64_t)cfg.chunk;
        char path[4096];
        chunk_path(&cfg, first, path, sizeof path);
        if (access(path, F_OK) != 0)
            sh.games_todo += n;
    }
    pthread_mutex_init(&sh.lock, NULL);
    sh.progress = isatty(STDERR_FILENO);
    sh.start_ms = time_now_ms();
    fprintf(stderr, "datagen: seed %llu, games 0..%llu, %llu to play, %llu nodes a move, %d threads, into %s\n",
            (unsigned long long)cfg.seed, (unsigned long long)cfg.games - 1, (unsigned long long)sh.games_todo,
            (unsigned long long)cfg.nodes, cfg.threads, cfg.dir);
    fork_join(worker, &sh, 0, cfg.threads);
    report(&sh, true);
    if (cfg.book)
        book_close(cfg.book);
    return sh.failed ? 1 : 0;
}
