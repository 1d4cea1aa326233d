#include <stddef.h>

/* Lua's tonumber(o, n) reads the slot o points to, then may point o at a converted copy: the
   value stored to o before the call is read by the macro. */
struct value { int type; double n; };

const struct value *to_number(const struct value *v, struct value *out);
const struct value *slot_at(int idx);

#define tonumber(o, n) ((o)->type == 3 || (((o) = to_number(o, n)) != NULL))

int is_number(int idx)
{
    struct value n;
    const struct value *o = slot_at(idx);
    return tonumber(o, &n);
}
