#include <stdio.h>

int print_all(const char **names, int n)
{
    int printed = 0;
    for (int i = 0; i < n; i++)
        if (puts(names[i]) >= 0)
            printed++;
    return printed;
}
