/* selfplay: Saavedra plays itself at a fixed node count from varied openings, on
 * several threads (one engine each), and writes the games as PGN: training games for
 * the tuner (docs/tuning.md, tools/recipes/tune-data.sh).
 *
 *   selfplay -o FILE.pgn [-games N] [-nodes N] [-c THREADS] [-openings FILE.epd]
 *            [-random N] [--seed N]
 *     -games N     games to play (default 100)
 *     -nodes N     nodes per move (default 5000)
 *     -c N         threads, each playing its own games (default 2)
 *     -openings F  start positions, one FEN/EPD per line (default: the start position);
 *                  game i starts from a line picked at random by the seed
 *     -random N    then play N random legal plies (default 0), for more variety
 *     --seed N     (default 1)
 *
 * Each game is deterministic (one search thread, a fresh hash table, a node limit), and
 * games are written in their order, so the same arguments give the same file. Games end
 * by the rules (mate, stalemate, threefold repetition, fifty moves, insufficient
 * material), by adjudication when both sides have agreed on a score of 10 pawns or more
 * for 8 plies (a win) or within 0.05 for 40 plies after ply 160 (a draw), or as a draw at
 * ply 600. The written PGN carries the reason in a comment. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/gameend.h"
#include "board/movegen.h"
#include "board/notation.h"
#include "engine/engine.h"
#include "toolkit/selfgame.h"
#include "util/args.h"
#include "util/fork_join.h"
#include "util/outfile.h"
#include "util/random.h"
#include "util/timeutil.h"

typedef struct {
    int games, threads, random_plies;
    uint64_t nodes, seed;
    const char *out_path, *openings_path;
    char **openings;
    int opening_count;
} Config;

typedef struct {
    char *pgn;          /* the finished game, NULL while not played */
    int result;         /* 1 White won, 0 draw, -1 Black won */
    int plies;
} GameSlot;

typedef struct {
    const Config *cfg;
    GameSlot *slots;
    atomic_int next_game;
    pthread_mutex_t lock;
    int written, white_wins, draws, black_wins;
    long plies;
    FILE *out;
    bool progress, failed;
    int64_t start_ms;
} Shared;

typedef struct {
    char *text;
    size_t length, capacity;
} Text;

static void text_add(Text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->length + n + 1 > t->capacity) {
        size_t cap = (t->length + n + 1) * 2;
        char *p = realloc(t->text, cap);
        if (!p) {
            fprintf(stderr, "selfplay: out of memory\n");
            exit(1);
        }
        t->text = p;
        t->capacity = cap;
    }
    memcpy(t->text + t->length, s, n + 1);
    t->length += n;
}

/* Plays game number g with engine e; fills the slot. */
static void play_game(const Config *cfg, Engine *e, int g, GameSlot *slot)
{
    uint64_t rng = splitmix64_at(cfg->seed * 1000003ULL + (uint64_t)g);
    const char *fen = cfg->opening_count ? cfg->openings[rng % (uint64_t)cfg->opening_count] : START_FEN;
    char err[256];
    engine_new_game(e);
    if (!engine_set_position(e, fen, NULL, 0, err, sizeof err)) {
        fprintf(stderr, "selfplay: opening \"%s\": %s\n", fen, err);
        fen = START_FEN;
        engine_set_position(e, fen, NULL, 0, err, sizeof err);
    }
    for (int i = 0; i < cfg->random_plies; i++) {
        MoveList list;
        generate_legal(engine_position(e), &list);
        if (list.count == 0)
            break;
        rng = splitmix64_at(rng);
        engine_make_move(e, list.moves[rng % (uint64_t)list.count]);
    }
    char start_fen[128];
    position_to_fen(engine_position(e), start_fen);
    static _Thread_local SelfGame game;
    SelfGameConfig sg = { cfg->nodes, 0 };
    if (!selfgame_play(e, &sg, start_fen, NULL, 0, &game, err, sizeof err)) {
        fprintf(stderr, "selfplay: game %d: %s\n", g + 1, err);
        game.plies = 0;
        game.result = 0;
        game.reason = "not played";
    }
    static _Thread_local Position start;
    position_from_fen(&start, start_fen, err, sizeof err, NULL);
    const Move *moves = game.moves;
    int plies = game.plies, result = game.result;
    const char *reason = game.reason;

    /* The PGN text. */
    Text t = { 0 };
    char line[512];
    const char *res = result > 0 ? "1-0" : result < 0 ? "0-1" : "1/2-1/2";
    snprintf(line, sizeof line,
             "[Event \"Saavedra self-play, %llu nodes\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"%d\"]\n"
             "[White \"Saavedra\"]\n[Black \"Saavedra\"]\n[Result \"%s\"]\n[SetUp \"1\"]\n[FEN \"%s\"]\n"
             "[PlyCount \"%d\"]\n\n",
             (unsigned long long)cfg->nodes, g + 1, res, start_fen, plies);
    text_add(&t, line);
    static _Thread_local Position pos;
    pos = start;
    int col = 0;
    for (int i = 0; i < plies; i++) {
        char san[16], item[48];
        move_to_san(&pos, moves[i], san);
        if (pos.side == WHITE || i == 0)
            snprintf(item, sizeof item, "%d%s %s", fullmove_number(&pos), pos.side == WHITE ? "." : "...", san);
        else
            snprintf(item, sizeof item, "%s", san);
        make_move(&pos, moves[i]);
        if (pos.st_index > MAX_STATES - 8)
            position_compact(&pos);
        int len = (int)strlen(item);
        if (col + len + 1 > 79) {
            text_add(&t, "\n");
            col = 0;
        } else if (col) {
            text_add(&t, " ");
            col++;
        }
        text_add(&t, item);
        col += len;
    }
    snprintf(line, sizeof line, "%s{%s} %s\n\n", col ? " " : "", reason, res);
    text_add(&t, line);
    slot->pgn = t.text;
    slot->result = result;
    slot->plies = plies;
}

/* Writes every finished game that continues the written prefix. Caller holds the lock. */
static void write_ready(Shared *sh)
{
    while (sh->written < sh->cfg->games && sh->slots[sh->written].pgn) {
        GameSlot *s = &sh->slots[sh->written++];
        if (fputs(s->pgn, sh->out) == EOF)
            sh->failed = true;
        sh->white_wins += s->result > 0;
        sh->draws += s->result == 0;
        sh->black_wins += s->result < 0;
        sh->plies += s->plies;
        free(s->pgn);
        s->pgn = (char *)1; /* written */
    }
    if (sh->progress) {
        double s = (time_now_ms() - sh->start_ms) / 1000.0;
        fprintf(stderr, "\rselfplay: %d/%d games (+%d =%d -%d), %.0f s, %.1f games/min   ", sh->written,
                sh->cfg->games, sh->white_wins, sh->draws, sh->black_wins, s, s > 0 ? sh->written * 60 / s : 0);
    }
}

static void *worker(void *arg)
{
    Shared *sh = arg;
    Engine *e = engine_new();
    if (!e) {
        fprintf(stderr, "selfplay: out of memory\n");
        pthread_mutex_lock(&sh->lock);
        sh->failed = true;
        pthread_mutex_unlock(&sh->lock);
        return NULL;
    }
    char err[256];
    engine_set_option_id(e, OPT_THREADS, "1", OPT_SOURCE_GUI, err, sizeof err);
    for (;;) {
        int g = atomic_fetch_add(&sh->next_game, 1);
        if (g >= sh->cfg->games)
            break;
        GameSlot slot = { 0 };
        play_game(sh->cfg, e, g, &slot);
        pthread_mutex_lock(&sh->lock);
        sh->slots[g] = slot;
        write_ready(sh);
        pthread_mutex_unlock(&sh->lock);
    }
    engine_free(e);
    return NULL;
}

static bool read_openings(Config *cfg)
{
    FILE *f = fopen(cfg->openings_path, "r");
    if (!f) {
        fprintf(stderr, "selfplay: cannot open %s\n", cfg->openings_path);
        return false;
    }
    char line[1024], err[160];
    static Position pos;
    int cap = 0;
    long line_no = 0;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[strspn(line, " \t")] || line[0] == '#')
            continue;
        const char *end;
        if (!position_from_fen(&pos, line, err, sizeof err, &end)) {
            fprintf(stderr, "selfplay: %s:%ld: %s, skipped\n", cfg->openings_path, line_no, err);
            continue;
        }
        char fen[128];
        position_to_fen(&pos, fen);
        if (cfg->opening_count == cap) {
            cap = cap ? 2 * cap : 1024;
            char **p = realloc(cfg->openings, sizeof *p * (size_t)cap);
            if (!p) {
                fclose(f);
                return false;
            }
            cfg->openings = p;
        }
        cfg->openings[cfg->opening_count++] = strdup(fen);
    }
    fclose(f);
    if (cfg->opening_count == 0) {
        fprintf(stderr, "selfplay: no opening positions in %s\n", cfg->openings_path);
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    Config cfg = { 100, 2, 0, 5000, 1, NULL, NULL, NULL, 0 };
    const ArgSpec specs[] = {
        { "-o", ARG_TEXT, &cfg.out_path, 0, 0 },       { "-openings", ARG_TEXT, &cfg.openings_path, 0, 0 },
        { "-games", ARG_INT, &cfg.games, 1, 1e7 },     { "-nodes", ARG_U64, &cfg.nodes, 1, 0 },
        { "-c", ARG_INT, &cfg.threads, 1, 256 },       { "-random", ARG_INT, &cfg.random_plies, 0, 40 },
        { "--seed", ARG_U64, &cfg.seed, 0, 0 },
    };
    char err[256];
    if (!args_parse_all(argc, argv, specs, ARGS_COUNT(specs), err, sizeof err)) {
        fprintf(stderr, "selfplay: %s\nusage: selfplay -o FILE.pgn [-games N] [-nodes N] [-c N] [-openings FILE] "
                        "[-random N] [--seed N]\n", err);
        return 2;
    }
    if (!cfg.out_path) {
        fprintf(stderr, "selfplay: -o FILE.pgn is required\n");
        return 2;
    }
    position_init();
    search_init();
    eval_init();
    if (cfg.openings_path && !read_openings(&cfg))
        return 1;
    Shared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = &cfg;
    sh.slots = calloc((size_t)cfg.games, sizeof *sh.slots);
    pthread_mutex_init(&sh.lock, NULL);
    OutFile of;
    sh.out = sh.slots ? outfile_open(&of, cfg.out_path, err, sizeof err) : NULL;
    if (!sh.out) {
        fprintf(stderr, "selfplay: %s\n", sh.slots ? err : "out of memory");
        return 1;
    }
    sh.progress = isatty(STDERR_FILENO);
    sh.start_ms = time_now_ms();
    fork_join(worker, &sh, 0, cfg.threads);
    double s = (time_now_ms() - sh.start_ms) / 1000.0;
    if (sh.progress)
        fprintf(stderr, "\n");
    fprintf(stderr, "selfplay: %d games (+%d =%d -%d), %ld plies, %.1f s with %d threads, %llu nodes per move\n",
            sh.written, sh.white_wins, sh.draws, sh.black_wins, sh.plies, s, cfg.threads,
            (unsigned long long)cfg.nodes);
    bool ok = !sh.failed && sh.written == cfg.games;
    if (ok && !outfile_commit(&of, err, sizeof err)) {
        fprintf(stderr, "selfplay: %s\n", err);
        ok = false;
    } else if (!ok) {
        outfile_abort(&of);
    }
    for (int i = 0; i < cfg.opening_count; i++)
        free(cfg.openings[i]);
    free(cfg.openings);
    free(sh.slots);
    return ok ? 0 : 1;
}
