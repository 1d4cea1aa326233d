#include <stddef.h>

#define COUNT(n) (n)

struct rule {
    const char *name;
    int weight;
};

int heaviest(const struct rule *table, size_t n)
{
    size_t i;
    int best;
    for (i = 0; i < COUNT(n); i++) {
        if (i == 0 || table[i].weight > best)
            best = table[i].weight;
    }
    return best; /* BUG(uninitialised-read) */
}
