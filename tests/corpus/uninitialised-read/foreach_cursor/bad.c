/* An empty list leaves `last` unset: SLIST_FOREACH may run its block zero times. */
#include <sys/queue.h>

struct item {
    int v;
    SLIST_ENTRY(item) link;
};
SLIST_HEAD(items, item);

int total(struct items *head)
{
    struct item *it;
    int sum = 0;
    int last;

    SLIST_FOREACH(it, head, link) {
        if (it->v < 0)
            continue;
        sum += it->v;
        last = it->v;
    }
    return sum + last; /* BUG(uninitialised-read) */
}
