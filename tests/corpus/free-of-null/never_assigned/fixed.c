#include <stdlib.h>
#include <string.h>

struct entry { char *name; char *value; int owned; };

void entry_clear(struct entry *e)
{
    char *name = NULL;
    char *value = NULL;
    if (e->owned) {
        name = e->name;
        value = e->value;
        e->owned = 0;
    }
    e->name = NULL;
    e->value = NULL;
    free(name);
    free(value);
}
