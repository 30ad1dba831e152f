/* ecocoder: adds or corrects the [ECO], [Opening] and [Variation] tags of PGN games from
 * the built-in ECO table (src/opening/eco.h; docs/eco.md), keeping every other byte.
 *
 *   ecocoder [--keep | --check] [-o OUT] [FILE...]      (no FILE: stdin; no -o: stdout)
 *
 * --keep   only adds the tags a game lacks; existing ones are left alone
 * --check  writes no PGN: one line per game whose [ECO] differs from the recomputed code
 *          (or lacks one), then a summary
 * The games are read with the streaming PGN reader; the bytes it consumes are kept from
 * the start of the current game, so memory stays bounded by one game plus the reader's
 * buffer. Edits are made inside the tag lines the reader reported; a game the reader
 * skips, or one with no classified position, is copied unchanged. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/position_copy.h"
#include "formats/pgn.h"
#include "opening/eco.h"
#include "util/outfile.h"
#include "util/timeutil.h"

/* ---- Everything read, kept from the last flush on, with line starts ---- */

typedef struct {
    FILE *in;
    unsigned char *buf;
    size_t len, cap;
    long long base;      /* file offset of buf[0] */
    long long *lines;    /* file offset where line first_line + i starts */
    size_t nlines, lines_cap;
    long first_line;
    long long total;     /* bytes read so far */
} Tee;

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap * 2 : 4096;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * size);
    if (!q) {
        fprintf(stderr, "ecocoder: out of memory\n");
        exit(1);
    }
    *cap = n;
    return q;
}

static ssize_t tee_read(void *cookie, char *out, size_t size)
{
    Tee *t = cookie;
    size_t n = fread(out, 1, size, t->in);
    if (n == 0)
        return ferror(t->in) ? -1 : 0;
    t->buf = grow(t->buf, &t->cap, t->len + n, 1);
    memcpy(t->buf + t->len, out, n);
    for (size_t i = 0; i < n; i++)
        if (out[i] == '\n') {
            t->lines = grow(t->lines, &t->lines_cap, t->nlines + 1, sizeof *t->lines);
            t->lines[t->nlines++] = t->total + (long long)i + 1;
        }
    t->len += n;
    t->total += (long long)n;
    return (ssize_t)n;
}

/* File offset where line starts (the end of what was read if not read yet). */
static long long line_offset(const Tee *t, long line)
{
    long i = line - t->first_line;
    if (i < 0)
        return t->base;
    if ((size_t)i >= t->nlines)
        return t->base + (long long)t->len;
    return t->lines[i];
}

/* ---- Edits: replace [at, at + remove) by text ---- */

typedef struct {
    long long at, remove;
    char text[300];
} Edit;

typedef struct {
    Edit *list;
    size_t count, cap;
} Edits;

static void add_edit(Edits *e, long long at, long long remove, const char *text)
{
    e->list = grow(e->list, &e->cap, e->count + 1, sizeof *e->list);
    Edit *x = &e->list[e->count++];
    x->at = at;
    x->remove = remove;
    snprintf(x->text, sizeof x->text, "%s", text);
}

static int cmp_edit(const void *a, const void *b)
{
    const Edit *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Writes the kept bytes before file offset upto, applying the edits that fall there, and
 * drops them. */
static void flush_to(Tee *t, Edits *e, long long upto, FILE *out)
{
    if (e->count > 1)
        qsort(e->list, e->count, sizeof *e->list, cmp_edit);
    long long pos = t->base;
    size_t kept = 0;
    for (size_t i = 0; i < e->count; i++) {
        Edit *x = &e->list[i];
        if (x->at >= upto || x->at < pos) {
            if (x->at >= upto)
                e->list[kept++] = *x;
            continue;
        }
        if (out)
            fwrite(t->buf + (pos - t->base), 1, (size_t)(x->at - pos), out);
        if (out)
            fputs(x->text, out);
        pos = x->at + x->remove;
    }
    e->count = kept;
    if (pos < upto && out)
        fwrite(t->buf + (pos - t->base), 1, (size_t)(upto - pos), out);
    if (pos < upto)
        pos = upto;
    size_t drop = (size_t)(pos - t->base);
    if (drop && t->len > drop)
        memmove(t->buf, t->buf + drop, t->len - drop);
    t->len -= drop;
    t->base = pos;
    size_t first = 0;
    while (first < t->nlines && t->lines[first] <= pos)
        first++;
    if (first) {
        memmove(t->lines, t->lines + first, (t->nlines - first) * sizeof *t->lines);
        t->nlines -= first;
        t->first_line += (long)first;
    }
}

/* ---- Tags of the current game ---- */

enum { TAG_ECO, TAG_OPENING, TAG_VARIATION, TAG_NB };
static const char *const TAG_NAMES[TAG_NB] = {"ECO", "Opening", "Variation"};

typedef struct {
    long line[TAG_NB];        /* 0: the game has no such tag */
    char value[TAG_NB][128];
    long last_tag_line;       /* 0: the game has no tags */
    char last_tag_name[80];
    long start_line;          /* where the game's first item is */
} GameTags;

typedef struct {
    bool keep, check;
    const EcoTable *table;
    long games, classified, with_tag, agree, changed;
} Options;

/* Finds `[NAME ...]` on the line at offset `from` (the bytes read); its span goes to
 * `]` or the end of the line. False if not there. */
static bool find_tag(const Tee *t, long line, const char *name, long long *at, long long *len,
                     bool *crlf)
{
    long long from = line_offset(t, line), to = line_offset(t, line + 1);
    const unsigned char *b = t->buf;
    size_t n = strlen(name);
    for (long long p = from; p < to; p++) {
        if (b[p - t->base] != '[')
            continue;
        long long q = p + 1;
        while (q < to && (b[q - t->base] == ' ' || b[q - t->base] == '\t'))
            q++;
        if (q + (long long)n > to || memcmp(b + (q - t->base), name, n) != 0)
            continue;
        q += (long long)n;
        if (q < to && b[q - t->base] != ' ' && b[q - t->base] != '\t' && b[q - t->base] != '"')
            continue;
        bool in_quotes = false;
        while (q < to && b[q - t->base] != '\n' && b[q - t->base] != '\r') {
            unsigned char c = b[q - t->base];
            if (c == '\\' && in_quotes)
                q++;
            else if (c == '"')
                in_quotes = !in_quotes;
            else if (c == ']' && !in_quotes) {
                q++;
                break;
            }
            q++;
        }
        if (q > to)
            q = to;
        *at = p;
        *len = q - p;
        *crlf = to - from >= 2 && b[to - 1 - t->base] == '\n' && b[to - 2 - t->base] == '\r';
        return true;
    }
    return false;
}

static void format_tag(char *out, size_t size, const char *name, const char *value)
{
    size_t n = (size_t)snprintf(out, size, "[%s \"", name);
    for (; *value && n + 4 < size; value++) {
        if (*value == '"' || *value == '\\')
            out[n++] = '\\';
        out[n++] = *value;
    }
    snprintf(out + n, size - n, "\"]");
}

/* Decides the game's new tags and queues the edits. */
static void classify_game(Tee *t, Edits *e, const GameTags *g, const EcoGame *eco, Options *o,
                          const char *file, long game, long prev_end_line)
{
    o->games++;
    const EcoEntry *entry = eco_entry(o->table, eco_game_best(eco));
    char want[TAG_NB][128] = {{0}};
    if (entry) {
        o->classified++;
        snprintf(want[TAG_ECO], sizeof want[TAG_ECO], "%.3s", entry->code);
        eco_split_name(entry->name, want[TAG_OPENING], sizeof want[TAG_OPENING], want[TAG_VARIATION],
                       sizeof want[TAG_VARIATION]);
    }
    if (g->line[TAG_ECO]) {
        o->with_tag++;
        o->agree += entry && !strncmp(g->value[TAG_ECO], want[TAG_ECO], 3);
    }
    if (o->check) {
        if (entry && strcmp(g->value[TAG_ECO], want[TAG_ECO]))
            printf("%s: game %ld (line %ld): ECO \"%s\", computed \"%s\" (%s)\n", file, game,
                   g->start_line, g->value[TAG_ECO], want[TAG_ECO], entry->name);
        return;
    }
    if (!entry)
        return;
    bool changed = false;
    char text[300];
    /* Missing tags go after the last tag (one per line), or before a game with no tags. */
    char added[900] = "";
    bool crlf = false;
    long long insert_at = -1;
    if (g->last_tag_line) {
        long long at, len;
        if (find_tag(t, g->last_tag_line, g->last_tag_name, &at, &len, &crlf))
            insert_at = at + len;
    } else if (g->start_line > prev_end_line) {
        insert_at = line_offset(t, g->start_line);
        long long next = line_offset(t, g->start_line + 1);
        crlf = next - insert_at >= 2 && t->buf[next - 1 - t->base] == '\n' && t->buf[next - 2 - t->base] == '\r';
    }
    const char *eol = crlf ? "\r\n" : "\n";
    for (int k = 0; k < TAG_NB; k++) {
        if (g->line[k]) {
            if (o->keep || !strcmp(g->value[k], want[k]))
                continue;
            long long at, len;
            bool ignored;
            if (!find_tag(t, g->line[k], TAG_NAMES[k], &at, &len, &ignored))
                continue;
            if (want[k][0])
                format_tag(text, sizeof text, TAG_NAMES[k], want[k]);
            else { /* no such part in the new name: the tag goes, with its line if alone */
                text[0] = '\0';
                long long from = line_offset(t, g->line[k]), to = line_offset(t, g->line[k] + 1);
                bool alone = true;
                for (long long p = from; p < to && alone; p++)
                    if (p < at || p >= at + len)
                        alone = strchr(" \t\r\n", t->buf[p - t->base]) != NULL;
                if (alone) {
                    at = from;
                    len = to - from;
                }
            }
            add_edit(e, at, len, text);
            changed = true;
        } else if (want[k][0] && insert_at >= 0) {
            format_tag(text, sizeof text, TAG_NAMES[k], want[k]);
            size_t used = strlen(added);
            if (g->last_tag_line)
                snprintf(added + used, sizeof added - used, "%s%s", eol, text);
            else
                snprintf(added + used, sizeof added - used, "%s%s", text, eol);
        }
    }
    if (added[0]) { /* (before a game without tags: no blank line, which is not ours to add) */
        add_edit(e, insert_at, 0, added);
        changed = true;
    }
    o->changed += changed;
}

/* ---- Reading one input ---- */

typedef struct {
    int64_t next_report;
    bool tty;
} Progress;

static void progress(Progress *p, const Options *o, bool last)
{
    if (!p->tty)
        return;
    int64_t now = time_now_ms();
    if (!last && now < p->next_report)
        return;
    p->next_report = now + 500;
    fprintf(stderr, "\recocoder: %ld games", o->games);
    if (last)
        fputc('\n', stderr);
}

/* Returns false when the input could not be read to its end. */
static bool code_stream(FILE *in, const char *name, FILE *out, Options *o, Progress *prog)
{
    Tee t = {.in = in, .first_line = 2};
    cookie_io_functions_t io = {.read = tee_read};
    FILE *stream = fopencookie(&t, "r", io);
    PgnReader *r = stream ? pgn_open_stream(stream, name, NULL, NULL) : NULL;
    if (!r) {
        if (stream)
            fclose(stream);
        fprintf(stderr, "ecocoder: %s: cannot read\n", name);
        return false;
    }
    Edits edits = {0};
    GameTags g = {0};
    EcoGame *eco = malloc(sizeof *eco);
    Position *pos = malloc(sizeof *pos);
    if (!eco || !pos) {
        fprintf(stderr, "ecocoder: out of memory\n");
        exit(1);
    }
    long prev_end_line = 0, last_line = 0;
    FILE *pgn_out = o->check ? NULL : out;
    for (;;) {
        const PgnItem *it = pgn_next(r);
        if (it->event == PGN_EOF)
            break;
        switch (it->event) {
        case PGN_GAME_START:
            flush_to(&t, &edits, line_offset(&t, it->line), pgn_out);
            prev_end_line = last_line;
            memset(&g, 0, sizeof g);
            g.start_line = it->line;
            eco_game_reset(eco, NULL, 0);
            break;
        case PGN_TAG:
            g.last_tag_line = it->line;
            snprintf(g.last_tag_name, sizeof g.last_tag_name, "%s", it->tag_name);
            for (int k = 0; k < TAG_NB; k++)
                if (!strcmp(it->tag_name, TAG_NAMES[k]) && !g.line[k]) {
                    g.line[k] = it->line;
                    snprintf(g.value[k], sizeof g.value[k], "%s", it->tag_value);
                }
            break;
        case PGN_MOVETEXT:
            position_copy_current(pos, it->position);
            eco_game_reset(eco, o->table, pos_key(pos));
            break;
        case PGN_MOVE:
            if (it->depth == 0) {
                if (it->move == MOVE_NULL)
                    make_null_move(pos);
                else
                    make_move(pos, it->move);
                position_trim_history(pos);
                eco_game_push(eco, pos_key(pos));
            }
            break;
        case PGN_GAME_END:
            classify_game(&t, &edits, &g, eco, o, name, it->game, prev_end_line);
            progress(prog, o, false);
            break;
        default:
            break;
        }
        last_line = it->line;
    }
    bool ok = !pgn_read_failed(r);
    pgn_close(r);
    fclose(stream);
    flush_to(&t, &edits, t.base + (long long)t.len, pgn_out);
    free(edits.list);
    free(t.buf);
    free(t.lines);
    free(eco);
    free(pos);
    return ok;
}

static void usage(void)
{
    fputs("usage: ecocoder [--keep | --check] [-o OUT] [FILE...]\n"
          "  Adds or corrects [ECO], [Opening] and [Variation] from the built-in ECO table;\n"
          "  everything else is copied unchanged. No FILE: stdin. No -o: stdout.\n"
          "  --keep   only add missing tags    --check  report disagreements, write no PGN\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    Options o = {0};
    const char *out_path = NULL;
    int first_file = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--keep"))
            o.keep = true;
        else if (!strcmp(argv[i], "--check"))
            o.check = true;
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out_path = argv[++i];
        else if (!strcmp(argv[i], "--"))
            first_file = i + 1, i = argc;
        else if (argv[i][0] == '-' && argv[i][1])
            usage();
        else {
            first_file = i;
            break;
        }
    }
    if (o.keep && o.check)
        usage();
    position_init();
    char why[160];
    o.table = eco_builtin(why, sizeof why);
    if (!o.table) {
        fprintf(stderr, "ecocoder: %s\n", why);
        return 1;
    }
    FILE *out = stdout;
    OutFile of;
    if (out_path && !o.check) {
        char out_err[4400];
        out = outfile_open(&of, out_path, out_err, sizeof out_err);
        if (!out) {
            fprintf(stderr, "ecocoder: %s\n", out_err);
            return 1;
        }
    }
    Progress prog = {.tty = isatty(2) != 0};
    bool ok = true;
    if (first_file >= argc)
        ok = code_stream(stdin, "(stdin)", out, &o, &prog);
    for (int i = first_file; i < argc; i++) {
        FILE *in = fopen(argv[i], "rb");
        if (!in) {
            fprintf(stderr, "ecocoder: cannot open %s: %s\n", argv[i], strerror(errno));
            ok = false;
            continue;
        }
        ok &= code_stream(in, argv[i], out, &o, &prog);
        fclose(in);
    }
    progress(&prog, &o, true);
    if (o.check)
        printf("%ld games, %ld classified, %ld with an ECO tag, %ld of these agree on the 3-character code\n",
               o.games, o.classified, o.with_tag, o.agree);
    bool write_failed = ferror(out) != 0;
    if (out != stdout) {
        char out_err[4400];
        if (write_failed)
            outfile_abort(&of);
        if (write_failed || !outfile_commit(&of, out_err, sizeof out_err)) {
            fprintf(stderr, "ecocoder: cannot write %s%s%s\n", out_path, write_failed ? "" : ": ",
                    write_failed ? "" : out_err);
            return 1;
        }
    } else
        write_failed |= fflush(out) != 0;
    if (write_failed)
        fprintf(stderr, "ecocoder: write error\n");
    if (!o.check)
        fprintf(stderr, "ecocoder: %ld games, %ld classified, %ld changed\n", o.games, o.classified, o.changed);
    return ok && !write_failed ? 0 : 1;
}
