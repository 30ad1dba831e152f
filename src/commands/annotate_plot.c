/* Evaluation graphs through gnuplot: see annotate_plot.h. */
#include "commands/annotate_plot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "search/search.h"
#include "util/platform.h"

#define PLOT_CAP 10.0

static double pawns(int white_score)
{
    SearchReport r;
    search_score_to_report(white_score, &r);
    double v = r.is_mate ? (r.mate_moves > 0 ? PLOT_CAP : -PLOT_CAP) : r.cp / 100.0;
    return v > PLOT_CAP ? PLOT_CAP : v < -PLOT_CAP ? -PLOT_CAP : v;
}

/* gnuplot reads the title inside single quotes: those are dropped from it. */
static void quote_free(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (; *in && n + 1 < size; in++)
        if (*in != '\'' && *in != '\\' && (unsigned char)*in >= ' ')
            out[n++] = *in;
    out[n] = '\0';
}

bool annotate_plot(const AnnotatedGame *g, const char *dir, long game, bool svg, const char *title, char *err,
                   size_t err_size)
{
    char data[4200], image[4200], tmp[4300], safe[256];
    snprintf(data, sizeof data, "%s/game-%ld.dat", dir, game);
    snprintf(image, sizeof image, "%s/game-%ld.%s", dir, game, svg ? "svg" : "png");
    snprintf(tmp, sizeof tmp, "%s.tmp", image);
    FILE *f = fopen(data, "w");
    if (!f) {
        snprintf(err, err_size, "cannot write %s: %s", data, strerror(errno));
        return false;
    }
    /* x = move number of the position after the move (1.5 = after Black's first). */
    int points = 0;
    for (int i = 0; i <= g->plies; i++) {
        if (!g->score_known[i])
            continue;
        const AnnotatedMove *m = i > 0 ? &g->moves[i - 1] : NULL;
        bool marked = m && m->mark != MARK_NONE;
        double x = (g->start.game_ply + i) / 2.0 + 1.0;
        fprintf(f, "%.1f %.2f %s\n", x, pawns(g->white_score[i]), marked ? "1" : "0");
        points++;
    }
    bool wrote = !ferror(f);
    wrote &= fclose(f) == 0;
    if (!wrote || points == 0) {
        remove(data);
        if (points)
            snprintf(err, err_size, "cannot write %s", data);
        else
            snprintf(err, err_size, "game %ld: no position analysed to draw", game);
        return false;
    }
    quote_free(title, safe, sizeof safe);
    FILE *gp = popen("gnuplot 2>/dev/null", "w");
    if (!gp) {
        remove(data);
        snprintf(err, err_size, "cannot run gnuplot (Debian package gnuplot-nox)");
        return false;
    }
    fprintf(gp, "set terminal %s size 900,420\n", svg ? "svg" : "pngcairo");
    fprintf(gp, "set output '%s'\n", tmp);
    fprintf(gp, "set title 'Saavedra: %s'\nset xlabel 'move'\nset ylabel 'evaluation (pawns, White)'\n", safe);
    fprintf(gp, "set yrange [-%.0f:%.0f]\nset grid\nset key bottom left\n", PLOT_CAP, PLOT_CAP);
    fprintf(gp, "plot '%s' using 1:2 with filledcurves y=0 lc rgb '#b0c4de' notitle, "
                "'' using 1:2 with lines lw 2 lc rgb '#1f3b73' title 'evaluation', "
                "'' using 1:($3 > 0 ? $2 : 1/0) with points pt 7 ps 1.5 lc rgb '#d62728' title 'marked move'\n",
            data);
    int status = pclose(gp);
    remove(data);
    if (status != 0 || rename(tmp, image) != 0) {
        remove(tmp);
        snprintf(err, err_size, "gnuplot could not draw %s (Debian package gnuplot-nox)", image);
        return false;
    }
    return true;
}
