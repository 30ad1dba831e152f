/* EPD reader: arbitrary text as one EPD record. A record accepted must format back into
 * a line that reads as the same record; its move operations are read as moves. */
#include "fuzz.h"

#include "board/movegen.h"
#include "formats/epd.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Position pos, pos2;
    static EpdRecord rec, rec2;
    static char line[2 * EPD_TEXT_SIZE + 256], line2[2 * EPD_TEXT_SIZE + 256];
    char *text = fuzz_cstr(data, size);
    char err[256];
    epd_is_blank(text);
    if (epd_parse(text, &pos, &rec, err, sizeof err)) {
        static const char *const OPS[] = { "bm", "am", "pm", "sm" };
        for (size_t i = 0; i < sizeof OPS / sizeof *OPS; i++) {
            Move moves[16];
            int n = epd_moves(&rec, &pos, OPS[i], moves, 16, err, sizeof err);
            for (int k = 0; k < n; k++)
                fuzz_require(move_is_legal(&pos, moves[k]));
        }
        epd_string(&rec, "id");
        if (epd_format(&rec, line, sizeof line)) {
            fuzz_require(epd_parse(line, &pos2, &rec2, err, sizeof err));
            fuzz_require(epd_format(&rec2, line2, sizeof line2));
            fuzz_require(!strcmp(line, line2));
        }
    } else {
        fuzz_require(err[0] && !strchr(err, '\n'));
    }
    free(text);
    return 0;
}
