/* `saavedra learn [FILE]`: the learning file in readable form (see learn_cmd.h). */
#include "learning/learn_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board/notation.h"
#include "formats/movecode.h"
#include "formats/movecode_game.h"
#include "learning/learnfile.h"
#include "learning/learnmerge.h"
#include "util/grow.h"
#include "util/rcfile.h"

/* What the file holds; games keep pointers into the file image. */
typedef struct {
    LearnCollection rec;  /* first: the visitor's ctx serves learn_collect_* as well */
    LearnGame *games;
    int game_count;
    size_t game_cap;
    /* Per learned position / book entry: a FEN where it was met in a game, "" if none. */
    char (*pos_fen)[100];
    char (*book_fen)[100];
} Contents;

/* A game that does not fit in memory is left out (as positions and book results are). */
static void on_game(void *ctx, const LearnGame *g)
{
    Contents *c = ctx;
    if (grow_array((void **)&c->games, &c->game_cap, (size_t)c->game_count + 1, sizeof *g))
        c->games[c->game_count++] = *g;
}

static int find_position(const Contents *c, Key key)
{
    int lo = 0, hi = c->rec.pos_count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c->rec.pos[mid].key == key)
            return mid;
        if (c->rec.pos[mid].key < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

static int find_book(const Contents *c, Key key)
{
    int lo = 0, hi = c->rec.book_count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (c->rec.book[mid].key < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return lo < c->rec.book_count && c->rec.book[lo].key == key ? lo : -1;
}

static bool game_start(const LearnGame *g, Position *pos)
{
    char err[160];
    return position_from_fen(pos, (g->flags & LEARN_GAME_STARTPOS) ? START_FEN : g->fen, err,
                             sizeof err, NULL);
}

/* Finds each learned position and book entry in the recorded games, for its FEN. */
static void locate(Contents *c, Position *pos)
{
    for (int i = 0; i < c->game_count; i++) {
        const LearnGame *g = &c->games[i];
        if (!game_start(g, pos))
            continue;
        for (int ply = 0; ply <= g->ply_count; ply++) {
            int k = find_position(c, pos_key(pos));
            if (k >= 0 && !c->pos_fen[k][0])
                position_to_fen(pos, c->pos_fen[k]);
            for (int b = find_book(c, pos_key(pos));
                 b >= 0 && b < c->rec.book_count && c->rec.book[b].key == pos_key(pos); b++)
                if (!c->book_fen[b][0])
                    position_to_fen(pos, c->book_fen[b]);
            if (ply == g->ply_count)
                break;
            Move m = movecode_decode(pos, g->codes[ply]);
            if (m == MOVE_NONE)
                break;
            make_move(pos, m);
            position_bound_history(pos, 16);
        }
    }
}

static void print_score(FILE *out, int score)
{
    if (score >= 32000 - 256)
        fprintf(out, "mate %d", (32000 - score + 1) / 2);
    else if (score <= -32000 + 256)
        fprintf(out, "mate -%d", (32000 + score) / 2);
    else
        fprintf(out, "cp %d", score);
}

/* The move a code names at a FEN, in SAN ("?" when it names none). */
static const char *san_at(Position *pos, const char *fen, int code, char *buf)
{
    char err[160];
    if (!position_from_fen(pos, fen, err, sizeof err, NULL))
        return "?";
    Move m = movecode_decode(pos, code);
    if (m == MOVE_NONE)
        return "?";
    return move_to_san(pos, m, buf);
}

static const char *const RESULTS[] = { "*", "1-0", "0-1", "1/2-1/2" };

static void print_game(FILE *out, const LearnGame *g, int number, Position *pos)
{
    fprintf(out, "[Event \"Saavedra learning file\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"
            "[Round \"%d\"]\n",
            number);
    fprintf(out, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n",
            g->own_side == LEARN_SIDE_WHITE ? "Saavedra" : "?",
            g->own_side == LEARN_SIDE_BLACK ? "Saavedra" : "?", RESULTS[g->result]);
    if (!(g->flags & LEARN_GAME_STARTPOS))
        fprintf(out, "[SetUp \"1\"]\n[FEN \"%s\"]\n", g->fen);
    fprintf(out, "[PlyCount \"%d\"]\n\n", g->ply_count);
    if (!game_start(g, pos)) {
        fprintf(out, "{bad start position} %s\n\n", RESULTS[g->result]);
        return;
    }
    /* Move by move (not line_to_san): a long game must not overflow the history. */
    int col = 0, ply = 0;
    for (; ply < g->ply_count; ply++) {
        Move m = movecode_decode(pos, g->codes[ply]);
        if (m == MOVE_NONE)
            break;
        char word[32], san[16];
        if (pos->side == WHITE)
            snprintf(word, sizeof word, "%d. %s", fullmove_number(pos), move_to_san(pos, m, san));
        else if (ply == 0)
            snprintf(word, sizeof word, "%d... %s", fullmove_number(pos), move_to_san(pos, m, san));
        else
            snprintf(word, sizeof word, "%s", move_to_san(pos, m, san));
        /* Wrapped at 79 columns, as PGN export format asks. */
        int len = (int)strlen(word);
        if (col && col + 1 + len > 79) {
            fputc('\n', out);
            col = 0;
        }
        fprintf(out, "%s%s", col ? " " : "", word);
        col += (col ? 1 : 0) + len;
        make_move(pos, m);
        position_bound_history(pos, 16);
    }
    if (ply < g->ply_count)
        fprintf(out, "%s{%d undecodable plies}", col ? " " : "", g->ply_count - ply);
    fprintf(out, "%s%s\n\n", col ? " " : "", RESULTS[g->result]);
}

int learn_print(const char *path, FILE *out, FILE *err)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        fprintf(err, "learn: %s: not a regular file\n", path);
        return 1;
    }
    FILE *f = fopen(path, "rb");
    size_t size = (size_t)st.st_size;
    uint8_t *data = f && size <= LEARN_FILE_MAX_BYTES ? malloc(size + 1) : NULL;
    if (!data || fread(data, 1, size, f) != size) {
        fprintf(err, "learn: cannot read %s\n", path);
        if (f)
            fclose(f);
        free(data);
        return 1;
    }
    fclose(f);
    Contents c;
    memset(&c, 0, sizeof c);
    LearnVisitor v = { learn_collect_position, on_game, learn_collect_book, &c };
    LearnParse p;
    learn_parse(data, size, &v, &p);
    static const char *const STATUS[] = { "intact", "empty", "torn last record", "damaged",
                                          "foreign" };
    fprintf(out, "learning file %s: %zu bytes, %s%s%s: %d positions, %d games, %d book results\n",
            path, size, STATUS[p.status], p.why[0] ? ", " : "", p.why, p.positions, p.games,
            p.books);
    c.rec.pos_count = learn_merge_positions(c.rec.pos, c.rec.pos_count, c.rec.pos_count);
    c.rec.book_count = learn_merge_books(c.rec.book, c.rec.book_count, c.rec.book_count);
    c.pos_fen = calloc((size_t)c.rec.pos_count + 1, sizeof *c.pos_fen);
    c.book_fen = calloc((size_t)c.rec.book_count + 1, sizeof *c.book_fen);
    Position *pos = malloc(sizeof *pos);
    if (!pos || !c.pos_fen || !c.book_fen) {
        fprintf(err, "learn: out of memory\n");
        return 1;
    }
    locate(&c, pos);
    char san[16];
    fprintf(out, "\n[positions: %d, merged by key; FEN from the recorded games when found there]\n",
            c.rec.pos_count);
    for (int i = 0; i < c.rec.pos_count; i++) {
        const LearnPosition *lp = &c.rec.pos[i];
        if (c.pos_fen[i][0])
            fprintf(out, "%s  best %s  ", c.pos_fen[i],
                    lp->has_move ? san_at(pos, c.pos_fen[i], lp->code, san) : "-");
        else
            fprintf(out, "key %016llx  code %s%02x  ", (unsigned long long)lp->key,
                    lp->has_move ? "0x" : "-", lp->has_move ? lp->code : 0);
        print_score(out, lp->score);
        fprintf(out, "  depth %d\n", lp->depth);
    }
    fprintf(out, "\n[book results: %d moves]\n", c.rec.book_count);
    for (int i = 0; i < c.rec.book_count; i++) {
        const LearnBookStat *b = &c.rec.book[i];
        if (c.book_fen[i][0])
            fprintf(out, "%s  %s", c.book_fen[i], san_at(pos, c.book_fen[i], b->code, san));
        else
            fprintf(out, "key %016llx  code 0x%02x", (unsigned long long)b->key, b->code);
        fprintf(out, "  +%u =%u -%u\n", b->wins, b->draws, b->losses);
    }
    fprintf(out, "\n[games: %d]\n\n", c.game_count);
    for (int i = 0; i < c.game_count; i++)
        print_game(out, &c.games[i], i + 1, pos);
    free(pos);
    learn_collection_free(&c.rec);
    free(c.games);
    free(c.pos_fen);
    free(c.book_fen);
    free(data);
    return 0;
}

int cmd_learn(int argc, char **argv)
{
    char path[1024];
    if (argc > 1) {
        fprintf(stderr, "usage: saavedra learn [FILE]   (default: %s beside the executable)\n",
                "saavedra.lrn");
        return 2;
    }
    if (argc == 1)
        snprintf(path, sizeof path, "%s", argv[0]);
    else {
        char dir[900];
        if (!executable_dir(dir, sizeof dir)) {
            fprintf(stderr, "learn: the executable's directory is unknown; name the file\n");
            return 1;
        }
        snprintf(path, sizeof path, "%s/saavedra.lrn", dir);
    }
    return learn_print(path, stdout, stderr);
}
