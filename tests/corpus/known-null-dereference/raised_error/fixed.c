#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

/* An interpreter's error path, as Lua writes it: raise_error never returns (it jumps to the
   protected call, or exits), so after report() the parser never reaches the dereference. */
struct state { jmp_buf *on_error; int status; };
struct block { struct block *previous; int breakable; int breaks; };

#define THROW(s) longjmp(*(s)->on_error, 1)

static void raise_error(struct state *s, int code)
{
    if (s->on_error) {
        s->status = code;
        THROW(s);
    } else {
        fprintf(stderr, "unprotected error %d\n", code);
        exit(EXIT_FAILURE);
    }
}

static int report(struct state *s, const char *msg)
{
    fprintf(stderr, "syntax error: %s\n", msg);
    raise_error(s, 3);
    return 0;
}

int break_target(struct state *s, struct block *bl)
{
    while (bl && !bl->breakable)
        bl = bl->previous;
    if (!bl)
        report(s, "no loop to break");
    return bl->breaks;
}
