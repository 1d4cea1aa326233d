#include <stdio.h>
#include <string.h>

struct entry { const char *key; int hits; };

static unsigned long lookups, misses;

static void note_lookup(const struct entry *e, const char *key)
{
    lookups++;
    fprintf(stderr, "lookup %s -> %p\n", key, (const void *)e);
}

static struct entry *find(struct entry *table, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(table[i].key, key) == 0)
            return &table[i];
    return NULL;
}

int count_use(struct entry *table, int n, const char *key)
{
    struct entry *e = find(table, n, key);
    if (e == NULL) {
        misses++;
        note_lookup(e, key);
        return 0;
    }
    note_lookup(e, key);
    return ++e->hits;
}
