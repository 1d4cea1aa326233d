#include <stdio.h>
#include <stdlib.h>

void drop_user(char *login, int verbose)
{
    if (verbose)
        printf("dropped %s\n", login);
    free(login);
}
