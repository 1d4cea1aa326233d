#include <stdlib.h>
#include <string.h>

struct entry { char *name; char *value; int owned; };

void entry_clear(struct entry *e)
{
    char *name = NULL;
    char *value = NULL;
    if (e->owned) {
        name = e->name;
        e->owned = 0; /* forgets value = e->value */
    }
    e->name = NULL;
    e->value = NULL;
    free(name);
    free(value); /* BUG(free-of-null) */
}
