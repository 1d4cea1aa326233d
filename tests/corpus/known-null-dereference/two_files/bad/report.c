#include <stdio.h>
#include "dev.h"

void print_dev(const struct dev *d)
{
    printf("%s: irq %d\n", d->name, d->irq);
}
