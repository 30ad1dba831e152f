/* Tokenizer of the PGN reader (see pgn_lexer.h). */
#include "formats/pgn_lexer.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

void pgn_lexer_init(PgnLexer *lx, FILE *stream)
{
    memset(lx, 0, sizeof *lx);
    lx->stream = stream;
    lx->line = 1;
    lx->column0 = true;
}

static inline int peek_byte(PgnLexer *lx)
{
    if (lx->at == lx->len) {
        lx->len = fread(lx->buf, 1, sizeof lx->buf, lx->stream);
        lx->at = 0;
        if (lx->len == 0) {
            if (ferror(lx->stream) && !lx->read_errno) /* not the end: a directory, a bad disk */
                lx->read_errno = errno ? errno : EIO;
            return EOF;
        }
    }
    return lx->buf[lx->at];
}

static inline int read_byte(PgnLexer *lx)
{
    int c = peek_byte(lx);
    if (c == EOF)
        return EOF;
    lx->at++;
    lx->column0 = c == '\n';
    if (c == '\n')
        lx->line++;
    return c;
}

static inline bool is_space(int c) { return c == ' ' || (c >= 0 && c < 32) || c == 127; }
static inline bool is_delimiter(int c)
{
    return c == EOF || is_space(c) || c == '[' || c == ']' || c == '{' || c == '}' || c == '('
        || c == ')' || c == ';' || c == '$';
}

static void append_text(PgnLexer *lx, size_t *n, int c)
{
    if (*n + 1 < sizeof lx->text)
        lx->text[(*n)++] = (char)c;
    else
        lx->text_truncated = true;
}

PgnToken pgn_lexer_next(PgnLexer *lx)
{
    for (;;) {
        bool line_start = lx->column0;
        int c = read_byte(lx);
        if (c == EOF)
            return PGN_T_EOF;
        if (is_space(c))
            continue;
        lx->token_line = lx->line;
        if (c == '%' && line_start) { /* escape line */
            while ((c = read_byte(lx)) != EOF && c != '\n')
                ;
            continue;
        }
        switch (c) {
        case '[': return PGN_T_TAG_OPEN;
        case '(': return PGN_T_OPEN;
        case ')': return PGN_T_CLOSE;
        case '{':
        case ';': {
            size_t n = 0;
            int end = c == '{' ? '}' : '\n';
            lx->text_truncated = false;
            while ((c = read_byte(lx)) != EOF && c != end)
                append_text(lx, &n, c == '\r' && end == '}' ? ' ' : c);
            while (n && lx->text[n - 1] == '\r')
                n--;
            lx->text[n] = '\0';
            lx->comment_open = c == EOF && end == '}';
            return PGN_T_COMMENT;
        }
        case '$': {
            int v = 0, digits = 0;
            while (isdigit(peek_byte(lx))) {
                v = v * 10 + (read_byte(lx) - '0');
                if (v > 100000)
                    v = 100000;
                digits++;
            }
            lx->nag_value = digits ? v : -1;
            return PGN_T_NAG;
        }
        case ']':
        case '}':
            continue; /* stray closers carry nothing */
        default: {
            size_t n = 0;
            lx->token_too_long = false;
            lx->token[n++] = (char)c;
            while (!is_delimiter(peek_byte(lx))) {
                c = read_byte(lx);
                if (n < PGN_TOKEN_MAX)
                    lx->token[n++] = (char)c;
                else
                    lx->token_too_long = true;
            }
            lx->token[n] = '\0';
            /* A byte-order mark (start of file or of a concatenated file) is not a token. */
            if (n >= 3 && !memcmp(lx->token, "\xEF\xBB\xBF", 3)) {
                memmove(lx->token, lx->token + 3, n - 2);
                if (n == 3)
                    continue;
            }
            return PGN_T_SYMBOL;
        }
        }
    }
}

bool pgn_lexer_read_tag(PgnLexer *lx)
{
    int c;
    while ((c = peek_byte(lx)) != EOF && c != '\n' && is_space(c))
        read_byte(lx);
    size_t n = 0;
    while ((c = peek_byte(lx)) != EOF && !is_space(c) && c != '"' && c != ']') {
        read_byte(lx);
        if (n < PGN_TOKEN_MAX)
            lx->tag_name[n++] = (char)c;
    }
    lx->tag_name[n] = '\0';
    while ((c = peek_byte(lx)) != EOF && c != '\n' && is_space(c))
        read_byte(lx);
    size_t v = 0;
    lx->text_truncated = false;
    if (peek_byte(lx) == '"') {
        read_byte(lx);
        while ((c = peek_byte(lx)) != EOF && c != '\n' && c != '"') {
            read_byte(lx);
            if (c == '\\' && (peek_byte(lx) == '"' || peek_byte(lx) == '\\'))
                c = read_byte(lx);
            append_text(lx, &v, c);
        }
        if (c == '"')
            read_byte(lx);
    }
    /* Up to the closing bracket (an unquoted value is taken as it stands). */
    bool quoted = v > 0 || c == '"';
    while ((c = peek_byte(lx)) != EOF && c != '\n' && c != ']') {
        read_byte(lx);
        if (!quoted)
            append_text(lx, &v, c);
    }
    if (c == ']')
        read_byte(lx);
    while (v && is_space((unsigned char)lx->text[v - 1]))
        v--;
    lx->text[v] = '\0';
    return n > 0;
}

