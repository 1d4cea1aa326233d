#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG(level, ...) do { if ((level) < 2) fprintf(stderr, __VA_ARGS__); } while (0)
/* Returns the error code of err from the function it is written in, with a message. */
#define FORWARD_IF_ERROR(err, ...)              \
    do {                                        \
        int const err_code = (err);             \
        if (err_code < 0) {                     \
            LOG(1, "error: " __VA_ARGS__);      \
            return err_code;                    \
        }                                       \
    } while (0)

int ready(int n);
int send_all(const char *buf, int n);

/* The buffer is freed before the error of either step is returned. */
int transfer(int n)
{
    char *buf = malloc(n);
    int rc;
    if (buf == NULL)
        return -1;
    memset(buf, 0, n);
    rc = ready(n);
    if (rc >= 0)
        rc = send_all(buf, n);
    free(buf);
    FORWARD_IF_ERROR(rc, "sending %d bytes", n);
    return 0;
}
