#include <stdio.h>
#include <stdlib.h>

struct job { int id; int status; char *name; };

int job_finish(struct job *j)
{
    int status = j->status;
    free(j->name);
    free(j);
    if (status != 0)
        return -1;
    return 0;
}
