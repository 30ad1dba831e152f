/* Streaming PGN reader (see pgn.h): tokens from pgn_lexer.c drive a small state machine
 * (between games, tag section, movetext, skipping a bad game).
 * Variations keep two snapshots per level: the position before the last move (where a
 * variation starts) and the position to return to when it ends. */
#include "formats/pgn.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "board/notation.h"
#include "formats/pgn_lexer.h"
#include "board/position_copy.h"

typedef enum { ST_BETWEEN, ST_TAGS, ST_MOVETEXT, ST_SKIP } State;

struct PgnReader {
    PgnLexer lx;
    bool owns_stream;
    char name[256];
    PgnErrorSink sink;
    void *sink_ctx;

    State state;
    bool has_pending;        /* a token read but not yet handled (after a state change) */
    PgnToken pending;
    long game, games_read, games_skipped;
    int skip_depth;

    char fen[PGN_TEXT_MAX];
    bool has_fen;
    long fen_line;
    char variant[PGN_TOKEN_MAX + 1];

    Position *pos;           /* the line being read */
    Position *before;        /* snapshots: before[d] = before the last move at level d */
    Position *resume;        /* snapshots: resume[d] = level d where variation d+1 opened */
    bool has_before[PGN_MAX_DEPTH + 1];
    int ply[PGN_MAX_DEPTH + 1];
    int depth;
    bool move_pending;       /* item.move is still to be played on pos */
    int pending_nag;
    bool read_error_reported;

    PgnItem item;
};

/* ---- Errors ---- */

static void report(PgnReader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(PgnReader *r, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->sink)
        r->sink(r->sink_ctx, msg);
    else
        fprintf(stderr, "%s\n", msg);
}

/* Reports the current game once and switches to skipping it. */
static const PgnItem *fail_game(PgnReader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static const PgnItem *fail_game(PgnReader *r, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    report(r, "%s: game %ld, line %ld: %s; game skipped", r->name, r->game, r->lx.token_line, what);
    r->games_skipped++;
    r->state = ST_SKIP;
    r->skip_depth = r->depth;
    r->move_pending = false;
    r->pending_nag = 0;
    r->item.event = PGN_GAME_SKIPPED;
    r->item.line = r->lx.token_line;
    return &r->item;
}

/* ---- Symbols ---- */

static const char *result_of(const char *s)
{
    static const char *const RESULTS[][2] = {
        { "1-0", "1-0" }, { "0-1", "0-1" }, { "1/2-1/2", "1/2-1/2" }, { "*", "*" },
        { "1/2", "1/2-1/2" }, { "\xC2\xBD-\xC2\xBD", "1/2-1/2" }, { "0.5-0.5", "1/2-1/2" },
    };
    if (s[0] != '1' && s[0] != '0' && s[0] != '*' && s[0] != '\xC2')
        return NULL; /* most tokens are moves: skip the comparisons */
    for (size_t i = 0; i < sizeof RESULTS / sizeof RESULTS[0]; i++)
        if (!strcmp(s, RESULTS[i][0]))
            return RESULTS[i][1];
    return NULL;
}

/* NAG for an annotation glyph written as text, 0 if unknown. */
static int glyph_nag(const char *s)
{
    static const struct { const char *text; int nag; } GLYPHS[] = {
        { "!", 1 }, { "?", 2 }, { "!!", 3 }, { "??", 4 }, { "!?", 5 }, { "?!", 6 },
        { "=", 10 }, { "+=", 14 }, { "+/=", 14 }, { "=+", 15 }, { "=/+", 15 },
        { "+/-", 16 }, { "-/+", 17 }, { "+-", 18 }, { "-+", 19 },
    };
    if (s[0] != '!' && s[0] != '?' && s[0] != '=' && s[0] != '+' && s[0] != '-')
        return 0;
    for (size_t i = 0; i < sizeof GLYPHS / sizeof GLYPHS[0]; i++)
        if (!strcmp(s, GLYPHS[i].text))
            return GLYPHS[i].nag;
    return 0;
}

static void describe_move_number(const Position *pos, char *buf, size_t size)
{
    snprintf(buf, size, "%d%s", fullmove_number(pos), pos->side == WHITE ? "." : "...");
}

static const PgnItem *end_game(PgnReader *r, const char *result)
{
    r->games_read++;
    r->state = ST_BETWEEN;
    r->item.event = PGN_GAME_END;
    r->item.result = result;
    r->item.line = r->lx.token_line;
    return &r->item;
}

/* Handles a movetext symbol: NULL when it carries nothing (move number, "e.p.", ...). */
static const PgnItem *movetext_symbol(PgnReader *r)
{
    PgnItem *it = &r->item;
    char *s = r->lx.token;
    const char *result = result_of(s);
    if (result)
        return r->depth == 0 ? end_game(r, result) : NULL; /* a result inside a variation:
                                                            * ignored */

    if (r->lx.token_too_long)
        return fail_game(r, "unreadable move '%s...'", s);
    /* Move number: "12." "12..." "12" (alone), possibly glued to the move ("1.e4"). */
    if (isdigit((unsigned char)s[0]) && strncmp(s, "0-0", 3)) {
        char *p = s;
        while (isdigit((unsigned char)*p))
            p++;
        if (*p && *p != '.')
            return fail_game(r, "unreadable move '%s'", s);
        s = p;
    }
    while (*s == '.')
        s++;
    if (!*s || !strcmp(s, "e.p.") || !strcmp(s, "ep") || !strcmp(s, "+") || !strcmp(s, "#"))
        return NULL;
    int nag = glyph_nag(s);
    if (nag) {
        it->event = PGN_NAG;
        it->nag = nag;
        it->line = r->lx.token_line;
        return it;
    }
    bool has_alnum = false;
    for (const char *c = s; *c; c++)
        has_alnum |= isalnum((unsigned char)*c) != 0;
    if (!has_alnum && strcmp(s, "--"))
        return NULL; /* an annotation glyph with no NAG equivalent ("!!!", UTF-8 symbols) */
    Move m;
    size_t n = strlen(s), k = n;
    if (!strcmp(s, "--") || !strcmp(s, "Z0") || !strcmp(s, "0000") || !strcmp(s, "@@@@")) {
        if (in_check(r->pos)) {
            char number[16];
            describe_move_number(r->pos, number, sizeof number);
            return fail_game(r, "null move '%s' at %s while in check", s, number);
        }
        m = MOVE_NULL; /* ChessBase writes a missing move as a null move */
    } else {
        /* Trailing "!?"-style annotation becomes a NAG after the move. */
        while (k > 0 && (s[k - 1] == '!' || s[k - 1] == '?' || s[k - 1] == '+' || s[k - 1] == '#'))
            k--;
        m = move_from_san(r->pos, s);
        if (m == MOVE_NONE) {
            char number[16];
            describe_move_number(r->pos, number, sizeof number);
            return fail_game(r, "illegal or unreadable move '%s' at %s", s, number);
        }
    }

    char glyph[8];
    size_t g = 0;
    for (size_t i = k; i < n && g + 1 < sizeof glyph; i++)
        if (s[i] == '!' || s[i] == '?')
            glyph[g++] = s[i];
    glyph[g] = '\0';
    it->event = PGN_MOVE;
    it->position = r->pos;
    it->move = m;
    it->text = s;
    it->ply = r->ply[r->depth];
    it->depth = r->depth;
    it->line = r->lx.token_line;
    r->move_pending = true;
    r->pending_nag = g ? glyph_nag(glyph) : 0;
    return it;
}

/* ---- Game structure ---- */

static bool variant_supported(const char *v)
{
    return !*v || !strcasecmp(v, "standard") || !strcasecmp(v, "chess") || !strcasecmp(v, "normal")
        || !strcasecmp(v, "from position");
}

/* Chess960 under the names GUIs write (cutechess "fischerandom", lichess "Chess960"). */
static bool variant_chess960(const char *v)
{
    return !strcasecmp(v, "fischerandom") || !strcasecmp(v, "fischer random")
        || !strcasecmp(v, "chess960") || !strcasecmp(v, "chess 960") || !strcasecmp(v, "960");
}

/* Sets up the start position when the movetext begins. */
static const PgnItem *begin_movetext(PgnReader *r)
{
    r->depth = 0;
    r->has_before[0] = false;
    r->ply[0] = 0;
    bool chess960 = variant_chess960(r->variant);
    if (!variant_supported(r->variant) && !chess960)
        return fail_game(r, "unsupported variant '%s'", r->variant);
    char err[160];
    if (!position_from_fen(r->pos, r->has_fen ? r->fen : START_FEN, err, sizeof err, NULL)) {
        r->lx.token_line = r->fen_line;
        return fail_game(r, "bad FEN tag \"%s\": %s", r->fen, err);
    }
    position_set_chess960(r->pos, chess960);
    r->state = ST_MOVETEXT;
    r->item.event = PGN_MOVETEXT;
    r->item.position = r->pos;
    r->item.depth = 0;
    return &r->item;
}

static const PgnItem *start_game(PgnReader *r)
{
    r->game++;
    r->state = ST_TAGS;
    r->has_fen = false;
    r->lx.comment_open = false;
    r->variant[0] = '\0';
    r->depth = 0;
    r->move_pending = false;
    r->pending_nag = 0;
    r->item = (PgnItem){ .event = PGN_GAME_START, .game = r->game, .line = r->lx.token_line };
    return &r->item;
}

static const PgnItem *open_variation(PgnReader *r)
{
    int d = r->depth;
    if (d >= PGN_MAX_DEPTH)
        return fail_game(r, "variations nested deeper than %d", PGN_MAX_DEPTH);
    if (!r->has_before[d])
        return fail_game(r, "variation '(' before any move it could replace");
    position_copy_current(snapshot_at(r->resume, (size_t)d), r->pos);
    position_copy_current(r->pos, snapshot_at(r->before, (size_t)d));
    r->depth = d + 1;
    r->has_before[d + 1] = false;
    r->ply[d + 1] = r->ply[d] - 1;
    r->item.event = PGN_VARIATION_START;
    r->item.position = r->pos;
    r->item.depth = r->depth;
    r->item.line = r->lx.token_line;
    return &r->item;
}

static const PgnItem *close_variation(PgnReader *r)
{
    if (r->depth == 0)
        return fail_game(r, "')' without a matching '('");
    r->depth--;
    position_copy_current(r->pos, snapshot_at(r->resume, (size_t)r->depth));
    r->item.event = PGN_VARIATION_END;
    r->item.position = r->pos;
    r->item.depth = r->depth;
    r->item.line = r->lx.token_line;
    return &r->item;
}

/* Plays the move returned by the previous call. */
static void play_pending_move(PgnReader *r)
{
    int d = r->depth;
    position_copy_current(snapshot_at(r->before, (size_t)d), r->pos);
    r->has_before[d] = true;
    if (r->item.move == MOVE_NULL)
        make_null_move(r->pos);
    else
        make_move(r->pos, r->item.move);
    position_trim_history(r->pos);
    r->ply[d]++;
    r->move_pending = false;
}

static const PgnItem *movetext_token(PgnReader *r, PgnToken tok)
{
    PgnItem *it = &r->item;
    switch (tok) {
    case PGN_T_EOF:
        if (r->lx.comment_open)
            return fail_game(r, "comment not closed at the end of the file");
        if (r->depth > 0)
            return fail_game(r, "variation not closed at the end of the file");
        r->has_pending = true;
        r->pending = PGN_T_EOF;
        return end_game(r, "*");
    case PGN_T_TAG_OPEN: /* next game's tags: this one ended without a result */
        r->has_pending = true;
        r->pending = PGN_T_TAG_OPEN;
        if (r->depth > 0)
            return fail_game(r, "variation not closed before the next game");
        return end_game(r, "*");
    case PGN_T_COMMENT:
        if (r->lx.comment_open)
            return fail_game(r, "comment not closed at the end of the file");
        it->event = PGN_COMMENT;
        it->text = r->lx.text;
        it->truncated = r->lx.text_truncated;
        it->depth = r->depth;
        it->line = r->lx.token_line;
        return it;
    case PGN_T_NAG:
        if (r->lx.nag_value < 0 || r->lx.nag_value > 255)
            return NULL;
        it->event = PGN_NAG;
        it->nag = r->lx.nag_value;
        it->line = r->lx.token_line;
        return it;
    case PGN_T_OPEN:
        return open_variation(r);
    case PGN_T_CLOSE:
        return close_variation(r);
    default:
        return movetext_symbol(r);
    }
}

/* Skips the rest of a bad game: up to its result at nesting level 0 or the next tags. */
static void skip_token(PgnReader *r, PgnToken tok)
{
    switch (tok) {
    case PGN_T_EOF:
    case PGN_T_TAG_OPEN:
        r->has_pending = true;
        r->pending = tok;
        r->state = ST_BETWEEN;
        break;
    case PGN_T_OPEN:
        r->skip_depth++;
        break;
    case PGN_T_CLOSE:
        if (r->skip_depth > 0)
            r->skip_depth--;
        break;
    case PGN_T_SYMBOL:
        if (r->skip_depth == 0 && result_of(r->lx.token))
            r->state = ST_BETWEEN;
        break;
    default:
        break;
    }
}

const PgnItem *pgn_next(PgnReader *r)
{
    PgnItem *it = &r->item;
    if (r->move_pending)
        play_pending_move(r);
    it->game = r->game;
    it->truncated = false;
    if (r->pending_nag) {
        it->event = PGN_NAG;
        it->nag = r->pending_nag;
        r->pending_nag = 0;
        return it;
    }
    for (;;) {
        PgnToken tok;
        if (r->has_pending) {
            tok = r->pending;
            r->has_pending = false;
        } else
            tok = pgn_lexer_next(&r->lx);
        const PgnItem *out = NULL;
        switch (r->state) {
        case ST_BETWEEN:
            if (tok == PGN_T_EOF) {
                if (r->lx.read_errno && !r->read_error_reported) {
                    report(r, "%s: read error after line %ld: %s", r->name, r->lx.line,
                           strerror(r->lx.read_errno));
                    r->read_error_reported = true;
                }
                r->has_pending = true;
                r->pending = PGN_T_EOF;
                it->event = PGN_EOF;
                return it;
            }
            if (tok == PGN_T_COMMENT || tok == PGN_T_CLOSE)
                break; /* nothing belongs to a game before its first tag or move */
            r->has_pending = true;
            r->pending = tok;
            return start_game(r);
        case ST_TAGS:
            if (tok == PGN_T_TAG_OPEN) {
                if (!pgn_lexer_read_tag(&r->lx))
                    break; /* "[]" or a lone bracket: nothing to report */
                if (!strcasecmp(r->lx.tag_name, "FEN")) {
                    strcpy(r->fen, r->lx.text);
                    r->has_fen = true;
                    r->fen_line = r->lx.token_line;
                } else if (!strcasecmp(r->lx.tag_name, "Variant")) {
                    size_t n = strnlen(r->lx.text, PGN_TOKEN_MAX);
                    memcpy(r->variant, r->lx.text, n);
                    r->variant[n] = '\0';
                }
                it->event = PGN_TAG;
                it->tag_name = r->lx.tag_name;
                it->tag_value = r->lx.text;
                it->truncated = r->lx.text_truncated;
                it->line = r->lx.token_line;
                return it;
            }
            r->has_pending = true;
            r->pending = tok;
            return begin_movetext(r);
        case ST_MOVETEXT:
            out = movetext_token(r, tok);
            break;
        case ST_SKIP:
            skip_token(r, tok);
            break;
        }
        if (out)
            return out;
    }
}

/* ---- Opening and closing ---- */

PgnReader *pgn_open_stream(FILE *stream, const char *name, PgnErrorSink sink, void *ctx)
{
    PgnReader *r = calloc(1, sizeof *r);
    Position *pos = malloc(sizeof *pos);
    Position *before = snapshot_array_alloc(PGN_MAX_DEPTH + 1);
    Position *resume = snapshot_array_alloc(PGN_MAX_DEPTH + 1);
    if (!r || !pos || !before || !resume) {
        free(r);
        free(pos);
        free(before);
        free(resume);
        if (sink)
            sink(ctx, "pgn: out of memory");
        else
            fprintf(stderr, "pgn: out of memory\n");
        return NULL;
    }
    pgn_lexer_init(&r->lx, stream);
    snprintf(r->name, sizeof r->name, "%s", name ? name : "(stream)");
    r->sink = sink;
    r->sink_ctx = ctx;
    r->lx.line = 1;
    r->lx.column0 = true;
    r->pos = pos;
    r->before = before;
    r->resume = resume;
    r->state = ST_BETWEEN;
    return r;
}

PgnReader *pgn_open(const char *path, PgnErrorSink sink, void *ctx)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s: cannot open: %s", path, strerror(errno));
        if (sink)
            sink(ctx, msg);
        else
            fprintf(stderr, "%s\n", msg);
        return NULL;
    }
    PgnReader *r = pgn_open_stream(f, path, sink, ctx);
    if (!r)
        fclose(f);
    else
        r->owns_stream = true;
    return r;
}

void pgn_close(PgnReader *r)
{
    if (!r)
        return;
    if (r->owns_stream)
        fclose(r->lx.stream);
    free(r->pos);
    free(r->before);
    free(r->resume);
    free(r);
}

long pgn_games_read(const PgnReader *r) { return r->games_read; }
bool pgn_read_failed(const PgnReader *r) { return r->lx.read_errno != 0; }
long pgn_games_skipped(const PgnReader *r) { return r->games_skipped; }
