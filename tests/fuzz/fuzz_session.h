/* The common part of the protocol harnesses (fuzz_uci.c, fuzz_xboard.c): one engine kept
 * across inputs, each input run as a whole session through the protocol's loop to end of
 * input, with the lines dropped whose cost is not a bug (bench, a 100 GB hash table, a
 * file system walk, files written). End of input stops any search at once, so every
 * session ends; afterwards no search may still be running. */
#ifndef SAAVEDRA_FUZZ_SESSION_H
#define SAAVEDRA_FUZZ_SESSION_H

#include "fuzz.h"

#include "engine/engine.h"
#include "eval/evaluate.h"
#include "search/search.h"
#include "util/writer.h"

typedef int (*FuzzLoop)(Engine *e, FILE *in, Writer *out, const char *first_line);

typedef struct {
    Engine *engine;
    FILE *sink;
    Writer out;  /* to sink */
} FuzzSession;

static inline void fuzz_session_init(FuzzSession *s)
{
    position_init();
    eval_init();
    search_init();
    s->engine = engine_new();
    s->sink = fopen("/dev/null", "w");
    if (!s->engine || !s->sink)
        abort();
    writer_init(&s->out, s->sink, NULL);
}

static inline void fuzz_session_run(FuzzSession *s, FuzzLoop loop, const char *const *drop, const uint8_t *data,
                                    size_t size)
{
    size_t n;
    char *text = fuzz_drop_lines(data, size, drop, &n);
    FILE *in = n ? fmemopen(text, n, "r") : NULL;
    if (in) {
        loop(s->engine, in, &s->out, NULL);
        fuzz_require(!engine_is_searching(s->engine));
        fclose(in);
    }
    free(text);
}

#endif
