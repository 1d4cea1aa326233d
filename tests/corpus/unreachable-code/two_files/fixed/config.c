#include <stdio.h>
#include <string.h>
#include "fatal.h"

struct config { char path[256]; int verbose; };

int load_config(struct config *cfg, const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fatal("cannot open the configuration");
        return -1;
    }
    strncpy(cfg->path, path, sizeof cfg->path - 1);
    cfg->path[sizeof cfg->path - 1] = '\0';
    cfg->verbose = fgetc(f) == 'v';
    fclose(f);
    return 0;
}
