/* makeeco: turns ECO tables into the position-keyed C table compiled into Saavedra
 * (src/opening/eco.h, docs/eco.md).
 *
 *   makeeco [-o OUT.c] [--format scid|tsv|arasan] [--ends-only] FILE...
 *
 * Input formats (chosen by --format, else by the name: *.tsv is lichess, *.eco with
 * entries `CODE "name" moves *` is Scid, anything else Arasan's `CODE moves "name"`):
 *   scid    A00b "Barnes Opening"  1.f3 *    (an entry may wrap onto further lines; # comments)
 *   tsv     eco<TAB>name<TAB>pgn             (lichess-org/chess-openings, header line first)
 *   arasan  A00<TAB>1. e3 "Van't Kruijs Opening"
 * Several files are read in order, as one table. An entry with an illegal move or a code
 * that is not an ECO code is reported on stderr (file:line) and left out.
 *
 * Every position along every line becomes a key. A position that ends an entry takes
 * that entry (the first such entry in file order); a position only passed through takes
 * the deepest entry ending earlier on the same line (the deepest such, over all lines
 * through it); with --ends-only, only positions that end an entry are kept. The output is
 * written to a temporary name and renamed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/notation.h"
#include "opening/eco.h"
#include "util/outfile.h"

#define MAX_PLIES 255

typedef enum { FMT_AUTO, FMT_SCID, FMT_TSV, FMT_ARASAN } Format;

typedef struct {
    char *code, *name;
} Entry;

typedef struct {
    Key key;
    int entry;     /* entry index the position takes */
    int depth;     /* plies from the start */
    int exact;     /* 1: an entry ends here */
    int rank;      /* among candidates: for exact, file order; else depth of the entry */
} Candidate;

typedef struct {
    Entry *entries;
    size_t entry_count, entry_cap;
    Candidate *cands;
    size_t cand_count, cand_cap;
    Position *pos;
    int errors;
} Builder;

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t n = *cap ? *cap * 2 : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(p, n * size);
    if (!q) {
        fprintf(stderr, "makeeco: out of memory\n");
        exit(1);
    }
    *cap = n;
    return q;
}

static bool is_eco_code(const char *s)
{
    if (s[0] < 'A' || s[0] > 'E' || s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9')
        return false;
    s += 3;
    if (*s >= 'a' && *s <= 'z')
        s++;
    if (*s >= '1' && *s <= '9')
        s++;
    return *s == '\0';
}

static bool is_move_number_or_result(const char *t)
{
    if (!strcmp(t, "*") || !strcmp(t, "1-0") || !strcmp(t, "0-1") || !strcmp(t, "1/2-1/2"))
        return true;
    while (*t >= '0' && *t <= '9')
        t++;
    while (*t == '.')
        t++;
    return *t == '\0';
}

/* Plays the moves of one entry (text, whitespace-separated SAN with move numbers) and
 * records every position on the way. */
static void add_entry(Builder *b, const char *file, long line, const char *code, const char *name,
                      char *moves)
{
    if (!is_eco_code(code)) {
        fprintf(stderr, "makeeco: %s:%ld: '%s' is not an ECO code; entry left out\n", file, line, code);
        b->errors++;
        return;
    }
    char err[160];
    position_from_fen(b->pos, START_FEN, err, sizeof err, NULL);
    Key keys[MAX_PLIES + 1];
    int plies = 0;
    keys[0] = pos_key(b->pos);
    for (char *t = strtok(moves, " \t\r\n"); t; t = strtok(NULL, " \t\r\n")) {
        size_t n = strlen(t);
        while (n && t[n - 1] == ';')
            t[--n] = '\0';
        char *m = t;
        while (*m >= '0' && *m <= '9')
            m++;
        if (m != t && *m == '.') { /* "1.e4": a number glued to the move */
            while (*m == '.')
                m++;
            t = m;
        }
        if (!*t || is_move_number_or_result(t))
            continue;
        Move mv = move_from_san(b->pos, t);
        if (mv == MOVE_NONE || plies == MAX_PLIES) {
            fprintf(stderr, "makeeco: %s:%ld: %s '%s' in %s; entry left out\n", file, line,
                    mv == MOVE_NONE ? "illegal move" : "too many moves at", t, code);
            b->errors++;
            return;
        }
        make_move(b->pos, mv);
        position_compact(b->pos);
        keys[++plies] = pos_key(b->pos);
    }
    b->entries = grow(b->entries, &b->entry_cap, b->entry_count + 1, sizeof *b->entries);
    int index = (int)b->entry_count++;
    b->entries[index] = (Entry){strdup(code), strdup(name)};
    /* One line's positions in order, the last one exact; what the others take is known
     * only once every entry is read (resolve_passed). */
    b->cands = grow(b->cands, &b->cand_cap, b->cand_count + (size_t)plies + 1, sizeof *b->cands);
    for (int d = 0; d <= plies; d++)
        b->cands[b->cand_count++] = (Candidate){keys[d], index, d, d == plies, d == plies ? index : 0};
}

/* Reads a whole file into a NUL-terminated buffer. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "makeeco: cannot open %s: %s\n", path, strerror(errno));
        exit(1);
    }
    size_t size = 0, cap = 0;
    char *buf = NULL;
    for (;;) {
        buf = grow(buf, &cap, size + 65537, 1);
        size_t n = fread(buf + size, 1, 65536, f);
        size += n;
        if (n < 65536)
            break;
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        fprintf(stderr, "makeeco: read error on %s\n", path);
        exit(1);
    }
    buf[size] = '\0';
    return buf;
}

static Format guess_format(const char *path, const char *text)
{
    size_t n = strlen(path);
    if (n > 4 && !strcmp(path + n - 4, ".tsv"))
        return FMT_TSV;
    /* Scid: the first entry line is CODE then a quoted name. */
    for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        if (*l == '#' || *l == '\n' || *l == '\r')
            continue;
        const char *q = l;
        while (*q && *q != ' ' && *q != '\t' && *q != '\n')
            q++;
        while (*q == ' ' || *q == '\t')
            q++;
        return *q == '"' ? FMT_SCID : FMT_ARASAN;
    }
    return FMT_ARASAN;
}

static long line_of(const char *text, const char *at)
{
    long line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* Scid: CODE "NAME" moves... * ; entries may span lines; '#' starts a comment line. */
static void read_scid(Builder *b, const char *path, char *text)
{
    for (char *l = text; *l;) { /* blank out comment lines */
        char *end = strchr(l, '\n');
        if (*l == '#')
            memset(l, ' ', end ? (size_t)(end - l) : strlen(l));
        l = end ? end + 1 : l + strlen(l);
    }
    char *p = text;
    for (;;) {
        p += strspn(p, " \t\r\n");
        if (!*p)
            return;
        char *code = p;
        long line = line_of(text, code);
        p += strcspn(p, " \t\r\n");
        char *q = p + strspn(p, " \t\r\n");
        char *star = strchr(q, '*');
        if (*q != '"' || !star) {
            fprintf(stderr, "makeeco: %s:%ld: expected CODE \"name\" moves *\n", path, line);
            b->errors++;
            if (!star)
                return;
            p = star + 1;
            continue;
        }
        *p = '\0';
        char *name = q + 1;
        char *close = strchr(name, '"');
        if (!close || close > star) {
            fprintf(stderr, "makeeco: %s:%ld: name not closed\n", path, line);
            b->errors++;
            p = star + 1;
            continue;
        }
        *close = '\0';
        *star = '\0';
        add_entry(b, path, line, code, name, close + 1);
        p = star + 1;
    }
}

/* Lichess TSV: eco, name, pgn; the first line is a header. */
static void read_tsv(Builder *b, const char *path, char *text)
{
    long line = 0;
    for (char *l = text; *l;) {
        char *end = strchr(l, '\n');
        if (end)
            *end = '\0';
        line++;
        char *tab1 = strchr(l, '\t');
        char *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
        if (line > 1 && l[strspn(l, " \t\r")]) {
            if (!tab2) {
                fprintf(stderr, "makeeco: %s:%ld: expected eco<TAB>name<TAB>pgn\n", path, line);
                b->errors++;
            } else {
                *tab1 = *tab2 = '\0';
                add_entry(b, path, line, l, tab1 + 1, tab2 + 1);
            }
        }
        l = end ? end + 1 : l + strlen(l);
    }
}

/* Arasan: CODE moves "name" on one line (the name may be missing or empty). */
static void read_arasan(Builder *b, const char *path, char *text)
{
    long line = 0;
    for (char *l = text; *l;) {
        char *end = strchr(l, '\n');
        if (end)
            *end = '\0';
        line++;
        l += strspn(l, " \t\r");
        if (*l && *l != '#') {
            char *code = l;
            char *moves = l + strcspn(l, " \t\r");
            if (*moves)
                *moves++ = '\0';
            char *quote = strchr(moves, '"');
            const char *name = "";
            if (quote) {
                *quote = '\0';
                char *close = strchr(quote + 1, '"');
                if (close)
                    *close = '\0';
                name = quote + 1;
            }
            add_entry(b, path, line, code, name, moves);
        }
        l = end ? end + 1 : l + strlen(l);
    }
}

static int cmp_candidate(const void *a, const void *b)
{
    const Candidate *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->exact != y->exact)
        return y->exact - x->exact;
    if (x->exact) /* the first entry in file order */
        return x->rank - y->rank;
    return y->rank - x->rank; /* passed through: the deepest earlier entry */
}

/* The entry a key ends (first in file order), from the exact candidates sorted by
 * cmp_candidate; -1 if none. */
static int exact_entry(const Candidate *exact, size_t n, Key key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (exact[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && exact[lo].key == key ? exact[lo].entry : -1;
}

/* Gives every passed-through position the deepest entry that ends at or before it on its
 * line (or none: entry -1). */
static void resolve_passed(Builder *b, const int *entry_depth, bool ends_only)
{
    size_t n = 0;
    Candidate *exact = malloc((b->entry_count + 1) * sizeof *exact);
    if (!exact) {
        fprintf(stderr, "makeeco: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < b->cand_count; i++)
        if (b->cands[i].exact)
            exact[n++] = b->cands[i];
    qsort(exact, n, sizeof *exact, cmp_candidate);
    int ancestor = -1;
    for (size_t i = 0; i < b->cand_count; i++) {
        Candidate *c = &b->cands[i];
        if (c->depth == 0)
            ancestor = -1; /* a new line starts */
        int e = exact_entry(exact, n, c->key);
        if (e >= 0)
            ancestor = e;
        if (!c->exact) {
            c->entry = ends_only ? -1 : ancestor;
            c->rank = ancestor >= 0 ? entry_depth[ancestor] : -1;
        }
    }
    free(exact);
}

static void write_c_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 32 || c >= 127 || c == '?')
            fprintf(out, "\\%03o", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void usage(void)
{
    fputs("usage: makeeco [-o OUT.c] [--format scid|tsv|arasan] [--ends-only] FILE...\n"
          "  Writes the position-keyed ECO table as C source (stdout without -o).\n", stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    const char *out_path = NULL;
    Format format = FMT_AUTO;
    bool ends_only = false;
    const char *files[256];
    int file_count = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out_path = argv[++i];
        else if (!strcmp(argv[i], "--ends-only"))
            ends_only = true;
        else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
            const char *f = argv[++i];
            format = !strcmp(f, "scid") ? FMT_SCID : !strcmp(f, "tsv") ? FMT_TSV : !strcmp(f, "arasan") ? FMT_ARASAN : (usage(), FMT_AUTO);
        } else if (argv[i][0] == '-' && argv[i][1])
            usage();
        else if (file_count < 256)
            files[file_count++] = argv[i];
        else
            usage();
    }
    if (file_count == 0)
        usage();
    position_init();
    Builder b = {0};
    b.pos = malloc(sizeof *b.pos);
    if (!b.pos) {
        fprintf(stderr, "makeeco: out of memory\n");
        return 1;
    }
    char source[1024] = "";
    for (int i = 0; i < file_count; i++) {
        char *text = slurp(files[i]);
        Format f = format == FMT_AUTO ? guess_format(files[i], text) : format;
        if (f == FMT_SCID)
            read_scid(&b, files[i], text);
        else if (f == FMT_TSV)
            read_tsv(&b, files[i], text);
        else
            read_arasan(&b, files[i], text);
        free(text);
        const char *base = strrchr(files[i], '/');
        size_t used = strlen(source);
        snprintf(source + used, sizeof source - used, "%s%s", used ? " " : "", base ? base + 1 : files[i]);
    }
    if (b.entry_count == 0) {
        fprintf(stderr, "makeeco: no entries read\n");
        return 1;
    }
    int *entry_depth = calloc(b.entry_count, sizeof *entry_depth);
    if (!entry_depth) {
        fprintf(stderr, "makeeco: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < b.cand_count; i++)
        if (b.cands[i].exact)
            entry_depth[b.cands[i].entry] = b.cands[i].depth;
    resolve_passed(&b, entry_depth, ends_only);
    qsort(b.cands, b.cand_count, sizeof *b.cands, cmp_candidate);
    size_t kept = 0, exact_kept = 0;
    int max_depth = 0;
    for (size_t i = 0; i < b.cand_count; i++) {
        const Candidate *c = &b.cands[i];
        if (c->entry < 0 || (kept && b.cands[kept - 1].key == c->key))
            continue;
        b.cands[kept++] = *c;
        exact_kept += c->exact;
        if (c->depth > max_depth)
            max_depth = c->depth;
    }

    OutFile of;
    FILE *out = stdout;
    if (out_path) {
        char why[4400];
        out = outfile_open(&of, out_path, why, sizeof why);
        if (!out) {
            fprintf(stderr, "makeeco: %s\n", why);
            return 1;
        }
    }
    fprintf(out, "/* Generated by tools/programs/makeeco from %s: do not edit. */\n#include \"opening/eco.h\"\n\n", source);
    fputs("static const EcoEntry ENTRIES[] = {\n", out);
    for (size_t i = 0; i < b.entry_count; i++) {
        fputs("    {", out);
        write_c_string(out, b.entries[i].code);
        fputs(", ", out);
        write_c_string(out, b.entries[i].name);
        fputs("},\n", out);
    }
    fputs("};\n\nstatic const Key KEYS[] = {\n", out);
    for (size_t i = 0; i < kept; i++)
        fprintf(out, "    0x%016llxULL,\n", (unsigned long long)b.cands[i].key);
    fputs("};\n\nstatic const uint32_t VALUES[] = {\n", out);
    for (size_t i = 0; i < kept; i++)
        fprintf(out, "    0x%xu,\n", ((unsigned)b.cands[i].entry << 8) | (unsigned)b.cands[i].depth);
    fprintf(out, "};\n\nconst EcoTable ECO_BUILTIN_TABLE = {\n"
                 "    KEYS, VALUES, %zu, ENTRIES, %zu, %d, 0x%016llxULL,\n    ",
            kept, b.entry_count, max_depth, (unsigned long long)eco_check_key());
    write_c_string(out, source);
    fputs("\n};\n", out);
    bool failed = ferror(out) != 0;
    if (out_path) {
        char why[4400];
        if (failed)
            outfile_abort(&of);
        if (failed || !outfile_commit(&of, why, sizeof why)) {
            fprintf(stderr, "makeeco: cannot write %s%s%s\n", out_path, failed ? "" : ": ", failed ? "" : why);
            return 1;
        }
    } else
        failed |= fflush(out) != 0;
    fprintf(stderr, "makeeco: %zu entries, %zu positions (%zu ending an entry), deepest %d plies, %d entries left out\n",
            b.entry_count, kept, exact_kept, max_depth, b.errors);
    for (size_t i = 0; i < b.entry_count; i++) {
        free(b.entries[i].code);
        free(b.entries[i].name);
    }
    free(b.entries);
    free(b.cands);
    free(b.pos);
    free(entry_depth);
    return failed;
}
