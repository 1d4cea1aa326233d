/* An opcode handler (SQLite's OP_AutoCommit): every branch jumps away, so the state update the
 * author put after them never runs. */
#include <assert.h>

int halt(void);
void set_error(const char *message);

static int transactions;

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
    transactions++; /* BUG(unreachable-code) */
done:
    return rc;
}
