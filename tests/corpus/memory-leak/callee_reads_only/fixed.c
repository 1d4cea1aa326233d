#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void show(const char *label)
{
    printf("[%s]\n", label);
}

void print_upper(const char *s)
{
    char *copy = strdup(s);
    if (copy == NULL)
        return;
    for (char *c = copy; *c; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 32);
    show(copy);
    free(copy);
}
