/* Compares the KPK bitbase (src/eval/kpk.c) with the Syzygy KPvK table for every legal
 * placement and side to move, with the pawn on either side.
 *
 * Needs KPvK.rtbw. Built by `make tools`; from the repository root:
 *   build/native/tools/kpk_syzygy_check tests/data/syzygy
 */
#include <stdio.h>
#include <tbprobe.h>

#include "eval/evaluate.h"
#include "eval/kpk.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kpk-syzygy-check SYZYGY_DIR\n");
        return 2;
    }
    position_init();
    eval_init();
    if (!tb_init(argv[1]) || TB_LARGEST < 3) {
        fprintf(stderr, "error: no 3-man Syzygy tables in %s\n", argv[1]);
        return 1;
    }
    long positions = 0, wins = 0, mismatches = 0;
    for (Color stm = WHITE; stm <= BLACK; stm++)
        for (Square wk = 0; wk < SQUARE_NB; wk++)
            for (Square bk = 0; bk < SQUARE_NB; bk++)
                for (Square p = A2; p <= H7; p++) {
                    if (wk == bk || wk == p || bk == p || DISTANCE[wk][bk] <= 1)
                        continue;
                    if (stm == WHITE && (PAWN_ATTACKS[WHITE][p] & square_bb(bk)))
                        continue; /* the side not to move would be in check */
                    Bitboard white = square_bb(wk) | square_bb(p), black = square_bb(bk);
                    unsigned r = tb_probe_wdl(white, black, square_bb(wk) | square_bb(bk), 0, 0, 0, 0,
                                              square_bb(p), 0, 0, 0, stm == WHITE);
                    if (r == TB_RESULT_FAILED) {
                        fprintf(stderr, "error: probe failed\n");
                        return 1;
                    }
                    bool tb_win = stm == WHITE ? r == TB_WIN || r == TB_CURSED_WIN
                                               : r == TB_LOSS || r == TB_BLESSED_LOSS;
                    bool ours = kpk_probe(WHITE, wk, p, bk, stm);
                    bool flipped = kpk_probe(BLACK, wk ^ 56, p ^ 56, bk ^ 56, !stm);
                    positions++;
                    wins += tb_win;
                    if (ours != tb_win || flipped != tb_win) {
                        if (mismatches++ < 20)
                            printf("mismatch: K%d P%d k%d %s to move: syzygy %s, bitbase %s/%s\n", wk, p, bk,
                                   stm == WHITE ? "white" : "black", tb_win ? "win" : "draw",
                                   ours ? "win" : "draw", flipped ? "win" : "draw");
                    }
                }
    printf("%ld positions (%ld wins), %ld mismatches\n", positions, wins, mismatches);
    return mismatches != 0;
}
