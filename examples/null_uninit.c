/* An unchecked allocation and a variable read before it is set.
 *
 * Expected findings (a BUG(...) comment marks each line that ctlsp reports):
 *   line 19  null-dereference    malloc() may return NULL; `v` is written through unchecked
 *   line 32  uninitialised-read  `value` has no value when the answer is neither 'y' nor 'n'
 */
#include <stdlib.h>

struct vec {
    int *items;
    int len;
};

struct vec *vec_new(int len)
{
    struct vec *v;
    v = malloc(sizeof *v);
    /* missing: if (v == NULL) return NULL; */
    v->len = len; /* BUG(null-dereference) */
    v->items = NULL;
    return v;
}

/* 1 for "y...", 0 for "n...": but any other answer returns garbage. */
int parse_answer(const char *answer)
{
    int value;
    if (answer[0] == 'y')
        value = 1;
    else if (answer[0] == 'n')
        value = 0;
    return value; /* BUG(uninitialised-read) */
}
