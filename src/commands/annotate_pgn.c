/* Writing an annotated game as PGN: see annotate_pgn.h. */
#include "commands/annotate_pgn.h"

#include <string.h>

#include "board/notation.h"
#include "search/search.h"

#define LINE_WIDTH 79

/* Movetext written word by word, lines kept within LINE_WIDTH (export format). */
typedef struct {
    FILE *out;
    int column;
} Wrap;

static void put(Wrap *w, const char *word)
{
    int n = (int)strlen(word);
    if (w->column > 0 && w->column + 1 + n > LINE_WIDTH) {
        fputc('\n', w->out);
        w->column = 0;
    } else if (w->column > 0) {
        fputc(' ', w->out);
        w->column++;
    }
    fputs(word, w->out);
    w->column += n;
}

/* A comment: its words wrapped like moves (a brace stays with its word). */
static void put_comment(Wrap *w, const char *text)
{
    char word[256];
    const char *p = text;
    bool first = true;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t n = strcspn(p, " ");
        /* A command such as [%eval 0.35] stays on one line: readers parse it whole. */
        if (p[0] == '[' && p[1] == '%' && !memchr(p, ']', n) && strchr(p, ']'))
            n = (size_t)(strchr(p, ']') - p) + 1 + strcspn(strchr(p, ']') + 1, " ");
        const char *rest = p + n;
        while (*rest == ' ')
            rest++;
        snprintf(word, sizeof word, "%s%.*s%s", first ? "{" : "", (int)(n < 200 ? n : 200), p,
                 *rest ? "" : "}");
        put(w, word);
        first = false;
        p += n;
    }
    if (first)
        put(w, "{}");
}

void annotate_eval_text(int white_score, char *buf, size_t size)
{
    SearchReport r;
    search_score_to_report(white_score, &r);
    if (r.is_mate)
        snprintf(buf, size, "#%d", r.mate_moves);
    else
        snprintf(buf, size, "%.2f", r.cp / 100.0);
}

static void side_text(const SideSummary *s, const char *name, char *buf, size_t size)
{
    snprintf(buf, size,
             "%s: %d moves, average centipawn loss %.0f, accuracy %.1f%%, inaccuracies %d, "
             "mistakes %d, blunders %d.",
             name, s->moves, side_summary_acpl(s), side_summary_accuracy(s), s->inaccuracies,
             s->mistakes, s->blunders);
}

void annotate_summary_text(const AnnotatedGame *g, char *buf, size_t size)
{
    char w[256] = "", b[256] = "";
    if (g->side[WHITE].moves)
        side_text(&g->side[WHITE], "White", w, sizeof w);
    if (g->side[BLACK].moves)
        side_text(&g->side[BLACK], "Black", b, sizeof b);
    snprintf(buf, size, "%s%s%s", w, w[0] && b[0] ? " " : "", b);
}

/* Writes the tag lines but an Annotator tag. */
static void write_tags(FILE *out, const char *tags, size_t len, const char *annotator)
{
    const char *p = tags, *end = tags + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        const char *s = p;
        while (s < next && (*s == ' ' || *s == '\t'))
            s++;
        if ((size_t)(next - s) < 10 || strncmp(s, "[Annotator", 10)
            || (s[10] != ' ' && s[10] != '"'))
            fwrite(p, 1, (size_t)(next - p), out);
        if (!nl && next > p)
            fputc('\n', out);
        p = next;
    }
    fprintf(out, "[Annotator \"%s\"]\n\n", annotator);
}

/* The ply after which the game left the ECO table (the last position found in it), -1 if
 * none; *entry gets the game's classification there. */
static int left_book(const AnnotatedGame *g, const EcoTable *eco, int *entry)
{
    if (!eco)
        return -1;
    EcoGame eg;
    Position pos = g->start;
    eco_game_reset(&eg, eco, pos_key(&pos));
    int last = -1;
    for (int i = 0; i < g->plies && i < ECO_GAME_PLIES; i++) {
        make_move(&pos, g->moves[i].move);
        eco_game_push(&eg, pos_key(&pos));
        if (eco_game_current(&eg) != ECO_NONE) {
            last = i;
            *entry = eco_game_best(&eg);
        }
    }
    return last;
}

static void move_number(Wrap *w, const Position *pos, bool force)
{
    char num[24];
    if (pos->side == WHITE)
        snprintf(num, sizeof num, "%d.", fullmove_number(pos));
    else if (force)
        snprintf(num, sizeof num, "%d...", fullmove_number(pos));
    else
        return;
    put(w, num);
}

static void write_variation(Wrap *w, const Position *before, const AnnotatedMove *m)
{
    Position pos = *before;
    char line[1024] = "";
    if (line_to_san(&pos, m->pv, m->pv_length, true, line, sizeof line) == 0)
        return;
    char word[64];
    const char *p = line;
    bool first = true;
    while (*p) {
        size_t n = strcspn(p, " ");
        snprintf(word, sizeof word, "%s%.*s%s", first ? "(" : "", (int)(n < 40 ? n : 40), p,
                 p[n] ? "" : ")");
        put(w, word);
        first = false;
        p += n;
        while (*p == ' ')
            p++;
    }
}

void annotate_write_game(FILE *out, const char *tags, size_t len, const AnnotatedGame *g,
                         const char *annotator, const char *result, const EcoTable *eco)
{
    write_tags(out, tags, len, annotator);
    Wrap w = {out, 0};
    char text[1024];
    annotate_summary_text(g, text, sizeof text);
    if (text[0])
        put_comment(&w, text);
    int book_entry = ECO_NONE;
    int book_ply = left_book(g, eco, &book_entry);
    Position pos = g->start;
    bool need_number = true;
    for (int i = 0; i < g->plies; i++) {
        const AnnotatedMove *m = &g->moves[i];
        Position before = pos;
        char san[16], word[32];
        move_number(&w, &pos, need_number);
        need_number = false;
        move_to_san(&pos, m->move, san);
        snprintf(word, sizeof word, "%s%s", san, annotate_mark_symbol(m->mark));
        put(&w, word);
        make_move(&pos, m->move);
        position_bound_history(&pos, MAX_PLY + 16);
        text[0] = '\0';
        size_t n = 0;
        if (g->score_known[i + 1] && m->analysed) {
            char ev[16];
            annotate_eval_text(g->white_score[i + 1], ev, sizeof ev);
            n += (size_t)snprintf(text + n, sizeof text - n, "[%%eval %s]", ev);
        }
        if (m->mark != MARK_NONE) {
            char b[16], a[16];
            annotate_eval_text(m->before, b, sizeof b);
            annotate_eval_text(m->after, a, sizeof a);
            const char *what = m->mark == MARK_BLUNDER ? "Blunder"
                             : m->mark == MARK_MISTAKE ? "Mistake"
                                                       : "Inaccuracy";
            n += (size_t)snprintf(text + n, sizeof text - n, " %s: %s -> %s for the mover.", what,
                                  b, a);
        }
        if (i == book_ply && book_entry != ECO_NONE) {
            const EcoEntry *en = eco_entry(eco, book_entry);
            if (en)
                n += (size_t)snprintf(text + n, sizeof text - n, " %s%s%s", en->code,
                                      en->name[0] ? " " : "", en->name);
        }
        if (text[0]) {
            put_comment(&w, text);
            need_number = true;
        }
        if (m->pv_length > 0) {
            write_variation(&w, &before, m);
            need_number = true;
        }
    }
    put(&w, result);
    fputs("\n\n", out);
}
