/* Learning-file parser: arbitrary bytes as a learning file image, as they are, behind a
 * valid header (first byte odd), and (first byte 3 mod 4) as the contents of records
 * encoded with valid checksums, one byte then flipped. Whatever the bytes, the parse must
 * stay within them and only a wholly valid image may be called OK. */
#include "fuzz.h"

#include "board/position.h"
#include "learning/learnrec.h"

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

/* Takes n bytes from the input (zeros past its end). */
static void take(const uint8_t **data, size_t *size, void *out, size_t n)
{
    size_t k = n < *size ? n : *size;
    memset(out, 0, n);
    memcpy(out, *data, k);
    *data += k;
    *size -= k;
}

/* A header and whole records encoded from the input's bytes (valid checksums, arbitrary
 * contents), then one byte flipped where the last two bytes say: the decoding of every
 * record kind is reached, and damage inside a valid file. */
static void parse_encoded(const uint8_t *data, size_t size)
{
    static uint8_t image[1 << 16], codes[256];
    size_t n = LEARN_HEADER_SIZE;
    learn_header_make(image);
    uint16_t flip = 0;
    if (size >= 2) {
        flip = (uint16_t)(data[size - 2] | data[size - 1] << 8);
        size -= 2;
    }
    while (size > 0 && n < sizeof image - 512) {
        uint8_t kind;
        take(&data, &size, &kind, 1);
        size_t w = 0;
        if (kind % 3 == 0) {
            LearnPosition p;
            take(&data, &size, &p.key, sizeof p.key);
            take(&data, &size, &p.code, 1);
            take(&data, &size, &p.score, sizeof p.score);
            take(&data, &size, &p.depth, 1);
            p.has_move = p.code & 1;
            w = learn_encode_position(&p, image + n, sizeof image - n);
        } else if (kind % 3 == 1) {
            LearnBookStat b;
            take(&data, &size, &b.key, sizeof b.key);
            take(&data, &size, &b.code, 1);
            take(&data, &size, &b.wins, sizeof b.wins);
            take(&data, &size, &b.draws, sizeof b.draws);
            take(&data, &size, &b.losses, sizeof b.losses);
            w = learn_encode_book(&b, image + n, sizeof image - n);
        } else {
            static LearnGame g;
            uint8_t head[4];
            take(&data, &size, head, 4);
            g.result = head[0] & 3;
            g.own_side = head[1] % 3;
            g.flags = head[2] & 3;
            size_t fen_len = (g.flags & LEARN_GAME_STARTPOS) ? 0 : head[3] % 90;
            take(&data, &size, g.fen, fen_len);
            g.fen[fen_len] = '\0';
            uint8_t plies;
            take(&data, &size, &plies, 1);
            take(&data, &size, codes, plies);
            g.ply_count = plies;
            g.codes = codes;
            w = learn_encode_game(&g, image + n, sizeof image - n);
        }
        n += w;
    }
    if (flip && n > 0)
        image[flip % n] ^= (uint8_t)(1u << (flip % 8));
    parse(image, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    parse(data, size);
    if (size > 0 && data[0] % 4 == 3)
        parse_encoded(data + 1, size - 1);
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
