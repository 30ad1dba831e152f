/* See suites.h. */
#include "suites.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "formats/epd.h"
#include "test.h"

void for_each_suite_position(void (*visit)(void *ctx, Position *pos), void *ctx)
{
    char dir_path[512];
    test_data_path("epd", dir_path, sizeof dir_path);
    DIR *dir = opendir(dir_path);
    if (!CHECK_MSG(dir != NULL, "cannot open %s", dir_path))
        return;
    struct dirent *de;
    while ((de = readdir(dir))) {
        if (!strstr(de->d_name, ".epd"))
            continue;
        char path[1024], line[4096], err[160];
        snprintf(path, sizeof path, "%s/%s", dir_path, de->d_name);
        FILE *f = fopen(path, "r");
        if (!CHECK_MSG(f != NULL, "cannot open %s", path))
            continue;
        static Position pos;
        static EpdRecord rec;
        while (fgets(line, sizeof line, f))
            if (!epd_is_blank(line) && epd_parse(line, &pos, &rec, err, sizeof err))
                visit(ctx, &pos);
        fclose(f);
    }
    closedir(dir);
}
