#include <stdio.h>

int print_all(const char **names, int n)
{
    int printed; /* BUG(unused-variable) */
    for (int i = 0; i < n; i++)
        puts(names[i]);
    printed = n; /* BUG(dead-store) */
    return 0;
}
