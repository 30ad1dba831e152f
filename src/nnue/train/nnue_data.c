/* Loading training positions (nnue_data.h). */
#include "nnue/train/nnue_data.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "board/fen.h"
#include "formats/traindata.h"
#include "nnue/network.h"
#include "util/random.h"

void posset_free(PosSet *s)
{
    free(s->pos);
    memset(s, 0, sizeof *s);
}

bool posset_add(PosSet *s, const Position *pos, int score_stm, int result_stm)
{
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? s->capacity * 2 : 1 << 16;
        PackedPos *p = realloc(s->pos, cap * sizeof *p);
        if (!p)
            return false;
        s->pos = p;
        s->capacity = cap;
    }
    PackedPos *p = &s->pos[s->count++];
    memset(p, 0, sizeof *p);
    p->occ = pieces(pos);
    int i = 0;
    for (Bitboard b = p->occ; b; b &= b - 1, i++)
        p->pieces[i / 2] |= (uint8_t)(piece_on(pos, lsb(b)) << (4 * (i & 1)));
    p->score = (int16_t)score_stm;
    p->result = (uint8_t)result_stm;
    p->stm = (uint8_t)pos->side;
    return true;
}

bool packed_position(const PackedPos *p, Position *pos)
{
    char board[SQUARE_NB];
    memset(board, 0, sizeof board);
    int i = 0;
    for (Bitboard b = p->occ; b; b &= b - 1, i++)
        board[lsb(b)] = fen_piece_char((Piece)((p->pieces[i / 2] >> (4 * (i & 1))) & 15));
    char fen[100];
    fen_from_squares(board, p->stm, fen);
    char err[160];
    return position_from_fen(pos, fen, err, sizeof err, NULL);
}

int packed_features(const PackedPos *p, NnueMapping mapping, int us[32], int them[32])
{
    int mirror = p->mirrored ? 7 : 0, flip[COLOR_NB] = { 0, 0 };
    if (mapping != NNUE_MAP_PLAIN) {
        int i = 0;
        for (Bitboard b = p->occ; b; b &= b - 1, i++) {
            int pc = (p->pieces[i / 2] >> (4 * (i & 1))) & 15;
            if (type_of(pc) == KING)
                flip[color_of(pc)] = nnue_flip(mapping, lsb(b) ^ mirror);
        }
    }
    int i = 0;
    for (Bitboard b = p->occ; b; b &= b - 1, i++) {
        int pc = (p->pieces[i / 2] >> (4 * (i & 1))) & 15;
        Square sq = (Square)(lsb(b) ^ mirror);
        us[i] = nnue_feature(p->stm, color_of(pc), type_of(pc), sq, flip[p->stm]);
        them[i] = nnue_feature(!p->stm, color_of(pc), type_of(pc), sq, flip[!p->stm]);
    }
    return i;
}

typedef struct {
    PosSet *set;
    size_t max;
    bool full, failed;
} Collect;

static bool collect(void *ctx, const Position *pos, int score, int result)
{
    Collect *c = ctx;
    if (c->max && c->set->count >= c->max) {
        c->full = true;
        return false;
    }
    /* result: 0 Black won, 1 draw, 2 White won; scores are White's point of view. */
    int stm_result = pos->side == WHITE ? result : 2 - result;
    if (!posset_add(c->set, pos, pos->side == WHITE ? score : -score, stm_result)) {
        c->failed = true;
        return false;
    }
    return true;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool load_file(const char *path, double valid_share, size_t max, NnueData *out)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < TRAIN_HEADER_SIZE
        || st.st_size > (1LL << 32)) {
        if (f)
            fclose(f);
        fprintf(stderr, "nnue data: %s: not a readable training-data file, skipped\n", path);
        out->damaged++;
        return true;
    }
    size_t size = (size_t)st.st_size;
    uint8_t *buf = malloc(size);
    bool ok = buf && fread(buf, 1, size, f) == size;
    fclose(f);
    TrainHeader h;
    char err[200];
    if (!ok || !train_header_decode(buf, &h, err, sizeof err)) {
        fprintf(stderr, "nnue data: %s: %s, skipped\n", path, ok ? err : "cannot read");
        free(buf);
        out->damaged++;
        return true;
    }
    static TrainGame g;
    size_t at = TRAIN_HEADER_SIZE;
    for (uint32_t i = 0; at < size; i++) {
        size_t used;
        TrainStatus s = train_game_decode(buf + at, size - at, &g, &used, err, sizeof err);
        if (s == TRAIN_TORN) {
            fprintf(stderr, "nnue data: %s: the last record is cut short, ignored\n", path);
            break;
        }
        at += used;
        if (s == TRAIN_DAMAGED) {
            fprintf(stderr, "nnue data: %s: game %u: %s, skipped\n", path, i, err);
            out->damaged++;
            continue;
        }
        uint64_t hash = splitmix64_at(h.seed * 0x9E3779B97F4A7C15ULL + h.first_game + i);
        bool valid = (double)(hash >> 11) / (double)(1ULL << 53) < valid_share;
        Collect c = { valid ? &out->valid : &out->train, max, false, false };
        if (train_game_replay(&g, collect, &c) != g.plies && !c.full && !c.failed) {
            fprintf(stderr, "nnue data: %s: game %u names an illegal move, the rest skipped\n",
                    path, i);
            out->damaged++;
        }
        out->games++;
        if (c.failed) {
            free(buf);
            return false;
        }
        if (c.full)
            break;
    }
    free(buf);
    out->files++;
    return true;
}

/* Adds the files of one folder (or the one file it names) to out. */
static bool load_path(const char *dir, double valid_share, size_t max_positions, NnueData *out,
                      char *err, size_t err_size)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(err, err_size, "%s: no such file or folder", dir);
        return false;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".svt"))
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 256;
                char **p = realloc(names, cap * sizeof *p);
                if (!p)
                    break;
                names = p;
            }
            size_t size = strlen(dir) + len + 2;
            names[n] = malloc(size);
            if (names[n])
                snprintf(names[n++], size, "%s/%s", dir, e->d_name);
        }
        if (d)
            closedir(d);
        qsort(names, n, sizeof *names, compare_names);
    } else {
        names = malloc(sizeof *names);
        if (names && (names[0] = strdup(dir)))
            n = 1;
    }
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        ok = load_file(names[i], valid_share, max_positions, out);
        if (max_positions && out->train.count >= max_positions)
            break;
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    if (!ok)
        snprintf(err, err_size, "out of memory for the positions");
    return ok;
}

bool nnue_data_load(const char *dirs, double valid_share, size_t max_positions, NnueData *out,
                    char *err, size_t err_size)
{
    memset(out, 0, sizeof *out);
    char path[4096];
    for (const char *p = dirs; ; p++) {
        size_t len = strcspn(p, ":");
        if (len >= sizeof path) {
            snprintf(err, err_size, "%.60s...: path too long", p);
            nnue_data_free(out);
            return false;
        }
        memcpy(path, p, len);
        path[len] = '\0';
        if (len && !load_path(path, valid_share, max_positions, out, err, err_size)) {
            nnue_data_free(out);
            return false;
        }
        p += len;
        if (!*p || (max_positions && out->train.count >= max_positions))
            break;
    }
    /* A share of 1 holds every game out: a held-out folder scored by eval_loss. */
    if (out->train.count == 0 && (valid_share < 1 || out->valid.count == 0)) {
        snprintf(err, err_size, "%s: no training positions", dirs);
        nnue_data_free(out);
        return false;
    }
    return true;
}

void nnue_data_free(NnueData *d)
{
    posset_free(&d->train);
    posset_free(&d->valid);
}
