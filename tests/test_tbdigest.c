/* A digest of tablebase answers (WDL of every position, DTZ-based rank and value of every
 * root move) over random legal positions of each material in tests/data/syzygy. Its value
 * is printed, so that builds with different Fathoms can be compared (make test-static
 * compares the libfathom build's with the one compiled from src/external/fathom). */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "board/fen.h"
#include "board/position.h"
#include "tablebase/syzygy.h"
#include "test.h"

#define PLACEMENTS 50 /* random placements tried per material and side to move */

static uint64_t mix(uint64_t h, int64_t v)
{
    return (h ^ (uint64_t)v) * 0x100000001b3ull;
}

/* "KBNvK" -> a FEN of those pieces on random squares (White first), or false. */
static bool random_fen(const char *material, int side, uint64_t *seed, char *fen, size_t size)
{
    char board[64];
    memset(board, 0, sizeof board);
    bool white = true;
    for (const char *p = material; *p && *p != '.'; p++) {
        if (*p == 'v') {
            white = false;
            continue;
        }
        int sq;
        do {
            *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
            sq = (int)(*seed >> 58);
        } while (board[sq] || (*p == 'P' && (sq < 8 || sq >= 56)));
        board[sq] = white ? *p : (char)(*p + 32);
    }
    if (size < 100) /* what fen_from_squares writes at most */
        return false;
    fen_from_squares(board, side ? BLACK : WHITE, fen);
    return true;
}

TEST(syzygy_probe_digest)
{
    char dir[512], warning[256];
    if (!CHECK(syzygy_load(test_data_path("syzygy", dir, sizeof dir), warning, sizeof warning) > 0))
        return;
    DIR *d = opendir(dir);
    if (!CHECK(d != NULL))
        return;
    char names[64][24];
    int materials = 0;
    struct dirent *e;
    while ((e = readdir(d)) && materials < 64)
        if (strstr(e->d_name, ".rtbw") && strlen(e->d_name) < sizeof names[0])
            memcpy(names[materials++], e->d_name, strlen(e->d_name) + 1);
    closedir(d);
    /* Sorted, so the digest does not depend on the directory's order. */
    qsort(names, (size_t)materials, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    SyzygyConfig cfg = {.pieces = 7, .probe_depth = 0, .rule50 = true};
    uint64_t h = 0xcbf29ce484222325ull, seed = 1;
    int probed = 0, ranked = 0;
    for (int m = 0; m < materials; m++)
        for (int side = 0; side < 2; side++)
            for (int i = 0; i < PLACEMENTS; i++) {
                char fen[100], err[160];
                Position pos;
                if (!random_fen(names[m], side, &seed, fen, sizeof fen)
                    || !position_from_fen(&pos, fen, err, sizeof err, NULL))
                    continue;
                int wdl;
                if (!syzygy_probe_wdl(&pos, &wdl))
                    continue;
                probed++;
                h = mix(mix(h, m), wdl);
                SyzygyRoot root;
                if (syzygy_rank_root(&cfg, &pos, 0, &root) && root.active) {
                    ranked++;
                    for (int k = 0; k < root.count; k++)
                        h = mix(mix(mix(h, root.moves[k]), root.rank[k]), root.value[k]);
                }
            }
    CHECK_MSG(probed > materials * PLACEMENTS / 4 && ranked > 0, "%d positions probed, %d ranked", probed, ranked);
    printf("    tablebase digest %016llx over %d positions (%d ranked)\n", (unsigned long long)h, probed, ranked);
    syzygy_load("", NULL, 0);
}
