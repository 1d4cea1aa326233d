/* An opcode handler (SQLite's OP_AutoCommit): every branch jumps away, and the author marks the
 * end as never reached with assert(0). */
#include <assert.h>

int halt(void);
void set_error(const char *message);

int auto_commit(int desired, int current)
{
    int rc;
    if (desired != current) {
        rc = halt();
        goto done;
    } else {
        set_error("cannot start a transaction within a transaction");
        rc = 1;
        goto done;
    }
    /*NOTREACHED*/ assert(0);
done:
    return rc;
}
