#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct rule {
    const char *name;
    int weight;
};

static const struct rule rules[] = {
    { "alpha", 3 },
    { "beta", 5 },
    { "gamma", 7 },
};

int heaviest_rule(void)
{
    size_t i;
    int best;
    for (i = 0; i < ARRAY_SIZE(rules); i++) {
        if (i == 0 || rules[i].weight > best)
            best = rules[i].weight;
    }
    return best;
}
