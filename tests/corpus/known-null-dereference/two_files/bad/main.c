#include <string.h>
#include "dev.h"

static struct dev table[] = { { "eth0", 11 }, { "sda", 14 } };

void show(const char *name)
{
    const struct dev *d = NULL;
    for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].name, name) == 0) {
            d = &table[i];
            break;
        }
    }
    print_dev(d); /* BUG(known-null-dereference) */
}
