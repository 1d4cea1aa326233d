#include <dirent.h>
#include <string.h>

/* How many of the directories hold a file called name. */
int count_having(const char **dirs, int n, const char *name)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        DIR *d = opendir(dirs[i]); /* BUG(resource-leak) */
        if (d == NULL)
            continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, name) == 0) {
                count++;
                break;
            }
        }
        if (count > 100)
            return count;
        closedir(d);
    }
    return count;
}
