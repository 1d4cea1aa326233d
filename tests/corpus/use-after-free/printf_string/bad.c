#include <stdio.h>
#include <stdlib.h>

void drop_user(char *login, int verbose)
{
    free(login);
    if (verbose)
        printf("dropped %s\n", login); /* BUG(use-after-free) */
}
