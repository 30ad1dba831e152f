/* engine.rc reader: arbitrary bytes as an rc file, applied to a real engine's options
 * through the start-up path (config_apply_setting). Settings whose cost is not a bug are
 * skipped (Hash: gigabytes; SyzygyPath: a file-system walk; Threads), and so are those
 * naming files the engine would write or read (LearningFile, Learning, BookFile). */
#include "fuzz.h"

#include "engine/config.h"
#include "engine/engine.h"
#include "eval/evaluate.h"
#include "search/search.h"
#include "util/rcfile.h"

static Engine *engine;
static Config cfg;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init();
    eval_init();
    search_init();
    engine = engine_new();
    if (!engine)
        abort();
    return 0;
}

static bool apply(void *ctx, const char *key, const char *value, char *err, size_t err_size)
{
    (void)ctx;
    /* Keys are matched loosely ("has h" is Hash): skipped by the same rule. */
    static const char *const SKIP[] = { "Hash", "Threads", "SyzygyPath", "LearningFile", "Learning",
                                        "BookFile", NULL };
    for (const char *const *w = SKIP; *w; w++)
        if (rc_key_equal(key, *w))
            return true;
    cfg.log_path[0] = '\0';
    return config_apply_setting(engine, &cfg, key, value, err, err_size);
}

static void warn(void *ctx, const char *msg)
{
    (void)ctx;
    fuzz_require(msg && !strchr(msg, '\n'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in)
        return 0;
    RcSink sink = { apply, NULL, warn, NULL };
    RcResult r = rcfile_read_stream(in, "fuzz.rc", &sink);
    fuzz_require(r.applied >= 0 && r.warnings >= 0);
    fclose(in);
    return 0;
}
