#include <stdio.h>

int git_head(char *out, int n)
{
    FILE *p = popen("git rev-parse HEAD", "r");
    if (p == NULL)
        return -1;
    if (fgets(out, n, p) == NULL) {
        pclose(p);
        return -1;
    }
    return pclose(p);
}
