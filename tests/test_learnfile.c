/* The learning file: records round-trip; a file cut at every byte offset, random bytes
 * and damage in the middle never crash the reader and keep every intact record before the
 * damage; compaction merges; two processes appending at once lose nothing. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>

#include "learning/learnfile.h"
#include "util/crc32.h"
#include "test.h"

typedef struct {
    int positions, games, books;
    Key pos_keys[4096];
    int depths[4096];
    int game_plies[512];
    int game_results[512];
    uint16_t book_wins[512];
} Seen;

static void see_position(void *ctx, const LearnPosition *p)
{
    Seen *s = ctx;
    if (s->positions < 4096) {
        s->pos_keys[s->positions] = p->key;
        s->depths[s->positions] = p->depth;
    }
    s->positions++;
}

static void see_game(void *ctx, const LearnGame *g)
{
    Seen *s = ctx;
    if (s->games < 512) {
        s->game_plies[s->games] = g->ply_count;
        s->game_results[s->games] = g->result;
    }
    s->games++;
}

static void see_book(void *ctx, const LearnBookStat *b)
{
    Seen *s = ctx;
    if (s->books < 512)
        s->book_wins[s->books] = b->wins;
    s->books++;
}

static LearnVisitor visitor_for(Seen *s)
{
    memset(s, 0, sizeof *s);
    LearnVisitor v = { see_position, see_game, see_book, s };
    return v;
}

static int seen_records(const Seen *s)
{
    return s->positions + s->games + s->books;
}

/* A small file image: header, then positions, games and book results mixed. */
typedef struct {
    uint8_t buf[4096];
    size_t size;
    size_t ends[16];   /* the offset just past record i */
    int count;
} Image;

static void build_image(Image *im)
{
    uint8_t *buf = im->buf;
    size_t cap = sizeof im->buf;
    size_t at = LEARN_HEADER_SIZE;
    learn_header_make(buf);
    im->count = 0;
    uint8_t codes[40];
    for (int i = 0; i < 40; i++)
        codes[i] = (uint8_t)(i * 7);
    for (int i = 0; i < 9; i++) {
        size_t n;
        if (i % 3 == 0) {
            LearnPosition p = { 0x1234567890ULL * (uint64_t)(i + 1), (uint8_t)i, true, (int16_t)(-300 + i), (uint8_t)(10 + i) };
            n = learn_encode_position(&p, buf + at, cap - at);
        } else if (i % 3 == 1) {
            LearnGame g;
            memset(&g, 0, sizeof g);
            g.result = LEARN_RESULT_DRAW;
            g.own_side = LEARN_SIDE_BLACK;
            if (i == 4)
                snprintf(g.fen, sizeof g.fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
            else
                g.flags = LEARN_GAME_STARTPOS;
            g.ply_count = 5 + i;
            g.codes = codes;
            n = learn_encode_game(&g, buf + at, cap - at);
        } else {
            LearnBookStat b = { 0xABCDEFULL + (uint64_t)i, 0xC1, (uint16_t)i, 1, 2 };
            n = learn_encode_book(&b, buf + at, cap - at);
        }
        at += n;
        im->ends[im->count++] = at;
    }
    im->size = at;
}

/* How many records of the image end at or before offset. */
static int records_before(const Image *im, size_t offset)
{
    int n = 0;
    for (int i = 0; i < im->count; i++)
        if (im->ends[i] <= offset)
            n++;
    return n;
}

static uint8_t random_byte(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint8_t)(*seed >> 56);
}

TEST(learnrec_round_trip)
{
    Image im;
    build_image(&im);
    Seen s;
    LearnVisitor v = visitor_for(&s);
    LearnParse p;
    learn_parse(im.buf, im.size, &v, &p);
    CHECK_EQ(p.status, LEARN_PARSE_OK);
    CHECK_EQ(p.valid_end, im.size);
    CHECK_EQ(s.positions, 3);
    CHECK_EQ(s.games, 3);
    CHECK_EQ(s.books, 3);
    CHECK_EQ(s.pos_keys[1], 0x1234567890ULL * 4);
    CHECK_EQ(s.depths[2], 16);
    CHECK_EQ(s.game_plies[1], 9);
    CHECK_EQ(s.book_wins[2], 8);
    CHECK_EQ(LEARN_POSITION_SIZE, 21);
    CHECK_EQ(crc32_of("123456789", 9), 0xCBF43926u);
    /* A FEN too long for the format is refused, not cut. */
    LearnGame g;
    memset(&g, 0, sizeof g);
    memset(g.fen, 'x', LEARN_FEN_MAX);
    g.fen[LEARN_FEN_MAX] = '\0';
    CHECK(learn_encode_game(&g, im.buf, sizeof im.buf) > 0);
    g.ply_count = LEARN_GAME_PLIES_MAX + 1;
    CHECK_EQ(learn_encode_game(&g, im.buf, sizeof im.buf), 0);
}

TEST(learnrec_cut_at_every_offset)
{
    Image im;
    build_image(&im);
    for (size_t cut = 0; cut <= im.size; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1); /* exact size: ASan sees any over-read */
        memcpy(copy, im.buf, cut);
        Seen s;
        LearnVisitor v = visitor_for(&s);
        LearnParse p;
        learn_parse(copy, cut, &v, &p);
        int whole = records_before(&im, cut);
        int seen = seen_records(&s);
        if (cut < LEARN_HEADER_SIZE)
            CHECK_MSG(p.status == LEARN_PARSE_EMPTY, "cut %zu: status %d", cut, p.status);
        else {
            CHECK_MSG(seen == whole, "cut %zu: %d records seen, %d intact", cut, seen, whole);
            bool boundary = cut == LEARN_HEADER_SIZE || (whole && im.ends[whole - 1] == cut);
            CHECK_MSG(p.status == (boundary ? LEARN_PARSE_OK : LEARN_PARSE_TORN), "cut %zu: status %d",
                      cut, p.status);
            CHECK_MSG(p.valid_end == (whole ? im.ends[whole - 1] : LEARN_HEADER_SIZE), "cut %zu: valid_end %zu",
                      cut, p.valid_end);
        }
        free(copy);
    }
}

TEST(learnrec_damage_and_random_bytes)
{
    Image im;
    build_image(&im);
    /* Every single byte changed in turn: the records before it survive; the file is
     * never taken as intact. */
    for (size_t at = 0; at < im.size; at++) {
        uint8_t copy[sizeof im.buf];
        memcpy(copy, im.buf, im.size);
        copy[at] ^= 0x5A;
        Seen s;
        LearnVisitor v = visitor_for(&s);
        LearnParse p;
        learn_parse(copy, im.size, &v, &p);
        int before = records_before(&im, at);
        CHECK_MSG(p.status != LEARN_PARSE_OK, "byte %zu changed: file taken as intact", at);
        if (at >= LEARN_HEADER_SIZE)
            CHECK_MSG(seen_records(&s) == before, "byte %zu: %d records, %d before it", at,
                      seen_records(&s), before);
        else
            CHECK_EQ(p.status, at < 8 ? LEARN_PARSE_NOT_OURS : LEARN_PARSE_FOREIGN);
    }
    /* Random bytes, with and without our header in front. */
    uint64_t seed = 12345;
    for (int round = 0; round < 2000; round++) {
        size_t n = (size_t)(round % 300);
        uint8_t *r = malloc(LEARN_HEADER_SIZE + n + 1);
        for (size_t i = 0; i < LEARN_HEADER_SIZE + n; i++)
            r[i] = random_byte(&seed);
        size_t total = n;
        if (round & 1) {
            learn_header_make(r);
            total = LEARN_HEADER_SIZE + n;
        }
        LearnParse p;
        learn_parse(r, total, NULL, &p);
        CHECK(p.valid_end <= total);
        if (!(round & 1) && total >= 8)
            CHECK(p.status == LEARN_PARSE_NOT_OURS);
        free(r);
    }
}

/* A changed length byte anywhere (the last record included) is damage, never a torn
 * append: a torn tail is cut off, damage is kept aside whole. */
TEST(learnrec_bad_length_is_damage)
{
    Image im;
    build_image(&im);
    for (int i = 0; i < im.count; i++) {
        size_t start = i ? im.ends[i - 1] : LEARN_HEADER_SIZE;
        for (int which = 2; which <= 3; which++) {
            for (int value = 1; value < 256; value += 254 / 4) {
                uint8_t copy[sizeof im.buf];
                memcpy(copy, im.buf, im.size);
                if (copy[start + which] == value)
                    continue;
                copy[start + which] = (uint8_t)value;
                LearnParse p;
                learn_parse(copy, im.size, NULL, &p);
                CHECK_MSG(p.status == LEARN_PARSE_DAMAGED, "record %d, length byte %d = %d: status %d (%s)",
                          i, which, value, p.status, p.why);
                CHECK_EQ(p.valid_end, start);
            }
        }
    }
}

/* ---- files ------------------------------------------------------------------------- */

/* A new temporary folder and the learning file's path in it. */
typedef struct {
    char dir[64];
    char path[128];
} Scratch;

static bool scratch_make(Scratch *t)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/saavedra-learntest-XXXXXX");
    if (!mkdtemp(t->dir))
        return false;
    snprintf(t->path, sizeof t->path, "%s/learn.bin", t->dir);
    return true;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[1200];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
    rmdir(dir);
}

static int count_aside(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".bad-"))
            n++;
    if (d)
        closedir(d);
    return n;
}

static bool write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

static size_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (size_t)st.st_size : 0;
}

TEST(learnfile_cut_files_repaired)
{
    Scratch t;
    if (!CHECK(scratch_make(&t)))
        return;
    Image im;
    build_image(&im);
    for (size_t cut = 0; cut <= im.size; cut++) {
        CHECK(write_file(t.path, im.buf, cut));
        int whole = records_before(&im, cut);
        LearnFile lf;
        learnfile_init(&lf, t.path);
        Seen s;
        LearnVisitor v = visitor_for(&s);
        char warn[700];
        CHECK_MSG(learnfile_load(&lf, &v, NULL, warn, sizeof warn), "cut %zu: %s", cut, warn);
        CHECK_MSG(seen_records(&s) == (cut >= LEARN_HEADER_SIZE ? whole : 0), "cut %zu", cut);
        /* An append after the cut: the torn part is dropped, everything intact stays. */
        uint8_t rec[64];
        LearnPosition p = { 777, 3, true, 50, 20 };
        size_t n = learn_encode_position(&p, rec, sizeof rec);
        CHECK_MSG(learnfile_append(&lf, rec, n, cut == im.size, warn, sizeof warn), "cut %zu: %s", cut, warn);
        v = visitor_for(&s);
        LearnParse parse;
        CHECK(learnfile_load(&lf, &v, &parse, warn, sizeof warn));
        CHECK_MSG(parse.status == LEARN_PARSE_OK, "cut %zu: status %d after append", cut, parse.status);
        CHECK_MSG(seen_records(&s) == (cut >= LEARN_HEADER_SIZE ? whole : 0) + 1,
                  "cut %zu: %d records after append", cut, seen_records(&s));
        CHECK_EQ(count_aside(t.dir), 0); /* a cut file is never taken for a damaged one */
    }
    remove_dir(t.dir);
}

TEST(learnfile_damaged_and_foreign_set_aside)
{
    Scratch t;
    if (!CHECK(scratch_make(&t)))
        return;
    Image im;
    build_image(&im);
    /* Damage inside record 4: records 0-3 are kept in the fresh file, the rest aside. */
    im.buf[im.ends[3] + 6] ^= 0xFF;
    CHECK(write_file(t.path, im.buf, im.size));
    LearnFile lf;
    learnfile_init(&lf, t.path);
    Seen s;
    LearnVisitor v = visitor_for(&s);
    char warn[700];
    CHECK(learnfile_load(&lf, &v, NULL, warn, sizeof warn));
    CHECK_EQ(seen_records(&s), 4);
    CHECK_MSG(strstr(warn, "set aside") != NULL, "warning: %s", warn);
    CHECK_EQ(count_aside(t.dir), 1);
    CHECK_EQ(file_size(t.path), im.ends[3]);
    /* Random bytes after our magic: set aside, a fresh (header-only) file, nothing
     * crashes. */
    uint64_t seed = 99;
    for (int round = 0; round < 20; round++) {
        uint8_t junk[700];
        size_t n = 40 + (size_t)round * 31;
        for (size_t i = 0; i < n; i++)
            junk[i] = random_byte(&seed);
        memcpy(junk, LEARN_MAGIC, 8);
        CHECK(write_file(t.path, junk, n));
        learnfile_init(&lf, t.path);
        v = visitor_for(&s);
        CHECK(learnfile_load(&lf, &v, NULL, warn, sizeof warn));
        CHECK_EQ(seen_records(&s), 0);
        CHECK_EQ(file_size(t.path), LEARN_HEADER_SIZE);
    }
    CHECK_EQ(count_aside(t.dir), 21);
    /* A directory or a FIFO is refused, never replaced. */
    char sub[160];
    snprintf(sub, sizeof sub, "%s/adir", t.dir);
    mkdir(sub, 0755);
    learnfile_init(&lf, sub);
    uint8_t rec[64];
    LearnPosition p = { 1, 0, false, 0, 1 };
    size_t rn = learn_encode_position(&p, rec, sizeof rec);
    CHECK(!learnfile_append(&lf, rec, rn, false, warn, sizeof warn));
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/fifo", t.dir);
    if (mkfifo(sub, 0644) == 0) {
        learnfile_init(&lf, sub);
        CHECK(!learnfile_append(&lf, rec, rn, false, warn, sizeof warn));
        CHECK(!learnfile_load(&lf, NULL, NULL, warn, sizeof warn));
        unlink(sub);
    }
    remove_dir(t.dir);
}

TEST(learnfile_bad_length_kept_aside)
{
    Scratch t;
    if (!CHECK(scratch_make(&t)))
        return;
    Image im;
    build_image(&im);
    im.buf[im.ends[0] + 3] = 0xFF; /* the 2nd record's length, high byte */
    CHECK(write_file(t.path, im.buf, im.size));
    LearnFile lf;
    learnfile_init(&lf, t.path);
    char warn[700];
    LearnParse p;
    CHECK(learnfile_load(&lf, NULL, &p, warn, sizeof warn));
    CHECK_MSG(strstr(warn, "set aside") != NULL, "warning: %s", warn);
    CHECK_EQ(count_aside(t.dir), 1);
    CHECK_EQ(file_size(t.path), im.ends[0]);
    /* The whole damaged file is kept, byte for byte. */
    DIR *d = opendir(t.dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".bad-")) {
            char aside[600];
            snprintf(aside, sizeof aside, "%s/%s", t.dir, e->d_name);
            CHECK_EQ(file_size(aside), im.size);
        }
    if (d)
        closedir(d);
    remove_dir(t.dir);
}

static bool same_bytes(const char *path, const uint8_t *data, size_t size)
{
    uint8_t buf[8192];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return n == size && memcmp(buf, data, size) == 0;
}

/* A file that does not start with our magic (a book, an rc file, random bytes) named as
 * the learning file is refused with one warning: never moved, replaced or appended to. */
TEST(learnfile_not_ours_is_left_alone)
{
    Scratch t;
    if (!CHECK(scratch_make(&t)))
        return;
    static const char RC[] = "# engine.rc\nhash = 64\nthreads = 1\nbook_file = book.bin\n";
    uint8_t book[600];
    memcpy(book, "SAAVBOOK", 8);
    for (size_t i = 8; i < sizeof book; i++)
        book[i] = (uint8_t)(i * 13);
    const struct { const uint8_t *data; size_t size; } files[] = {
        { (const uint8_t *)RC, sizeof RC - 1 }, { book, sizeof book }, { (const uint8_t *)"hi\n", 3 },
    };
    for (int k = 0; k < 3; k++) {
        CHECK(write_file(t.path, files[k].data, files[k].size));
        LearnFile lf;
        learnfile_init(&lf, t.path);
        char warn[700];
        LearnParse p;
        CHECK(!learnfile_load(&lf, NULL, &p, warn, sizeof warn));
        CHECK_MSG(strstr(warn, "not a Saavedra learning file") != NULL, "file %d: %s", k, warn);
        uint8_t rec[64];
        LearnPosition pos = { 5, 1, true, 10, 12 };
        size_t n = learn_encode_position(&pos, rec, sizeof rec);
        CHECK(!learnfile_append(&lf, rec, n, true, warn, sizeof warn));
        CHECK_MSG(warn[0] == '\0', "a second warning: %s", warn);
        LearnLimits lim = { 10, 10, 10 };
        CHECK(!learnfile_compact(&lf, &lim, NULL, warn, sizeof warn));
        CHECK(same_bytes(t.path, files[k].data, files[k].size));
        CHECK_EQ(count_aside(t.dir), 0);
    }
    remove_dir(t.dir);
}

TEST(learnfile_compaction_merges)
{
    Scratch t;
    if (!CHECK(scratch_make(&t)))
        return;
    LearnFile lf;
    learnfile_init(&lf, t.path);
    char warn[700];
    uint8_t rec[256];
    uint8_t codes[3] = { 0xC1, 0xC1, 0x5F };
    for (int i = 0; i < 300; i++) {
        /* 100 keys, three depths each: the deepest must survive. */
        LearnPosition p = { (Key)(i % 100) + 1, (uint8_t)(i % 7), true, (int16_t)i, (uint8_t)(5 + (i * 37) % 50) };
        size_t n = learn_encode_position(&p, rec, sizeof rec);
        CHECK(learnfile_append(&lf, rec, n, false, warn, sizeof warn));
        LearnBookStat b = { 42, 0xC1, 1, 0, (uint16_t)(i & 1) };
        n = learn_encode_book(&b, rec, sizeof rec);
        CHECK(learnfile_append(&lf, rec, n, false, warn, sizeof warn));
        LearnGame g;
        memset(&g, 0, sizeof g);
        g.flags = LEARN_GAME_STARTPOS;
        g.result = (uint8_t)(i % 4);
        g.ply_count = 3;
        g.codes = codes;
        n = learn_encode_game(&g, rec, sizeof rec);
        CHECK(learnfile_append(&lf, rec, n, i == 299, warn, sizeof warn));
    }
    int deepest[101] = { 0 };
    for (int i = 0; i < 300; i++) {
        int d = 5 + (i * 37) % 50;
        if (d > deepest[i % 100 + 1])
            deepest[i % 100 + 1] = d;
    }
    LearnLimits lim = { 1000, 50, 1000 };
    LearnParse after;
    CHECK_MSG(learnfile_compact(&lf, &lim, &after, warn, sizeof warn), "%s", warn);
    CHECK_EQ(after.status, LEARN_PARSE_OK);
    CHECK_EQ(after.positions, 100);
    CHECK_EQ(after.games, 50);
    CHECK_EQ(after.books, 1);
    Seen s;
    LearnVisitor v = visitor_for(&s);
    CHECK(learnfile_load(&lf, &v, NULL, warn, sizeof warn));
    for (int i = 0; i < s.positions && i < 100; i++)
        CHECK_MSG(s.depths[i] == deepest[s.pos_keys[i]], "key %llu depth %d, deepest %d",
                  (unsigned long long)s.pos_keys[i], s.depths[i], deepest[s.pos_keys[i]]);
    CHECK_EQ(s.book_wins[0], 300);
    CHECK_EQ(s.game_results[49], 299 % 4); /* the latest games are the ones kept */
    /* The position limit drops the shallowest. */
    LearnLimits small = { 10, 50, 1000 };
    CHECK(learnfile_compact(&lf, &small, &after, warn, sizeof warn));
    CHECK_EQ(after.positions, 10);
    v = visitor_for(&s);
    CHECK(learnfile_load(&lf, &v, NULL, warn, sizeof warn));
    int min_kept = 1000;
    for (int i = 0; i < s.positions; i++)
        min_kept = s.depths[i] < min_kept ? s.depths[i] : min_kept;
    int above = 0;
    for (int k = 1; k <= 100; k++)
        above += deepest[k] > min_kept;
    CHECK_MSG(above <= 10, "a key deeper than every kept one was dropped");
    remove_dir(t.dir);
}

/* Two processes append (and now and then compact) at once; afterwards every record of
 * both is in the file and every checksum holds. */
/* Compaction of a learning file reached through a symbolic link writes beside the link's
 * target: the link stays, the target gets the new file with its mode; a killed
 * compaction's temporary file is removed by the next process holding the lock. */
TEST(learnfile_compaction_keeps_links_mode_and_cleans_temporaries)
{
    Scratch t;
    if (!CHECK(scratch_make(&t)))
        return;
    char link_path[200], sub[120], target[200], stale[300], warn[700];
    snprintf(sub, sizeof sub, "%s/shared", t.dir);
    CHECK(mkdir(sub, 0755) == 0);
    snprintf(target, sizeof target, "%s/shared/learn.bin", t.dir);
    snprintf(link_path, sizeof link_path, "%s/link.bin", t.dir);
    CHECK(symlink(target, link_path) == 0);
    LearnFile lf;
    learnfile_init(&lf, link_path);
    uint8_t rec[64];
    for (int i = 0; i < 20; i++) {
        LearnPosition p = { (Key)(i % 5) + 1, 1, true, (int16_t)i, (uint8_t)(10 + i) };
        size_t n = learn_encode_position(&p, rec, sizeof rec);
        CHECK_MSG(learnfile_append(&lf, rec, n, false, warn, sizeof warn), "%s", warn);
    }
    CHECK(chmod(target, 0660) == 0);
    LearnLimits lim = { 1000, 50, 1000 };
    LearnParse after;
    CHECK_MSG(learnfile_compact(&lf, &lim, &after, warn, sizeof warn), "%s", warn);
    CHECK_EQ(after.positions, 5);
    struct stat st;
    CHECK(lstat(link_path, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(stat(target, &st) == 0);
    CHECK_EQ(st.st_mode & 07777, 0660);
    CHECK_EQ(file_size(target), LEARN_HEADER_SIZE + 5 * LEARN_POSITION_SIZE);
    /* A dead process's temporary file, as a killed compaction leaves it. */
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    snprintf(stale, sizeof stale, "%s.tmp-%ld-Xy12Zw", target, (long)child);
    CHECK(write_file(stale, (const uint8_t *)"partial", 7));
    CHECK(learnfile_load(&lf, NULL, NULL, warn, sizeof warn));
    CHECK(access(stale, F_OK) != 0);
    unlink(target);
    rmdir(sub);
    remove_dir(t.dir);
}

TEST(learnfile_two_writers_lose_nothing)
{
    Scratch t;
    if (!CHECK(scratch_make(&t)))
        return;
    enum { PER_CHILD = 400 };
    pid_t kids[2];
    for (int c = 0; c < 2; c++) {
        kids[c] = fork();
        if (kids[c] == 0) {
            LearnFile lf;
            learnfile_init(&lf, t.path);
            char warn[700];
            uint8_t rec[512];
            uint8_t codes[64];
            memset(codes, 0x11 * (c + 1), sizeof codes);
            int bad = 0;
            for (int i = 0; i < PER_CHILD; i++) {
                LearnPosition p = { ((Key)(c + 1) << 32) | (Key)i, 1, true, (int16_t)i, 12 };
                size_t n = learn_encode_position(&p, rec, sizeof rec);
                LearnGame g;
                memset(&g, 0, sizeof g);
                g.flags = LEARN_GAME_STARTPOS;
                g.own_side = (uint8_t)c;
                g.ply_count = 10 + i % 50;
                g.codes = codes;
                n += learn_encode_game(&g, rec + n, sizeof rec - n);
                bad += !learnfile_append(&lf, rec, n, i % 50 == 0, warn, sizeof warn);
                if (i % 97 == 96) {
                    LearnLimits lim = { 100000, 100000, 100000 };
                    bad += !learnfile_compact(&lf, &lim, NULL, warn, sizeof warn);
                }
            }
            _exit(bad ? 1 : 0);
        }
    }
    for (int c = 0; c < 2; c++) {
        int status = -1;
        waitpid(kids[c], &status, 0);
        CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer %d failed", c);
    }
    LearnFile lf;
    learnfile_init(&lf, t.path);
    Seen s;
    LearnVisitor v = visitor_for(&s);
    LearnParse p;
    char warn[700];
    CHECK(learnfile_load(&lf, &v, &p, warn, sizeof warn));
    CHECK_EQ(p.status, LEARN_PARSE_OK);
    CHECK_EQ(s.positions, 2 * PER_CHILD);
    CHECK_EQ(s.games, 2 * PER_CHILD);
    bool have[2][PER_CHILD] = { { false } };
    for (int i = 0; i < s.positions && i < 4096; i++) {
        int c = (int)(s.pos_keys[i] >> 32) - 1, k = (int)(s.pos_keys[i] & 0xFFFFFFFF);
        if (c >= 0 && c < 2 && k < PER_CHILD)
            have[c][k] = true;
    }
    int missing = 0;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < PER_CHILD; k++)
            missing += !have[c][k];
    CHECK_EQ(missing, 0);
    CHECK_EQ(count_aside(t.dir), 0);
    remove_dir(t.dir);
}
