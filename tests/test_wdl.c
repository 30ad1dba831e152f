/* The win/draw/loss model of UCI_ShowWDL (eval/wdl.h). */
#include <stdlib.h>

#include "eval/wdl.h"
#include "test.h"

TEST(wdl_model_shape)
{
    for (int material = 0; material <= 80; material += 4) {
        Wdl previous = wdl_from_cp(-3000, material);
        for (int cp = -3000; cp <= 3000; cp += 25) {
            Wdl w = wdl_from_cp(cp, material);
            CHECK_MSG(w.win >= 0 && w.draw >= 0 && w.loss >= 0 && w.win + w.draw + w.loss == 1000,
                      "cp %d material %d: %d %d %d", cp, material, w.win, w.draw, w.loss);
            /* A better score never lowers the win share nor raises the loss share. */
            CHECK_MSG(w.win >= previous.win && w.loss <= previous.loss, "not monotone at cp %d", cp);
            /* The model is symmetric: the opponent's view swaps win and loss. */
            Wdl other = wdl_from_cp(-cp, material);
            CHECK_MSG(abs(w.win - other.loss) <= 1 && abs(w.loss - other.win) <= 1, "not symmetric at cp %d", cp);
            previous = w;
        }
    }
    Wdl level = wdl_from_cp(0, 58), up = wdl_from_cp(300, 58), far = wdl_from_cp(1000, 58);
    CHECK(level.draw > level.win && level.win == level.loss); /* masters draw level positions most */
    CHECK(up.win > 600 && far.win > 950 && far.loss < 10);
    /* The same score means more with less material on the board. */
    CHECK(wdl_from_cp(150, 20).win > wdl_from_cp(150, 70).win);
    CHECK(wdl_from_mate(3).win == 1000 && wdl_from_mate(-2).loss == 1000);
}
