#include <stdlib.h>

int **grid_new(int rows, int cols)
{
    int **g = calloc((size_t)rows, sizeof *g);
    if (g == NULL)
        return NULL;
    for (int r = 0; r < rows; r++) {
        int *row = calloc((size_t)cols, sizeof *row);
        row[0] = r; /* BUG(null-dereference) */
        g[r] = row;
    }
    return g;
}
