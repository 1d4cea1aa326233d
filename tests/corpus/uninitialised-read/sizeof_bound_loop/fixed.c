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

int heaviest_rule(void)
{
    size_t i;
    int best;
    for (i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        if (i == 0 || rules[i].weight > best)
            best = rules[i].weight;
    }
    return best;
}

unsigned char top_key_byte(const unsigned char *key)
{
    unsigned i;
    unsigned char top;
    for (i = 0; i < sizeof(unsigned); i++) {
        if (i == 0 || key[i] > top)
            top = key[i];
    }
    return top;
}
