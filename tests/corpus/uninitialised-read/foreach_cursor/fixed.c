/* <sys/queue.h>'s SLIST_FOREACH(it, head, link) is a for loop that sets its cursor `it` before the
   block reads it; ctlsp does not read system headers, so the macro's name says it iterates. */
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
    int last = 0;

    SLIST_FOREACH(it, head, link) {
        if (it->v < 0)
            continue;
        sum += it->v;
        last = it->v;
    }
    return sum + last;
}
