#include <string.h>

struct rule {
    const char *name;
    int weight;
};

static const struct rule rules[] = {
    { "alpha", 3 },
    { "beta", 5 },
    { "gamma", 7 },
};

int heaviest(const struct rule *table, size_t count)
{
    size_t i;
    int best;
    for (i = 0; i < count; i++) {
        if (i == 0 || table[i].weight > best)
            best = table[i].weight;
    }
    return best; /* BUG(uninitialised-read) */
}

int default_weight(void)
{
    return heaviest(rules, sizeof rules / sizeof rules[0]);
}
