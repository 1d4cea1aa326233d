#include <stdio.h>

struct dev { const char *name; int irq; };

int dev_irq(const struct dev *d)
{
    if (d == NULL) {
        fprintf(stderr, "no irq for %s\n", d->name); /* BUG(known-null-dereference) */
        return -1;
    }
    return d->irq;
}
