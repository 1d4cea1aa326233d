#include <stddef.h>

/* The slot looked up first is replaced before the macro reads o: that lookup is never read. */
struct value { int type; double n; };

const struct value *to_number(const struct value *v, struct value *out);
const struct value *slot_at(int idx);

#define tonumber(o, n) ((o)->type == 3 || (((o) = to_number(o, n)) != NULL))

int is_number(int idx)
{
    struct value n;
    const struct value *o = slot_at(idx); /* BUG(dead-store) */
    o = slot_at(idx + 1);
    return tonumber(o, &n);
}
