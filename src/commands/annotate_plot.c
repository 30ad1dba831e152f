/* Evaluation graphs through gnuplot: see annotate_plot.h. */
#include "commands/annotate_plot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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

bool annotate_plot_folder(const char *dir, char *err, size_t err_size)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        snprintf(err, err_size, "folder name too long: %s", dir);
        return false;
    }
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0777); /* an existing one is fine; a real failure shows below */
            *p = '/';
        }
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        snprintf(err, err_size, "cannot create folder %s: %s", dir, strerror(errno));
        return false;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, err_size, "%s is not a folder", dir);
        return false;
    }
    return true;
}

/* The first line of what gnuplot wrote to stderr (in path, removed), "" if none. */
static void first_complaint(const char *path, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    char line[300];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[strspn(line, " \t^")]) {
            snprintf(out, size, "%s", line + strspn(line, " \t"));
            break;
        }
    }
    if (f)
        fclose(f);
    remove(path);
}

static PlotStatus no_gnuplot(char *err, size_t err_size)
{
    snprintf(err, err_size, "gnuplot not found in PATH: no graphs (Debian package gnuplot-nox)");
    return PLOT_NO_GNUPLOT;
}

PlotStatus annotate_plot(const AnnotatedGame *g, const char *dir, long game, bool svg,
                         const char *title, char *err, size_t err_size)
{
    char data[4200], image[4200], tmp[4300], safe[256];
    snprintf(data, sizeof data, "%s/game-%ld.dat", dir, game);
    snprintf(image, sizeof image, "%s/game-%ld.%s", dir, game, svg ? "svg" : "png");
    snprintf(tmp, sizeof tmp, "%s.tmp", image);
    FILE *f = fopen(data, "w");
    if (!f) {
        snprintf(err, err_size, "cannot write %s: %s", data, strerror(errno));
        return PLOT_FAILED;
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
        return PLOT_FAILED;
    }
    quote_free(title, safe, sizeof safe);
    char log[4300];
    snprintf(log, sizeof log, "%s.log", image);
    PfChild gnuplot;
    int started = pf_child_open(&gnuplot, "gnuplot", log);
    if (started != 0) {
        remove(data);
        if (started == PF_CHILD_NOT_FOUND)
            return no_gnuplot(err, err_size);
        snprintf(err, err_size, "cannot run gnuplot: %s", strerror(errno));
        return PLOT_FAILED;
    }
    FILE *gp = gnuplot.to;
    fprintf(gp, "set terminal %s size 900,420\n", svg ? "svg" : "pngcairo");
    fprintf(gp, "set output '%s'\n", tmp);
    fprintf(gp, "set title 'Saavedra: %s'\nset xlabel 'move'\n"
                "set ylabel 'evaluation (pawns, White)'\n", safe);
    fprintf(gp, "set yrange [-%.0f:%.0f]\nset grid\nset key bottom left\n", PLOT_CAP, PLOT_CAP);
    fprintf(gp, "plot '%s' using 1:2 with filledcurves y=0 lc rgb '#b0c4de' notitle, "
                "'' using 1:2 with lines lw 2 lc rgb '#1f3b73' title 'evaluation', "
                "'' using 1:($3 > 0 ? $2 : 1/0) with points pt 7 ps 1.5 lc rgb '#d62728' "
                "title 'marked move'\n",
            data);
    int status = pf_child_close(&gnuplot);
    remove(data);
    char why[300];
    first_complaint(log, why, sizeof why);
    if (status == PF_CHILD_NOT_FOUND) {
        remove(tmp);
        return no_gnuplot(err, err_size);
    }
    if (status != 0) {
        remove(tmp);
        snprintf(err, err_size, "gnuplot could not draw %s: %s", image, why[0] ? why : "it failed");
        return PLOT_FAILED;
    }
    if (rename(tmp, image) != 0) {
        snprintf(err, err_size, "cannot rename %s to %s: %s", tmp, image, strerror(errno));
        remove(tmp);
        return PLOT_FAILED;
    }
    return PLOT_DRAWN;
}
