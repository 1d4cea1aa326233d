#ifndef DEV_H
#define DEV_H

struct dev { const char *name; int irq; };

void print_dev(const struct dev *d);

#endif
