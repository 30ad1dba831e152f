/* Parser of the perft suite format used by tests/data/perftsuite.epd and cpw.epd. */
#include "perft_data.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

static bool parse_line(const char *line, PerftEntry *e)
{
    const char *semi = strchr(line, ';');
    if (!semi)
        return false;
    size_t len = (size_t)(semi - line);
    while (len && isspace((unsigned char)line[len - 1]))
        len--;
    if (!len || len >= sizeof e->fen)
        return false;
    memcpy(e->fen, line, len);
    e->fen[len] = '\0';
    e->depth_count = 0;
    for (const char *p = semi; p && *p == ';'; p = strchr(p + 1, ';')) {
        int depth;
        unsigned long long nodes;
        if (sscanf(p, ";D%d %llu", &depth, &nodes) != 2 || depth < 1 || depth > 20
            || e->depth_count >= PERFT_MAX_DEPTHS)
            return false;
        if (e->depth_count && depth <= e->depth[e->depth_count - 1])
            return false;
        e->depth[e->depth_count] = depth;
        e->nodes[e->depth_count++] = nodes;
    }
    return e->depth_count > 0;
}

int perft_data_load(const char *name, PerftEntry **out)
{
    char path[512], line[1024];
    *out = NULL;
    FILE *f = fopen(test_data_path(name, path, sizeof path), "r");
    if (!CHECK_MSG(f != NULL, "cannot open %s (run from the repository root)", path))
        return -1;
    int count = 0, cap = 0, line_no = 0;
    PerftEntry *entries = NULL;
    while (fgets(line, sizeof line, f)) {
        line_no++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            PerftEntry *grown = realloc(entries, (size_t)cap * sizeof *entries);
            if (!grown)
                break;
            entries = grown;
        }
        if (!CHECK_MSG(parse_line(line, &entries[count]), "%s:%d: malformed perft line", path, line_no)) {
            fclose(f);
            free(entries);
            return -1;
        }
        count++;
    }
    fclose(f);
    *out = entries;
    return count;
}
