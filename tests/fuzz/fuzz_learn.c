/* Learning-file parser: arbitrary bytes as a learning file image, as they are and behind
 * a valid header (first byte odd), so that records are reached. Whatever the bytes, the
 * parse must stay within them and only a wholly valid image may be called OK. */
#include "fuzz.h"

#include "board/position.h"
#include "opening/learnrec.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init(); /* records are checked against positions */
    return 0;
}

static void count_position(void *ctx, const LearnPosition *p)
{
    (void)p;
    ++*(int *)ctx;
}

static void count_game(void *ctx, const LearnGame *g)
{
    (void)g;
    ++*(int *)ctx;
}

static void count_book(void *ctx, const LearnBookStat *b)
{
    (void)b;
    ++*(int *)ctx;
}

static void parse(const uint8_t *image, size_t size)
{
    int visited = 0;
    LearnVisitor v = { count_position, count_game, count_book, &visited };
    LearnParse out;
    learn_parse(image, size, &v, &out);
    fuzz_require(out.valid_end <= size);
    fuzz_require(out.positions >= 0 && out.games >= 0 && out.books >= 0 && out.others >= 0);
    fuzz_require(visited == out.positions + out.games + out.books);
    fuzz_require(out.status != LEARN_PARSE_OK || out.valid_end == size);
    fuzz_require(!strchr(out.why, '\n'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parse(data, size);
    if (size > 0 && (data[0] & 1)) {
        uint8_t *image = malloc(LEARN_HEADER_SIZE + size);
        if (!image)
            abort();
        learn_header_make(image);
        memcpy(image + LEARN_HEADER_SIZE, data + 1, size - 1);
        parse(image, LEARN_HEADER_SIZE + size - 1);
        free(image);
    }
    return 0;
}
