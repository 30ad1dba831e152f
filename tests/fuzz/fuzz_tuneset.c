/* The tuner's EPD reader: arbitrary bytes as a training file (labelled EPD lines). Every
 * position it keeps must read back as a position, with a label of 0, 0.5 or 1; no more
 * positions than asked for. */
#include <unistd.h>

#include "board/position.h"
#include "tune/dataset.h"
#include "fuzz.h"

static char set_path[64];
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    position_init();
    snprintf(set_path, sizeof set_path, "/dev/shm/saavedra-fuzz-tune-%ld.epd", (long)getpid());
    if (access("/dev/shm", W_OK) != 0)
        snprintf(set_path, sizeof set_path, "/tmp/saavedra-fuzz-tune-%ld.epd", (long)getpid());
    sink = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Position pos;
    FILE *f = fopen(set_path, "wb");
    if (!f)
        return 0;
    bool written = fwrite(data, 1, size, f) == size;
    if (fclose(f) != 0 || !written)
        return 0;
    long max = size ? 1 + data[0] % 64 : 0;
    TuneSet set;
    tune_set_init(&set);
    fuzz_require(tune_set_read(&set, set_path, max, sink));
    fuzz_require(!max || set.count <= max);
    for (long i = 0; i < set.count; i++) {
        char err[160];
        fuzz_require(position_from_fen(&pos, set.text + set.fen_offset[i], err, sizeof err, NULL));
        float l = set.label[i];
        fuzz_require(l == 0.0f || l == 0.5f || l == 1.0f);
    }
    tune_set_free(&set);
    unlink(set_path);
    return 0;
}
