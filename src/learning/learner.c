/* Learning from games: see learner.h. */
#include "learning/learner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board/gameend.h"
#include "board/movegen.h"
#include "board/notation.h"
#include "formats/movecode.h"
#include "formats/movecode_game.h"
#include "learning/learnmerge.h"
#include "util/rcfile.h"
#include "util/platform.h"

struct Learner {
    bool enabled;
    int threshold;
    bool have_file;
    LearnFile file;

    /* The game record. */
    bool startpos;
    char fen[128];
    Move *moves;           /* LEARN_GAME_PLIES_MAX of them */
    int count;
    int extra;             /* plies played beyond LEARN_GAME_PLIES_MAX */
    uint8_t own_mask;      /* 1 << colour for each side the engine searched for */
    int last_scores[2];    /* the engine's last two own scores, [0] the latest */
    int score_count;

    /* Position learning. */
    bool expect_valid;     /* the previous own search's score, at ply expect_ply */
    int expect_ply, expect_score;
    bool own_search;
    Key root_key;
    bool iter_valid;       /* the last complete iteration (search thread) */
    int iter_depth, iter_score;
    Move iter_best, iter_reply;
    uint8_t pending[2 * LEARN_POSITION_SIZE];
    size_t pending_len;

    BookLearn book;        /* this game's own book moves, and what the file knows */
    bool use_results;      /* result learning (resultlearn.h) */
    ResultLearn results;
    ResultAdvice advice;   /* its say on the position of the last go */

    Position *search_scratch; /* used on the search thread */
    Position *scratch;        /* used on the protocol thread */
};

Learner *learner_new(void)
{
    Learner *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->moves = malloc(LEARN_GAME_PLIES_MAX * sizeof *l->moves);
    l->search_scratch = malloc(sizeof *l->search_scratch);
    l->scratch = malloc(sizeof *l->scratch);
    if (!l->moves || !l->search_scratch || !l->scratch) {
        learner_free(l);
        return NULL;
    }
    l->threshold = LEARN_DEFAULT_THRESHOLD;
    l->startpos = true;
    return l;
}

void learner_free(Learner *l)
{
    if (!l)
        return;
    free(l->moves);
    booklearn_free(&l->book);
    resultlearn_free(&l->results);
    free(l->search_scratch);
    free(l->scratch);
    free(l);
}

/* mkdir -p for the user's data folder (0755); true when it exists afterwards. */
static bool make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            pf_mkdir(path);
            *p = '/';
        }
    pf_mkdir(path);
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool learner_resolve_path(const char *name, char *out, size_t out_size)
{
    if (!name[0] || pf_path_is_absolute(name)) {
        snprintf(out, out_size, "%s", name);
        return true;
    }
    char dir[900];
    if (!executable_dir(dir, sizeof dir))
        return false;
    snprintf(out, out_size, "%s/%s", dir, name);
    if (access(dir, W_OK) == 0 || access(out, W_OK) == 0)
        return true;
    char data[900];
    if (!pf_user_data_dir(data, sizeof data - 10))
        return true; /* nowhere better: writing will warn once */
    strcat(data, "/saavedra");
    if (make_dirs(data))
        snprintf(out, out_size, "%s/%s", data, name);
    return true;
}

void learner_configure(Learner *l, bool enabled, const char *path, int threshold)
{
    l->enabled = enabled;
    l->threshold = threshold;
    if (!l->have_file || strcmp(path, l->file.path) != 0) {
        l->have_file = path[0] != '\0';
        learnfile_init(&l->file, path);
    }
}

void learner_set_results(Learner *l, bool on)
{
    l->use_results = on;
}

bool learner_enabled(const Learner *l)
{
    return l->enabled && l->have_file;
}

static int total_plies(const Learner *l)
{
    return l->count + l->extra;
}

static void forget_game(Learner *l)
{
    l->book.played_count = 0;
    l->count = l->extra = 0;
    l->own_mask = 0;
    l->score_count = 0;
    l->expect_valid = false;
}

void learner_new_game(Learner *l)
{
    forget_game(l);
    l->startpos = true;
    l->fen[0] = '\0';
}

static bool start_position(const Learner *l, Position *pos)
{
    char err[160];
    return position_from_fen(pos, l->startpos ? START_FEN : l->fen, err, sizeof err, NULL);
}

void learner_set_game(Learner *l, const char *fen, const Move *moves, int count, char *msg,
                      size_t msg_size)
{
    msg[0] = '\0';
    bool startpos = true;
    char canon[128] = "";
    if (fen) {
        char err[160];
        if (!position_from_fen(l->scratch, fen, err, sizeof err, NULL))
            return;
        position_to_fen(l->scratch, canon);
        char start[128];
        position_from_fen(l->scratch, START_FEN, err, sizeof err, NULL);
        position_to_fen(l->scratch, start);
        startpos = strcmp(canon, start) == 0;
    }
    bool same =
        startpos == l->startpos && (startpos || strcmp(canon, l->fen) == 0) && l->extra == 0;
    int common = count < l->count ? count : l->count;
    for (int i = 0; same && i < common; i++)
        same = moves[i] == l->moves[i];
    if (!same) {
        learner_game_over(l, -1, msg, msg_size);
        learner_new_game(l);
        l->startpos = startpos;
        snprintf(l->fen, sizeof l->fen, "%s", startpos ? "" : canon);
    }
    l->count = count < LEARN_GAME_PLIES_MAX ? count : LEARN_GAME_PLIES_MAX;
    l->extra = count - l->count;
    if (l->count)
        memcpy(l->moves, moves, (size_t)l->count * sizeof *moves);
}

void learner_push(Learner *l, Move m)
{
    if (l->count < LEARN_GAME_PLIES_MAX && l->extra == 0)
        l->moves[l->count++] = m;
    else
        l->extra++;
}

void learner_pop(Learner *l)
{
    if (l->extra)
        l->extra--;
    else if (l->count)
        l->count--;
}

void learner_search_start(Learner *l, const Position *pos, bool own)
{
    l->own_search = own && learner_enabled(l);
    l->iter_valid = false;
    l->root_key = pos_key(pos);
    if (l->own_search)
        l->own_mask |= (uint8_t)(1 << pos->side);
}

void learner_on_iteration(Learner *l, const SearchReport *r)
{
    if (!l->own_search || r->multipv != 1 || r->bound != BOUND_EXACT || r->pv_length < 1)
        return;
    l->iter_valid = true;
    l->iter_depth = r->depth;
    l->iter_score = r->score;
    l->iter_best = r->pv[0];
    l->iter_reply = r->pv_length > 1 ? r->pv[1] : MOVE_NONE;
}

/* The score of the position after the best move, for its side to move: mates and
 * tablebase wins are one ply nearer. */
static int child_score(int s)
{
    if (s >= VALUE_TB_WIN_IN_MAX_PLY)
        return -(s + 1);
    if (s <= -VALUE_TB_WIN_IN_MAX_PLY)
        return -(s - 1);
    return -s;
}

static void learn_position(Learner *l, const Position *pos)
{
    int code = movecode_encode_checked(pos, l->iter_best);
    if (code == MOVECODE_ERROR)
        return;
    LearnPosition root = { pos_key(pos), (uint8_t)code, true, (int16_t)l->iter_score,
                           (uint8_t)l->iter_depth };
    l->pending_len = learn_encode_position(&root, l->pending, sizeof l->pending);
    /* The position after the best move as well: a search of the root then finds the
     * learned move at once, since its reply is known. */
    Position *child = l->search_scratch;
    *child = *pos;
    make_move(child, l->iter_best);
    int reply =
        l->iter_reply != MOVE_NONE ? movecode_encode_checked(child, l->iter_reply) : MOVECODE_ERROR;
    LearnPosition next = { pos_key(child), (uint8_t)(reply == MOVECODE_ERROR ? 0 : reply),
                           reply != MOVECODE_ERROR, (int16_t)child_score(l->iter_score),
                           (uint8_t)(l->iter_depth - 1) };
    l->pending_len += learn_encode_position(&next, l->pending + l->pending_len,
                                            sizeof l->pending - l->pending_len);
}

void learner_search_done(Learner *l, const Position *pos, const SearchResult *r)
{
    if (!l->own_search || r->best == MOVE_NONE || pos_key(pos) != l->root_key)
        return;
    l->last_scores[1] = l->last_scores[0];
    l->last_scores[0] = r->score;
    l->score_count++;
    int ply = total_plies(l);
    if (l->expect_valid && l->expect_ply + 2 == ply && l->iter_valid
        && l->iter_depth >= LEARN_MIN_DEPTH && abs(l->iter_score - l->expect_score) > l->threshold)
        learn_position(l, pos);
    l->expect_valid = true;
    l->expect_ply = ply;
    l->expect_score = r->score;
}

void learner_flush(Learner *l, char *msg, size_t msg_size)
{
    msg[0] = '\0';
    if (l->pending_len && learner_enabled(l))
        learnfile_append(&l->file, l->pending, l->pending_len, false, msg, msg_size);
    l->pending_len = 0;
}

/* The final position of the record, with enough history for repetitions. */
static bool replay(const Learner *l, Position *pos)
{
    if (!start_position(l, pos))
        return false;
    for (int i = 0; i < l->count; i++) {
        if (!move_is_legal(pos, l->moves[i]))
            return false;
        make_move(pos, l->moves[i]);
        position_bound_history(pos, 16);
    }
    return true;
}

int learner_infer_result(const Learner *l)
{
    if (l->extra == 0 && replay(l, l->scratch)) {
        switch (game_end_status(l->scratch)) {
        case GAME_WHITE_MATES: return LEARN_RESULT_WHITE;
        case GAME_BLACK_MATES: return LEARN_RESULT_BLACK;
        case GAME_ONGOING: break;
        default: return LEARN_RESULT_DRAW;
        }
    }
    if ((l->own_mask != 1 && l->own_mask != 2) || l->score_count < 2)
        return LEARN_RESULT_UNKNOWN;
    Color own = l->own_mask == 1 ? WHITE : BLACK;
    int won = own == WHITE ? LEARN_RESULT_WHITE : LEARN_RESULT_BLACK;
    int lost = own == WHITE ? LEARN_RESULT_BLACK : LEARN_RESULT_WHITE;
    if (l->last_scores[0] >= LEARN_DECISIVE_CP && l->last_scores[1] >= LEARN_DECISIVE_CP)
        return won;
    if (l->last_scores[0] <= -LEARN_DECISIVE_CP && l->last_scores[1] <= -LEARN_DECISIVE_CP)
        return lost;
    return LEARN_RESULT_UNKNOWN;
}

void learner_game_over(Learner *l, int result, char *msg, size_t msg_size)
{
    msg[0] = '\0';
    if (!learner_enabled(l) || l->own_mask == 0 || total_plies(l) == 0) {
        l->own_mask = 0;
        return;
    }
    if (result < 0)
        result = learner_infer_result(l);
    uint8_t *codes = malloc((size_t)l->count + 1);
    uint8_t *rec = malloc(LEARN_RECORD_MAX);
    if (codes && rec && start_position(l, l->scratch)) {
        int n = movecode_encode_game(l->scratch, l->moves, l->count, codes);
        LearnGame g;
        memset(&g, 0, sizeof g);
        g.result = (uint8_t)result;
        g.own_side = l->own_mask == 1 ? LEARN_SIDE_WHITE
                   : l->own_mask == 2 ? LEARN_SIDE_BLACK
                                      : LEARN_SIDE_NONE;
        g.flags = (uint8_t)((l->startpos ? LEARN_GAME_STARTPOS : 0)
                            | (n < total_plies(l) ? LEARN_GAME_CUT : 0));
        snprintf(g.fen, sizeof g.fen, "%.100s", l->startpos ? "" : l->fen);
        g.ply_count = n;
        g.codes = codes;
        size_t len = learn_encode_game(&g, rec, LEARN_RECORD_MAX);
        if (len)
            len += booklearn_results(&l->book, l->moves, l->count, result, rec + len,
                                     LEARN_RECORD_MAX - len);
        if (len && learnfile_append(&l->file, rec, len, true, msg, msg_size)
            && learnfile_size(&l->file) > LEARN_COMPACT_BYTES) {
            LearnLimits lim = { LEARN_MAX_POSITIONS, LEARN_MAX_GAMES, LEARN_MAX_BOOK };
            learnfile_compact(&l->file, &lim, NULL, msg, msg_size);
        }
    }
    free(codes);
    free(rec);
    l->own_mask = 0;
    l->score_count = 0;
    l->expect_valid = false;
}

/* The file's records as learner_load_into gathers them: positions and book results
 * (learnmerge.h, first member), and the games into the result table when it is used. */
typedef struct {
    LearnCollection rec;
    ResultLearn *results;
} LoadContext;

static void collect_game(void *ctx, const LearnGame *g)
{
    LoadContext *c = ctx;
    if (c->results)
        resultlearn_add_game(c->results, g);
}

int learner_load_into(Learner *l, TranspositionTable *tt, char *msg, size_t msg_size)
{
    msg[0] = '\0';
    if (!learner_enabled(l))
        return 0;
    /* What does not fit in memory is left out. */
    LoadContext ctx = { { 0 }, l->use_results ? &l->results : NULL };
    LearnVisitor v = { learn_collect_position, collect_game, learn_collect_book, &ctx };
    resultlearn_clear(&l->results);
    learnfile_load(&l->file, &v, NULL, msg, msg_size);
    resultlearn_finish(&l->results);
    LearnCollection rec = ctx.rec;
    booklearn_set_stats(&l->book, rec.book, learn_merge_books(rec.book, rec.book_count,
                                                             LEARN_MAX_BOOK));
    rec.book = NULL; /* booklearn owns it now */
    int n = learn_merge_positions(rec.pos, rec.pos_count, LEARN_MAX_POSITIONS);
    for (int i = 0; i < n; i++)
        tt_store_learned(tt, rec.pos[i].key, rec.pos[i].has_move ? rec.pos[i].code : -1,
                         rec.pos[i].score, rec.pos[i].depth);
    learn_collection_free(&rec);
    return n;
}

void learner_book_played(Learner *l, const Position *pos, Move m)
{
    if (!learner_enabled(l))
        return;
    l->own_mask |= (uint8_t)(1 << pos->side);
    booklearn_played(&l->book, pos, m, total_plies(l));
}

LearnGo learner_result_go(Learner *l, const Position *pos, bool game_move, bool may_replay,
                          const SearchLimits *limits, SearchLimits *learned_limits, Move *replay,
                          char *detail, size_t detail_size, const SearchReporter *rep)
{
    ResultAdvice *adv = &l->advice;
    if (!game_move || limits->infinite || limits->ponder || limits->mate
        || limits->searchmoves_count || !learner_enabled(l) || !l->use_results
        || !resultlearn_advise(&l->results, pos, adv))
        return LEARN_GO_SEARCH;
    char mv[8];
    if (adv->replay != MOVE_NONE && may_replay) {
        const LearnBookStat *s = &adv->replay_stat;
        snprintf(detail, detail_size, "from the learning file: won %u, drew %u, lost %u games here",
                 s->wins, s->draws, s->losses);
        *replay = adv->replay;
        l->own_mask |= (uint8_t)(1 << pos->side); /* an own move, played without a search */
        return LEARN_GO_REPLAY;
    }
    if (adv->lost_count == 0)
        return LEARN_GO_SEARCH;
    *learned_limits = *limits;
    learned_limits->penalty_cp = LEARN_RESULT_PENALTY;
    learned_limits->penalized_count = adv->lost_count;
    for (int k = 0; k < adv->lost_count; k++) {
        learned_limits->penalized[k] = adv->lost[k];
        if (!rep || !rep->on_info)
            continue;
        const LearnBookStat *s = &adv->lost_stat[k];
        char line[200];
        snprintf(line, sizeof line,
                 "learned: %s counts %d cp less (won %u, drew %u, lost %u games here)",
                 move_to_uci_game(pos, adv->lost[k], mv), LEARN_RESULT_PENALTY, s->wins, s->draws,
                 s->losses);
        rep->on_info(rep->ctx, line);
    }
    return LEARN_GO_PENALIZED;
}

bool learner_book_stat(const Learner *l, Key key, int code, LearnBookStat *out)
{
    return booklearn_stat(&l->book, key, code, out);
}

void learner_book_adjust(const Learner *l, const Position *pos, BookMove *moves, int n)
{
    if (learner_enabled(l))
        booklearn_adjust(&l->book, pos, moves, n);
}
