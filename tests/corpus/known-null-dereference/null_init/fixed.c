#include <string.h>

struct user { const char *name; int uid; };

int lookup_uid(struct user *users, int n, const char *name)
{
    struct user *found = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(users[i].name, name) == 0) {
            found = &users[i];
            break;
        }
    }
    if (found == NULL)
        return -1;
    return found->uid;
}
