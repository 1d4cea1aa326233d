/* path_new takes over the caller's array, or copies it when asked to: the caller passes 0, so its
   array becomes the path's, and the copying branch (which would leave it to the caller) never runs. */
#include <stdlib.h>
#include <string.h>

struct path {
    long count;
    double *xy;
};

static double *alloc_array(long count)
{
    return malloc(count * 2 * sizeof(double));
}

static struct path *path_new(long count, double *xy, int duplicate)
{
    struct path *path;
    if (duplicate) {
        double *p = alloc_array(count);
        if (!p) {
            return NULL;
        }
        memcpy(p, xy, count * 2 * sizeof(double));
        xy = p;
    }
    path = malloc(sizeof *path);
    if (path == NULL) {
        free(xy);
        return NULL;
    }
    path->count = count;
    path->xy = xy;
    return path;
}

struct path *path_create(long count)
{
    double *xy = alloc_array(count);
    if (!xy) {
        return NULL;
    }
    return path_new(count, xy, 0);
}
