/* The masked value is overwritten by the second argument before the macro reads b. */
typedef unsigned int u32;

u32 arg_at(int i);
void push_number(double d);

#define RETURN_BITS(b) push_number((double)(int)(b)); return 1;

int bit_mask(void)
{
    u32 b = arg_at(1);
    b = b & 0xff; /* BUG(dead-store) */
    b = arg_at(2);
    RETURN_BITS(b)
}
