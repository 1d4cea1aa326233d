#include <stdio.h>
#include <stdlib.h>

struct job { int id; int status; char *name; };

int job_finish(struct job *j)
{
    free(j->name);
    free(j);
    if (j->status != 0) /* BUG(use-after-free) */
        return -1;
    return 0;
}
