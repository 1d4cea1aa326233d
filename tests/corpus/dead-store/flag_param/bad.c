#include <stdio.h>

/* Prints the items, repeating the previous one where an item is missing (if asked to). */
void print_items(const char **items, int n, int fill_gaps)
{
    const char *prev = "";
    for (int i = 0; i < n; i++) {
        const char *cur = prev; /* BUG(dead-store) */
        cur = items[i];
        if (fill_gaps && cur == NULL)
            cur = prev;
        puts(cur != NULL ? cur : "");
        prev = cur;
    }
}
