/* The tuner's weight files: see weightfile.h. */
#include "tune/weightfile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/params.h"
#include "util/outfile.h"

bool weightfile_write(const char *path, const TuneLayout *layout, const double *theta, double k,
                      double loss)
{
    OutFile of;
    char err[256], name[96];
    FILE *f = outfile_open(&of, path, err, sizeof err);
    if (!f) {
        fprintf(stderr, "tuner: %s\n", err);
        return false;
    }
    fprintf(f, "# Saavedra tuner weights (K %.6f, loss %.8f); read back with tuner -i\n", k, loss);
    for (int i = 0; i < layout->count; i++)
        fprintf(f, "%s %.6f\n", params_name(i, name, sizeof name), theta[i]);
    if (!outfile_commit(&of, err, sizeof err)) {
        fprintf(stderr, "tuner: %s\n", err);
        return false;
    }
    return true;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *t = realloc(text, cap *= 2);
            if (!t) {
                free(text);
                text = NULL;
            }
            text = t;
        }
    }
    if (text)
        text[n] = '\0';
    fclose(f);
    return text;
}

bool weightfile_read(const char *path, const TuneLayout *layout, double *theta)
{
    char *text = read_text(path);
    if (!text) {
        fprintf(stderr, "tuner: cannot read %s\n", path);
        return false;
    }
    char err[256];
    bool ok = true;
    if (strstr(text, "S(") || strstr(text, "EvalParams") || text[strspn(text, " \t\r\n")] == '.') {
        EvalParams p = DEFAULT_PARAMS;
        /* A whole params.c: the table starts at its definition. */
        const char *table = strstr(text, "EvalParams DEFAULT_PARAMS");
        if (!params_parse(&p, table ? table : text, err, sizeof err)) {
            fprintf(stderr, "tuner: %s: %s\n", path, err);
            ok = false;
        } else {
            tune_theta_from_params(layout, &p, theta);
        }
        free(text);
        return ok;
    }
    char name[96];
    int line_no = 0;
    for (char *line = strtok(text, "\n"); line && ok; line = strtok(NULL, "\n")) {
        line_no++;
        char key[96];
        double value;
        if (line[strspn(line, " \t\r")] == '#' || line[strspn(line, " \t\r")] == '\0')
            continue;
        if (sscanf(line, "%95s %lf", key, &value) != 2 || !isfinite(value) || fabs(value) > 32000) {
            fprintf(stderr, "tuner: %s:%d: expected \"name value\"\n", path, line_no);
            ok = false;
            break;
        }
        int k = -1;
        for (int i = 0; i < layout->count && k < 0; i++)
            if (!strcmp(params_name(i, name, sizeof name), key))
                k = i;
        if (k < 0) {
            fprintf(stderr, "tuner: %s:%d: unknown weight %s\n", path, line_no, key);
            ok = false;
        } else {
            theta[k] = value;
        }
    }
    free(text);
    return ok;
}

/* The template is copied up to the end of its BEGIN line and from its END line on. */
bool weightfile_write_params_c(const char *template_path, const char *out_path,
                               const TuneLayout *layout, const double *theta, const char *comment)
{
    const char *path = template_path;
    char *text = read_text(path);
    if (!text) {
        fprintf(stderr, "tuner: cannot read the template %s (give --template)\n", path);
        return false;
    }
    char *begin = strstr(text, "/* ---- BEGIN TUNED PARAMETERS");
    char *end = begin ? strstr(begin, "/* ---- END TUNED PARAMETERS ---- */") : NULL;
    char *begin_end = begin ? strchr(begin, '\n') : NULL;
    if (!begin || !end || !begin_end) {
        fprintf(stderr, "tuner: %s has no BEGIN/END TUNED PARAMETERS markers\n", path);
        free(text);
        return false;
    }
    EvalParams p;
    tune_params_from_theta(layout, theta, &p);
    OutFile of;
    char err[256];
    FILE *f = outfile_open(&of, out_path, err, sizeof err);
    if (!f) {
        fprintf(stderr, "tuner: %s\n", err);
        free(text);
        return false;
    }
    fwrite(text, 1, (size_t)(begin_end + 1 - text), f);
    fprintf(f, "/* %s */\n", comment);
    params_print_c(&p, f);
    fputs(end, f);
    free(text);
    if (!outfile_commit(&of, err, sizeof err)) {
        fprintf(stderr, "tuner: %s\n", err);
        return false;
    }
    return true;
}
