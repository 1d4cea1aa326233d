/* A macro that pushes a result and returns, written as the last statement with no semicolon
   (LuaJIT's bit library: BRET(b)}): the swapped value is read by the macro. */
typedef unsigned int u32;

u32 arg_at(int i);
void push_number(double d);

#define RETURN_BITS(b) push_number((double)(int)(b)); return 1;

int bit_swap(void)
{
    u32 b = arg_at(1);
    b = (b >> 24) | ((b >> 8) & 0xff00) | ((b & 0xff00) << 8) | (b << 24);
    RETURN_BITS(b)
}
